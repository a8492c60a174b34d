package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Closed shadow roots hide their elements from the content script; in
// Chrome the debugger sees them (DOM.getDocument with pierce). Their
// elements get no ref: the page's script cannot hold them. shadow_dom_query
// gives each match's centre in the viewport instead, which click takes
// (trusted input reaches inside closed roots as a person's click does).

// cdpNode is the part of a CDP DOM.Node read here.
type cdpNode struct {
	NodeID         int       `json:"nodeId"`
	NodeType       int       `json:"nodeType"`
	LocalName      string    `json:"localName"`
	NodeValue      string    `json:"nodeValue"`
	Attributes     []string  `json:"attributes"`
	Children       []cdpNode `json:"children"`
	ShadowRoots    []cdpNode `json:"shadowRoots"`
	ShadowRootType string    `json:"shadowRootType"`
}

// closedRoot is a closed shadow root and the tag of its host.
type closedRoot struct {
	root *cdpNode
	host string
}

func collectClosed(n *cdpNode, byID map[int]*cdpNode, out *[]closedRoot) {
	byID[n.NodeID] = n
	for i := range n.ShadowRoots {
		r := &n.ShadowRoots[i]
		if r.ShadowRootType == "closed" {
			*out = append(*out, closedRoot{root: r, host: n.LocalName})
		}
		collectClosed(r, byID, out)
	}
	for i := range n.Children {
		collectClosed(&n.Children[i], byID, out)
	}
}

// nodeText is the text under n, squashed.
func nodeText(n *cdpNode) string {
	var b strings.Builder
	var walk func(*cdpNode)
	walk = func(n *cdpNode) {
		if n.NodeType == 3 {
			b.WriteString(n.NodeValue)
			b.WriteByte(' ')
		}
		for i := range n.Children {
			walk(&n.Children[i])
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// startTag writes n as <tag id=… class=… type=… aria-label=…>.
func startTag(n *cdpNode) string {
	var b strings.Builder
	b.WriteString("<" + n.LocalName)
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		switch k, v := n.Attributes[i], n.Attributes[i+1]; k {
		case "id", "class", "type", "name", "aria-label", "placeholder", "role", "value", "href":
			fmt.Fprintf(&b, " %s=%q", k, clipRunes(v, 60))
		}
	}
	return b.String() + ">"
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// closedShadow is what the debugger adds to a shadow DOM tool's result
// from the top page's closed roots: matches for shadow_dom_query, an
// outline for get_shadow_dom of the whole page.
func (d *Dispatcher) closedShadow(ctx context.Context, t *tool, frame int, args map[string]any, toolErr error) (string, error) {
	if toolErr != nil || frame != 0 || d.p.Debugger == nil {
		return "", nil
	}
	switch t.name {
	case protocol.ToolShadowDOMQuery:
		return d.closedShadowMatches(ctx, args)
	case protocol.ToolGetShadowDOM:
		if _, ok := args["ref"]; !ok {
			return d.closedShadowOutline(ctx, args)
		}
	}
	return "", nil
}

// closedShadowOutline outlines the closed shadow roots of the top page
// for get_shadow_dom: tags and text, as the page's script outlines open
// ones; "" when there are none.
func (d *Dispatcher) closedShadowOutline(ctx context.Context, args map[string]any) (string, error) {
	maxDepth := 12
	if f, ok := args["maxDepth"].(float64); ok {
		maxDepth = int(f)
	}
	roots, _, err := d.closedRoots(ctx)
	if err != nil || len(roots) == 0 {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d closed shadow root(s), read through the debugger; their elements have no refs (shadow_dom_query gives points to click):\n", len(roots))
	var walk func(n *cdpNode, depth int)
	walk = func(n *cdpNode, depth int) {
		if depth > maxDepth+1 {
			return
		}
		pad := strings.Repeat(" ", depth)
		for i := range n.Children {
			c := &n.Children[i]
			switch {
			case c.NodeType == 3:
				if t := strings.Join(strings.Fields(c.NodeValue), " "); t != "" {
					fmt.Fprintf(&b, "%s%q\n", pad, clipRunes(t, 80))
				}
			case c.NodeType == 1 && c.LocalName != "script" && c.LocalName != "style":
				b.WriteString(pad + startTag(c) + "\n")
				walk(c, depth+1)
			}
		}
	}
	for _, r := range roots {
		fmt.Fprintf(&b, "<%s>\n #shadow-root (closed)\n", r.host)
		walk(r.root, 2)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// closedRoots reads the top page's document through the debugger, shadow
// roots included, and returns its closed roots and its nodes by id.
func (d *Dispatcher) closedRoots(ctx context.Context) ([]closedRoot, map[int]*cdpNode, error) {
	raw, err := d.p.Debugger.Send(ctx, d.tabID, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true})
	if err != nil {
		return nil, nil, fmt.Errorf("the debugger could not read the page's closed shadow roots: %v", err)
	}
	var doc struct{ Root cdpNode }
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("the debugger sent an unreadable document")
	}
	byID := map[int]*cdpNode{}
	var roots []closedRoot
	collectClosed(&doc.Root, byID, &roots)
	return roots, byID, nil
}

// closedShadowMatches lists the selector's matches inside the closed
// shadow roots of the top page; "" when there are none or no debugger.
func (d *Dispatcher) closedShadowMatches(ctx context.Context, args map[string]any) (string, error) {
	selector, _ := args["selector"].(string)
	limit := 30
	if f, ok := args["maxResults"].(float64); ok {
		limit = int(f)
	}
	roots, byID, err := d.closedRoots(ctx)
	if err != nil {
		return "", err
	}
	var lines []string
	total := 0
	for _, r := range roots {
		raw, err := d.p.Debugger.Send(ctx, d.tabID, "DOM.querySelectorAll", map[string]any{"nodeId": r.root.NodeID, "selector": selector})
		if err != nil {
			return "", fmt.Errorf("shadow_dom_query: %q is not a selector the page accepts", selector)
		}
		var q struct{ NodeIDs []int }
		if err := json.Unmarshal(raw, &q); err != nil {
			return "", fmt.Errorf("the debugger sent an unreadable answer")
		}
		for _, id := range q.NodeIDs {
			total++
			if len(lines) >= limit {
				continue
			}
			n := byID[id]
			if n == nil {
				continue
			}
			line := startTag(n)
			if t := nodeText(n); t != "" {
				line += fmt.Sprintf(" %q", clipRunes(t, 80))
			}
			if p, ok := d.nodeCentre(ctx, id); ok {
				line += fmt.Sprintf(" at x=%d y=%d", int(p.X), int(p.Y))
			} else {
				line += " not rendered"
			}
			lines = append(lines, line+" (closed root of <"+r.host+">)")
		}
	}
	if len(lines) == 0 {
		return "", nil
	}
	head := fmt.Sprintf("In closed shadow roots (%d matches; no refs there: click them with click at the x,y given, after any scrolling read them again):", total)
	return head + "\n" + strings.Join(lines, "\n"), nil
}

// nodeCentre scrolls a node into view and returns the centre of its first
// box in the viewport.
func (d *Dispatcher) nodeCentre(ctx context.Context, id int) (point, bool) {
	_, _ = d.p.Debugger.Send(ctx, d.tabID, "DOM.scrollIntoViewIfNeeded", map[string]any{"nodeId": id})
	raw, err := d.p.Debugger.Send(ctx, d.tabID, "DOM.getContentQuads", map[string]any{"nodeId": id})
	if err != nil {
		return point{}, false
	}
	var q struct{ Quads [][]float64 }
	if json.Unmarshal(raw, &q) != nil || len(q.Quads) == 0 || len(q.Quads[0]) != 8 {
		return point{}, false
	}
	c := q.Quads[0]
	return point{X: (c[0] + c[2] + c[4] + c[6]) / 4, Y: (c[1] + c[3] + c[5] + c[7]) / 4}, true
}
