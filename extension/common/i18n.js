// The interface language of WebBrain's pages (docs/decisions/localisation.md).
//
// Strings live in _locales/<folder>/messages.json, the browsers' own format,
// so the manifests' __MSG_name__ and chrome.i18n read the same files. The
// pages load the messages themselves (initI18n) because chrome.i18n only
// follows the browser's language and the user may pick another one here.
//
//   t("history_title")                        a message
//   t("welcome_checking", { name: "Ollama" })  with a named placeholder ($name$)
//   tp("history_count", 3)                    plural: history_count__one, __other, … ($count$)
//   N_("tool_doing_read")                     marks a key kept in a table, translated later with t()
//   <button data-i18n="history_title">        localizePage(): textContent; also
//   data-i18n-title, data-i18n-placeholder, data-i18n-aria-label
//
// What the model reads is never translated: prompts stay English.
import "./draw-msg.js"; // defines globalThis.wbDrawMsg
import { api } from "./api.js";
import { STORAGE } from "./protocol.js";

// LANGUAGES are the interface languages: code, the _locales folder both
// builds carry (Chrome names Tagalog "fil" and Chinese "zh_CN"; the Firefox
// build has "tl" too, its own name), and the language's own name.
export const LANGUAGES = Object.freeze([
  { code: "en", folder: "en", name: "English" },
  { code: "es", folder: "es", name: "Español" },
  { code: "fr", folder: "fr", name: "Français" },
  { code: "tr", folder: "tr", name: "Türkçe" },
  { code: "zh", folder: "zh_CN", name: "中文（简体）" },
  { code: "ru", folder: "ru", name: "Русский" },
  { code: "uk", folder: "uk", name: "Українська" },
  { code: "ar", folder: "ar", name: "العربية" },
  { code: "ja", folder: "ja", name: "日本語" },
  { code: "ko", folder: "ko", name: "한국어" },
  { code: "id", folder: "id", name: "Bahasa Indonesia" },
  { code: "th", folder: "th", name: "ไทย" },
  { code: "ms", folder: "ms", name: "Bahasa Melayu" },
  { code: "tl", folder: "fil", name: "Tagalog" },
  { code: "pl", folder: "pl", name: "Polski" },
  { code: "he", folder: "he", name: "עברית" },
]);

// UI_LANGUAGE_KEY is the storage.local key of the user's choice: one of the
// codes above, or absent to follow the browser.
export const UI_LANGUAGE_KEY = STORAGE.UI_LANGUAGE;

const RTL = new Set(["ar", "he"]);
const BY_CODE = new Map(LANGUAGES.map((l) => [l.code, l]));
// Other names browsers use for the same languages.
const ALIASES = { fil: "tl", iw: "he", in: "id", zsm: "ms" };

let current = "en";
let messages = {};
let english = {};
let plural = new Intl.PluralRules("en");

// matchLanguage maps a browser language tag ("es-419", "zh_CN", "fil") to
// one of LANGUAGES' codes, English when none fits.
export function matchLanguage(tag) {
  const primary = String(tag ?? "")
    .toLowerCase()
    .split(/[-_]/)[0];
  const code = ALIASES[primary] ?? primary;
  return BY_CODE.has(code) ? code : "en";
}

// browserLanguage is the language the pages use when the user chose none.
export function browserLanguage() {
  return matchLanguage(api?.i18n?.getUILanguage?.() || globalThis.navigator?.language);
}

// chosenLanguage is the user's stored choice, or "" to follow the browser.
export async function chosenLanguage() {
  try {
    const got = await api.storage.local.get(UI_LANGUAGE_KEY);
    const code = got?.[UI_LANGUAGE_KEY];
    return BY_CODE.has(code) ? code : "";
  } catch {
    return "";
  }
}

// setChosenLanguage stores the choice ("" follows the browser again); open
// pages hear it through onLanguageChange.
export async function setChosenLanguage(code) {
  if (BY_CODE.has(code)) await api.storage.local.set({ [UI_LANGUAGE_KEY]: code });
  else await api.storage.local.remove(UI_LANGUAGE_KEY);
}

// onLanguageChange calls fn when the stored choice changes (in any page).
export function onLanguageChange(fn) {
  api?.storage?.onChanged?.addListener((changes, area) => {
    if (area === "local" && changes[UI_LANGUAGE_KEY]) fn();
  });
}

async function load(code) {
  try {
    const res = await fetch(`/_locales/${BY_CODE.get(code).folder}/messages.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

// initI18n loads the language to show (the stored choice, else the
// browser's), marks the document with lang and dir, and fills root's
// data-i18n elements. Pages await it before they draw anything.
export function initI18n(root = document) {
  // The page's modules may each await it: the document is translated once.
  if (root === document) {
    started ??= init(root);
    return started;
  }
  return init(root);
}

let started;

// preloadI18n starts reading the choice and fetching the catalogs without
// touching the page, so a page can start it before its DOM and its other
// modules are there (the side panel's early.js); initI18n uses what it got.
export function preloadI18n() {
  preloaded ??= (async () => {
    const loadingEnglish = load("en"); // every language falls back to it
    const code = (await chosenLanguage()) || browserLanguage();
    const [en, own] = await Promise.all([loadingEnglish, code === "en" ? null : load(code)]);
    return { code, en, own };
  })();
  return preloaded;
}

let preloaded;

async function init(root) {
  const { code, en, own } = await preloadI18n();
  english = en;
  messages = own ?? en;
  current = code;
  plural = new Intl.PluralRules(code === "tl" ? "fil" : code);
  const html = root.documentElement ?? document.documentElement;
  html.lang = code;
  html.dir = isRTL() ? "rtl" : "ltr";
  localizePage(root);
  return code;
}

// uiLanguage is the code initI18n chose; isRTL whether it is written right to left.
export function uiLanguage() {
  return current;
}

export function isRTL() {
  return RTL.has(current);
}

// locale is the tag for Intl formatting of dates and numbers.
export function locale() {
  return current === "tl" ? "fil" : current;
}

// In a right-to-left language each value goes in a first-strong isolate
// (U+2068 … U+2069), as Unicode's bidi algorithm advises for inserted text:
// "$0" or a host name keeps its own order instead of being reordered by the
// Arabic or Hebrew words around it.
function fill(text, subs) {
  const [open, close] = isRTL() ? ["\u2068", "\u2069"] : ["", ""];
  return text.replace(/\$([A-Za-z0-9_]+)\$|\$\$/g, (all, name) => {
    if (!name) return "$";
    const value = subs?.[name] ?? subs?.[name.toLowerCase()];
    return value === undefined || value === null ? all : open + String(value) + close;
  });
}

// t returns the message key in the interface language (English when the
// language lacks it, the key itself when English does too), with each
// $name$ replaced by subs[name].
export function t(key, subs) {
  const entry = messages[key] ?? english[key];
  return entry ? fill(entry.message, subs) : key;
}

// tp is t for a message with a count: key__one, key__few, … chosen by the
// language's plural rules, with $count$ the number as the language writes it.
export function tp(key, count, subs = {}) {
  const n = Number(count) || 0;
  const all = { ...subs, count: n.toLocaleString(locale()) };
  const entry =
    messages[`${key}__${plural.select(n)}`] ?? messages[`${key}__other`] ?? english[`${key}__${n === 1 ? "one" : "other"}`];
  return entry ? fill(entry.message, all) : key;
}

// tmsg shows a text the background wrote (docs/decisions/background-texts.md):
// msg is its {key, params} (each parameter a string, which is data and
// shown as it is, or another {key, params}), text the English as sent.
// The interface language's message is shown only when English's catalog
// knows every key and gives exactly text: a background newer than the
// catalog, or a text changed after the key was set, shows as sent.
export function tmsg(msg, text) {
  return globalThis.wbDrawMsg(msg, text, english, messages, isRTL());
}

// N_ marks a key that a table holds and t() translates later.
export const N_ = (key) => key;

const ATTRIBUTES = [
  ["data-i18n-title", "title"],
  ["data-i18n-placeholder", "placeholder"],
  ["data-i18n-aria-label", "aria-label"],
];

// localizePage translates the marked elements under root: data-i18n sets
// the text, data-i18n-title / -placeholder / -aria-label those attributes.
export function localizePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [attr, target] of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[${attr}]`)) node.setAttribute(target, t(node.getAttribute(attr)));
  }
  const title = (root.documentElement ?? document.documentElement).querySelector("title[data-i18n]");
  if (title) document.title = title.textContent;
}
