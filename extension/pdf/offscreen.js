// offscreen.js: Chrome's offscreen document for PDF text. The service
// worker (jsglue/host.js) opens it to read a PDF and closes it after; it
// answers only {wbPdf: {data, maxPages}}, data in base64.
import { pdfText } from "./pdftext.js";

const api = globalThis.chrome;

function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

api.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (!msg || !msg.wbPdf) return false;
  pdfText(bytesOf(msg.wbPdf.data), msg.wbPdf.maxPages).then(sendResponse, (err) =>
    sendResponse({ error: err && err.message ? err.message : String(err) }),
  );
  return true; // the reply is sent asynchronously
});
