// host.js: the browser as the Go core sees it. Every function returns a
// promise and takes and gives plain JSON-able values (plus Uint8Array for
// fetch bodies); wasm/jsplatform wraps this object in the Go interfaces of
// wasm/platform. Chrome MV3 and Firefox both return promises from their
// extension APIs, so the only per-browser differences are the few below.
"use strict";

(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  // Only Firefox has runtime.getBrowserInfo.
  const browserName = typeof api.runtime.getBrowserInfo === "function" ? "firefox" : "chrome";

  // Errors that mean "no such tab" in Chrome ("No tab with id: 5.") and
  // Firefox ("Invalid tab ID: 5"); Go maps the name to platform.ErrNoTab.
  const noTabPattern = /no tab with id|invalid tab id/i;
  // Errors that mean "nobody listens on the other side".
  const noReceiverPattern = /receiving end does not exist|could not establish connection/i;

  function message(err) {
    return err && err.message ? err.message : String(err);
  }

  async function tabCall(fn) {
    try {
      return await fn();
    } catch (err) {
      if (noTabPattern.test(message(err))) {
        const e = new Error(message(err));
        e.name = "NoTab";
        throw e;
      }
      throw err;
    }
  }

  function tabInfo(t) {
    return { id: t.id, url: t.url ?? "", pendingUrl: t.pendingUrl ?? "", title: t.title ?? "", status: t.status ?? "" };
  }

  const tabs = {
    get: (tabId) => tabCall(async () => tabInfo(await api.tabs.get(tabId))),
    update: (tabId, url) => tabCall(async () => tabInfo(await api.tabs.update(tabId, { url }))),
    goBack: (tabId) => tabCall(() => api.tabs.goBack(tabId)),
    goForward: (tabId) => tabCall(() => api.tabs.goForward(tabId)),
    capture: (tabId) => tabCall(() => capture(tabId)),
  };

  // The window that shows a tab: new_tab opens a tab beside it without
  // switching to it; resize_window sets its outer size (a maximized or
  // full-screen window cannot take a size, so it becomes a normal one).
  const windows = {
    openTab: (tabId, url) =>
      tabCall(async () => {
        const t = await api.tabs.get(tabId);
        return tabInfo(await api.tabs.create({ url, windowId: t.windowId, index: t.index + 1, active: false }));
      }),
    closeTab: (tabId) => tabCall(() => api.tabs.remove(tabId)),
    listTabs: async () => (await api.tabs.query({})).map(tabInfo),
    resize: (tabId, width, height) =>
      tabCall(async () => {
        const t = await api.tabs.get(tabId);
        const w = await api.windows.update(t.windowId, { state: "normal", width, height });
        return { width: w.width ?? 0, height: w.height ?? 0, state: w.state ?? "" };
      }),
  };

  // Screenshots of the visible viewport as JPEG, resolving to
  // {mediaType, data} with data in base64. Firefox captures any tab with
  // tabs.captureTab. Chrome uses the debugger (attached for trusted input
  // anyway), which works whether or not the tab is in front; when that
  // fails or hangs it falls back to captureVisibleTab, which only sees the
  // active tab of a window.
  const shotOptions = { format: "jpeg", quality: 60 };
  const cdpShotMs = 5000;

  async function capture(tabId) {
    if (typeof api.tabs.captureTab === "function") return dataURLImage(await api.tabs.captureTab(tabId, shotOptions));
    let cdpErr = null;
    if (debuggerBridge) {
      try {
        const shot = await withTimeout(
          debuggerBridge.sendCommand(tabId, "Page.captureScreenshot", shotOptions),
          cdpShotMs,
          "the debugger took too long to capture the tab",
        );
        return { mediaType: "image/jpeg", data: shot.data };
      } catch (err) {
        if (noTabPattern.test(message(err))) throw err;
        cdpErr = err;
      }
    }
    const tab = await api.tabs.get(tabId);
    if (!tab.active) {
      throw new Error(`the tab is not in front and cannot be captured${cdpErr ? ` (${message(cdpErr)})` : ""}`);
    }
    return dataURLImage(await api.tabs.captureVisibleTab(tab.windowId, shotOptions));
  }

  function dataURLImage(url) {
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(url ?? "");
    if (!m) throw new Error("the browser returned no image");
    return { mediaType: m[1], data: m[2] };
  }

  function withTimeout(promise, ms, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(what)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  // The content scripts are injected on demand, on the first tool call in a
  // page, not declared for every page: most pages a person opens never see
  // the agent, and 130 KB of script in each of them would cost load time
  // for nothing. Inject both files, in order, and retry once.
  const contentFiles = ["content/accessibility-tree.js", "content/content.js"];

  async function inject(tabId) {
    if (api.scripting) {
      await api.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: contentFiles });
      return;
    }
    for (const file of contentFiles) {
      await api.tabs.executeScript(tabId, { file, frameId: 0, runAt: "document_idle" });
    }
  }

  const content = {
    send: (tabId, msg) =>
      tabCall(async () => {
        try {
          return await api.tabs.sendMessage(tabId, msg, { frameId: 0 });
        } catch (err) {
          if (!noReceiverPattern.test(message(err))) throw err;
          await inject(tabId);
          return await api.tabs.sendMessage(tabId, msg, { frameId: 0 });
        }
      }),
  };

  // The tab's frames. Every frame the extension may script reports itself:
  // its place among its parent's child windows at each level (the top
  // frame's content script finds an iframe element by the same path),
  // its URL, title and size. Chrome gives each result its frameId; in
  // Firefox, whose results come without one, the frame asks runtime.
  // A frame its parent does not count (one in a shadow tree) has no path.
  function frameInfo() {
    let path = [];
    try {
      for (let w = window; path && w.parent !== w; w = w.parent) {
        const p = w.parent;
        let i = 0;
        while (i < p.frames.length && p.frames[i] !== w) i++;
        if (i < p.frames.length) path.unshift(i);
        else path = null;
      }
    } catch {
      path = null;
    }
    const ext = typeof browser !== "undefined" ? browser : null;
    const frameId = ext && typeof ext.runtime.getFrameId === "function" ? ext.runtime.getFrameId(window) : null;
    return { frameId, path, url: location.href, title: document.title, width: innerWidth, height: innerHeight };
  }

  async function listFrames(tabId) {
    if (api.scripting) {
      const results = await api.scripting.executeScript({ target: { tabId, allFrames: true }, func: frameInfo });
      return results.filter((r) => r.result).map((r) => ({ ...r.result, frameId: r.frameId }));
    }
    const results = await api.tabs.executeScript(tabId, {
      code: `(${frameInfo})()`,
      allFrames: true,
      matchAboutBlank: true,
    });
    return results.filter((r) => r && typeof r.frameId === "number");
  }

  async function injectFrame(tabId, frameId) {
    if (api.scripting) {
      await api.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: contentFiles });
      return;
    }
    for (const file of contentFiles) {
      await api.tabs.executeScript(tabId, { file, frameId, matchAboutBlank: true, runAt: "document_idle" });
    }
  }

  const frames = {
    list: (tabId) => tabCall(() => listFrames(tabId)),
    send: (tabId, frameId, msg) =>
      tabCall(async () => {
        try {
          return await api.tabs.sendMessage(tabId, msg, { frameId });
        } catch (err) {
          if (!noReceiverPattern.test(message(err))) throw err;
          await injectFrame(tabId, frameId);
          return await api.tabs.sendMessage(tabId, msg, { frameId });
        }
      }),
  };

  function storageArea(area) {
    return {
      // No keys means everything in the area.
      get: (keys) => area.get(keys && keys.length ? keys : null),
      set: (items) => area.set(items),
      remove: (keys) => area.remove(keys),
      // Only the names: the values stay in the browser. getKeys is Chrome
      // 130+ and recent Firefox; elsewhere the values are read here, still
      // not handed to Go.
      keys: async () => (typeof area.getKeys === "function" ? area.getKeys() : Object.keys(await area.get(null))),
    };
  }

  // Streaming fetch: start resolves once the headers are in; read pulls one
  // chunk at a time so Go applies back-pressure; cancel aborts. The caller
  // picks the id so it can cancel a fetch still waiting for its headers.
  const streams = new Map(); // id -> {controller, reader}

  const fetchBridge = {
    async start(req) {
      const controller = new AbortController();
      const entry = { controller, reader: null };
      streams.set(req.id, entry);
      try {
        const resp = await fetch(req.url, {
          method: req.method || "GET",
          headers: req.headers || {},
          body: req.body ?? undefined,
          signal: controller.signal,
          // "manual" gives an opaque redirect (status 0, no location):
          // fetch_url learns that a redirect happened, not where to.
          redirect: req.redirect || "follow",
          // Provider APIs authenticate with keys; the user's cookies for
          // those hosts must not ride along.
          credentials: "omit",
        });
        const headers = {};
        resp.headers.forEach((v, k) => {
          headers[k.toLowerCase()] = v;
        });
        entry.reader = resp.body ? resp.body.getReader() : null;
        return { id: req.id, status: resp.status, url: resp.url, headers };
      } catch (err) {
        // A late failure of an aborted fetch must not drop a newer entry.
        if (streams.get(req.id) === entry) streams.delete(req.id);
        throw err;
      }
    },
    // Resolves to the next chunk, or null at the end of the body.
    async read(id) {
      const entry = streams.get(id);
      if (!entry || !entry.reader) return null;
      try {
        const { done, value } = await entry.reader.read();
        if (done) {
          streams.delete(id);
          return null;
        }
        return value;
      } catch (err) {
        streams.delete(id);
        throw err;
      }
    },
    async cancel(id) {
      const entry = streams.get(id);
      if (!entry) return;
      streams.delete(id);
      entry.controller.abort();
    },
  };

  // chrome.debugger, attached on first use; Firefox has none. While
  // attached it answers native JavaScript dialogs at once: a dialog blocks
  // the page and every CDP command sent to it (a trusted click included),
  // so waiting for Go to decide could deadlock. Alerts are acknowledged,
  // confirmations and prompts dismissed: a running task never accepts a
  // confirmation. A beforeunload warning chooses Leave only for the one-use
  // permission armDialogs grants just before a navigation tool dispatches,
  // and only from the page it named; otherwise Stay. Answers are recorded
  // for takeDialogs so the tool result tells the model.
  const attached = new Map(); // tabId -> promise of the attach
  const answered = new Map(); // tabId -> [{type, message, url, accepted}]
  const leaveGrants = new Map(); // tabId -> {url, expires}
  const leaveGrantMs = 10000;
  const maxAnswered = 20; // a page looping alert() must not grow it forever

  async function attachNow(tabId) {
    try {
      await tabCall(() => api.debugger.attach({ tabId }, "1.3"));
    } catch (err) {
      // A worker restart forgets the map while Chrome keeps the session.
      if (!/already attached/i.test(message(err))) throw err;
    }
    // Page events carry the dialogs.
    await api.debugger.sendCommand({ tabId }, "Page.enable", {});
  }

  function attach(tabId) {
    let p = attached.get(tabId);
    if (!p) {
      p = attachNow(tabId);
      attached.set(tabId, p);
      p.catch(() => {
        if (attached.get(tabId) === p) attached.delete(tabId);
      });
    }
    return p;
  }

  function forget(tabId) {
    attached.delete(tabId);
    answered.delete(tabId);
    leaveGrants.delete(tabId);
    mcp.delete(tabId);
  }

  function answerDialog(tabId, params) {
    let accept = params.type === "alert";
    if (params.type === "beforeunload") {
      const grant = leaveGrants.get(tabId);
      accept = !!grant && grant.url === params.url && Date.now() < grant.expires;
      if (accept) leaveGrants.delete(tabId);
    }
    const list = answered.get(tabId) ?? [];
    if (list.length < maxAnswered) {
      list.push({ type: params.type, message: params.message ?? "", url: params.url ?? "", accepted: accept });
    }
    answered.set(tabId, list);
    api.debugger.sendCommand({ tabId }, "Page.handleJavaScriptDialog", { accept }).catch((err) => {
      console.warn("webbrain: answering a dialog:", message(err));
    });
  }

  const debuggerBridge = api.debugger && {
    async sendCommand(tabId, method, params) {
      await attach(tabId);
      return (await api.debugger.sendCommand({ tabId }, method, params ?? {})) ?? {};
    },
    async detach(tabId) {
      forget(tabId);
      captures.delete(tabId);
      try {
        await api.debugger.detach({ tabId });
      } catch (err) {
        if (!/not attached/i.test(message(err))) throw err;
      }
    },
    async armDialogs(tabId, leaveFrom) {
      leaveGrants.delete(tabId);
      await attach(tabId);
      if (leaveFrom) leaveGrants.set(tabId, { url: leaveFrom, expires: Date.now() + leaveGrantMs });
    },
    async takeDialogs(tabId) {
      const list = answered.get(tabId) ?? [];
      answered.delete(tabId);
      return list;
    },
  };
  // WebMCP (Chrome's experimental DevTools domain): the tools a page
  // registered arrive as toolsAdded/toolsRemoved events once the domain is
  // enabled, and an invocation's answer as toolResponded. The catalog is
  // kept per tab, bounded; each tool carries the URL and origin of the
  // frame that registered it, read from the frame tree when asked.
  const mcp = new Map(); // tabId -> {enabled, tools: Map(key -> tool), waiting: Map(id -> fn), results: Map(id -> result)}
  const mcpMaxTools = 200;
  const mcpSettleMs = 300; // for the toolsAdded that enabling triggers
  const mcpInvokeMs = 30000;

  function mcpState(tabId) {
    let s = mcp.get(tabId);
    if (!s) {
      s = { enabled: null, tools: new Map(), waiting: new Map(), results: new Map() };
      mcp.set(tabId, s);
    }
    return s;
  }

  function onMCPEvent(tabId, method, params) {
    const s = mcp.get(tabId);
    if (!s) return;
    if (method === "WebMCP.toolsAdded") {
      for (const t of params.tools ?? []) {
        if (s.tools.size >= mcpMaxTools) break;
        s.tools.set(`${t.frameId}\n${t.name}`, t);
      }
    } else if (method === "WebMCP.toolsRemoved") {
      for (const t of params.tools ?? []) s.tools.delete(`${t.frameId}\n${t.name}`);
    } else if (method === "WebMCP.toolResponded") {
      const done = s.waiting.get(params.invocationId);
      if (done) done(params);
      else s.results.set(params.invocationId, params);
    }
  }

  async function mcpEnable(tabId) {
    await attach(tabId);
    const s = mcpState(tabId);
    if (!s.enabled) {
      s.enabled = api.debugger
        .sendCommand({ tabId }, "WebMCP.enable", {})
        .then(() => new Promise((r) => setTimeout(r, mcpSettleMs)));
      s.enabled.catch(() => {
        if (mcp.get(tabId) === s) mcp.delete(tabId);
      });
    }
    await s.enabled;
    return s;
  }

  function frameURLs(tree, out = new Map()) {
    out.set(tree.frame.id, { url: tree.frame.url ?? "", origin: tree.frame.securityOrigin ?? "" });
    for (const c of tree.childFrames ?? []) frameURLs(c, out);
    return out;
  }

  const webmcp = api.debugger && {
    async tools(tabId) {
      const s = await mcpEnable(tabId);
      const { frameTree } = await api.debugger.sendCommand({ tabId }, "Page.getFrameTree", {});
      const byFrame = frameURLs(frameTree);
      return [...s.tools.values()].map((t) => ({
        name: t.name,
        description: t.description ?? "",
        inputSchema: t.inputSchema ?? null,
        annotations: t.annotations ?? {},
        frameId: t.frameId,
        frameUrl: byFrame.get(t.frameId)?.url ?? "",
        frameOrigin: byFrame.get(t.frameId)?.origin ?? "",
      }));
    },
    async invoke(tabId, frameId, toolName, input) {
      const s = await mcpEnable(tabId);
      const { invocationId } = await api.debugger.sendCommand({ tabId }, "WebMCP.invokeTool", { frameId, toolName, input });
      const early = s.results.get(invocationId);
      s.results.delete(invocationId);
      const answer =
        early ??
        (await new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            s.waiting.delete(invocationId);
            api.debugger.sendCommand({ tabId }, "WebMCP.cancelInvocation", { invocationId }).catch(() => {});
            reject(new Error(`the page's tool gave no answer within ${mcpInvokeMs / 1000} s; it was cancelled`));
          }, mcpInvokeMs);
          s.waiting.set(invocationId, (params) => {
            clearTimeout(timer);
            s.waiting.delete(invocationId);
            resolve(params);
          });
        }));
      return { status: answer.status ?? "", output: answer.output ?? null, errorText: answer.errorText ?? "" };
    },
    // cancel ends the tab's invocations still waiting (Stop).
    async cancel(tabId) {
      const s = mcp.get(tabId);
      if (!s) return;
      for (const [invocationId, done] of s.waiting) {
        await api.debugger.sendCommand({ tabId }, "WebMCP.cancelInvocation", { invocationId }).catch(() => {});
        done({ status: "Canceled" });
      }
    },
  };

  if (api.debugger) {
    api.debugger.onDetach.addListener((source) => {
      forget(source.tabId);
      captures.delete(source.tabId);
    });
    api.debugger.onEvent.addListener((source, method, params) => {
      if (method === "Page.javascriptDialogOpening" && attached.has(source.tabId)) answerDialog(source.tabId, params);
      else if (method.startsWith("WebMCP.")) onMCPEvent(source.tabId, method, params);
      else if (method === "Page.screencastFrame") onScreencastFrame(source.tabId, params);
      const cap = captures.get(source.tabId);
      if (cap) record(cap, method, params ?? {});
    });
  }

  // Dev mode's capture of a tab's console and network (Chrome): bounded
  // buffers, header values of sensitive names redacted before they are
  // kept, no bodies. Go reads them with captured() and ends them with
  // stopCapture(), which also disables the domains.
  const captures = new Map(); // tabId -> {console[], network: Map, dropped}
  const maxEntries = 200;
  const maxText = 2000;
  const sensitiveHeader =
    /authorization|cookie|token|secret|password|passwd|session|csrf|xsrf|signature|api[-_]?key|subscription[-_]?key|(^|-)key$|auth/i;

  function redact(headers) {
    const out = {};
    for (const [k, v] of Object.entries(headers ?? {})) {
      out[k.toLowerCase()] = sensitiveHeader.test(k) ? "[redacted]" : String(v).slice(0, 500);
    }
    return out;
  }

  function remoteText(o) {
    if (!o) return "";
    if (o.type === "string") return o.value;
    if ("value" in o) return JSON.stringify(o.value) ?? String(o.value);
    return o.unserializableValue ?? o.description ?? o.type;
  }

  function pushBounded(cap, list, entry) {
    list.push(entry);
    if (list.length > maxEntries) {
      list.shift();
      cap.dropped++;
    }
  }

  const consoleLevels = { warning: "warning", warn: "warning", error: "error", assert: "error", debug: "debug", info: "info" };

  function record(cap, method, p) {
    switch (method) {
      case "Runtime.consoleAPICalled": {
        const frame = p.stackTrace?.callFrames?.[0];
        pushBounded(cap, cap.console, {
          level: consoleLevels[p.type] ?? "log",
          source: "console",
          text: (p.args ?? []).map(remoteText).join(" ").slice(0, maxText),
          url: frame?.url ?? "",
          line: (frame?.lineNumber ?? -1) + 1,
          time: p.timestamp ?? Date.now(),
        });
        break;
      }
      case "Runtime.exceptionThrown": {
        const d = p.exceptionDetails ?? {};
        pushBounded(cap, cap.console, {
          level: "error",
          source: "exception",
          text: String(d.exception?.description ?? d.text ?? "").slice(0, maxText),
          url: d.url ?? "",
          line: (d.lineNumber ?? -1) + 1,
          time: p.timestamp ?? Date.now(),
        });
        break;
      }
      case "Log.entryAdded": {
        const e = p.entry ?? {};
        pushBounded(cap, cap.console, {
          level: consoleLevels[e.level] ?? "log",
          source: e.source ?? "browser",
          text: String(e.text ?? "").slice(0, maxText),
          url: e.url ?? "",
          line: (e.lineNumber ?? -1) + 1,
          time: e.timestamp ?? Date.now(),
        });
        break;
      }
      case "Network.requestWillBeSent": {
        const r = p.request ?? {};
        const entry = {
          method: r.method ?? "",
          url: String(r.url ?? "").slice(0, maxText),
          type: p.type ?? "",
          status: 0,
          statusText: "",
          mimeType: "",
          failed: "",
          requestHeaders: redact(r.headers),
          responseHeaders: {},
          time: (p.wallTime ?? Date.now() / 1000) * 1000,
        };
        cap.network.set(p.requestId + "#" + cap.seq++, entry);
        cap.byId.set(p.requestId, entry);
        if (cap.network.size > maxEntries) {
          const oldest = cap.network.keys().next().value;
          cap.network.delete(oldest);
          cap.dropped++;
        }
        break;
      }
      case "Network.responseReceived": {
        const e = cap.byId.get(p.requestId);
        if (!e) break;
        const r = p.response ?? {};
        e.status = r.status ?? 0;
        e.statusText = r.statusText ?? "";
        e.mimeType = r.mimeType ?? "";
        e.responseHeaders = redact(r.headers);
        if (p.type) e.type = p.type;
        break;
      }
      case "Network.loadingFailed": {
        const e = cap.byId.get(p.requestId);
        if (e) e.failed = p.canceled ? "canceled" : (p.blockedReason ?? p.errorText ?? "failed");
        break;
      }
    }
    if (cap.byId.size > maxEntries * 2) {
      const live = new Set(cap.network.values());
      for (const [id, e] of cap.byId) if (!live.has(e)) cap.byId.delete(id);
    }
  }

  const diagDomains = ["Runtime", "Log", "Network"];

  const devCapture = api.debugger && {
    async startCapture(tabId) {
      if (captures.has(tabId)) return;
      await attach(tabId);
      captures.set(tabId, { console: [], network: new Map(), byId: new Map(), seq: 0, dropped: 0 });
      try {
        for (const d of diagDomains) await api.debugger.sendCommand({ tabId }, `${d}.enable`, {});
      } catch (err) {
        captures.delete(tabId);
        throw err;
      }
    },
    async stopCapture(tabId) {
      if (!captures.delete(tabId)) return;
      for (const d of diagDomains) {
        await api.debugger.sendCommand({ tabId }, `${d}.disable`, {}).catch(() => {});
      }
    },
    async captured(tabId) {
      const cap = captures.get(tabId);
      if (!cap) return { capturing: false, console: [], network: [], dropped: 0 };
      return { capturing: true, console: cap.console, network: [...cap.network.values()], dropped: cap.dropped };
    },
  };

  // Dev mode's inject_css (Chrome): the exact text goes in and comes out.
  const css = api.scripting && {
    insert: (tabId, text) =>
      tabCall(() => api.scripting.insertCSS({ target: { tabId, frameIds: [0] }, css: text, origin: "AUTHOR" })),
    remove: (tabId, text) =>
      tabCall(() => api.scripting.removeCSS({ target: { tabId, frameIds: [0] }, css: text, origin: "AUTHOR" })),
  };

  // Firefox only (the "dns" permission): the addresses a name resolves
  // to, so Go can refuse a public-looking name that leads to a private
  // address before anything is sent. Chrome has no DNS API for extensions.
  const dns = api.dns && {
    resolve: async (host) => (await api.dns.resolve(host)).addresses ?? [],
  };

  // chrome.downloads / browser.downloads ("downloads" permission). A
  // download is waited for until it completes or fails; one that grows past
  // maxBytes, or takes longer than downloadWaitMs, is cancelled (the
  // browser removes the partial file). Progress fires no event, so the
  // state is polled while it runs.
  const downloadWaitMs = 120000;
  const downloadPollMs = 250;

  function downloadInfo(d) {
    return {
      id: d.id,
      url: d.finalUrl || d.url || "",
      filename: d.filename ?? "",
      mime: d.mime ?? "",
      state: d.state ?? "",
      error: d.error ?? "",
      bytes: d.bytesReceived ?? 0,
      total: d.fileSize > 0 ? d.fileSize : (d.totalBytes ?? 0),
      startTime: d.startTime ?? "",
      mine: d.byExtensionId === api.runtime.id,
    };
  }

  async function downloadItem(id) {
    const [d] = await api.downloads.search({ id });
    if (!d) throw new Error(`there is no download ${id} in the browser's list`);
    return d;
  }

  async function download(url, maxBytes) {
    const id = await api.downloads.download({ url, conflictAction: "uniquify", saveAs: false });
    return finished(id, maxBytes);
  }

  // save writes base64 data as a new file. Chrome's service worker has no
  // URL.createObjectURL, so it hands over a data: URL; Firefox refuses
  // data: URLs in downloads.download, so its background page makes a blob.
  async function save(filename, mediaType, data) {
    let url = `data:${mediaType};base64,${data}`;
    let blobURL = "";
    if (typeof URL.createObjectURL === "function") {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      blobURL = url = URL.createObjectURL(new Blob([bytes], { type: mediaType }));
    }
    try {
      const id = await api.downloads.download({ url, filename, conflictAction: "uniquify", saveAs: false });
      return await finished(id, 0);
    } finally {
      if (blobURL) URL.revokeObjectURL(blobURL);
    }
  }

  // finished waits until download id completes or fails, cancelling it
  // past maxBytes (when not 0) or the wait limit.
  async function finished(id, maxBytes) {
    const started = Date.now();
    for (;;) {
      const d = await downloadItem(id);
      if (d.state !== "in_progress") return downloadInfo(d);
      const tooBig = maxBytes > 0 && (d.bytesReceived > maxBytes || d.totalBytes > maxBytes);
      if (tooBig || Date.now() - started > downloadWaitMs) {
        await api.downloads.cancel(id).catch(() => {});
        throw new Error(
          tooBig
            ? `the file is larger than ${maxBytes} bytes, so the download was cancelled`
            : `the download did not finish within ${downloadWaitMs / 1000} s and was cancelled`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, downloadPollMs));
    }
  }

  const downloads = api.downloads && {
    download,
    save,
    get: async (id) => downloadInfo(await downloadItem(id)),
    recent: async (limit) => (await api.downloads.search({ orderBy: ["-startTime"], limit })).map(downloadInfo),
  };

  // PDF text with pdf.js (pdf/pdftext.js), loaded only when a PDF is read,
  // so neither a wake nor the panel pays for it. Firefox's background page
  // is a document: it imports the module itself. Chrome's service worker
  // can neither import a module late nor give pdf.js a document, so an
  // offscreen document runs it (pdf/offscreen.html). The same document
  // plays a watch's alert tone (common/tone.js): Chrome allows one
  // offscreen document at a time, so both share it, it is opened by the
  // first use and closed once no use is left. Chrome's messages carry
  // JSON, hence base64.
  const offscreenPath = "pdf/offscreen.html";
  let offscreenReady = null; // promise of the offscreen document
  let offscreenUses = 0;

  function ensureOffscreen(reasons, justification) {
    offscreenReady ??= api.offscreen.createDocument({ url: offscreenPath, reasons, justification }).catch((err) => {
      // A worker restart forgets the promise while Chrome keeps the document.
      if (!/single offscreen document/i.test(message(err))) {
        offscreenReady = null;
        throw err;
      }
    });
    return offscreenReady;
  }

  // inOffscreen sends msg to the offscreen document, opened for reasons
  // when it is not open yet, and returns its answer.
  async function inOffscreen(reasons, justification, msg) {
    offscreenUses++;
    try {
      await ensureOffscreen(reasons, justification);
      const r = await api.runtime.sendMessage(msg);
      if (!r) throw new Error("the offscreen document did not answer");
      if (r.error) throw new Error(r.error);
      return r;
    } finally {
      await releaseOffscreen();
    }
  }

  async function releaseOffscreen() {
    if (--offscreenUses === 0) {
      offscreenReady = null;
      await api.offscreen.closeDocument().catch(() => {});
    }
  }

  function base64(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }

  async function pdfText(bytes, maxPages) {
    if (!api.offscreen) {
      const mod = await import(api.runtime.getURL("pdf/pdftext.js"));
      return mod.pdfText(bytes, maxPages);
    }
    return inOffscreen(["WORKERS"], "Extract the text of a PDF with pdf.js, which parses in a worker.", {
      wbPdf: { data: base64(bytes), maxPages },
    });
  }

  // A watch's alert tone; resolves once it has played.
  async function playTone(tone) {
    if (!api.offscreen) {
      const mod = await import(api.runtime.getURL("common/tone.js"));
      return mod.playTone(tone);
    }
    return inOffscreen(["AUDIO_PLAYBACK"], "Play the alert tone of a watch the user started with /beep.", {
      wbTone: { tone },
    });
  }

  // A video of a run (/record, Chrome): DevTools' screencast sends the
  // tab's frames as JPEGs while the page changes; the offscreen document
  // draws them on a canvas that a MediaRecorder films as WebM, and hands
  // back a blob URL the downloads save. The frames pass through here
  // because only the worker has chrome.debugger. A recording keeps the
  // offscreen document open until it stops.
  const recordings = new Set(); // tab ids whose frames go to the offscreen document
  const recordFor = "Film the tab during a run the user asked to record with /record.";

  function onScreencastFrame(tabId, params) {
    api.debugger.sendCommand({ tabId }, "Page.screencastFrameAck", { sessionId: params.sessionId }).catch(() => {});
    if (!recordings.has(tabId)) return;
    api.runtime.sendMessage({ wbRecord: { op: "frame", tabId, data: params.data } }).catch(() => {});
  }

  async function toRecorder(msg) {
    const r = await api.runtime.sendMessage({ wbRecord: msg });
    if (!r || r.error) throw new Error(r?.error ?? "the offscreen document did not answer");
    return r;
  }

  const recorder = api.debugger &&
    api.offscreen && {
      // start begins filming tabId, or goes on with the film the offscreen
      // document still holds for it (a worker restarted mid-run).
      async start(tabId) {
        if (recordings.has(tabId)) return;
        offscreenUses++;
        try {
          await ensureOffscreen(["BLOBS"], recordFor);
          await toRecorder({ op: "start", tabId });
          await attach(tabId);
          recordings.add(tabId);
          await api.debugger.sendCommand({ tabId }, "Page.startScreencast", {
            format: "jpeg",
            quality: 70,
            maxWidth: 1280,
            maxHeight: 800,
          });
        } catch (err) {
          recordings.delete(tabId);
          await releaseOffscreen();
          throw err;
        }
      },
      // stop ends the film of tabId and saves it as filename.
      async stop(tabId, filename) {
        if (!recordings.delete(tabId)) offscreenUses++; // a film begun before a worker restart
        await api.debugger.sendCommand({ tabId }, "Page.stopScreencast", {}).catch(() => {});
        try {
          await ensureOffscreen(["BLOBS"], recordFor);
          const { url } = await toRecorder({ op: "stop", tabId });
          try {
            const id = await api.downloads.download({ url, filename, conflictAction: "uniquify", saveAs: false });
            return await finished(id, 0);
          } finally {
            await toRecorder({ op: "release", tabId }).catch(() => {});
          }
        } finally {
          await releaseOffscreen();
        }
      },
    };

  const alarms = {
    create: (name, periodInMinutes) => api.alarms.create(name, { periodInMinutes }),
    at: (name, when) => api.alarms.create(name, { when }),
    clear: (name) => api.alarms.clear(name),
  };

  // System notifications, for scheduled jobs that end or wait on the user
  // while no one watches the panel. Title and text come in English with
  // their catalog keys (JSON, "" for none) and are shown in the interface
  // language, as the panel's tmsg does (docs/decisions/background-texts.md).
  const notify = api.notifications && {
    create: async (id, title, text, titleMsg, textMsg) => {
      const catalogs = await notifyCatalogs();
      return api.notifications.create(id, {
        type: "basic",
        iconUrl: api.runtime.getURL("icons/icon-128.png"),
        title: drawMsg(titleMsg, title, catalogs),
        message: drawMsg(textMsg, text, catalogs),
      });
    },
  };

  // The interface languages (extension/common/i18n.js LANGUAGES): code →
  // _locales folder; test/i18n checks that both list the same.
  const UI_FOLDERS = {
    en: "en",
    es: "es",
    fr: "fr",
    tr: "tr",
    zh: "zh_CN",
    ru: "ru",
    uk: "uk",
    ar: "ar",
    ja: "ja",
    ko: "ko",
    id: "id",
    th: "th",
    ms: "ms",
    tl: "fil",
    pl: "pl",
    he: "he",
  };
  const UI_ALIASES = { fil: "tl", iw: "he", in: "id", zsm: "ms" };
  const RTL_LANGUAGES = new Set(["ar", "he"]);

  // notifyLanguage is the language the user picked in the panel
  // (wb_ui_language in storage.local), else the browser's.
  async function notifyLanguage() {
    try {
      const got = await api.storage.local.get("wb_ui_language");
      const code = got?.wb_ui_language;
      if (Object.hasOwn(UI_FOLDERS, code)) return code;
    } catch {
      // the browser's language, then
    }
    const primary = String(api.i18n?.getUILanguage?.() || globalThis.navigator?.language || "")
      .toLowerCase()
      .split(/[-_]/)[0];
    const code = UI_ALIASES[primary] ?? primary;
    return Object.hasOwn(UI_FOLDERS, code) ? code : "en";
  }

  const catalogCache = new Map();
  function loadCatalog(code) {
    if (!catalogCache.has(code)) {
      const url = api.runtime.getURL(`_locales/${UI_FOLDERS[code]}/messages.json`);
      catalogCache.set(
        code,
        fetch(url).then(
          (res) => (res.ok ? res.json() : {}),
          () => ({}),
        ),
      );
    }
    return catalogCache.get(code);
  }

  async function notifyCatalogs() {
    const code = await notifyLanguage();
    const [english, own] = await Promise.all([loadCatalog("en"), loadCatalog(code)]);
    return { english, own, rtl: RTL_LANGUAGES.has(code) };
  }

  // drawMsg is the panel's tmsg: msg (JSON) in the interface language when
  // English's catalog knows it and renders exactly text, else text as sent.
  function drawMsg(msgJSON, text, { english, own, rtl }) {
    let msg;
    try {
      msg = msgJSON ? JSON.parse(msgJSON) : null;
    } catch {
      msg = null;
    }
    return globalThis.wbDrawMsg(msg, text, english, own, rtl);
  }

  // Best effort: no extension page open is the usual case, not an error.
  function broadcast(msg) {
    return api.runtime.sendMessage(msg).then(
      () => undefined,
      (err) => {
        if (!noReceiverPattern.test(message(err))) console.warn("webbrain: broadcast:", message(err));
      },
    );
  }

  globalThis.wbHost = {
    browser: browserName,
    // The router answers only senders with this id and origin.
    self: {
      id: api.runtime.id,
      origin: new URL(api.runtime.getURL("")).origin,
      version: api.runtime.getManifest().version,
    },
    tabs,
    windows,
    content,
    frames,
    local: storageArea(api.storage.local),
    session: storageArea(api.storage.session),
    fetch: fetchBridge,
    debugger: debuggerBridge || null,
    webmcp: webmcp || null,
    devCapture: devCapture || null,
    css: css || null,
    dns: dns || null,
    downloads: downloads || null,
    pdf: { text: pdfText },
    sound: { play: playTone },
    recorder: recorder || null,
    alarms,
    notify: notify || null,
    broadcast,
    // Run traces in IndexedDB (common/traces-db.js), when that script is loaded.
    traces: globalThis.wbTraceDB ? { put: (json) => globalThis.wbTraceDB.put(JSON.parse(json)) } : null,
  };
})();
