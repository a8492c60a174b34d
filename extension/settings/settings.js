// Settings page (also the options page): providers, agent limits, site
// notes, asking before actions, planning, the CAPTCHA solver key and
// Experimental WebMCP. Every save sends the whole settings
// object; the background validates it and either stores all of it or
// nothing, naming the invalid field.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION, PLAN_REVIEW, PLANNER, PROVIDER_KIND, THEME, TIER } from "../common/protocol.js";
import { applyTheme } from "../common/theme.js";
import { fillCost, readCost } from "./cost.js";
import { fillProviderForm, readProviderForm, setupProviderForm } from "./provider-form.js";

const $ = (id) => document.getElementById(id);
const PROVIDER_FIELDS = ["name", "kind", "baseUrl", "apiKey", "model", "tier", "contextWindow", "deployment", "apiVersion"];

let settings = {
  providers: [],
  activeProvider: "",
  maxSteps: 30,
  siteAdapters: true,
  askBeforeActions: true,
  planner: PLANNER.TRY,
  planReview: PLAN_REVIEW.STRICT,
  experimentalWebMCP: false,
  captchaSolverKeySet: false,
};
let editing = null; // {index} of the provider in the form; index -1 = new

async function load() {
  const reply = await send({ action: ACTION.SETTINGS_GET });
  if (!reply.ok) {
    showError($("load-error"), reply.error);
    return;
  }
  settings = { ...reply.settings, providers: reply.settings?.providers ?? [] };
  renderList();
  $("max-steps").value = String(settings.maxSteps ?? "");
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
  const active = settings.providers.findIndex((p) => p.id === settings.activeProvider);
  if (active >= 0) edit(active);
}

function renderList() {
  const list = $("provider-list");
  list.replaceChildren(
    ...settings.providers.map((p, i) => {
      const radio = el("input", {
        type: "radio",
        name: "active-provider",
        className: "provider-active",
        value: p.id,
        checked: p.id === settings.activeProvider,
      });
      radio.addEventListener("change", () => choose(p.id));
      const button = el("button", {
        type: "button",
        className: "provider-edit",
        text: "Edit",
        "aria-label": `Edit ${p.name || p.id}`,
      });
      button.addEventListener("click", () => edit(i));
      return el(
        "li",
        { "data-id": p.id, className: editing?.index === i ? "editing" : "" },
        el(
          "label",
          {},
          radio,
          el("span", { text: p.name || p.id }),
          el("span", { className: "detail", text: `${p.kind} · ${p.model || "first listed model"}` }),
        ),
        button,
      );
    }),
  );
  renderDecisionModels();
}

function edit(index) {
  editing = { index };
  clearErrors();
  $("test-result").textContent = "";
  fillProviderForm(index >= 0 ? settings.providers[index] : { kind: PROVIDER_KIND.OPENAI_CHAT, tier: TIER.MID });
  $("p-delete").hidden = index < 0;
  $("provider-form-heading").textContent = index >= 0 ? "Edit provider" : "New provider";
  $("provider-form-section").hidden = false;
  renderList();
  $("p-name").focus();
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
  showCaptchaKeyState();
  renderList();
  $("saved").textContent = "Saved.";
  return true;
}

// showCaptchaKeyState says whether a solver key is saved; the key itself
// never comes back from the background.
function showCaptchaKeyState() {
  const set = settings.captchaSolverKeySet === true;
  $("captcha-key").value = "";
  $("captcha-key-state").hidden = !set;
  $("captcha-key-state").textContent = set ? "A key is saved. Type a new one to replace it." : "";
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
    $("provider-form-heading").textContent = "Edit provider";
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
  }
}

// renderDecisionModels offers every provider as the decision model.
function renderDecisionModels() {
  const select = $("decision-provider");
  select.replaceChildren(
    el("option", { value: "", text: "None: automatic messages start read-only" }),
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
  out.textContent = "Testing…";
  button.disabled = true;
  const reply = await send({ action: ACTION.PROVIDER_TEST, provider });
  button.disabled = false;
  out.className = reply.ok ? "ok" : "failed";
  out.textContent = reply.ok ? `Connected. Model: ${reply.model || "(server default)"}` : reply.error;
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
  target.textContent = text || "Something went wrong.";
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

setupProviderForm();
$("add-provider").addEventListener("click", () => edit(-1));
$("provider-form").addEventListener("submit", (e) => {
  e.preventDefault();
  saveProvider();
});
$("p-test").addEventListener("click", testProvider);
$("p-delete").addEventListener("click", deleteProvider);
$("general-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("max-steps");
  save(
    {
      ...settings,
      maxSteps: input.value === "" ? null : input.valueAsNumber,
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
    $("max-steps-error"),
  );
});
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
