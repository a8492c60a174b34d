// QueueView renders a tab's queued follow-ups (docs/PROTOCOL.md, "Queue
// and steering") into #queue: each row has Steer while a run is active,
// Send when none is, and Edit and Delete. Paused rows (after Stop) are
// never sent by themselves.
import { el } from "../common/dom.js";
import { t } from "../common/i18n.js";

export class QueueView {
  constructor(root, { onSteer, onSend, onEdit, onDelete }) {
    this.root = root;
    this.handlers = { onSteer, onSend, onEdit, onDelete };
  }

  render(items, running) {
    this.root.hidden = items.length === 0;
    this.root.replaceChildren(...items.map((item) => this.row(item, running)));
  }

  row(item, running) {
    const button = (label, action, handler) => {
      const b = el("button", { type: "button", className: `queue-${action}`, text: label });
      b.addEventListener("click", () => handler(item));
      return b;
    };
    return el(
      "li",
      { className: item.paused ? "queued paused" : "queued", "data-id": item.id },
      el("span", { className: "queue-text", text: item.text }),
      item.paused ? el("span", { className: "queue-state", text: t("queue_paused") }) : null,
      running
        ? button(t("queue_steer"), "steer", this.handlers.onSteer)
        : button(t("composer_send"), "send", this.handlers.onSend),
      button(t("common_edit"), "edit", this.handlers.onEdit),
      button(t("common_delete"), "delete", this.handlers.onDelete),
    );
  }
}
