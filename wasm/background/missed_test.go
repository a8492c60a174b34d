package background

import (
	"testing"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestRunStateReplaysOnlyWhatThePanelMissed(t *testing.T) {
	j := Journal{RequestID: "r1", Seq: 5, Text: "abc"}
	for seq := 1; seq <= 5; seq++ {
		j.Events = append(j.Events, Entry{Seq: seq, Event: agent.Event{Kind: protocol.EventTextDelta}})
	}
	seqs := func(j Journal) (out []int) {
		for _, e := range j.Events {
			out = append(out, e.Seq)
		}
		return out
	}
	for _, c := range []struct {
		name string
		m    message
		want []int
	}{
		{"no acknowledgement", message{}, []int{1, 2, 3, 4, 5}},
		{"acknowledged up to 3", message{RequestID: "r1", AfterSeq: 3}, []int{4, 5}},
		{"acknowledged everything", message{RequestID: "r1", AfterSeq: 5}, nil},
		{"another request's seq counts for nothing", message{RequestID: "r0", AfterSeq: 3}, []int{1, 2, 3, 4, 5}},
	} {
		got := missed(j, c.m)
		if g := seqs(got); len(g) != len(c.want) || (len(g) > 0 && (g[0] != c.want[0] || g[len(g)-1] != c.want[len(c.want)-1])) {
			t.Errorf("%s: events %v, want %v", c.name, g, c.want)
		}
		if got.Text != "abc" || got.Seq != 5 {
			t.Errorf("%s: the snapshot lost its text or seq: %+v", c.name, got)
		}
	}
	if len(j.Events) != 5 {
		t.Error("missed changed the caller's journal")
	}
}
