// Tests of background.js's start-up contract, in Node with a fake browser
// and a fake Go runtime: listeners exist synchronously, early messages wait
// for Go, and the Go program exiting is treated as a crash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const source = readFileSync(new URL("./background.js", import.meta.url), "utf8");

// load runs background.js in a fresh context. Each Go start is recorded in
// `starts`; the test makes the instance ready or exit when it wants.
function load() {
  const listeners = { message: [], alarm: [] };
  const starts = [];
  const panelBehavior = [];
  class Go {
    constructor() {
      this.importObject = {};
    }
    run() {
      return new Promise((resolve) => {
        starts.push({
          ready(handle) {
            ctx.wbGo = { handle };
            ctx.wbGoReady();
          },
          exit: resolve,
        });
      });
    }
  }
  const chrome = {
    runtime: {
      getURL: (p) => `chrome-extension://test/${p}`,
      onMessage: { addListener: (fn) => listeners.message.push(fn) },
    },
    alarms: { onAlarm: { addListener: (fn) => listeners.alarm.push(fn) } },
    sidePanel: { setPanelBehavior: async (b) => panelBehavior.push(b) },
  };
  const ctx = vm.createContext({
    chrome,
    Go,
    performance,
    console: { ...console, error() {} },
    fetch: async () => ({ body: { pipeThrough: () => ({}) } }),
    Response: class {},
    DecompressionStream: class {},
    WebAssembly: { compileStreaming: async () => ({}), instantiate: async () => ({}) },
  });
  ctx.globalThis = ctx;
  vm.runInContext(source, ctx);
  return { ctx, listeners, starts, panelBehavior };
}

// send delivers a message like runtime.onMessage and resolves to the reply.
function send(listener, msg, sender = { id: "test", url: "chrome-extension://test/sidepanel/sidepanel.html" }) {
  return new Promise((resolve) => {
    const async = listener(msg, sender, resolve);
    if (!async) resolve(undefined);
  });
}

const tick = () => new Promise((r) => setTimeout(r, 0));
// plain copies a value out of the vm context, whose objects have other
// prototypes than this realm's and never deep-equal strictly.
const plain = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

test("listeners are registered synchronously and the panel opens on the action", () => {
  const { listeners, panelBehavior } = load();
  assert.equal(listeners.message.length, 1);
  assert.equal(listeners.alarm.length, 1);
  assert.deepEqual(plain(panelBehavior), [{ openPanelOnActionClick: true }]);
});

test("a message that arrives before Go is ready is answered once it is", async () => {
  const { ctx, listeners, starts } = load();
  const reply = send(listeners.message[0], { action: "settings_get" });
  await tick();
  assert.equal(starts.length, 1, "Go starts at script start");
  let seen;
  starts[0].ready(async (msg, sender) => {
    seen = { msg: JSON.parse(msg), sender: JSON.parse(sender) };
    return JSON.stringify({ ok: true, settings: {} });
  });
  assert.deepEqual(plain(await reply), { ok: true, settings: {} });
  assert.deepEqual(seen, {
    msg: { action: "settings_get" },
    sender: { id: "test", url: "chrome-extension://test/sidepanel/sidepanel.html", tabId: -1, frameId: -1 },
  });
  assert.ok(ctx.wbStartup.goReady >= ctx.wbStartup.scriptStart);
});

test("messages without an action are left to other listeners", async () => {
  const { listeners } = load();
  assert.equal(await send(listeners.message[0], { type: "agent_update" }), undefined);
});

test("Go exiting fails pending calls and the next message starts it again", async () => {
  const { listeners, starts } = load();
  await tick();
  starts[0].ready(() => new Promise(() => {})); // never answers
  const pending = send(listeners.message[0], { action: "chat_start" });
  await tick();
  starts[0].exit();
  const reply = await pending;
  assert.equal(reply.ok, false);
  assert.match(reply.error, /core failed: the Go core exited/);

  const next = send(listeners.message[0], { action: "settings_get" });
  await tick();
  assert.equal(starts.length, 2, "a fresh Go instance starts");
  starts[1].ready(async () => JSON.stringify({ ok: true }));
  assert.deepEqual(plain(await next), { ok: true });
});
