package background

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// provider_test with a saved provider's id tests it with its stored key,
// keeps the result for settings_get, classifies a failure, and forgets the
// result when the provider's connection changes.
func TestProviderTestSavedKeepsResult(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	var status atomic.Int32
	status.Store(200)
	var auth atomic.Value
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		if s := int(status.Load()); s != 200 {
			w.WriteHeader(s)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided."}}`)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"tiny","object":"model"}]}`)
	}))
	defer models.Close()
	s := e.mustOK(map[string]any{"action": "settings_get"})["settings"].(map[string]any)
	prov := map[string]any{"id": "m", "name": "M", "kind": "openai-chat", "baseUrl": models.URL + "/v1", "tier": "mid", "apiKey": "sk-saved-0001", "model": "tiny"}
	s["providers"] = append(s["providers"].([]any), prov)
	e.mustOK(map[string]any{"action": "settings_save", "settings": s})

	reply := e.mustOK(map[string]any{"action": "provider_test", "id": "m"})
	if reply["model"] != "tiny" || auth.Load() != "Bearer sk-saved-0001" {
		t.Fatalf("reply %v, auth %v", reply, auth.Load())
	}
	status.Store(401)
	reply = e.send(map[string]any{"action": "provider_test", "id": "m"})
	if reply["ok"] != false || reply["reason"] != reasonAuth || !strings.Contains(reply["error"].(string), "401") {
		t.Fatalf("401 reply %v", reply)
	}
	got := e.mustOK(map[string]any{"action": "settings_get"})
	var tests map[string]testRecord
	kept, _ := json.Marshal(got["providerTests"])
	_ = json.Unmarshal(kept, &tests)
	if rec := tests["m"]; rec.OK || rec.Reason != reasonAuth || rec.At == 0 || strings.Contains(rec.Error, "sk-saved") {
		t.Fatalf("kept %+v", rec)
	}
	if d := got["defaults"].(map[string]any); d["maxSteps"] == nil {
		t.Fatalf("defaults %v", d)
	}
	if reply := e.send(map[string]any{"action": "provider_test", "id": "nope"}); reply["ok"] != false || reply["field"] != "id" {
		t.Fatalf("unknown id reply %v", reply)
	}

	// Saving it unchanged keeps the result; a new model drops it.
	view := got["settings"].(map[string]any)
	raw, _ := json.Marshal(view)
	var again map[string]any
	_ = json.Unmarshal(raw, &again)
	e.mustOK(map[string]any{"action": "settings_save", "settings": again})
	if _, ok := e.r.loadTests(context.Background())["m"]; !ok {
		t.Fatal("an unchanged save dropped the test result")
	}
	for _, p := range again["providers"].([]any) {
		if p := p.(map[string]any); p["id"] == "m" {
			p["model"] = "other"
		}
	}
	e.mustOK(map[string]any{"action": "settings_save", "settings": again})
	if _, ok := e.r.loadTests(context.Background())["m"]; ok {
		t.Fatal("a changed model kept the old test result")
	}
}

func TestProviderTestReasons(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	var status atomic.Int32
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s := int(status.Load()); s != 200 {
			w.WriteHeader(s)
			fmt.Fprint(w, `{"error":"no"}`)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"a","object":"model"}]}`)
	}))
	defer models.Close()
	for _, c := range []struct {
		status int
		key    string
		model  string
		want   string
	}{
		{401, "", "", reasonNoKey},
		{401, "sk-x-0001", "", reasonAuth},
		{200, "", "missing", reasonModelNotFound},
		{404, "", "", reasonNotFound},
		{500, "", "", reasonServer},
	} {
		status.Store(int32(c.status))
		prov := map[string]any{"id": "t", "name": "T", "kind": "openai-chat", "baseUrl": models.URL + "/v1", "tier": "mid", "apiKey": c.key, "model": c.model}
		reply := e.send(map[string]any{"action": "provider_test", "provider": prov})
		if reply["ok"] != false || reply["reason"] != c.want {
			t.Errorf("status %d key %q model %q: reply %v, want reason %s", c.status, c.key, c.model, reply, c.want)
		}
	}
}

// config_import of the original product's file replies with the report.
func TestConfigImportOriginalReport(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	raw, err := os.ReadFile("../settings/testdata/original-config.json")
	if err != nil {
		t.Fatal(err)
	}
	reply := e.mustOK(map[string]any{"action": "config_import", "config": json.RawMessage(raw)})
	out, _ := json.Marshal(reply["report"])
	if !strings.Contains(string(out), `"source":"original"`) || !strings.Contains(string(out), "aws_bedrock") || strings.Contains(string(out), "sk-ant-test-secret-1234") {
		t.Fatalf("report %s", out)
	}
	if !strings.Contains(string(out), "1 of 2 records added") {
		t.Errorf("report on memory: %s", out)
	}
	mem, _ := e.local.Get(context.Background(), protocol.KeyUserMemory)
	if m := string(mem[protocol.KeyUserMemory]); !strings.Contains(m, "I prefer metric units") || strings.Contains(m, "4111") || strings.Contains(m, "Old preference") {
		t.Errorf("memory after the import: %s", m)
	}
	got, _ := e.local.Get(context.Background(), protocol.KeySettings)
	if !strings.Contains(string(got[protocol.KeySettings]), `"activeProvider":"anthropic"`) {
		t.Fatalf("stored %s", got[protocol.KeySettings])
	}
}
