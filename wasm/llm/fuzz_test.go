package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tidwall/gjson"
)

// Fuzz tests: the seeds are the recorded streams in testdata/llm-streams
// (and, for the text tool-call reader, the calls and text in them), and run
// as ordinary tests under go test. go test -fuzz FuzzX ./wasm/llm explores
// beyond them.

// maxSeed caps a seed's size: the fuzzer mutates small inputs faster, and
// the golden tests already replay every recording whole.
const maxSeed = 32 << 10

// recording is one recorded stream as an HTTP body, with the wire format
// that reads it.
type recording struct {
	path string
	body string
	wire func(onText func(string)) streamParser
}

var wires = map[string]func(onText func(string)) streamParser{
	"chat":      (&chatWire{}).newStream,
	"anthropic": (&anthropicWire{}).newStream,
	"responses": (&responsesWire{}).newStream,
}

// recordings reads the streams in testdata/llm-streams. One-JSON-a-line
// chunks files become SSE bodies as golden_test.go makes them.
func recordings(tb testing.TB) []recording {
	tb.Helper()
	root := filepath.Join("testdata", "llm-streams")
	var out []recording
	for _, pattern := range []string{"openai-chat/*", "openai-compatible/*/*", "openai-responses/*", "anthropic-messages/*"} {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, f := range files {
			if strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".md") {
				continue
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			body := string(raw)
			wire := "chat"
			switch {
			case strings.Contains(f, "anthropic-messages"):
				wire = "anthropic"
			case strings.Contains(body, `"type":"response.`):
				wire = "responses"
			}
			if strings.HasSuffix(f, ".chunks.txt") {
				var b strings.Builder
				for _, line := range strings.Split(body, "\n") {
					if line = strings.TrimSpace(line); line == "" {
						continue
					}
					if wire != "chat" {
						b.WriteString("event: " + gjson.Get(line, "type").Str + "\n")
					}
					b.WriteString("data: " + line + "\n\n")
				}
				if wire == "chat" {
					b.WriteString("data: [DONE]\n\n")
				}
				body = b.String()
			}
			out = append(out, recording{path: f, body: body, wire: wires[wire]})
		}
	}
	if len(out) < 100 {
		tb.Fatalf("only %d recordings in %s", len(out), root)
	}
	return out
}

// readAllEvents reads every event of body through r.
func readAllEvents(r io.Reader) ([]event, error) {
	er := newEventReader(r)
	var out []event
	for {
		ev, err := er.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

// parse runs a stream parser over events as client.readStream does, and
// also returns the text deltas it reported.
func parse(newStream func(onText func(string)) streamParser, events []event) (res Result, deltas string, done bool, err error) {
	var b strings.Builder
	p := newStream(func(d string) { b.WriteString(d) })
	for _, ev := range events {
		if done, err = p.event(ev); err != nil || done {
			break
		}
	}
	return p.result(), b.String(), done, err
}

// FuzzEventReader feeds arbitrary bytes to the SSE/NDJSON event reader and
// the three stream parsers. The reader must not depend on how the body is
// cut into reads or on LF versus CRLF line ends, must deliver no more than
// it was given, and the parsers must not panic, must report every text
// they keep, and must give every finished call its arguments.
func FuzzEventReader(f *testing.F) {
	for _, r := range recordings(f) {
		body := r.body
		if len(body) > maxSeed {
			body = body[:maxSeed]
		}
		f.Add([]byte(body))
	}
	for _, s := range []string{
		": keep-alive\r\nevent: ping\r\ndata: {}\r\n\r\ndata: [DONE]\r\n\r\n",
		"data: {\"a\":\ndata: 1}\nid: 7\nretry: 100\n\n",
		"event:x\ndata:{\"b\":2}",
		"{\"n\":1}\n{\"n\":2}\n\n{\"n\":3}",
		"data: {\"x\":1}\n{\"glued\":true}\n\n",
		"\n\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		events, err := readAllEvents(bytes.NewReader(body))
		if err != nil && !errors.Is(err, errLineTooLong) {
			t.Fatalf("reading from memory failed: %v", err)
		}
		// Split anywhere, the same events come out.
		bytewise, err2 := readAllEvents(iotest.OneByteReader(bytes.NewReader(body)))
		if !reflect.DeepEqual(events, bytewise) || err2 != err {
			t.Fatalf("one byte per read gives other events:\n%q\n%q", bytewise, events)
		}
		// CRLF line ends read as LF ones.
		if !bytes.ContainsRune(body, '\r') {
			crlf, _ := readAllEvents(bytes.NewReader(bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n"))))
			if !reflect.DeepEqual(events, crlf) {
				t.Fatalf("CRLF line ends give other events:\n%q\n%q", crlf, events)
			}
		}
		// Each line feeds at most one event: no more events than lines,
		// no more bytes than the body.
		size := 0
		for _, ev := range events {
			size += len(ev.Name) + len(ev.Data)
		}
		if lines := bytes.Count(body, []byte("\n")) + 1; len(events) > lines || size > len(body) {
			t.Fatalf("%d events of %d bytes from %d lines of %d bytes", len(events), size, lines, len(body))
		}
		for name, newStream := range wires {
			res, deltas, done, err := parse(newStream, events)
			if !strings.HasSuffix(deltas, res.Content) || len(res.Content) > len(body) {
				t.Fatalf("%s: content %q is not what OnText reported last (%q)", name, res.Content, deltas)
			}
			if !done || err != nil {
				continue
			}
			if res.FinishReason == "" {
				t.Errorf("%s: finished without a finish reason", name)
			}
			for _, c := range res.ToolCalls {
				if c.Arguments == "" {
					t.Errorf("%s: call %q without arguments", name, c.Name)
				}
			}
		}
	})
}

// textCallShapes writes a call in the shapes local models use.
func textCallShapes(name, args string) []string {
	doc := fmt.Sprintf(`{"name": %q, "arguments": %s}`, name, args)
	shapes := []string{
		"<tool_call>\n" + doc + "\n</tool_call>",
		"```json\n" + doc + "\n```",
		"<function=" + name + ">" + args + "</function>",
		"[TOOL_CALLS][" + doc + "]",
		doc,
		fmt.Sprintf(`{"name": %q, "arguments": %q}`, name, args),
		fmt.Sprintf(`{"function": {"name": %q, "parameters": %s}}`, name, args),
	}
	var params strings.Builder
	gjson.Parse(args).ForEach(func(k, v gjson.Result) bool {
		params.WriteString("<parameter=" + k.String() + ">\n" + v.String() + "\n</parameter>\n")
		return true
	})
	return append(shapes, "<function="+name+">\n"+params.String()+"</function>")
}

// fuzzTools are the tools the text fuzz offers: WebBrain's and those the
// recordings call.
func fuzzTools(tb testing.TB) (map[string]bool, []string) {
	known := map[string]bool{"click": true, "navigate": true, "type_text": true, "done": true}
	var seeds []string
	for _, r := range recordings(tb) {
		events, _ := readAllEvents(strings.NewReader(r.body))
		res, _, _, _ := parse(r.wire, events)
		if res.Content != "" && len(res.Content) <= maxSeed {
			seeds = append(seeds, res.Content)
		}
		for _, c := range res.ToolCalls {
			if c.Name == "" || !gjson.Valid(c.Arguments) {
				continue
			}
			known[c.Name] = true
			seeds = append(seeds, textCallShapes(c.Name, c.Arguments)...)
		}
	}
	return known, seeds
}

// FuzzTextToolCalls feeds arbitrary replies to the reader of tool calls
// written as text (finishTextToolCalls). A call it makes names an offered
// tool and carries a JSON object; a reply it turns into calls is nothing
// but calls, so prose after it keeps the whole reply text; a reply it
// leaves alone is not changed.
func FuzzTextToolCalls(f *testing.F) {
	known, seeds := fuzzTools(f)
	for _, s := range seeds {
		f.Add(s)
	}
	for _, s := range []string{
		injectedQuote,
		`<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>`,
		`<tool_call>{"name":"click","arguments":{"ref":</tool_call>`,
		`{"name":"click","arguments":"{\"ref\":\"e2\"}"}`,
		"I'll click it.\n<tool_call>{\"name\": \"click\", \"arguments\": {\"ref\": \"e5\"}}</tool_call>",
		`[TOOL_CALLS][{"name":"click","arguments":{"ref":"e1"}},{"name":"click","arguments":{"ref":"e2"}}]`,
		"<function=navigate>\n<parameter=url>\nhttps://x.y/?q=\"a\"\n</parameter>\n<parameter=new_tab>true</parameter>\n</function>",
	} {
		f.Add(s)
	}
	var tools []ToolSpec
	for name := range known {
		tools = append(tools, ToolSpec{Name: name})
	}
	f.Fuzz(func(t *testing.T, text string) {
		calls := textToolCalls(text, known)
		for _, c := range calls {
			if !known[c.Name] {
				t.Errorf("call of %q, which is not offered", c.Name)
			}
			if a := strings.TrimSpace(c.Arguments); !json.Valid([]byte(a)) || !strings.HasPrefix(a, "{") {
				t.Errorf("%s: arguments %q are not a JSON object", c.Name, c.Arguments)
			}
		}
		if !reflect.DeepEqual(calls, textToolCalls(text, known)) {
			t.Fatal("two reads of the same reply differ")
		}
		// Prose before or after the calls: the reply stays text.
		if c := textToolCalls("Sure, here it is:\n"+text, known); c != nil {
			t.Errorf("prose before the reply still gives calls %+v", c)
		}
		if c := textToolCalls(text+"\n\nThat should do it.", known); c != nil {
			t.Errorf("prose after the reply still gives calls %+v", c)
		}

		res := Result{Content: text, FinishReason: FinishStop}
		finishTextToolCalls(&res, tools)
		switch {
		case len(calls) == 0 && (res.Content != text || res.ToolCalls != nil || res.FinishReason != FinishStop):
			t.Errorf("a reply without calls changed: %+v", res)
		case len(calls) > 0 && (res.Content != "" || len(res.ToolCalls) != len(calls) || res.FinishReason != FinishToolCalls):
			t.Errorf("calls %+v became %+v", calls, res)
		}
		for i, c := range res.ToolCalls {
			if c.ID != fmt.Sprintf("call_text_%d", i) {
				t.Errorf("call %d has id %q", i, c.ID)
			}
		}
	})
}
