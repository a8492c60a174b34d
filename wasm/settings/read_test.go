package settings

import (
	"encoding/json"
	"reflect"
	"testing"
)

// readSettings reads what it takes exactly as json.Unmarshal does over
// the same starting value, and leaves the rest to it.
func TestReadSettingsIsUnmarshal(t *testing.T) {
	start := Settings{SiteAdapters: true, AskBeforeActions: true, Planner: "try", Memory: true}
	full, err := json.Marshal(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	taken := []string{
		string(full),
		`{}`,
		`{"providers":[{"id":"a","name":"A \"x\"","kind":"openai-chat","baseUrl":"https://a.example/v1","apiKey":"k","model":"m","tier":"high","contextWindow":8000,"deployment":"d","apiVersion":"v","region":"r","visionMode":"never","vision":true}],"activeProvider":"a","maxSteps":12,"siteAdapters":false,"askBeforeActions":false,"planner":"off","planReview":"always","decisionProvider":"a","memory":false,"memoryAutoLearn":false,"scheduledTasksEnabled":false,"notifySound":false,"researchEscalationEnabled":true,"experimentalWebMCP":true,"captchaSolverKey":"c","traces":true,"theme":"dark","dailyAllowanceUsd":1.25,"runAllowanceUsd":3e-7}`,
		`{"providers":null,"theme":null,"maxSteps":null,"prices":null,"siteAdapters":null}`,
		`{"providers":[],"providers":[{"id":"b","model":null}]}`,
	}
	for _, raw := range taken {
		got, ok := readSettings([]byte(raw), start)
		if !ok {
			t.Errorf("readSettings(%s) left it to json.Unmarshal", raw)
			continue
		}
		want := start
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("readSettings(%s)\n= %+v\njson.Unmarshal: %+v", raw, got, want)
		}
	}
	for _, raw := range []string{
		`{"prices":{"m":{"in":1,"out":2}}}`, `{"MaxSteps":5}`, `{"old":1}`, `{"maxSteps":"5"}`, `{"maxSteps":1.5}`,
		`{"providers":[{"id":"a","extra":1}]}`, `{"providers":[null]}`, `{"providers":{}}`, `{"theme":"\u00e9"}`,
		`{"dailyAllowanceUsd":1e999}`, `[]`, `{`,
	} {
		if _, ok := readSettings([]byte(raw), start); ok {
			t.Errorf("readSettings(%s) took a shape it should leave to json.Unmarshal", raw)
		}
	}
}
