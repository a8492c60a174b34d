// The run traces' IndexedDB store (docs/decisions/traces.md), one classic
// script for every context that needs it: the background (Chrome's service
// worker imports it, Firefox's background page lists it) records traces,
// the Traces page and the panel read and export them. Extension pages and
// the background share the extension's origin, so they share the database.
(() => {
  const DB_NAME = "webbrain-traces";
  const STORE = "runs";
  // Retention: the newest 200 runs, none older than 14 days.
  const MAX_RUNS = 200;
  const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
  const FORMAT = "webbrain-trace/1";
  const UNAVAILABLE = "unavailable";

  let opening = null;
  function open() {
    opening ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => {
        const store = req.result.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex("tabId", "tabId");
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        opening = null;
        reject(req.error);
      };
    });
    return opening;
  }

  const settle = (req) =>
    new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const finished = (tx) =>
    new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });

  // list returns the stored runs, newest first; with tabId, that tab's.
  async function list(tabId) {
    const db = await open();
    const store = db.transaction(STORE).objectStore(STORE);
    const runs = await settle(tabId === undefined ? store.getAll() : store.index("tabId").getAll(tabId));
    return runs.sort((a, b) => String(b.startedAt).localeCompare(String(a.startedAt)));
  }

  async function remove(ids) {
    if (!ids.length) return;
    const db = await open();
    const tx = db.transaction(STORE, "readwrite");
    for (const id of ids) tx.objectStore(STORE).delete(id);
    await finished(tx);
  }

  async function clear() {
    const db = await open();
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).clear();
    await finished(tx);
  }

  // prune applies the retention rules.
  async function prune() {
    const now = Date.now();
    const runs = await list();
    const old = runs.filter((r, i) => i >= MAX_RUNS || now - Date.parse(r.startedAt) > MAX_AGE_MS);
    await remove(old.map((r) => r.id));
  }

  // put stores a run's trace (replacing its earlier version); a finished
  // run applies the retention rules.
  async function put(run) {
    const db = await open();
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put(run);
    await finished(tx);
    if (run.status !== "running") await prune();
  }

  // exportDoc is the webbrain-trace/1 document of runs. A run recorded
  // before runs carried their version says so rather than taking the
  // exporting version.
  function exportDoc(runs, version) {
    return {
      format: FORMAT,
      exportedByWebBrainVersion: version,
      exportedAt: new Date().toISOString(),
      runs: runs.map((r) => ({ ...r, recordedByWebBrainVersion: r.recordedByWebBrainVersion || UNAVAILABLE })),
    };
  }

  globalThis.wbTraceDB = Object.freeze({ put, list, remove, clear, exportDoc });
})();
