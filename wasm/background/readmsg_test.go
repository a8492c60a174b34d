package background

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/jsonw"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/settings"
)

// readMessage reads what it takes exactly as json.Unmarshal does, and
// leaves to it what it does not take.
func TestReadMessageIsUnmarshal(t *testing.T) {
	taken := []string{
		`{"action":"settings_get"}`,
		`{"action":"chat_start","tabId":7,"text":"find \"flights\"\nto Oslo ✓","mode":"act","requestId":"r1","selection":"","capture":"full","saveAs":"x"}`,
		`{"action":"settings_save","settings":{"maxSteps": 5, "providers":[]},"provider":null,"config":[1,2]}`,
		`{"action":"job_update","id":"j","title":"t","runAt":1765000000000,"intervalMinutes":30,"all":true,"keep":false}`,
		`{"action":"run_state","tabId":-1,"afterSeq":12,"days":3,"beep":"short","intervalSeconds":60,"kind":"fact","memory":{"a":1},"skill":"s","workflow":{},"answer":"a","decision":"yes"}`,
		`{"action":"x","tabId":null,"text":null,"params":null,"all":null}`,
		`{"action":"a","action":"b"}`,
		`{}`,
	}
	for _, raw := range taken {
		got, ok := readMessage([]byte(raw))
		if !ok {
			t.Errorf("readMessage(%s) left it to json.Unmarshal", raw)
			continue
		}
		var want message
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("readMessage(%s) = %+v; json.Unmarshal: %+v", raw, got, want)
		}
	}
	for _, raw := range []string{
		`{"Action":"settings_get"}`, `{"action":"x","extra":1}`, `{"tabId":"5"}`, `{"tabId":1.5}`, `{"text":"\u00e9"}`,
		`{"params":{"a":"b"}}`, `{"all":1}`, `[1]`, `null`, `{"action":`, ``,
	} {
		if _, ok := readMessage([]byte(raw)); ok {
			t.Errorf("readMessage(%s) took a shape it should leave to json.Unmarshal", raw)
		}
	}
}

// The settings view, the header and the reply are written as json.Marshal
// writes them.
func TestSettingsViewJSON(t *testing.T) {
	full := settings.Defaults()
	full.Providers = append(full.Providers, llm.Config{ID: "az", Name: "Azure <work> & co", Kind: "azure", BaseURL: "https://x.example/",
		APIKey: "sk-secret", Model: "gpt", Tier: "high", ContextWindow: 128000, Deployment: "d", APIVersion: "2024", Region: "eu",
		VisionMode: "always", LegacyVision: true})
	full.CaptchaSolverKey, full.Theme, full.DailyAllowanceUSD, full.RunAllowanceUSD = "cap", "dark", 2.5, 1e-7
	full.Prices = map[string]cost.Price{"m": {Input: 1, Output: 2.25}}
	empty := settings.Settings{}
	for _, s := range []settings.Settings{settings.Defaults(), full, empty} {
		v := viewOf(s)
		for _, val := range []any{v, settings.HeaderOf(s), okReply("settings", v, "providerTests", testRecords{}, "n", nil),
			testRecords{"az": {OK: true, Model: "gpt", At: 5}}, testRecords(nil), settingsView{}} {
			want, err := json.Marshal(val)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jsonw.Marshal(val)
			if err != nil || string(got) != string(want) {
				t.Errorf("jsonw.Marshal = %s, %v\njson.Marshal  = %s", got, err, want)
			}
		}
		h, _ := json.Marshal(settings.HeaderOf(s))
		got, ok := settings.ReadHeader(h)
		var want settings.Header
		_ = json.Unmarshal(h, &want)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ReadHeader(%s) = %+v, %v; json.Unmarshal: %+v", h, got, ok, want)
		}
	}
}

// fill sets every field reachable from v to a value other than its zero,
// so a field added to Settings or llm.Config later and not written by
// AppendJSON shows as a difference from json.Marshal.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x<" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

func TestSettingsViewJSONWritesEveryField(t *testing.T) {
	var s settings.Settings
	fill(reflect.ValueOf(&s).Elem())
	v := viewOf(s)
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsonw.Marshal(v)
	if err != nil || string(got) != string(want) {
		t.Errorf("a field of settings.Settings or llm.Config is not written by settingsView.AppendJSON:\njsonw.Marshal = %s, %v\njson.Marshal  = %s", got, err, want)
	}
	h := settings.HeaderOf(s)
	fill(reflect.ValueOf(&h).Elem())
	want, _ = json.Marshal(h)
	if got, err := jsonw.Marshal(h); err != nil || string(got) != string(want) {
		t.Errorf("a field of settings.Header is not written by its AppendJSON:\n%s\n%s", got, want)
	}
}
