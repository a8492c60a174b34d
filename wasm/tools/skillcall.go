package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Skill tools are the network tools a skill's webbrain-tools manifest
// declares (docs/skills.md). Package skills validates a manifest and
// builds an HTTPCall from the model's arguments; the Dispatcher sends it
// under the same egress rules as fetch_url, and the agent asks the gate
// first.

// HTTPCall is one request of a skill tool.
type HTTPCall struct {
	Tool   string // the tool's name, for errors
	Method string // GET or POST
	URL    string // an https URL on the manifest's endpoint host
	Header map[string]string
	Body   []byte // JSON, for POST
}

// Builtin reports whether name is one of WebBrain's own tools, which a
// skill cannot declare.
func Builtin(name string) bool {
	_, ok := byName()[name]
	return ok || name == protocol.ToolLoadSkill || name == RequestActionMode || name == DelegateResearch
}

// skillArgTypes are the argument types a skill tool may declare: values
// that fit in a URL or a flat JSON body.
var skillArgTypes = []string{"string", "integer", "number", "boolean"}

// SkillParams checks a skill tool's parameters: a JSON Schema object whose
// properties are strings, integers, numbers or booleans, whose required
// names are properties. It returns the property names and their types.
func SkillParams(params json.RawMessage) (map[string]string, error) {
	var s struct {
		Type       string              `json:"type"`
		Properties map[string]property `json:"properties"`
		Required   []string            `json:"required"`
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if len(params) == 0 {
		return nil, errors.New("parameters is missing: give a JSON Schema object")
	}
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("parameters: %v (allowed: type, properties, required; a property has type, description, enum, minimum, maximum)", err)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf(`parameters: type must be "object", not %q`, s.Type)
	}
	out := map[string]string{}
	for name, p := range s.Properties {
		if !slices.Contains(skillArgTypes, p.Type) {
			return nil, fmt.Errorf("parameters: property %q has type %q; use one of %s", name, p.Type, strings.Join(skillArgTypes, ", "))
		}
		if p.Items != nil {
			return nil, fmt.Errorf("parameters: property %q: items is only for arrays", name)
		}
		out[name] = p.Type
	}
	for _, r := range s.Required {
		if _, ok := out[r]; !ok {
			return nil, fmt.Errorf("parameters: required %q is not a property", r)
		}
	}
	return out, nil
}

// SkillArgs checks a call's arguments against a skill tool's parameters
// (already checked by SkillParams), as the catalog's tools are checked.
func SkillArgs(tool string, params json.RawMessage, raw string) (map[string]any, error) {
	var s schema
	if err := json.Unmarshal(params, &s); err != nil {
		return nil, fmt.Errorf("%s: its parameters are not valid: %v", tool, err)
	}
	return argsBySchema(tool, &s, raw)
}

// CallHTTP sends c and returns the answer as untrusted data for the model.
// The URL must be https; a host on this computer or a local network is
// refused as fetch_url refuses it (unless the user named it or the tab
// shows it); the request carries no cookies; a redirect is an error,
// never followed: the manifest declared where its data goes.
func (d *Dispatcher) CallHTTP(ctx context.Context, c HTTPCall) (string, error) {
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%s: %q is not a valid URL", c.Tool, c.URL)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("%s: skill tools send requests only over https, not to %s", c.Tool, u.Redacted())
	}
	tabURL := ""
	if tab, err := d.p.Tabs.Get(ctx, d.tabID); err == nil {
		tabURL = tab.URL
	}
	if err := d.checkHost(ctx, c.Tool, u, tabURL); err != nil {
		return "", err
	}
	header := map[string]string{"Accept": "application/json, text/plain;q=0.9, text/html;q=0.5, */*;q=0.1"}
	for k, v := range c.Header {
		header[k] = v
	}
	if c.Method == "POST" {
		header["Content-Type"] = "application/json"
	}
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method: c.Method, URL: u.String(), Header: header, Body: c.Body,
		Timeout: fetchTimeout, Redirect: platform.RedirectManual,
	})
	if err != nil {
		return "", fetchError(ctx, c.Tool, u, err)
	}
	defer resp.Body.Close()
	if resp.Status == 0 || isRedirect(resp.Status) {
		return "", fmt.Errorf("%s: %s answered with a redirect; skill tools do not follow redirects, as the skill declared where its requests go", c.Tool, u.Redacted())
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBytes))
	if err != nil {
		return "", fetchError(ctx, c.Tool, u, err)
	}
	text, err := answerText(c.Tool, resp.Header["content-type"], body, u)
	if err != nil {
		return "", err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return "", fmt.Errorf("%s: %s answered HTTP %d:\n%s", c.Tool, u.Redacted(), resp.Status, d.b.Wrap(clip.Line(text, 500)))
	}
	head := fmt.Sprintf("%s %s answered HTTP %d.\n", c.Method, u.Redacted(), resp.Status)
	return head + d.b.pageResultWithin(text, "", MaxResultChars-len([]rune(head))), nil
}

// answerText is a skill tool's answer as text: HTML as its readable text,
// JSON and other text as sent; anything else is an error.
func answerText(tool, contentType string, body []byte, base *url.URL) (string, error) {
	kind, err := contentKind(contentType)
	if err != nil && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/") {
		return "", fmt.Errorf("%s: the answer is not text (%s)", tool, strings.TrimPrefix(err.Error(), "fetch_url: "))
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if kind == "html" {
		title, text := HTMLText(s, base)
		return strings.TrimSpace(title + "\n" + text), nil
	}
	return strings.TrimSpace(s), nil
}
