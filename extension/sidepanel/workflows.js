// Saved workflows in the panel (docs/decisions/workflows.md): /workflow
// shows the manager card (run, rename, export, delete, import), /workflow
// --save [name] compiles the tab's newest successful run, and /workflow
// --run <id> asks for the parameters in a form that is never stored.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { download } from "./history.js";
import { t, tp } from "../common/i18n.js";

// workflowCommand handles "/workflow …" typed in the composer.
export async function workflowCommand(arg, ctx) {
  const m = /^--(save|run)(?:\s+([\s\S]*))?$/.exec(arg);
  if (arg && !m) return notice(ctx, t("workflow_use"));
  const tabId = ctx.session.tabId;
  if (!m) return ctx.session.transcript.add({ role: "workflows", tabId, ephemeral: true });
  const rest = (m[2] ?? "").trim();
  if (m[1] === "run") {
    if (!rest) return notice(ctx, t("workflow_use_run"));
    return ctx.session.transcript.add({ role: "workflows", tabId, runId: rest, ephemeral: true });
  }
  const reply = await send({ action: ACTION.WORKFLOW_SAVE, tabId, title: rest });
  if (!reply.ok)
    return ctx.session.transcript.add({ role: "error", text: t("workflow_error", { error: reply.error }), ephemeral: true });
  notice(ctx, savedText(reply.workflow, reply.warnings));
}

function notice(ctx, text) {
  ctx.session.transcript.add({ role: "notice", text, ephemeral: true });
}

export function savedText(w, warnings = []) {
  const params = w.params.length ? ` ${t("workflow_params", { params: w.params.map((p) => p.label).join(", ") })}` : "";
  const skipped = warnings.length ? `\n${t("workflow_left_out", { warnings: warnings.join("; ") })}` : "";
  const saved = tp("workflow_saved", w.steps.length, { name: w.name, id: w.id });
  return `${saved}${params} ${t("workflow_run_with", { id: w.id })}${skipped}`;
}

// renderWorkflows returns the manager card, or the run form of one
// workflow when item.runId is set. It fills itself from the background.
export function renderWorkflows(item) {
  const node = el("section", { className: "msg workflows", "aria-label": t("workflows_title") });
  const error = el("p", { className: "form-error", role: "alert", hidden: true });
  const body = el("div", { className: "workflows-body" });
  const status = el("p", { className: "help", role: "status" });
  node.append(el("h3", { text: t("workflows_title") }), error, status, body);
  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
  };
  const apply = (reply) => {
    if (!reply.ok) return fail(reply.error);
    error.hidden = true;
    if (item.runId) {
      const w = reply.workflows.find((x) => x.id === item.runId);
      if (!w) return fail(t("workflow_missing", { id: item.runId }));
      return body.replaceChildren(runForm(w, item.tabId, fail, status));
    }
    const list = el("ul", { className: "workflows-list" });
    list.replaceChildren(
      ...(reply.workflows.length ? reply.workflows.map((w) => row(w, item.tabId, apply, fail, status)) : [emptyRow()]),
    );
    body.replaceChildren(list, importControl(apply, status));
  };
  send({ action: ACTION.WORKFLOWS_LIST }).then(apply);
  return node;
}

function emptyRow() {
  return el("li", {
    className: "help",
    text: t("workflows_empty"),
  });
}

function row(w, tabId, apply, fail, status) {
  const act = (action, extra = {}) => send({ action, id: w.id, ...extra }).then(apply);
  const li = el(
    "li",
    { className: "workflow", "data-workflow-id": w.id },
    el("strong", { className: "workflow-name", text: w.name }),
    el("span", { className: "help", text: ` ${w.id} · ${tp("workflow_steps", w.steps.length)}` }),
  );
  const last = w.repairs?.at(-1);
  if (last) {
    const fixed = `Step ${last.step} repaired: ${last.from.role} “${last.from.name}” is now ${last.to.role} “${last.to.name}”.`;
    li.append(el("div", { className: "help workflow-repairs", text: fixed }));
  }
  const buttons = el("div", { className: "row" });
  const run = el("button", { type: "button", className: "workflow-run", text: t("workflow_run") });
  run.addEventListener("click", () => li.replaceChildren(runForm(w, tabId, fail, status)));
  const name = el("input", { type: "text", value: w.name, "aria-label": t("workflow_new_name", { name: w.name }) });
  const rename = el("button", { type: "button", className: "workflow-rename", text: t("workflow_rename") });
  rename.addEventListener("click", () => act(ACTION.WORKFLOW_RENAME, { title: name.value }));
  const exp = el("button", { type: "button", className: "workflow-export", text: t("common_export") });
  exp.addEventListener("click", () => download(`${w.id}.webbrain-workflow.json`, JSON.stringify(w, null, 2), "application/json"));
  const del = el("button", { type: "button", className: "workflow-delete danger", text: t("common_delete") });
  del.addEventListener("click", () => act(ACTION.WORKFLOW_DELETE));
  buttons.append(run, name, rename, exp, del);
  li.append(buttons);
  return li;
}

function importControl(apply, status) {
  const input = el("input", { type: "file", accept: "application/json,.json", hidden: true });
  const button = el("button", { type: "button", className: "workflow-import", text: t("workflow_import") });
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    let workflow;
    try {
      workflow = JSON.parse(await file.text());
    } catch (err) {
      return apply({ ok: false, error: t("workflow_bad_json", { error: err.message }) });
    }
    const reply = await send({ action: ACTION.WORKFLOW_IMPORT, workflow });
    if (reply.ok) status.textContent = t("workflow_imported", { name: reply.workflow.name, id: reply.workflow.id });
    apply(reply);
  });
  return el("div", { className: "row" }, button, input);
}

// runForm asks for each parameter. The values go to workflow_run only:
// the form is not part of the stored transcript and clears itself.
function runForm(w, tabId, fail, status) {
  const form = el("form", { className: "workflow-run-form", "data-workflow-id": w.id });
  form.append(
    el("p", { text: w.goal ? t("workflow_run_goal", { name: w.name, goal: w.goal }) : t("workflow_run_name", { name: w.name }) }),
  );
  const inputs = w.params.map((p) => {
    const input = el("input", {
      type: p.secret ? "password" : "text",
      name: p.name,
      required: true,
      autocomplete: "off",
    });
    form.append(el("label", { className: "field" }, el("span", { text: p.label }), input));
    return input;
  });
  const go = el("button", { type: "submit", className: "primary", text: t("workflow_run_submit") });
  form.append(go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const params = Object.fromEntries(inputs.map((i) => [i.name, i.value]));
    go.disabled = true;
    const reply = await send({ action: ACTION.WORKFLOW_RUN, tabId, id: w.id, params });
    for (const i of inputs) i.value = "";
    go.disabled = false;
    if (!reply.ok) return fail(reply.error);
    status.textContent = t("workflow_running", { name: w.name });
    form.replaceWith(el("p", { className: "help", text: t("workflow_started", { name: w.name }) }));
  });
  return form;
}
