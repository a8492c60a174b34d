// Benchmark of what the page-world click-listeners script
// (extension/content/click-listeners.mjs as the build bundles it) costs a
// page: the page's own addEventListener and removeEventListener calls with
// and without it, and the answer to the tree's query. Rounds alternate
// between a tab with the script and one without, in one headless Chromium;
// each round is a fresh document.
// Run: npm ci --prefix test/bench/axtree && node test/bench/axtree/listeners.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROUNDS = 5;
const ELEMENTS = 20000; // each gets a click and a scroll handler: 40,000 calls
const here = dirname(fileURLToPath(import.meta.url));

function repoRoot() {
  for (let d = here; d !== dirname(d); d = dirname(d)) if (existsSync(join(d, 'go.mod'))) return d;
  throw new Error('go.mod not found above ' + here);
}

// bundled is content/click-listeners.js as ./build.sh content makes it.
function bundled() {
  const dir = mkdtempSync(join(tmpdir(), 'webbrain-listeners-'));
  try {
    execFileSync('bash', [join(repoRoot(), 'build.sh'), 'content', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    return readFileSync(join(dir, 'click-listeners.js'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// round runs in the page: the page's calls, then the tree's query (the
// answers counted as the tree's askListeners counts them).
function round(n) {
  const host = document.getElementById('host');
  host.textContent = '';
  const els = [];
  for (let i = 0; i < n; i++) els.push(document.createElement('div'));
  host.append(...els);
  const f = () => {};
  let t = performance.now();
  for (const e of els) {
    e.addEventListener('click', f);
    e.addEventListener('scroll', f);
  }
  const add = performance.now() - t;
  t = performance.now();
  let answered = 0;
  const take = () => answered++;
  window.addEventListener('webbrain:click-listener', take, true);
  document.dispatchEvent(new CustomEvent('webbrain:click-listeners'));
  window.removeEventListener('webbrain:click-listener', take, true);
  const query = performance.now() - t;
  t = performance.now();
  for (const e of els) {
    e.removeEventListener('click', f);
    e.removeEventListener('scroll', f);
  }
  const remove = performance.now() - t;
  return { add, remove, query, answered };
}

const script = bundled();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const tabs = {};
for (const withScript of [false, true]) {
  const context = await browser.newContext();
  if (withScript) await context.addInitScript(script);
  const page = await context.newPage();
  // A navigated document: the script runs before the page's own, as the
  // manifests have it.
  await page.route('http://bench.test/', (r) => r.fulfill({ contentType: 'text/html', body: '<div id="host"></div>' }));
  await page.goto('http://bench.test/');
  tabs[withScript ? 'with' : 'without'] = { page, add: [], remove: [], query: [], answered: 0 };
}
for (let i = 0; i < ROUNDS; i++) {
  for (const tab of Object.values(tabs)) {
    // A fresh document each round, as a page load is.
    await tab.page.reload();
    const r = await tab.page.evaluate(round, ELEMENTS);
    tab.add.push(r.add);
    tab.remove.push(r.remove);
    tab.query.push(r.query);
    tab.answered = r.answered;
  }
}
await browser.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `click-listeners: ${ELEMENTS * 2} addEventListener calls (${ELEMENTS} of them click handlers, each on its own element), median of ${ROUNDS} rounds`,
);
for (const [name, tab] of Object.entries(tabs)) {
  console.log(
    `  ${name.padEnd(8)} add ${median(tab.add).toFixed(1)} ms, remove ${median(tab.remove).toFixed(1)} ms, tree's query ${median(tab.query).toFixed(1)} ms (${tab.answered} answered)`,
  );
}
const extra = median(tabs.with.add) - median(tabs.without.add);
console.log(`  cost per noted element: ${((extra * 1000) / ELEMENTS).toFixed(2)} µs`);
