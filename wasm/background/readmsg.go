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
			return jsonw.ReadString(v, &m.Action)
		case "tabId":
			return jsonw.ReadInt(v, &m.TabID)
		case "text":
			return jsonw.ReadString(v, &m.Text)
		case "mode":
			return jsonw.ReadString(v, &m.Mode)
		case "requestId":
			return jsonw.ReadString(v, &m.RequestID)
		case "id":
			return jsonw.ReadString(v, &m.ID)
		case "answer":
			return jsonw.ReadString(v, &m.Answer)
		case "decision":
			return jsonw.ReadString(v, &m.Decision)
		case "settings":
			m.Settings = json.RawMessage(v.Raw)
		case "provider":
			m.Provider = json.RawMessage(v.Raw)
		case "config":
			m.Config = json.RawMessage(v.Raw)
		case "afterSeq":
			return jsonw.ReadInt(v, &m.AfterSeq)
		case "kind":
			return jsonw.ReadString(v, &m.Kind)
		case "memory":
			m.Memory = json.RawMessage(v.Raw)
		case "title":
			return jsonw.ReadString(v, &m.Title)
		case "runAt":
			n, ok := jsonw.Int(v)
			m.RunAt = n
			return ok
		case "intervalMinutes":
			return jsonw.ReadInt(v, &m.IntervalMinutes)
		case "all":
			return jsonw.ReadBool(v, &m.All)
		case "intervalSeconds":
			return jsonw.ReadInt(v, &m.IntervalSeconds)
		case "keep":
			return jsonw.ReadBool(v, &m.Keep)
		case "beep":
			return jsonw.ReadString(v, &m.Beep)
		case "skill":
			m.Skill = json.RawMessage(v.Raw)
		case "workflow":
			m.Workflow = json.RawMessage(v.Raw)
		case "days":
			return jsonw.ReadInt(v, &m.Days)
		case "selection":
			return jsonw.ReadString(v, &m.Selection)
		case "capture":
			return jsonw.ReadString(v, &m.Capture)
		case "saveAs":
			return jsonw.ReadString(v, &m.SaveAs)
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

// AppendJSON writes the reply as json.Marshal would, without reflection
// for the values package jsonw covers.
func (r reply) AppendJSON(dst []byte) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	return jsonw.Append(dst, map[string]any(r))
}
