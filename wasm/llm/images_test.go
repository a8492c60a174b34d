package llm_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

var (
	shot1 = Image{MediaType: "image/jpeg", Data: "/9j/AAEC"}
	shot2 = Image{MediaType: "image/png", Data: "iVBORw0K"}
)

// Every wire format carries a user message's images in its own shape,
// after the text, and the fake server reads them back.
func TestImagesEveryKind(t *testing.T) {
	// where the first message's image sits in each body, and its value
	wire := map[string][2]string{
		protocol.KindOpenAIChat:      {"messages.1.content.1.image_url.url", "data:image/jpeg;base64,/9j/AAEC"},
		protocol.KindAzure:           {"messages.1.content.1.image_url.url", "data:image/jpeg;base64,/9j/AAEC"},
		protocol.KindOpenAIResponses: {"input.0.content.1.image_url", "data:image/jpeg;base64,/9j/AAEC"},
		protocol.KindAnthropic:       {"messages.0.content.1.source.data", "/9j/AAEC"},
		protocol.KindBedrock:         {"messages.0.content.1.image.source.bytes", "/9j/AAEC"},
	}
	for _, cfg := range allKinds {
		t.Run(cfg.Kind, func(t *testing.T) {
			srv := llmtest.NewTurns(llmtest.Turn{Text: "I see a form."})
			defer srv.Close()
			c, _ := newClient(t, cfg, srv)
			msgs := []Message{
				{Role: RoleSystem, Content: "You drive a browser."},
				{Role: RoleUser, Content: "What is on the page?", Images: []Image{shot1}},
				{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "scroll", Arguments: `{}`}}},
				{Role: RoleTool, ToolCallID: "c1", Name: "scroll", Content: "scrolled"},
				{Role: RoleUser, Content: "Screenshot after:", Images: []Image{shot2}},
			}
			if _, err := c.Chat(context.Background(), Request{Messages: msgs}); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0]
			if at := wire[cfg.Kind]; gjson.GetBytes(got.Body, at[0]).Str != at[1] {
				t.Fatalf("%s = %q, want %q in %s", at[0], gjson.GetBytes(got.Body, at[0]).Str, at[1], got.Body)
			}
			var images [][]Image
			var texts []string
			for _, m := range got.Messages {
				if m.Role == RoleUser {
					images = append(images, m.Images)
					texts = append(texts, m.Content)
				}
			}
			want := [][]Image{{shot1}, {shot2}}
			// Converse without tools carries earlier calls as text, in the
			// user turn before the screenshot's text.
			if !reflect.DeepEqual(images, want) || texts[0] != "What is on the page?" || !strings.HasSuffix(texts[1], "Screenshot after:") ||
				cfg.Kind != protocol.KindBedrock && texts[1] != "Screenshot after:" {
				t.Fatalf("user messages: images %+v texts %q", images, texts)
			}
		})
	}
}

// A message without images keeps the plain string content.
func TestNoImagesKeepsStringContent(t *testing.T) {
	for _, cfg := range []Config{allKinds[0], allKinds[1]} {
		srv := llmtest.NewTurns(llmtest.Turn{Text: "ok"})
		c, _ := newClient(t, cfg, srv)
		if _, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}); err != nil {
			t.Fatal(err)
		}
		body := srv.Requests()[0].Body
		path := "messages.0.content"
		if cfg.Kind == protocol.KindOpenAIResponses {
			path = "input.0.content"
		}
		if v := gjson.GetBytes(body, path); v.Type != gjson.String || v.Str != "hi" {
			t.Errorf("%s: %s = %s", cfg.Kind, path, v.Raw)
		}
		srv.Close()
	}
}

func TestPruneImages(t *testing.T) {
	conv := []Message{{Role: RoleSystem, Content: "sys"}}
	for i := 0; i < 6; i++ {
		conv = append(conv, Message{Role: RoleUser, Content: "shot", Images: []Image{shot1}},
			Message{Role: RoleAssistant, Content: "ok"})
	}
	conv[1].Content = ""
	out := PruneImages(conv, 4)
	var kept []int
	for i, m := range out {
		if len(m.Images) > 0 {
			kept = append(kept, i)
		}
	}
	if !reflect.DeepEqual(kept, []int{5, 7, 9, 11}) {
		t.Fatalf("images kept at %v", kept)
	}
	if out[1].Content != ImageOmitted || out[3].Content != "shot\n\n"+ImageOmitted || out[5].Content != "shot" {
		t.Fatalf("pruned texts %q %q %q", out[1].Content, out[3].Content, out[5].Content)
	}
	if len(conv[1].Images) != 1 || conv[3].Content != "shot" {
		t.Fatal("the input conversation was modified")
	}
	if again := PruneImages(out, 4); &again[0] != &out[0] {
		t.Fatal("a conversation within the limit should come back as is")
	}
}
