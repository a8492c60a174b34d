// Every word the selection toolbar and its cards show, in English, in one
// place so they can be translated later. Language names come from
// Intl.DisplayNames, in the browser's own language.
export const TEXT = Object.freeze({
  toolbarLabel: 'WebBrain: selected text',
  translate: 'Translate',
  explain: 'Explain',
  proofread: 'Proofread',
  more: 'More…',
  moreTitle: 'Ask about the selection in the side panel',
  titleTranslate: 'Translation',
  titleExplain: 'Explanation',
  titleProofread: 'Proofreading',
  translateTo: 'Translate into',
  working: 'Working…',
  copy: 'Copy',
  copied: 'Copied',
  close: 'Close',
  truncated: 'The answer stopped at its length limit; it is not complete.',
  continueInPanel: 'Continue in side panel',
  askInPanel: 'Ask in side panel',
  panelWaiting: 'Open WebBrain (Alt+Shift+W): the selection waits there.',
  panelReady: "The selection is in WebBrain's side panel.",
  tooLongForCard: 'This selection is long: it goes to the side panel.',
  failed: 'WebBrain could not answer:',
  retry: 'Try again',
});
