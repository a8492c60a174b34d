package background

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
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
	var text uitext.Text
	switch {
	case !ru.shots.Video:
		text = r.saveShot(ru.tabID, ru.shots.Base+"-"+when, when)
	case when == shotBefore:
		text = r.startFilm(ru.tabID)
	default:
		text = r.saveFilm(ru.tabID, ru.shots.Base)
	}
	if text.English != "" {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventCapture, Text: text.English, Msg: text.Msg}})
	}
}

// startFilm starts recording the tab; no text when it did.
func (r *Router) startFilm(tabID int) uitext.Text {
	if r.p.Record == nil || r.p.Downloads == nil {
		return uitext.T("bg_capture_no_recording_browser", "No recording of the run: only Chrome can record a tab. /screenshot saves pictures before and after it.")
	}
	ctx, cancel := context.WithTimeout(context.Background(), shotTimeout)
	defer cancel()
	if err := r.p.Record.Start(ctx, tabID); err != nil {
		return uitext.T("bg_capture_no_recording", "No recording of the run: $error$.", "error", fmt.Sprint(err))
	}
	return uitext.Text{}
}

// saveFilm ends the tab's recording and saves it as <base>.webm.
func (r *Router) saveFilm(tabID int, base string) uitext.Text {
	if r.p.Record == nil || r.p.Downloads == nil {
		return uitext.Text{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*shotTimeout)
	defer cancel()
	name := shotDir + "/" + base + ".webm"
	d, err := r.p.Record.Stop(ctx, tabID, name)
	if err != nil {
		return uitext.T("bg_capture_recording_not_saved", "The recording of the run could not be saved: $error$.", "error", fmt.Sprint(err))
	}
	if d.Filename != "" {
		name = d.Filename
	}
	return uitext.T("bg_capture_recording_saved", "Saved the recording of the run: $file$", "file", name)
}

func (r *Router) saveShot(tabID int, base, when string) uitext.Text {
	if r.p.Capture == nil || r.p.Downloads == nil {
		if when == shotBefore {
			return uitext.T("bg_capture_no_shot_before_browser", "No screenshot before the run: this browser gives WebBrain no screenshots or downloads.")
		}
		return uitext.T("bg_capture_no_shot_after_browser", "No screenshot after the run: this browser gives WebBrain no screenshots or downloads.")
	}
	ctx, cancel := context.WithTimeout(context.Background(), shotTimeout)
	defer cancel()
	mediaType, data, err := r.p.Capture.Capture(ctx, tabID)
	if err != nil {
		if when == shotBefore {
			return uitext.T("bg_capture_no_shot_before", "No screenshot before the run: $error$.", "error", fmt.Sprint(err))
		}
		return uitext.T("bg_capture_no_shot_after", "No screenshot after the run: $error$.", "error", fmt.Sprint(err))
	}
	ext := ".jpg"
	if mediaType == "image/png" {
		ext = ".png"
	}
	d, err := r.p.Downloads.Save(ctx, shotDir+"/"+base+ext, mediaType, data)
	if err != nil {
		if when == shotBefore {
			return uitext.T("bg_capture_shot_before_not_saved", "The screenshot before the run could not be saved: $error$.", "error", fmt.Sprint(err))
		}
		return uitext.T("bg_capture_shot_after_not_saved", "The screenshot after the run could not be saved: $error$.", "error", fmt.Sprint(err))
	}
	name := d.Filename
	if name == "" {
		name = shotDir + "/" + base + ext
	}
	if when == shotBefore {
		return uitext.T("bg_capture_shot_before_saved", "Saved the screenshot before the run: $file$", "file", name)
	}
	return uitext.T("bg_capture_shot_after_saved", "Saved the screenshot after the run: $file$", "file", name)
}
