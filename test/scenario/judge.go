package scenario

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// FalseSuccessIsNotReported: a model that claims success after the page
// refused the payment (an incomplete card number) is sent back once with
// the page's errors, and when it claims success again the run ends as not
// completed, with the page's words in the answer.
func FalseSuccessIsNotReported(t *testing.T, d Driver) {
	var card, pay string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch ToolResults(req) {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			var err error
			if card, err = FindRef(tree, "textbox", "Card number"); err != nil {
				return ScriptFailed(err)
			}
			if pay, err = FindRef(tree, "button", "Pay 48.00 EUR"); err != nil {
				return ScriptFailed(err)
			}
			return CallTool("type_ax", map[string]any{"ref": card, "text": "4242 4242"})
		case 2:
			return CallTool("click_ax", map[string]any{"ref": pay})
		}
		return CallTool("done", map[string]any{"summary": "Paid invoice 2041.", "status": "success"})
	})
	s := d.Open(t, "payment.html", srv, OpenAIChat)
	s.Send("act", "Pay invoice 2041 with my card 4242 4242.")
	if got, _ := AnswerCardsUntilEnd(t, s, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("the run ended %q", got)
	}
	if got := PageRecord(t, s); len(got) != 0 {
		t.Fatalf("the page recorded a payment: %q", got)
	}
	answer := Text(t, s, "#transcript .msg.assistant")
	if !strings.Contains(answer, "Not completed") || !strings.Contains(answer, "could not confirm") || !strings.Contains(answer, "card number is incomplete") {
		t.Fatalf("the answer reads as success: %q", answer)
	}
	sentBack := false
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == llm.RoleTool && strings.Contains(m.Content, "Not finished") {
				sentBack = true
			}
		}
	}
	if !sentBack {
		t.Fatal("the first success claim was not sent back to the model")
	}
}

// statusMessages is a model's reading of the status_message questions: the
// listed message texts get their reading, every other closed question no
// answer. It records the messages it was asked about.
type statusMessages struct {
	mu       sync.Mutex
	readings map[string]string // a part of the message → its reading
	asked    []string
}

func (m *statusMessages) answer(req llmtest.Request) llmtest.Turn {
	user := req.Messages[len(req.Messages)-1].Content
	if !strings.Contains(user, "one short message a web page shows") {
		return llmtest.Turn{Text: llmtest.NoDecision}
	}
	_, page, _ := strings.Cut(user, "<untrusted_page_content_")
	page, _, _ = strings.Cut(page, "</untrusted_page_content_")
	m.mu.Lock()
	m.asked = append(m.asked, page)
	m.mu.Unlock()
	for part, reading := range m.readings {
		if strings.Contains(page, part) {
			return llmtest.Turn{Text: fmt.Sprintf(`{"choice":%q,"confidence":0.95,"quote":""}`, reading)}
		}
	}
	return llmtest.Turn{Text: llmtest.NoDecision}
}

func (m *statusMessages) askedAbout(part string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.asked {
		if strings.Contains(a, part) {
			return true
		}
	}
	return false
}

// submitsThenClaims is the model of the status_message scenarios: it reads
// the tree, types value into the field named field, clicks the button
// named button, then claims success on every turn.
func submitsThenClaims(field, value, button string) *llmtest.Server {
	var ref, submit string
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch ToolResults(req) {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			var err error
			if ref, err = FindRef(tree, "textbox", field); err != nil {
				return ScriptFailed(err)
			}
			if submit, err = FindRef(tree, "button", button); err != nil {
				return ScriptFailed(err)
			}
			return CallTool("type_ax", map[string]any{"ref": ref, "text": value})
		case 2:
			return CallTool("click_ax", map[string]any{"ref": submit})
		}
		return CallTool("done", map[string]any{"summary": "Done: the form was sent.", "status": "success"})
	})
}

// sentBack reports whether a success claim went back to the model.
func sentBack(srv *llmtest.Server) bool {
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == llm.RoleTool && strings.Contains(m.Content, "Not finished") {
				return true
			}
		}
	}
	return false
}

// AlertReadAsSuccessCompletes: a German contact form confirms the submit
// in a role=alert region, which the structure alone takes for an error.
// The model reads the message with status_message as success, so the
// claim stands and the run ends as success.
func AlertReadAsSuccessCompletes(t *testing.T, d Driver) {
	srv := submitsThenClaims("Name", "Ada Lovelace", "Absenden")
	reader := &statusMessages{readings: map[string]string{"Ihre Nachricht wurde gesendet": "success"}}
	srv.Decider = reader.answer
	s := d.Open(t, "status-sent.html", srv, OpenAIChat)
	s.Send("act", "Schick das Kontaktformular mit meinem Namen Ada Lovelace ab.")
	if got, log := AnswerCardsUntilEnd(t, s, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("the run ended %q; cards: %q", got, log)
	}
	if got := PageRecord(t, s); len(got) != 1 || got[0] != "Ada Lovelace" {
		t.Fatalf("the page recorded %q", got)
	}
	if !reader.askedAbout("Vielen Dank! Ihre Nachricht wurde gesendet.") {
		t.Fatal("the alert was not read with status_message")
	}
	if sentBack(srv) {
		t.Fatal("the success claim was sent back")
	}
	answer := Text(t, s, "#transcript .msg.assistant")
	if strings.Contains(answer, "Not completed") || strings.Contains(answer, "could not confirm") || !strings.Contains(answer, "the form was sent") {
		t.Fatalf("the answer: %q", answer)
	}
}

// StatusReadAsErrorIsNotSuccess: a German payment form reports the bank's
// refusal only in a role=status region, which the structure alone takes
// for a notice. Read with status_message as an error, it sends the success
// claim back; claimed again, the run ends as not completed with the
// page's words.
func StatusReadAsErrorIsNotSuccess(t *testing.T, d Driver) {
	srv := submitsThenClaims("IBAN", "DE89 3704 0044 0532 0130 00", "48,00 EUR bezahlen")
	reader := &statusMessages{readings: map[string]string{"Zahlung abgelehnt": "error"}}
	srv.Decider = reader.answer
	s := d.Open(t, "status-declined.html", srv, OpenAIChat)
	s.Send("act", "Bezahle die Rechnung 2041 mit meiner IBAN DE89 3704 0044 0532 0130 00.")
	if got, log := AnswerCardsUntilEnd(t, s, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("the run ended %q; cards: %q", got, log)
	}
	if !sentBack(srv) {
		t.Fatal("the first success claim was not sent back to the model")
	}
	answer := Text(t, s, "#transcript .msg.assistant")
	if !strings.Contains(answer, "Not completed") || !strings.Contains(answer, "could not confirm") || !strings.Contains(answer, "Zahlung abgelehnt") {
		t.Fatalf("the answer reads as success: %q", answer)
	}
}
