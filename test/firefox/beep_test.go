//go:build firefox

package firefox

import (
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// "/watch … /beep short" in Firefox: the check sees the event, arms the
// alert with beep and succeeds; the background page plays the short tone
// with Web Audio, and the job records it once the audio context ran and
// the note ended. A Firefox without any audio output (a headless machine
// with no sound server) never runs an audio context: there the job must
// say so instead of claiming a tone.
func TestWatchWithBeepPlaysTheToneInTheBackgroundPage(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == "user":
			return scenario.CallTool("get_accessibility_tree", map[string]any{"filter": "all"})
		case last.Name == "get_accessibility_tree" && strings.Contains(last.Content, "3,417 paper lanterns"):
			return scenario.CallTool("beep", map[string]any{"event_key": "lantern count announced"})
		case last.Name == "beep" && strings.HasPrefix(last.Content, "Alert armed"):
			return scenario.CallTool("done", map[string]any{"summary": "3,417 lanterns are announced.", "status": "success"})
		}
		return llmtest.Turn{Text: "SCRIPT FAILED: " + last.Name + ": " + scenario.Clip(last.Content, 400)}
	})
	s := openSession(t, "article.html", srv)
	s.Send("ask", "/watch the lantern count is announced /beep short")
	type job struct {
		State      string `json:"state"`
		Beep       string `json:"beep"`
		LastBeepAt int64  `json:"lastBeepAt"`
		Warning    string `json:"warning"`
	}
	audio := audioRuns(t, s)
	deadline := time.Now().Add(60 * time.Second)
	for {
		js := evalIn[[]job](t, s.env.ff, s.env.bridge, `browser.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs.filter(j => j.beep))`)
		if len(js) == 1 && (js[0].LastBeepAt > 0 || js[0].Warning != "") {
			j := js[0]
			if j.State != "completed" || j.Beep != "short" {
				t.Fatalf("job %+v", j)
			}
			switch {
			case audio && (j.LastBeepAt == 0 || j.Warning != ""):
				t.Fatalf("audio runs here, but the tone did not play: %+v", j)
			case !audio && !strings.Contains(j.Warning, "kept the sound off"):
				t.Fatalf("no audio output here, but the job says %+v", j)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tone: jobs %+v", js)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !audio {
		t.Log("this Firefox has no audio output: the tone's failure was reported, as it must be")
		return
	}
	// The tone module is the background page's own: played again from
	// there it reports a running audio context.
	got := evalIn[map[string]any](t, s.env.ff, s.env.bridge, `browser.runtime.getBackgroundPage().then(p => p.wbHost.sound.play('long'))`)
	if got["tone"] != "long" || got["state"] != "running" || got["notes"] != float64(4) {
		t.Fatalf("the background page's tone: %v", got)
	}
}

// audioRuns reports whether an audio context with a scheduled source
// runs in this Firefox at all (an extension page, where autoplay is
// allowed): its clock advances only with an audio output.
func audioRuns(t *testing.T, s *session) bool {
	t.Helper()
	return evalIn[bool](t, s.env.ff, s.env.bridge, `(async () => {
		const c = new AudioContext();
		const o = c.createOscillator();
		const g = c.createGain();
		g.gain.value = 0;
		o.connect(g).connect(c.destination);
		o.start();
		o.stop(c.currentTime + 0.2);
		c.resume().catch(() => {});
		await new Promise((r) => setTimeout(r, 1000));
		const ran = c.state === 'running' && c.currentTime > 0;
		c.close();
		return ran;
	})()`)
}
