// Package protocol names what WebBrain's parts say to each other: the
// actions the panel and settings page send the background, the broadcast
// and its event kinds, the run statuses, the storage keys, modes, tiers,
// provider kinds, the approval card's words, and the tools.
//
// Each name is written here once for Go. The JS pages have the same names
// in extension/common/protocol.js and docs/PROTOCOL.md lists them; the
// tests here and in wasm/tools fail when these, the pages' <select>
// options, the tool catalog or the content script's tool table disagree
// (docs/decisions/protocol-names.md). Add a name in all of them.
//
// The package imports nothing of WebBrain's, so every package may use it.
package protocol

import "strconv"

// Actions: the runtime messages {action, ...} the panel and the settings
// page send the background (docs/PROTOCOL.md, "Panel → background").
const (
	ActionChatStart         = "chat_start"
	ActionAbort             = "abort"
	ActionSteer             = "steer"
	ActionClearConversation = "clear_conversation"
	ActionRunState          = "run_state"
	ActionClarifyAnswer     = "clarify_answer"
	ActionApprovalAnswer    = "approval_answer"
	ActionPlanAnswer        = "plan_answer"
	ActionSettingsGet       = "settings_get"
	ActionSettingsSave      = "settings_save"
	ActionProviderTest      = "provider_test"
	// ActionProviderVision: whether the provider's model reads images, as
	// detected and as the visionMode in effect decides.
	ActionProviderVision = "provider_vision"
	// ActionProviderPresets lists the provider presets.
	ActionProviderPresets = "provider_presets"
	ActionConfigExport    = "config_export"
	ActionConfigImport    = "config_import"
	ActionMemoryList      = "memory_list"
	ActionMemoryAdd       = "memory_add"
	ActionMemoryEdit      = "memory_edit"
	ActionMemoryForget    = "memory_forget"
	ActionMemoryClear     = "memory_clear"
	ActionMemoryImport    = "memory_import"
	ActionJobsList        = "jobs_list"
	ActionJobUpdate       = "job_update"
	ActionJobPause        = "job_pause"
	ActionJobResume       = "job_resume"
	ActionJobDelete       = "job_delete"
	ActionWatchStart      = "watch_start"
	ActionSkillsList      = "skills_list"
	ActionSkillSave       = "skill_save"
	ActionSkillDelete     = "skill_delete"
	// Saved workflows (package workflow).
	ActionWorkflowsList  = "workflows_list"
	ActionWorkflowSave   = "workflow_save"
	ActionWorkflowRename = "workflow_rename"
	ActionWorkflowDelete = "workflow_delete"
	ActionWorkflowImport = "workflow_import"
	ActionWorkflowRun    = "workflow_run"
	// Teacher mode (docs/decisions/workflows.md): the panel starts, ends
	// or cancels a tab's recording and asks for its state; the recorder in
	// the page reports teach_step, and the background's own tab listener
	// teach_page after the tab loaded a document.
	ActionTeachStart  = "teach_start"
	ActionTeachEnd    = "teach_end"
	ActionTeachCancel = "teach_cancel"
	ActionTeachState  = "teach_state"
	ActionTeachStep   = "teach_step"
	ActionTeachPage   = "teach_page"
	// Chat history and export (package history).
	ActionHistoryList        = "history_list"
	ActionHistoryGet         = "history_get"
	ActionHistoryDelete      = "history_delete"
	ActionHistoryRestore     = "history_restore"
	ActionConversationExport = "conversation_export"
	// ActionTabClosed comes from the background's own glue when a tab
	// closes: its conversation is archived.
	ActionTabClosed = "tab_closed"
	// ActionDevPatches lists a tab's Dev page changes; ActionDevRevert
	// reverts one of them (patchId) or all.
	ActionDevPatches = "dev_patches"
	ActionDevRevert  = "dev_revert"
	// ActionKeepWarm is the open panel's keep-warm ping: an event that
	// keeps Chrome from stopping the worker while the user is at the panel.
	ActionKeepWarm = "keep_warm"
	// ActionUsageGet lists token usage and cost per day;
	// ActionAllowanceAnswer answers a cost allowance card.
	ActionUsageGet        = "usage_get"
	ActionAllowanceAnswer = "allowance_answer"
	// The selection toolbar's content script (docs/decisions/selection-toolbar.md):
	// a card's answer, its cancel, and a selection handed to the side panel
	// (also sent by the glue's context menu, with tabId).
	ActionSelectionInline       = "selection_inline"
	ActionSelectionInlineCancel = "selection_inline_cancel"
	ActionSelectionContext      = "selection_context"
)

// MessageAgentUpdate is the type of the background's broadcast of one run
// event: {type, tabId, requestId, seq, event}.
const MessageAgentUpdate = "agent_update"

// Event kinds of agent_update and of the run journal (docs/PROTOCOL.md,
// "Background → panel", lists each kind's fields).
const (
	EventRunStarted    = "run_started"
	EventStep          = "step"
	EventTextDelta     = "text_delta"
	EventTextReset     = "text_reset" // the streamed text of this step so far is void
	EventToolCall      = "tool_call"
	EventToolResult    = "tool_result"
	EventClarify       = "clarify"
	EventLoopWarning   = "loop_warning"
	EventFinal         = "final"
	EventError         = "error"
	EventStopped       = "stopped"
	EventResumed       = "resumed" // a new background took the run over
	EventSteer         = "steer"   // a correction was accepted for the run (id, text)
	EventCorrection    = "correction_applied"
	EventSteerReturned = "steer_returned" // the run ended before applying these corrections
	// EventContextCompacted: older messages were summarised (reason
	// CompactedAuto) or dropped because the provider rejected the request
	// as too long (CompactedOverflow); count is how many.
	EventContextCompacted = "context_compacted"
	// EventApproval: WebBrain asks the user before an action (id, text,
	// approval); EventApprovalResolved: the answer (id, decision, reason).
	EventApproval         = "approval"
	EventApprovalResolved = "approval_resolved"
	// EventPlanReview: the plan of an Act run waits for the user (id,
	// plan); EventPlanResolved: the answer (id, decision, reason, plan).
	EventPlanReview   = "plan_review"
	EventPlanResolved = "plan_resolved"
	// EventPlan: the plan the run follows, pinned in its system prompt
	// (plan); EventModeChanged: the run continues read-only (mode, text).
	EventPlan        = "plan"
	EventModeChanged = "mode_changed"
	// EventRunMode: the mode an automatic message was routed to (mode,
	// reason: decision_model, active_model, default or hand_off).
	EventRunMode = "run_mode"
	// EventUsage: one model call's tokens and cost (usage, text: a notice
	// when the call reached the cost allowance); EventAllowance: the run
	// waits before a model call that may pass the cost allowance (id,
	// text, allowance); EventAllowanceResolved: the answer (id, decision).
	EventUsage             = "usage"
	EventAllowance         = "allowance"
	EventAllowanceResolved = "allowance_resolved"
	// EventCapture: a screenshot or recording the user asked for with a
	// run's /screenshot or /record suffix was saved, or could not be (text).
	EventCapture = "capture"
)

// CaptureScreenshot is chat_start's capture value for before/after
// screenshots of the tab (the panel's /screenshot suffix).
const CaptureScreenshot = "screenshot"

// CaptureRecord is chat_start's capture value for a video of the tab
// during the run (/record, Chrome).
const CaptureRecord = "record"

// Answers to a cost allowance card (allowance_answer's decision).
const (
	AllowanceRaise = "raise" // raise the allowance and go on
	AllowanceStop  = "stop"  // stop the run
)

// Reasons of run_mode: who chose the mode of an automatic message.
const (
	RouteDecisionModel = "decision_model" // the decision model's sure answer
	RouteDefault       = "default"        // no decision model or no sure answer: Ask
	RouteHandOff       = "hand_off"       // the Ask turn handed the request to Act
)

// Planner levels (settings "planner"): Off asks only the intent question,
// Try plans and carries on read-only when planning fails, Strict plans,
// shows every plan for review and stops when planning fails.
const (
	PlannerOff    = "off"
	PlannerTry    = "try"
	PlannerStrict = "strict"
)

// Plan review (settings "planReview"): when a Try plan is shown before the
// run acts. Strict plans are always shown.
const (
	ReviewStrict = "strict" // only in Strict
	ReviewAlways = "always"
)

// Themes of the panel and settings pages (settings "theme"); "" is System.
const (
	ThemeSystem = "system" // follow the browser's light or dark preference
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Decisions on a plan review card (plan_answer) and how plan_resolved
// says it was decided besides the user: the two-minute timeout approves,
// Stop rejects, a correction supersedes the card.
const (
	PlanApprove    = "approve"
	PlanEdit       = "edit"
	PlanReject     = "reject"
	PlanSuperseded = "superseded"
)

// Statuses of a run journal (runUi:<tabId>).
const (
	StatusRunning = "running"
	StatusDone    = "done"
	StatusError   = "error"
	StatusStopped = "stopped"
)

// Storage keys: KeySettings in storage.local; the others are prefixes of
// per-tab keys in storage.session (TabKey).
const (
	KeySettings      = "settings"
	KeyAgentConv     = "agentConv:"        // the provider-facing conversation
	KeyRunUI         = "runUi:"            // the run journal
	KeyTabChat       = "tabChat:"          // the panel's transcript and queue
	KeyAgentRun      = "agentRun:"         // the active run's recovery record
	KeyAgentSteer    = "agentSteer:"       // corrections accepted for the active run
	KeyUserMemory    = "wb_user_memory_v1" // the user's memory (package memory)
	KeyScheduledJobs = "wb_scheduled_jobs" // scheduled jobs (package scheduler)
	// KeySavedWorkflows holds the saved workflows (package workflow).
	KeySavedWorkflows = "wb_saved_workflows_v1"
	// KeyTeach prefixes a tab's teaching session (teacher mode).
	KeyTeach = "teachSession:"
	// Chat history (package history): the list in storage.local, one
	// record per conversation under the prefix, and per tab in
	// storage.session the page and modes of the live conversation.
	KeyChatHistory       = "chatHistory"
	KeyChatHistoryRecord = "chatHistory:"
	KeyChatMeta          = "chatMeta:"
	KeyDevPatches        = "devPatches:"  // Dev mode's CSS injections and element patches
	KeyCustomSkills      = "customSkills" // the user's own skills (storage.local)
	// KeyUsageDaily holds the token usage and cost per day (package cost).
	KeyUsageDaily = "wb_usage_daily_v1"
	// KeyProviderTests holds the last Test result of each saved provider,
	// by provider id (storage.local), so the settings page shows it again.
	KeyProviderTests = "wb_provider_tests"
	// KeySelectionContext prefixes a selection waiting for the tab's panel.
	KeySelectionContext = "selectionContext:"
	// KeyUILanguage holds the interface language the user chose (storage.local;
	// absent: the browser's). Only the extension's pages read it.
	KeyUILanguage = "wb_ui_language"
)

// TabKey is the storage.session key of prefix (KeyAgentConv, …) for a tab.
func TabKey(prefix string, tabID int) string { return prefix + strconv.Itoa(tabID) }

// Modes a run works in: Ask reads, Act may change pages, Dev is Act with
// the page-debugging add-ons (Mid and Full providers only). Any other mode
// counts as Ask wherever it matters (failing closed).
const (
	ModeAsk  = "ask"
	ModeAct  = "act"
	ModeDev  = "dev"
	ModeAuto = "auto" // chat_start only: WebBrain routes the message to Ask, Act or Dev
)

// Acting reports whether mode may change pages: Act and Dev.
func Acting(mode string) bool { return mode == ModeAct || mode == ModeDev }

// Tiers decide how many tools a model sees.
const (
	TierCompact = "compact"
	TierMid     = "mid"
	TierFull    = "full"
)

// Browsers the extension is built for (platform.Platform.Browser).
const (
	BrowserChrome  = "chrome"
	BrowserFirefox = "firefox"
)

// Provider kinds (a provider's wire format).
const (
	KindOpenAIChat      = "openai-chat"
	KindOpenAIResponses = "openai-responses"
	KindAnthropic       = "anthropic"
	KindAzure           = "azure"
	KindBedrock         = "bedrock" // Amazon Bedrock's Converse API
)

// Decisions on an approval card: approval_answer's decision, the card's
// choices and approval_resolved's decision.
const (
	DecisionApprove     = "approve"
	DecisionApproveSite = "approve_site" // this kind of action on this site, for the rest of the run
	DecisionDecline     = "decline"
)

// Reasons of approval_resolved: who or what closed the card.
const (
	ResolvedUser       = "user"
	ResolvedTimeout    = "timeout"
	ResolvedStopped    = "stopped"
	ResolvedCorrection = "correction" // a correction superseded a plan review
)

// Reasons of context_compacted.
const (
	CompactedAuto     = "auto"     // the thresholds were crossed: old messages summarised
	CompactedOverflow = "overflow" // the provider rejected the request: emergency trim
)

// Reasons of final: why a run ended other than with the model's answer.
const (
	FinalStepLimit = "step_limit" // the step limit was reached: the answer is the hand-off summary
)

// Categories of an approval card: what the action does to the world.
const (
	CategorySend     = "send"
	CategoryPublish  = "publish"
	CategoryDelete   = "delete"
	CategoryPayment  = "payment"
	CategoryPurchase = "purchase"
	CategoryShare    = "share"
	CategoryAccount  = "account"
	CategorySubmit   = "submit"
	CategoryTypeData = "type_data" // typing a secret that came from a page
	CategoryNavigate = "navigate"
	CategoryFetch    = "fetch"
	CategorySchedule = "schedule" // a scheduled task that will run later
	CategoryDownload = "download" // saving a file through the browser's downloads
	CategoryUpload   = "upload"   // putting a file into a page's file input or drop zone
	CategoryCaptcha  = "captcha"  // a CAPTCHA sent to the user's solver service
	CategoryWebMCP   = "webmcp"   // a tool the page registered through WebMCP
	CategoryResearch = "research" // a question sent to ChatGPT (delegate_research)
)

// Tools the model may call. Which exist, and where each runs, is the
// catalog's business (wasm/tools/specs.go); these are their names.
const (
	ToolGetAccessibilityTree = "get_accessibility_tree"
	ToolReadPage             = "read_page"
	ToolGetSelection         = "get_selection"
	ToolGetWindowInfo        = "get_window_info"
	ToolExtractData          = "extract_data"
	ToolFetchURL             = "fetch_url"
	ToolResearchURL          = "research_url"
	ToolScroll               = "scroll"
	ToolWaitForStable        = "wait_for_stable"
	ToolWaitForElement       = "wait_for_element"
	ToolClickAX              = "click_ax"
	ToolTypeAX               = "type_ax"
	ToolSetField             = "set_field"
	ToolClick                = "click"
	ToolTypeText             = "type_text"
	ToolPressKeys            = "press_keys"
	ToolNavigate             = "navigate"
	ToolGoBack               = "go_back"
	ToolGoForward            = "go_forward"
	ToolHover                = "hover"
	ToolDragDrop             = "drag_drop"
	ToolVerifyForm           = "verify_form"
	ToolResizeWindow         = "resize_window"
	ToolNewTab               = "new_tab"
	ToolSolveCaptcha         = "solve_captcha"
	ToolListWebMCPTools      = "list_webmcp_tools"
	ToolExecuteWebMCPTool    = "execute_webmcp_tool"
	ToolDone                 = "done"
	ToolClarify              = "clarify"
	ToolScratchpadWrite      = "scratchpad_write"
	ToolProgressUpdate       = "progress_update"
	ToolProgressRead         = "progress_read"
	ToolScheduleResume       = "schedule_resume"
	ToolScheduleTask         = "schedule_task"
	ToolListDownloads        = "list_downloads"
	ToolReadPDF              = "read_pdf"
	ToolDownloadFiles        = "download_files"
	ToolDownloadResource     = "download_resource_from_page"
	ToolDownloadSocialMedia  = "download_social_media"
	ToolReadDownloadedFile   = "read_downloaded_file"
	ToolUploadFile           = "upload_file"
	ToolGetInteractive       = "get_interactive_elements"
	ToolGetShadowDOM         = "get_shadow_dom"
	ToolShadowDOMQuery       = "shadow_dom_query"
	ToolGetFrames            = "get_frames"
	ToolPromoteIframe        = "promote_iframe"
	ToolIframeRead           = "iframe_read"
	ToolIframeClick          = "iframe_click"
	ToolIframeType           = "iframe_type"
	// ToolLoadSkill is offered beside the catalog, only with skills.
	ToolLoadSkill = "load_skill"
	// Dev mode's add-ons (wasm/tools/devtools.go).
	ToolReadPageSource         = "read_page_source"
	ToolInspectElementStyles   = "inspect_element_styles"
	ToolInjectCSS              = "inject_css"
	ToolRemoveInjectedCSS      = "remove_injected_css"
	ToolPatchElement           = "patch_element"
	ToolRevertPatch            = "revert_patch"
	ToolExecuteJS              = "execute_js"
	ToolReadConsole            = "read_console"
	ToolInspectNetworkRequests = "inspect_network_requests"
	ToolInspectEventListeners  = "inspect_event_listeners"
	ToolHighlightElement       = "highlight_element"
)

// Entries of the content script that only the background calls, never the
// model ({wb: "tool", name, args}).
const (
	PageDoc            = "wb_doc"           // this document's id and URL
	PageProbe          = "wb_probe"         // describe a control for the action gate
	PageLinks          = "wb_links"         // the links a person can see
	PageStatus         = "wb_status"        // the errors and notices the page shows
	PageTrustedPrepare = "trusted_prepare"  // plan Chrome's trusted input
	PageTrustedFinish  = "trusted_finish"   // report what the input changed
	PageResource       = "wb_resource"      // the URL of the image, media or document a ref shows
	PagePutFile        = "wb_put_file"      // give a file to a file input or drop zone
	PageFrames         = "wb_frames"        // the iframes of the document, with their refs
	PageFrameBox       = "wb_frame_box"     // a point in a child frame, in this frame's viewport
	PageViewport       = "wb_viewport"      // the viewport's size, after resize_window
	PageCaptcha        = "wb_captcha"       // the CAPTCHA widget the page shows, for solve_captcha
	PageCaptchaApply   = "wb_captcha_apply" // put a solver's token into the widget's response field
	PageResearch       = "wb_research"      // ChatGPT's composer and answers, in research escalation's helper tab
	PageText           = "wb_text"          // the whole page's readable text, for research_url
	PageRead           = "wb_read"          // read_page or the tree with the page_blocker readings (walls)
	PageField          = "wb_field"         // what a field holds now, for the completion judge's read-back
	PageTeach          = "wb_teach"         // start teacher mode's recorder in the top document
	// Dev mode's page halves (wasm/tools/devtools.go, content/dev.mjs).
	PageDevSource    = "dev_source"    // the live DOM's HTML, in parts
	PageDevStyles    = "dev_styles"    // an element's computed and matched styles
	PageDevPatch     = "dev_patch"     // apply a checked element patch
	PageDevUnpatch   = "dev_unpatch"   // restore a patch's before values
	PageDevHighlight = "dev_highlight" // a temporary outline over an element
	PageDevEval      = "dev_eval"      // execute_js in the page's world (Firefox)
	PageDevMark      = "dev_mark"      // tag an element for the debugger, briefly
)

// The groups, each in the order docs/PROTOCOL.md lists it. Groups maps
// the name of each extension/common/protocol.js export to its group.
var (
	Actions = []string{
		ActionChatStart, ActionAbort, ActionSteer, ActionClearConversation, ActionRunState,
		ActionClarifyAnswer, ActionApprovalAnswer, ActionPlanAnswer, ActionSettingsGet, ActionSettingsSave,
		ActionProviderTest, ActionProviderVision, ActionProviderPresets, ActionConfigExport, ActionConfigImport,
		ActionMemoryList, ActionMemoryAdd, ActionMemoryEdit, ActionMemoryForget, ActionMemoryClear, ActionMemoryImport,
		ActionJobsList, ActionJobUpdate, ActionJobPause, ActionJobResume, ActionJobDelete, ActionWatchStart,
		ActionSkillsList, ActionSkillSave, ActionSkillDelete,
		ActionWorkflowsList, ActionWorkflowSave, ActionWorkflowRename, ActionWorkflowDelete, ActionWorkflowImport, ActionWorkflowRun,
		ActionTeachStart, ActionTeachEnd, ActionTeachCancel, ActionTeachState, ActionTeachStep, ActionTeachPage,
		ActionHistoryList, ActionHistoryGet, ActionHistoryDelete, ActionHistoryRestore, ActionConversationExport, ActionTabClosed,
		ActionDevPatches, ActionDevRevert, ActionKeepWarm,
		ActionUsageGet, ActionAllowanceAnswer,
		ActionSelectionInline, ActionSelectionInlineCancel, ActionSelectionContext,
	}
	Messages = []string{MessageAgentUpdate}
	Events   = []string{
		EventRunStarted, EventStep, EventTextDelta, EventTextReset, EventToolCall, EventToolResult,
		EventClarify, EventApproval, EventApprovalResolved, EventPlanReview, EventPlanResolved, EventPlan,
		EventModeChanged, EventRunMode, EventLoopWarning, EventContextCompacted,
		EventFinal, EventError, EventStopped, EventSteer, EventCorrection, EventSteerReturned, EventResumed,
		EventUsage, EventAllowance, EventAllowanceResolved, EventCapture,
	}
	Statuses = []string{StatusRunning, StatusDone, StatusError, StatusStopped}
	Keys     = []string{KeySettings, KeyAgentConv, KeyRunUI, KeyTabChat, KeyAgentRun, KeyAgentSteer, KeyUserMemory, KeyScheduledJobs, KeySavedWorkflows, KeyTeach,
		KeyChatHistory, KeyChatHistoryRecord, KeyChatMeta, KeyDevPatches, KeyCustomSkills,
		KeyUsageDaily, KeyProviderTests, KeySelectionContext, KeyUILanguage}
	Modes         = []string{ModeAuto, ModeAsk, ModeAct, ModeDev}
	Tiers         = []string{TierCompact, TierMid, TierFull}
	Browsers      = []string{BrowserChrome, BrowserFirefox}
	Kinds         = []string{KindOpenAIChat, KindOpenAIResponses, KindAnthropic, KindAzure, KindBedrock}
	Decisions     = []string{DecisionApprove, DecisionApproveSite, DecisionDecline}
	Resolved      = []string{ResolvedUser, ResolvedTimeout, ResolvedStopped, ResolvedCorrection}
	Planners      = []string{PlannerOff, PlannerTry, PlannerStrict}
	Routes        = []string{RouteDecisionModel, RouteDefault, RouteHandOff}
	Reviews       = []string{ReviewStrict, ReviewAlways}
	PlanDecisions = []string{PlanApprove, PlanEdit, PlanReject, PlanSuperseded}
	Compacted     = []string{CompactedAuto, CompactedOverflow}
	FinalReasons  = []string{FinalStepLimit}
	Themes        = []string{ThemeSystem, ThemeLight, ThemeDark}
	Captures      = []string{CaptureScreenshot, CaptureRecord}
	// AllowanceDecisions are allowance_answer's decisions.
	AllowanceDecisions = []string{AllowanceRaise, AllowanceStop}
	Categories         = []string{
		CategorySend, CategoryPublish, CategoryDelete, CategoryPayment, CategoryPurchase, CategoryShare,
		CategoryAccount, CategorySubmit, CategoryTypeData, CategoryNavigate, CategoryFetch, CategorySchedule,
		CategoryDownload, CategoryUpload, CategoryCaptcha, CategoryWebMCP, CategoryResearch,
	}
	Tools = []string{
		ToolGetAccessibilityTree, ToolReadPage, ToolGetSelection, ToolGetWindowInfo, ToolExtractData,
		ToolFetchURL, ToolResearchURL, ToolReadPDF, ToolListDownloads, ToolScroll, ToolWaitForStable, ToolWaitForElement,
		ToolClickAX, ToolTypeAX, ToolSetField, ToolClick, ToolTypeText, ToolPressKeys, ToolNavigate,
		ToolGoBack, ToolGoForward, ToolDownloadFiles, ToolDownloadResource, ToolDownloadSocialMedia,
		ToolReadDownloadedFile, ToolUploadFile, ToolHover, ToolDragDrop, ToolVerifyForm, ToolResizeWindow,
		ToolNewTab, ToolSolveCaptcha, ToolListWebMCPTools, ToolExecuteWebMCPTool, ToolDone, ToolClarify,
		ToolScratchpadWrite, ToolProgressUpdate, ToolProgressRead, ToolScheduleResume, ToolScheduleTask,
		ToolGetInteractive, ToolGetShadowDOM, ToolShadowDOMQuery, ToolGetFrames, ToolPromoteIframe,
		ToolIframeRead, ToolIframeClick, ToolIframeType, ToolLoadSkill,
		ToolReadPageSource, ToolInspectElementStyles, ToolInjectCSS, ToolRemoveInjectedCSS, ToolPatchElement,
		ToolRevertPatch, ToolExecuteJS, ToolReadConsole, ToolInspectNetworkRequests, ToolInspectEventListeners,
		ToolHighlightElement,
	}
	PageEntries = []string{
		PageDoc, PageProbe, PageLinks, PageStatus, PageTrustedPrepare, PageTrustedFinish,
		PageResource, PagePutFile, PageFrames, PageFrameBox, PageViewport, PageCaptcha, PageCaptchaApply,
		PageResearch, PageText, PageRead, PageField, PageTeach,
		PageDevSource, PageDevStyles, PageDevPatch, PageDevUnpatch, PageDevHighlight, PageDevEval, PageDevMark,
	}

	Groups = map[string][]string{
		"ACTION": Actions, "MESSAGE": Messages, "EVENT": Events, "STATUS": Statuses, "STORAGE": Keys,
		"MODE": Modes, "TIER": Tiers, "BROWSER": Browsers, "PROVIDER_KIND": Kinds, "DECISION": Decisions,
		"RESOLVED": Resolved, "COMPACTED": Compacted, "CATEGORY": Categories,
		"PLANNER": Planners, "PLAN_REVIEW": Reviews, "PLAN_DECISION": PlanDecisions, "ROUTE": Routes,
		"FINAL_REASON": FinalReasons, "THEME": Themes,
		"ALLOWANCE_DECISION": AllowanceDecisions, "CAPTURE": Captures,
	}
)
