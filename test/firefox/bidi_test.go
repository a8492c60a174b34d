//go:build firefox

package firefox

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/coder/websocket"
)

// bidi is a minimal WebDriver BiDi client: commands with ids and the
// replies matched to them.
type bidi struct {
	ws *websocket.Conn

	mu      sync.Mutex
	nextID  int
	pending map[int]chan bidiReply
	closed  error // set once the read loop ends
}

type bidiReply struct {
	Result json.RawMessage
	Err    error
}

// bidiMessage is a reply (success or error) or an event from the remote end.
type bidiMessage struct {
	Type    string          `json:"type"` // success, error, event
	ID      *int            `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

func dialBiDi(ctx context.Context, url string) (*bidi, error) {
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	// Accessibility trees and page texts can exceed the 32 KiB default.
	ws.SetReadLimit(64 << 20)
	b := &bidi{ws: ws, pending: map[int]chan bidiReply{}}
	go b.readLoop()
	return b, nil
}

func (b *bidi) readLoop() {
	for {
		_, data, err := b.ws.Read(context.Background())
		if err != nil {
			b.fail(err)
			return
		}
		var m bidiMessage
		if err := json.Unmarshal(data, &m); err != nil {
			continue
		}
		// Events are not used: the harness polls.
		if m.Type == "event" || m.ID == nil {
			continue
		}
		b.mu.Lock()
		ch := b.pending[*m.ID]
		delete(b.pending, *m.ID)
		b.mu.Unlock()
		if ch == nil {
			continue
		}
		if m.Type == "error" {
			ch <- bidiReply{Err: fmt.Errorf("%s: %s", m.Error, m.Message)}
		} else {
			ch <- bidiReply{Result: m.Result}
		}
	}
}

// fail ends every waiting command with err.
func (b *bidi) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = err
	for id, ch := range b.pending {
		ch <- bidiReply{Err: fmt.Errorf("connection lost: %w", err)}
		delete(b.pending, id)
	}
}

// call sends one command and decodes its result into out (when not nil).
func (b *bidi) call(ctx context.Context, method string, params any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	b.mu.Lock()
	if b.closed != nil {
		b.mu.Unlock()
		return fmt.Errorf("%s: connection lost: %w", method, b.closed)
	}
	b.nextID++
	id := b.nextID
	ch := make(chan bidiReply, 1)
	b.pending[id] = ch
	b.mu.Unlock()

	data, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := b.ws.Write(ctx, websocket.MessageText, data); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return fmt.Errorf("%s: %w", method, r.Err)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (b *bidi) close() {
	b.ws.Close(websocket.StatusNormalClosure, "")
}
