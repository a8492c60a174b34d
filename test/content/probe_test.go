//go:build browser

package content

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// probe is what wb_probe answers (guard.Probe in the Go core).
type probe struct {
	Tag, Role, Type, Name, Text, Href string
	Heading                           string
	InForm                            bool
	FormAction, FormMethod, FormName  string
	FormFields                        []struct{ Name, Label, Type, Value string }
	RecordText                        string `json:"record"`
	DialogText                        string `json:"dialog"`
	Enter                             bool
	Multiline                         bool
	EnterFrom                         *probe
}

func (p *page) internal(name string, args map[string]any, out any) {
	p.t.Helper()
	a, _ := json.Marshal(args)
	raw := evalJS[json.RawMessage](p, fmt.Sprintf(`window.__wbRunTool(%q, %s).then((r) => r.ok ? r.result : {error: r.error})`, name, a))
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("%s: %s (%v)", name, raw, err)
	}
}

// TestProbeDescribesWhatAnActionWouldDo checks the action gate's view of
// controls: the button an icon sits in, the form it submits with its
// fields (passwords hidden), the item a row's button acts on, the dialog
// a confirmation sits in, and what Enter in a field submits.
func TestProbeDescribesWhatAnActionWouldDo(t *testing.T) {
	p := open(t, "/probe.html")
	var send probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#compose button")}, &send)
	if send.Tag != "button" || send.Type != "submit" || !send.InForm || send.FormMethod != "post" ||
		!strings.HasSuffix(send.FormAction, "/mail/send") || send.FormName != "New message" || !strings.Contains(send.Name, "Send now") {
		t.Fatalf("send button probe %+v", send)
	}
	fields := map[string]string{}
	for _, f := range send.FormFields {
		fields[f.Name] = f.Value
	}
	if fields["to"] != "bob@example.com" || fields["body"] != "See you at noon" || fields["pw"] != "(hidden)" || fields["token"] != "abc123" {
		t.Fatalf("form fields %+v", send.FormFields)
	}

	var del probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#del2")}, &del)
	if !strings.Contains(del.RecordText, "Quarterly report") || strings.Contains(del.RecordText, "Picnic") {
		t.Fatalf("row delete record %q", del.RecordText)
	}

	var gift probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#gift")}, &gift)
	if gift.Heading != "Gift Card" || strings.Contains(gift.RecordText, "Mouse") {
		t.Fatalf("a card in a grid is its own item: heading %q, record %q", gift.Heading, gift.RecordText)
	}
	var transfer probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#transfer")}, &transfer)
	got := map[string]string{}
	for _, f := range transfer.FormFields {
		got[f.Label] = f.Value
	}
	if transfer.InForm || got["IBAN"] != "GB33BUKB20201555555555" || got["Amount"] != "2400" {
		t.Fatalf("fields a script-driven button sends: %+v", transfer.FormFields)
	}

	var ok probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#ok")}, &ok)
	if !strings.Contains(ok.DialogText, "Delete this repository?") {
		t.Fatalf("dialog %q", ok.DialogText)
	}

	var enter probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#compose input[name=subject]"), "enter": true}, &enter)
	if enter.Type != "submit" || enter.EnterFrom == nil || !strings.Contains(enter.Name, "Send now") {
		t.Fatalf("Enter in the subject %+v", enter)
	}
	var composer probe
	p.internal("wb_probe", map[string]any{"ref": p.ref("#composer"), "enter": true}, &composer)
	if !composer.Enter || !composer.Multiline || composer.Name != "Message #general" {
		t.Fatalf("Enter in the composer %+v", composer)
	}

	var links struct {
		URL   string   `json:"url"`
		Links []string `json:"links"`
	}
	p.internal("wb_links", map[string]any{}, &links)
	joined := strings.Join(links.Links, " ")
	if !strings.Contains(joined, "/docs/help?x=1") || strings.Contains(joined, "hidden.example.net") || !strings.HasSuffix(links.URL, "/probe.html") {
		t.Fatalf("links %+v", links)
	}
}

// TestProbeNamesTheConversationAboveTheComposer checks the recipient
// evidence of messaging pages: the header above a send button or composer
// names its conversation; message text, sidebar rows and the composer's
// own label are never read as the name; two headers are ambiguous.
func TestProbeNamesTheConversationAboveTheComposer(t *testing.T) {
	p := open(t, "/chat.html")
	type conv struct{ Conversation []string }
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"ref": p.ref("#send")}, []string{"Alice Moreau"}},
		{map[string]any{"ref": p.ref("#box"), "enter": true}, []string{"Alice Moreau"}},
		{map[string]any{"ref": p.ref("#split-send")}, []string{"Project room", "Second header"}},
	} {
		var got conv
		p.internal("wb_probe", c.args, &got)
		if strings.Join(got.Conversation, "|") != strings.Join(c.want, "|") {
			t.Errorf("probe %v: conversation %q, want %q", c.args, got.Conversation, c.want)
		}
	}
	// A control beside the message box says so; a chat-list entry does not.
	type near struct{ NearComposer bool }
	for sel, want := range map[string]bool{"#icon": true, "#send": true, "#box": false, "a[href='#bob']": false} {
		var got near
		p.internal("wb_probe", map[string]any{"ref": p.ref(sel)}, &got)
		if got.NearComposer != want {
			t.Errorf("%s: nearComposer %v, want %v", sel, got.NearComposer, want)
		}
	}

	// A field with no header of its own above it, up to the region that
	// holds the conversation list, has no evidence: the gate stops.
	var lone conv
	p.internal("wb_probe", map[string]any{"ref": p.ref("#lone-send")}, &lone)
	if len(lone.Conversation) != 0 {
		t.Errorf("lone field conversation %q, want none", lone.Conversation)
	}

	// Without a heading, the selected sidebar entry that the composer's
	// label names is the conversation; a longer entry the label does not
	// contain, message text and another field's label are not.
	r := open(t, "/chat-rail.html")
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"ref": r.ref("#send")}, "general"},
		{map[string]any{"ref": r.ref("#box"), "enter": true}, "general"},
		{map[string]any{"ref": r.ref("#go")}, ""},
	} {
		var got conv
		r.internal("wb_probe", c.args, &got)
		if strings.Join(got.Conversation, "|") != c.want {
			t.Errorf("rail probe %v: conversation %q, want %q", c.args, got.Conversation, c.want)
		}
	}
}

// TestProbeReportsChipsAndTheChat checks what the recipient guard reads
// by meaning: a composer's address chips with the row each sits in (its
// labelled row, its field), never an address in a field, a message body or
// a thread; and, only when asked, a chat's message box and its message
// rows with their labels, what the structure says of their author and
// their status marks.
func TestProbeReportsChipsAndTheChat(t *testing.T) {
	p := open(t, "/chips-chat.html")
	type chip struct{ Address, Label, Row, FieldName, FieldLabel, FieldType string }
	var mail struct{ Chips []chip }
	p.internal("wb_probe", map[string]any{"ref": p.ref("#mail-send")}, &mail)
	want := []chip{
		{Address: "alice@example.com", Label: "Alice", Row: "Til", FieldName: "to", FieldLabel: "Viðtakendur", FieldType: "email"},
		{Address: "mallory@evil.test", Label: "Mallory mallory@evil.test", Row: "Falið afrit", FieldName: "bcc", FieldLabel: "Falið afrit", FieldType: "text"},
	}
	if fmt.Sprintf("%+v", mail.Chips) != fmt.Sprintf("%+v", want) {
		t.Errorf("chips %+v, want %+v", mail.Chips, want)
	}

	type message struct{ Label, Text, Side, Status string }
	type chat struct {
		Body     string
		Messages []message
	}
	var plain chat
	p.internal("wb_probe", map[string]any{"ref": p.ref("#send")}, &plain)
	if plain.Body != "" || len(plain.Messages) != 0 {
		t.Errorf("the chat reported without being asked: %+v", plain)
	}
	for _, args := range []map[string]any{
		{"ref": p.ref("#send"), "messages": true},
		{"ref": p.ref("#box"), "enter": true, "messages": true},
	} {
		var got chat
		p.internal("wb_probe", args, &got)
		want := []message{
			{Label: "Alice Moreau: Halló", Text: "Halló"},
			{Label: "Þú: Skýrslan er tilbúin", Text: "Skýrslan er tilbúin↩", Status: "Afhent"},
			{Text: "Sjáumst", Side: "self", Status: "Lesið"},
		}
		if got.Body != "Skýrslan er tilbúin" || fmt.Sprintf("%+v", got.Messages) != fmt.Sprintf("%+v", want) {
			t.Errorf("probe %v: chat %+v, want the box's text and %+v", args, got, want)
		}
	}
}
