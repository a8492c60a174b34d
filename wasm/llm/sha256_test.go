package llm

import (
	"crypto/hmac"
	"crypto/sha256"
	"math/rand"
	"testing"
)

// The hand-written SHA-256 and HMAC agree with the standard library on
// every length around the block and padding boundaries and on random
// data, keys longer than a block included.
func TestSHA256AndHMACMatchTheStandardLibrary(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 300; n++ {
		data := make([]byte, n)
		rng.Read(data)
		if got, want := sha256Sum(data[:n/2], data[n/2:]), sha256.Sum256(data); got != want {
			t.Fatalf("sha256 of %d bytes: %x, want %x", n, got, want)
		}
		key := make([]byte, n%150)
		rng.Read(key)
		m := hmac.New(sha256.New, key)
		m.Write(data)
		if got, want := hmacSHA256(key, data), m.Sum(nil); !hmac.Equal(got, want) {
			t.Fatalf("hmac key %d data %d: %x, want %x", len(key), n, got, want)
		}
	}
}
