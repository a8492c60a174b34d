package workflow

import (
	"encoding/json"
	"strings"
	"testing"
)

// A session as a recorder might report it, with fields a careless or
// hostile page script could add: values, queries, fragments.
const capturedSession = `[
 {"kind":"click","role":"link","name":"Sign up","family":"https://shop.example/home?ref=mail#x"},
 {"kind":"navigate","url":"https://shop.example/signup/42?token=abc#top","family":"https://shop.example/home"},
 {"kind":"field","role":"textbox","name":"Email","value":"ada@example.com","family":"https://shop.example/signup/42?step=1"},
 {"kind":"select","role":"combobox","name":"Country","option":"Canada","family":"https://shop.example/signup/42"},
 {"kind":"check","role":"checkbox","name":"Subscribe to newsletter","checked":true,"family":"https://shop.example/signup/42"},
 {"kind":"field","role":"textbox","name":"Password","password":true,"text":"hunter2-Secret!","family":"https://shop.example/signup/42"},
 {"kind":"submit","role":"textbox","name":"Password","family":"https://shop.example/signup/42"},
 {"kind":"check","role":"checkbox","name":"Remember me","family":"https://shop.example/signup/42"},
 {"kind":"click","role":"button","name":"","family":"https://shop.example/signup/42"},
 {"kind":"eval","role":"button","name":"Sign up","family":"https://shop.example/signup/42"}
]`

func TestCompileCaptureStoresTargetsAndParametersNeverValues(t *testing.T) {
	var session []Captured
	if err := json.Unmarshal([]byte(capturedSession), &session); err != nil {
		t.Fatal(err)
	}
	w, err := CompileCapture(session)
	if err != nil {
		t.Fatal(err)
	}
	w.ID, w.Name = "wf_1", "Sign up"
	if err := w.Validate(); err != nil {
		t.Fatalf("compiled workflow does not validate: %v", err)
	}
	raw, _ := json.Marshal(w)
	for _, leak := range []string{"ada@example.com", "hunter2", "Canada", "token", "abc", "ref=mail", "step=1", "#top"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("workflow keeps %q: %s", leak, raw)
		}
	}
	on := true
	want := []Step{
		{Action: ActClick, Target: &Target{"link", "Sign up"}, Family: "https://shop.example/home", Expect: "done"},
		{Action: ActNavigate, URL: "https://shop.example/signup/42", Family: "https://shop.example/home", Expect: "done"},
		{Action: ActType, Target: &Target{"textbox", "Email"}, Param: "email", Family: "https://shop.example/signup/*", Expect: "value"},
		{Action: ActSelect, Target: &Target{"combobox", "Country"}, Param: "country", Family: "https://shop.example/signup/*", Expect: "state"},
		{Action: ActCheck, Target: &Target{"checkbox", "Subscribe to newsletter"}, Checked: &on, Family: "https://shop.example/signup/*", Expect: "state"},
		{Action: ActType, Target: &Target{"textbox", "Password"}, Param: "password", Submit: true, Family: "https://shop.example/signup/*", Expect: "value"},
	}
	if len(w.Steps) != len(want) {
		t.Fatalf("steps = %+v", w.Steps)
	}
	for i, s := range w.Steps {
		got, _ := json.Marshal(s)
		exp, _ := json.Marshal(want[i])
		if string(got) != string(exp) {
			t.Errorf("step %d = %s, want %s", i+1, got, exp)
		}
	}
	if len(w.Params) != 3 || !w.Params[2].Secret || w.Params[0].Secret || w.Params[0].Label != "Email" {
		t.Errorf("params = %+v", w.Params)
	}
	if len(w.Warnings) != 3 {
		t.Errorf("warnings = %q, want the unchecked check, the nameless click and the unknown kind", w.Warnings)
	}
	if w.Goal != "" {
		t.Errorf("a taught workflow has no goal words to authorize with, got %q", w.Goal)
	}
}

func TestCompileCaptureNeedsAStep(t *testing.T) {
	if _, err := CompileCapture([]Captured{{Kind: "click", Family: "https://a.example/"}}); err == nil {
		t.Fatal("a session without a replayable step compiled")
	}
}
