package uitext

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTFillsTheEnglishAndKeepsTheParameters(t *testing.T) {
	site := T("bg_this_page", "this page")
	got := T("bg_reason_other_site", "This happens on $site$, not on the site you started on or named.", "site", site)
	assert.Equal(t, "This happens on this page, not on the site you started on or named.", got.English)
	require.NotNil(t, got.Msg)
	assert.Equal(t, "bg_reason_other_site", got.Msg.Key)
	assert.Equal(t, Msg{Key: "bg_this_page"}, got.Msg.Params["site"], "a text of WebBrain's own travels as its key")

	data := T("bg_reason_recipient", "The recipient $recipient$ is not one your request named.", "recipient", "$site$ <b>Jane</b>")
	assert.Equal(t, "The recipient $site$ <b>Jane</b> is not one your request named.", data.English, "data is never read as a template")
	assert.Equal(t, "$site$ <b>Jane</b>", data.Msg.Params["recipient"])

	plain := T("bg_x", "Open $host$.", "host", Plain("example.com"))
	assert.Equal(t, "example.com", plain.Msg.Params["host"], "a Text without a key is data")
}

func TestTheJSONThePanelReads(t *testing.T) {
	m := T("bg_err_model_failed", "The model request failed: $error$", "error",
		T("bg_err_rate_limit", "$provider$ is limiting requests (HTTP 429).", "provider", T("bg_provider_named", "The provider $name$", "name", "Local")))
	raw, err := json.Marshal(m.Msg)
	require.NoError(t, err)
	assert.JSONEq(t, `{"key":"bg_err_model_failed","params":{"error":{"key":"bg_err_rate_limit","params":{"provider":{"key":"bg_provider_named","params":{"name":"Local"}}}}}}`, string(raw))
	assert.Equal(t, "The model request failed: The provider Local is limiting requests (HTTP 429).", m.English)
	none, _ := json.Marshal(T("bg_label_text", "Text").Msg)
	assert.JSONEq(t, `{"key":"bg_label_text"}`, string(none), "no params, no field")
}

func TestMistakesPanic(t *testing.T) {
	assert.Panics(t, func() { T("k", "Open $host$.", "site", "x") }, "a name the template lacks")
	assert.Panics(t, func() { T("k", "Open $host$.", "host") }, "an odd list")
	assert.Panics(t, func() { T("k", "Open $host$.", "host", 3) }, "a value of another type")
}

func TestFill(t *testing.T) {
	v := map[string]string{"a": "1", "b": "$a$"}
	assert.Equal(t, "1 $a$ $$ $c$ $", Fill("$a$ $b$ $$$$ $c$ $", v))
	assert.Equal(t, "cost $5", Fill("cost $$5", nil))
}

func TestErrorsKeepTheirTextOnlyWhenUnchanged(t *testing.T) {
	err := Errorf("bg_err_no_provider", "No provider is selected. Open Settings and choose one.")
	assert.Equal(t, "No provider is selected. Open Settings and choose one.", err.Error())
	assert.Equal(t, "bg_err_no_provider", Of(err).Msg.Key)
	assert.Equal(t, "bg_err_no_provider", Of(fmt.Errorf("%w", err)).Msg.Key, "wrapped without words")
	wrapped := fmt.Errorf("saving: %w", err)
	assert.Nil(t, Of(wrapped).Msg, "words were added: shown as sent")
	assert.Equal(t, wrapped.Error(), Of(wrapped).English)
	assert.Nil(t, Of(errors.New("plain")).Msg)
}

func TestMapMasksEveryDataParameter(t *testing.T) {
	m := T("bg_err_provider_said", "$error$ The provider said: $detail$", "error",
		T("bg_err_needs_key", "$host$ needs an API key.", "host", "secret.example"), "detail", "key secret-1").Msg
	// Read back from JSON, as a journal restored after a restart holds it.
	raw, _ := json.Marshal(m)
	var back Msg
	require.NoError(t, json.Unmarshal(raw, &back))
	for _, msg := range []*Msg{m, &back} {
		masked := msg.Map(func(s string) string { return strings.ReplaceAll(s, "secret", "••••") })
		out, _ := json.Marshal(masked)
		assert.NotContains(t, string(out), "secret")
		assert.Contains(t, string(out), "bg_err_needs_key")
	}
	assert.Nil(t, (*Msg)(nil).Map(strings.ToUpper))
}
