// Slash commands typed in the composer (docs/PROTOCOL.md).
import { send } from "../common/api.js";
import { reportLines } from "../common/import-report.js";
import { ACTION, MODE, STATUS } from "../common/protocol.js";
import { exportMarkdown, exportTraces } from "./history.js";
import { teachCommand } from "./teach.js";
import { usageCommand } from "./usage.js";
import { workflowCommand } from "./workflows.js";

// SLASH_COMMANDS is the one description of every command: its usage lines,
// what it does, its flags, and whether it may run while a task is running
// (busy). /help, the composer's autocomplete (complete.js) and the parser
// all come from it. Names and flags are matched without regard to case but
// token by token: "/memoryx" is unknown, never a message to the model.
export const SLASH_COMMANDS = Object.freeze([
  { name: "/ask", usage: ["/ask <message>"], about: "Send one message in Ask mode: read the page, change nothing.", busy: true },
  { name: "/act", usage: ["/act <message>"], about: "Send one message in Act mode: WebBrain may click and type.", busy: true },
  {
    name: "/dev",
    usage: ["/dev <message>"],
    about: "Send one message in Dev mode: inspect and patch the page's code.",
    busy: true,
  },
  { name: "/auto", usage: ["/auto <message>"], about: "Send one message and let WebBrain pick the mode.", busy: true },
  { name: "/help", usage: ["/help"], about: "List the commands.", busy: true, run: (_arg, ctx) => notice(ctx, helpText()) },
  {
    name: "/clear",
    usage: ["/clear"],
    about: "Start a new chat; this one goes to History.",
    busy: false,
    // A new chat starts in Auto again.
    run: (_arg, ctx) => ctx.session.clear().then(() => ctx.onCleared?.()),
  },
  {
    name: "/export",
    usage: ["/export", "/export --traces", "/export --config"],
    about: "Download the conversation as Markdown, this tab's run traces, or the settings.",
    flags: { "--traces": "this tab's run traces (webbrain-trace/1)", "--config": "the settings, API keys included" },
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
    about: "Replace the settings with an exported configuration.",
    flags: { "--file": "pick the file" },
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
    about: "What WebBrain remembers about you: list, add, forget.",
    flags: { "--add": "remember a fact about you", "--forget": "forget the entry with this id" },
    busy: true,
    run: (arg, ctx) => memoryCommand(arg, ctx),
  },
  {
    name: "/jobs",
    usage: ["/jobs"],
    about: "Scheduled tasks and watches: pause, edit, delete.",
    busy: true,
    run: (_arg, ctx) => ctx.session.transcript.add({ role: "jobs", ephemeral: true }),
  },
  {
    name: "/watch",
    usage: ["/watch [--keep] [--every <seconds>] <what to watch for>"],
    about: "Check this page in the background and notify you when something happens.",
    flags: { "--keep": "go on watching after it happened", "--every": "seconds between checks" },
    busy: true,
    run: (arg, ctx) => watchCommand(arg, ctx),
  },
  {
    name: "/workflow",
    usage: ["/workflow", "/workflow --save [name]", "/workflow --run <id>"],
    about: "Saved workflows: list, save the last run, replay one.",
    flags: { "--save": "save this tab's last successful run", "--run": "replay a saved workflow" },
    busy: false,
    run: (arg, ctx) => workflowCommand(arg, ctx),
  },
  {
    name: "/teach",
    usage: ["/teach --start", "/teach --end [name]", "/teach --cancel"],
    about: "Teacher mode: record what you do in this tab as a workflow.",
    flags: { "--start": "start recording", "--end": "stop and save", "--cancel": "stop and drop the recording" },
    busy: false,
    run: (arg, ctx) => teachCommand(arg, ctx),
  },
  {
    name: "/usage",
    usage: ["/usage"],
    about: "Tokens and cost today and on the last 7 days.",
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
  return `Commands:\n${SLASH_COMMANDS.map((c) => `${c.usage.join(" · ")}: ${c.about}`).join("\n")}`;
}

function usageNotice(ctx, name) {
  notice(ctx, `Use ${BY_NAME.get(name).usage.join(", ")}.`);
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
  if (!cmd?.run) return notice(ctx, `Unknown command ${name}. /help lists the commands.`);
  if (!cmd.busy && ctx.session.status === STATUS.RUNNING) {
    return notice(ctx, `${cmd.name} waits until the running task ends: press Stop first, or send it when the task is done.`);
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
  if (!reply.ok) return fail(ctx, `Export failed: ${reply.error}`);
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
  if (!ctx.session.transcript.items.some((i) => !i.ephemeral)) return notice(ctx, "There is no conversation to export yet.");
  await ctx.session.saveNow();
  const reply = await exportMarkdown({ action: ACTION.CONVERSATION_EXPORT, tabId: ctx.session.tabId });
  if (!reply.ok) return fail(ctx, `Export failed: ${reply.error}`);
  notice(ctx, `Exported the conversation as ${reply.filename}.`);
}

async function exportTabTraces(ctx) {
  let count;
  try {
    count = await exportTraces(ctx.session.tabId);
  } catch (err) {
    return fail(ctx, `Export failed: ${err?.message ?? err}`);
  }
  if (count === 0) return notice(ctx, "No traces were recorded in this tab. Turn on Record traces in Settings to keep them.");
  notice(ctx, `Exported ${count} run trace${count === 1 ? "" : "s"} of this tab (webbrain-trace/1).`);
}

async function importConfig(json, ctx) {
  let config;
  try {
    config = JSON.parse(json);
  } catch (err) {
    return fail(ctx, `That isn't valid JSON: ${err.message}`);
  }
  const reply = await send({ action: ACTION.CONFIG_IMPORT, config });
  if (!reply.ok) {
    return fail(ctx, `Import failed: ${reply.error}${reply.field ? ` (field ${reply.field})` : ""}. Nothing was changed.`);
  }
  notice(ctx, reply.report ? reportLines(reply.report).join("\n") : "Settings imported.");
  ctx.onImported();
}

// memoryCommand lists, adds to or forgets from the user's memory.
async function memoryCommand(arg, ctx) {
  const m = /^--(add|forget)(?:\s+([\s\S]*))?$/.exec(arg);
  if (arg && !m) return notice(ctx, "Use /memory, /memory --add <text> or /memory --forget <id>.");
  let msg = { action: ACTION.MEMORY_LIST };
  if (m?.[1] === "add") msg = { action: ACTION.MEMORY_ADD, text: (m[2] ?? "").trim() };
  if (m?.[1] === "forget") msg = { action: ACTION.MEMORY_FORGET, id: (m[2] ?? "").trim() };
  const reply = await send(msg);
  if (!reply.ok) return fail(ctx, `Memory: ${reply.error}`);
  if (m?.[1] === "add") return notice(ctx, `Remembered (${reply.changed.id}): ${reply.changed.text}`);
  if (m?.[1] === "forget") return notice(ctx, "Forgotten.");
  const records = reply.memory.records;
  if (records.length === 0) {
    return notice(ctx, "WebBrain remembers nothing about you yet. Add something with /memory --add <text>.");
  }
  const state = reply.enabled ? "" : " Memory is off: turn it on in Settings to use these.";
  const lines = records.map((r) => `${r.id} · ${r.text}${r.source === "learned" ? " (learned)" : ""}`);
  notice(ctx, `WebBrain remembers:${state}\n${lines.join("\n")}\nForget one with /memory --forget <id>.`);
}

// watchCommand starts a watch of this tab's page: "/watch [--keep]
// [--every 90] the price drops below 50 €".
async function watchCommand(arg, ctx) {
  let rest = arg;
  let keep = false;
  let intervalSeconds = 0;
  for (;;) {
    const m = /^--(keep|every)(?:\s+(\d+))?\s*/i.exec(rest);
    if (!m) break;
    if (m[1].toLowerCase() === "keep") keep = true;
    else intervalSeconds = Number(m[2] ?? 0);
    rest = rest.slice(m[0].length);
  }
  if (!rest.trim()) return notice(ctx, "Use /watch [--keep] [--every <seconds>] <what to watch for>.");
  const reply = await send({ action: ACTION.WATCH_START, tabId: ctx.session.tabId, text: rest.trim(), keep, intervalSeconds });
  if (!reply.ok) return fail(ctx, `Watch: ${reply.error}`);
  const every = reply.job.schedule.intervalSeconds;
  notice(
    ctx,
    `Watching this page every ${every} s for: ${reply.job.prompt}. The first check runs now, in a background tab; you get a notification when it happens. /jobs stops it.`,
  );
}
