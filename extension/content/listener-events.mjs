// listener-events.mjs — the two events by which the tree asks the page
// world's click-listeners script for the elements it noted
// (docs/decisions/click-listeners.md): the tree fires the query at a
// document; the answer is fired at each noted element, composed so that
// it leaves shadow roots.
export const LISTENERS_QUERY = 'webbrain:click-listeners';
export const LISTENERS_ANSWER = 'webbrain:click-listener';
