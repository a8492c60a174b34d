package llm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// retryPolicy bounds how long a call may keep trying: rate limits and
// server errors are retried a few times, never indefinitely.
type retryPolicy struct {
	maxRetries int           // after the first attempt
	maxWait    time.Duration // longest single wait WebBrain accepts
	backoff    time.Duration // first wait without Retry-After; doubles
	sleep      func(ctx context.Context, d time.Duration) error
}

var defaultRetry = retryPolicy{maxRetries: 2, maxWait: 30 * time.Second, backoff: time.Second, sleep: sleepCtx}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run calls attempt until it succeeds, fails for good, or the retries are
// used up. Only *Error values marked Retryable (429, 5xx) are retried.
func (p retryPolicy) run(ctx context.Context, attempt func() error) error {
	wait := p.backoff
	for i := 0; ; i++ {
		err := attempt()
		e, ok := err.(*Error)
		if err == nil || !ok || !e.Retryable || e.Kind == KindStream {
			return err
		}
		if i >= p.maxRetries {
			e.Message += fmt.Sprintf(" WebBrain tried %d more times and gave up; try again later.", p.maxRetries)
			return e
		}
		d := wait
		if e.RetryAfter > 0 {
			d = e.RetryAfter
		}
		if d > p.maxWait {
			e.Message += fmt.Sprintf(" The provider asks to wait %s, longer than WebBrain waits (%s); try again later.",
				e.RetryAfter.Round(time.Second), p.maxWait)
			return e
		}
		if err := p.sleep(ctx, d); err != nil {
			return err
		}
		wait *= 2
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date) and the
// millisecond variants some providers send. Header names are lower case.
func retryAfter(h map[string]string) time.Duration {
	for _, name := range []string{"retry-after-ms", "x-ratelimit-reset-after-ms"} {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(h[name]), 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h["retry-after"])
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
