// The scheduled jobs list that /jobs shows in the transcript: each job's
// title, state and next time (and what it waits on the user for), with
// pause or resume, an edit form (title, prompt, interval, next time) and
// delete, through the background's jobs_* actions.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { N_, locale, t, tmsg } from "../common/i18n.js";

const STATE_LABEL = {
  pending: N_("job_state_pending"),
  queued: N_("job_state_queued"),
  running: N_("job_state_running"),
  needs_user_input: N_("job_state_needs_user_input"),
  paused: N_("job_state_paused"),
  cancelled: N_("job_state_cancelled"),
  failed: N_("job_state_failed"),
  completed: N_("job_state_completed"),
};

// The /beep tones by name (the names the user types stay as they are).
const TONE_LABEL = {
  short: N_("jobs_tone_short"),
  long: N_("jobs_tone_long"),
  default: N_("jobs_tone_default"),
};

// renderJobs returns the list's element; it fills itself from the background.
export function renderJobs() {
  const node = el("section", { className: "msg jobs", "aria-label": t("jobs_title") });
  const error = el("p", { className: "form-error", role: "alert", hidden: true });
  const list = el("ul", { className: "jobs-list" });
  node.append(el("h3", { text: t("jobs_title") }), error, list);
  const apply = (reply) => {
    if (!reply.ok) {
      error.textContent = reply.error;
      error.hidden = false;
      return;
    }
    error.hidden = true;
    list.replaceChildren(...(reply.jobs.length ? reply.jobs.map((j) => row(j, apply)) : [emptyRow()]));
  };
  send({ action: ACTION.JOBS_LIST }).then(apply);
  return node;
}

function emptyRow() {
  return el("li", {
    className: "help",
    text: t("jobs_empty"),
  });
}

function row(job, apply) {
  const act = (action, extra = {}) => send({ action, id: job.id, ...extra }).then(apply);
  const when = job.nextRunAt ? new Date(job.nextRunAt).toLocaleString(locale()) : "";
  const repeat = job.schedule?.kind === "recurring" ? ` · ${t("jobs_every", { minutes: job.schedule.intervalMinutes })}` : "";
  const li = el(
    "li",
    { className: `job job-${job.state}`, "data-job-id": job.id },
    el("strong", { text: job.title }),
    el("span", { className: "job-state", text: ` ${STATE_LABEL[job.state] ? t(STATE_LABEL[job.state]) : job.state}` }),
    el("div", { className: "help", text: `${waiting(job) ? t("jobs_next", { when }) : lastRun(job)}${repeat}` }),
  );
  if (job.beep) {
    const beeped = job.lastBeepAt
      ? ` · ${t("jobs_last_played", { when: new Date(job.lastBeepAt).toLocaleString(locale()) })}`
      : "";
    const tone = TONE_LABEL[job.beep] ? t(TONE_LABEL[job.beep]) : job.beep;
    li.append(el("div", { className: "help job-beep", text: `${t("jobs_sound_alert", { tone })}${beeped}` }));
  }
  if (job.warning)
    li.append(el("div", { className: "help job-warning", role: "status", text: tmsg(job.warningMsg, job.warning) }));
  if (job.state === "needs_user_input" && job.needsUser) {
    li.append(
      el("div", {
        className: "help job-needs",
        role: "status",
        text: t("jobs_waiting_for_you", { what: tmsg(job.needsUserMsg, job.needsUser) }),
      }),
    );
  }
  const buttons = el("div", { className: "row" });
  if (waiting(job)) {
    const pause = el("button", { type: "button", className: "job-pause", text: t("jobs_pause") });
    pause.addEventListener("click", () => act(ACTION.JOB_PAUSE));
    buttons.append(pause);
  }
  if (job.state === "paused") {
    const resume = el("button", { type: "button", className: "job-resume", text: t("jobs_resume") });
    resume.addEventListener("click", () => act(ACTION.JOB_RESUME));
    buttons.append(resume);
  }
  if (editable(job)) {
    const edit = el("button", { type: "button", className: "job-edit", text: t("jobs_edit"), "aria-expanded": "false" });
    const form = editForm(job, act);
    edit.addEventListener("click", () => {
      form.hidden = !form.hidden;
      edit.setAttribute("aria-expanded", String(!form.hidden));
    });
    buttons.append(edit);
    li.append(buttons, form);
  } else {
    li.append(buttons);
  }
  const del = el("button", { type: "button", className: "job-delete danger", text: t("common_delete") });
  del.addEventListener("click", () => act(ACTION.JOB_DELETE));
  buttons.append(del);
  return li;
}

// editForm changes a waiting or paused job: its title, its prompt (a
// watch's condition), its interval (a recurring task) and its next time,
// through job_update. Only what the user changed is sent.
function editForm(job, act) {
  const form = el("form", { className: "job-edit-form", hidden: true, "aria-label": t("jobs_edit_label", { title: job.title }) });
  const title = el("input", { type: "text", className: "job-edit-title", value: job.title, maxLength: 100 });
  const prompt = el("textarea", { className: "job-edit-prompt", rows: 3, maxLength: 4000 });
  prompt.value = job.prompt;
  const field = (label, input) => el("label", { className: "field" }, el("span", { text: label }), input);
  form.append(
    field(t("jobs_field_title"), title),
    field(job.source === "watch" ? t("jobs_field_watch_for") : t("jobs_field_prompt"), prompt),
  );
  let interval = null;
  if (job.schedule?.kind === "recurring" && job.source !== "watch") {
    interval = el("input", { type: "number", className: "job-edit-interval", min: 1, max: 525600 });
    interval.value = String(job.schedule.intervalMinutes);
    form.append(field(t("jobs_field_every"), interval));
  }
  const time = el("input", { type: "datetime-local", className: "job-edit-time" });
  form.append(field(t("jobs_field_next_run"), time));
  const save = el("button", { type: "submit", className: "job-save", text: t("jobs_save") });
  form.append(el("div", { className: "row" }, save));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const change = {};
    if (title.value.trim() && title.value.trim() !== job.title) change.title = title.value.trim();
    if (prompt.value.trim() && prompt.value.trim() !== job.prompt) change.text = prompt.value.trim();
    if (interval && Number(interval.value) !== job.schedule.intervalMinutes) change.intervalMinutes = Number(interval.value);
    const runAt = new Date(time.value).getTime();
    if (time.value && Number.isFinite(runAt)) change.runAt = runAt;
    if (Object.keys(change).length) act(ACTION.JOB_UPDATE, change);
  });
  return form;
}

function editable(job) {
  return waiting(job) || job.state === "paused";
}

function waiting(job) {
  return job.state === "pending" || job.state === "queued";
}

function lastRun(job) {
  if (!job.lastRunAt) return "";
  const outcome = job.lastError ? ` (${tmsg(job.lastErrorMsg, job.lastError)})` : "";
  return t("jobs_last_run", { when: `${new Date(job.lastRunAt).toLocaleString(locale())}${outcome}` });
}
