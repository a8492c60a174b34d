package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// CaptchaSolverURL is the CapSolver API, the one solver service the spec
// names (captcha-solver.js). Its requests carry the user's key, the page's
// address and the widget's site key, nothing else of the page.
const CaptchaSolverURL = "https://api.capsolver.com"

// solve_captcha limits: one request to the service, and the whole solve.
const (
	captchaRequestTimeout = 20 * time.Second
	captchaSolveTimeout   = 120 * time.Second
	captchaPoll           = 3 * time.Second
	captchaMaxBody        = 64 << 10
)

// errNoSolver tells the model what to do when the user has no solver: the
// user solves the CAPTCHA, never the model another way.
var errNoSolver = errors.New("solve_captcha: no CAPTCHA solver is configured in WebBrain's settings. " +
	"Ask the user with clarify to solve the CAPTCHA on the page by hand and to answer when it is done, then continue; do not try to get around it")

// captchaWidget is what wb_captcha found on the page.
type captchaWidget struct {
	Kind    string `json:"kind"` // recaptcha_v2 or turnstile
	SiteKey string `json:"siteKey"`
	URL     string `json:"url"`
}

// captchaTask maps a widget to the service's task type and the field of
// its solution that holds the token.
var captchaTask = map[string]struct{ task, field string }{
	"recaptcha_v2": {"ReCaptchaV2TaskProxyLess", "gRecaptchaResponse"},
	"turnstile":    {"AntiTurnstileTaskProxyLess", "token"},
}

// solveCaptcha finds the widget, has the user's solver service solve it
// (createTask, then getTaskResult until ready) and puts the token into
// the page's response field.
func (d *Dispatcher) solveCaptcha(ctx context.Context) (string, error) {
	if d.captchaKey == "" {
		return "", errNoSolver
	}
	raw, err := d.internal(ctx, 0, protocol.PageCaptcha, map[string]any{})
	if err != nil {
		return "", err
	}
	var w captchaWidget
	if err := json.Unmarshal(raw, &w); err != nil || w.Kind == "" {
		return "", errors.New("solve_captcha: this page shows no reCAPTCHA v2 or Turnstile widget WebBrain can hand to the solver. If there is a CAPTCHA, ask the user with clarify to solve it by hand")
	}
	kind, ok := captchaTask[w.Kind]
	if !ok || w.SiteKey == "" {
		return "", fmt.Errorf("solve_captcha: the solver cannot take this CAPTCHA (%s); ask the user with clarify to solve it by hand", w.Kind)
	}
	ctx, cancel := context.WithTimeout(ctx, captchaSolveTimeout)
	defer cancel()
	var created struct {
		captchaReply
		TaskID string `json:"taskId"`
	}
	task := map[string]any{"type": kind.task, "websiteURL": w.URL, "websiteKey": w.SiteKey}
	if err := d.captchaCall(ctx, "createTask", map[string]any{"clientKey": d.captchaKey, "task": task}, &created); err != nil {
		return "", err
	}
	if created.TaskID == "" {
		return "", errors.New("solve_captcha: the solver service gave no task id; ask the user with clarify to solve the CAPTCHA by hand")
	}
	var token string
	for token == "" {
		select {
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return "", fmt.Errorf("solve_captcha: the solver service had no answer after %d s; ask the user with clarify to solve the CAPTCHA by hand", int(captchaSolveTimeout/time.Second))
			}
			return "", ctx.Err()
		case <-d.clock.After(captchaPoll):
		}
		var res struct {
			captchaReply
			Status   string         `json:"status"`
			Solution map[string]any `json:"solution"`
		}
		if err := d.captchaCall(ctx, "getTaskResult", map[string]any{"clientKey": d.captchaKey, "taskId": created.TaskID}, &res); err != nil {
			return "", err
		}
		switch res.Status {
		case "ready":
			token, _ = res.Solution[kind.field].(string)
			if token == "" {
				return "", errors.New("solve_captcha: the solver service answered without a token; ask the user with clarify to solve the CAPTCHA by hand")
			}
		case "failed":
			return "", errors.New("solve_captcha: the solver service could not solve this CAPTCHA; ask the user with clarify to solve it by hand")
		}
	}
	if _, err := d.internal(ctx, 0, protocol.PageCaptchaApply, map[string]any{"kind": w.Kind, "token": token}); err != nil {
		return "", err
	}
	return "The CAPTCHA solver's answer is in the page's CAPTCHA response field. Submit the form as the task needs; if the page still asks for the CAPTCHA, ask the user with clarify to solve it by hand.", nil
}

// captchaReply is the error part every answer of the service has.
type captchaReply struct {
	ErrorID          int    `json:"errorId"`
	ErrorCode        string `json:"errorCode"`
	ErrorDescription string `json:"errorDescription"`
}

func (r captchaReply) failed() error {
	if r.ErrorID == 0 {
		return nil
	}
	what := r.ErrorDescription
	if what == "" {
		what = r.ErrorCode
	}
	return fmt.Errorf("solve_captcha: the solver service refused (%s); ask the user with clarify to solve the CAPTCHA by hand, or to check the solver key in WebBrain's settings", what)
}

// captchaCall POSTs one JSON request to the service and decodes its
// answer into out, which embeds captchaReply. The key never appears in an
// error.
func (d *Dispatcher) captchaCall(ctx context.Context, method string, body map[string]any, out interface{ failed() error }) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method: "POST", URL: CaptchaSolverURL + "/" + method, Body: b,
		Header:   map[string]string{"Content-Type": "application/json"},
		Timeout:  captchaRequestTimeout,
		Redirect: platform.RedirectError,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("solve_captcha: the solver service could not be reached (%v); ask the user with clarify to solve the CAPTCHA by hand", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, captchaMaxBody))
	if err != nil {
		return fmt.Errorf("solve_captcha: the solver service's answer was cut off (%v)", err)
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(out); err != nil {
		return fmt.Errorf("solve_captcha: the solver service answered HTTP %d with something that is not its JSON; ask the user with clarify to solve the CAPTCHA by hand", resp.Status)
	}
	return out.failed()
}
