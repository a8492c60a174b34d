// Package platform declares the small interfaces through which the Go core
// reaches the browser. The JS implementation lives in package jsplatform
// (the only package that imports syscall/js); tests use the in-memory fakes
// in package platformtest or a native implementation over net/http.
//
// Every method takes a context: cancelling it (Stop, a steering correction,
// a worker shutting down) must release the caller promptly.
package platform

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// ErrNoTab is returned when a tab id no longer exists.
var ErrNoTab = errors.New("platform: tab does not exist")

// Tab is what the core needs to know about a browser tab.
type Tab struct {
	ID     int    `json:"id"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status string `json:"status"` // "loading" or "complete"
	// PendingURL is where a navigation that has not committed yet goes
	// (Chrome only; "" otherwise).
	PendingURL string `json:"pendingUrl,omitempty"`
}

// Tabs wraps chrome.tabs / browser.tabs.
type Tabs interface {
	Get(ctx context.Context, tabID int) (Tab, error)
	// Navigate loads url in the tab (tabs.update).
	Navigate(ctx context.Context, tabID int, url string) error
	GoBack(ctx context.Context, tabID int) error
	GoForward(ctx context.Context, tabID int) error
}

// Windows reaches the browser window that shows a tab. It is apart from
// Tabs so that tab fakes need not implement it; nil means unavailable.
type Windows interface {
	// OpenTab opens url in a new tab beside tabID, in its window, without
	// switching to it, and returns the new tab.
	OpenTab(ctx context.Context, tabID int, url string) (Tab, error)
	// Resize sets the outer size of tabID's window (CSS pixels; a
	// maximized or full-screen window becomes a normal one first) and
	// returns the size the browser gave it.
	Resize(ctx context.Context, tabID, width, height int) (Window, error)
	// CloseTab closes a tab WebBrain opened for itself.
	CloseTab(ctx context.Context, tabID int) error
	// ListTabs returns the browser's open tabs, in all windows.
	ListTabs(ctx context.Context) ([]Tab, error)
}

// Window is a browser window's outer size and state.
type Window struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	State  string `json:"state"` // normal, maximized, minimized, fullscreen
}

// Capturer takes a screenshot of the visible part of a tab. It is apart
// from Tabs so that tab fakes need not implement it; a nil Capturer means
// screenshots are unavailable.
type Capturer interface {
	// Capture returns the image's media type and its base64 data.
	Capture(ctx context.Context, tabID int) (mediaType, data string, err error)
}

// Content sends one request to the content script of a tab's top frame and
// returns its JSON reply. Implementations inject the content scripts when
// the page has none yet (a tab opened before the extension was installed).
type Content interface {
	Send(ctx context.Context, tabID int, msg json.RawMessage) (json.RawMessage, error)
}

// Frames reaches the frames of a tab besides its top one (iframes). It is
// apart from Content so that fakes of the top frame need not implement it;
// a nil Frames means only the top frame is reached.
type Frames interface {
	// List describes every frame of the tab the extension can script, the
	// top frame (ID 0) first.
	List(ctx context.Context, tabID int) ([]Frame, error)
	// Send is Content.Send to the content script of one frame, injecting
	// the scripts into that frame when it has none.
	Send(ctx context.Context, tabID, frameID int, msg json.RawMessage) (json.RawMessage, error)
}

// Frame is one frame of a tab as the frame itself reports it.
type Frame struct {
	ID int `json:"frameId"`
	// Path is the frame's place in the tree of windows: its index among
	// its parent's child frames (window.frames), for each level from the
	// top; empty for the top frame, nil for a frame its parent does not
	// count among its child frames (an iframe in a shadow tree).
	Path   []int  `json:"path"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Storage is one storage area (chrome.storage.local or .session).
// Values are JSON documents.
type Storage interface {
	Get(ctx context.Context, keys ...string) (map[string]json.RawMessage, error)
	Set(ctx context.Context, items map[string]json.RawMessage) error
	Remove(ctx context.Context, keys ...string) error
	// Keys lists the stored keys without reading their values, which may
	// be large (a conversation per tab).
	Keys(ctx context.Context) ([]string, error)
}

// Request is an HTTP request made through the browser's fetch.
type Request struct {
	Method   string
	URL      string
	Header   map[string]string
	Body     []byte
	Timeout  time.Duration // 0: none beyond ctx
	Redirect string        // RedirectFollow (""), RedirectManual or RedirectError
}

// Redirect modes of a Request, as in the fetch standard.
const (
	// RedirectFollow follows redirects; Response.URL is where they ended.
	RedirectFollow = ""
	// RedirectManual returns a redirect as the response without following
	// it. A runtime that shows its target gives the 3xx status and the
	// location header; a browser hides both (an opaque redirect): Status
	// is then 0 and the header empty.
	RedirectManual = "manual"
	// RedirectError fails the request with an error when the server
	// answers with a redirect.
	RedirectError = "error"
)

// Response is a fetch response whose Body streams as it arrives.
type Response struct {
	Status int               // 0: an opaque redirect (RedirectManual)
	URL    string            // where the response came from, after any redirects
	Header map[string]string // lower-case names
	Body   io.ReadCloser
}

// Fetcher wraps the browser's fetch. A network failure returns an error;
// an HTTP error status is a normal Response.
type Fetcher interface {
	Fetch(ctx context.Context, req *Request) (*Response, error)
}

// Resolver looks up the addresses of a host name (Firefox's dns.resolve),
// so a public-looking name that leads to a private address can be refused
// before anything is sent. Chrome gives extensions no DNS API: there the
// Resolver is nil and only the name itself can be judged.
type Resolver interface {
	// Resolve returns the addresses as text (IPv4 dotted, IPv6).
	Resolve(ctx context.Context, host string) ([]string, error)
}

// Debugger wraps chrome.debugger (CDP). Firefox has none: a nil Debugger
// means trusted input is unavailable and tools fall back to synthetic events.
//
// While attached to a tab the debugger answers the page's native JavaScript
// dialogs at once, so a dialog never blocks a run: alerts are acknowledged,
// confirmations and prompts dismissed, and a beforeunload warning chooses
// Stay unless ArmDialogs granted Leave for it.
type Debugger interface {
	Send(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error)
	Detach(ctx context.Context, tabID int) error
	// ArmDialogs attaches to the tab so its dialogs are answered. A
	// non-empty leaveFrom lets the next beforeunload warning from the
	// top-level page at that URL choose Leave, once, within ten seconds;
	// an empty one revokes that permission.
	ArmDialogs(ctx context.Context, tabID int, leaveFrom string) error
	// Dialogs returns, oldest first, the dialogs answered in the tab since
	// the last call, and forgets them.
	Dialogs(ctx context.Context, tabID int) ([]Dialog, error)
}

// WebMCP reaches the tools a page registered through Chrome's
// experimental WebMCP DevTools domain; nil where there is none (Firefox).
// Everything it returns was written by the page.
type WebMCP interface {
	// Tools enables the domain in the tab (attaching the debugger) and
	// returns the tools registered there, each with the URL and origin its
	// frame has now.
	Tools(ctx context.Context, tabID int) ([]WebMCPTool, error)
	// Invoke runs a tool in its frame and waits for its answer (at most 30
	// s, then it is cancelled); ctx ending cancels it too.
	Invoke(ctx context.Context, tabID int, frameID, name string, input json.RawMessage) (WebMCPResult, error)
}

// WebMCPTool is one registration (WebMCP.Tool) with its frame's address.
type WebMCPTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations map[string]bool `json:"annotations"`
	FrameID     string          `json:"frameId"`
	FrameURL    string          `json:"frameUrl"`
	FrameOrigin string          `json:"frameOrigin"`
}

// WebMCPResult is an invocation's answer (WebMCP.toolResponded): status
// Completed with its output, Error with errorText, or Canceled.
type WebMCPResult struct {
	Status    string          `json:"status"`
	Output    json.RawMessage `json:"output"`
	ErrorText string          `json:"errorText"`
}

// Dialog is one native JavaScript dialog the debugger answered.
type Dialog struct {
	Type     string `json:"type"` // alert, confirm, prompt or beforeunload
	Message  string `json:"message"`
	URL      string `json:"url"`      // the page that opened it
	Accepted bool   `json:"accepted"` // OK / Leave; false is Cancel / Stay
}

// Download is one entry of the browser's downloads list.
type Download struct {
	ID        int    `json:"id"`
	URL       string `json:"url"`      // where the file came from, after redirects
	Filename  string `json:"filename"` // its path on disk
	Mime      string `json:"mime"`
	State     string `json:"state"` // in_progress, complete or interrupted
	Error     string `json:"error"` // why it was interrupted
	Bytes     int64  `json:"bytes"` // received so far
	Total     int64  `json:"total"` // the file's size; 0 or less when unknown
	StartTime string `json:"startTime"`
	// Mine marks a download WebBrain started (the browser's
	// byExtensionId); only these may be read back or uploaded.
	Mine bool `json:"mine"`
}

// Downloads wraps chrome.downloads / browser.downloads.
type Downloads interface {
	// Download saves url in the browser's download folder under the name
	// the server or the URL gives, and waits until it completes or fails.
	// A file that grows past maxBytes is cancelled.
	Download(ctx context.Context, url string, maxBytes int64) (Download, error)
	// Get returns one download by id.
	Get(ctx context.Context, id int) (Download, error)
	// Recent returns up to limit downloads, newest first.
	Recent(ctx context.Context, limit int) ([]Download, error)
	// Save writes data (base64) of mediaType as a new file named
	// filename (a path relative to the download folder) and waits until
	// it is written.
	Save(ctx context.Context, filename, mediaType, data string) (Download, error)
}

// PDF extracts the text of a PDF with pdf.js, in an extension context
// that can run it (Chrome's offscreen document, Firefox's background page).
type PDF interface {
	// Text returns the text of the first maxPages pages, one string per
	// page, and the document's page count.
	Text(ctx context.Context, data []byte, maxPages int) (pages []string, total int, err error)
}

// StyleSheets adds and removes CSS in a tab's top document
// (chrome.scripting.insertCSS/removeCSS): Dev mode's inject_css. Removal
// needs the exact text that was inserted.
type StyleSheets interface {
	InsertCSS(ctx context.Context, tabID int, css string) error
	RemoveCSS(ctx context.Context, tabID int, css string) error
}

// DevCapture is Dev mode's bounded record of a tab's console and network
// requests through the debugger (Runtime, Log and Network domains).
// Sensitive header values are redacted before they are kept; bodies are
// never kept.
type DevCapture interface {
	// StartCapture attaches and starts recording; again is a no-op.
	StartCapture(ctx context.Context, tabID int) error
	// StopCapture drops the records and disables the domains.
	StopCapture(ctx context.Context, tabID int) error
	// Captured returns what was recorded so far, oldest first.
	Captured(ctx context.Context, tabID int) (Captured, error)
}

// Captured is a DevCapture's record of one tab.
type Captured struct {
	Capturing bool           `json:"capturing"`
	Console   []ConsoleEntry `json:"console"`
	Network   []NetworkEntry `json:"network"`
	Dropped   int            `json:"dropped"` // entries the bounds pushed out
}

// ConsoleEntry is one console message, uncaught error or browser warning.
type ConsoleEntry struct {
	Level  string  `json:"level"` // error, warning, info, log, debug
	Source string  `json:"source"`
	Text   string  `json:"text"`
	URL    string  `json:"url"`
	Line   int     `json:"line"`
	Time   float64 `json:"time"` // ms since the epoch
}

// NetworkEntry is one request.
type NetworkEntry struct {
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	Type            string            `json:"type"` // Fetch, XHR, Document, Script, …
	Status          int               `json:"status"`
	StatusText      string            `json:"statusText"`
	MimeType        string            `json:"mimeType"`
	Failed          string            `json:"failed"` // the network error, if it failed
	RequestHeaders  map[string]string `json:"requestHeaders"`
	ResponseHeaders map[string]string `json:"responseHeaders"`
	Time            float64           `json:"time"`
}

// Alarms wraps chrome.alarms; used for the keepalive while a run is active.
type Alarms interface {
	Create(name string, period time.Duration) error
	// At sets a one-time alarm that fires at when (or at once, when it
	// has passed); the same name replaces an earlier alarm.
	At(name string, when time.Time) error
	Clear(name string) error
}

// Clock is time, injectable for tests.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// Notifier shows a system notification (chrome.notifications), for what
// happens while the user is not watching: a scheduled job's end, or its
// run waiting on a card. nil where there is none. Title and message are
// English with their catalog keys: the browser side shows them in the
// interface language (docs/decisions/background-texts.md).
type Notifier interface {
	Notify(ctx context.Context, id string, title, message uitext.Text) error
}

// Tones of Sound.Play: a watch's /beep alert.
const (
	ToneDefault = "default"
	ToneShort   = "short"
	ToneLong    = "long"
)

// Sound plays an alert tone: Chrome's offscreen document or Firefox's
// background page generates it with Web Audio. Play returns once the
// tone has played; an error says why it could not (the browser kept the
// audio context suspended, no document could be opened).
type Sound interface {
	Play(ctx context.Context, tone string) error
}

// Recorder films a tab while a run goes on (/record, Chrome): Start
// begins (or, after a worker restart, goes on with) the film of a tab;
// Stop ends it and saves it as filename (a path relative to the download
// folder), returning the saved file.
type Recorder interface {
	Start(ctx context.Context, tabID int) error
	Stop(ctx context.Context, tabID int, filename string) (Download, error)
}

// Broadcaster delivers an event to every open extension page (the panel).
// Delivery is best effort: no panel open is not an error.
type Broadcaster interface {
	Broadcast(msg any)
}

// Tracer keeps run traces (docs/decisions/traces.md): Put stores a run's
// trace (webbrain-trace/1's run object), replacing the earlier version of
// the same run, and applies the retention rules.
type Tracer interface {
	Put(ctx context.Context, run json.RawMessage) error
}

// Platform bundles everything the background needs.
type Platform struct {
	Tabs     Tabs
	Windows  Windows  // nil: no new tabs or window sizes
	Capture  Capturer // nil: no screenshots
	Content  Content
	Frames   Frames  // nil: the top frame only
	Local    Storage // chrome.storage.local: settings
	Session  Storage // chrome.storage.session: conversations, run journals
	Fetch    Fetcher
	Resolve  Resolver // nil in Chrome
	Debugger Debugger // nil in Firefox
	// Downloads and PDF are nil where the browser offers neither (tests).
	Downloads Downloads
	PDF       PDF
	WebMCP    WebMCP // nil in Firefox
	Alarms    Alarms
	Clock     Clock
	UI        Broadcaster
	Browser   string // "chrome" or "firefox"
	Self      Extension
	Traces    Tracer      // nil: traces cannot be recorded here
	Notify    Notifier    // nil: no system notifications
	Sound     Sound       // nil: no alert tones
	Record    Recorder    // nil: no run recordings (Firefox)
	CSS       StyleSheets // Dev mode's inject_css (Chrome); nil in Firefox
	Dev       DevCapture  // Dev mode's console and network capture (Chrome); nil in Firefox
}

// Extension identifies WebBrain itself: runtime messages are answered only
// when their sender is one of its own pages.
type Extension struct {
	ID     string // runtime.id
	Origin string // the origin of runtime.getURL(""), e.g. "chrome-extension://<id>"
	// Version is the manifest's version: exports and traces name it.
	Version string
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time                         { return time.Now() }
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
