// The panel's empty state: what WebBrain can do on this page, example
// requests that fill the composer, and whether the model answers — with
// what to do when it does not (the usual first-run problem is a local
// server that refuses the extension).
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { activeProvider, describeError } from "./hints.js";

const EXAMPLES = [
  { text: "Summarize this page in five bullet points.", label: "Summarize this page" },
  { text: "What are the key facts and numbers on this page?", label: "Pull out the key facts" },
  { text: "Find the contact email or phone number on this page.", label: "Find contact details" },
  { text: "Fill in this form with my details, and let me check it before sending.", label: "Fill in a form" },
];

export class Welcome {
  // root is the welcome section; transcript the conversation it stands in
  // for while empty; onPick(text) puts an example in the composer.
  constructor(root, transcript, { onPick }) {
    this.root = root;
    this.transcript = transcript;
    this.status = el("p", { className: "welcome-status", role: "status" });
    this.tested = null; // the provider id last tested
    const list = el("ul", { className: "welcome-examples", "aria-label": "Examples" });
    for (const ex of EXAMPLES) {
      const b = el("button", { type: "button", className: "welcome-example", text: ex.label, title: ex.text });
      b.addEventListener("click", () => onPick(ex.text));
      list.append(el("li", {}, b));
    }
    root.replaceChildren(
      el("h2", { text: "What can I do on this page?" }),
      el("p", {
        className: "help",
        text: "Ask about the page, or tell WebBrain what to do: it reads the page, clicks and types in this tab, and asks you before anything it cannot undo.",
      }),
      list,
      this.status,
    );
    new MutationObserver(() => this.toggle()).observe(transcript, { childList: true });
    this.toggle();
  }

  toggle() {
    this.root.hidden = this.transcript.children.length > 0;
  }

  // check asks the active provider whether it answers, once per provider.
  async check(settings) {
    const p = activeProvider(settings);
    if (!p) {
      this.show("error", "No model is set up yet. Open Settings to add one: a local Ollama server or a cloud API key.");
      return;
    }
    if (this.tested === p.id) return;
    this.tested = p.id;
    this.show("", `Checking ${p.name || p.id}…`);
    const reply = await send({ action: ACTION.PROVIDER_TEST, provider: p });
    if (reply.ok) {
      this.show("ok", `${p.name || p.id} answers${reply.model ? ` (${reply.model})` : ""}. Ready.`);
      return;
    }
    const item = describeError(reply.error, p);
    this.show("error", item.text, item.hint);
  }

  show(kind, text, hint) {
    this.status.className = `welcome-status ${kind}`.trim();
    this.status.replaceChildren(text);
    if (hint)
      this.status.append(
        el("span", { className: "hint", text: ` ${hint.text}` }),
        hint.code ? el("code", { text: hint.code }) : "",
      );
  }
}
