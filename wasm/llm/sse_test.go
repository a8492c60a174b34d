package llm

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func readEvents(t *testing.T, r io.Reader) []event {
	t.Helper()
	er := newEventReader(r)
	var out []event
	for {
		ev, err := er.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

func TestEventReader(t *testing.T) {
	cases := []struct {
		name, in string
		want     []event
	}{
		{"crlf and comments", ": keep-alive\r\nevent: ping\r\ndata: {}\r\n\r\ndata: [DONE]\r\n\r\n",
			[]event{{"ping", "{}"}, {"", "[DONE]"}}},
		{"multi-line data", "data: {\"a\":\ndata: 1}\nid: 7\nretry: 100\n\n", []event{{"", "{\"a\":\n1}"}}},
		{"no space after colon, no final blank line", "event:x\ndata:{\"b\":2}", []event{{"x", `{"b":2}`}}},
		{"ndjson", "{\"n\":1}\n{\"n\":2}\n\n{\"n\":3}", []event{{"", `{"n":1}`}, {"", `{"n":2}`}, {"", `{"n":3}`}}},
		{"blank lines alone", "\n\n\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// One byte per read: events split anywhere must come out whole.
			got := readEvents(t, iotest.OneByteReader(strings.NewReader(c.in)))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q want %q", got, c.want)
			}
		})
	}
}

func TestEventReaderLongLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	got := readEvents(t, strings.NewReader("data: "+long+"\n\n"))
	if len(got) != 1 || got[0].Data != long {
		t.Fatalf("%d events", len(got))
	}
}
