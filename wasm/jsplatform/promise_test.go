//go:build js

package jsplatform

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"
)

func eval(src string) js.Value { return js.Global().Call("eval", src) }

func TestAwaitResolves(t *testing.T) {
	v, err := Await(context.Background(), eval(`new Promise(r => setTimeout(() => r(42), 10))`))
	if err != nil || v.Int() != 42 {
		t.Fatalf("Await = %v, %v; want 42, nil", v, err)
	}
}

func TestAwaitPlainValue(t *testing.T) {
	v, err := Await(context.Background(), js.ValueOf("plain"))
	if err != nil || v.String() != "plain" {
		t.Fatalf("Await = %v, %v; want plain, nil", v, err)
	}
}

func TestAwaitRejects(t *testing.T) {
	_, err := Await(context.Background(), eval(`Promise.reject(new TypeError("bad input"))`))
	var e *Error
	if !errors.As(err, &e) || e.Name != "TypeError" || e.Message != "bad input" {
		t.Fatalf("err = %#v; want *Error TypeError: bad input", err)
	}
	_, err = Await(context.Background(), eval(`Promise.reject("just text")`))
	if !errors.As(err, &e) || e.Message != "just text" {
		t.Fatalf("err = %#v; want *Error with message just text", err)
	}
}

func TestAwaitStopsOnContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Await(ctx, eval(`new Promise(() => {})`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want deadline exceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Await returned after %v", d)
	}
}

func TestNewPromise(t *testing.T) {
	ok := NewPromise(func() (any, error) {
		time.Sleep(5 * time.Millisecond) // runs on its own goroutine
		return "done", nil
	})
	if v, err := Await(context.Background(), ok); err != nil || v.String() != "done" {
		t.Fatalf("resolved promise = %v, %v", v, err)
	}

	failed := NewPromise(func() (any, error) { return nil, errors.New("no luck") })
	if _, err := Await(context.Background(), failed); err == nil || err.(*Error).Message != "no luck" {
		t.Fatalf("rejected promise err = %v; want no luck", err)
	}

	panicked := NewPromise(func() (any, error) { panic("boom") })
	if _, err := Await(context.Background(), panicked); err == nil || err.(*Error).Message != "panic: boom" {
		t.Fatalf("panicking promise err = %v; want panic: boom", err)
	}
}

func TestCallReportsSynchronousThrow(t *testing.T) {
	obj := eval(`({ boom() { throw new RangeError("too far") } })`)
	_, err := call(context.Background(), obj, "boom")
	var e *Error
	if !errors.As(err, &e) || e.Name != "RangeError" {
		t.Fatalf("err = %v; want RangeError", err)
	}
}
