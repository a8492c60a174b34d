// wake.js: Node runs the WebBrain module from start to its first reply,
// the way a stopped worker does on a wake: the fake extension API of the
// jsplatform tests, the real jsglue/host.js, the Go glue, then one
// settings_get from the side panel. It prints the steps' times (ms since
// the start of this script) as one JSON line and exits at the reply, so
// `valgrind --tool=callgrind` counts the instructions of exactly that.
//
//   node wake.js ROOT MODULE.wasm [WASM_EXEC.js]
//
// Environment: WAKE_ONLY_INIT=1 stops at Go ready; WAKE_STOP=compiled,
// instantiated or goMain stops earlier; WAKE_ACTION names another first
// action; WAKE_CONFIGURED=1 stores a configured user's settings first;
// GODEBUG is passed to Go (inittrace=1); WAKE_SHOW_REPLY=1 prints the reply;
// WAKE_WARM=n sends n more settings_get after it (warmMedian: ms each).

const { readFileSync } = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const t0 = performance.now();
const marks = {};
const mark = (name) => {
  marks[name] = +(performance.now() - t0).toFixed(1);
};

const [root, modulePath, wasmExec] = process.argv.slice(2);
if (!root || !modulePath) {
  console.error('usage: node wake.js ROOT MODULE.wasm [WASM_EXEC.js]');
  process.exit(2);
}
const load = (file) => vm.runInThisContext(readFileSync(file, 'utf8'), { filename: file });
load(path.join(root, 'wasm/jsplatform/testdata/fake_browser.js'));
// Node gives a chrome-extension: URL the origin "null"; an https origin
// stands in for the extension's.
globalThis.chrome.runtime.getURL = (p) => `https://fakeid.invalid/${p}`;
load(path.join(root, 'jsglue/host.js'));
load(wasmExec ?? path.join(root, 'dist/chrome/wasm_exec.js'));
// Go's main marks goMain here; WAKE_STOP=goMain ends the run there.
globalThis.wbStartup = {
  set goMain(t) {
    marks.goMainAt = t;
    if (process.env.WAKE_STOP === 'goMain') process.exit(0);
  },
  get goMain() {
    return marks.goMainAt;
  },
};
if (process.env.WAKE_CONFIGURED === '1') {
  // A configured user: a second provider with a key, active, and the
  // panel header that matches it.
  const openai = {
    id: 'openai',
    name: 'OpenAI',
    kind: 'openai-chat',
    baseUrl: 'https://api.openai.com/v1',
    apiKey: 'sk-test',
    model: 'gpt-4o-mini',
    tier: 'mid',
    contextWindow: 128000,
  };
  const ollama = { id: 'ollama', name: 'Ollama (local)', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1' };
  Object.assign(globalThis.chrome.storage.local.data, {
    settings: {
      providers: [{ ...ollama, apiKey: '', model: '', tier: 'mid', contextWindow: 0 }, openai],
      activeProvider: 'openai',
      maxSteps: 60,
      theme: 'dark',
    },
    wb_panel_header_v1: {
      theme: 'dark',
      activeProvider: 'openai',
      providers: [{ id: 'openai', name: 'OpenAI', model: 'gpt-4o-mini' }],
    },
  });
}
mark('glue');

const go = new globalThis.Go();
// GODEBUG=inittrace=1 prints each package's init (the browser passes no environment).
if (process.env.GODEBUG) go.env = { GODEBUG: process.env.GODEBUG };
const ready = new Promise((resolve) => {
  globalThis.wbGoReady = resolve;
});
// warm sends n more settings_get and records the median of the last half
// (ms per message) as warmMedian.
async function warm(n) {
  if (!n) return;
  const sender = JSON.stringify({ id: 'fakeid', url: 'https://fakeid.invalid/sidepanel/sidepanel.html', tabId: -1, frameId: -1 });
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await globalThis.wbGo.handle(JSON.stringify({ action: 'settings_get' }), sender);
    times.push(performance.now() - t);
  }
  const last = times.slice(n / 2).sort((a, b) => a - b);
  marks.warmMedian = +last[Math.floor(last.length / 2)].toFixed(3);
}
const onlyMain = process.env.WAKE_ONLY_INIT === '1';
WebAssembly.compile(readFileSync(modulePath))
  .then((m) => {
    mark('compiled');
    if (process.env.WAKE_STOP === 'compiled') process.exit(0);
    return WebAssembly.instantiate(m, go.importObject);
  })
  .then((instance) => {
    mark('instantiated');
    if (process.env.WAKE_STOP === 'instantiated') process.exit(0);
    go.run(instance).then(() => {
      console.error('the Go program exited');
      process.exit(1);
    });
    return ready;
  })
  .then(() => {
    mark('goReady');
    if (onlyMain) process.exit(0);
    const sender = { id: 'fakeid', url: 'https://fakeid.invalid/sidepanel/sidepanel.html', tabId: -1, frameId: -1 };
    return globalThis.wbGo.handle(JSON.stringify({ action: process.env.WAKE_ACTION || 'settings_get' }), JSON.stringify(sender));
  })
  .then((reply) => {
    mark('firstReply');
    if (marks.goMainAt) marks.goMain = +(marks.goMainAt - t0).toFixed(1);
    delete marks.goMainAt;
    const r = JSON.parse(reply);
    if (!r.ok || (!process.env.WAKE_ACTION && !r.settings)) {
      console.error('unexpected reply:', reply);
      process.exit(1);
    }
    if (process.env.WAKE_SHOW_REPLY === '1') console.log(reply);
    return warm(Number(process.env.WAKE_WARM || 0));
  })
  .then(() => {
    console.log(JSON.stringify(marks));
    process.exit(0);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
