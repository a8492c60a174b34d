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

// The two libraries are 130 KB of script. The side panel lists them as
// async scripts: they run as soon as they arrive, without holding up the
// panel's modules as deferred scripts did, and the panel waits for them
// (loadMarkdown) only where it draws model text
// (docs/decisions/panel-startup.md). A page that does not list them gets
// them from loadMarkdown.
const SCRIPTS = [
  ["/vendor/markdown-it.umd.min.js", "markdownit"],
  ["/vendor/purify.min.js", "DOMPurify"],
];
let loading = null;

const has = (global) => typeof globalThis[global] === "function";
const loaded = () => SCRIPTS.every(([, global]) => has(global));

// loadMarkdown resolves when renderMarkdown can render (to false if a
// script failed to load).
export function loadMarkdown() {
  if (loaded()) return Promise.resolve(true);
  loading ??= Promise.all(SCRIPTS.map(([src, global]) => script(src, global))).then(loaded, () => false);
  return loading;
}

function script(src, global) {
  if (has(global)) return Promise.resolve();
  const listed = document.querySelector(`script[src="${src}"]`);
  if (listed && document.readyState !== "complete") {
    // Still to run, or run and failed: the window's load event waits for
    // every async script, so it settles the second case.
    return new Promise((resolve, reject) => {
      listed.addEventListener("load", resolve, { once: true });
      listed.addEventListener("error", reject, { once: true });
      addEventListener("load", () => (has(global) ? resolve() : reject(new Error(`${src} did not load`))), {
        once: true,
      });
    });
  }
  return new Promise((resolve, reject) => {
    const added = document.createElement("script");
    added.src = src;
    added.onload = resolve;
    added.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(added);
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
