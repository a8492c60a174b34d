// Settings page (also the options page): providers as cards with a Test
// each, the provider form, and the sections of settings below it. Every
// save sends the whole settings object; the background validates it and
// either stores all of it or nothing, naming the invalid field.
import { api, send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION, PLAN_REVIEW, PLANNER, PROVIDER_KIND, THEME, TIER } from "../common/protocol.js";
import { applyTheme } from "../common/theme.js";
import { fillCost, readCost } from "./cost.js";
import { setupNav } from "./nav.js";
import { fillProviderForm, readProviderForm, setupProviderForm, visionModeOf } from "./provider-form.js";
import { T } from "./strings.js";
import { setupTransfer } from "./transfer.js";

const $ = (id) => document.getElementById(id);
const PROVIDER_FIELDS = [
  "name",
  "kind",
  "baseUrl",
  "apiKey",
  "model",
  "tier",
  "contextWindow",
  "visionMode",
  "deployment",
  "apiVersion",
];

let settings = {
  providers: [],
  activeProvider: "",
  siteAdapters: true,
  askBeforeActions: true,
  planner: PLANNER.TRY,
  planReview: PLAN_REVIEW.STRICT,
  experimentalWebMCP: false,
  captchaSolverKeySet: false,
};
// defaults are the first-start values the background reports (the step
// limit's default is the background's, never this page's).
let defaults = {};
// tests holds each saved provider's last Test result, by provider id.
let tests = {};
let editing = null; // {index} of the provider in the form; index -1 = new
// The "Saved." note stays this long, then leaves the corner free.
const SAVED_SHOWN_MS = 6000;
let savedTimer;

async function load() {
  const reply = await send({ action: ACTION.SETTINGS_GET });
  if (!reply.ok) {
    showError($("load-error"), reply.error);
    return;
  }
  settings = { ...reply.settings, providers: reply.settings?.providers ?? [] };
  defaults = reply.defaults ?? {};
  tests = reply.providerTests ?? {};
  renderList();
  $("max-steps").value = settings.maxSteps ? String(settings.maxSteps) : "";
  $("max-steps").placeholder = defaults.maxSteps ? String(defaults.maxSteps) : "";
  $("max-steps-help").textContent = defaults.maxSteps ? T.maxStepsHelp(defaults.maxSteps) : "";
  $("site-adapters").checked = settings.siteAdapters !== false; // absent means on
  $("ask-before-actions").checked = settings.askBeforeActions !== false; // absent means on
  $("planner").value = settings.planner || PLANNER.TRY;
  $("plan-review").value = settings.planReview || PLAN_REVIEW.STRICT;
  $("scheduled-tasks").checked = settings.scheduledTasksEnabled !== false; // absent means on
  $("notify-sound").checked = settings.notifySound !== false; // absent means on
  $("research-escalation").checked = settings.researchEscalationEnabled === true; // absent means off
  $("memory-on").checked = settings.memory !== false; // absent means on
  $("memory-learn").checked = settings.memoryAutoLearn !== false;
  $("experimental-webmcp").checked = settings.experimentalWebMCP === true; // absent means off
  showCaptchaKeyState();
  $("traces").checked = settings.traces === true; // absent means off
  $("theme").value = settings.theme || THEME.SYSTEM;
  applyTheme(settings.theme);
  fillCost(settings);
}

// renderList shows each provider as a card: its name, wire format, model,
// address, tier and vision, whether a key is saved, and its last Test.
function renderList() {
  const list = $("provider-list");
  list.replaceChildren(...settings.providers.map(card));
  renderDecisionModels();
}

function card(p, i) {
  const name = p.name || p.id;
  const active = p.id === settings.activeProvider;
  const radio = el("input", {
    type: "radio",
    name: "active-provider",
    className: "provider-active",
    value: p.id,
    checked: active,
    "aria-label": T.useLabel(name),
  });
  radio.addEventListener("change", () => choose(p.id));
  const editButton = el("button", { type: "button", className: "provider-edit", text: T.edit, "aria-label": T.editLabel(name) });
  editButton.addEventListener("click", () => edit(i));
  const testButton = el("button", { type: "button", className: "provider-test", text: T.test, "aria-label": T.testLabel(name) });
  testButton.addEventListener("click", () => testSaved(p.id, testButton));
  let host = p.baseUrl;
  try {
    host = new URL(p.baseUrl).host;
  } catch {}
  const classes = ["provider-card", active ? "active" : "", editing?.index === i ? "editing" : ""];
  return el(
    "li",
    { "data-id": p.id, className: classes.filter(Boolean).join(" ") },
    el(
      "div",
      { className: "card-head" },
      el("h3", { text: name }),
      el("label", { className: "use" }, radio, active ? T.inUse : T.use),
    ),
    el(
      "dl",
      {},
      el("dt", { text: T.format }),
      el("dd", { className: "provider-kind", text: T.kinds[p.kind] ?? p.kind }),
      el("dt", { text: T.model }),
      el("dd", {
        className: "provider-model",
        text: p.kind === PROVIDER_KIND.AZURE ? p.deployment : p.model || T.firstListedModel,
      }),
      el("dt", { text: T.address }),
      el("dd", { text: host }),
    ),
    el(
      "div",
      { className: "badges" },
      el("span", { className: "badge", text: T.tierBadge[p.tier] ?? p.tier }),
      el("span", { className: "badge", text: T.visionBadge[visionModeOf(p)] }),
      el("span", { className: "badge", text: p.apiKeySet ? T.keySaved : T.noKey }),
    ),
    status(tests[p.id]),
    el("div", { className: "card-actions" }, testButton, editButton),
  );
}

// status is a card's line about its last Test.
function status(rec, pending = false) {
  const line = el("p", { className: "provider-status", "aria-live": "polite" });
  if (pending) line.textContent = T.testing;
  else if (!rec) line.textContent = T.notTested;
  else if (rec.ok) {
    line.classList.add("ok");
    line.append(T.testedOk(rec.model), el("span", { className: "detail", text: T.when(rec.at) }));
  } else {
    line.classList.add("failing");
    line.append(
      T.failing(T.reasons[rec.reason] ?? T.reasons.other),
      el("span", { className: "detail", text: `${rec.error ?? ""} (${T.when(rec.at)})` }),
    );
  }
  return line;
}

// testSaved tests a saved provider through the background, which keeps
// the result so the card shows it when the page is opened again.
async function testSaved(id, button) {
  const li = button.closest("li");
  li.querySelector(".provider-status").replaceWith(status(null, true));
  button.disabled = true;
  const reply = await send({ action: ACTION.PROVIDER_TEST, id });
  button.disabled = false;
  tests[id] = reply.test ?? { ok: reply.ok, model: reply.model, error: reply.error, reason: reply.reason, at: Date.now() };
  li.querySelector(".provider-status").replaceWith(status(tests[id]));
}

function edit(index) {
  editing = { index };
  clearErrors();
  $("test-result").textContent = "";
  fillProviderForm(index >= 0 ? settings.providers[index] : { kind: PROVIDER_KIND.OPENAI_CHAT, tier: TIER.MID });
  $("p-delete").hidden = index < 0;
  $("provider-form-heading").textContent = index >= 0 ? T.editProvider : T.newProvider;
  $("provider-form-section").hidden = false;
  renderList();
  $("provider-form-section").scrollIntoView({ block: "nearest" });
  $(index >= 0 ? "p-name" : "p-preset").focus();
}

function closeForm() {
  const index = editing?.index;
  editing = null;
  $("provider-form-section").hidden = true;
  renderList();
  const back = index >= 0 ? document.querySelector(`#provider-list li:nth-child(${index + 1}) .provider-edit`) : null;
  (back ?? $("add-provider")).focus();
}

// newId derives a readable unique id from the provider's name.
function newId(name) {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "provider";
  const taken = new Set(settings.providers.map((p) => p.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

// save sends a candidate settings object and adopts it only when the
// background stored it; on error the page (and the user's input) stays.
async function save(candidate, fallbackError) {
  clearErrors();
  $("saved").textContent = "";
  const reply = await send({ action: ACTION.SETTINGS_SAVE, settings: candidate });
  if (!reply.ok) {
    showError(fieldElement(reply.field) ?? fallbackError, reply.error);
    return false;
  }
  // Keep only what the background would send back: never a typed key.
  settings = {
    ...candidate,
    providers: candidate.providers.map(withoutKey),
    captchaSolverKey: "",
    captchaSolverKeySet: Boolean(candidate.captchaSolverKey) || candidate.captchaSolverKeySet === true,
  };
  // A provider whose connection changed loses its old Test result, as in
  // the background.
  const reread = await send({ action: ACTION.SETTINGS_GET });
  if (reread.ok) tests = reread.providerTests ?? {};
  showCaptchaKeyState();
  renderList();
  $("saved").textContent = T.saved;
  clearTimeout(savedTimer);
  savedTimer = setTimeout(() => {
    $("saved").textContent = "";
  }, SAVED_SHOWN_MS);
  return true;
}

// showCaptchaKeyState says whether a solver key is saved; the key itself
// never comes back from the background.
function showCaptchaKeyState() {
  const set = settings.captchaSolverKeySet === true;
  $("captcha-key").value = "";
  $("captcha-key-state").hidden = !set;
  $("captcha-key-state").textContent = set ? T.captchaKeySaved : "";
  $("captcha-key-clear").hidden = !set;
}

function withoutKey(p) {
  return { ...p, apiKey: "", apiKeySet: Boolean(p.apiKey) || p.apiKeySet === true };
}

async function saveProvider() {
  const index = editing.index;
  const old = settings.providers[index];
  const provider = readProviderForm(old?.id ?? newId($("p-name").value));
  const providers = settings.providers.slice();
  if (index >= 0) providers[index] = provider;
  else providers.push(provider);
  const candidate = { ...settings, providers };
  if (!providers.some((p) => p.id === candidate.activeProvider)) candidate.activeProvider = provider.id;
  // Errors name the provider by its index in the candidate.
  editing = { index: index >= 0 ? index : providers.length - 1 };
  if (await save(candidate, $("provider-form-error"))) {
    fillProviderForm(settings.providers[editing.index]);
    $("p-delete").hidden = false;
    $("provider-form-heading").textContent = T.editProvider;
  } else if (index < 0) {
    editing = { index: -1 };
  }
}

async function deleteProvider() {
  const index = editing.index;
  if (index < 0) return;
  const providers = settings.providers.filter((_, i) => i !== index);
  const candidate = { ...settings, providers };
  if (!providers.some((p) => p.id === candidate.activeProvider)) candidate.activeProvider = providers[0]?.id ?? "";
  if (!providers.some((p) => p.id === candidate.decisionProvider)) candidate.decisionProvider = "";
  if (await save(candidate, $("provider-form-error"))) {
    editing = null;
    $("provider-form-section").hidden = true;
    renderList();
    $("add-provider").focus();
  }
}

// renderDecisionModels offers every provider as the decision model.
function renderDecisionModels() {
  const select = $("decision-provider");
  select.replaceChildren(
    el("option", { value: "", text: T.noDecisionModel }),
    ...settings.providers.map((p) => el("option", { value: p.id, text: p.name || p.id })),
  );
  select.value = settings.decisionProvider ?? "";
}

async function choose(id) {
  if (!(await save({ ...settings, activeProvider: id }, $("provider-list-error")))) renderList();
}

async function testProvider() {
  const out = $("test-result");
  const button = $("p-test");
  const provider = readProviderForm(settings.providers[editing.index]?.id ?? "test");
  out.className = "";
  out.textContent = T.testing;
  button.disabled = true;
  const reply = await send({ action: ACTION.PROVIDER_TEST, provider });
  button.disabled = false;
  out.className = reply.ok ? "ok" : "failed";
  out.textContent = reply.ok ? T.connected(reply.model) : reply.error;
}

// fieldElement maps a dotted field path from the background
// ("providers.1.baseUrl", "providers[1].baseUrl", "maxSteps") to the
// error element beside the input that holds that value.
function fieldElement(path) {
  if (!path) return null;
  const parts = String(path)
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^settings\./, "")
    .split(".");
  if (parts[0] === "maxSteps") return $("max-steps-error");
  if (parts[0] === "captchaSolverKey") return $("captcha-key-error");
  if (parts[0] === "activeProvider") return $("provider-list-error");
  if (parts[0] === "dailyAllowanceUsd") return $("daily-allowance-error");
  if (parts[0] === "runAllowanceUsd") return $("run-allowance-error");
  const inForm = parts[0] === "providers" && Number(parts[1]) === editing?.index;
  return inForm && PROVIDER_FIELDS.includes(parts[2]) ? $(`p-${parts[2]}-error`) : null;
}

function showError(target, text) {
  target.textContent = text || T.somethingWrong;
  target.hidden = false;
  const input = $(target.id.replace(/-error$/, ""));
  if (input && input !== target && input.matches("input, select")) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", target.id);
    input.focus();
  }
}

function clearErrors() {
  for (const e of document.querySelectorAll(".form-error")) {
    e.hidden = true;
    e.textContent = "";
  }
  for (const input of document.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

// saveGeneral saves the fields of every section form; each section's Save
// button calls it, so what is on screen is what is stored.
function saveGeneral(errorTarget) {
  const input = $("max-steps");
  return save(
    {
      ...settings,
      maxSteps: input.value === "" ? (defaults.maxSteps ?? settings.maxSteps) : input.valueAsNumber,
      siteAdapters: $("site-adapters").checked,
      askBeforeActions: $("ask-before-actions").checked,
      planner: $("planner").value,
      planReview: $("plan-review").value,
      decisionProvider: $("decision-provider").value,
      scheduledTasksEnabled: $("scheduled-tasks").checked,
      notifySound: $("notify-sound").checked,
      researchEscalationEnabled: $("research-escalation").checked,
      memory: $("memory-on").checked,
      memoryAutoLearn: $("memory-learn").checked,
      experimentalWebMCP: $("experimental-webmcp").checked,
      captchaSolverKey: $("captcha-key").value.trim(),
      captchaSolverKeySet: settings.captchaSolverKeySet === true,
      traces: $("traces").checked,
    },
    errorTarget,
  );
}

setupProviderForm();
setupNav();
setupTransfer(load);
$("about-version").textContent = api.runtime.getManifest?.().version ?? "";
$("add-provider").addEventListener("click", () => edit(-1));
$("provider-form").addEventListener("submit", (e) => {
  e.preventDefault();
  saveProvider();
});
$("p-test").addEventListener("click", testProvider);
$("p-delete").addEventListener("click", deleteProvider);
$("p-cancel").addEventListener("click", closeForm);
$("provider-form-section").addEventListener("keydown", (e) => {
  if (e.key === "Escape") closeForm();
});
for (const form of document.querySelectorAll(".section-form")) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const local = form.querySelector(".form-error");
    saveGeneral(form.id === "general-form" ? $("max-steps-error") : (local ?? $("max-steps-error")));
  });
}
// The theme is saved as soon as it is chosen, so the page shows it at once.
$("theme").addEventListener("change", async () => {
  if (await save({ ...settings, theme: $("theme").value }, $("theme-error"))) applyTheme(settings.theme);
  else $("theme").value = settings.theme || THEME.SYSTEM;
});
$("cost-form").addEventListener("submit", (e) => {
  e.preventDefault();
  clearErrors();
  const cost = readCost();
  if (cost.error) showError($("prices-error"), cost.error);
  else save({ ...settings, ...cost }, $("prices-error"));
});
$("captcha-key-clear").addEventListener("click", () => {
  save({ ...settings, captchaSolverKey: "", captchaSolverKeySet: false }, $("captcha-key-error"));
});
load();
