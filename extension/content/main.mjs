// The content script's entry (the build bundles it with what it imports
// into content/content.js; core.mjs says how the parts fit): the tool
// table, window.__wbRunTool and the runtime.onMessage listener.
import { ownFunction, defineExport } from './dom.mjs';
import { replyOf } from './core.mjs';
import { click, clickAx } from './pointer.mjs';
import { typeAx, typeText } from './typing.mjs';
import { pressKeys } from './keys.mjs';
import { setField } from './fields.mjs';
import { scroll } from './scroll.mjs';
import { getSelectionTool, getTree, getWindowInfo, pageTextInfo, readPage, readWithWalls } from './read.mjs';
import { extractData } from './extract.mjs';
import { waitForElement, waitForStable } from './wait.mjs';
import { docInfo, receiptOf, withReceipt } from './receipts.mjs';
import { READ_ONLY_INTERNAL, dropPending, finishTrusted, prepareTrusted } from './trusted.mjs';
import { fieldNow, probe, visibleLinks } from './probe.mjs';
import { status } from './status.mjs';
import { putFile, resource } from './files.mjs';
import { childFrames, frameBox } from './frames.mjs';
import { getShadowDom, interactiveElements, shadowDomQuery } from './shadow.mjs';
import { hover } from './hover.mjs';
import { dragDrop } from './drag.mjs';
import { verifyForm } from './verify.mjs';
import { applyCaptcha, findCaptcha } from './captcha.mjs';
import { research } from './research.mjs';
import { DEV } from './dev.mjs';
import { teach } from './teach.mjs';

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
  get_interactive_elements: interactiveElements,
  get_shadow_dom: getShadowDom,
  shadow_dom_query: shadowDomQuery,
  hover,
  drag_drop: dragDrop,
  verify_form: verifyForm,
};

// INTERNAL entries are the background's, not the model's: they answer
// objects, not text.
const INTERNAL = {
  trusted_prepare: prepareTrusted,
  trusted_finish: finishTrusted,
  wb_doc: docInfo,
  wb_probe: probe,
  wb_links: visibleLinks,
  wb_status: status,
  wb_resource: resource,
  wb_put_file: putFile,
  wb_frames: childFrames,
  wb_frame_box: frameBox,
  wb_viewport: () => ({ width: window.innerWidth, height: window.innerHeight }),
  wb_captcha: findCaptcha,
  wb_captcha_apply: applyCaptcha,
  wb_research: research,
  wb_text: pageTextInfo,
  wb_read: readWithWalls,
  wb_field: fieldNow,
  wb_teach: teach,
  ...DEV,
};

// runTool answers one message. With a receipt ({id, doc}) the action is
// carried out at most once (receipts.mjs); without, as it comes.
async function runTool(name, args, receipt) {
  const lookup = (o) => (Object.hasOwn(o, name) ? o[name] : null);
  const fn = lookup(TOOLS) || lookup(INTERNAL);
  if (!fn)
    return { ok: false, error: `Unknown page tool ${JSON.stringify(name)}. Page tools: ${Object.keys(TOOLS).join(', ')}.` };
  let a = args;
  if (typeof a === 'string') {
    try {
      a = a.trim() ? JSON.parse(a) : {};
    } catch {
      return { ok: false, error: `The arguments of ${name} are not valid JSON.` };
    }
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

// Injected twice into the same world (the background cannot tell whether
// an earlier injection is alive): the first one answers.
if (!ownFunction('__wbRunTool')) {
  defineExport('__wbRunTool', runTool);
  const ext =
    typeof browser !== 'undefined' && browser && browser.runtime && browser.runtime.onMessage
      ? browser
      : typeof chrome !== 'undefined' && chrome && chrome.runtime && chrome.runtime.onMessage
        ? chrome
        : null;
  if (ext) {
    ext.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
      if (!msg || msg.wb !== 'tool') return false;
      runTool(msg.name, msg.args, msg.receipt).then(sendResponse);
      return true; // the reply is sent asynchronously
    });
  }
}
