// The line above the composer while a run works: which step it is on and
// what it is doing now, so long work never looks stuck.
import { EVENT, STATUS } from "../common/protocol.js";
import { summarizeArgs } from "./transcript.js";
import { usageLine } from "./usage.js";

const DOING = {
  get_accessibility_tree: "reading the page",
  read_page: "reading the page",
  get_interactive_elements: "reading the page's controls",
  click_ax: "clicking",
  click: "clicking",
  type_ax: "typing",
  type_text: "typing",
  set_field: "filling in a field",
  press_keys: "pressing keys",
  navigate: "opening a page",
  scroll: "scrolling",
  fetch_url: "reading another page",
  research_url: "reading another page",
  wait_for_element: "waiting for the page",
  wait_for_stable: "waiting for the page",
};

export class Progress {
  constructor(el) {
    this.el = el;
    this.step = 0;
    this.started = 0;
    this.usage = null; // the run's token totals so far
    this.text = "";
  }

  event(ev) {
    switch (ev.kind) {
      case EVENT.RUN_STARTED:
        this.step = 0;
        this.started = Date.now();
        this.usage = null;
        this.show("Starting…");
        break;
      case EVENT.STEP:
        this.step = ev.step ?? this.step + 1;
        this.show(`Step ${this.step} · thinking…`);
        break;
      case EVENT.TOOL_CALL: {
        const what = DOING[ev.name] ?? ev.name;
        const args = summarizeArgs(ev.args ?? "");
        this.show(`Step ${this.step || 1} · ${what}${args ? ` (${args})` : ""}`);
        break;
      }
      case EVENT.CLARIFY:
      case EVENT.APPROVAL:
      case EVENT.PLAN_REVIEW:
        this.show("Waiting for your answer above");
        break;
      case EVENT.ALLOWANCE:
        this.show("Paused at the cost allowance: answer above");
        break;
      case EVENT.USAGE:
        if (ev.total) this.usage = ev.total;
        if (this.text) this.show(this.text);
        break;
    }
  }

  status(status) {
    if (status !== STATUS.RUNNING) this.el.hidden = true;
  }

  show(text) {
    this.text = text;
    const secs = this.started ? Math.round((Date.now() - this.started) / 1000) : 0;
    const line = secs >= 5 ? `${text} · ${secs} s` : text;
    this.el.textContent = this.usage ? `${line} · ${usageLine(this.usage)}` : line;
    this.el.hidden = false;
  }
}
