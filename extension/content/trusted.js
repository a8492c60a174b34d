// Content script part (content.parts): the page's half of trusted input
// in Chrome (trusted_prepare, trusted_finish; docs/content-tools.md).

  // In Chrome the background sends clicks and keys as trusted CDP input
  // (isTrusted true). trusted_prepare does the page's part first (resolve,
  // scroll, the visibility and obstruction checks, focus) and starts
  // watching the page; it returns the steps to send: {mouse: {x, y}} in
  // top-frame viewport pixels, {key: {key, code, keyCode, text, mods, hold}}
  // or {insert: text}, or {done: result} when the page's own path already
  // acted (an <option>). trusted_finish then reports what changed.
  let pending = null;
  const PENDING_MS = 30000; // a prepare whose finish never comes stops watching

  function dropPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.watch.abort();
    pending = null;
  }

  function arm(w, finish, steps) {
    dropPending();
    pending = { watch: w, finish, timer: setTimeout(dropPending, PENDING_MS) };
    return { steps };
  }

  // toTop converts a point in el's frame to the top frame's viewport.
  function toTop(el, point) {
    let { x, y } = point;
    for (let w = el.ownerDocument.defaultView; w !== win && w.frameElement; w = w.frameElement.ownerDocument.defaultView) {
      const f = w.frameElement, r = f.getBoundingClientRect();
      x += r.left + f.clientLeft;
      y += r.top + f.clientTop;
    }
    return { x: Math.round(x), y: Math.round(y) };
  }

  const keyStep = (k, mods, hold = []) => ({
    key: {
      key: k.key, code: k.code, keyCode: k.keyCode, text: k.text, hold,
      mods: { ctrlKey: !!mods.ctrlKey, shiftKey: !!mods.shiftKey, altKey: !!mods.altKey, metaKey: !!mods.metaKey },
    },
  });

  // textSteps types text with US-layout keys; a newline is Enter, and other
  // characters (and tabs, which would move focus) are inserted as text.
  function textSteps(text) {
    const steps = [];
    for (const ch of text.replace(/\r\n?/g, '\n')) {
      if (ch === '\n') { steps.push(keyStep(named(NAMED.enter), {})); continue; }
      const k = charKey(ch);
      if (k.keyCode && ch !== '\t') { steps.push(keyStep(k, { shiftKey: k.shift })); continue; }
      const last = steps[steps.length - 1];
      if (last && last.insert !== undefined) last.insert += ch;
      else steps.push({ insert: ch });
    }
    return steps;
  }

  async function prepareClick(el) {
    if (el.localName === 'option' && el.closest('select')) return { done: await clickElement(el) };
    const { target0, point } = aimAt(el);
    return arm(watch(el), (changes) => clickedText(el, target0, point, changes), [{ mouse: toTop(target0, point) }]);
  }

  function preparePointClick(args) {
    const { target, x, y } = pointTarget(args);
    return arm(watch(target), (changes) => `Clicked ${describe(target)} at (${x}, ${y}). ${changes || NO_CHANGE}`, [{ mouse: { x, y } }]);
  }

  // prepareTyping focuses the field; clearing selects its text for a
  // trusted Backspace to delete.
  function prepareTyping(el, text, opts) {
    const start = typeStart(el, text, opts, describe(el));
    const w = watch(el, { reportSubject: false });
    const host = editingHost(el);
    if (deepActive() !== host) host.focus({ preventScroll: true });
    const steps = [];
    if (opts.clear && fieldRaw(el) !== '') {
      if (el.isContentEditable) el.ownerDocument.getSelection().selectAllChildren(host);
      else el.select();
      steps.push(keyStep(named(NAMED.backspace), {}));
    }
    steps.push(...textSteps(text));
    if (opts.submit) steps.push(keyStep(named(NAMED.enter), {}));
    const rejected = isTextField(el) && el.maxLength >= 0 && start.expected.length > el.maxLength;
    return arm(w, (changes) => typeResult(start, { rejected, submitNote: opts.submit ? 'Enter' : '' }, changes), steps);
  }

  function preparePress(args) {
    const chords = parseKeys(args);
    const t = deepActive();
    const steps = chords.map(({ k, mods }) => {
      const own = k.modifier ? MODIFIERS[k.key.toLowerCase()] : '';
      const hold = Object.keys(MOD_KEYS).filter((m) => mods[m] && m !== own).map((m) => keyStep(named(NAMED[MOD_KEYS[m]]), {}).key);
      return keyStep(k, mods, hold);
    });
    return arm(watch(t), (changes) => sentences(`Pressed ${chords.map((c) => c.label).join(' ')} on ${describe(t)}`, changes), steps);
  }

  const PREPARE = {
    click_ax: (a) => prepareClick(resolve(a.ref)),
    click: (a) => (hasRef(a) ? prepareClick(resolve(a.ref)) : preparePointClick(a)),
    type_ax: (a) => prepareTyping(typeAxField(a), String(a.text), { clear: a.clear !== false, submit: !!a.submit }),
    type_text: (a) => prepareTyping(focusedField(a), String(a.text), { clear: false, submit: false }),
    press_keys: preparePress,
  };

  function prepareTrusted(args) {
    const fn = Object.prototype.hasOwnProperty.call(PREPARE, args.tool) ? PREPARE[args.tool] : null;
    if (!fn) fail(`${JSON.stringify(args.tool)} has no trusted-input path.`);
    return fn(args.args && typeof args.args === 'object' ? args.args : {});
  }

  async function finishTrusted() {
    if (!pending) fail('No trusted input is waiting for its report (the page may have reloaded).');
    const { watch: w, finish, timer } = pending;
    pending = null;
    clearTimeout(timer);
    return finish(await w.stop());
  }

  // INTERNAL entries are the background's, not the model's: prepare answers
  // an object, not text.
  const INTERNAL = { trusted_prepare: prepareTrusted, trusted_finish: finishTrusted };
  const READ_ONLY_INTERNAL = new Set(['trusted_finish', 'wb_probe', 'wb_links']);
