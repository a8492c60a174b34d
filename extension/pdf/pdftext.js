// pdftext.js: the text of a PDF, page by page, with pdf.js (vendor/).
// Imported only when a PDF is read: by Firefox's background page, and by
// Chrome's offscreen document (offscreen.js).
import * as pdfjs from "../vendor/pdf.min.mjs";

pdfjs.GlobalWorkerOptions.workerSrc = new URL("../vendor/pdf.worker.min.mjs", import.meta.url).href;

// pageText joins a page's text items, with a line break where pdf.js saw
// the end of a line.
function pageText(items) {
  let out = "";
  for (const it of items) {
    if (typeof it.str !== "string") continue;
    out += it.str;
    if (it.hasEOL) out += "\n";
  }
  return out.replace(/[ \t]+\n/g, "\n").trim();
}

// pdfText resolves to {pages, total}: the text of the first maxPages pages
// and the document's page count. Nothing of the PDF runs: no scripts, no
// eval, no fonts loaded.
export async function pdfText(data, maxPages) {
  const task = pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, enableXfa: false, stopAtErrors: false });
  try {
    const doc = await task.promise;
    const n = Math.min(doc.numPages, maxPages);
    const pages = [];
    for (let i = 1; i <= n; i++) {
      const page = await doc.getPage(i);
      pages.push(pageText((await page.getTextContent()).items));
      page.cleanup();
    }
    return { pages, total: doc.numPages };
  } catch (err) {
    throw new Error(`the PDF could not be read: ${err && err.message ? err.message : err}`);
  } finally {
    await task.destroy();
  }
}
