// background.js: the Chrome service worker and the Firefox background page.
// It starts the Go core (webbrain.wasm.gz) and hands it every message. A worker
// must register its listeners synchronously at start, before Go is up, so
// they are registered here at once and wait on the "Go ready" promise; that
// also answers the message that woke a stopped worker.
"use strict";

// Start-up timing, read by test/bench/startup: performance.now() counts from
// the worker's (or page's) start. Each step of a start records when it
// ended: glue (scripts loaded), compiled, instantiated, goMain (Go's package
// init done, set by Go), goReady, and firstMessage/firstReply.
globalThis.wbStartup = { scriptStart: performance.now(), goReady: null };

function mark(name) {
  globalThis.wbStartup[name] ??= performance.now();
}

const api = globalThis.browser ?? globalThis.chrome;

// The module ships gzip-compressed: the browser reads an extension's files
// slowly (reading the raw 6 MB took most of a wake), and the decompressor
// costs little; compilation streams from it. The fetch starts before the
// glue scripts load, so the browser reads and compiles while it parses them.
const wasmHeaders = { "content-type": "application/wasm" };
function fetchModule() {
  return fetch(api.runtime.getURL("webbrain.wasm.gz")).then(
    (r) => new Response(r.body.pipeThrough(new DecompressionStream("gzip")), { headers: wasmHeaders }),
  );
}

// MODULE_ID is the module's SHA-256, which build.sh writes into the built
// copy of this file; it is empty in the sources, which then always read the
// packaged file. A wake reads the packaged file and decompresses it in about
// twice the time it takes to compile a decompressed copy kept in the
// extension's IndexedDB, so the first start of a build keeps one there
// under its hash, and later starts compile from it. A copy that fails to
// compile is dropped and the packaged file used
// (docs/decisions/wake-and-size.md).
const MODULE_ID = "";
const MODULE_DB = "webbrain-module";
const MODULE_STORE = "module";

function moduleDB() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(MODULE_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(MODULE_STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

// moduleTx runs one request on the store and resolves when its transaction is done.
function moduleTx(mode, request) {
  return moduleDB().then(
    (db) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction(MODULE_STORE, mode);
        const req = request(tx.objectStore(MODULE_STORE));
        tx.oncomplete = () => {
          db.close();
          resolve(req.result);
        };
        tx.onerror = tx.onabort = () => {
          db.close();
          reject(tx.error);
        };
      }),
  );
}

// keepModule replaces whatever copy is kept with blob, this build's.
function keepModule(blob) {
  return moduleTx("readwrite", (store) => {
    store.clear();
    return store.put(blob, MODULE_ID);
  });
}

function dropModule() {
  return moduleTx("readwrite", (store) => store.clear()).catch(() => {});
}

// A source is what one start compiles: { response, from, keep }, from
// "cache" or "package"; keep() is called once it compiled. The packaged
// module is read and decompressed again to keep a copy, a few seconds after
// the start, so the copy does not slow the start that makes it (in Firefox
// it took 100 ms from a start that tee'd the compile's stream into it).
const KEEP_DELAY_MS = 3000;
function packagedSource(keepCopy) {
  const keep = () =>
    setTimeout(() => {
      fetchModule()
        .then((r) => r.blob())
        .then(keepModule)
        .catch((err) => console.warn("webbrain: keeping the module for the next start:", err));
    }, KEEP_DELAY_MS);
  return fetchModule().then((response) => ({ response, from: "package", keep: keepCopy ? keep : () => {} }));
}

function moduleSource() {
  const cacheable = MODULE_ID !== "" && typeof indexedDB !== "undefined";
  if (!cacheable) return packagedSource(false);
  return moduleTx("readonly", (store) => store.get(MODULE_ID))
    .catch(() => undefined)
    .then((blob) =>
      blob instanceof Blob && blob.size > 0
        ? { response: new Response(blob, { headers: wasmHeaders }), from: "cache", keep() {} }
        : packagedSource(true),
    );
}

// compileModule compiles source; a kept copy that does not compile is
// dropped and the packaged module compiled (and kept) instead.
function compileModule(source) {
  globalThis.wbStartup.module ??= source.from;
  return WebAssembly.compileStreaming(source.response).then(
    (module) => {
      source.keep();
      return module;
    },
    (err) => {
      if (source.from !== "cache") throw err;
      console.warn("webbrain: the kept module did not compile; reading the packaged one:", err);
      globalThis.wbStartup.module = "package";
      return dropModule()
        .then(() => packagedSource(true))
        .then(compileModule);
    },
  );
}
let wasmSource = moduleSource();

// Firefox lists these files in manifest background.scripts; a Chrome
// service worker loads them itself.
if (typeof importScripts === "function") {
  importScripts("wasm_exec.js", "common/traces-db.js", "common/draw-msg.js", "host.js");
}
mark("glue");

let ready = null; // promise of globalThis.wbGo; null before the first start and after a crash
const inflight = new Set(); // reject functions of calls Go has not answered yet

function startGo() {
  let rejectReady;
  const p = new Promise((resolve, reject) => {
    rejectReady = reject;
    // wasm/cmd/webbrain calls this once globalThis.wbGo is set.
    globalThis.wbGoReady = () => {
      globalThis.wbStartup.goReady = performance.now();
      resolve(globalThis.wbGo);
    };
  });
  p.catch(() => {}); // crashed() logs it; callers waiting on p get the rejection
  const go = new Go();
  // The first start takes the read begun at script start; a restart after a crash reads again.
  const source = wasmSource ?? moduleSource();
  wasmSource = null;
  source
    .then(compileModule)
    .then((module) => {
      mark("compiled");
      return WebAssembly.instantiate(module, go.importObject);
    })
    .then((instance) => {
      mark("instantiated");
      return go.run(instance);
    })
    .then(
      () => crashed(rejectReady, new Error("the Go core exited")),
      (err) => crashed(rejectReady, err),
    );
  return p;
}

// The Go program never returns on its own: exiting is a crash. Everything
// waiting on it fails; the next message starts a fresh instance.
function crashed(rejectReady, err) {
  console.error("webbrain: Go core crashed:", err);
  rejectReady(err);
  ready = null;
  globalThis.wbGo = undefined;
  for (const reject of inflight) reject(err);
  inflight.clear();
}

function goReady() {
  if (!ready) ready = startGo();
  return ready;
}

function senderInfo(sender) {
  return { id: sender.id ?? "", url: sender.url ?? "", tabId: sender.tab?.id ?? -1, frameId: sender.frameId ?? -1 };
}

// callGo hands one message to Go and resolves to its parsed reply.
function callGo(msg, sender) {
  return new Promise((resolve, reject) => {
    inflight.add(reject);
    goReady()
      .then((wbGo) => wbGo.handle(JSON.stringify(msg), JSON.stringify(senderInfo(sender))))
      .then((reply) => resolve(JSON.parse(reply)), reject)
      .finally(() => inflight.delete(reject));
  });
}

api.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  // Only requests carry an action; anything else is not for the background.
  if (!msg || typeof msg.action !== "string") return false;
  mark("firstMessage");
  const reply = (r) => {
    mark("firstReply");
    sendResponse(r);
  };
  if (msg.action === "selection_context" && sender.tab) {
    // More… in the selection toolbar: the panel opens now, while the
    // user's click still counts (docs/decisions/selection-toolbar.md).
    const opened = openPanel(sender.tab);
    Promise.all([callGo(msg, sender), opened]).then(
      ([r, panelOpened]) => reply({ ...r, panelOpened }),
      (err) => reply({ ok: false, error: `WebBrain's core failed: ${err && err.message ? err.message : err}` }),
    );
    return true;
  }
  callGo(msg, sender).then(reply, (err) =>
    reply({ ok: false, error: `WebBrain's core failed: ${err && err.message ? err.message : err}` }),
  );
  return true; // the reply is sent asynchronously
});

// A closed tab's conversation goes into the chat history
// (docs/decisions/chat-history.md). The message is the background's own,
// so it carries the extension's id and origin like its pages' messages.
api.tabs?.onRemoved.addListener((tabId) => {
  callGo({ action: "tab_closed", tabId }, { id: api.runtime.id, url: api.runtime.getURL("background.js") }).catch((err) =>
    console.warn("webbrain: archiving a closed tab's conversation:", err),
  );
});

// A tab that records in teacher mode gets the recorder again in each
// document it loads, and its address changes within a document (a
// single-page app's history.pushState) are followed too; other tabs' loads
// do not wake Go.
api.tabs?.onUpdated.addListener((tabId, change) => {
  if (change.status !== "complete" && !change.url) return;
  const key = `teachSession:${tabId}`;
  api.storage.session
    .get(key)
    .then((got) => {
      if (!got[key]) return;
      return callGo({ action: "teach_page", tabId }, { id: api.runtime.id, url: api.runtime.getURL("background.js") });
    })
    .catch((err) => console.warn("webbrain: following a recording tab:", err));
});

// The keepalive alarm only has to wake the worker (waking starts Go); a
// scheduled job's alarm also tells Go which job is due.
api.alarms.onAlarm.addListener((alarm) => {
  goReady()
    .then((wbGo) => wbGo.alarm?.(alarm.name))
    .catch(() => {});
});

// openPanel opens the side panel (Chrome) or the sidebar (Firefox) in the
// tab's window; it must be called in the user's gesture, before any await.
// It resolves to whether the browser opened it.
function openPanel(tab) {
  try {
    const p = api.sidePanel ? api.sidePanel.open({ windowId: tab.windowId }) : api.sidebarAction?.open();
    return Promise.resolve(p).then(
      () => Boolean(p),
      () => false,
    );
  } catch {
    return Promise.resolve(false);
  }
}

// The selection toolbar's context menu and keyboard shortcut
// (docs/decisions/selection-toolbar.md). The menu's words are the same
// as the toolbar's (extension/content/selection-strings.mjs).
// The titles come from the extension's catalogs through i18n.getMessage
// (the browser's language; Chrome's service worker and Firefox's background
// page both have it); English when a catalog cannot answer.
const menuTitle = (key, english) => api.i18n?.getMessage(key) || english;
const SELECTION_MENU = [
  ["translate", "selection_translate", "Translate"],
  ["explain", "selection_explain", "Explain"],
  ["proofread", "selection_proofread", "Proofread"],
  ["more", "selection_ask_in_panel", "Ask in side panel"],
];
const menus = api.menus ?? api.contextMenus;
if (menus) {
  // Chrome keeps menu entries across worker restarts: start from none.
  Promise.resolve(menus.removeAll())
    .then(() => {
      menus.create({ id: "wb-selection", title: "WebBrain", contexts: ["selection"] });
      for (const [id, key, english] of SELECTION_MENU)
        menus.create({
          id: `wb-selection-${id}`,
          parentId: "wb-selection",
          title: menuTitle(key, english),
          contexts: ["selection"],
        });
    })
    .catch((err) => console.warn("webbrain: context menu:", err));
  menus.onClicked.addListener((info, tab) => {
    const kind = String(info.menuItemId).replace(/^wb-selection-/, "");
    const text = info.selectionText ?? "";
    if (!tab || tab.id < 0 || !text || !SELECTION_MENU.some(([id]) => id === kind)) return;
    if (kind === "more") {
      openPanel(tab);
      const self = { id: api.runtime.id, url: api.runtime.getURL("background.js") };
      callGo({ action: "selection_context", tabId: tab.id, text }, self).catch((err) =>
        console.warn("webbrain: selection for the panel:", err),
      );
      return;
    }
    toSelectionScript(tab.id, { wbSelection: "run", kind, text });
  });
}

// toSelectionScript hands msg to the toolbar's script in the tab's top
// document (its __wbSelection, in the content scripts' world), injecting
// the script first into a page loaded before WebBrain was. A message
// listener in every page would answer the tool messages host.js sends
// before it injects their script, so the toolbar has none.
function toSelectionScript(tabId, msg) {
  const call = () =>
    api.scripting
      ? api.scripting
          .executeScript({
            target: { tabId, frameIds: [0] },
            func: (m) => {
              if (typeof globalThis.__wbSelection !== "function") return false;
              globalThis.__wbSelection(m);
              return true;
            },
            args: [msg],
          })
          .then((r) => r?.[0]?.result === true)
      : api.tabs
          .executeScript(tabId, {
            frameId: 0,
            code: `(() => { if (typeof globalThis.__wbSelection !== "function") return false; globalThis.__wbSelection(${JSON.stringify(msg)}); return true; })()`,
          })
          .then((r) => r?.[0] === true);
  const inject = () =>
    api.scripting
      ? api.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: ["content/selection.js"] })
      : api.tabs.executeScript(tabId, { frameId: 0, file: "/content/selection.js" });
  return call()
    .then((done) => done || inject().then(call))
    .catch((err) => console.warn("webbrain: selection toolbar:", err));
}

api.commands?.onCommand.addListener((command, tab) => {
  if (command !== "selection-toolbar") return;
  const withTab = tab ? Promise.resolve([tab]) : api.tabs.query({ active: true, currentWindow: true });
  withTab.then(([t]) => t && toSelectionScript(t.id, { wbSelection: "show" })).catch(() => {});
});

if (api.sidePanel) {
  api.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((err) => console.warn("webbrain: side panel:", err));
}
if (api.sidebarAction && api.browserAction) {
  // Firefox: the toolbar button toggles the sidebar (a user action, as toggle() requires).
  api.browserAction.onClicked.addListener(() => api.sidebarAction.toggle());
}

goReady();
