// Package platformtest provides in-memory implementations of the platform
// interfaces for native tests.
package platformtest

import (
	"context"
	"encoding/json"
	"sync"
)

// Storage is an in-memory platform.Storage. Values are copied in and out,
// as chrome.storage does.
type Storage struct {
	mu   sync.Mutex
	data map[string]json.RawMessage
}

// NewStorage returns an empty Storage.
func NewStorage() *Storage { return &Storage{data: map[string]json.RawMessage{}} }

// Get returns the stored values of the keys that exist; no keys means all.
func (s *Storage) Get(_ context.Context, keys ...string) (map[string]json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]json.RawMessage{}
	if len(keys) == 0 {
		for k, v := range s.data {
			out[k] = append(json.RawMessage(nil), v...)
		}
		return out, nil
	}
	for _, k := range keys {
		if v, ok := s.data[k]; ok {
			out[k] = append(json.RawMessage(nil), v...)
		}
	}
	return out, nil
}

// Keys lists the stored keys, in no order.
func (s *Storage) Keys(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	return keys, nil
}

// Set stores each item.
func (s *Storage) Set(_ context.Context, items map[string]json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range items {
		s.data[k] = append(json.RawMessage(nil), v...)
	}
	return nil
}

// Remove deletes the keys.
func (s *Storage) Remove(_ context.Context, keys ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		delete(s.data, k)
	}
	return nil
}
