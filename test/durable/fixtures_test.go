//go:build e2e

package durable

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// fixtureHandler serves testdata and the fixture pages that must be
// counted by the server itself because the page that asked is gone
// (a navigation, a form post) or is busy (a mark sent from an event
// handler): every request names its run with ?run=.
//
//	POST /mark?run=R&ev=E      a page's signal, answered at once
//	POST /submit?run=R&hold=MS a form post; the answer waits MS
//	GET  /report?run=R&hold=MS a navigation target; the answer waits MS
//
// The answers of /submit and /report say how many times they were served
// for the run, which is what the model reads back.
func fixtureHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	page := func(w http.ResponseWriter, r *http.Request, ev, title, line string) {
		run := r.URL.Query().Get("run")
		n := env.served.add(run, ev)
		if ms, _ := strconv.Atoi(r.URL.Query().Get("hold")); ms > 0 {
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1><p id=\"summary\">%s: %d</p><p>Run %s.</p></body></html>",
			title, title, line, n, html.EscapeString(run))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mark", func(w http.ResponseWriter, r *http.Request) {
		env.served.add(r.URL.Query().Get("run"), "mark "+r.URL.Query().Get("ev"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/submit", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "post only", http.StatusMethodNotAllowed)
			return
		}
		page(w, r, "submit", "Settings saved", "Submissions received")
	})
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		page(w, r, "report", "Monthly report", "Report views")
	})
	mux.HandleFunc("/price", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, env.prices.get(r.URL.Query().Get("run")))
	})
	mux.Handle("/tasks/", tasksHandler(dir))
	mux.Handle("/", files)
	return mux
}

// prices is what /price answers per run (price.html shows it): "64 €"
// until a test sets another.
type prices struct {
	mu sync.Mutex
	m  map[string]string
}

func (p *prices) get(run string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.m[run]; ok {
		return v
	}
	return "64 €"
}

func (p *prices) set(run, v string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]string{}
	}
	p.m[run] = v
}

// serverLog counts the fixture server's events per run and lets a test
// wait for one.
type serverLog struct {
	mu     sync.Mutex
	counts map[string]int
	waits  map[string][]chan struct{}
}

func logKey(run, ev string) string { return run + "\x00" + ev }

// add counts one event and returns the count so far.
func (l *serverLog) add(run, ev string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts == nil {
		l.counts, l.waits = map[string]int{}, map[string][]chan struct{}{}
	}
	k := logKey(run, ev)
	l.counts[k]++
	for _, c := range l.waits[k] {
		close(c)
	}
	delete(l.waits, k)
	return l.counts[k]
}

func (l *serverLog) count(run, ev string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counts[logKey(run, ev)]
}

// seen is closed once the run has had the event.
func (l *serverLog) seen(run, ev string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := make(chan struct{})
	if l.counts[logKey(run, ev)] > 0 {
		close(c)
		return c
	}
	if l.waits == nil {
		l.counts, l.waits = map[string]int{}, map[string][]chan struct{}{}
	}
	l.waits[logKey(run, ev)] = append(l.waits[logKey(run, ev)], c)
	return c
}
