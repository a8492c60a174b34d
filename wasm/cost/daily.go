package cost

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// DailyKey is the storage.local key of the per-day totals.
const DailyKey = protocol.KeyUsageDaily

// KeepDays is how many days the totals keep, today included.
const KeepDays = 90

// Day is one calendar day's usage (the browser's local time) and how far
// the user raised the day's allowance.
type Day struct {
	Date string `json:"date"` // YYYY-MM-DD
	Tally
	RaisedUSD float64 `json:"raisedUsd,omitempty"`
}

// daily is the stored record.
type daily struct {
	Days map[string]Day `json:"days"`
}

// Book keeps the per-day totals in storage. Every change reads the record,
// changes it and writes it back under one lock, so runs in several tabs
// add up and a restarted background goes on from what was stored.
type Book struct {
	store platform.Storage
	clock platform.Clock
	mu    sync.Mutex
}

// NewBook returns the book kept in store, dated by clock.
func NewBook(store platform.Storage, clock platform.Clock) *Book {
	return &Book{store: store, clock: clock}
}

// DateOf is the day t falls on in the browser's time zone.
func DateOf(t time.Time) string { return t.Local().Format(time.DateOnly) }

func (b *Book) load(ctx context.Context) (daily, error) {
	d := daily{}
	got, err := b.store.Get(ctx, DailyKey)
	if err != nil {
		return d, err
	}
	decode(got[DailyKey], &d) // a damaged record starts again empty
	if d.Days == nil {
		d.Days = map[string]Day{}
	}
	return d, nil
}

// update applies fn to today's entry, drops the days past KeepDays and
// writes the record; it returns today as stored.
func (b *Book) update(ctx context.Context, fn func(*Day)) (Day, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d, err := b.load(ctx)
	if err != nil {
		return Day{}, err
	}
	now := b.clock.Now()
	today := DateOf(now)
	day := d.Days[today]
	day.Date = today
	fn(&day)
	d.Days[today] = day
	oldest := DateOf(now.AddDate(0, 0, -(KeepDays - 1)))
	for date := range d.Days {
		if date < oldest {
			delete(d.Days, date)
		}
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return Day{}, err
	}
	return day, b.store.Set(ctx, map[string]json.RawMessage{DailyKey: raw})
}

// Add counts c in today's totals.
func (b *Book) Add(ctx context.Context, c Call) (Day, error) {
	return b.update(ctx, func(d *Day) { d.Add(c) })
}

// Raise adds usd to today's allowance.
func (b *Book) Raise(ctx context.Context, usd float64) (Day, error) {
	return b.update(ctx, func(d *Day) { d.RaisedUSD += usd })
}

// Today is today's entry (empty when nothing was counted yet).
func (b *Book) Today(ctx context.Context) (Day, error) {
	days, err := b.Days(ctx, 1)
	if err != nil {
		return Day{}, err
	}
	return days[0], nil
}

// Days returns the last n days, today first, each present (empty when
// nothing was counted that day).
func (b *Book) Days(ctx context.Context, n int) ([]Day, error) {
	b.mu.Lock()
	d, err := b.load(ctx)
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	now := b.clock.Now()
	out := make([]Day, 0, n)
	for i := range n {
		date := DateOf(now.AddDate(0, 0, -i))
		day := d.Days[date]
		day.Date = date
		out = append(out, day)
	}
	return out, nil
}
