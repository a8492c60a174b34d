// SlashMenu is the composer's command autocomplete: typing "/" lists the
// commands of SLASH_COMMANDS that start with what is typed, and after a
// command and a space its flags. Arrow keys choose, Tab (or Enter on an
// unfinished name) completes, Escape closes; a click completes too.
import { el } from "../common/dom.js";
import { SLASH_COMMANDS, findCommand } from "./commands.js";
import { t } from "../common/i18n.js";

export class SlashMenu {
  constructor(list, prompt) {
    this.list = list;
    this.prompt = prompt;
    this.items = []; // {insert, label, about}
    this.active = 0;
    this.exact = false; // what is typed is already a whole name
    prompt.setAttribute("aria-autocomplete", "list");
    prompt.setAttribute("aria-controls", list.id);
    prompt.addEventListener("input", () => this.update());
    prompt.addEventListener("blur", () => setTimeout(() => this.close(), 150));
    list.addEventListener("mousedown", (e) => e.preventDefault()); // keep the composer's focus
    list.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-index]");
      if (li) this.accept(Number(li.dataset.index));
    });
    this.close();
  }

  // candidates returns what to offer for the composer's text.
  candidates(text) {
    if (!text.startsWith("/") || text.includes("\n")) return [];
    const m = /^(\S+)(\s+)?(.*)$/.exec(text);
    const typed = m[1].toLowerCase();
    if (!m[2]) {
      this.exact = SLASH_COMMANDS.some((c) => c.name === typed);
      return SLASH_COMMANDS.filter((c) => c.name.startsWith(typed)).map((c) => ({
        insert: `${c.name} `,
        label: c.usage[0],
        about: t(c.about),
      }));
    }
    const cmd = findCommand(text);
    const rest = m[3];
    // Flags are offered at the first argument only, while it is one token.
    if (!cmd?.flags || /\s/.test(rest) || (rest && !rest.startsWith("-"))) return [];
    this.exact = Object.hasOwn(cmd.flags, rest.toLowerCase());
    return Object.entries(cmd.flags)
      .filter(([flag]) => flag.startsWith(rest.toLowerCase()))
      .map(([flag, about]) => ({ insert: `${cmd.name} ${flag} `, label: flag, about: t(about) }));
  }

  update() {
    this.items = this.candidates(this.prompt.value);
    this.active = 0;
    if (this.items.length === 0) return this.close();
    this.list.replaceChildren(
      ...this.items.map((item, i) =>
        el(
          "li",
          { id: `slash-${i}`, role: "option", "data-index": i },
          el("span", { className: "slash-label", text: item.label }),
          el("span", { className: "slash-about", text: item.about }),
        ),
      ),
    );
    this.list.hidden = false;
    this.prompt.setAttribute("aria-expanded", "true");
    this.mark();
  }

  mark() {
    for (const [i, li] of [...this.list.children].entries()) li.setAttribute("aria-selected", String(i === this.active));
    this.prompt.setAttribute("aria-activedescendant", `slash-${this.active}`);
    this.list.children[this.active]?.scrollIntoView({ block: "nearest" });
  }

  close() {
    this.items = [];
    this.list.hidden = true;
    this.list.replaceChildren();
    this.prompt.setAttribute("aria-expanded", "false");
    this.prompt.removeAttribute("aria-activedescendant");
  }

  accept(index) {
    const item = this.items[index];
    if (!item) return;
    this.prompt.value = item.insert;
    this.prompt.focus();
    this.prompt.setSelectionRange(item.insert.length, item.insert.length);
    // A command with flags goes straight on to offer them.
    this.update();
  }

  // keydown handles the menu's keys; true when the key was used.
  keydown(e) {
    if (this.list.hidden || e.isComposing) return false;
    const n = this.items.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      this.mark();
    } else if (e.key === "Tab" && !e.shiftKey) {
      this.accept(this.active);
    } else if (e.key === "Enter" && !e.shiftKey && !e.altKey && !this.exact) {
      this.accept(this.active);
    } else if (e.key === "Escape") {
      this.close();
    } else {
      return false;
    }
    e.preventDefault();
    return true;
  }
}
