package platformtest

import (
	"sync"
	"time"
)

// Clock is a platform.Clock whose waits end at once: After moves its time
// on by the wait and fires, so code that polls or times out runs through
// without sleeping, and sees the time it waited pass.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock at the Unix epoch.
func NewClock() *Clock { return &Clock{now: time.Unix(0, 0)} }

// Now is the clock's time: where it started plus every wait so far.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After moves the clock on by d and returns a channel that has fired.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}
