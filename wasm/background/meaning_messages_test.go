package background

import (
	"context"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/guard"
)

// message_author sees only the row's label, as page data, and asks once
// per label in a run; a choice off the list is no reading.
func TestMessageAuthorReadsTheLabelAsPageData(t *testing.T) {
	m, srv, b := meaningOf(t, `{"choice":"self","quote":""}`)
	for range 2 {
		if got := m.MessageAuthor(context.Background(), "Вы: The report is ready."); got != guard.AuthorSelf {
			t.Fatalf("reading %q", got)
		}
	}
	reqs := srv.DecisionRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want the label read once", len(reqs))
	}
	q := reqs[0].Messages[1].Content
	inside := q[strings.Index(q, "<"+b.Tag()+">"):]
	if !strings.Contains(inside, "Вы: The report is ready.") || strings.Contains(q, "<request>") {
		t.Fatalf("the label is not page data alone:\n%s", q)
	}
	m, _, _ = meaningOf(t, `{"choice":"me","quote":""}`)
	if got := m.MessageAuthor(context.Background(), "나: 안녕"); got != "" {
		t.Fatalf("a choice off the list read as %q", got)
	}
}

// message_status sees only the status, as page data.
func TestMessageStatusReadsTheStatusAsPageData(t *testing.T) {
	m, srv, b := meaningOf(t, `{"choice":"delivered_or_read","quote":""}`)
	if got := m.MessageStatus(context.Background(), "Доставлено"); got != guard.StatusDelivered {
		t.Fatalf("reading %q", got)
	}
	q := srv.DecisionRequests()[0].Messages[1].Content
	inside := q[strings.Index(q, "<"+b.Tag()+">"):]
	if !strings.Contains(inside, "Доставлено") || strings.Contains(q, "<request>") {
		t.Fatalf("the status is not page data alone:\n%s", q)
	}
	m, _, _ = meaningOf(t, `{"choice":"delivered","quote":""}`)
	if got := m.MessageStatus(context.Background(), "Доставлено"); got != "" {
		t.Fatalf("a choice off the list read as %q", got)
	}
}
