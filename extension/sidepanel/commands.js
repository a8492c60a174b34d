// Slash commands typed in the composer (docs/PROTOCOL.md).
import { send } from "../common/api.js";
import { ACTION, MODE } from "../common/protocol.js";
import { exportMarkdown, exportTraces } from "./history.js";
import { teachCommand } from "./teach.js";
import { usageCommand } from "./usage.js";
import { workflowCommand } from "./workflows.js";

const USAGE =
  "Commands: /ask, /act, /dev or /auto before a message (its mode), /clear, /export, /export --traces, /export --config, /import <json>, /import --file, /memory, /memory --add <text>, /memory --forget <id>, /jobs, /watch [--keep] [--every <seconds>] <what to watch for>, /workflow, /workflow --save [name], /workflow --run <id>, /teach --start, /teach --end [name], /teach --cancel, /usage";

const MODE_COMMANDS = { "/ask": MODE.ASK, "/act": MODE.ACT, "/dev": MODE.DEV, "/auto": MODE.AUTO };

// modeCommand reads "/ask text", "/act text", "/dev text" or "/auto text":
// the mode of this one message and its text; null for anything else.
export function modeCommand(text) {
  const m = /^(\/\w+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const mode = m && MODE_COMMANDS[m[1].toLowerCase()];
  return mode ? { mode, text: (m[2] ?? "").trim() } : null;
}

// runCommand handles text starting with "/". It must stay synchronous up to
// ctx.pickFile(): a file picker opens only inside the user's key or click.
export function runCommand(text, ctx) {
  const [name, ...rest] = text.trim().split(/\s+/);
  const arg = text.trim().slice(name.length).trim();
  switch (name) {
    case "/clear":
      // A new chat starts in Auto again.
      return ctx.session.clear().then(() => ctx.onCleared?.());
    case "/export":
      if (rest[0] === "--config") return exportConfig(ctx);
      if (rest[0] === "--traces") return exportTabTraces(ctx);
      if (rest.length === 0) return exportConversation(ctx);
      return notice(ctx, "Use /export (the conversation), /export --traces or /export --config.");
    case "/import":
      if (arg === "--file") return ctx.pickFile((json) => importConfig(json, ctx));
      if (arg) return importConfig(arg, ctx);
      return notice(ctx, "Use /import <json> or /import --file.");
    case "/memory":
      return memoryCommand(arg, ctx);
    case "/watch":
      return watchCommand(arg, ctx);
    case "/jobs":
      return ctx.session.transcript.add({ role: "jobs", ephemeral: true });
    case "/workflow":
      return workflowCommand(arg, ctx);
    case "/teach":
      return teachCommand(arg, ctx);
    case "/usage":
      return usageCommand(ctx);
    default:
      return notice(ctx, `Unknown command ${name}. ${USAGE}`);
  }
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
  notice(ctx, "Settings imported.");
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
    const m = /^--(keep|every)(?:\s+(\d+))?\s*/.exec(rest);
    if (!m) break;
    if (m[1] === "keep") keep = true;
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
