package background

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// shotTimeout bounds one capture and its save: a hung capture must not
// hold the run's start or its end.
const shotTimeout = 15 * time.Second

// shotDir is the folder under the browser's downloads the screenshots go in.
const shotDir = "WebBrain"

const (
	shotBefore = "before"
	shotAfter  = "after"
)

// shots are what the user asked to capture around a run with a suffix
// (docs/decisions/run-capture.md): before/after screenshots (/screenshot)
// or a video of the tab (/record).
type shots struct {
	Base  string `json:"base"`            // file name without the -before/-after suffix or extension
	Video bool   `json:"video,omitempty"` // /record: a film instead of screenshots
}

// newShots names the files after saveAs, made safe for a file name, or
// after the time when it is empty.
func newShots(saveAs string, video bool, now time.Time) *shots {
	base := safeFileName(saveAs)
	if base == "" {
		base = "webbrain-" + now.UTC().Format("20060102-150405")
	}
	return &shots{Base: base, Video: video}
}

// safeFileName keeps a name's letters, digits, dots, dashes and
// underscores (a run of others becomes one "-"), drops any folder part and an image
// extension the user typed, and caps the length.
func safeFileName(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	lower := strings.ToLower(name)
	for _, ext := range []string{".jpg", ".jpeg", ".png", ".webm"} {
		if strings.HasSuffix(lower, ext) {
			name = name[:len(name)-len(ext)]
			break
		}
	}
	var b strings.Builder
	dash := false
	for _, c := range name {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '-' || c == '_' || c == '.' {
			b.WriteRune(c)
			dash = c == '-'
		} else if b.Len() > 0 && !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := []rune(strings.Trim(b.String(), ".-"))
	if len(out) > 80 {
		out = out[:80]
	}
	return string(out)
}

// shoot saves a screenshot of the run's tab when the user asked for one,
// or starts or ends its film, and journals what became of it. It never
// fails the run.
func (r *Router) shoot(ru *run, when string) {
	if ru.shots == nil {
		return
	}
	text := ""
	switch {
	case !ru.shots.Video:
		text = r.saveShot(ru.tabID, ru.shots.Base+"-"+when, when)
	case when == shotBefore:
		text = r.startFilm(ru.tabID)
	default:
		text = r.saveFilm(ru.tabID, ru.shots.Base)
	}
	if text != "" {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventCapture, Text: text}})
	}
}

// startFilm starts recording the tab; "" when it did.
func (r *Router) startFilm(tabID int) string {
	if r.p.Record == nil || r.p.Downloads == nil {
		return "No recording of the run: only Chrome can record a tab. /screenshot saves pictures before and after it."
	}
	ctx, cancel := context.WithTimeout(context.Background(), shotTimeout)
	defer cancel()
	if err := r.p.Record.Start(ctx, tabID); err != nil {
		return fmt.Sprintf("No recording of the run: %v.", err)
	}
	return ""
}

// saveFilm ends the tab's recording and saves it as <base>.webm.
func (r *Router) saveFilm(tabID int, base string) string {
	if r.p.Record == nil || r.p.Downloads == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*shotTimeout)
	defer cancel()
	name := shotDir + "/" + base + ".webm"
	d, err := r.p.Record.Stop(ctx, tabID, name)
	if err != nil {
		return fmt.Sprintf("The recording of the run could not be saved: %v.", err)
	}
	if d.Filename != "" {
		name = d.Filename
	}
	return "Saved the recording of the run: " + name
}

func (r *Router) saveShot(tabID int, base, when string) string {
	if r.p.Capture == nil || r.p.Downloads == nil {
		return fmt.Sprintf("No screenshot %s the run: this browser gives WebBrain no screenshots or downloads.", when)
	}
	ctx, cancel := context.WithTimeout(context.Background(), shotTimeout)
	defer cancel()
	mediaType, data, err := r.p.Capture.Capture(ctx, tabID)
	if err != nil {
		return fmt.Sprintf("No screenshot %s the run: %v.", when, err)
	}
	ext := ".jpg"
	if mediaType == "image/png" {
		ext = ".png"
	}
	d, err := r.p.Downloads.Save(ctx, shotDir+"/"+base+ext, mediaType, data)
	if err != nil {
		return fmt.Sprintf("The screenshot %s the run could not be saved: %v.", when, err)
	}
	name := d.Filename
	if name == "" {
		name = shotDir + "/" + base + ext
	}
	return fmt.Sprintf("Saved the screenshot %s the run: %s", when, name)
}
