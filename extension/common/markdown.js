// Markdown rendering for model output (docs/decisions/markdown-rendering.md).
// markdown-it runs with html: false, so raw HTML in the text is escaped;
// DOMPurify then cleans the produced HTML as a second layer. Nothing it
// renders loads anything: images become text, links need a click. Both come from
// /vendor/ as classic scripts that define globalThis.markdownit and
// globalThis.DOMPurify.

const SAFE_HREF = /^(?:https?:|mailto:)/i;
let renderer = null;

function setup() {
  const md = globalThis.markdownit({ html: false, linkify: true, breaks: false });
  // An image would load a URL chosen by the model (or by a page that talked
  // it into writing one, with page data in the query) the moment it renders.
  // It shows as inert text instead: its alt text and its URL, not a link.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const alt = self.renderInlineAsText(tokens[idx].children ?? [], options, env);
    const src = tokens[idx].attrGet("src") ?? "";
    return `<span class="md-image">${md.utils.escapeHtml(`[image: ${alt || "no description"}] ${src}`)}</span>`;
  };
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
