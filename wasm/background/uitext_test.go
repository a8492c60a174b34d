package background

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// The texts the background writes carry their catalog keys to the panel
// (docs/decisions/background-texts.md), English staying the text.

func TestApprovalEventCarriesItsKeysToThePanel(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	e.mustOK(act(3, "what does this settings page offer?"))
	card := waitCard(t, e, 3)
	if card.Msg == nil || card.Msg.Key != "bg_approval_action_caption" || card.Text != `Delete: button "Delete account" on example.com.` {
		t.Fatalf("card text %q msg %+v", card.Text, card.Msg)
	}
	raw, _ := json.Marshal(card)
	var seen struct {
		Msg      uitext.Msg `json:"msg"`
		Approval struct {
			Details []struct {
				Label    string      `json:"label"`
				Value    string      `json:"value"`
				LabelMsg *uitext.Msg `json:"labelMsg"`
			} `json:"details"`
			Reasons    []string      `json:"reasons"`
			ReasonMsgs []*uitext.Msg `json:"reasonMsgs"`
		} `json:"approval"`
	}
	if err := json.Unmarshal(raw, &seen); err != nil {
		t.Fatal(err)
	}
	caption, _ := seen.Msg.Params["caption"].(map[string]any)
	params, _ := caption["params"].(map[string]any)
	if caption["key"] != "bg_control_caption" || params["caption"] != `"Delete account"` || seen.Msg.Params["site"] != "example.com" {
		t.Fatalf("the page's words are not kept as data: %s", raw)
	}
	if role, _ := params["role"].(map[string]any); role["key"] != "bg_role_button" {
		t.Fatalf("the role word is WebBrain's: %s", raw)
	}
	if len(seen.Approval.ReasonMsgs) != len(seen.Approval.Reasons) || seen.Approval.ReasonMsgs[0] == nil ||
		seen.Approval.ReasonMsgs[0].Key != "bg_reason_delete_unclear" && seen.Approval.ReasonMsgs[0].Key != "bg_reason_not_asked_delete" {
		t.Fatalf("reasons %s", raw)
	}
	if d := seen.Approval.Details[0]; d.LabelMsg == nil || d.LabelMsg.Key != "bg_label_action" || d.Value != `button "Delete account"` {
		t.Fatalf("details %s", raw)
	}
	e.mustOK(answerCard(3, "appr_c1", "decline"))
	e.waitEnd(3)
}

func TestModelErrorCarriesNestedKeys(t *testing.T) {
	e := newEnv(t, llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Status: 401} }))
	e.mustOK(ask(6, "hello"))
	j := e.waitEnd(6)
	ev, ok := lastOf(j.Events, protocol.EventError)
	if !ok || ev.Msg == nil || ev.Msg.Key != "bg_err_model_failed" {
		t.Fatalf("error %q %+v", ev.Text, ev.Msg)
	}
	got, _ := json.Marshal(ev.Msg)
	want := `{"key":"bg_err_model_failed","params":{"error":{"key":"bg_err_provider_said","params":{
		"error":{"key":"bg_err_auth","params":{"provider":{"key":"bg_provider_named","params":{"name":"Test"}}}},
		"detail":"Unauthorized."}}}}`
	var a, b any
	_ = json.Unmarshal(got, &a)
	_ = json.Unmarshal([]byte(want), &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("nested keys %s", got)
	}
	if !strings.HasPrefix(ev.Text, "The model request failed: The provider Test rejected the API key (HTTP 401).") {
		t.Fatalf("English %q", ev.Text)
	}
}

func TestDamagedSettingsErrorCarriesItsKey(t *testing.T) {
	e := newEnv(t, llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "hi"} }))
	if err := e.local.Set(context.Background(), map[string]json.RawMessage{protocol.KeySettings: json.RawMessage(`{"providers":[],"activeProvider":"gone"}`)}); err != nil {
		t.Fatal(err)
	}
	e.mustOK(ask(7, "hello"))
	j := e.waitEnd(7)
	ev, _ := lastOf(j.Events, protocol.EventError)
	if ev.Msg == nil || ev.Msg.Key != "bg_err_settings_damaged" || ev.Msg.Params["reason"] == "" ||
		!strings.HasPrefix(ev.Text, "The saved settings are damaged or unreadable (") {
		t.Fatalf("error %q %+v", ev.Text, ev.Msg)
	}
}

func TestRepairQuestionCarriesItsKeysAndTheOptionsAnswerInEnglish(t *testing.T) {
	e, page := formEnv(t)
	_, q := replayUntilRepairQuestion(t, e, page)
	if q.Msg == nil || q.Msg.Key != "bg_repair_question" || q.Msg.Params["step"] != "2" || q.Msg.Params["target"] != `button "Join"` {
		t.Fatalf("question %+v", q.Msg)
	}
	if len(q.OptionMsgs) != len(q.Options) || q.OptionMsgs[0] != nil || q.OptionMsgs[len(q.OptionMsgs)-1].Key != "bg_repair_stop" {
		t.Fatalf("options %q keys %+v", q.Options, q.OptionMsgs)
	}
	// The panel shows the option translated and answers with the English.
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 50, "requestId": e.r.active(50).requestID, "id": "wf_repair_2", "answer": q.Options[len(q.Options)-1]})
	e.waitEnd(50)
}
