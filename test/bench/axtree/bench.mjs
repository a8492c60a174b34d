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
const treeScript = bundledTree();

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

// Counts rendered interactive elements the way a sighted user finds them and
// lists those the tree gave no ref.
function missingRefs() {
  const sel =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [contenteditable=""], ' +
    '[contenteditable=true], [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], ' +
    '[role=option], [role=switch], [role=textbox], [role=combobox], [onclick], [tabindex="0"]';
  let visible = 0;
  const missing = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    if (el.closest('[aria-hidden=true], [inert], details:not([open]) > :not(summary)')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue;
    visible++;
    if (!window.__wb_ax_ref(el, false)) missing.push(el.outerHTML.slice(0, 120));
  }
  return {visible, missing};
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
      let out = null;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        out = await page.evaluate(() => {
          const t = performance.now();
          const r = window.__generateAccessibilityTree({filter: 'all', maxChars: 0});
          return {ms: performance.now() - t, chars: r.tree.length, lines: r.totalLines, refs: r.refCount};
        });
        times.push(out.ms);
        if (performance.now() - t0 > 20000) break;
      }
      const refs = await page.evaluate(missingRefs);
      const p0 = performance.now();
      const snap = await page.ariaSnapshot({mode: 'ai'});
      const pwMs = performance.now() - p0;
      rows.push({
        name,
        ms: median(times),
        chars: out.chars,
        lines: out.lines,
        refs: out.refs,
        visible: refs.visible,
        missing: refs.missing,
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

function report(rows) {
  const pad = (s, n) => String(s).padStart(n);
  console.log(
    [
      'page'.padEnd(30),
      pad('ms', 8),
      pad('chars', 8),
      pad('lines', 6),
      pad('refs', 6),
      pad('vis', 6),
      pad('miss', 5),
      pad('pw ms', 8),
      pad('pw chars', 9),
      pad('ratio', 6),
    ].join(' '),
  );
  const ok = rows.filter((r) => !r.error);
  for (const r of rows) {
    if (r.error) {
      console.log(r.name.padEnd(30), 'ERROR', r.error);
      continue;
    }
    console.log(
      [
        r.name.padEnd(30),
        pad(r.ms.toFixed(1), 8),
        pad(r.chars, 8),
        pad(r.lines, 6),
        pad(r.refs, 6),
        pad(r.visible, 6),
        pad(r.missing.length, 5),
        pad(r.pwMs.toFixed(0), 8),
        pad(r.pwChars, 9),
        pad(r.pwChars ? (r.chars / r.pwChars).toFixed(2) : '-', 6),
      ].join(' '),
    );
  }
  const ms = ok.map((r) => r.ms);
  console.log(`\npages: ${ok.length} measured, ${rows.length - ok.length} failed`);
  console.log(`time ms: median ${median(ms).toFixed(1)}, p90 ${pct(ms, 0.9).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}`);
  console.log(`playwright ai snapshot ms: median ${median(ok.map((r) => r.pwMs)).toFixed(0)}`);
  const ratios = ok.filter((r) => r.pwChars > 0).map((r) => r.chars / r.pwChars);
  console.log(`size ratio ours/playwright: median ${median(ratios).toFixed(2)} over ${ratios.length} pages with a snapshot`);
  const lacking = ok.filter((r) => r.missing.length);
  console.log(`pages where a visible interactive element lacks a ref: ${lacking.length}`);
  for (const r of lacking) console.log(`  ${r.name}: ${r.missing.length} of ${r.visible}, e.g. ${r.missing[0]}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
