// Content script part: files. wb_resource finds the URL of what an
// element shows (an image, a video, a document, a link's file) for the
// download tools and the action gate; wb_put_file gives a file the
// background fetched to a file input or a drop zone, as a person choosing
// or dropping it would. Both are the background's entries, not the model's.
import { doc, fail, fire, hasRef, isEl, nameOf, quote, resolve } from './core.mjs';

const MEDIA = 'img,video,audio,source,object,embed,iframe,a[href],area[href],link[href]';
const KIND = {
  img: 'image',
  picture: 'image',
  video: 'video',
  audio: 'audio',
  source: '',
  object: 'document',
  embed: 'document',
  iframe: 'document',
};

function absolute(raw, el) {
  if (!raw) return '';
  try {
    return new URL(raw, el.baseURI).href;
  } catch {
    return '';
  }
}

// urlOf is the address el loads or links to: the source an image or
// video is showing, else its declared one.
function urlOf(el) {
  switch (el.localName) {
    case 'img':
      return el.currentSrc || absolute(el.getAttribute('src'), el);
    case 'video':
    case 'audio': {
      const own = el.currentSrc || absolute(el.getAttribute('src'), el);
      if (own) return own;
      const s = el.querySelector('source[src]');
      return s ? absolute(s.getAttribute('src'), s) : '';
    }
    case 'object':
      return absolute(el.getAttribute('data'), el);
    case 'a':
    case 'area':
    case 'link':
      return absolute(el.getAttribute('href'), el);
  }
  return absolute(el.getAttribute('src'), el);
}

function kindOf(el) {
  if (el.localName === 'source') return KIND[el.parentElement?.localName] || 'video';
  return KIND[el.localName] || 'link';
}

// target is the element a ref names, or the media inside it (a figure, a
// link around an image, a player's wrapper).
function target(el) {
  if (el.matches(MEDIA)) {
    if ((el.localName === 'a' || el.localName === 'area') && !el.getAttribute('href')) return el.querySelector(MEDIA);
    return el;
  }
  return el.querySelector('video,audio,img,object,embed,a[href]') || el.closest('a[href]');
}

// resource answers {url, tag, kind} for {ref}, or for {url} when the page
// shows media or a link at that address.
export function resource(args) {
  if (hasRef(args)) {
    const el = target(resolve(args.ref));
    if (!isEl(el)) fail(`${args.ref} shows no image, video, audio, document or link to download.`);
    const url = urlOf(el);
    if (!url) fail(`${args.ref} (${el.localName}) has no address to download from.`);
    return { url, tag: el.localName, kind: kindOf(el) };
  }
  const want = absolute(String(args.url || ''), doc.documentElement);
  if (!want) fail('Give the ref of an element or the URL of media on the page.');
  for (const el of doc.querySelectorAll(MEDIA)) {
    if (urlOf(el) === want || absolute(el.getAttribute('src'), el) === want)
      return { url: want, tag: el.localName, kind: kindOf(el) };
  }
  fail(`The page shows nothing at ${quote(want, 200)}.`);
}

function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// fileInput is the file input a ref names: the input, its label, or the
// one input inside the element.
function fileInput(el) {
  if (el.localName === 'input') return el.type === 'file' ? el : null;
  if (el.localName === 'label' && el.control) return el.control.type === 'file' ? el.control : null;
  const inner = el.querySelectorAll('input[type=file]');
  return inner.length === 1 ? inner[0] : null;
}

// dropEvents returns a maker of drag events carrying file. Firefox hides
// from the page the items a content script adds to a DataTransfer (each
// item keeps the principal of whoever added it), so there the
// DataTransfer, its item and the events are made in the page's own realm:
// Reflect.apply of the page runs the add as the page.
function dropEvents(file) {
  const init = { bubbles: true, cancelable: true, composed: true };
  const page = window.wrappedJSObject;
  const clone = globalThis.cloneInto;
  if (!page || typeof clone !== 'function') {
    const dt = new DataTransfer();
    dt.items.add(file);
    return (type) => new DragEvent(type, { ...init, dataTransfer: dt });
  }
  const dt = new page.DataTransfer();
  page.Reflect.apply(page.DataTransferItemList.prototype.add, dt.items, clone([file], page));
  return (type) => new page.DragEvent(type, clone({ ...init, dataTransfer: dt }, page, { wrapReflectors: true }));
}

// putFile gives the file {name, mime, data (base64)} to the file input
// (its files replaced, input and change fired) or drops it on the element
// (dragenter, dragover, drop), and says which.
export function putFile(args) {
  const el = resolve(args.ref);
  if (el.disabled) fail(`${args.ref} is disabled.`);
  const file = new File([bytesOf(String(args.data || ''))], String(args.name || 'file'), { type: String(args.mime || '') });
  const what = `${quote(file.name)} (${file.size} bytes${file.type ? `, ${file.type}` : ''})`;
  const input = fileInput(el);
  if (input) {
    if (input.disabled) fail('The file input is disabled.');
    const dt = new DataTransfer();
    dt.items.add(file);
    input.files = dt.files;
    fire(input, 'input');
    fire(input, 'change');
    const label = nameOf(input);
    return `The file input${label ? ` ${quote(label)}` : ''} now holds ${what}.`;
  }
  const drag = dropEvents(file);
  el.dispatchEvent(drag('dragenter'));
  if (el.dispatchEvent(drag('dragover'))) {
    fail(`${args.ref} is neither a file input nor a drop zone: it did not accept a dragged file (its dragover was not handled).`);
  }
  el.dispatchEvent(drag('drop'));
  const label = nameOf(el);
  return `Dropped ${what} on ${label ? quote(label) : args.ref}.`;
}
