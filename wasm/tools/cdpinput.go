package tools

// cdpSend sends one CDP command.
type cdpSend func(method string, params map[string]any) error

type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// mouseClick is a left click at p (top-frame viewport CSS pixels): the
// pointer moves there, presses and releases, as a person's click does.
func mouseClick(send cdpSend, p point) error {
	for _, ev := range []map[string]any{
		{"type": "mouseMoved", "x": p.X, "y": p.Y, "button": "none", "buttons": 0},
		{"type": "mousePressed", "x": p.X, "y": p.Y, "button": "left", "buttons": 1, "clickCount": 1},
		{"type": "mouseReleased", "x": p.X, "y": p.Y, "button": "left", "buttons": 0, "clickCount": 1},
	} {
		if err := send("Input.dispatchMouseEvent", ev); err != nil {
			return err
		}
	}
	return nil
}

// mouseHover moves the pointer to p without pressing: the browser runs
// its own hover (CSS :hover, mouseover, mouseenter), as for a person's
// mouse.
func mouseHover(send cdpSend, p point) error {
	return send("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": p.X, "y": p.Y, "button": "none", "buttons": 0})
}

// dragMoves is how many pointer moves a drag makes between press and
// release: sortable lists react to movement, and some start a drag only
// after the pointer travelled a few pixels.
const dragMoves = 10

// mouseDrag presses the left button at from, moves to to in steps with
// the button held, and releases there.
func mouseDrag(send cdpSend, from, to point) error {
	evs := []map[string]any{
		{"type": "mouseMoved", "x": from.X, "y": from.Y, "button": "none", "buttons": 0},
		{"type": "mousePressed", "x": from.X, "y": from.Y, "button": "left", "buttons": 1, "clickCount": 1},
	}
	for i := 1; i <= dragMoves; i++ {
		f := float64(i) / dragMoves
		x, y := from.X+(to.X-from.X)*f, from.Y+(to.Y-from.Y)*f
		evs = append(evs, map[string]any{"type": "mouseMoved", "x": x, "y": y, "button": "left", "buttons": 1})
	}
	evs = append(evs, map[string]any{"type": "mouseReleased", "x": to.X, "y": to.Y, "button": "left", "buttons": 0, "clickCount": 1})
	for _, ev := range evs {
		if err := send("Input.dispatchMouseEvent", ev); err != nil {
			return err
		}
	}
	return nil
}

// keyPress is one key with the modifiers in effect; Hold lists the
// modifier keys pressed before it and released after it.
type keyPress struct {
	Key     string     `json:"key"`
	Code    string     `json:"code"`
	KeyCode int        `json:"keyCode"`
	Text    string     `json:"text"`
	Mods    modifiers  `json:"mods"`
	Hold    []keyPress `json:"hold"`
}

type modifiers struct {
	Ctrl  bool `json:"ctrlKey"`
	Shift bool `json:"shiftKey"`
	Alt   bool `json:"altKey"`
	Meta  bool `json:"metaKey"`
}

// CDP modifier bits (Input.dispatchKeyEvent).
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

// modifierBit maps a modifier key's name to its bit.
var modifierBit = map[string]int{"Alt": modAlt, "Control": modCtrl, "Meta": modMeta, "Shift": modShift}

func (m modifiers) bits() int {
	b := 0
	if m.Alt {
		b |= modAlt
	}
	if m.Ctrl {
		b |= modCtrl
	}
	if m.Meta {
		b |= modMeta
	}
	if m.Shift {
		b |= modShift
	}
	return b
}

// pressKey sends the held modifiers' keyDowns, the key's keyDown and keyUp,
// then the modifiers' keyUps. A keyDown with text also produces the
// character (keypress and the edit); Enter's text is "\r", as a keyboard's.
// With Control, Alt or Meta held the key types nothing, so it is a
// rawKeyDown and the browser runs the shortcut (Control+a selects all).
func pressKey(send cdpSend, k keyPress) error {
	held := 0
	for _, h := range k.Hold {
		held |= modifierBit[h.Key]
		if err := send("Input.dispatchKeyEvent", keyEvent("rawKeyDown", h, held, "")); err != nil {
			return err
		}
	}
	mods := k.Mods.bits()
	text := k.Text
	if k.Key == "Enter" {
		text = "\r"
	}
	if mods&(modAlt|modCtrl|modMeta) != 0 {
		text = ""
	}
	down := "rawKeyDown"
	if text != "" {
		down = "keyDown"
	}
	if err := send("Input.dispatchKeyEvent", keyEvent(down, k, mods, text)); err != nil {
		return err
	}
	if err := send("Input.dispatchKeyEvent", keyEvent("keyUp", k, mods, "")); err != nil {
		return err
	}
	for i := len(k.Hold) - 1; i >= 0; i-- {
		held &^= modifierBit[k.Hold[i].Key]
		if err := send("Input.dispatchKeyEvent", keyEvent("keyUp", k.Hold[i], held, "")); err != nil {
			return err
		}
	}
	return nil
}

func keyEvent(typ string, k keyPress, mods int, text string) map[string]any {
	ev := map[string]any{
		"type": typ, "key": k.Key, "code": k.Code, "modifiers": mods,
		"windowsVirtualKeyCode": k.KeyCode, "nativeVirtualKeyCode": k.KeyCode,
	}
	if text != "" {
		ev["text"] = text
		ev["unmodifiedText"] = text
	}
	return ev
}
