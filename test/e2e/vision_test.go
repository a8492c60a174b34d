//go:build e2e

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// With vision on, the model gets a JPEG of the tab with the task and a
// fresh one after the click; with vision off, no image at all.
func TestVisionScreenshots(t *testing.T) {
	for _, vision := range []bool{true, false} {
		t.Run(fmt.Sprintf("vision=%v", vision), func(t *testing.T) {
			srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
				switch n {
				case 0:
					return callTool("get_accessibility_tree", map[string]any{})
				case 1:
					ref, err := findRef(lastToolResult(req), "link", "Station Two")
					if err != nil {
						return scriptFailed(err)
					}
					return callTool("click_ax", map[string]any{"ref": ref})
				}
				return answer("Opened Station Two.")
			})
			s := openSession(t, "page1.html", srv, openAIChat)
			saveVision(t, s, srv, vision)
			s.send("act", "Open the Station Two page.")
			if got := s.waitRunEnd(); got != "done" {
				t.Fatalf("run status %q, want done", got)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d model requests, want 3", len(reqs))
			}
			first := userImages(reqs[0].Messages)
			last := reqs[2].Messages[len(reqs[2].Messages)-1]
			if !vision {
				if n := len(userImages(reqs[2].Messages)); n != 0 || last.Role != llm.RoleTool {
					t.Fatalf("vision off: %d images, last message %s", n, last.Role)
				}
				return
			}
			if len(first) != 1 {
				t.Fatalf("first request: %d images, want 1", len(first))
			}
			if last.Role != llm.RoleUser || len(last.Images) != 1 {
				t.Fatalf("after the click: last message %s with %d images", last.Role, len(last.Images))
			}
			for _, im := range []llm.Image{first[0], last.Images[0]} {
				checkJPEG(t, im)
			}
			if bytes.Equal([]byte(first[0].Data), []byte(last.Images[0].Data)) {
				t.Error("the screenshot after the click is the same as the first")
			}
		})
	}
}

// saveVision saves the session's provider again with vision set.
func saveVision(t *testing.T, s *session, srv *llmtest.Server, vision bool) {
	t.Helper()
	settings := map[string]any{
		"providers": []map[string]any{{
			"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": srv.URL + "/v1",
			"model": llmtest.Model, "tier": "mid", "vision": vision,
		}},
		"activeProvider": "fake",
		"maxSteps":       30,
	}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := scenario.Eval[struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}](t, s, scenario.Panel, fmt.Sprintf(`chrome.runtime.sendMessage(%s)`, msg))
	if !r.OK {
		t.Fatalf("settings_save: %s", r.Error)
	}
}

func userImages(msgs []llm.Message) []llm.Image {
	var out []llm.Image
	for _, m := range msgs {
		if m.Role == llm.RoleUser {
			out = append(out, m.Images...)
		}
	}
	return out
}

// checkJPEG fails unless im is a decodable JPEG of a sensible size.
func checkJPEG(t *testing.T, im llm.Image) {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(im.Data)
	if err != nil || im.MediaType != "image/jpeg" || len(b) < 1000 || !bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) {
		t.Fatalf("not a JPEG screenshot: %s, %d bytes, %v", im.MediaType, len(b), err)
	}
}
