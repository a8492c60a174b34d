// The scheduled jobs list that /jobs shows in the transcript: each job's
// title, state and next time, with pause or resume, a new time, and
// delete, through the background's jobs_* actions.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { N_, locale, t } from "../common/i18n.js";

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
  const buttons = el("div", { className: "row" });
  if (waiting(job)) {
    const pause = el("button", { type: "button", className: "job-pause", text: t("jobs_pause") });
    pause.addEventListener("click", () => act(ACTION.JOB_PAUSE));
    const time = el("input", { type: "datetime-local", "aria-label": t("jobs_new_time", { title: job.title }) });
    const move = el("button", { type: "button", className: "job-move", text: t("jobs_set_time") });
    move.addEventListener("click", () => {
      const runAt = new Date(time.value).getTime();
      if (Number.isFinite(runAt)) act(ACTION.JOB_UPDATE, { runAt });
    });
    buttons.append(pause, time, move);
  }
  if (job.state === "paused") {
    const resume = el("button", { type: "button", className: "job-resume", text: t("jobs_resume") });
    resume.addEventListener("click", () => act(ACTION.JOB_RESUME));
    buttons.append(resume);
  }
  const del = el("button", { type: "button", className: "job-delete danger", text: t("common_delete") });
  del.addEventListener("click", () => act(ACTION.JOB_DELETE));
  buttons.append(del);
  li.append(buttons);
  return li;
}

function waiting(job) {
  return job.state === "pending" || job.state === "queued";
}

function lastRun(job) {
  if (!job.lastRunAt) return "";
  const outcome = job.lastError ? ` (${job.lastError})` : "";
  return t("jobs_last_run", { when: `${new Date(job.lastRunAt).toLocaleString(locale())}${outcome}` });
}
