// Markdown rendering for model output (docs/decisions/markdown-rendering.md).
// markdown-it runs with html: false, so raw HTML in the text is escaped;
// DOMPurify then cleans the produced HTML as a second layer. Both come from
// /vendor/ as classic scripts that define globalThis.markdownit and
// globalThis.DOMPurify.

const SAFE_HREF = /^(?:https?:|mailto:)/i;
let renderer = null;

function setup() {
  const md = globalThis.markdownit({ html: false, linkify: true, breaks: false });
  // Images would load remote URLs chosen by the model (or by a page that
  // injected text into its answer) without a click: render them as links.
  md.disable("image");
  md.validateLink = (url) => SAFE_HREF.test(url.trim());

  const purify = globalThis.DOMPurify(window);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    if (!SAFE_HREF.test(href)) {
      node.removeAttribute("href");
      return;
    }
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  });
  const config = {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["img", "style", "form", "input", "button", "iframe", "svg", "math"],
    ALLOWED_URI_REGEXP: SAFE_HREF,
  };
  return (text) => purify.sanitize(md.render(text), config);
}

// renderMarkdown turns Markdown text into a sanitized DocumentFragment.
export function renderMarkdown(text) {
  renderer ??= setup();
  return renderer(String(text ?? ""));
}
