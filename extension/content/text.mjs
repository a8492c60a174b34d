// Text helpers shared by the accessibility tree and the page tools (each
// bundle carries its own copy of this module; the source is this one).

const WS = /[\s\u200b]+/g; // \s covers the no-break space; zero-width spaces read as one too

// squash collapses runs of white space to one space and trims the ends.
export function squash(s) {
  return s === null || s === undefined ? '' : String(s).replace(WS, ' ').trim();
}

// clip shortens s to at most max characters, ending in "…": at a word
// boundary when one lies in the last 40%, never inside a surrogate pair.
export function clip(s, max) {
  if (s.length <= max) return s;
  let cut = s.lastIndexOf(' ', max - 1);
  if (cut < max * 0.6) cut = max - 1;
  const code = s.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return s.slice(0, cut) + '…';
}
