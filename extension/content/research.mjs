// Content script part for research escalation's helper tab (wb_research):
// ChatGPT's composer and its answers, and nothing else. The background
// opens this tab at the fixed address and checks it before every step; the
// script refuses any other site too, so a question can only be typed into
// ChatGPT. ChatGPT's markup changes: each selector has fallbacks, and a
// missing composer is reported rather than guessed at.
import { fail } from './core.mjs';
import { clearField, focusField, insertText } from './typing.mjs';

const HOST = 'chatgpt.com';
const COMPOSER = ['#prompt-textarea', 'form [contenteditable="true"][role="textbox"]', 'form textarea'];
const SEND = ['button[data-testid="send-button"]', '#composer-submit-button', 'form button[aria-label*="Send" i]'];
const STOP = 'button[data-testid="stop-button"], button[aria-label*="Stop" i]';
const ANSWERS = '[data-message-author-role="assistant"]';
const SIGN_IN = '[data-testid="login-button"], a[href*="auth/login"]';
const MAX_LINKS = 20;

const first = (selectors) => {
  for (const s of selectors) {
    const el = document.querySelector(s);
    if (el) return el;
  }
  return null;
};

const answers = () => document.querySelectorAll(ANSWERS);

// research answers probe, send and read.
export async function research(args) {
  if (location.hostname !== HOST || location.protocol !== 'https:') fail('This is not ChatGPT: nothing was typed.');
  const composer = first(COMPOSER);
  switch (args.op) {
    case 'probe':
      return { composer: Boolean(composer), signedOut: !composer && Boolean(document.querySelector(SIGN_IN)) };
    case 'send':
      return send(composer, String(args.text ?? ''));
    case 'read':
      return read();
  }
  return fail(`Unknown research step ${JSON.stringify(args.op)}.`);
}

async function send(composer, text) {
  if (!composer) fail("ChatGPT's message box is not on the page.");
  const count = answers().length;
  const state = { buffer: '' };
  focusField(composer, true);
  clearField(composer, state);
  insertText(composer, text, state);
  // The send button appears or enables once the box holds text.
  for (let i = 0; i < 20; i++) {
    const button = first(SEND);
    if (button && !button.disabled) {
      button.click();
      return { sent: true, count };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { sent: false, count };
}

function read() {
  const all = answers();
  const last = all[all.length - 1];
  const links = [];
  if (last) {
    for (const a of last.querySelectorAll('a[href]')) {
      const href = a.href;
      if (/^https?:\/\//.test(href) && !links.includes(href)) links.push(href);
      if (links.length === MAX_LINKS) break;
    }
  }
  return {
    count: all.length,
    streaming: Boolean(document.querySelector(STOP)),
    text: last ? (last.innerText ?? last.textContent ?? '').trim() : '',
    links,
  };
}
