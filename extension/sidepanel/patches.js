// The "Revert page changes" control: shown while the bound tab has Dev
// mode changes (injected CSS, element patches) that still apply; one click
// undoes them all in the background (dev_revert).
import { send } from "../common/api.js";
import { ACTION } from "../common/protocol.js";
import { t } from "../common/i18n.js";

export class PatchControl {
  constructor(button) {
    this.button = button;
    this.tabId = null;
    button.addEventListener("click", () => this.revert());
  }

  // show binds the control to a tab and asks how many changes it has.
  async show(tabId) {
    this.tabId = tabId;
    const reply = await send({ action: ACTION.DEV_PATCHES, tabId });
    if (this.tabId !== tabId) return;
    const list = reply.ok && Array.isArray(reply.patches) ? reply.patches : [];
    this.button.hidden = list.length === 0;
    this.button.textContent = t("patches_revert_count", { count: list.length });
    this.button.title = list.map((p) => `${p.id}: ${p.kind}${p.target ? ` ${p.target}` : ""}`).join("\n");
  }

  async revert() {
    const tabId = this.tabId;
    this.button.disabled = true;
    const reply = await send({ action: ACTION.DEV_REVERT, tabId });
    this.button.disabled = false;
    if (!reply.ok) this.button.title = reply.error;
    await this.show(tabId);
  }
}
