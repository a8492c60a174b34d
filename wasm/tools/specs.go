package tools

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// catalog lists every tool in the order the model sees them: reading
// first, then acting, then finishing.
var catalog = []tool{
	{
		name: protocol.ToolGetAccessibilityTree,
		desc: "Read the page as a compact accessibility tree: one line per element with its role, name and a ref like \"ref_12\" that the *_ax tools accept. " +
			"Start with filter \"interactive\" to find controls (a short page comes whole, its text included), \"visible\" for what is on screen, \"all\" for the whole document. " +
			"Pass refId to read only that element's subtree. A long tree is cut into pages: when the result says it continues, call again with the same arguments plus the continuation value it gives.",
		params: treeParams(pageBudget), // ForMode advertises the provider's window
		cols:   colAll, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolReadPage,
		desc: "Read the visible text of the page in reading order (headings, paragraphs, lists, tables). Use it to answer questions about the content. " +
			"A long page is cut into parts: when the result says it continues, call again with the continuation value it gives.",
		params: `{"type":"object","properties":{` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}}}`,
		cols: colAll, runs: inContent, readOnly: true,
	},
	{
		name:   protocol.ToolGetSelection,
		desc:   "Return the text the user has selected on the page, or say that nothing is selected.",
		params: `{"type":"object","properties":{}}`,
		cols:   colAll, runs: inContent, readOnly: true,
	},
	{
		name:   protocol.ToolGetWindowInfo,
		desc:   "Return the page URL and title, the viewport size, the scroll position and the document size.",
		params: `{"type":"object","properties":{}}`,
		cols:   colAll, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolExtractData,
		desc: "Extract structured data from the page or from one element: a table as rows of cells, a list as items, links as text and URL, headings as an outline, a form as its fields and values.",
		params: `{"type":"object","properties":{` +
			`"kind":{"type":"string","enum":["table","list","links","headings","form"],"description":"what to extract"},` +
			`"ref":{"type":"string","description":"ref of the element to extract from; omit for the whole page"},` +
			`"maxRows":{"type":"integer","minimum":1,"maximum":1000,"description":"most rows or items to return"}},"required":["kind"]}`,
		cols: colAll, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolVerifyForm,
		desc: "Read back every field of a form before or after submitting it: label, type, current value (passwords and secrets masked), checked and selected state, whether it is required, " +
			"whether it is valid with the browser's validation message, aria-invalid, and the error text the page shows next to it. Pass the ref of the form (or of an element around the fields); omit it for every field on the page. It changes nothing.",
		params: `{"type":"object","properties":{"ref":{"type":"string","description":"ref of the form or of an element that contains the fields; omit for the whole page"}}}`,
		cols:   colMid | colFull, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolListWebMCPTools,
		desc: "List the tools this page registered through WebMCP (experimental): each with an id like wmcp_3, its name, description and input schema, all written by the page. " +
			"Their names and annotations are the page's claims, not facts.",
		params: `{"type":"object","properties":{}}`,
		cols:   colAsk | colMid | colFull, runs: inBackground, readOnly: true, chromeOnly: true, feature: FeatureWebMCP,
	},
	{
		name: protocol.ToolFetchURL,
		desc: "Read another web page by its URL without leaving the current page. It is a plain GET without the user's cookies or logins, so it sees what a signed-out visitor sees; it cannot submit forms or send any other request. " +
			"It returns the readable text of an HTML page, or plain text, Markdown or JSON as it is. Addresses on this computer or a local network are refused unless the tab is showing that same host. " +
			"To click or type on a page, navigate to it instead. A long document is cut into parts: when the result says it continues, call again with the continuation value it gives.",
		params: `{"type":"object","properties":{` +
			`"url":{"type":"string","description":"absolute http(s) URL"},` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}},"required":["url"]}`,
		cols: colAll, runs: inBackground, readOnly: true,
	},
	{
		name: protocol.ToolResearchURL,
		desc: "Read another web page as the browser shows it, with its scripts run: it opens in a background tab with the user's logins, is read and closed. Use it when fetch_url returns an empty or script-only page. " +
			"It goes only where fetch_url may go, never to addresses on this computer or a local network unless the tab shows that host. A long page is cut into parts: when the result says it continues, call again with the continuation value it gives.",
		params: `{"type":"object","properties":{` +
			`"url":{"type":"string","description":"absolute http(s) URL"},` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}},"required":["url"]}`,
		cols: colAsk | colMid | colFull, runs: inBackground, readOnly: true,
	},
	{
		name: protocol.ToolReadPDF,
		desc: "Read the text of a PDF: the PDF this tab shows (omit url), or a PDF link by its URL. Like fetch_url it reads without the user's cookies. " +
			"The text comes page by page, each marked [Page n]. A long document is cut into parts: when the result says it continues, call again with the continuation value it gives.",
		params: `{"type":"object","properties":{` +
			`"url":{"type":"string","description":"absolute http(s) URL of the PDF; omit for the PDF open in this tab"},` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}}}`,
		cols: colAsk | colMid | colFull, runs: inBackground, readOnly: true,
	},
	{
		name: protocol.ToolListDownloads,
		desc: "List the browser's recent downloads, newest first: id, file name, the host it came from, size, state and type. " +
			"Entries marked \"by WebBrain\" were downloaded by you; only those can be read with read_downloaded_file or given to upload_file.",
		params: `{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":50,"description":"most entries (default 20)"}}}`,
		cols:   colAsk | colMid | colFull, runs: inBackground, readOnly: true,
	},
	{
		name: protocol.ToolScroll,
		desc: "Scroll the page or bring an element into view. Give direction (and optionally amount in pixels, default most of a screen; top and bottom jump to the ends), or ref to scroll that element into view. A ref with a direction scrolls inside the box that holds it (the tree marks a box that scrolls by itself scroll=down, up,down or up).",
		params: `{"type":"object","properties":{` +
			`"direction":{"type":"string","enum":["up","down","left","right","top","bottom"]},` +
			`"amount":{"type":"integer","minimum":1,"description":"pixels to scroll"},` +
			`"ref":{"type":"string","description":"ref of an element to scroll into view, or with direction of a box to scroll inside"}}}`,
		cols: colAll, runs: inContent, readOnly: true,
		check: requireOne("direction", "ref"),
	},
	{
		name: protocol.ToolWaitForStable,
		desc: "Wait until the page stops changing (no DOM mutations and no pending loads for a moment), up to timeoutMs. Use it after an action that loads content.",
		params: `{"type":"object","properties":{` +
			`"timeoutMs":{"type":"integer","minimum":100,"maximum":20000,"description":"longest wait (default 5000)"},` +
			`"quietMs":{"type":"integer","minimum":100,"maximum":5000,"description":"how long the page must stay unchanged (default 500)"}}}`,
		cols: colAsk | colMid | colFull, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolWaitForElement,
		desc: "Wait until an element matching a CSS selector, or containing a text, appears on the page, up to timeoutMs.",
		params: `{"type":"object","properties":{` +
			`"selector":{"type":"string","description":"CSS selector"},` +
			`"text":{"type":"string","description":"text the element contains"},` +
			`"state":{"type":"string","enum":["visible","attached","hidden"],"description":"wait until it is visible (default), merely in the DOM, or gone"},` +
			`"timeoutMs":{"type":"integer","minimum":100,"maximum":20000,"description":"longest wait (default 5000)"}}}`,
		cols: colActAll, runs: inContent, readOnly: true,
		check: requireOne("selector", "text"),
	},
	{
		name:   protocol.ToolClickAX,
		desc:   "Click the element with this ref from get_accessibility_tree. This is the preferred way to click.",
		params: `{"type":"object","properties":{"ref":{"type":"string","description":"element ref, e.g. ref_12"}},"required":["ref"]}`,
		cols:   colActAll, runs: inContent, mayNavigate: true,
	},
	{
		name: protocol.ToolTypeAX,
		desc: "Type text into the input, text area or editable element with this ref. It replaces the current value unless clear is false; submit presses Enter afterwards.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"element ref, e.g. ref_12"},` +
			`"text":{"type":"string"},` +
			`"clear":{"type":"boolean","description":"replace the current value (default true); false appends"},` +
			`"submit":{"type":"boolean","description":"press Enter after typing (default false)"}},"required":["ref","text"]}`,
		cols: colActAll, runs: inContent, mayNavigate: true,
	},
	{
		name: protocol.ToolSetField,
		desc: "Set a form control with this ref directly: value for a text field or single select, values for a multi-select, checked for a checkbox or radio button.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"element ref, e.g. ref_12"},` +
			`"value":{"type":"string"},` +
			`"values":{"type":"array","items":{"type":"string"}},` +
			`"checked":{"type":"boolean"}},"required":["ref"]}`,
		cols: colActAll, runs: inContent,
		check: requireOne("value", "values", "checked"),
	},
	{
		name: protocol.ToolClick,
		desc: "Click an element by ref, or a point by viewport coordinates x,y (CSS pixels). Prefer click_ax; use coordinates only for things the tree does not show.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"element ref, e.g. ref_12"},` +
			`"x":{"type":"number"},"y":{"type":"number"}}}`,
		cols: colActAll, runs: inContent, mayNavigate: true,
		check: refOrPoint,
	},
	{
		name:   protocol.ToolTypeText,
		desc:   "Type text into the element that has focus.",
		params: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		cols:   colActAll, runs: inContent,
	},
	{
		name:   protocol.ToolPressKeys,
		desc:   "Press a key or key combination on the focused element, e.g. \"Enter\", \"Tab\", \"Escape\", \"Control+a\", \"Shift+ArrowDown\". Separate several presses with spaces.",
		params: `{"type":"object","properties":{"keys":{"type":"string","description":"keys, modifiers joined with +"}},"required":["keys"]}`,
		cols:   colActAll, runs: inContent, mayNavigate: true,
	},
	{
		name: protocol.ToolHover,
		desc: "Move the mouse pointer over the element with this ref, or to viewport coordinates x,y (CSS pixels), without clicking: opens menus, submenus and tooltips that appear on hover. " +
			"The result says what became visible; click_ax the item you need next while the pointer stays there.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"element ref, e.g. ref_12"},` +
			`"x":{"type":"number"},"y":{"type":"number"}}}`,
		cols: colFull, runs: inContent,
		check: refOrPoint,
	},
	{
		name: protocol.ToolDragDrop,
		desc: "Drag an element and drop it on another: reorder a sortable list, move a card to another column, drop an item on a drop zone. Give the source by sourceRef (or sourceX,sourceY) and the target by targetRef (or targetX,targetY). " +
			"method auto (default) uses HTML5 drag and drop for draggable elements and a pressed-pointer drag otherwise; html5 or pointer forces one. The result reports where the element ended up.",
		params: `{"type":"object","properties":{` +
			`"sourceRef":{"type":"string","description":"ref of the element to drag"},` +
			`"sourceX":{"type":"number"},"sourceY":{"type":"number"},` +
			`"targetRef":{"type":"string","description":"ref of the element to drop on"},` +
			`"targetX":{"type":"number"},"targetY":{"type":"number"},` +
			`"method":{"type":"string","enum":["auto","html5","pointer"]}}}`,
		cols: colFull, runs: inContent,
		check: dragEnds,
	},
	{
		name:   protocol.ToolNavigate,
		desc:   "Load an http or https URL in the current tab and wait for it to finish loading.",
		params: `{"type":"object","properties":{"url":{"type":"string","description":"absolute http(s) URL"}},"required":["url"]}`,
		cols:   colActAll, runs: inTabs,
	},
	{
		name:   protocol.ToolGoBack,
		desc:   "Go back one page in the tab's history and wait for it to load.",
		params: `{"type":"object","properties":{}}`,
		cols:   colMid | colFull, runs: inTabs,
	},
	{
		name:   protocol.ToolGoForward,
		desc:   "Go forward one page in the tab's history and wait for it to load.",
		params: `{"type":"object","properties":{}}`,
		cols:   colMid | colFull, runs: inTabs,
	},
	{
		name: protocol.ToolDownloadFiles,
		desc: "Download files the page links to (at most 10, each up to 100 MB) into the browser's download folder, as clicking their links would. " +
			"Give the links' absolute URLs as the page shows them. Returns each download's id, file name, size and type.",
		params: `{"type":"object","properties":{` +
			`"urls":{"type":"array","minItems":1,"maxItems":10,"items":{"type":"string"},"description":"absolute http(s) URLs of links on the page"}},"required":["urls"]}`,
		cols: colMid | colFull, runs: inBackground,
	},
	{
		name: protocol.ToolDownloadResource,
		desc: "Download the image, video, audio, embedded document or linked file that the element with this ref shows or links to (its src or href) into the browser's download folder. " +
			"For media the tree shows without a ref, give its address as url: it must be one the page shows.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"ref of a link or an img, video, audio, object or embed element, or of an element around one"},` +
			`"url":{"type":"string","description":"absolute URL of an image, video, audio or document the page shows"}}}`,
		cols: colMid | colFull, runs: inBackground,
		check: requireOne("ref", "url"),
	},
	{
		name: protocol.ToolDownloadSocialMedia,
		desc: "Download a public image, video or audio file that a social media post on this page shows, by the ref of the media element or its direct media URL. " +
			"Only public media: it must be reachable without the user's login. Streamed videos (blob: sources) and post links that need a resolver service cannot be saved.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"ref of the img, video or audio element"},` +
			`"url":{"type":"string","description":"direct http(s) URL of the media file as the page shows it"}}}`,
		cols: colMid | colFull, runs: inBackground,
		check: requireOne("ref", "url"),
	},
	{
		name: protocol.ToolReadDownloadedFile,
		desc: "Read the text of a file you downloaded (by the id download_files or list_downloads gave): plain text, CSV, JSON, Markdown, XML or PDF. " +
			"A long file is cut into parts: when the result says it continues, call again with the continuation value it gives.",
		params: `{"type":"object","properties":{` +
			`"downloadId":{"type":"integer","description":"the download's id"},` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}},"required":["downloadId"]}`,
		cols: colMid | colFull, runs: inBackground, readOnly: true,
	},
	{
		name: protocol.ToolUploadFile,
		desc: "Give a file you downloaded (by its download id, at most 10 MB) to the page: into the file input with this ref, or dropped onto the drop zone with this ref. " +
			"The page then has the file as if the user had chosen it; a form still needs its own submit.",
		params: `{"type":"object","properties":{` +
			`"downloadId":{"type":"integer","description":"the download's id"},` +
			`"ref":{"type":"string","description":"ref of an <input type=file> (or its label) or of a drop zone"}},"required":["downloadId","ref"]}`,
		cols: colMid | colFull, runs: inBackground,
	},
	{
		name: protocol.ToolResizeWindow,
		desc: "Resize the browser window that shows the page to width x height (outer size in CSS pixels), for a page whose layout depends on the window's size. The result gives the page's new viewport size.",
		params: `{"type":"object","properties":{` +
			`"width":{"type":"integer","minimum":` + itoa(minWindowWidth) + `,"maximum":` + itoa(maxWindowWidth) + `},` +
			`"height":{"type":"integer","minimum":` + itoa(minWindowHeight) + `,"maximum":` + itoa(maxWindowHeight) + `}},"required":["width","height"]}`,
		cols: colFull, runs: inBackground,
	},
	{
		name: protocol.ToolNewTab,
		desc: "Open an http or https URL in a new background tab for the user, only when the user asked for a separate tab. " +
			"This run keeps working on its own tab: it cannot read or act on the new one. To read another page use fetch_url; to act on it, navigate this tab.",
		params: `{"type":"object","properties":{"url":{"type":"string","description":"absolute http(s) URL"}},"required":["url"]}`,
		cols:   colActAll, runs: inBackground,
	},
	{
		name: protocol.ToolSolveCaptcha,
		desc: "Solve the reCAPTCHA v2 or Cloudflare Turnstile widget on this page with the CAPTCHA solver service the user configured in WebBrain's settings, and put its answer into the page's form. " +
			"Without a configured solver it fails: then ask the user with clarify to solve the CAPTCHA by hand. Never try to get around a CAPTCHA another way.",
		params: `{"type":"object","properties":{}}`,
		cols:   colMid | colFull, runs: inBackground,
	},
	{
		name: protocol.ToolExecuteWebMCPTool,
		desc: "Run a tool the page registered through WebMCP, by its id from list_webmcp_tools, with input matching its schema. The user approves every call. Its output is the page's.",
		params: `{"type":"object","properties":{` +
			`"toolId":{"type":"string","description":"id from list_webmcp_tools, e.g. wmcp_3"},` +
			`"input":{"type":"object","description":"the tool's input, as its schema says"}},"required":["toolId"]}`,
		cols: colMid | colFull, runs: inBackground, chromeOnly: true, feature: FeatureWebMCP,
	},
	{
		name: protocol.ToolDone,
		desc: "Finish the task. summary is your answer to the user in Markdown: what you did and found. status is success when the task is complete, partial when only part is done, failed when it could not be done.",
		params: `{"type":"object","properties":{` +
			`"summary":{"type":"string"},` +
			`"status":{"type":"string","enum":["success","partial","failed"]}},"required":["summary","status"]}`,
		cols: colAll, runs: inAgent, readOnly: true,
	},
	{
		name: protocol.ToolClarify,
		desc: "Ask the user a question when the task is ambiguous or needs a decision only they can make, and wait for the answer. Offer short options when the choices are known.",
		params: `{"type":"object","properties":{` +
			`"question":{"type":"string"},` +
			`"options":{"type":"array","items":{"type":"string"}}},"required":["question"]}`,
		cols: colActAll, runs: inAgent, readOnly: true,
	},
	{
		name: protocol.ToolProgressUpdate,
		desc: "Keep the progress ledger of a task with several items (messages to answer, rows to fill, products to compare): add items and set each one's status as you work. " +
			"Items are matched by their name. It survives when older messages are summarised, and WebBrain checks it when you call done: a task is not complete while items are pending.",
		params: `{"type":"object","properties":{"items":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{` +
			`"item":{"type":"string","description":"the item's short name, the same every time"},` +
			`"status":{"type":"string","enum":["pending","in_progress","done","failed","skipped"]},` +
			`"note":{"type":"string","description":"what was done or why it failed or was skipped"}},"required":["item","status"]}}},"required":["items"]}`,
		cols: colActAll, runs: inAgent, readOnly: true,
	},
	{
		name:   protocol.ToolProgressRead,
		desc:   "Read the progress ledger and the scratchpad: every item with its status and note.",
		params: `{"type":"object","properties":{}}`,
		cols:   colActAll, runs: inAgent, readOnly: true,
	},
	{
		name: protocol.ToolScheduleResume,
		desc: "Pause this task and continue it later in this tab, when it waits on something outside the browser (a build, an email, a delivery). Give after_seconds (at least 60) or run_at (RFC 3339), the reason, and resume_instruction: what to do when it continues. The run ends now.",
		params: `{"type":"object","properties":{` +
			`"after_seconds":{"type":"integer","minimum":60,"maximum":31622400},` +
			`"run_at":{"type":"string","description":"date and time, RFC 3339, e.g. 2026-12-24T09:00:00+01:00"},` +
			`"reason":{"type":"string"},` +
			`"resume_instruction":{"type":"string","description":"what to do when the task continues"}},"required":["reason","resume_instruction"]}`,
		cols: colMid | colFull, runs: inAgent,
		check: requireOne("after_seconds", "run_at"),
	},
	{
		name: protocol.ToolScheduleTask,
		desc: "Create a task that runs later in this tab, once or repeatedly, only when the user explicitly asks for scheduled or repeated work (\"every morning\", \"in an hour\"). prompt is what the run will do, in the user's words and language. The user approves it on a card. " +
			"schedule: kind once with after_seconds (0 = now, else at least 60) or run_at; kind recurring with interval_minutes (1 to 525600) and optionally after_seconds or run_at for the first run. target: this tab (current_tab, the default) or a page the task opens in a background tab of its own (url).",
		params: `{"type":"object","properties":{` +
			`"title":{"type":"string"},` +
			`"prompt":{"type":"string"},` +
			`"mode":{"type":"string","enum":["ask","act"]},` +
			`"schedule":{"type":"object","properties":{` +
			`"kind":{"type":"string","enum":["once","recurring"]},` +
			`"after_seconds":{"type":"integer","minimum":0,"maximum":31622400},` +
			`"run_at":{"type":"string"},` +
			`"interval_minutes":{"type":"integer","minimum":1,"maximum":525600}},"required":["kind"]},` +
			`"target":{"type":"object","properties":{"kind":{"type":"string","enum":["current_tab","url"]},"url":{"type":"string","description":"for kind url: the page the task opens in a background tab of its own"}}}},"required":["prompt","schedule"]}`,
		cols: colMid | colFull, runs: inAgent,
	},
	{
		name: protocol.ToolScratchpadWrite,
		desc: "Write a short note to your scratchpad: values you found and still need (prices, names, codes the user asked for), so they are not lost when older messages are summarised. " +
			"It replaces the note unless append is true.",
		params: `{"type":"object","properties":{` +
			`"text":{"type":"string"},` +
			`"append":{"type":"boolean","description":"add to the note instead of replacing it"}},"required":["text"]}`,
		cols: colActAll, runs: inAgent, readOnly: true,
	},
	{
		name: protocol.ToolGetInteractive,
		desc: "List every control of the page in one flat list: links, buttons, fields, checkboxes and the like, also those inside web components (shadow DOM) and same-origin frames, each with its role, name, value or state and ref. " +
			"Use it on pages built from web components, or to find a control quickly.",
		params: `{"type":"object","properties":{` +
			`"maxItems":{"type":"integer","minimum":1,"maximum":500,"description":"most controls to list (default 200)"}}}`,
		cols: colAsk | colMid | colFull, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolGetShadowDOM,
		desc: "Show the open shadow roots (web components' insides) of an element, or of the whole page without ref: each host and its shadow tree as tags, ids, classes, text and refs. Where the browser allows, the page's closed roots follow, without refs.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"ref of the host or of an element around hosts; omit for the whole page"},` +
			`"maxDepth":{"type":"integer","minimum":1,"maximum":30,"description":"levels of each shadow tree to show (default 12)"}}}`,
		cols: colFull | colDev, runs: inContent, readOnly: true,
	},
	{
		name: protocol.ToolShadowDOMQuery,
		desc: "Find elements by CSS selector inside the page's shadow roots, open and closed. Matches in open roots come with refs; matches in closed roots come with the x,y to click them at.",
		params: `{"type":"object","properties":{` +
			`"selector":{"type":"string","description":"CSS selector, matched inside each shadow root"},` +
			`"maxResults":{"type":"integer","minimum":1,"maximum":100,"description":"most matches to return (default 30)"}},"required":["selector"]}`,
		cols: colFull | colDev, runs: inContent, readOnly: true, chromeOnly: true,
	},
	{
		name:   protocol.ToolGetFrames,
		desc:   "List the frames (iframes) of the tab: id, URL, same-origin or cross-origin, size, and the ref of the iframe in the page's tree.",
		params: `{"type":"object","properties":{}}`,
		cols:   colFull | colDev, runs: inFrame, readOnly: true,
	},
	{
		name: protocol.ToolPromoteIframe,
		desc: "Make a frame the target of the following reads and of actions without a ref (get_accessibility_tree, read_page, type_text, press_keys, click at x,y), for a task that lives inside an embedded frame (a payment form, a chat widget, an editor). " +
			"frame is the iframe's ref in the tree or a frame id from get_frames; \"f0\" returns to the page. To open the frame's page on its own, navigate to its URL instead.",
		params: `{"type":"object","properties":{"frame":{"type":"string","description":"ref of the iframe (ref_7), a frame id (f3), or f0 for the page"}},"required":["frame"]}`,
		cols:   colMid | colFull, runs: inFrame, readOnly: true,
	},
	{
		name: protocol.ToolIframeRead,
		desc: "Read a frame (iframe) of the page, also a cross-origin one, as an accessibility tree whose refs look like f3:ref_12 (or its text with text true). iframe_click and iframe_type take those refs.",
		params: `{"type":"object","properties":{` +
			`"frame":{"type":"string","description":"ref of the iframe in the page's tree (ref_7) or a frame id from get_frames (f3)"},` +
			`"text":{"type":"boolean","description":"read the frame's text instead of its tree"},` +
			`"filter":{"type":"string","enum":["interactive","visible","all"]},` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000},` +
			`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}},"required":["frame"]}`,
		cols: colMid | colFull, runs: inFrame, readOnly: true,
	},
	{
		name:   protocol.ToolIframeClick,
		desc:   "Click an element inside a frame by the ref iframe_read gave (like f3:ref_12).",
		params: `{"type":"object","properties":{"ref":{"type":"string","description":"element ref from iframe_read, e.g. f3:ref_12"}},"required":["ref"]}`,
		cols:   colMid | colFull, runs: inFrame, page: protocol.ToolClickAX, mayNavigate: true,
	},
	{
		name: protocol.ToolIframeType,
		desc: "Type text into a field inside a frame by the ref iframe_read gave (like f3:ref_12). It replaces the current value unless clear is false; submit presses Enter afterwards.",
		params: `{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"element ref from iframe_read, e.g. f3:ref_12"},` +
			`"text":{"type":"string"},` +
			`"clear":{"type":"boolean","description":"replace the current value (default true); false appends"},` +
			`"submit":{"type":"boolean","description":"press Enter after typing (default false)"}},"required":["ref","text"]}`,
		cols: colMid | colFull, runs: inFrame, page: protocol.ToolTypeAX, mayNavigate: true,
	},
}

// requireOne accepts arguments that carry at least one of the names.
func requireOne(names ...string) func(map[string]any) error {
	return func(args map[string]any) error {
		for _, n := range names {
			if _, ok := args[n]; ok {
				return nil
			}
		}
		return errors.New("give one of: " + strings.Join(names, ", "))
	}
}

// dragEnds accepts a source and a target, each a ref or both coordinates.
func dragEnds(args map[string]any) error {
	for _, end := range []string{"source", "target"} {
		if _, ok := args[end+"Ref"]; ok {
			continue
		}
		_, hasX := args[end+"X"]
		_, hasY := args[end+"Y"]
		if !hasX || !hasY {
			return fmt.Errorf("give %sRef, or both %sX and %sY", end, end, end)
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

func refOrPoint(args map[string]any) error {
	if _, ok := args["ref"]; ok {
		return nil
	}
	_, hasX := args["x"]
	_, hasY := args["y"]
	if hasX && hasY {
		return nil
	}
	return errors.New("give ref, or both x and y")
}
