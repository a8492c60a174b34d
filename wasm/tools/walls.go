package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// The walls in front of an article (pageGate; docs/decisions/page-walls.md).
// A page read finds the candidates in the page (extension/content/walls.mjs),
// reads them with the readings the agent holds and reports the texts nobody
// has read; the agent has those read with the page_blocker question and
// reads the page again with the readings.

// PageGate is the wall a page read applied: Blocking is false without one.
type PageGate struct {
	Blocking bool   `json:"blocking"`
	Kind     string `json:"kind"` // "overlay" or "inline"
	Label    string `json:"label"`
}

// PageReader reads texts of a page with the page_blocker question: one
// answer per text (ReadingWall, ReadingNoWall), "" where no model
// answered.
type PageReader func(ctx context.Context, texts []string) []string

// Readings of page_blocker.
const (
	ReadingWall   = "wall"
	ReadingNoWall = "no_wall"
)

// Limits of the readings and of the rereads (the specification's).
const (
	ChunkLimit      = 600    // characters of one text, keyed alike on both sides
	MaxChunks       = 30     // chunks read per candidate
	MaxNeeded       = 40     // unread texts one page read reports
	RecentReadings  = 400    // readings sent to a check
	RecentChars     = 80_000 // characters of them at most
	keptReadings    = 2000   // readings the agent keeps
	maxRereads      = 3      // page reads again with new readings
	NoAnswerCooling = 30 * time.Second
)

// ReadingKey is a text as the readings know it: spaces collapsed, at most
// limit UTF-16 units, and a text cut at its limit loses a trailing space or
// half of a surrogate pair. walls.mjs keys alike.
func ReadingKey(text string, limit int) string {
	s := strings.Join(strings.FieldsFunc(text, isSquashSpace), " ")
	u := utf16.Encode([]rune(s))
	if len(u) <= limit {
		return s
	}
	u = u[:limit]
	if n := len(u); n > 0 && u[n-1] >= 0xd800 && u[n-1] <= 0xdbff {
		u = u[:n-1]
	}
	return strings.TrimSuffix(string(utf16.Decode(u)), " ")
}

// isSquashSpace is JavaScript's \s with the zero-width space, as text.mjs's
// squash collapses.
func isSquashSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0x200b:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Shape is a key with its numbers blanked: texts that differ only in their
// numbers (a countdown wall) share it.
func Shape(key string) string {
	var b strings.Builder
	digits := false
	for _, r := range key {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String()
}

type reading struct{ key, answer string }

// Readings are the agent's readings of page texts, newest last, with the
// texts no model answered and when. Safe for concurrent use.
type Readings struct {
	mu   sync.Mutex
	list []reading
	cool map[string]time.Time
}

// NewReadings returns an empty store.
func NewReadings() *Readings { return &Readings{cool: map[string]time.Time{}} }

// Add records a reading as the most recent one.
func (r *Readings) Add(key, answer string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drop(key)
	r.list = append(r.list, reading{key, answer})
	if len(r.list) > keptReadings {
		r.list = r.list[len(r.list)-keptReadings:]
	}
	delete(r.cool, key)
}

func (r *Readings) drop(key string) {
	for i, x := range r.list {
		if x.key == key {
			r.list = append(r.list[:i], r.list[i+1:]...)
			return
		}
	}
}

// Touch makes a known reading one of the most recent; false when the text
// was never read.
func (r *Readings) Touch(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.list {
		if x.key == key {
			r.list = append(append(r.list[:i:i], r.list[i+1:]...), x)
			return true
		}
	}
	return false
}

// Cool marks a text no model answered: it is not asked again before
// NoAnswerCooling has passed.
func (r *Readings) Cool(key string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cool[key] = now
}

// Cooling reports whether key is waiting after no answer.
func (r *Readings) Cooling(key string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.cool[key]
	if ok && now.Sub(t) >= NoAnswerCooling {
		delete(r.cool, key)
		return false
	}
	return ok
}

// Recent are the readings a check receives: the latest RecentReadings, at
// most RecentChars characters of text, oldest first; and the shapes read
// as walls only, with how many texts of each were read so.
func (r *Readings) Recent() (recent [][2]string, shapes map[string]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	chars := 0
	start := len(r.list)
	for start > 0 && len(r.list)-start < RecentReadings {
		n := len(r.list[start-1].key)
		if chars+n > RecentChars {
			break
		}
		chars += n
		start--
	}
	recent = make([][2]string, 0, len(r.list)-start)
	for _, x := range r.list[start:] {
		recent = append(recent, [2]string{x.key, x.answer})
	}
	return recent, wallShapes(recent)
}

// wallShapes counts the texts of each shape read as a wall; a shape with
// any other reading carries nothing over.
func wallShapes(recent [][2]string) map[string]int {
	shapes := map[string]int{}
	other := map[string]bool{}
	for _, x := range recent {
		s := Shape(x[0])
		if x[1] == ReadingWall {
			shapes[s]++
		} else {
			other[s] = true
		}
	}
	for s := range other {
		delete(shapes, s)
	}
	return shapes
}

// WithPageReader lets page reads find and apply walls: read has the texts
// read, store keeps the readings (the agent's, shared by its reads).
func (d *Dispatcher) WithPageReader(read PageReader, store *Readings) *Dispatcher {
	d.pageReader, d.readings = read, store
	return d
}

// PageGate is the wall the last page read applied.
func (d *Dispatcher) PageGate() PageGate {
	d.gateMu.Lock()
	defer d.gateMu.Unlock()
	return d.gate
}

// wallRead is the page's answer to wb_read.
type wallRead struct {
	Text   string    `json:"text"`
	Gate   *PageGate `json:"pageGate"`
	Needed []string  `json:"pageTextsNeeded"`
}

func isPageRead(name string) bool {
	return name == protocol.ToolReadPage || name == protocol.ToolGetAccessibilityTree
}

// readWalled runs a page read with the readings: the texts nobody has
// read are read (not those cooling after no answer; a text read before is
// made recent instead of asked), and the page is read again while a read
// reaches more, at most maxRereads times. A wall read but not applied
// while texts are still unread fails the read rather than answer without
// it.
func (d *Dispatcher) readWalled(ctx context.Context, frame int, t *tool, args map[string]any) (string, error) {
	read := func() (wallRead, error) {
		recent, shapes := d.readings.Recent()
		msg, err := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageRead, "args": map[string]any{
			"tool": t.name, "args": args, "walls": map[string]any{"readings": recent, "shapes": shapes},
		}})
		if err != nil {
			return wallRead{}, err
		}
		raw, err := d.send(ctx, frame, t, msg)
		if err != nil {
			return wallRead{}, err
		}
		// A page that answers text alone (a content script without the
		// wall reader) is read as it is.
		var res wallRead
		if !strings.HasPrefix(strings.TrimSpace(raw), "{") || json.Unmarshal([]byte(raw), &res) != nil {
			return wallRead{Text: raw}, nil
		}
		return res, nil
	}
	res, err := read()
	if err != nil {
		return "", err
	}
	wallSeen := false
	for pass := 0; pass < maxRereads; pass++ {
		now := d.clock.Now()
		var ask []string
		progress := 0
		for _, k := range res.Needed {
			k = ReadingKey(k, ChunkLimit)
			switch {
			case k == "":
			case d.readings.Touch(k):
				progress++
			case !d.readings.Cooling(k, now):
				ask = append(ask, k)
			}
		}
		if len(ask) > 0 {
			answers := d.pageReader(ctx, ask)
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			for i, k := range ask {
				a := ""
				if i < len(answers) {
					a = answers[i]
				}
				if a != ReadingWall && a != ReadingNoWall {
					d.readings.Cool(k, now)
					continue
				}
				d.readings.Add(k, a)
				progress++
				wallSeen = wallSeen || a == ReadingWall
			}
		}
		if progress == 0 {
			break
		}
		if res, err = read(); err != nil {
			if wallSeen {
				return "", fmt.Errorf("%s failed: a text on this page was read as a wall in front of the article, and the page could not be read again with that reading (%v)", t.name, err)
			}
			return "", err
		}
	}
	gate := PageGate{}
	if res.Gate != nil {
		gate = *res.Gate
	}
	d.gateMu.Lock()
	d.gate = gate
	d.gateMu.Unlock()
	if wallSeen && !gate.Blocking && len(res.Needed) > 0 {
		return "", errors.New(t.name + " failed: a text on this page was read as a wall in front of the article, but the page's next read could not apply it (its text changed or was not read yet). Read the page again in a moment.")
	}
	return res.Text, nil
}
