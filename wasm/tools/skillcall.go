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
	"time"

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
	// MastodonHost is the host of a Mastodon status the call's input URL
	// names, to verify as a Mastodon instance before anything is sent
	// (verifyMastodon); "" when there is none to verify.
	MastodonHost string
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
	if err := d.verifyMastodon(ctx, c); err != nil {
		return "", err
	}
	status, u, text, err := d.skillRequest(ctx, c)
	if err != nil {
		return "", err
	}
	if status < 200 || status > 299 {
		return "", fmt.Errorf("%s: %s answered HTTP %d:\n%s", c.Tool, u.Redacted(), status, d.b.Wrap(clip.Line(text, 500)))
	}
	head := fmt.Sprintf("%s %s answered HTTP %d.\n", c.Method, u.Redacted(), status)
	return head + d.b.pageResultWithin(text, "", MaxResultChars-len([]rune(head))), nil
}

// skillRequest sends one request of a skill tool (CallHTTP's rules) and
// returns the status, the URL and the answer as text.
func (d *Dispatcher) skillRequest(ctx context.Context, c HTTPCall) (int, *url.URL, string, error) {
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return 0, nil, "", fmt.Errorf("%s: %q is not a valid URL", c.Tool, c.URL)
	}
	if u.Scheme != "https" {
		return 0, nil, "", fmt.Errorf("%s: skill tools send requests only over https, not to %s", c.Tool, u.Redacted())
	}
	tabURL := ""
	if tab, err := d.p.Tabs.Get(ctx, d.tabID); err == nil {
		tabURL = tab.URL
	}
	if err := d.checkHost(ctx, c.Tool, u, tabURL); err != nil {
		return 0, nil, "", err
	}
	header := map[string]string{"Accept": "application/json, text/plain;q=0.9, text/html;q=0.5, */*;q=0.1"}
	for k, v := range c.Header {
		header[k] = v
	}
	if c.Body != nil {
		header["Content-Type"] = "application/json"
	}
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method: c.Method, URL: u.String(), Header: header, Body: c.Body,
		Timeout: fetchTimeout, Redirect: platform.RedirectManual,
	})
	if err != nil {
		return 0, nil, "", fetchError(ctx, c.Tool, u, err)
	}
	defer resp.Body.Close()
	if resp.Status == 0 || isRedirect(resp.Status) {
		return 0, nil, "", fmt.Errorf("%s: %s answered with a redirect; skill tools do not follow redirects, as the skill declared where its requests go", c.Tool, u.Redacted())
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBytes))
	if err != nil {
		return 0, nil, "", fetchError(ctx, c.Tool, u, err)
	}
	text, err := answerText(c.Tool, resp.Header["content-type"], body, u)
	if err != nil {
		return 0, nil, "", err
	}
	return resp.Status, u, text, nil
}

// jobPoll is how often a download job's status is asked.
const jobPoll = 2 * time.Second

// jobStatus is a download job's answer: to the POST that starts it (at
// least statusUrl) and to each GET of statusUrl.
type jobStatus struct {
	StatusURL  string `json:"statusUrl"`
	Status     string `json:"status"` // pending, running, done or failed
	FileURL    string `json:"fileUrl"`
	CleanupURL string `json:"cleanupUrl"`
	Error      string `json:"error"`
}

// DownloadJob runs a skill's httpDownloadJob tool: c (a POST) starts the
// job, whose answer names a statusUrl on the same origin; that is polled
// every two seconds, within maxWait, until it says done with a fileUrl
// (same origin), which is saved through the browser's downloads. A
// cleanupUrl the service gives is sent a DELETE at the end, whatever
// happened. Every request follows CallHTTP's rules.
func (d *Dispatcher) DownloadJob(ctx context.Context, c HTTPCall, maxWait time.Duration) (string, error) {
	if d.p.Downloads == nil {
		return "", fmt.Errorf("%s: this browser cannot save downloads here", c.Tool)
	}
	origin, err := url.Parse(c.URL)
	if err != nil {
		return "", fmt.Errorf("%s: %q is not a valid URL", c.Tool, c.URL)
	}
	if err := d.verifyMastodon(ctx, c); err != nil {
		return "", err
	}
	var cleanup string
	defer func() {
		if cleanup != "" {
			_, _, _, _ = d.skillRequest(context.WithoutCancel(ctx), HTTPCall{Tool: c.Tool, Method: "DELETE", URL: cleanup, Header: c.Header})
		}
	}()
	st, err := d.jobStep(ctx, c, origin)
	if err != nil {
		return "", err
	}
	if st.StatusURL == "" {
		return "", fmt.Errorf("%s: the service did not give a statusUrl for the job", c.Tool)
	}
	statusURL := st.StatusURL
	deadline := d.clock.Now().Add(maxWait)
	for {
		if st.CleanupURL != "" {
			if cleanup, err = sameOrigin(c.Tool, origin, st.CleanupURL); err != nil {
				return "", err
			}
		}
		switch st.Status {
		case "failed":
			return "", fmt.Errorf("%s: the job failed:\n%s", c.Tool, d.b.Wrap(clip.Line(st.Error, 500)))
		case "done":
			file, err := sameOrigin(c.Tool, origin, st.FileURL)
			if err != nil {
				return "", err
			}
			it, err := d.p.Downloads.Download(ctx, file, downloadMaxBytes)
			if err != nil {
				return "", fmt.Errorf("%s: the download failed: %v", c.Tool, err)
			}
			return c.Tool + " saved " + downloadLine(it), nil
		}
		if d.clock.Now().After(deadline) {
			return "", fmt.Errorf("%s: the job was not done within %d s", c.Tool, int(maxWait/time.Second))
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-d.clock.After(jobPoll):
		}
		next, err := sameOrigin(c.Tool, origin, statusURL)
		if err != nil {
			return "", err
		}
		if st, err = d.jobStep(ctx, HTTPCall{Tool: c.Tool, Method: "GET", URL: next, Header: c.Header}, origin); err != nil {
			return "", err
		}
	}
}

// jobStep sends one request of a download job and reads its JSON answer.
func (d *Dispatcher) jobStep(ctx context.Context, c HTTPCall, origin *url.URL) (jobStatus, error) {
	status, u, text, err := d.skillRequest(ctx, c)
	if err != nil {
		return jobStatus{}, err
	}
	if status < 200 || status > 299 {
		return jobStatus{}, fmt.Errorf("%s: %s answered HTTP %d:\n%s", c.Tool, u.Redacted(), status, d.b.Wrap(clip.Line(text, 500)))
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		return jobStatus{}, fmt.Errorf("%s: %s did not answer with the job's JSON status", c.Tool, u.Redacted())
	}
	return st, nil
}

// sameOrigin resolves ref against origin and refuses it on another
// origin: a job's status, file and cleanup live where the job started.
func sameOrigin(tool string, origin *url.URL, ref string) (string, error) {
	u, err := origin.Parse(strings.TrimSpace(ref))
	if err != nil || ref == "" {
		return "", fmt.Errorf("%s: the service gave no valid address (%q)", tool, clip.Line(ref, 100))
	}
	if u.Scheme != origin.Scheme || u.Host != origin.Host {
		return "", fmt.Errorf("%s: the service pointed to %s, outside %s; WebBrain follows a job only on its own origin", tool, u.Redacted(), origin.Host)
	}
	u.Fragment = ""
	return u.String(), nil
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

// NodeInfo limits of the Mastodon check.
const (
	nodeInfoTimeout  = 10 * time.Second
	nodeInfoMaxBytes = 64 << 10
	nodeInfoSchema   = "http://nodeinfo.diaspora.software/ns/schema/2."
)

// verifyMastodon checks that c.MastodonHost runs Mastodon before a skill
// sends one of its status links anywhere: its same-origin NodeInfo
// (/.well-known/nodeinfo, then the 2.x document it links) must say
// software.name "mastodon". The reads carry no cookies, follow no
// redirect, and are bounded (64 KiB, 10 s each); the status link itself
// is never requested. A verified host is remembered for the run.
func (d *Dispatcher) verifyMastodon(ctx context.Context, c HTTPCall) error {
	host := c.MastodonHost
	if host == "" || d.mastodon[host] {
		return nil
	}
	origin := &url.URL{Scheme: "https", Host: host}
	var index struct {
		Links []struct{ Rel, Href string } `json:"links"`
	}
	if err := d.nodeInfo(ctx, c.Tool, origin.JoinPath("/.well-known/nodeinfo"), &index); err != nil {
		return err
	}
	var doc string
	for _, l := range index.Links {
		if strings.HasPrefix(l.Rel, nodeInfoSchema) {
			var err error
			if doc, err = sameOrigin(c.Tool, origin, l.Href); err != nil {
				return err
			}
			break
		}
	}
	if doc == "" {
		return fmt.Errorf("%s: %s does not describe itself with NodeInfo 2, so it is not taken as a Mastodon instance", c.Tool, host)
	}
	var info struct {
		Software struct{ Name string } `json:"software"`
	}
	docURL, _ := url.Parse(doc)
	if err := d.nodeInfo(ctx, c.Tool, docURL, &info); err != nil {
		return err
	}
	if !strings.EqualFold(info.Software.Name, "mastodon") {
		return fmt.Errorf("%s: %s runs %q, not Mastodon; this tool takes only Mastodon status links there", c.Tool, host, clip.Line(info.Software.Name, 40))
	}
	if d.mastodon == nil {
		d.mastodon = map[string]bool{}
	}
	d.mastodon[host] = true
	return nil
}

// nodeInfo reads one NodeInfo document of the Mastodon check into v.
func (d *Dispatcher) nodeInfo(ctx context.Context, tool string, u *url.URL, v any) error {
	if err := d.checkHost(ctx, tool, u, ""); err != nil {
		return err
	}
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method: "GET", URL: u.String(), Header: map[string]string{"Accept": "application/json"},
		Timeout: nodeInfoTimeout, Redirect: platform.RedirectManual,
	})
	if err != nil {
		return fetchError(ctx, tool, u, err)
	}
	defer resp.Body.Close()
	if resp.Status != 200 {
		return fmt.Errorf("%s: %s answered HTTP %d (a redirect is not followed), so %s is not taken as a Mastodon instance", tool, u.Redacted(), resp.Status, u.Host)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, nodeInfoMaxBytes+1))
	if err != nil {
		return fetchError(ctx, tool, u, err)
	}
	if len(body) > nodeInfoMaxBytes || json.Unmarshal(body, v) != nil {
		return fmt.Errorf("%s: %s is not a NodeInfo document of at most %d KiB", tool, u.Redacted(), nodeInfoMaxBytes>>10)
	}
	return nil
}
