package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// scriptedReader is a status_message reader with fixed readings by text
// ("" for a text it has none for); it records what it was given.
type scriptedReader struct {
	mu       sync.Mutex
	readings map[string]string
	read     []string
}

func (s *scriptedReader) read1(_ context.Context, texts []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(texts))
	for i, t := range texts {
		s.read = append(s.read, t)
		out[i] = s.readings[t]
	}
	return out
}

func msg(text string, evidence ...string) tools.StatusMessage {
	return tools.StatusMessage{Text: text, Evidence: evidence}
}

// A role=alert that says, in German, that the message was sent is read as
// success: the claim is not sent back and the run ends as success.
func TestAnAlertReadAsSuccessDoesNotFailTheClaim(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", claimsSuccess)
	sent := "Vielen Dank! Ihre Nachricht wurde gesendet."
	h.content.errors = []string{sent} // the structure alone calls it an error
	h.content.messages = []tools.StatusMessage{msg(sent, tools.EvidenceAlert)}
	reader := &scriptedReader{readings: map[string]string{sent: StatusSuccess}}
	h.opts.StatusRead = reader.read1
	out, err := h.run(context.Background(), nil, "send the form")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Fatalf("%d model requests, want the claim accepted", n)
	}
	if f := finalEvent(t, h); f.Outcome != outcomeSuccess || strings.Contains(out.Final, "could not confirm") {
		t.Fatalf("outcome %q, final %q", f.Outcome, out.Final)
	}
	if len(reader.read) != 1 || reader.read[0] != sent {
		t.Fatalf("read %q", reader.read)
	}
}

// A role=status region that reports, in German, a refused payment is read
// as an error: the claim goes back once with the message as page data,
// and claimed again the run ends as failed.
func TestAStatusReadAsAnErrorSendsTheClaimBack(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", claimsSuccess)
	refused := "Fehler: Zahlung abgelehnt."
	h.content.messages = []tools.StatusMessage{msg(refused, tools.EvidenceStatus)}
	h.opts.StatusRead = (&scriptedReader{readings: map[string]string{refused: StatusError}}).read1
	out, err := h.run(context.Background(), nil, "pay the invoice")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want the claim sent back once", len(reqs))
	}
	back := reqs[1].Messages[len(reqs[1].Messages)-1]
	if back.Role != llm.RoleTool || !strings.Contains(back.Content, "Not finished") || !strings.Contains(back.Content, "<"+h.opts.Boundary.Tag()+">\n"+refused) {
		t.Fatalf("sent back: %+v", back)
	}
	if f := finalEvent(t, h); f.Outcome != outcomeFailed || !strings.Contains(out.Final, "“"+refused+"”") {
		t.Fatalf("outcome %q, final %q", f.Outcome, out.Final)
	}
}

// A plain final answer in Act is judged the same way.
func TestAPlainAnswerAgainstAStatusReadAsAnErrorIsSentBack(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "Paid."}
	})
	refused := "Ошибка: платёж отклонён."
	h.content.messages = []tools.StatusMessage{msg(refused, tools.EvidenceStatus)}
	h.opts.StatusRead = (&scriptedReader{readings: map[string]string{refused: StatusError}}).read1
	out, err := h.run(context.Background(), nil, "pay the invoice")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Fatalf("%d model requests", n)
	}
	if f := finalEvent(t, h); f.Outcome != outcomeFailed || !strings.Contains(out.Final, refused) {
		t.Fatalf("outcome %q, final %q", f.Outcome, out.Final)
	}
}

// A message nobody could read proves nothing: the structure decides as
// before readings (an alert outside a status region is an error, a status
// is a notice).
func TestUnreadMessagesFallBackToTheStructure(t *testing.T) {
	for _, reader := range []func(context.Context, []string) []string{nil, (&scriptedReader{}).read1} {
		h := newHarness(t, protocol.ModeAct, "mid", claimsSuccess)
		h.content.messages = []tools.StatusMessage{msg("Fehler: Zahlung abgelehnt.", tools.EvidenceStatus)}
		h.opts.StatusRead = reader
		if _, err := h.run(context.Background(), nil, "pay"); err != nil {
			t.Fatal(err)
		}
		if f := finalEvent(t, h); f.Outcome != outcomeSuccess || len(h.srv.Requests()) != 1 {
			t.Fatalf("an unread status: outcome %q after %d requests", f.Outcome, len(h.srv.Requests()))
		}

		h = newHarness(t, protocol.ModeAct, "mid", claimsSuccess)
		h.content.messages = []tools.StatusMessage{msg("Vielen Dank!", tools.EvidenceAlert), msg("Bitte warten", tools.EvidenceAlert, tools.EvidenceStatus)}
		h.opts.StatusRead = reader
		out, err := h.run(context.Background(), nil, "send")
		if err != nil {
			t.Fatal(err)
		}
		if f := finalEvent(t, h); f.Outcome != outcomeFailed || !strings.Contains(out.Final, "“Vielen Dank!”") || strings.Contains(out.Final, "Bitte warten") {
			t.Fatalf("an unread alert: outcome %q, final %q", f.Outcome, out.Final)
		}
	}
}

// Structural errors count unless read as success: an invalid field's
// message read as neither still fails, a site-marked error read as success
// does not; an alert that is no structural error counts only when read as
// an error.
func TestStructuralErrorsCountUnlessReadAsSuccess(t *testing.T) {
	field := tools.StatusMessage{Text: "Pflichtfeld", Field: "E-Mail", Evidence: []string{tools.EvidenceField, tools.EvidenceTied}}
	formAlert := msg("Bitte prüfen Sie Ihre Eingaben.", tools.EvidenceAlert, tools.EvidenceForm)
	marked := msg("Gespeichert.", tools.EvidenceMarked)
	plain := msg("Neue Funktion verfügbar.", tools.EvidenceAlert)
	r := &run{opts: Options{StatusRead: (&scriptedReader{readings: map[string]string{
		"Pflichtfeld": StatusNeither, formAlert.Text: StatusNeither, "Gespeichert.": StatusSuccess, plain.Text: StatusNeither,
	}}).read1}}
	v := r.readPage(context.Background(), tools.PageStatus{Messages: []tools.StatusMessage{field, formAlert, marked, plain, {Field: "Name", Evidence: []string{tools.EvidenceField}}}})
	if got := strings.Join(v.errors, "|"); got != "E-Mail: Pflichtfeld|Bitte prüfen Sie Ihre Eingaben.|Name: marked invalid" {
		t.Fatalf("errors %q", got)
	}
	if got := strings.Join(v.successes, "|"); got != "Gespeichert." {
		t.Fatalf("successes %q", got)
	}
}

// At most statusReadMax messages are read at a claim, alerts and statuses
// before the fields' messages, skipping long ones and fields without a
// message; the rest are sorted by structure.
func TestStatusReadingsAreBounded(t *testing.T) {
	var ms []tools.StatusMessage
	ms = append(ms, tools.StatusMessage{Field: "Name", Evidence: []string{tools.EvidenceField}})
	ms = append(ms, tools.StatusMessage{Field: "E-Mail", Text: "z", Evidence: []string{tools.EvidenceField, tools.EvidenceTied}})
	ms = append(ms, tools.StatusMessage{Text: strings.Repeat("x", 300) + "…", Long: true, Evidence: []string{tools.EvidenceStatus}})
	for i := range 10 {
		ms = append(ms, msg(string(rune('a'+i)), tools.EvidenceAlert))
	}
	reader := &scriptedReader{readings: map[string]string{}}
	for i := range 10 {
		reader.readings[string(rune('a'+i))] = StatusSuccess
	}
	v := (&run{opts: Options{StatusRead: reader.read1}}).readPage(context.Background(), tools.PageStatus{Messages: ms})
	if got := strings.Join(reader.read, ""); got != "abcdefgh" {
		t.Fatalf("read %q", got)
	}
	if got := strings.Join(v.errors, "|"); got != "Name: marked invalid|E-Mail: z|i|j" {
		t.Fatalf("errors %q", got)
	}
}

// A site job that needs a status message counts a message read as
// success, even one in a role=alert, which the structure files as an error.
func TestASuccessReadingIsTheJobsStatusMessage(t *testing.T) {
	st := withSuccesses(tools.PageStatus{Notices: []string{"Saved."}}, []string{"Saved.", "Gesendet."})
	if got := strings.Join(st.Notices, "|"); got != "Saved.|Gesendet." {
		t.Fatalf("notices %q", got)
	}
}
