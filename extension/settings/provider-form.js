// The provider form: fills it from a provider object, reads it back, and
// keeps the kind-dependent parts (default base URL, Azure fields) in step.
import { el } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { PROVIDER_KIND, TIER } from "../common/protocol.js";
import { KIND_DEFAULTS, isDefaultUrl, isPresetName } from "./kinds.js";
import { loadPresets } from "./presets.js";
import { T } from "./strings.js";

const $ = (id) => document.getElementById(id);
const TEXT_FIELDS = ["name", "kind", "baseUrl", "apiKey", "model", "tier", "deployment", "apiVersion"];

// The background never sends API keys to extension pages, only whether one
// is stored (apiKeySet). keySet is that flag for the provider in the form:
// an empty key field keeps the stored key while it holds; Remove clears it.
let keySet = false;

// The vision modes of a provider's visionMode field.
export const VISION = Object.freeze({ AUTO: "auto", ALWAYS: "always", NEVER: "never" });

// visionModeOf reads a provider's vision mode; the older boolean vision
// true means Always.
export function visionModeOf(p) {
  if (Object.values(VISION).includes(p?.visionMode)) return p.visionMode;
  return p?.vision === true ? VISION.ALWAYS : VISION.AUTO;
}

let presets = [];

export async function setupProviderForm() {
  const preset = $("p-preset");
  $("p-tier").addEventListener("change", showTierHelp);
  preset.addEventListener("change", () => {
    const chosen = presets[Number(preset.value)];
    preset.value = "";
    if (!chosen) return;
    const name = $("p-name");
    if (!name.value.trim() || isPresetName(name.value)) name.value = chosen.name;
    $("p-kind").value = chosen.kind;
    $("p-baseUrl").value = chosen.baseUrl;
    if (chosen.model) $("p-model").value = chosen.model;
    if (chosen.tier) $("p-tier").value = chosen.tier;
    if (chosen.visionMode) $("p-visionMode").value = chosen.visionMode;
    showKindFields();
    showTierHelp();
  });

  $("p-kind").addEventListener("change", () => {
    const url = $("p-baseUrl");
    if (isDefaultUrl(url.value)) url.value = KIND_DEFAULTS[$("p-kind").value] ?? "";
    showKindFields();
  });

  $("p-apiKey-clear").addEventListener("click", () => {
    keySet = false;
    showKeyState(t("settings_key_will_go"));
    $("p-apiKey").focus();
  });

  const toggle = $("p-apiKey-toggle");
  toggle.addEventListener("click", () => {
    const shown = $("p-apiKey").type === "text";
    $("p-apiKey").type = shown ? "password" : "text";
    toggle.setAttribute("aria-pressed", String(!shown));
    toggle.textContent = shown ? t("settings_show") : t("settings_hide");
  });

  presets = await loadPresets();
  const group = (label, local) =>
    el(
      "optgroup",
      { label },
      ...presets.map((p, i) => (p.local === local ? el("option", { value: String(i), text: p.name }) : null)),
    );
  preset.append(group(T.presetsLocal, true), group(T.presetsCloud, false));
}

function showTierHelp() {
  $("p-tier-help").textContent = T.tierHelp[$("p-tier").value] ?? "";
}

function showKeyState(text) {
  $("p-apiKey-state").textContent = text;
  $("p-apiKey-state").hidden = !text;
  $("p-apiKey-clear").hidden = !keySet;
  $("p-apiKey").placeholder = keySet ? t("settings_key_replace_placeholder") : t("settings_key_not_needed");
}

function showKindFields() {
  $("azure-fields").hidden = $("p-kind").value !== PROVIDER_KIND.AZURE;
}

export function fillProviderForm(p) {
  for (const f of TEXT_FIELDS) $(`p-${f}`).value = p[f] ?? "";
  if (!p.kind) $("p-kind").value = PROVIDER_KIND.OPENAI_CHAT;
  if (!p.tier) $("p-tier").value = TIER.MID;
  $("p-contextWindow").value = p.contextWindow ? String(p.contextWindow) : "";
  $("p-visionMode").value = visionModeOf(p);
  showTierHelp();
  keySet = p.apiKeySet === true;
  $("p-apiKey").value = "";
  showKeyState(keySet ? t("settings_key_is_saved") : "");
  $("p-apiKey").type = "password";
  $("p-apiKey-toggle").setAttribute("aria-pressed", "false");
  $("p-apiKey-toggle").textContent = t("settings_show");
  showKindFields();
}

// readProviderForm returns the provider as the form shows it. Values are
// passed on unchecked: the background validates and names a bad field.
export function readProviderForm(id) {
  const p = { id };
  for (const f of TEXT_FIELDS) p[f] = $(`p-${f}`).value.trim();
  const cw = $("p-contextWindow");
  p.contextWindow = cw.value === "" ? 0 : cw.valueAsNumber;
  if (cw.value === "" && cw.validity.badInput) p.contextWindow = NaN;
  // visionMode is the setting; vision, the older boolean, says the same
  // for configurations that only know it (Always is true).
  p.visionMode = $("p-visionMode").value;
  p.vision = p.visionMode === VISION.ALWAYS;
  p.apiKeySet = keySet && p.apiKey === "";
  if (p.kind !== PROVIDER_KIND.AZURE) {
    delete p.deployment;
    delete p.apiVersion;
  }
  return p;
}
