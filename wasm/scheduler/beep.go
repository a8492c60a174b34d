package scheduler

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// /beep: a watch started with it offers its checks a beep({event_key,
// message}) tool. The tool plays nothing: it arms the alert for the event
// the check saw, under a key that names that event. A key already
// reported is a duplicate, so the same event is never alerted (or acted
// on) twice. The tone plays only when the check then ends with a verified
// done(success); a success without a beep is recorded as a warning and
// stays silent (docs/decisions/scheduler.md).

// Bounds of the event keys.
const (
	MaxBeepKey  = 120 // runes
	MaxBeepKeys = 50  // keys kept; the oldest go first
)

// Results of ArmBeep.
var (
	ErrNoBeep    = errors.New("this watch has no /beep alert")
	ErrBeepKey   = errors.New("event_key must name the event in 1 to 120 characters")
	ErrDuplicate = errors.New("this event was already reported")
)

// validTone reports whether a /beep tone is known ("" is no /beep).
func validTone(t string) bool {
	switch t {
	case "", platform.ToneDefault, platform.ToneShort, platform.ToneLong:
		return true
	}
	return false
}

// normKey is the form a key is compared and stored in: trimmed, spaces
// folded, lower case, and any secret the model copied from the page
// masked (keys are stored and shown).
func normKey(k string) string {
	return strings.ToLower(secrets.Mask(strings.Join(strings.Fields(k), " "), nil))
}

// ArmBeep records key as the event the running check saw. It fails with
// ErrDuplicate when a check reported the key before (the key stays
// recorded once), and keeps only the newest MaxBeepKeys keys.
func (j *Job) ArmBeep(key string) error {
	if j.Beep == "" {
		return ErrNoBeep
	}
	k := normKey(key)
	if k == "" || utf8.RuneCountInString(k) > MaxBeepKey {
		return ErrBeepKey
	}
	for _, old := range j.BeepKeys {
		if old == k {
			return ErrDuplicate
		}
	}
	j.ArmedBeep = k
	j.BeepKeys = append(j.BeepKeys, k)
	if n := len(j.BeepKeys); n > MaxBeepKeys {
		j.BeepKeys = append([]string(nil), j.BeepKeys[n-MaxBeepKeys:]...)
	}
	return nil
}

// TakeBeep ends a check's alert: it reports whether the tone plays (an
// armed key and a verified success) and clears the armed key. A success
// the check did not arm is a warning, without sound.
func (j *Job) TakeBeep(outcome string) bool {
	armed := j.ArmedBeep != ""
	j.ArmedBeep = ""
	if j.Beep == "" {
		return false
	}
	j.Warning, j.WarningMsg = "", nil
	if outcome != "success" {
		return false
	}
	if !armed {
		t := uitext.T("bg_job_no_beep", "The check saw the event but did not call beep, so no sound played.")
		j.Warning, j.WarningMsg = t.English, t.Msg
		return false
	}
	return true
}
