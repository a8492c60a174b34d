// Content script part: the wait_for_element and
// wait_for_stable tools.
import { squash } from './text.mjs';
import { describe, doc, fail, intArg, isVisible, quote, sleep } from './core.mjs';
import { SKIP_TAGS } from './read.mjs';

// elementsWithText returns the deepest elements whose text contains the
// needle, descending only into children that contain it.
function elementsWithText(root, needle) {
  const norm = (s) => squash(s).toLowerCase();
  const found = [];
  const visit = (el) => {
    let deeper = false;
    for (const c of el.children) {
      if (SKIP_TAGS.has(c.localName) && !['button', 'select', 'textarea'].includes(c.localName)) continue;
      if (norm(c.textContent).includes(needle)) {
        deeper = true;
        visit(c);
      }
    }
    if (!deeper) found.push(el);
  };
  if (root && norm(root.textContent).includes(needle)) visit(root);
  for (const f of root ? root.querySelectorAll('[aria-label], input[type=button], input[type=submit], [placeholder]') : []) {
    const label = f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.value || '';
    if (norm(label).includes(needle)) found.push(f);
  }
  return found;
}

function candidates(selector, text) {
  const needle = squash(text).toLowerCase();
  if (selector) {
    const all = [...doc.querySelectorAll(selector)];
    return needle
      ? all.filter((e) =>
          squash(e.textContent + ' ' + (e.getAttribute('aria-label') || '') + ' ' + (e.value || ''))
            .toLowerCase()
            .includes(needle),
        )
      : all;
  }
  return elementsWithText(doc.body, needle);
}

function waitUntil(check, timeoutMs) {
  return new Promise((resolve) => {
    let queued = false;
    const run = () => {
      queued = false;
      const v = check();
      if (v) finish(v);
    };
    const mo = new MutationObserver(() => {
      if (!queued) {
        queued = true;
        setTimeout(run, 30);
      }
    });
    const poll = setInterval(run, 250); // CSS transitions change visibility without mutations
    const timer = setTimeout(() => finish(null), timeoutMs);
    function finish(v) {
      clearTimeout(timer);
      clearInterval(poll);
      mo.disconnect();
      resolve(v);
    }
    mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

export async function waitForElement(args) {
  const selector = args.selector ? String(args.selector) : '';
  const text = args.text ? String(args.text) : '';
  if (!selector && !squash(text)) fail('Pass "selector" (CSS) or "text" to wait for.');
  const state = String(args.state || 'visible').toLowerCase();
  if (!['visible', 'attached', 'hidden'].includes(state)) fail(`Unknown state "${args.state}"; use visible, attached or hidden.`);
  if (selector)
    try {
      doc.querySelector(selector);
    } catch {
      fail(`${JSON.stringify(selector)} is not a valid CSS selector.`);
    }
  const timeout = intArg(args.timeoutMs, 5000, 0, 20000);
  const what = [selector && `selector ${JSON.stringify(selector)}`, text && `text ${quote(text)}`].filter(Boolean).join(' with ');
  const check = () => {
    const els = candidates(selector, text);
    if (state === 'attached') return els[0] || null;
    const vis = els.find(isVisible);
    return state === 'visible' ? vis || null : vis ? null : { gone: true };
  };
  const t0 = performance.now();
  const hit = check() || (timeout > 0 ? await waitUntil(check, timeout) : null);
  const ms = Math.round(performance.now() - t0);
  if (!hit) {
    const els = candidates(selector, text);
    const seen = els.length
      ? `${els.length} matching element(s) exist, ${els.filter(isVisible).length} visible`
      : 'nothing matches';
    fail(
      `Timed out after ${timeout} ms waiting for ${what} to be ${state}: ${seen}. ` +
        'Check the page with get_accessibility_tree; the action that should make it appear may not have worked.',
    );
  }
  if (hit.gone) return `No element with ${what} is visible (after ${ms} ms).`;
  return `Found ${describe(hit)} (${isVisible(hit) ? 'visible' : 'attached, not visible'}) after ${ms} ms.`;
}

export async function waitForStable(args) {
  const timeout = intArg(args.timeoutMs, 5000, 100, 20000);
  const quiet = intArg(args.quietMs, 500, 50, 5000);
  const t0 = performance.now();
  let last = t0,
    count = 0;
  const mo = new MutationObserver((recs) => {
    count += recs.length;
    last = performance.now();
  });
  mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    for (;;) {
      const now = performance.now();
      if (now - last >= quiet && doc.readyState !== 'loading') {
        return `The page is stable: no DOM changes for ${quiet} ms (waited ${Math.round(now - t0)} ms, ${count} changes seen).`;
      }
      if (now - t0 >= timeout) {
        return (
          `The page was still changing after ${timeout} ms (${count} DOM changes, the last ${Math.round(now - last)} ms ago); ` +
          'it may have an animation or live feed. Read it now if what you need is there.'
        );
      }
      await sleep(Math.min(50, quiet / 2));
    }
  } finally {
    mo.disconnect();
  }
}
