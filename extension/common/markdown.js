// Markdown rendering for model output (docs/decisions/markdown-rendering.md).
// markdown-it runs with html: false, so raw HTML in the text is escaped;
// DOMPurify then cleans the produced HTML as a second layer. Nothing it
// renders loads anything: images become text, links need a click. Both come from
// /vendor/ as classic scripts that define globalThis.markdownit and
// globalThis.DOMPurify (loadMarkdown adds them to the page).

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

// The two libraries are 130 KB of script: the side panel loads them after
// it is usable (loadMarkdown) and waits for them only where it draws model
// text (docs/decisions/panel-startup.md). A page may also list them as
// <script> tags; then they are there from the start.
const SCRIPTS = ["/vendor/markdown-it.umd.min.js", "/vendor/purify.min.js"];
let loading = null;

const loaded = () => typeof globalThis.markdownit === "function" && typeof globalThis.DOMPurify === "function";

// loadMarkdown loads markdown-it and DOMPurify once; it resolves when
// renderMarkdown can render (and to false if a script failed to load).
export function loadMarkdown() {
  if (loaded()) return Promise.resolve(true);
  loading ??= Promise.all(SCRIPTS.map(addScript)).then(loaded, () => false);
  return loading;
}

function addScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(script);
  });
}

// renderMarkdown turns Markdown text into a sanitized DocumentFragment.
// Before the libraries are loaded it gives the text as one plain
// paragraph (never HTML); the panel awaits loadMarkdown before it draws
// a transcript, so this is only a fallback.
export function renderMarkdown(text) {
  if (!renderer && !loaded()) {
    const fragment = document.createDocumentFragment();
    const p = document.createElement("p");
    p.textContent = String(text ?? "");
    fragment.append(p);
    return fragment;
  }
  renderer ??= setup();
  return renderer(String(text ?? ""));
}
