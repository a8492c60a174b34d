// The panel's empty state: what WebBrain can do on this page, example
// requests that fill the composer, and whether the model answers — with
// what to do when it does not (the usual first-run problem is a local
// server that refuses the extension).
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { activeProvider, describeError } from "./hints.js";
import { N_, t } from "../common/i18n.js";

// The examples are the user's own words once picked, so they are in the
// user's language: the answer follows it.
const EXAMPLES = [
  { text: N_("welcome_example_summary"), label: N_("welcome_example_summary_label") },
  { text: N_("welcome_example_facts"), label: N_("welcome_example_facts_label") },
  { text: N_("welcome_example_contact"), label: N_("welcome_example_contact_label") },
  { text: N_("welcome_example_form"), label: N_("welcome_example_form_label") },
];

export class Welcome {
  // root is the welcome section; transcript the conversation it stands in
  // for while empty; onPick(text) puts an example in the composer.
  constructor(root, transcript, { onPick }) {
    this.root = root;
    this.transcript = transcript;
    this.status = el("p", { className: "welcome-status", role: "status" });
    this.tested = null; // the provider id last tested
    const list = el("ul", { className: "welcome-examples", "aria-label": t("welcome_examples") });
    for (const ex of EXAMPLES) {
      const text = t(ex.text);
      const b = el("button", { type: "button", className: "welcome-example", text: t(ex.label), title: text });
      b.addEventListener("click", () => onPick(text));
      list.append(el("li", {}, b));
    }
    root.replaceChildren(
      el("h2", { text: t("welcome_title") }),
      el("p", {
        className: "help",
        text: t("welcome_help"),
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
      this.show("error", t("welcome_no_model"));
      return;
    }
    if (this.tested === p.id) return;
    this.tested = p.id;
    this.show("", t("welcome_checking", { name: p.name || p.id }));
    const reply = await send({ action: ACTION.PROVIDER_TEST, provider: p });
    if (reply.ok) {
      this.show(
        "ok",
        reply.model
          ? t("welcome_ready_model", { name: p.name || p.id, model: reply.model })
          : t("welcome_ready", { name: p.name || p.id }),
      );
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
