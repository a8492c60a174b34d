// Slash commands typed in the composer (docs/PROTOCOL.md).
import { send } from "../common/api.js";
import { reportLines } from "../common/import-report.js";
import { ACTION, MODE, STATUS } from "../common/protocol.js";
import { exportMarkdown, exportTraces } from "./history.js";
import { teachCommand } from "./teach.js";
import { usageCommand } from "./usage.js";
import { workflowCommand } from "./workflows.js";
import { N_, t, tp } from "../common/i18n.js";

// SLASH_COMMANDS is the one description of every command: its usage lines,
// what it does, its flags, and whether it may run while a task is running
// (busy). /help, the composer's autocomplete (complete.js) and the parser
// all come from it. about and the flags' texts are message keys (t()). Names and flags are matched without regard to case but
// token by token: "/memoryx" is unknown, never a message to the model.
export const SLASH_COMMANDS = Object.freeze([
  { name: "/ask", usage: ["/ask <message>"], about: N_("cmd_ask"), busy: true },
  { name: "/act", usage: ["/act <message>"], about: N_("cmd_act"), busy: true },
  {
    name: "/dev",
    usage: ["/dev <message>"],
    about: N_("cmd_dev"),
    busy: true,
  },
  { name: "/auto", usage: ["/auto <message>"], about: N_("cmd_auto"), busy: true },
  { name: "/help", usage: ["/help"], about: N_("cmd_help"), busy: true, run: (_arg, ctx) => notice(ctx, helpText()) },
  {
    name: "/clear",
    usage: ["/clear"],
    about: N_("cmd_clear"),
    busy: false,
    // A new chat starts in Auto again.
    run: (_arg, ctx) => ctx.session.clear().then(() => ctx.onCleared?.()),
  },
  {
    name: "/export",
    usage: ["/export", "/export --traces", "/export --config"],
    about: N_("cmd_export"),
    flags: { "--traces": N_("cmd_export_traces"), "--config": N_("cmd_export_config") },
    busy: true,
    run: (arg, ctx) => {
      if (arg === "--config") return exportConfig(ctx);
      if (arg === "--traces") return exportTabTraces(ctx);
      if (!arg) return exportConversation(ctx);
      return usageNotice(ctx, "/export");
    },
  },
  {
    name: "/import",
    usage: ["/import <json>", "/import --file"],
    about: N_("cmd_import"),
    flags: { "--file": N_("cmd_import_file") },
    busy: false,
    // It must stay synchronous up to ctx.pickFile(): a file picker opens
    // only inside the user's key or click.
    run: (arg, ctx) => {
      if (arg === "--file") return ctx.pickFile((json) => importConfig(json, ctx));
      if (arg && !arg.startsWith("--")) return importConfig(arg, ctx);
      return usageNotice(ctx, "/import");
    },
  },
  {
    name: "/memory",
    usage: ["/memory", "/memory --add <text>", "/memory --forget <id>"],
    about: N_("cmd_memory"),
    flags: { "--add": N_("cmd_memory_add"), "--forget": N_("cmd_memory_forget") },
    busy: true,
    run: (arg, ctx) => memoryCommand(arg, ctx),
  },
  {
    name: "/jobs",
    usage: ["/jobs"],
    about: N_("cmd_jobs"),
    busy: true,
    run: (_arg, ctx) => ctx.session.transcript.add({ role: "jobs", ephemeral: true }),
  },
  {
    name: "/watch",
    usage: ["/watch [--keep] [--every <seconds>] <what to watch for> [/beep [short|long]]"],
    about: N_("cmd_watch"),
    flags: { "--keep": N_("cmd_watch_keep"), "--every": N_("cmd_watch_every") },
    busy: true,
    run: (arg, ctx) => watchCommand(arg, ctx),
  },
  {
    name: "/workflow",
    usage: ["/workflow", "/workflow --save [name]", "/workflow --run <id>"],
    about: N_("cmd_workflow"),
    flags: { "--save": N_("cmd_workflow_save"), "--run": N_("cmd_workflow_run") },
    busy: false,
    run: (arg, ctx) => workflowCommand(arg, ctx),
  },
  {
    name: "/teach",
    usage: ["/teach --start", "/teach --end [name]", "/teach --cancel"],
    about: N_("cmd_teach"),
    flags: { "--start": N_("cmd_teach_start"), "--end": N_("cmd_teach_end"), "--cancel": N_("cmd_teach_cancel") },
    busy: false,
    run: (arg, ctx) => teachCommand(arg, ctx),
  },
  {
    name: "/usage",
    usage: ["/usage"],
    about: N_("cmd_usage"),
    busy: true,
    run: (_arg, ctx) => usageCommand(ctx),
  },
]);

const BY_NAME = new Map(SLASH_COMMANDS.map((c) => [c.name, c]));

// findCommand returns the command named by text's first token, or null.
export function findCommand(text) {
  const name = text.trim().split(/\s+/, 1)[0].toLowerCase();
  return BY_NAME.get(name) ?? null;
}

// helpText lists every command with its usage.
export function helpText() {
  return `${t("help_commands")}\n${SLASH_COMMANDS.map((c) => `${c.usage.join(" · ")}: ${t(c.about)}`).join("\n")}`;
}

function usageNotice(ctx, name) {
  notice(ctx, t("cmd_use", { usage: BY_NAME.get(name).usage.join(", ") }));
}

// modeCommand reads "/ask text", "/act text", "/dev text" or "/auto text":
// the mode of this one message and its text; null for anything else.
const MODE_COMMANDS = { "/ask": MODE.ASK, "/act": MODE.ACT, "/dev": MODE.DEV, "/auto": MODE.AUTO };
export function modeCommand(text) {
  const m = /^(\/\w+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const mode = m && MODE_COMMANDS[m[1].toLowerCase()];
  return mode ? { mode, text: (m[2] ?? "").trim() } : null;
}

// runCommand handles text starting with "/" that is not a mode command.
// Flags are matched without regard to case; values keep theirs.
export function runCommand(text, ctx) {
  const trimmed = text.trim();
  const cmd = findCommand(trimmed);
  const name = trimmed.split(/\s+/, 1)[0];
  if (!cmd?.run) return notice(ctx, t("cmd_unknown", { name }));
  if (!cmd.busy && ctx.session.status === STATUS.RUNNING) {
    return notice(ctx, t("cmd_waits", { name: cmd.name }));
  }
  const arg = trimmed
    .slice(name.length)
    .trim()
    .replace(/^--\w+/, (flag) => flag.toLowerCase());
  return cmd.run(arg, ctx);
}

function notice(ctx, text) {
  ctx.session.transcript.add({ role: "notice", text, ephemeral: true });
}

function fail(ctx, text) {
  ctx.session.transcript.add({ role: "error", text, ephemeral: true });
}

async function exportConfig(ctx) {
  const reply = await send({ action: ACTION.CONFIG_EXPORT });
  if (!reply.ok) return fail(ctx, t("export_failed", { error: reply.error }));
  ctx.session.transcript.add({
    role: "export",
    json: JSON.stringify(reply.config, null, 2),
    masked: JSON.stringify(reply.masked ?? {}, null, 2),
    ephemeral: true,
  });
}

// exportConversation downloads the conversation as Markdown, once the
// panel's transcript is stored where the background reads it.
async function exportConversation(ctx) {
  if (!ctx.session.transcript.items.some((i) => !i.ephemeral)) return notice(ctx, t("export_nothing"));
  await ctx.session.saveNow();
  const reply = await exportMarkdown({ action: ACTION.CONVERSATION_EXPORT, tabId: ctx.session.tabId });
  if (!reply.ok) return fail(ctx, t("export_failed", { error: reply.error }));
  notice(ctx, t("export_done", { file: reply.filename }));
}

async function exportTabTraces(ctx) {
  let count;
  try {
    count = await exportTraces(ctx.session.tabId);
  } catch (err) {
    return fail(ctx, t("export_failed", { error: err?.message ?? err }));
  }
  if (count === 0) return notice(ctx, t("export_no_traces"));
  notice(ctx, tp("export_traces_done", count));
}

async function importConfig(json, ctx) {
  let config;
  try {
    config = JSON.parse(json);
  } catch (err) {
    return fail(ctx, t("import_bad_json", { error: err.message }));
  }
  const reply = await send({ action: ACTION.CONFIG_IMPORT, config });
  if (!reply.ok) {
    return fail(
      ctx,
      reply.field
        ? t("import_failed_field", { error: reply.error, field: reply.field })
        : t("import_failed", { error: reply.error }),
    );
  }
  notice(ctx, reply.report ? reportLines(reply.report).join("\n") : t("import_done"));
  ctx.onImported();
}

// memoryCommand lists, adds to or forgets from the user's memory.
async function memoryCommand(arg, ctx) {
  const m = /^--(add|forget)(?:\s+([\s\S]*))?$/.exec(arg);
  if (arg && !m) return notice(ctx, t("memory_use"));
  let msg = { action: ACTION.MEMORY_LIST };
  if (m?.[1] === "add") msg = { action: ACTION.MEMORY_ADD, text: (m[2] ?? "").trim() };
  if (m?.[1] === "forget") msg = { action: ACTION.MEMORY_FORGET, id: (m[2] ?? "").trim() };
  const reply = await send(msg);
  if (!reply.ok) return fail(ctx, t("memory_error", { error: reply.error }));
  if (m?.[1] === "add") return notice(ctx, t("memory_added", { id: reply.changed.id, text: reply.changed.text }));
  if (m?.[1] === "forget") return notice(ctx, t("memory_forgotten"));
  const records = reply.memory.records;
  if (records.length === 0) {
    return notice(ctx, t("memory_empty"));
  }
  const head = reply.enabled ? t("memory_list") : `${t("memory_list")} ${t("memory_off")}`;
  const lines = records.map((r) => `${r.id} · ${r.text}${r.source === "learned" ? ` (${t("memory_learned")})` : ""}`);
  notice(ctx, `${head}\n${lines.join("\n")}\n${t("memory_forget_hint")}`);
}

// watchCommand starts a watch of this tab's page: "/watch [--keep]
// [--every 90] the price drops below 50 € [/beep [short|long]]".
async function watchCommand(arg, ctx) {
  let rest = arg;
  let beep = "";
  const tail = /\s*\/beep(?:\s+(short|long))?\s*$/i.exec(rest);
  if (tail) {
    beep = (tail[1] ?? "default").toLowerCase();
    rest = rest.slice(0, tail.index);
  }
  let keep = false;
  let intervalSeconds = 0;
  for (;;) {
    const m = /^--(keep|every)(?:\s+(\d+))?\s*/i.exec(rest);
    if (!m) break;
    if (m[1].toLowerCase() === "keep") keep = true;
    else intervalSeconds = Number(m[2] ?? 0);
    rest = rest.slice(m[0].length);
  }
  if (!rest.trim()) return notice(ctx, t("cmd_use", { usage: BY_NAME.get("/watch").usage.join(", ") }));
  const reply = await send({
    action: ACTION.WATCH_START,
    tabId: ctx.session.tabId,
    text: rest.trim(),
    keep,
    intervalSeconds,
    beep,
  });
  if (!reply.ok) return fail(ctx, t("watch_error", { error: reply.error }));
  const every = reply.job.schedule.intervalSeconds;
  const vars = { seconds: every, what: reply.job.prompt };
  notice(ctx, beep ? t("watch_started_beep", vars) : t("watch_started", vars));
}
