// Content script part (content.parts), the last: the tool table,
// window.__wbRunTool and the runtime.onMessage listener. It closes the
// function core.js opens.

  const TOOLS = {
    get_accessibility_tree: getTree,
    click_ax: clickAx,
    type_ax: typeAx,
    set_field: setField,
    click,
    type_text: typeText,
    press_keys: pressKeys,
    scroll,
    read_page: readPage,
    get_selection: getSelectionTool,
    get_window_info: getWindowInfo,
    extract_data: extractData,
    wait_for_element: waitForElement,
    wait_for_stable: waitForStable,
  };

  // runTool answers one message. With a receipt ({id, doc}) the action is
  // carried out at most once (receipts.js); without, as it comes.
  async function runTool(name, args, receipt) {
    const lookup = (o) => (Object.prototype.hasOwnProperty.call(o, name) ? o[name] : null);
    const fn = lookup(TOOLS) || lookup(INTERNAL);
    if (!fn) return { ok: false, error: `Unknown page tool ${JSON.stringify(name)}. Page tools: ${Object.keys(TOOLS).join(', ')}.` };
    let a = args;
    if (typeof a === 'string') {
      try { a = a.trim() ? JSON.parse(a) : {}; } catch { return { ok: false, error: `The arguments of ${name} are not valid JSON.` }; }
    }
    if (!a || typeof a !== 'object') a = {};
    const internal = !!lookup(INTERNAL); // objects for the background
    const rc = receiptOf(receipt);
    if (rc) return withReceipt(name, a, rc, () => fn(a), internal);
    // A fallback or a new action ends a waiting trusted input; the gate's
    // read-only probes do not.
    if (!READ_ONLY_INTERNAL.has(name)) dropPending();
    return replyOf(name, () => fn(a), internal);
  }

  // replyOf runs act and answers {ok: true, result} or {ok: false, error}.
  async function replyOf(name, act, internal) {
    try {
      if (internal) return { ok: true, result: await act() };
      const text = String(await act());
      return { ok: true, result: name === 'get_accessibility_tree' ? text : clip(text, RESULT_CAP) };
    } catch (e) {
      if (e instanceof ToolError) return { ok: false, error: e.message };
      return { ok: false, error: `${name} failed on this page: ${e && e.message ? e.message : String(e)}` };
    }
  }

  Object.defineProperty(win, '__wbRunTool', { value: runTool, writable: false, enumerable: false, configurable: true });

  const ext = (typeof browser !== 'undefined' && browser && browser.runtime && browser.runtime.onMessage) ? browser
    : (typeof chrome !== 'undefined' && chrome && chrome.runtime && chrome.runtime.onMessage) ? chrome : null;
  if (ext) {
    ext.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
      if (!msg || msg.wb !== 'tool') return false;
      runTool(msg.name, msg.args, msg.receipt).then(sendResponse);
      return true; // the reply is sent asynchronously
    });
  }
})();
