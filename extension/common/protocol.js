// The protocol's names for the side panel and the settings page: the
// actions they send the background, the broadcast and its event kinds, run
// statuses, storage keys, modes, tiers, provider kinds and the approval
// card's words (docs/PROTOCOL.md). Go has the same names in wasm/protocol;
// wasm/protocol/protocol_test.go reads this file and fails when the two or
// the doc disagree, so keep it plain: one frozen object of string
// constants per export, one `NAME: "value",` a line.

export const ACTION = Object.freeze({
  CHAT_START: "chat_start",
  ABORT: "abort",
  STEER: "steer",
  CLEAR_CONVERSATION: "clear_conversation",
  RUN_STATE: "run_state",
  CLARIFY_ANSWER: "clarify_answer",
  APPROVAL_ANSWER: "approval_answer",
  PLAN_ANSWER: "plan_answer",
  SETTINGS_GET: "settings_get",
  SETTINGS_SAVE: "settings_save",
  PROVIDER_TEST: "provider_test",
  PROVIDER_VISION: "provider_vision",
  PROVIDER_PRESETS: "provider_presets",
  CONFIG_EXPORT: "config_export",
  CONFIG_IMPORT: "config_import",
  MEMORY_LIST: "memory_list",
  MEMORY_ADD: "memory_add",
  MEMORY_EDIT: "memory_edit",
  MEMORY_FORGET: "memory_forget",
  MEMORY_CLEAR: "memory_clear",
  MEMORY_IMPORT: "memory_import",
  JOBS_LIST: "jobs_list",
  JOB_UPDATE: "job_update",
  JOB_PAUSE: "job_pause",
  JOB_RESUME: "job_resume",
  JOB_DELETE: "job_delete",
  WATCH_START: "watch_start",
  SKILLS_LIST: "skills_list",
  SKILL_SAVE: "skill_save",
  SKILL_DELETE: "skill_delete",
  WORKFLOWS_LIST: "workflows_list",
  WORKFLOW_SAVE: "workflow_save",
  WORKFLOW_RENAME: "workflow_rename",
  WORKFLOW_DELETE: "workflow_delete",
  WORKFLOW_IMPORT: "workflow_import",
  WORKFLOW_RUN: "workflow_run",
  TEACH_START: "teach_start",
  TEACH_END: "teach_end",
  TEACH_CANCEL: "teach_cancel",
  TEACH_STATE: "teach_state",
  TEACH_STEP: "teach_step",
  TEACH_PAGE: "teach_page",
  HISTORY_LIST: "history_list",
  HISTORY_GET: "history_get",
  HISTORY_DELETE: "history_delete",
  HISTORY_RESTORE: "history_restore",
  CONVERSATION_EXPORT: "conversation_export",
  TAB_CLOSED: "tab_closed",
  DEV_PATCHES: "dev_patches",
  DEV_REVERT: "dev_revert",
  KEEP_WARM: "keep_warm",
  USAGE_GET: "usage_get",
  ALLOWANCE_ANSWER: "allowance_answer",
  SELECTION_INLINE: "selection_inline",
  SELECTION_INLINE_CANCEL: "selection_inline_cancel",
  SELECTION_CONTEXT: "selection_context",
});

// The type of the background's broadcasts.
export const MESSAGE = Object.freeze({
  AGENT_UPDATE: "agent_update",
});

// agent_update event kinds.
export const EVENT = Object.freeze({
  RUN_STARTED: "run_started",
  STEP: "step",
  TEXT_DELTA: "text_delta",
  TEXT_RESET: "text_reset",
  TOOL_CALL: "tool_call",
  TOOL_RESULT: "tool_result",
  CLARIFY: "clarify",
  APPROVAL: "approval",
  APPROVAL_RESOLVED: "approval_resolved",
  PLAN_REVIEW: "plan_review",
  PLAN_RESOLVED: "plan_resolved",
  PLAN: "plan",
  MODE_CHANGED: "mode_changed",
  RUN_MODE: "run_mode",
  LOOP_WARNING: "loop_warning",
  CONTEXT_COMPACTED: "context_compacted",
  FINAL: "final",
  ERROR: "error",
  STOPPED: "stopped",
  STEER: "steer",
  CORRECTION_APPLIED: "correction_applied",
  STEER_RETURNED: "steer_returned",
  RESUMED: "resumed",
  USAGE: "usage",
  ALLOWANCE: "allowance",
  ALLOWANCE_RESOLVED: "allowance_resolved",
  CAPTURE: "capture",
});

// A run journal's status. The panel adds "idle" (no run) of its own.
export const STATUS = Object.freeze({
  RUNNING: "running",
  DONE: "done",
  ERROR: "error",
  STOPPED: "stopped",
});

// SETTINGS is a storage.local key; the others prefix a tab id in
// storage.session (tabKey).
export const STORAGE = Object.freeze({
  SETTINGS: "settings",
  AGENT_CONV: "agentConv:",
  RUN_UI: "runUi:",
  TAB_CHAT: "tabChat:",
  AGENT_RUN: "agentRun:",
  AGENT_STEER: "agentSteer:",
  USER_MEMORY: "wb_user_memory_v1",
  SCHEDULED_JOBS: "wb_scheduled_jobs",
  SAVED_WORKFLOWS: "wb_saved_workflows_v1",
  TEACH: "teachSession:",
  CHAT_HISTORY: "chatHistory",
  CHAT_HISTORY_RECORD: "chatHistory:",
  CHAT_META: "chatMeta:",
  DEV_PATCHES: "devPatches:",
  CUSTOM_SKILLS: "customSkills",
  USAGE_DAILY: "wb_usage_daily_v1",
  PROVIDER_TESTS: "wb_provider_tests",
  SELECTION_CONTEXT: "selectionContext:",
  UI_LANGUAGE: "wb_ui_language",
});

export const MODE = Object.freeze({
  AUTO: "auto",
  ASK: "ask",
  ACT: "act",
  DEV: "dev",
});

export const TIER = Object.freeze({
  COMPACT: "compact",
  MID: "mid",
  FULL: "full",
});

export const BROWSER = Object.freeze({
  CHROME: "chrome",
  FIREFOX: "firefox",
});

export const PROVIDER_KIND = Object.freeze({
  OPENAI_CHAT: "openai-chat",
  OPENAI_RESPONSES: "openai-responses",
  ANTHROPIC: "anthropic",
  AZURE: "azure",
  BEDROCK: "bedrock",
});

// An approval card's choices and approval_resolved's decision.
export const DECISION = Object.freeze({
  APPROVE: "approve",
  APPROVE_SITE: "approve_site",
  DECLINE: "decline",
});

// approval_resolved's and plan_resolved's reason.
export const RESOLVED = Object.freeze({
  USER: "user",
  TIMEOUT: "timeout",
  STOPPED: "stopped",
  CORRECTION: "correction",
});

// run_mode's reason: who chose the mode of an automatic message.
export const ROUTE = Object.freeze({
  DECISION_MODEL: "decision_model",
  DEFAULT: "default",
  HAND_OFF: "hand_off",
});

// The settings' planner levels.
export const PLANNER = Object.freeze({
  OFF: "off",
  TRY: "try",
  STRICT: "strict",
});

// The settings' plan review: when a Try plan is shown before the run acts.
export const PLAN_REVIEW = Object.freeze({
  STRICT: "strict",
  ALWAYS: "always",
});

// plan_answer's decision and plan_resolved's.
export const PLAN_DECISION = Object.freeze({
  APPROVE: "approve",
  EDIT: "edit",
  REJECT: "reject",
  SUPERSEDED: "superseded",
});

// context_compacted's reason.
export const COMPACTED = Object.freeze({
  AUTO: "auto",
  OVERFLOW: "overflow",
});

// The settings' themes of the panel and settings pages.
export const THEME = Object.freeze({
  SYSTEM: "system",
  LIGHT: "light",
  DARK: "dark",
});

// What chat_start may capture around a run (its capture field).
export const CAPTURE = Object.freeze({
  SCREENSHOT: "screenshot",
  RECORD: "record",
});

// final reasons: why a run ended other than with the model's own answer.
export const FINAL_REASON = Object.freeze({
  STEP_LIMIT: "step_limit",
});

// An approval card's category.
export const CATEGORY = Object.freeze({
  SEND: "send",
  PUBLISH: "publish",
  DELETE: "delete",
  PAYMENT: "payment",
  PURCHASE: "purchase",
  SHARE: "share",
  ACCOUNT: "account",
  SUBMIT: "submit",
  TYPE_DATA: "type_data",
  NAVIGATE: "navigate",
  FETCH: "fetch",
  SCHEDULE: "schedule",
  DOWNLOAD: "download",
  UPLOAD: "upload",
  CAPTCHA: "captcha",
  WEBMCP: "webmcp",
  RESEARCH: "research",
});

// allowance_answer's decisions on a cost allowance card.
export const ALLOWANCE_DECISION = Object.freeze({
  RAISE: "raise",
  STOP: "stop",
});

// tabKey is the storage.session key of a STORAGE prefix for a tab.
export const tabKey = (prefix, tabId) => `${prefix}${tabId}`;
