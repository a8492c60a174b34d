// Benchmark of the accessibility tree (extension/content/accessibility-tree.mjs
// as the build bundles it) over the saved page corpus, next to Playwright's
// aria snapshot in "ai" mode. The corpus is not in the repository:
// WEBBRAIN_CORPUS names its folder (the one holding pages/<name>/source.html).
// Run: npm ci --prefix test/bench/axtree &&
// WEBBRAIN_CORPUS=/path/to/corpus node test/bench/axtree/bench.mjs [page-name ...]
//
// Pages load with JavaScript off (one corpus page hangs with it on) and every
// request outside the local server aborted. Page scripts are off, but
// DevTools evaluation still runs, so the tree script is injected with
// page.evaluate.
import {createServer} from 'node:http';
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, extname, join, normalize, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const RUNS = 5;
const here = dirname(fileURLToPath(import.meta.url));

function repoRoot() {
  for (let d = here; d !== dirname(d); d = dirname(d)) if (existsSync(join(d, 'go.mod'))) return d;
  throw new Error('go.mod not found above ' + here);
}

const root = repoRoot();
const corpus = process.env.WEBBRAIN_CORPUS ? resolve(process.env.WEBBRAIN_CORPUS) : '';
// WEBBRAIN_TREE_SCRIPT names an already bundled tree script instead (to
// measure another version of it).
const treeScript = process.env.WEBBRAIN_TREE_SCRIPT ? readFileSync(process.env.WEBBRAIN_TREE_SCRIPT, 'utf8') : bundledTree();

// bundledTree is content/accessibility-tree.js as ./build.sh content makes it.
function bundledTree() {
  const dir = mkdtempSync(join(tmpdir(), 'webbrain-tree-'));
  try {
    execFileSync('bash', [join(root, 'build.sh'), 'content', dir], {stdio: ['ignore', 'ignore', 'inherit']});
    return readFileSync(join(dir, 'accessibility-tree.js'), 'utf8');
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
};

function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!path.startsWith(dir + sep) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {'content-type': TYPES[extname(path)] || 'application/octet-stream'});
    res.end(readFileSync(path));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

// What a sighted user can operate, judged here independently of the tree's
// own code: every element a person can click or type into (links, buttons,
// fields, ARIA widgets, markup click handlers, tabindex, and pointer-cursor
// boxes where the pointer starts), aria-hidden or not, unless it is not
// rendered (checkVisibility: display, visibility, opacity, content
// visibility), inert or outside an open modal dialog, in a closed
// <details>, smaller than 2px, clipped to nothing by its ancestors' overflow
// or clip, parked off the page, or covered where it is on screen (the hit
// test at the centre of its visible part lands on another element). Each
// element falls in one or more categories; an element counts as found when
// the tree's rendered text has a line with its ref. Icon-only controls
// (links and buttons without visible text) also count as named when their
// line carries a name or a hint (or says it is the same link as the one
// before it).
function reachable() {
  const FIELDS =
    'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]):not([type=image]), ' +
    'select, textarea, [contenteditable=""], [contenteditable=true], [role=textbox], [role=combobox], [role=searchbox]';
  const BUTTONS =
    'a[href], button, summary, input[type=button], input[type=submit], input[type=reset], input[type=image], ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch]';
  const HANDLERS = '[onclick], [jsaction*=click], [ng-click], [tabindex]';
  const ANY = FIELDS + ', ' + BUTTONS + ', ' + HANDLERS;
  const tree = window.__generateAccessibilityTree({filter: 'all', maxChars: 0}).tree;
  const lines = new Map();
  for (const l of tree.split('\n')) {
    const m = /\[(ref_\d+)\]/.exec(l);
    if (m) lines.set(m[1], l.trim());
  }
  const modal = [...document.querySelectorAll('dialog[open]')].find((d) => d.matches(':modal'));
  const vw = innerWidth;
  const vh = innerHeight;

  const clippedAway = (el, r) => {
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const st = getComputedStyle(p);
      const pr = p.getBoundingClientRect();
      if (st.overflowX !== 'visible') [l, rt] = [Math.max(l, pr.left), Math.min(rt, pr.right)];
      if (st.overflowY !== 'visible') [t, b] = [Math.max(t, pr.top), Math.min(b, pr.bottom)];
      if (st.clipPath === 'inset(50%)') return true;
      const c = /^rect\(([\d.]+)px,? ([\d.]+)px,? ([\d.]+)px,? ([\d.]+)px\)$/.exec(st.clip);
      if (c && (st.position === 'absolute' || st.position === 'fixed')) {
        [t, rt, b, l] = [
          Math.max(t, pr.top + +c[1]),
          Math.min(rt, pr.left + +c[2]),
          Math.min(b, pr.top + +c[3]),
          Math.max(l, pr.left + +c[4]),
        ];
      }
      if (rt - l < 1 || b - t < 1) return true;
    }
    return false;
  };
  const coveredOnScreen = (el, r) => {
    const x0 = Math.max(r.left, 0);
    const x1 = Math.min(r.right, vw);
    const y0 = Math.max(r.top, 0);
    const y1 = Math.min(r.bottom, vh);
    if (x1 - x0 < 1 || y1 - y0 < 1) return false;
    const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
    // A label over its own control (a custom checkbox) passes clicks on.
    const label = hit && hit.closest('label');
    return !!hit && hit !== el && !el.contains(hit) && !hit.contains(el) && !(label && label.control === el);
  };
  const reach = (el) => {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true})) return false;
    if (el.closest('[inert], details:not([open]) > :not(summary)')) return false;
    if (modal && !modal.contains(el)) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
    return !clippedAway(el, r) && !coveredOnScreen(el, r);
  };
  // A box where a pointer cursor starts, holding no other control.
  const pointerTarget = (el) => {
    if (el === document.body || el === document.documentElement || el.matches('label')) return false;
    const p = el.parentElement;
    if (getComputedStyle(el).cursor !== 'pointer' || (p && getComputedStyle(p).cursor === 'pointer')) return false;
    const r = el.getBoundingClientRect();
    return r.width * r.height < vw * vh * 0.5 && !el.querySelector(ANY);
  };

  const cats = {buttons: [0, 0], fields: [0, 0], ariaHidden: [0, 0], handlers: [0, 0], iconOnly: [0, 0], iconNamed: [0, 0]};
  const missing = [];
  const seen = new Set();
  const consider = (el, handler) => {
    if (seen.has(el) || !reach(el)) return;
    seen.add(el);
    let line = lines.get(window.__wb_ax_ref(el, false));
    if (!line && handler) {
      // A pointer box that is all of its clickable ancestor is that target.
      const up = el.parentElement && el.parentElement.closest(ANY);
      const upLine = up && lines.get(window.__wb_ax_ref(up, false));
      if (upLine && up.innerText.trim() === el.innerText.trim()) line = upLine;
    }
    const found = line ? 1 : 0;
    const add = (k, ok = found) => {
      cats[k][0] += ok;
      cats[k][1]++;
    };
    if (el.matches(FIELDS)) add('fields');
    else if (el.matches(BUTTONS)) {
      add('buttons');
      if (!el.innerText.trim() && !el.matches('input')) {
        add('iconOnly');
        // href=same without a name: the link before, to the same place, has the same name.
        add('iconNamed', line && /^\S+ ("|\[.*(hint="|href=same))/.test(line) ? 1 : 0);
      }
    } else add('handlers');
    if (el.closest('[aria-hidden=true]')) add('ariaHidden');
    if (!found) missing.push(el.outerHTML.slice(0, 120));
  };
  for (const el of document.querySelectorAll(FIELDS + ', ' + BUTTONS)) consider(el, false);
  for (const el of document.querySelectorAll(HANDLERS)) {
    if (el.matches('[tabindex]') && !(el.tabIndex >= 0 && el.getAttribute('tabindex') !== '-1')) continue;
    consider(el, false);
  }
  for (const el of document.body.querySelectorAll('*')) if (!seen.has(el) && pointerTarget(el)) consider(el, true);
  return {visible: seen.size, missing, cats};
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

async function main() {
  if (!corpus) {
    console.log(
      'axtree benchmark skipped: WEBBRAIN_CORPUS is not set (set it to the saved-page corpus folder, the one holding pages/<name>/source.html)',
    );
    return;
  }
  const only = process.argv.slice(2);
  const pagesDir = join(corpus, 'pages');
  const names = readdirSync(pagesDir)
    .filter((n) => existsSync(join(pagesDir, n, 'source.html')))
    .filter((n) => !only.length || only.includes(n))
    .sort();
  const server = await serve(corpus);
  const origin = 'http://127.0.0.1:' + server.address().port;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({javaScriptEnabled: false, viewport: {width: 1280, height: 800}});
  await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
  const rows = [];
  for (const name of names) {
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/pages/${name}/source.html`, {waitUntil: 'load', timeout: 60000});
      await page.evaluate(treeScript);
      const times = [];
      const trips = [];
      let out = null;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        out = await page.evaluate(() => {
          const t = performance.now();
          const r = window.__generateAccessibilityTree({filter: 'all', maxChars: 0});
          return {ms: performance.now() - t, chars: r.tree.length, lines: r.totalLines, refs: r.refCount};
        });
        times.push(out.ms);
        trips.push(performance.now() - t0);
        if (performance.now() - t0 > 20000) break;
      }
      const found = await page.evaluate(reachable);
      const p0 = performance.now();
      const snap = await page.ariaSnapshot({mode: 'ai'});
      const pwMs = performance.now() - p0;
      rows.push({
        name,
        ms: median(times),
        tripMs: median(trips),
        chars: out.chars,
        lines: out.lines,
        refs: out.refs,
        visible: found.visible,
        missing: found.missing,
        cats: found.cats,
        pwMs,
        pwChars: snap.length,
      });
    } catch (e) {
      rows.push({name, error: String(e.message || e).split('\n')[0]});
    } finally {
      await page.close();
    }
  }
  await browser.close();
  server.close();
  report(rows);
}

// Tokens are estimated as characters / 4, the same for both outputs, so
// the token ratio is the ratio of characters.
const tokens = (chars) => Math.ceil(chars / 4);

function report(rows) {
  const pad = (s, n) => String(s).padStart(n);
  const head = ['page'.padEnd(28), 'ms', 'trip ms', 'tokens', 'refs', 'reach', 'miss', 'pw ms', 'pw tok', 'ratio'];
  console.log(head.map((h, i) => (i ? pad(h, 8) : h)).join(' '));
  const ok = rows.filter((r) => !r.error);
  for (const r of rows) {
    if (r.error) {
      console.log(r.name.padEnd(28), 'ERROR', r.error);
      continue;
    }
    const cols = [
      r.ms.toFixed(1),
      r.tripMs.toFixed(1),
      tokens(r.chars),
      r.refs,
      r.visible,
      r.missing.length,
      r.pwMs.toFixed(0),
      tokens(r.pwChars),
      r.pwChars ? (r.chars / r.pwChars).toFixed(2) : '-',
    ];
    console.log([r.name.padEnd(28), ...cols.map((c) => pad(c, 8))].join(' '));
  }
  console.log(`\npages: ${ok.length} measured, ${rows.length - ok.length} failed`);

  console.log('\nrecall (elements a sighted user can operate that have a ref in the rendered tree):');
  const kinds = {
    buttons: 'links and buttons',
    fields: 'form fields',
    ariaHidden: 'inside aria-hidden regions',
    handlers: 'click handlers, tabindex, pointer-cursor boxes',
    iconOnly: 'icon-only links and buttons',
    iconNamed: 'icon-only ones with a name or hint',
  };
  for (const [k, label] of Object.entries(kinds)) {
    const f = ok.reduce((a, r) => a + r.cats[k][0], 0);
    const n = ok.reduce((a, r) => a + r.cats[k][1], 0);
    console.log(`  ${label.padEnd(48)} ${n ? (f / n).toFixed(3) : '-'} (${f}/${n})`);
  }
  const all = ok.reduce((a, r) => a + r.visible, 0);
  const miss = ok.reduce((a, r) => a + r.missing.length, 0);
  console.log(`  ${'pooled'.padEnd(48)} ${all ? ((all - miss) / all).toFixed(3) : '-'} (${all - miss}/${all})`);
  const worst = ok
    .filter((r) => r.visible)
    .sort((a, b) => (a.visible - a.missing.length) / a.visible - (b.visible - b.missing.length) / b.visible)[0];
  if (worst) {
    console.log(
      `  ${'worst page'.padEnd(48)} ${((worst.visible - worst.missing.length) / worst.visible).toFixed(3)} (${worst.name})`,
    );
  }
  for (const r of ok.filter((x) => x.missing.length))
    console.log(`    ${r.name}: ${r.missing.length} of ${r.visible}, e.g. ${r.missing.slice(0, 3).join(' | ')}`);

  const ratios = ok.filter((r) => r.pwChars > 0).map((r) => r.chars / r.pwChars);
  console.log(
    `\ntokens (chars/4) ours/playwright: median ${median(ratios).toFixed(3)} over ${ratios.length} pages with a snapshot`,
  );
  const ms = ok.map((r) => r.ms);
  const trip = ok.map((r) => r.tripMs);
  const pw = ok.map((r) => r.pwMs);
  console.log(
    `time ms in the page: median ${median(ms).toFixed(1)}, p90 ${pct(ms, 0.9).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}`,
  );
  console.log(`time ms with the round trip: median ${median(trip).toFixed(1)}, max ${Math.max(...trip).toFixed(1)}`);
  console.log(`playwright ai snapshot ms (round trip): median ${median(pw).toFixed(0)}`);
  console.log(
    `time ratio ours/playwright (round trips, median over pages): ${median(ok.map((r) => r.tripMs / r.pwMs)).toFixed(3)}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
