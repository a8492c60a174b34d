// offscreen.js: Chrome's offscreen document, the one the extension may
// have at a time. The service worker (jsglue/host.js) opens it for a PDF's
// text, a watch's alert tone or a run's recording and closes it once none
// is in use. It answers only {wbPdf: {data, maxPages}} (data in base64),
// {wbTone: {tone}} and {wbRecord: {op, tabId, data}}. pdf.js is loaded
// only for a PDF.
import { playTone } from "../common/tone.js";
import { recording } from "./record.js";

const api = globalThis.chrome;

function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function failure(err) {
  return { error: err && err.message ? err.message : String(err) };
}

api.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg?.wbPdf) {
    import("./pdftext.js")
      .then((mod) => mod.pdfText(bytesOf(msg.wbPdf.data), msg.wbPdf.maxPages))
      .then(sendResponse, (err) => sendResponse(failure(err)));
    return true; // the reply is sent asynchronously
  }
  if (msg?.wbRecord) {
    recording(msg.wbRecord).then(sendResponse, (err) => sendResponse(failure(err)));
    return msg.wbRecord.op !== "frame"; // frames get no answer
  }
  if (msg?.wbTone) {
    playTone(msg.wbTone.tone).then(sendResponse, (err) => sendResponse(failure(err)));
    return true;
  }
  return false;
});
