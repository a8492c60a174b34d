// The scheduled jobs list that /jobs shows in the transcript: each job's
// title, state and next time, with pause or resume, a new time, and
// delete, through the background's jobs_* actions.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";

const STATE_LABEL = {
  pending: "Waiting",
  queued: "Waiting for its tab",
  running: "Running",
  needs_user_input: "Needs you",
  paused: "Paused",
  cancelled: "Cancelled",
  failed: "Failed",
  completed: "Done",
};

// renderJobs returns the list's element; it fills itself from the background.
export function renderJobs() {
  const node = el("section", { className: "msg jobs", "aria-label": "Scheduled jobs" });
  const error = el("p", { className: "form-error", role: "alert", hidden: true });
  const list = el("ul", { className: "jobs-list" });
  node.append(el("h3", { text: "Scheduled jobs" }), error, list);
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
    text: "Nothing is scheduled. Ask for it in a message, such as “every morning at 9, summarize my inbox”.",
  });
}

function row(job, apply) {
  const act = (action, extra = {}) => send({ action, id: job.id, ...extra }).then(apply);
  const when = job.nextRunAt ? new Date(job.nextRunAt).toLocaleString() : "";
  const repeat = job.schedule?.kind === "recurring" ? ` · every ${job.schedule.intervalMinutes} min` : "";
  const li = el(
    "li",
    { className: `job job-${job.state}`, "data-job-id": job.id },
    el("strong", { text: job.title }),
    el("span", { className: "job-state", text: ` ${STATE_LABEL[job.state] ?? job.state}` }),
    el("div", { className: "help", text: `${waiting(job) ? `Next: ${when}` : lastRun(job)}${repeat}` }),
  );
  if (job.beep) {
    const beeped = job.lastBeepAt ? ` · last played ${new Date(job.lastBeepAt).toLocaleString()}` : "";
    li.append(el("div", { className: "help job-beep", text: `Sound alert: ${job.beep} tone${beeped}` }));
  }
  if (job.warning) li.append(el("div", { className: "help job-warning", role: "status", text: job.warning }));
  const buttons = el("div", { className: "row" });
  if (waiting(job)) {
    const pause = el("button", { type: "button", className: "job-pause", text: "Pause" });
    pause.addEventListener("click", () => act(ACTION.JOB_PAUSE));
    const time = el("input", { type: "datetime-local", "aria-label": `New time for ${job.title}` });
    const move = el("button", { type: "button", className: "job-move", text: "Set time" });
    move.addEventListener("click", () => {
      const runAt = new Date(time.value).getTime();
      if (Number.isFinite(runAt)) act(ACTION.JOB_UPDATE, { runAt });
    });
    buttons.append(pause, time, move);
  }
  if (job.state === "paused") {
    const resume = el("button", { type: "button", className: "job-resume", text: "Resume" });
    resume.addEventListener("click", () => act(ACTION.JOB_RESUME));
    buttons.append(resume);
  }
  const del = el("button", { type: "button", className: "job-delete danger", text: "Delete" });
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
  return `Last run: ${new Date(job.lastRunAt).toLocaleString()}${outcome}`;
}
