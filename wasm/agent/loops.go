package agent

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Loop detection thresholds (spec "Loop detection").
const (
	repeatWindow    = 6 // last calls compared by the general detector
	repeatNudgeAt   = 3 // identical calls in the window
	repeatStopAt    = 8 // nudges without healthyReset healthy calls between
	healthyReset    = 2
	clickBucketPx   = 5
	clickNudgeAt    = 5
	clickStopAt     = 8
	revisitNudgeAt  = 3 // arrivals at the same URL
	loopStopMessage = "I stopped because I kept repeating the same actions without making progress."
)

// loopDetector runs the spec's three detectors after every tool call.
type loopDetector struct {
	recent  []uint64 // signatures of the last repeatWindow calls
	nudges  int
	healthy int
	clicks  map[[2]int]int // coordinate clicks per 5px bucket on this URL
	visits  map[string]int // arrivals per URL
}

// LoopState is the loop detector's memory. It is part of the checkpoint,
// so a resumed run neither repeats itself unnoticed nor is stopped for
// what it did before the restart. Signatures are hex: the record passes
// through JavaScript, whose numbers cannot hold 64 bits.
type LoopState struct {
	Recent  []string       `json:"recent,omitempty"`
	Nudges  int            `json:"nudges,omitempty"`
	Healthy int            `json:"healthy,omitempty"`
	Clicks  [][3]int       `json:"clicks,omitempty"` // bucket x, bucket y, clicks
	Visits  map[string]int `json:"visits,omitempty"`
}

func (d *loopDetector) state() *LoopState {
	st := &LoopState{Nudges: d.nudges, Healthy: d.healthy, Visits: maps.Clone(d.visits)}
	for _, sig := range d.recent {
		st.Recent = append(st.Recent, strconv.FormatUint(sig, 16))
	}
	for b, n := range d.clicks {
		st.Clicks = append(st.Clicks, [3]int{b[0], b[1], n})
	}
	return st
}

// restoreLoopDetector rebuilds the detector a checkpoint saved; without
// one (a checkpoint of an older version) it starts fresh at pageURL.
func restoreLoopDetector(st *LoopState, pageURL string) *loopDetector {
	if st == nil {
		return newLoopDetector(pageURL)
	}
	d := &loopDetector{nudges: st.Nudges, healthy: st.Healthy, clicks: map[[2]int]int{}, visits: map[string]int{}}
	for _, h := range st.Recent {
		if sig, err := strconv.ParseUint(h, 16, 64); err == nil {
			d.recent = append(d.recent, sig)
		}
	}
	for _, c := range st.Clicks {
		d.clicks[[2]int{c[0], c[1]}] = c[2]
	}
	maps.Copy(d.visits, st.Visits)
	return d
}

// observation is one finished tool call. URLs are empty when the call
// cannot navigate or the page is unknown.
type observation struct {
	name, args, result string
	isError            bool
	urlBefore          string
	urlAfter           string
}

// verdict is a detector's reaction: a nudge for the model, or stop.
type verdict struct {
	nudge string
	stop  bool
}

func newLoopDetector(startURL string) *loopDetector {
	d := &loopDetector{clicks: map[[2]int]int{}, visits: map[string]int{}}
	if startURL != "" {
		d.visits[startURL] = 1
	}
	return d
}

func (d *loopDetector) observe(o observation) verdict {
	var nudges []string
	if v := d.repeat(o); v.stop {
		return v
	} else if v.nudge != "" {
		nudges = append(nudges, v.nudge)
	}
	if o.urlAfter != o.urlBefore {
		clear(d.clicks) // a new page: the same point is a new target
	}
	if v := d.coordinateClick(o); v.stop {
		return v
	} else if v.nudge != "" {
		nudges = append(nudges, v.nudge)
	}
	if n := d.navigation(o); n != "" {
		nudges = append(nudges, n)
	}
	v := verdict{}
	for i, n := range nudges {
		if i > 0 {
			v.nudge += "\n"
		}
		v.nudge += "Loop warning: " + n
	}
	return v
}

// repeat is the general detector: the same call with the same outcome
// three times in the last six, or an A-B-A-B alternation.
func (d *loopDetector) repeat(o observation) verdict {
	sig := signature(o)
	d.recent = append(d.recent, sig)
	if len(d.recent) > repeatWindow {
		d.recent = d.recent[1:]
	}
	r := d.recent
	n := len(r)
	same := 0
	for _, s := range r {
		if s == sig {
			same++
		}
	}
	abab := n >= 4 && r[n-1] == r[n-3] && r[n-2] == r[n-4] && r[n-1] != r[n-2]
	if same < repeatNudgeAt && !abab {
		d.healthy++
		if d.healthy >= healthyReset {
			d.nudges = 0
		}
		return verdict{}
	}
	d.healthy = 0
	d.nudges++
	if d.nudges >= repeatStopAt {
		return verdict{stop: true}
	}
	if abab && same < repeatNudgeAt {
		return verdict{nudge: "you are alternating between the same two actions and getting the same results. This is not making progress: try a different approach, or call done if you cannot finish."}
	}
	return verdict{nudge: fmt.Sprintf("you have called %s with the same arguments %d times and got the same result. Repeating it will not help: read the page again, use a different element or tool, or call done if you cannot finish.", o.name, same)}
}

// coordinateClick counts clicks at x,y in 5px buckets on the same page.
func (d *loopDetector) coordinateClick(o observation) verdict {
	if o.name != protocol.ToolClick {
		return verdict{}
	}
	var p struct{ X, Y *float64 }
	if json.Unmarshal([]byte(o.args), &p) != nil || p.X == nil || p.Y == nil {
		return verdict{}
	}
	b := [2]int{int(math.Floor(*p.X / clickBucketPx)), int(math.Floor(*p.Y / clickBucketPx))}
	d.clicks[b]++
	switch c := d.clicks[b]; {
	case c >= clickStopAt:
		return verdict{stop: true}
	case c >= clickNudgeAt:
		return verdict{nudge: fmt.Sprintf("you have clicked at about (%.0f, %.0f) %d times. Clicking the same point again will not help: find the element with get_accessibility_tree and use click_ax, or try another way.", *p.X, *p.Y, c)}
	}
	return verdict{}
}

// navigation counts arrivals at each URL: coming back to the same page
// again and again means the run is going in circles.
func (d *loopDetector) navigation(o observation) string {
	if o.urlAfter == "" || (o.urlAfter == o.urlBefore && o.name != protocol.ToolNavigate) {
		return ""
	}
	d.visits[o.urlAfter]++
	if c := d.visits[o.urlAfter]; c >= revisitNudgeAt {
		return fmt.Sprintf("this is visit %d to %s in this task. You are going in circles between pages: decide what is missing and go straight to it, or call done.", c, o.urlAfter)
	}
	return ""
}

// signature hashes name, canonical arguments and outcome.
func signature(o observation) uint64 {
	h := fnv.New64a()
	h.Write([]byte(o.name))
	h.Write([]byte{0})
	h.Write([]byte(canonicalJSON(o.args)))
	h.Write([]byte{0})
	if o.isError {
		h.Write([]byte{1})
	}
	h.Write([]byte(o.result))
	return h.Sum64()
}

// canonicalJSON re-encodes arguments with sorted keys so key order and
// spacing do not hide a repeat.
func canonicalJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return s
	}
	return string(b)
}

// navigating lists the tools after which the tab may show another URL.
var navigating = []string{protocol.ToolNavigate, protocol.ToolGoBack, protocol.ToolGoForward, protocol.ToolClick, protocol.ToolClickAX, protocol.ToolTypeAX, protocol.ToolPressKeys}

func mayNavigate(name string) bool { return slices.Contains(navigating, name) }
