package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Frames (docs/decisions/frames.md). Each frame's content script keeps its
// own refs, so a ref from frame N reaches the model as "fN:ref_M": a ref
// always names its frame, and a call with one goes there whatever frame
// promote_iframe chose. Calls without a ref (reads, type_text, press_keys,
// coordinates) go to the promoted frame.

// splitFrameRef reads "fN:ref_M" as frame N and its own "ref_M".
func splitFrameRef(s string) (frame int, ref string, ok bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]"))
	head, rest, found := strings.Cut(s, ":")
	if !found || !strings.HasPrefix(head, "f") {
		return 0, s, false
	}
	n, err := strconv.Atoi(head[1:])
	if err != nil || n < 0 {
		return 0, s, false
	}
	return n, normaliseRef(rest), true
}

// frameName is how the model sees a frame id.
func frameName(id int) string { return "f" + strconv.Itoa(id) }

// qualifyRefs writes the refs in frame's text as "fN:ref_M".
func qualifyRefs(text string, frame int) string {
	if frame == 0 {
		return text
	}
	prefix := frameName(frame) + ":"
	var b strings.Builder
	for {
		i := strings.Index(text, "ref_")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := i + len("ref_")
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		b.WriteString(text[:i])
		if j > i+len("ref_") && (i == 0 || !refByte(text[i-1])) && (j == len(text) || !refByte(text[j])) {
			b.WriteString(prefix)
		}
		b.WriteString(text[i:j])
		text = text[j:]
	}
}

func refByte(c byte) bool {
	return c == '_' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// route picks the frame of a page call and leaves the frame's own ref in
// args.
func (d *Dispatcher) route(args map[string]any) int {
	for _, k := range []string{"ref", "refId"} {
		if s, ok := args[k].(string); ok && strings.TrimSpace(s) != "" {
			f, ref, ok := splitFrameRef(s)
			if !ok {
				return 0
			}
			args[k] = ref
			return f
		}
	}
	return d.frame
}

// sendRaw delivers msg to the content script of frame (0: the top page).
func (d *Dispatcher) sendRaw(ctx context.Context, frame int, msg json.RawMessage) (json.RawMessage, error) {
	if frame == 0 {
		return d.p.Content.Send(ctx, d.tabID, msg)
	}
	if d.p.Frames == nil {
		return nil, errors.New("WebBrain cannot reach the page's frames in this browser")
	}
	raw, err := d.p.Frames.Send(ctx, d.tabID, frame, msg)
	if err != nil {
		// The browser's message may quote the frame's address.
		return nil, fmt.Errorf("frame %s cannot be reached (%s); it may have been removed: call get_frames, or promote_iframe with frame \"f0\" to return to the page", frameName(frame), Neutralise(err.Error()))
	}
	return raw, nil
}

// childFrame is an iframe element as the content script of its parent
// document describes it (wb_frames); Path is relative to that document.
type childFrame struct {
	Path    []int  `json:"path"`
	Ref     string `json:"ref"`
	Name    string `json:"name"`
	Src     string `json:"src"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Visible bool   `json:"visible"`
}

// frameView is one frame with what its parent's script says of its iframe.
type frameView struct {
	platform.Frame
	owner *childFrame // nil: the frame's parent could not be asked (the top page, or a cross-origin parent)
}

// frameList lists the tab's frames, each with its iframe element in the
// top page when the top page's script can see it.
func (d *Dispatcher) frameList(ctx context.Context) ([]frameView, error) {
	if d.p.Frames == nil {
		return nil, errors.New("WebBrain cannot list the page's frames in this browser")
	}
	list, err := d.p.Frames.List(ctx, d.tabID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errors.New(Neutralise(tabError(err).Error()))
	}
	owners, err := d.childFrames(ctx, 0)
	if err != nil {
		return nil, err
	}
	out := make([]frameView, 0, len(list))
	for _, f := range list {
		v := frameView{Frame: f}
		for i := range owners {
			if slices.Equal(owners[i].Path, f.Path) {
				v.owner = &owners[i]
			}
		}
		out = append(out, v)
	}
	slices.SortStableFunc(out, func(a, b frameView) int { return slices.Compare(a.Path, b.Path) })
	return out, nil
}

// childFrames asks frame's script for the iframes of its document.
func (d *Dispatcher) childFrames(ctx context.Context, frame int) ([]childFrame, error) {
	raw, err := d.internal(ctx, frame, protocol.PageFrames, map[string]any{})
	if err != nil {
		return nil, err
	}
	var list []childFrame
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("the page sent an unreadable list of frames")
	}
	return list, nil
}

// resolveFrame finds the frame an argument names: its id from get_frames
// ("f3" or 3), or the ref of its iframe element in a tree ("ref_7", or
// "f3:ref_7" for an iframe inside frame f3).
func (d *Dispatcher) resolveFrame(ctx context.Context, arg string) (frameView, error) {
	arg = strings.TrimSpace(arg)
	list, err := d.frameList(ctx)
	if err != nil {
		return frameView{}, err
	}
	byPath := func(path []int) (frameView, bool) {
		for _, f := range list {
			if slices.Equal(f.Path, path) {
				return f, true
			}
		}
		return frameView{}, false
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(arg, "f")); err == nil {
		for _, f := range list {
			if f.ID == n {
				return f, nil
			}
		}
		return frameView{}, fmt.Errorf("there is no frame %s in this tab; call get_frames for the frames there are", frameName(n))
	}
	parent, ref, _ := splitFrameRef(arg)
	if !strings.HasPrefix(ref, "ref_") {
		return frameView{}, fmt.Errorf("%q names no frame: give a frame id from get_frames (like f3) or the ref of an iframe in the tree (like ref_7)", arg)
	}
	owners, err := d.childFrames(ctx, parent)
	if err != nil {
		return frameView{}, err
	}
	base := []int{}
	if parent != 0 {
		p, ok := frameByID(list, parent)
		if !ok {
			return frameView{}, fmt.Errorf("there is no frame %s in this tab; call get_frames for the frames there are", frameName(parent))
		}
		base = p.Path
	}
	for _, o := range owners {
		if o.Ref != ref {
			continue
		}
		if f, ok := byPath(append(slices.Clip(base), o.Path...)); ok {
			return f, nil
		}
		return frameView{}, fmt.Errorf("the iframe %s has no document WebBrain may read (not loaded yet, or a browser or extension page)", arg)
	}
	return frameView{}, fmt.Errorf("%s is not an iframe of the page; read the tree again and pass the ref of an iframe line", arg)
}

func frameByID(list []frameView, id int) (frameView, bool) {
	for _, f := range list {
		if f.ID == id {
			return f, true
		}
	}
	return frameView{}, false
}

// usable refuses a frame a person cannot see or that is no web page: an
// invisible frame is where a page hides what it wants an agent, not the
// user, to read or operate.
func (f frameView) usable() error {
	u, err := url.Parse(f.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "about") {
		// The page chose the URL: only its scheme is ours to repeat.
		scheme := "an unreadable address"
		if err == nil {
			scheme = "a " + u.Scheme + ": address"
		}
		return fmt.Errorf("frame %s is not a web page WebBrain may operate (%s)", frameName(f.ID), clipRunes(scheme, 40))
	}
	if f.Width <= 1 || f.Height <= 1 || (f.owner != nil && !f.owner.Visible) {
		return fmt.Errorf("frame %s is hidden from the user (%d×%d), so WebBrain does not read or act in it", frameName(f.ID), f.Width, f.Height)
	}
	return nil
}

// origin is scheme://host[:port]; "" for frames that take their parent's
// (about:blank, srcdoc).
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func (d *Dispatcher) runFrame(ctx context.Context, t *tool, args map[string]any, raw string, r Receipt) (string, error) {
	switch t.name {
	case protocol.ToolGetFrames:
		return d.getFrames(ctx)
	case protocol.ToolPromoteIframe:
		return d.promote(ctx, args["frame"].(string))
	case protocol.ToolIframeRead:
		f, err := d.resolveFrame(ctx, args["frame"].(string))
		if err != nil {
			return "", err
		}
		if f.ID == 0 {
			return "", errors.New("that is the page itself, not a frame; use get_accessibility_tree or read_page")
		}
		if err := f.usable(); err != nil {
			return "", err
		}
		page := protocol.ToolGetAccessibilityTree
		if text, _ := args["text"].(bool); text {
			page = protocol.ToolReadPage
			delete(args, "filter")
		}
		delete(args, "frame")
		delete(args, "text")
		text, err := d.runContentIn(ctx, f.ID, byName()[page], args, raw, r)
		// The frame's page says how to read on with its own tool.
		return strings.ReplaceAll(text, "call get_accessibility_tree with {", "call iframe_read with frame \""+frameName(f.ID)+"\" and {"), err
	}
	// iframe_click, iframe_type: the element's ref names its frame.
	frame, _, ok := splitFrameRef(args["ref"].(string))
	if !ok || frame == 0 {
		return "", fmt.Errorf("%s takes a ref that iframe_read gave, like f3:ref_12; %q is a ref of the page itself: use %s for it", t.name, args["ref"], t.page)
	}
	return d.runContent(ctx, byName()[t.page], args, raw, r)
}

// checkFrame refuses to act in a frame that is not usable.
func (d *Dispatcher) checkFrame(ctx context.Context, id int) error {
	list, err := d.frameList(ctx)
	if err != nil {
		return err
	}
	f, ok := frameByID(list, id)
	if !ok {
		return fmt.Errorf("there is no frame %s in this tab any more; call get_frames", frameName(id))
	}
	return f.usable()
}

// The start of promote_iframe's result, which RestoreTarget reads back.
const (
	targetFrame = "Frame "
	targetIs    = " is now the target"
	targetPage  = "Reads and actions without a ref go to the page itself again."
)

// RestoreTarget takes up the frame the last promote_iframe of a resumed
// run's conversation chose; a restart of the background must not move
// reads and ref-less actions back to the page behind the model's back.
func (d *Dispatcher) RestoreTarget(conv []llm.Message) {
	for i := len(conv) - 1; i >= 0; i-- {
		m := conv[i]
		if m.Role != llm.RoleTool || m.Name != protocol.ToolPromoteIframe || !strings.HasPrefix(m.Content, targetFrame) && !strings.HasPrefix(m.Content, targetPage) {
			continue // a failed promotion left the target as it was
		}
		id, _, _ := strings.Cut(strings.TrimPrefix(m.Content, targetFrame+"f"), targetIs)
		d.frame, _ = strconv.Atoi(id) // the page: 0
		return
	}
}

func (d *Dispatcher) promote(ctx context.Context, arg string) (string, error) {
	if a := strings.TrimSpace(arg); a == "f0" || a == "0" {
		d.frame = 0
		return targetPage, nil
	}
	f, err := d.resolveFrame(ctx, arg)
	if err != nil {
		return "", err
	}
	if f.ID == 0 {
		d.frame = 0
		return targetPage, nil
	}
	if err := f.usable(); err != nil {
		return "", err
	}
	d.frame = f.ID
	name := frameName(f.ID)
	return fmt.Sprintf(targetFrame+"%s"+targetIs+": get_accessibility_tree, read_page and the other reads, and actions without a ref (type_text, press_keys, click at x,y in the frame's own viewport, scroll), go to it. Its refs read %s:ref_N; click_ax and type_ax take them. promote_iframe with frame \"f0\" returns to the page.\n", name, name) +
		d.b.PageResult("Frame "+name+": "+f.URL+"\nTitle: "+f.Title, ""), nil
}

func (d *Dispatcher) getFrames(ctx context.Context) (string, error) {
	list, err := d.frameList(ctx)
	if err != nil {
		return "", err
	}
	top := ""
	var b strings.Builder
	fmt.Fprintf(&b, "%d frames. Pass a frame id (or the iframe's ref) to iframe_read or promote_iframe.\n", len(list))
	for _, f := range list {
		if f.ID == 0 {
			top = origin(f.URL)
			fmt.Fprintf(&b, "f0 the page: %s %q %d×%d\n", f.URL, f.Title, f.Width, f.Height)
			continue
		}
		o := origin(f.URL)
		rel := "cross-origin"
		switch {
		case o == "":
			rel = "same origin as its parent"
		case o == top:
			rel = "same-origin"
		}
		fmt.Fprintf(&b, "%s %s: %s %q %d×%d", frameName(f.ID), rel, f.URL, f.Title, f.Width, f.Height)
		if len(f.Path) > 1 {
			b.WriteString(" (nested)")
		}
		if f.owner != nil {
			b.WriteString(", iframe")
			if f.owner.Name != "" {
				fmt.Fprintf(&b, " %q", f.owner.Name)
			}
			if f.owner.Ref != "" {
				fmt.Fprintf(&b, " [%s]", f.owner.Ref)
			}
			if !f.owner.Visible {
				b.WriteString(" hidden")
			}
		}
		b.WriteString("\n")
	}
	return d.b.PageResult(strings.TrimRight(b.String(), "\n"), ""), nil
}

// pointsToTop turns the mouse points of a frame's input plan into the top
// page's viewport: each parent document places its child frame (scrolling
// it into view) and says whether something covers the point there.
func (d *Dispatcher) pointsToTop(ctx context.Context, frame int, steps []trustedStep) error {
	if frame == 0 || !slices.ContainsFunc(steps, func(s trustedStep) bool { return s.Mouse != nil }) {
		return nil
	}
	if d.p.Frames == nil {
		return errors.New("WebBrain cannot reach the page's frames in this browser")
	}
	list, err := d.p.Frames.List(ctx, d.tabID)
	if err != nil {
		return tabError(err)
	}
	var path []int
	for _, f := range list {
		if f.ID == frame {
			path = f.Path
		}
	}
	if len(path) == 0 {
		return fmt.Errorf("frame %s is gone, or its place in the page is unknown, so a click cannot be aimed there", frameName(frame))
	}
	for i := range steps {
		if steps[i].Mouse == nil {
			continue
		}
		p := *steps[i].Mouse
		for level := len(path) - 1; level >= 0; level-- {
			parent := -1
			for _, f := range list {
				if level > 0 && slices.Equal(f.Path, path[:level]) || level == 0 && f.ID == 0 {
					parent = f.ID
				}
			}
			if parent < 0 {
				return fmt.Errorf("the frame that holds %s cannot be reached, so the click cannot be aimed", frameName(frame))
			}
			raw, err := d.internal(ctx, parent, protocol.PageFrameBox, map[string]any{"index": path[level], "x": p.X, "y": p.Y})
			if err != nil {
				return err
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return errors.New("the page sent an unreadable frame position")
			}
		}
		steps[i].Mouse = &p
	}
	return nil
}
