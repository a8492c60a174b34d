package history

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

const liveKey = "sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX0yZ5aB7cD9eF"

func chat(t *testing.T, items ...map[string]any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"v": 1, "items": items, "queue": []any{map[string]any{"text": "draft"}}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestArchiveMasksSecretsEverywhere(t *testing.T) {
	store := Store{Area: platformtest.NewStorage(), Clock: platformtest.NewClock()}
	conv := []llm.Message{
		{Role: llm.RoleUser, Content: "Log in with key " + liveKey},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "type_ax", Arguments: `{"text":"` + liveKey + `"}`}}},
		{Role: llm.RoleTool, ToolCallID: "1", Content: "typed " + liveKey},
		{Role: llm.RoleUser, Content: "look", Images: []llm.Image{{MediaType: "image/jpeg", Data: "AAAA"}}},
	}
	tr := chat(t,
		map[string]any{"role": "user", "text": "Log in with key " + liveKey},
		map[string]any{"role": "tool", "name": "type_ax", "args": `{"text":"` + liveKey + `"}`, "result": "ok"},
	)
	e, ok, err := store.Archive(context.Background(), conv, tr, Meta{URL: "https://shop.example/cart?token=abc#x", Modes: []string{"act", "act", "ask"}})
	if err != nil || !ok {
		t.Fatalf("Archive: %v %v", ok, err)
	}
	if e.Site != "shop.example" || e.URL != "https://shop.example/cart" {
		t.Errorf("site %q url %q: want the host and the URL without query", e.Site, e.URL)
	}
	if strings.Join(e.Modes, ",") != "act,ask" {
		t.Errorf("modes %v", e.Modes)
	}
	if !strings.HasPrefix(e.Title, "Log in with key") {
		t.Errorf("title %q: want the first user message", e.Title)
	}
	rec, err := store.Get(context.Background(), e.ID)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(rec)
	if strings.Contains(string(all), liveKey) {
		t.Errorf("the archived record holds the key: %s", all)
	}
	if strings.Contains(string(all), "AAAA") || strings.Contains(string(all), "draft") {
		t.Errorf("screenshots and queued drafts are not archived: %s", all)
	}
	if len(rec.Conversation) != 4 || rec.Conversation[2].ToolCallID != "1" {
		t.Errorf("conversation not kept whole: %+v", rec.Conversation)
	}
}

func TestNothingToArchive(t *testing.T) {
	store := Store{Area: platformtest.NewStorage(), Clock: platformtest.NewClock()}
	if _, ok, err := store.Archive(context.Background(), nil, nil, Meta{}); ok || err != nil {
		t.Fatalf("an empty conversation is archived: %v %v", ok, err)
	}
	if list, _ := store.List(context.Background()); len(list) != 0 {
		t.Fatalf("list %v", list)
	}
}

func TestBoundsDropTheOldest(t *testing.T) {
	area := platformtest.NewStorage()
	store := Store{Area: area, Clock: platformtest.NewClock()}
	ctx := context.Background()
	for i := range MaxEntries + 5 {
		tr := chat(t, map[string]any{"role": "user", "text": fmt.Sprintf("question %d", i)})
		if _, _, err := store.Archive(ctx, nil, tr, Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := store.List(ctx)
	if len(list) != MaxEntries || list[0].Title != fmt.Sprintf("question %d", MaxEntries+4) || list[len(list)-1].Title != "question 5" {
		t.Fatalf("want the newest %d, newest first; got %d from %q to %q", MaxEntries, len(list), list[0].Title, list[len(list)-1].Title)
	}
	keys, _ := area.Keys(ctx)
	records := 0
	for _, k := range keys {
		if strings.HasPrefix(k, protocol.KeyChatHistoryRecord) {
			records++
		}
	}
	if records != MaxEntries {
		t.Errorf("%d records stored for %d entries: dropped ones must be removed", records, MaxEntries)
	}
}

func TestOversizedRecordIsShortened(t *testing.T) {
	big := strings.Repeat("page text ", 4000) // 40 KB per result
	var conv []llm.Message
	var items []map[string]any
	for i := range 20 {
		conv = append(conv,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("task %d", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: fmt.Sprint(i), Name: "read_page", Arguments: "{}"}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: fmt.Sprint(i), Content: big},
			llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("answer ", 3000)})
		items = append(items, map[string]any{"role": "user", "text": fmt.Sprintf("task %d", i)},
			map[string]any{"role": "tool", "name": "read_page", "args": "{}", "result": big})
	}
	rec, ok := Build(conv, chat(t, items...), Meta{}, platformtest.NewClock().Now())
	if !ok {
		t.Fatal("not built")
	}
	if rec.Bytes > MaxRecordBytes {
		t.Fatalf("record of %d bytes, bound %d", rec.Bytes, MaxRecordBytes)
	}
	if rec.Conversation[0].Role != llm.RoleUser {
		t.Errorf("a shortened conversation starts at a user turn, got %q", rec.Conversation[0].Role)
	}
	if last := rec.Conversation[len(rec.Conversation)-1]; !strings.HasPrefix(last.Content, "answer") {
		t.Errorf("the newest turn is kept: %q", last.Content[:20])
	}
}

func TestDeleteOneAndAll(t *testing.T) {
	store := Store{Area: platformtest.NewStorage(), Clock: platformtest.NewClock()}
	ctx := context.Background()
	var ids []string
	for i := range 3 {
		e, _, _ := store.Archive(ctx, nil, chat(t, map[string]any{"role": "user", "text": fmt.Sprint(i)}), Meta{})
		ids = append(ids, e.ID)
	}
	if err := store.Delete(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, ids[1]); err != ErrNotFound {
		t.Errorf("deleted record still readable: %v", err)
	}
	if err := store.Delete(ctx, ids[1]); err != ErrNotFound {
		t.Errorf("second delete: %v", err)
	}
	if list, _ := store.List(ctx); len(list) != 2 {
		t.Errorf("list %v", list)
	}
	if err := store.Delete(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if list, _ := store.List(ctx); len(list) != 0 {
		t.Errorf("after delete all: %v", list)
	}
}

func TestMarkdownExport(t *testing.T) {
	tr := chat(t,
		map[string]any{"role": "user", "text": "Pay with card 4111 1111 1111 1111"},
		map[string]any{"role": "tool", "name": "click_ax", "args": `{"ref":"e12"}`, "result": "clicked"},
		map[string]any{"role": "tool", "name": "type_ax", "args": `{"ref":"e3","text":"x"}`, "result": "no", "isError": true},
		map[string]any{"role": "approval", "text": "Pay 12 € on shop.example", "decision": "approve", "reason": "user"},
		map[string]any{"role": "plan", "text": "plan", "decision": "reject", "reason": "timeout"},
		map[string]any{"role": "assistant", "text": "Paid.\n\n- one\n- two", "outcome": "partial"},
		map[string]any{"role": "export", "json": "{}", "ephemeral": true},
	)
	md := Markdown(tr, ExportInfo{Version: "1.2.3", Site: "shop.example", Now: platformtest.NewClock().Now()})
	for _, want := range []string{
		"Exported by WebBrain 1.2.3 at 1970-01-01T00:00:00Z",
		"- Site: shop.example",
		"**You:** Pay with card",
		"- Tool `click_ax` (ref: \"e12\") → done",
		"- Tool `type_ax` (ref: \"e3\", text: \"x\") → failed",
		"- Approval card: Pay 12 € on shop.example → approve",
		"- Plan review → reject (timeout)",
		"**WebBrain (partly done):**\n\nPaid.\n\n- one\n- two",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "4111 1111 1111 1111") {
		t.Errorf("the card number is in the export:\n%s", md)
	}
	if strings.Contains(md, `"json"`) {
		t.Errorf("ephemeral items are exported")
	}
}
