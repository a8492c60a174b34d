// ReadingScroll is the chat's reading-first scroll: a new question is
// brought to the top and stays in view while its answer grows, instead of
// being pushed away by the live edge. The user's own scroll to the bottom
// resumes following the answer; a reading position is otherwise kept. One
// floating button offers the next move as the view crosses the turn's two
// anchors (the question and the live edge): Follow response, Jump to
// latest, or Back to question. Cards that wait for the user, errors and
// slash-command output are always brought into view.

import { N_, t } from "../common/i18n.js";

const NEAR_PX = 40;
const FORCED_ROLES = new Set(["clarify", "approval", "plan", "error"]);

// The button's offers, as message keys (its data-jump holds the key).
export const JUMP = Object.freeze({
  FOLLOW: N_("jump_follow"),
  LATEST: N_("jump_latest"),
  QUESTION: N_("jump_question"),
});

export class ReadingScroll {
  constructor(root, button) {
    this.root = root;
    this.button = button;
    this.following = true;
    this.question = null; // the latest question's node
    this.ours = false; // the next scroll event is one this code caused
    // pinned: the view rises with the answer until the question reaches
    // the top, then stays; the user's own scroll ends it.
    this.pinned = false;
    root.addEventListener("scroll", () => this.scrolled(), { passive: true });
    button.addEventListener("click", () => this.jump());
    button.hidden = true;
  }

  // added places a new item: a question at the top, a card or command
  // output in view, anything else at the live edge when following.
  added(item, node) {
    if (item.role === "user" && !item.correction) {
      this.question = node;
      this.following = false;
      this.pinned = true;
      this.raise();
    } else if (FORCED_ROLES.has(item.role) || item.ephemeral || item.stepLimit) {
      this.bringIntoView(node);
    } else if (this.following) {
      this.toEnd();
    }
    this.refresh();
  }

  // grew follows a growing answer only when the user asked for that.
  grew() {
    if (this.following) this.toEnd();
    else if (this.pinned) this.raise();
    this.refresh();
  }

  // raise scrolls toward the question at the top: a question at the end of
  // a long chat rises as its answer makes room below it.
  raise() {
    const q = this.question;
    if (!q?.isConnected) return;
    const top = this.offsetOf(q) - 8;
    if (this.root.scrollTop < top) this.scrollTo(top);
  }

  // restored shows a conversation reopened from storage at its end.
  restored() {
    this.question = null;
    this.following = true;
    this.pinned = false;
    this.toEnd();
    this.refresh();
  }

  atBottom() {
    const r = this.root;
    return r.scrollHeight - r.scrollTop - r.clientHeight < NEAR_PX;
  }

  offsetOf(node) {
    return node.getBoundingClientRect().top - this.root.getBoundingClientRect().top + this.root.scrollTop;
  }

  scrollTo(top) {
    const before = this.root.scrollTop;
    this.root.scrollTop = Math.max(0, top);
    // A scroll event comes only when the position really moved.
    if (this.root.scrollTop !== before) this.ours = true;
  }

  toEnd() {
    this.scrollTo(this.root.scrollHeight);
  }

  bringIntoView(node) {
    const top = this.offsetOf(node);
    const view = this.root.scrollTop;
    const bottom = top + node.offsetHeight;
    if (top >= view && bottom <= view + this.root.clientHeight) return;
    // A card taller than the view shows its top; otherwise its bottom edge.
    this.scrollTo(node.offsetHeight > this.root.clientHeight ? top - 8 : bottom - this.root.clientHeight + 8);
    this.following = this.atBottom();
  }

  scrolled() {
    if (this.ours) {
      this.ours = false;
    } else {
      // The user's own scroll: reaching the bottom follows again, leaving
      // it keeps the reading position.
      this.following = this.atBottom();
      this.pinned = false;
    }
    this.refresh();
  }

  // state is the button's offer for the current view, or "" for none.
  state() {
    const q = this.question;
    if (this.atBottom()) {
      return q?.isConnected && this.offsetOf(q) < this.root.scrollTop ? JUMP.QUESTION : "";
    }
    const running = this.root.dataset.runStatus === "running";
    // Reading inside the latest turn while its answer still grows.
    if (running && q?.isConnected && this.offsetOf(q) <= this.root.scrollTop + this.root.clientHeight) return JUMP.FOLLOW;
    return JUMP.LATEST;
  }

  refresh() {
    const label = this.state();
    this.button.hidden = !label;
    if (label) this.button.textContent = t(label);
    this.button.dataset.jump = label;
  }

  jump() {
    if (this.button.dataset.jump === JUMP.QUESTION && this.question?.isConnected) {
      this.following = false;
      this.pinned = false;
      this.scrollTo(this.offsetOf(this.question) - 8);
    } else {
      this.following = true;
      this.toEnd();
    }
    this.refresh();
  }
}
