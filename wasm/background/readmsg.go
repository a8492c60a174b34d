package background

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/jsonw"
)

// readMessage reads a message without encoding/json's reflection (package
// jsonw), which the first message after a wake would otherwise compile.
// It takes the usual shape only: every key one of message's exactly, plain
// strings, integer numbers, booleans, null; false leaves the message to
// json.Unmarshal, which then reads it as it always did.
func readMessage(raw []byte) (message, bool) {
	var m message
	ok := jsonw.Members(raw, func(key string, v gjson.Result) bool {
		if v.Type == gjson.Null {
			switch key {
			case "settings", "provider", "config", "memory", "skill", "workflow":
				// a json.RawMessage field holds the literal null
			case "params":
				m.Params = nil
				return true
			default:
				// json.Unmarshal leaves the field as it is
				return isMessageKey(key)
			}
		}
		switch key {
		case "action":
			return str(v, &m.Action)
		case "tabId":
			return integer(v, &m.TabID)
		case "text":
			return str(v, &m.Text)
		case "mode":
			return str(v, &m.Mode)
		case "requestId":
			return str(v, &m.RequestID)
		case "id":
			return str(v, &m.ID)
		case "answer":
			return str(v, &m.Answer)
		case "decision":
			return str(v, &m.Decision)
		case "settings":
			m.Settings = json.RawMessage(v.Raw)
		case "provider":
			m.Provider = json.RawMessage(v.Raw)
		case "config":
			m.Config = json.RawMessage(v.Raw)
		case "afterSeq":
			return integer(v, &m.AfterSeq)
		case "kind":
			return str(v, &m.Kind)
		case "memory":
			m.Memory = json.RawMessage(v.Raw)
		case "title":
			return str(v, &m.Title)
		case "runAt":
			n, ok := jsonw.Int(v)
			m.RunAt = n
			return ok
		case "intervalMinutes":
			return integer(v, &m.IntervalMinutes)
		case "all":
			return boolean(v, &m.All)
		case "intervalSeconds":
			return integer(v, &m.IntervalSeconds)
		case "keep":
			return boolean(v, &m.Keep)
		case "beep":
			return str(v, &m.Beep)
		case "skill":
			m.Skill = json.RawMessage(v.Raw)
		case "workflow":
			m.Workflow = json.RawMessage(v.Raw)
		case "days":
			return integer(v, &m.Days)
		case "selection":
			return str(v, &m.Selection)
		case "capture":
			return str(v, &m.Capture)
		case "saveAs":
			return str(v, &m.SaveAs)
		default:
			return false // params, another spelling, or a key message lacks
		}
		return true
	})
	return m, ok
}

// isMessageKey says whether key is one of message's JSON names exactly.
func isMessageKey(key string) bool {
	switch key {
	case "action", "tabId", "text", "mode", "requestId", "id", "answer", "decision", "settings", "provider",
		"config", "afterSeq", "kind", "memory", "title", "runAt", "intervalMinutes", "all", "intervalSeconds",
		"keep", "beep", "skill", "workflow", "params", "days", "selection", "capture", "saveAs":
		return true
	}
	return false
}

func str(v gjson.Result, dst *string) bool {
	s, ok := jsonw.String(v)
	*dst = s
	return ok
}

func integer(v gjson.Result, dst *int) bool {
	n, ok := jsonw.Int(v)
	*dst = int(n)
	return ok
}

func boolean(v gjson.Result, dst *bool) bool {
	switch v.Type {
	case gjson.True:
		*dst = true
	case gjson.False:
		*dst = false
	default:
		return false
	}
	return true
}

// AppendJSON writes the reply as json.Marshal would, without reflection
// for the values package jsonw covers.
func (r reply) AppendJSON(dst []byte) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	return jsonw.Append(dst, map[string]any(r))
}
