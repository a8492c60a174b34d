// Text helpers of the content scripts.

// squash collapses runs of white space to one space and trims the ends.
export const squash = (s) => String(s ?? '').replace(/[\s\u00a0]+/g, ' ').trim();

// clip shortens s to at most n characters, ending in "…".
export const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
