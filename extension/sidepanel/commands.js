// Slash commands typed in the composer (docs/PROTOCOL.md).
import { send } from "../common/api.js";
import { ACTION, MODE } from "../common/protocol.js";

const USAGE =
  "Commands: /ask, /act, /dev or /auto before a message (its mode), /clear, /export --config, /import <json>, /import --file";

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
      return notice(ctx, "Use /export --config to export your settings.");
    case "/import":
      if (arg === "--file") return ctx.pickFile((json) => importConfig(json, ctx));
      if (arg) return importConfig(arg, ctx);
      return notice(ctx, "Use /import <json> or /import --file.");
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
