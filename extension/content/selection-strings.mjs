// Every word the selection toolbar and its cards show. A content script
// reads the extension's catalogs through the browser's i18n API, which
// follows the browser's language (the page's toolbar speaks the browser's
// language; the panel's picker does not reach it). Language names come
// from Intl.DisplayNames, in the browser's own language.
const i18n = (globalThis.browser ?? globalThis.chrome)?.i18n;
const t = (key) => i18n?.getMessage(key) || key;

export const TEXT = Object.freeze({
  toolbarLabel: t('selection_toolbar_label'),
  translate: t('selection_translate'),
  explain: t('selection_explain'),
  proofread: t('selection_proofread'),
  more: t('selection_more'),
  moreTitle: t('selection_more_title'),
  titleTranslate: t('selection_title_translate'),
  titleExplain: t('selection_title_explain'),
  titleProofread: t('selection_title_proofread'),
  translateTo: t('selection_translate_to'),
  working: t('selection_working'),
  copy: t('selection_copy'),
  copied: t('selection_copied'),
  close: t('selection_close'),
  truncated: t('selection_truncated'),
  continueInPanel: t('selection_continue_in_panel'),
  askInPanel: t('selection_ask_in_panel'),
  panelWaiting: t('selection_panel_waiting'),
  panelReady: t('selection_panel_ready'),
  tooLongForCard: t('selection_too_long'),
  failed: t('selection_failed'),
  retry: t('selection_retry'),
  summarize: t('selection_summarize'),
  quiz: t('selection_quiz'),
  humanize: t('selection_humanize'),
  questionPlaceholder: t('selection_question_placeholder'),
  promptSummarize: t('selection_prompt_summarize'),
  promptQuiz: t('selection_prompt_quiz'),
  promptHumanize: t('selection_prompt_humanize'),
});
