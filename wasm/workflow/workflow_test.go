package workflow

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
)

const tree = `<untrusted-page-content-x>
heading "Newsletter sign-up" [ref_1] level=1
 textbox "Email" [ref_2] type=email
 combobox "Country" [ref_3]
 checkbox "Subscribe to newsletter" [ref_4]
 textbox "Password" [ref_5] type=password
 button "Sign up" [ref_6]
</untrusted-page-content-x>`

func call(id, name string, args map[string]any) llm.ToolCall {
	raw, _ := json.Marshal(args)
	return llm.ToolCall{ID: id, Name: name, Arguments: string(raw)}
}

func turn(calls []llm.ToolCall, results []string, final string) []llm.Message {
	conv := []llm.Message{{Role: llm.RoleUser, Content: "Sign me up as ada@example.com from Canada\n\nThe user is on this page:\n<x>\nURL: https://shop.example/signup/42?utm=1#top\nTitle: Sign up\n</x>"}}
	for i, c := range calls {
		conv = append(conv, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{c}},
			llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: results[i]})
	}
	return append(conv, llm.Message{Role: llm.RoleAssistant, Content: final})
}

func TestCompileKeepsSemanticTargetsAndDeclaresParameters(t *testing.T) {
	conv := turn([]llm.ToolCall{
		call("1", "get_accessibility_tree", map[string]any{}),
		call("2", "type_ax", map[string]any{"ref": "ref_2", "text": "ada@example.com"}),
		call("3", "set_field", map[string]any{"ref": "ref_3", "value": "Canada"}),
		call("4", "set_field", map[string]any{"ref": "ref_4", "checked": true}),
		call("5", "type_ax", map[string]any{"ref": "ref_5", "text": "hunter2-Secret!"}),
		call("6", "click", map[string]any{"x": 10, "y": 20}),
		call("7", "hover", map[string]any{"ref": "ref_6"}),
		call("8", "click_ax", map[string]any{"ref": "ref_9"}),
		call("9", "click_ax", map[string]any{"ref": "ref_6"}),
	}, []string{tree, "Typed.", "Selected Canada.", "Checked.", "Typed.", "Clicked.", "Error: the element is covered", "Clicked.", "Clicked."}, "Done: you are signed up.")
	w, err := Compile(conv)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(w)
	for _, leak := range []string{"ref_", "ada@example.com", "hunter2", "Canada\"", "utm", "#top", "\"x\"", "42"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the workflow keeps %q: %s", leak, raw)
		}
	}
	var actions []string
	for _, s := range w.Steps {
		actions = append(actions, s.Action+":"+s.Target.Role+":"+s.Target.Name+":"+s.Param)
		if s.Family != "https://shop.example/signup/*" {
			t.Errorf("step family %q", s.Family)
		}
	}
	want := "type:textbox:Email:email set:combobox:Country:country check:checkbox:Subscribe to newsletter: type:textbox:Password:password click:button:Sign up:"
	if got := strings.Join(actions, " "); got != want {
		t.Errorf("steps %s\nwant %s", got, want)
	}
	if len(w.Params) != 3 || !w.Params[2].Secret || w.Params[0].Secret {
		t.Errorf("params %+v", w.Params)
	}
	if w.Goal != "Sign me up as {email} from {country}" {
		t.Errorf("goal %q", w.Goal)
	}
	if len(w.Warnings) != 3 {
		t.Errorf("warnings %q, want the coordinate click, the failed hover and the unknown ref", w.Warnings)
	}
	w.ID, w.Name = "wf_1", "Sign up"
	if err := w.Validate(); err != nil {
		t.Errorf("a compiled workflow does not validate: %v", err)
	}
}

func TestCompileUsesTheNewestSuccessfulTurn(t *testing.T) {
	ok := turn([]llm.ToolCall{call("1", "get_accessibility_tree", nil), call("2", "click_ax", map[string]any{"ref": "ref_6"})},
		[]string{tree, "Clicked."}, "Signed up.")
	failedTurn := turn([]llm.ToolCall{call("3", "get_accessibility_tree", nil), call("4", "click_ax", map[string]any{"ref": "ref_4"}),
		call("5", "done", map[string]any{"summary": "no", "status": "failed"})}, []string{tree, "Clicked.", "ok"}, "It failed.")
	w, err := Compile(append(ok, failedTurn...))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Steps) != 1 || w.Steps[0].Target.Name != "Sign up" {
		t.Errorf("steps %+v, want the click of the successful turn", w.Steps)
	}
	if _, err := Compile(failedTurn); err == nil {
		t.Error("a conversation with only a failed turn compiled")
	}
}

func TestResolveNeedsExactlyOneMatch(t *testing.T) {
	n, err := Resolve(tree, Target{Role: "button", Name: "Sign up"})
	if err != nil || n.Ref != "ref_6" {
		t.Errorf("got %+v, %v", n, err)
	}
	if _, err := Resolve(tree, Target{Role: "link", Name: "Sign up"}); err == nil {
		t.Error("a role that differs matched")
	}
	two := tree + "\n button \"Sign up\" [ref_7]"
	if _, err := Resolve(two, Target{Role: "button", Name: "Sign up"}); err == nil || !strings.Contains(err.Error(), "2 elements") {
		t.Errorf("two matches: %v", err)
	}
}

func TestFamily(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Shop.example/orders/12345/edit?x=1": "https://shop.example/orders/*/edit",
		"http://127.0.0.1:8080/form.html":            "http://127.0.0.1:8080/form.html",
		"https://a.example/":                         "https://a.example/",
		"about:blank":                                "",
	} {
		if got := Family(raw); got != want {
			t.Errorf("Family(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestParseRejectsUndeclaredParameters(t *testing.T) {
	raw := `{"schema":"webbrain-workflow/1","id":"wf_1","name":"x","params":[],"steps":[{"action":"type","target":{"role":"textbox","name":"Email"},"param":"email","family":"https://a.example/"}]}`
	if _, err := Parse([]byte(raw)); err == nil {
		t.Error("a step with an undeclared parameter was accepted")
	}
}

func TestCompileSkipsAQuestionAskedAfterTheRun(t *testing.T) {
	run := turn([]llm.ToolCall{call("1", "get_accessibility_tree", nil), call("2", "click_ax", map[string]any{"ref": "ref_6"})},
		[]string{tree, "Clicked."}, "Signed up.")
	question := turn([]llm.ToolCall{call("3", "read_page", nil)}, []string{"page text"}, "It says you are signed up.")
	w, err := Compile(append(run, question...))
	if err != nil || len(w.Steps) != 1 {
		t.Fatalf("steps %+v, %v: want the click of the run before the question", w.Steps, err)
	}
}

func TestNodesReadTreeLinesAndResults(t *testing.T) {
	text := "heading \"Sign in\" level=1\n" +
		"  textbox \"Email\" [ref_4] value=\"\"\n" +
		"  textbox \"Password\" [ref_5] type=password\n" +
		"Clicked button \"Say \\\"hi\\\"\" [ref_12] \n" +
		"  button \"In a frame\" [f1:ref_3]\n" +
		"link \"Home\" [ref_x]\n" +
		"URL: https://a.example/one\nURL: https://b.example/two extra"
	got := Nodes(text)
	want := []Node{{Role: "textbox", Name: "Email", Ref: "ref_4"}, {Role: "textbox", Name: "Password", Ref: "ref_5", Password: true},
		{Role: "button", Name: `Say "hi"`, Ref: "ref_12"}}
	if len(got) != len(want) {
		t.Fatalf("nodes %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("node %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if p := lastPage(text); p != "https://b.example/two" {
		t.Errorf("last page %q", p)
	}
	if !secretLabel("Card PIN") || secretLabel("Spinner speed") || !secretLabel("Your password") {
		t.Error("secret labels")
	}
}
