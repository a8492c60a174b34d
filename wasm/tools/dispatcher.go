package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// Dispatcher runs tool calls against one tab in one mode and tier. It
// implements agent.Executor.
type Dispatcher struct {
	p       platform.Platform
	tabID   int
	mode    string
	tier    string
	browser string
	clock   platform.Clock
	b       Boundary // the run's untrusted-content boundary
	window  ReadWindow
	// lastFetch is the last document fetch_url, read_pdf or
	// read_downloaded_file read, for its continuations.
	lastFetch *fetched
	// allowed are the private hosts the user named (AllowHosts).
	allowed []allowedHost
	// frame is the frame promote_iframe made the target of reads and of
	// actions without a ref (0: the top page); frames.go.
	frame int
	// features are the opt-in settings that are on (WithFeatures).
	features []Feature
	// captchaKey is the user's CAPTCHA solver key; "" for none.
	captchaKey string
	// tabsOpened counts new_tab's tabs in this run.
	tabsOpened int
	// webmcp are the WebMCP registrations given ids, by frame and name.
	webmcp map[string]*webmcpEntry
	// mastodon are the hosts verified as Mastodon instances in this run
	// (verifyMastodon).
	mastodon map[string]bool
	// pageReader and readings let page reads find and apply walls
	// (walls.go); gate is the wall the last page read applied.
	pageReader PageReader
	readings   *Readings
	gateMu     sync.Mutex
	gate       PageGate
}

// NewDispatcher returns a Dispatcher for the tab that wraps page content
// in b, the run's boundary. A nil p.Clock means the wall clock.
func NewDispatcher(p platform.Platform, tabID int, mode, tier, browser string, b Boundary) *Dispatcher {
	clock := p.Clock
	if clock == nil {
		clock = platform.RealClock{}
	}
	return &Dispatcher{p: p, tabID: tabID, mode: mode, tier: tier, browser: browser, b: b, clock: clock, window: WindowFor(tier, 0)}
}

// WithContextWindow sets the provider's context window in tokens, which
// decides the read window of get_accessibility_tree (WindowFor); it must
// be the one ForMode advertised to the model.
func (d *Dispatcher) WithContextWindow(tokens int) *Dispatcher {
	d.window = WindowFor(d.tier, tokens)
	return d
}

// WithFeatures turns on opt-in settings' tools (they must be the ones
// ForMode was given).
func (d *Dispatcher) WithFeatures(on ...Feature) *Dispatcher {
	d.features = on
	return d
}

// WithCaptchaKey gives solve_captcha the user's solver key ("" for none).
func (d *Dispatcher) WithCaptchaKey(key string) *Dispatcher {
	d.captchaKey = key
	return d
}

// Execute runs one call. Every failure, including a tool this mode does
// not offer, is an error the agent reports to the model as the result.
func (d *Dispatcher) Execute(ctx context.Context, call llm.ToolCall) (string, error) {
	return d.ExecuteOnce(ctx, call, Receipt{})
}

// ExecuteOnce runs call under receipt r (see Receipt and Locate): a page
// that already ran it answers with what it did instead of running it
// again, and a page that is no longer the one r names runs nothing.
func (d *Dispatcher) ExecuteOnce(ctx context.Context, call llm.ToolCall, r Receipt) (string, error) {
	if err := NotOffered(d.mode, d.tier, d.browser, call.Name, d.features...); err != nil {
		return "", err
	}
	t := byName()[call.Name]
	args, err := parseArgs(t, call.Arguments)
	if err != nil {
		return "", err
	}
	switch t.runs {
	case inContent:
		return d.runContent(ctx, t, args, call.Arguments, r)
	case inTabs:
		return d.runTabs(ctx, t, args, r)
	case inBackground:
		return d.runBackground(ctx, t, args)
	case inFrame:
		return d.runFrame(ctx, t, args, call.Arguments, r)
	case inDev:
		return d.runDevOnce(ctx, t, args, r)
	}
	return "", fmt.Errorf("%s is handled by the agent loop, not the page", t.name)
}

// runBackground runs a tool the background carries out itself.
func (d *Dispatcher) runBackground(ctx context.Context, t *tool, args map[string]any) (string, error) {
	switch t.name {
	case protocol.ToolFetchURL:
		return d.runFetch(ctx, args)
	case protocol.ToolReadPDF:
		return d.runReadPDF(ctx, args)
	case protocol.ToolResearchURL:
		return d.runResearchURL(ctx, args)
	case protocol.ToolNewTab:
		return d.newTab(ctx, args)
	case protocol.ToolResizeWindow:
		return d.resizeWindow(ctx, args)
	case protocol.ToolSolveCaptcha:
		return d.solveCaptcha(ctx)
	case protocol.ToolListWebMCPTools:
		return d.listWebMCP(ctx, args)
	case protocol.ToolExecuteWebMCPTool:
		return d.executeWebMCP(ctx, args)
	}
	return d.runDownloads(ctx, t, args)
}

// contentReply is the content script's answer (docs/PROTOCOL.md).
// Changed: the message's receipt names a document the tab no longer
// shows, so nothing ran.
type contentReply struct {
	OK      bool            `json:"ok"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Changed bool            `json:"changed"`
}

func (d *Dispatcher) runContent(ctx context.Context, t *tool, args map[string]any, raw string, r Receipt) (string, error) {
	frame := d.route(args)
	if frame != 0 && !t.readOnly {
		if err := d.checkFrame(ctx, frame); err != nil {
			return "", err
		}
	}
	return d.runContentIn(ctx, frame, t, args, raw, r)
}

// runContentIn runs t in the content script of frame.
func (d *Dispatcher) runContentIn(ctx context.Context, frame int, t *tool, args map[string]any, raw string, r Receipt) (string, error) {
	limit := MaxResultChars
	if t.name == protocol.ToolGetAccessibilityTree || t.name == protocol.ToolReadPage {
		page := d.window.pageSize(t.name, args, raw)
		args["maxChars"] = page
		limit = d.window.resultCap(t.name, page)
	}
	receipt := receiptField(r)
	msg, err := json.Marshal(map[string]any{"wb": "tool", "name": t.name, "args": args, "receipt": receipt})
	if err != nil {
		return "", err
	}
	var before platform.Tab
	if t.mayNavigate {
		if before, err = d.p.Tabs.Get(ctx, d.tabID); err != nil {
			return "", tabError(err)
		}
	}
	var text, note string
	var toolErr error
	switch {
	case d.usesTrustedInput(t):
		text, note, toolErr = d.sendTrusted(ctx, frame, t, args, msg, receipt)
	case d.pageReader != nil && d.readings != nil && isPageRead(t.name):
		text, toolErr = d.readWalled(ctx, frame, t, args)
		note = d.b.dialogNote(d.takeDialogs(ctx))
	default:
		text, toolErr = d.send(ctx, frame, t, msg)
		// A dialog the page opened (a timer, a synthetic action) is
		// reported with the result it happened during.
		note = d.b.dialogNote(d.takeDialogs(ctx))
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if t.mayNavigate {
		navigated, err := d.navigationStarted(ctx, before)
		if err != nil {
			return "", err
		}
		if navigated {
			// The page may unload before its reply arrives: the
			// navigation is then the action's result.
			if toolErr != nil {
				text, toolErr = "The action started a navigation.", nil
			}
			tab, loaded, err := d.waitForLoad(ctx, before)
			if err != nil {
				return "", err
			}
			text += "\n" + loadReport(tab, loaded)
		}
	}
	if closed, err := d.closedShadow(ctx, t, frame, args, toolErr); err != nil {
		return "", err
	} else if closed != "" {
		text += "\n" + closed
	}
	text = qualifyRefs(text, frame)
	if pe := (*pageError)(nil); errors.As(toolErr, &pe) {
		prefix := t.name + " failed. The page's message:\n"
		return "", errors.New(prefix + d.b.pageResultWithin(qualifyRefs(pe.text, frame), "", MaxResultChars-len(prefix)))
	}
	if toolErr != nil {
		return "", errors.New(Neutralise(toolErr.Error()))
	}
	if t.name == protocol.ToolVerifyForm {
		// Field values read back: a token or key in a field is shown by
		// kind and hint, never whole (passwords the page already hid).
		text = secrets.Mask(text, nil)
	}
	if limit > MaxResultChars { // an expanded tree read; never a trusted-input tool
		return d.b.pageResultWithin(text, continueHint(t.name), limit), nil
	}
	return d.b.notedResult(note, text, continueHint(t.name)), nil
}

// pageError is a failure the content script reported. Its text quotes
// the page (element names, page text), so it reaches the model wrapped
// like a result.
type pageError struct{ text string }

func (e *pageError) Error() string { return e.text }

// send delivers the tool message to frame's content script and decodes
// the reply.
func (d *Dispatcher) send(ctx context.Context, frame int, t *tool, msg json.RawMessage) (string, error) {
	raw, err := d.sendRaw(ctx, frame, msg)
	if err != nil {
		return "", fmt.Errorf("%s could not reach the page: %v", t.name, err)
	}
	var r contentReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("%s: the page sent an unreadable reply", t.name)
	}
	if !r.OK && r.Changed {
		return "", fmt.Errorf("%s: %s", t.name, resultChanged)
	}
	if !r.OK {
		if r.Error == "" {
			r.Error = t.name + " failed on the page"
		}
		return "", &pageError{r.Error}
	}
	var s string
	if json.Unmarshal(r.Result, &s) == nil {
		return s, nil
	}
	return string(r.Result), nil
}

// continueHint tells the model how to read what a cap cut off.
func continueHint(name string) string {
	switch name {
	case protocol.ToolGetAccessibilityTree:
		return "Read less at once: pass refId for one subtree, a smaller maxDepth or maxChars, and follow the continuation value the result gives."
	case protocol.ToolReadPage, protocol.ToolFetchURL, protocol.ToolResearchURL, protocol.ToolReadPDF, protocol.ToolReadDownloadedFile:
		return "Pass a smaller maxChars and follow the continuation value the result gives to read the rest."
	case protocol.ToolExtractData:
		return "Pass ref to extract from one element at a time."
	}
	return "Ask for a smaller part."
}
