// The line above the composer while a run works: which step it is on and
// what it is doing now, so long work never looks stuck.
import { EVENT, STATUS } from "../common/protocol.js";
import { summarizeArgs } from "./transcript.js";
import { usageLine } from "./usage.js";
import { N_, t } from "../common/i18n.js";

const DOING = {
  get_accessibility_tree: N_("doing_reading"),
  read_page: N_("doing_reading"),
  get_interactive_elements: N_("doing_controls"),
  click_ax: N_("doing_clicking"),
  click: N_("doing_clicking"),
  type_ax: N_("doing_typing"),
  type_text: N_("doing_typing"),
  set_field: N_("doing_field"),
  press_keys: N_("doing_keys"),
  navigate: N_("doing_opening"),
  scroll: N_("doing_scrolling"),
  fetch_url: N_("doing_other_page"),
  research_url: N_("doing_other_page"),
  wait_for_element: N_("doing_waiting"),
  wait_for_stable: N_("doing_waiting"),
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
        this.show(t("progress_starting"));
        break;
      case EVENT.STEP:
        this.step = ev.step ?? this.step + 1;
        this.show(t("progress_thinking", { step: this.step }));
        break;
      case EVENT.TOOL_CALL: {
        const what = DOING[ev.name] ? t(DOING[ev.name]) : ev.name;
        const args = summarizeArgs(ev.args ?? "");
        this.show(t("progress_step", { step: this.step || 1, what: `${what}${args ? ` (${args})` : ""}` }));
        break;
      }
      case EVENT.CLARIFY:
      case EVENT.APPROVAL:
      case EVENT.PLAN_REVIEW:
        this.show(t("progress_waiting"));
        break;
      case EVENT.ALLOWANCE:
        this.show(t("progress_allowance"));
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
    const line = secs >= 5 ? `${text} · ${t("progress_seconds", { secs })}` : text;
    this.el.textContent = this.usage ? `${line} · ${usageLine(this.usage)}` : line;
    this.el.hidden = false;
  }
}
