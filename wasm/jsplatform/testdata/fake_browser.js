// A fake extension API for the jsplatform tests: the wasmbrowsertest page is
// an ordinary page. jsglue/host.js is loaded over it, so the tests exercise
// the real host.js and the real Go bridge. fakeBrowser records what happened.
"use strict";

(() => {
  const noReceiver = () => new Error("Could not establish connection. Receiving end does not exist.");
  const rec = { calls: [], injected: [], requests: [], ready: new Set() };
  globalThis.fakeBrowser = rec;

  function area() {
    const data = {};
    return {
      data,
      get: async (keys) => {
        const out = {};
        for (const k of keys ?? Object.keys(data)) if (k in data) out[k] = structuredClone(data[k]);
        return out;
      },
      set: async (items) => Object.assign(data, structuredClone(items)),
      remove: async (keys) => {
        for (const k of [].concat(keys)) delete data[k];
      },
    };
  }

  const tabs = { 5: { id: 5, url: "https://example.com/", title: "Example", status: "complete", active: true, windowId: 1 } };
  function tab(id) {
    if (!tabs[id]) throw new Error(`No tab with id: ${id}.`);
    return tabs[id];
  }

  globalThis.chrome = {
    runtime: {
      id: "fakeid",
      getURL: (path) => `chrome-extension://fakeid/${path}`,
      getManifest: () => ({ version: "1.2.3" }),
      sendMessage: async (msg) => {
        rec.calls.push(["broadcast", msg]);
        throw noReceiver();
      },
    },
    tabs: {
      get: async (id) => tab(id),
      update: async (id, props) => Object.assign(tab(id), { url: props.url, status: "loading" }),
      goBack: async (id) => rec.calls.push(["goBack", tab(id).id]),
      goForward: async (id) => rec.calls.push(["goForward", tab(id).id]),
      // Chrome's fallback capture: the window's active tab only.
      captureVisibleTab: async (windowId, opts) => {
        rec.calls.push(["captureVisibleTab", windowId, opts]);
        return "data:image/jpeg;base64,VklTSUJMRQ==";
      },
      sendMessage: async (id, msg, opts) => {
        tab(id);
        if (!rec.ready.has(opts.frameId)) throw noReceiver();
        return { ok: true, result: `${msg.name} in frame ${opts.frameId}` };
      },
    },
    scripting: {
      // Tab 5 has a top frame and frame 4, a child of the top's second
      // child frame; a frame where nothing can run gives no result.
      executeScript: async (injection) => {
        tab(injection.target.tabId);
        if (injection.func) {
          const frame = (frameId, path, url) => ({
            frameId,
            result: { frameId: null, path, url, title: "", width: 300, height: 150 },
          });
          return [frame(0, [], "https://example.com/"), frame(4, [1, 0], "https://pay.example/"), { frameId: 6 }];
        }
        for (const frameId of injection.target.frameIds) {
          rec.injected.push(...injection.files.map((f) => (frameId ? `${frameId}:${f}` : f)));
          rec.ready.add(frameId);
        }
        return [];
      },
      insertCSS: async (injection) => rec.calls.push(["insertCSS", injection]),
      removeCSS: async (injection) => rec.calls.push(["removeCSS", injection]),
    },
    storage: { local: area(), session: area() },
    debugger: {
      attach: async (target) => rec.calls.push(["attach", tab(target.tabId).id]),
      sendCommand: async (target, method, params) => {
        rec.calls.push(["cdp", target.tabId, method, params]);
        if (method === "Page.captureScreenshot") {
          if (rec.failCapture) throw new Error("Unable to capture screenshot");
          return { data: "Q0RQ" };
        }
        return { method, params };
      },
      detach: async (target) => rec.calls.push(["detach", target.tabId]),
      onDetach: { addListener() {} },
      // fireDebuggerEvent delivers a CDP event as Chrome would.
      onEvent: { addListener: (fn) => (rec.fireDebuggerEvent = (tabId, method, params) => fn({ tabId }, method, params)) },
    },
    // Firefox's dns.resolve, here beside Chrome's APIs: the bridge is
    // the same whichever browser offers it.
    dns: {
      resolve: async (host) => {
        if (host === "unknown.invalid") throw new Error("NS_ERROR_UNKNOWN_HOST");
        return { addresses: host === "rebind.example" ? ["10.0.0.7", "2001:db8::1"] : ["93.184.216.34"] };
      },
    },
    // downloads: a download of http://big.invalid/ grows by 600 bytes a
    // poll and never ends; any other completes on the second poll.
    downloads: {
      items: [],
      download: async (opts) => {
        const d = globalThis.chrome.downloads;
        const id = d.items.length + 1;
        d.items.push({
          id,
          url: opts.url,
          filename: `/dl/file${id}`,
          state: "in_progress",
          bytesReceived: 0,
          totalBytes: -1,
          polls: 0,
          byExtensionId: "fakeid",
          mime: "text/csv",
        });
        rec.calls.push(["download", opts]);
        return id;
      },
      search: async (q) => {
        const d = globalThis.chrome.downloads;
        if (q.id === undefined) return d.items.slice().reverse().slice(0, q.limit);
        const it = d.items.find((x) => x.id === q.id);
        if (!it) return [];
        it.polls++;
        if (it.url.startsWith("http://big.invalid/")) it.bytesReceived += 600;
        else if (it.polls >= 2) Object.assign(it, { state: "complete", bytesReceived: 42, fileSize: 42 });
        return [{ ...it }];
      },
      cancel: async (id) => {
        rec.calls.push(["cancelDownload", id]);
        globalThis.chrome.downloads.items.find((x) => x.id === id).state = "interrupted";
      },
    },
    alarms: {
      create: async (name, info) => rec.calls.push(["alarm", name, info.periodInMinutes]),
      clear: async (name) => rec.calls.push(["clearAlarm", name]),
    },
  };

  // fetch records every request; http://slow.invalid/ never answers and
  // fails only when aborted, like a server that has not replied yet.
  const realFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (url, init = {}) => {
    // wasmbrowsertest's own file-system bridge fetches with string bodies.
    const body = ArrayBuffer.isView(init.body) ? new TextDecoder().decode(init.body) : (init.body ?? null);
    rec.requests.push({ url, method: init.method, headers: init.headers, body, signal: init.signal, redirect: init.redirect });
    // What a browser gives for a redirect fetched with redirect "manual".
    if (String(url).startsWith("http://redirect.invalid/") && init.redirect === "manual") {
      return Promise.resolve({ type: "opaqueredirect", status: 0, url, headers: new Headers(), body: null });
    }
    if (String(url).startsWith("http://slow.invalid/")) {
      return new Promise((_, reject) => {
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    }
    return realFetch(url, init);
  };
})();
