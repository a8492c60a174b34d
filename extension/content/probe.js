// Content script part (content.parts): what the action gate sees before a
// page action is sent (wb_probe) and the links the page visibly shows
// (wb_links). Both only read the page; the background's guard decides
// (docs/decisions/action-gate.md). The probe never runs the action and changes nothing.

  const PROBE_TEXT = 400;     // captions and values
  const PROBE_RECORD = 2000;  // the bounded container of the item acted on
  const PROBE_FIELDS = 40;
  const ACTIONABLE = 'a[href],area[href],button,input,select,textarea,summary,label,[role=button],[role=link],' +
    '[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=switch],[role=checkbox],[role=radio]';
  const RECORD = 'tr,li,article,[role=row],[role=listitem],[role=article],[role=gridcell]';
  const DIALOG = 'dialog,[role=dialog],[role=alertdialog]';

  const textOf = (el, n) => clip(squash(el ? (el.innerText ?? el.textContent) : ''), n);
  const attr = (el, a) => clip(squash(el.getAttribute(a) || ''), PROBE_TEXT);

  // actionable is the element a click on el operates: the link or button
  // around an icon, a label's control.
  function actionable(el) {
    const a = el.closest(ACTIONABLE) || el;
    if (a.localName === 'label' && a.control) return a.control;
    return a;
  }

  function fieldLabel(f) {
    const l = f.labels && f.labels.length ? [...f.labels].map((x) => x.innerText || x.textContent).join(' ') : '';
    return clip(squash(l || f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.title || ''), 120);
  }

  function fieldValue(f) {
    const t = (f.type || '').toLowerCase();
    if (t === 'password') return f.value ? '(hidden)' : '';
    if (t === 'checkbox' || t === 'radio') return f.checked ? (f.value || 'on') : '';
    if (f.localName === 'select') return [...f.selectedOptions].map((o) => squash(o.text)).join(', ');
    if (f.isContentEditable) return textOf(f, PROBE_TEXT);
    return clip(String(f.value ?? ''), PROBE_TEXT);
  }

  function formFields(form) {
    const out = [];
    for (const f of form.elements) {
      if (out.length >= PROBE_FIELDS) break;
      const t = (f.type || f.localName || '').toLowerCase();
      if (['submit', 'button', 'reset', 'image', 'fieldset', 'object', 'output'].includes(t)) continue;
      out.push({ name: f.name || f.id || '', label: fieldLabel(f), type: t, value: fieldValue(f) });
    }
    // Rich-text composers are not form elements but are sent with the form.
    for (const e of form.querySelectorAll('[contenteditable=""],[contenteditable=true]')) {
      if (out.length >= PROBE_FIELDS) break;
      if (e.parentElement && e.parentElement.isContentEditable) continue;
      out.push({ name: e.id || '', label: fieldLabel(e), type: 'richtext', value: fieldValue(e) });
    }
    return out;
  }

  function formName(form) {
    const head = form.querySelector('legend,h1,h2,h3,h4,[role=heading]');
    return clip(squash(form.getAttribute('aria-label') || form.title || (head && (head.innerText || head.textContent)) ||
      form.getAttribute('name') || form.id || ''), 120);
  }

  // record is the visible text of the item an action is about: the nearest
  // row, list item or article, else the largest ancestor still within the
  // bound (stopping at landmarks and forms).
  function record(el) {
    const r = el.closest(RECORD);
    if (r && textOf(r, PROBE_RECORD + 1).length <= PROBE_RECORD) return textOf(r, PROBE_RECORD);
    let best = '';
    for (let a = el.parentElement; a && a !== doc.body; a = a.parentElement) {
      if (a.matches('main,nav,header,footer,aside,[role=main],[role=navigation],body')) break;
      const t = textOf(a, PROBE_RECORD + 1);
      if (t.length > PROBE_RECORD) break;
      best = t;
      if (a.matches('form,section,[role=region],[role=group],' + DIALOG)) break;
    }
    return best;
  }

  function formOf(el) {
    return el.form || el.closest('form');
  }

  function absHref(el) {
    if (!el.hasAttribute || !el.hasAttribute('href')) return '';
    try { return new URL(el.getAttribute('href'), el.baseURI).href; } catch { return ''; }
  }

  function controlOf(el, tool) {
    const form = formOf(el);
    const tag = el.localName;
    let type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'button' && !type) type = form ? 'submit' : 'button';
    if (tag === 'input' && !type) type = 'text';
    const dlg = el.closest(DIALOG);
    // A button that opens a menu or popup only opens it (the classifier's
    // "popupbutton", as Chrome's computed role names it).
    const popup = (el.getAttribute('aria-haspopup') || 'false') !== 'false' && /^(button|a|div|span)$/.test(tag);
    const c = {
      tool, tag, role: popup ? 'popupbutton' : roleOf(el), type,
      name: clip(squash(nameOf(el)), PROBE_TEXT), text: textOf(el, PROBE_TEXT),
      title: attr(el, 'title'), ariaLabel: attr(el, 'aria-label'),
      value: tag === 'input' && ['submit', 'button', 'reset', 'image'].includes(type) ? clip(squash(el.value), PROBE_TEXT) : '',
      href: absHref(el), inForm: !!form,
      record: record(el), dialog: dlg ? textOf(dlg, 600) : '',
      pageUrl: location.href, pageTitle: clip(squash(doc.title), 200),
      editable: isEditable(el), multiline: tag === 'textarea' || !!el.isContentEditable,
      placeholder: attr(el, 'placeholder'),
    };
    if (form) {
      c.formAction = form.action || location.href;
      c.formMethod = (form.getAttribute('method') || 'get').toLowerCase();
      c.formFields = formFields(form);
      c.formName = formName(form);
    }
    return c;
  }

  // defaultSubmit is the control Enter in a form's field activates.
  function defaultSubmit(form) {
    return [...form.querySelectorAll('button,input[type=submit],input[type=image]')]
      .find((b) => (b.localName !== 'button' || (b.getAttribute('type') || 'submit').toLowerCase() === 'submit') && !b.disabled) || null;
  }

  // probeTarget finds what an action would reach: a ref, a point, or the
  // focused element; with enter, what Enter in that field submits.
  function probe(args) {
    let el;
    if (hasRef(args)) el = resolve(args.ref);
    else if (args.x !== undefined && args.y !== undefined) el = pointTarget(args).target;
    else el = deepActive();
    if (!isEl(el)) fail('Nothing to probe.');
    const tool = String(args.tool || '');
    if (!args.enter) return controlOf(actionable(el), tool);
    const field = isEditable(el) ? editingHost(el) : el;
    const form = formOf(field);
    const sub = form && defaultSubmit(form);
    if (sub) return { ...controlOf(sub, tool), enterFrom: controlOf(field, tool) };
    return { ...controlOf(field, tool), enter: true };
  }

  // visibleLinks lists the absolute URLs of the links a person can see, with
  // the page's own URL.
  function visibleLinks() {
    const out = new Set();
    for (const a of doc.querySelectorAll('a[href],area[href]')) {
      if (out.size >= 3000) break;
      if (!isVisible(a)) continue;
      const h = absHref(a);
      if (/^https?:/i.test(h)) out.add(h);
    }
    return { url: location.href, links: [...out] };
  }

  INTERNAL.wb_probe = probe;
  INTERNAL.wb_links = visibleLinks;
