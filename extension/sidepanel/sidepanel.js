// Side panel entry: binds the panel to a tab, wires the composer and routes
// agent_update broadcasts to the tab's session.
import { api, send } from "../common/api.js";
import { ACTION, MESSAGE, MODE, STATUS, STORAGE } from "../common/protocol.js";
import { TabSession } from "./session.js";
import { QueueView } from "./queue.js";
import { modeCommand, runCommand } from "./commands.js";
import { activeProvider, describeError, providerLabel } from "./hints.js";
import { HistoryView } from "./history.js";
import { PatchControl } from "./patches.js";
import { TeachBanner } from "./teach.js";
import { Welcome } from "./welcome.js";
import { Progress } from "./progress.js";
import { applyTheme } from "../common/theme.js";
import { keepWarm } from "./warm.js";
import { ReadingScroll } from "./reading.js";
import { SlashMenu } from "./complete.js";
import { SelectionQuote } from "./selection.js";
import { LANGUAGES, chosenLanguage, initI18n, onLanguageChange, setChosenLanguage, t } from "../common/i18n.js";
import { early } from "./early.js";

// Startup marks, read by the startup bench (test/bench/startup -panel).
performance.mark("wb:modules");
// The interface language first: everything below draws translated text.
await initI18n();
performance.mark("wb:i18n");

const $ = (id) => document.getElementById(id);
const els = {
  transcript: $("transcript"),
  prompt: $("prompt"),
  send: $("send"),
  stop: $("stop"),
  mode: $("mode"),
  provider: $("provider"),
  settings: $("open-settings"),
  history: $("open-history"),
  file: $("import-file"),
  composer: $("composer"),
  queue: $("queue"),
};
const patches = new PatchControl($("revert-patches"));
const teachBanner = new TeachBanner($("teach-banner"), (text, error) =>
  session?.transcript.add({ role: error ? "error" : "notice", text, ephemeral: true }),
);
const progress = new Progress($("progress"));
const reading = new ReadingScroll(els.transcript, $("jump"));
const slashMenu = new SlashMenu($("slash-menu"), els.prompt);
// A selection handed over by the page's selection toolbar or context menu.
const selectionQuote = new SelectionQuote(els.composer, els.prompt, {
  onPrompt: (text) => {
    if (session && session.status !== STATUS.RUNNING) startWithSelection(text, MODE.ASK);
    else els.prompt.value = text;
  },
});
const welcome = new Welcome($("welcome"), els.transcript, {
  onPick: (text) => {
    els.prompt.value = text;
    els.prompt.focus();
  },
});

const queueView = new QueueView(els.queue, {
  onSteer: (item) => session?.steer(item.text, item),
  onSend: (item) => session?.sendQueued(item),
  onEdit: (item) => {
    session?.remove(item);
    els.prompt.value = item.text;
    els.prompt.focus();
  },
  onDelete: (item) => session?.remove(item),
});

let session = null;
let settings = null;

// Registered at once so no broadcast is missed while the panel starts.
api.runtime.onMessage.addListener((msg) => {
  if (msg?.type === MESSAGE.AGENT_UPDATE && session && msg.tabId === session.tabId) session.receive(msg);
});

function setStatus(status) {
  els.transcript.dataset.runStatus = status;
  reading.refresh();
  progress.status(status);
  els.transcript.setAttribute("aria-busy", String(status === STATUS.RUNNING));
  els.stop.disabled = status !== STATUS.RUNNING;
  // A finished run may have left (or undone) Dev changes on the page.
  if (status !== STATUS.RUNNING && session) patches.show(session.tabId);
}

// The first bind happens after an async tab query (sidebar): a message sent
// before it waits for it instead of being dropped.
let firstBound;
const bound = new Promise((resolve) => {
  firstBound = resolve;
});

function bind(tabId) {
  if (tabId == null || session?.tabId === tabId) return;
  session?.close();
  session = new TabSession(tabId, els.transcript, {
    onStatus: setStatus,
    onQueue: (items, running) => queueView.render(items, running),
    onProgress: (event) => progress.event(event),
    // A keyboard user goes on typing where they write: the composer.
    onAnswered: () => els.prompt.focus({ preventScroll: true }),
    describeError: (text) => describeError(text, activeProvider(settings)),
    reader: reading,
  });
  const current = session;
  patches.show(tabId);
  teachBanner.show(tabId);
  showTab(tabId);
  firstBound();
  current.open().then(() => {
    if (current === session && current.mode) els.mode.value = current.mode;
    // After the transcript is back, so a continuation it sends is not drawn over.
    if (current === session) selectionQuote.show(tabId);
  });
}

// showTab names the tab the panel works on: its title and site.
async function showTab(tabId) {
  const el = $("bound-tab");
  try {
    const tab = await api.tabs.get(tabId);
    if (session?.tabId !== tabId) return;
    let host = "";
    try {
      host = new URL(tab.url ?? "").hostname;
    } catch {
      // a tab without a web address (a new tab page)
    }
    el.textContent = tab.title || host || t("panel_this_tab");
    el.title = host ? t("panel_works_on_host", { host }) : t("panel_works_on_tab");
  } catch {
    el.textContent = "";
  }
}

api.tabs.onUpdated?.addListener((tabId, change) => {
  if (session?.tabId === tabId && (change.title || change.url)) showTab(tabId);
  if (session?.tabId === tabId && change.status === "complete") teachBanner.show(tabId);
});

// showHeader labels the header from settings or from the header record,
// which has the same shape for what it holds (theme, the active provider).
function showHeader(from) {
  applyTheme(from?.theme);
  const label = providerLabel(from);
  els.provider.textContent = label.text;
  els.provider.classList.toggle("missing", label.missing);
  if (!performance.getEntriesByName("wb:provider").length) performance.mark("wb:provider");
}

function showProvider(next) {
  settings = next;
  if (!$("welcome").hidden) welcome.check(settings);
  showHeader(settings);
}

// The first settings_get left in early.js, before the other modules
// loaded; later ones (a change of the settings) are sent here.
let firstSettings = early.settings;
async function loadProvider() {
  const pending = firstSettings ?? send({ action: ACTION.SETTINGS_GET });
  firstSettings = null;
  const reply = await pending;
  if (reply.ok) showProvider(reply.settings);
  else els.provider.textContent = reply.error;
}

// The header record (no keys, written by the background with the
// settings) names the provider while a stopped background starts; the
// settings replace it when they come.
early.header.then((header) => {
  if (header && !settings) showHeader(header);
});

// submit sends the draft, queues it while a run is active, or with steer
// (Alt+Enter) sends it to the running request as a correction.
async function submit({ steer = false } = {}) {
  const text = els.prompt.value.trim();
  if (!text) return;
  if (!session) {
    els.prompt.value = ""; // taken: a second Enter must not send it twice
    await bound;
  }
  // /ask, /act, /dev and /auto choose the mode of this one message.
  const chosen = modeCommand(text);
  if (text.startsWith("/") && !chosen) {
    els.prompt.value = "";
    slashMenu.close();
    runCommand(text, { session, pickFile, onImported: loadProvider, onCleared: () => (els.mode.value = MODE.AUTO) });
    return;
  }
  const message = chosen?.text ?? text;
  const mode = chosen?.mode ?? els.mode.value;
  if (!message) return;
  els.prompt.value = "";
  if (session.status !== STATUS.RUNNING) {
    startWithSelection(message, mode);
  } else if (!steer) {
    session.enqueue(message, mode);
  } else if (!(await session.steer(message)) && !els.prompt.value) {
    els.prompt.value = text; // not delivered: keep the draft, never resend by itself
  }
}

// startWithSelection starts a run that quotes the waiting selection, if any.
function startWithSelection(message, mode) {
  const selection = selectionQuote.take();
  if (selection) session.transcript.add({ role: "notice", text: selection.notice });
  session.start(message, mode, selection?.id);
}

// Ctrl+Shift+A / X / D / U put /ask, /act, /dev or /auto in front of the
// draft: the mode of the next message only.
const SHORTCUTS = { a: "/ask ", x: "/act ", d: "/dev ", u: "/auto " };
function modeShortcut(e) {
  const prefix = e.ctrlKey && e.shiftKey && !e.altKey && SHORTCUTS[e.key.toLowerCase()];
  if (!prefix) return false;
  e.preventDefault();
  const draft = els.prompt.value.replace(/^\/(ask|act|dev|auto)\b\s*/, "");
  els.prompt.value = prefix + draft;
  els.prompt.focus();
  return true;
}

let onFilePicked = null;
function pickFile(callback) {
  onFilePicked = callback;
  els.file.value = "";
  els.file.click();
}
els.file.addEventListener("change", async () => {
  const file = els.file.files?.[0];
  if (file && onFilePicked) onFilePicked(await file.text());
});

els.composer.addEventListener("submit", (e) => {
  e.preventDefault();
  submit();
});
els.prompt.addEventListener("keydown", (e) => {
  if (slashMenu.keydown(e) || modeShortcut(e)) return;
  // Escape while a run is active is the Stop button.
  if (e.key === "Escape" && !e.isComposing && session?.status === STATUS.RUNNING) {
    e.preventDefault();
    session.abort();
    return;
  }
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit({ steer: e.altKey });
  }
});
els.stop.addEventListener("click", () => session?.abort());
els.mode.addEventListener("change", () => session?.setMode(els.mode.value));
els.settings.addEventListener("click", () => api.runtime.openOptionsPage());

// The History view takes the place of the chat while it is open.
const historyView = new HistoryView(
  {
    root: $("history"),
    list: $("history-list"),
    status: $("history-status"),
    deleteAll: $("history-delete-all"),
    close: $("history-close"),
    view: $("history-view"),
    viewTitle: $("history-view-title"),
    viewMeta: $("history-view-meta"),
    viewTranscript: $("history-transcript"),
    back: $("history-back"),
    restore: $("history-continue"),
    exportOne: $("history-export"),
  },
  {
    tabId: () => session?.tabId,
    onShow: (shown) => {
      for (const node of [els.transcript, els.composer]) node.hidden = shown;
      welcome.cover(shown);
      els.queue.hidden = shown || els.queue.childElementCount === 0;
      els.history.setAttribute("aria-expanded", String(shown));
      if (!shown) els.prompt.focus();
    },
    // The panel must not write its transcript over the restored one.
    beforeRestore: () => {
      if (!session) return;
      session.loaded = false;
      clearTimeout(session.saveTimer);
    },
    afterRestore: (ok) => {
      if (!session) return;
      if (!ok) {
        session.loaded = true;
        return;
      }
      const tabId = session.tabId;
      session.close();
      session = null;
      bind(tabId);
    },
  },
);
els.history.addEventListener("click", () => (historyView.shown ? historyView.hide() : historyView.show()));
addEventListener("pagehide", () => session?.saveNow());
// The stored object holds API keys: ask the background, which sends none.
api.storage.onChanged?.addListener((changes, area) => {
  if (area === "local" && changes[STORAGE.SETTINGS]) loadProvider();
});

async function start() {
  loadProvider();
  const fixed = new URLSearchParams(location.search).get("tabId");
  if (fixed !== null) {
    bind(Number(fixed));
    return;
  }
  const [win, [tab]] = await Promise.all([api.windows.getCurrent(), api.tabs.query({ active: true, currentWindow: true })]);
  bind(tab?.id);
  api.tabs.onActivated.addListener(({ tabId, windowId }) => {
    if (windowId === win.id) bind(tabId);
  });
}

// The language picker: the browser's language, or one of LANGUAGES. A
// change reloads the open pages (the draft is kept), no reinstall needed.
async function languagePicker() {
  const select = $("ui-language");
  select.replaceChildren(
    new Option(t("panel_language_browser"), ""),
    ...LANGUAGES.map((l) => {
      const option = new Option(l.name, l.code);
      option.lang = l.code;
      return option;
    }),
  );
  select.value = await chosenLanguage();
  select.addEventListener("change", () => setChosenLanguage(select.value));
  onLanguageChange(() => {
    sessionStorage.setItem("wb_draft", els.prompt.value);
    session?.saveNow();
    location.reload();
  });
  const draft = sessionStorage.getItem("wb_draft");
  if (draft) els.prompt.value = draft;
  sessionStorage.removeItem("wb_draft");
}

languagePicker();
setStatus("idle");
start();
keepWarm();
// Every listener is attached: what a test (or a person) does from now on
// reaches the panel's code, not the bare HTML.
document.body.dataset.ready = "true";
performance.mark("wb:ready");
