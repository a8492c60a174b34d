// The selection a page's toolbar (More…, Continue in side panel) or the
// context menu handed to this tab's panel (docs/decisions/selection-toolbar.md):
// the background keeps it in selectionContext:<tabId>; the panel shows it
// as a quote above the composer, and the next message sends its id, so the
// run quotes it (read-only, inside the untrusted boundary). With a
// continuation the panel sends the request at once.
import { api } from "../common/api.js";
import { STORAGE, tabKey } from "../common/protocol.js";

// The words this view shows, in one place for translation.
export const SELECTION_TEXT = Object.freeze({
  heading: "Selected text",
  dismiss: "Remove the selected text",
  asked: "About the selected text:",
  placeholder: "Ask about the selected text…",
});

const QUOTE_CHARS = 600; // what the quote shows; the run gets all of it

export class SelectionQuote {
  // composer is the form the quote sits above; onPrompt(text) sends a
  // request the selection came with.
  constructor(composer, prompt, { onPrompt }) {
    this.prompt = prompt;
    this.onPrompt = onPrompt;
    this.tabId = null;
    this.pending = null;
    this.placeholder = prompt.placeholder;
    this.root = document.createElement("section");
    this.root.id = "selection-quote";
    this.root.className = "selection-quote";
    this.root.hidden = true;
    this.root.setAttribute("aria-label", SELECTION_TEXT.heading);
    const head = document.createElement("div");
    head.className = "selection-quote-head";
    const title = document.createElement("span");
    title.textContent = SELECTION_TEXT.heading;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "selection-quote-close";
    close.textContent = "×";
    close.title = close.ariaLabel = SELECTION_TEXT.dismiss;
    close.addEventListener("click", () => this.dismiss());
    head.append(title, close);
    this.quote = document.createElement("blockquote");
    this.root.append(head, this.quote);
    composer.before(this.root);
    api.storage.onChanged?.addListener((changes, area) => {
      if (area === "session" && this.tabId != null && changes[tabKey(STORAGE.SELECTION_CONTEXT, this.tabId)]) this.load();
    });
  }

  show(tabId) {
    this.tabId = tabId;
    this.load();
  }

  async load() {
    const tabId = this.tabId;
    const key = tabKey(STORAGE.SELECTION_CONTEXT, tabId);
    let got = {};
    try {
      got = await api.storage.session.get(key);
    } catch {
      // no session storage: nothing waits
    }
    if (tabId !== this.tabId) return;
    this.render(got[key] ?? null);
  }

  render(pending) {
    const wasPrompted = this.pending?.id === pending?.id;
    this.pending = pending?.id ? pending : null;
    this.root.hidden = !this.pending;
    this.prompt.placeholder = this.pending ? SELECTION_TEXT.placeholder : this.placeholder;
    if (!this.pending) return;
    const text = this.pending.text;
    this.quote.textContent = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
    if (this.pending.prompt && !wasPrompted) this.onPrompt(this.pending.prompt);
    else this.prompt.focus({ preventScroll: true });
  }

  // take hands the next message the selection: its id for chat_start and
  // the transcript's line about it. null when none waits.
  take() {
    if (!this.pending) return null;
    const { id, text } = this.pending;
    this.render(null);
    const shown = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
    return { id, notice: `${SELECTION_TEXT.asked} “${shown}”` };
  }

  dismiss() {
    const key = tabKey(STORAGE.SELECTION_CONTEXT, this.tabId);
    this.render(null);
    api.storage.session.remove(key).catch(() => {});
  }
}
