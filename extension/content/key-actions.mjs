// Content script part: the default actions of keys.
// Synthetic key events have none, so the script does what the browser
// would: Tab order, implicit submission, deletion, arrows, scrolling.
import { TEXT_TYPES, describe, fire, fireInput, isDisabled, isTextField, isVisible, quote, win } from './core.mjs';
import { FOCUSABLE } from './pointer.mjs';
import { insertText, selectionOf, setNativeValue } from './typing.mjs';
import { pageScroller } from './scroll.mjs';

function tabOrder(d) {
  const scope =
    (() => {
      try {
        return d.querySelector('dialog:modal');
      } catch {
        return null;
      }
    })() || d;
  const all = [...scope.querySelectorAll(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && !isDisabled(el) && !(el.localName === 'input' && el.type === 'hidden') && isVisible(el),
  );
  const order = all
    .filter((el) => el.tabIndex > 0)
    .sort((a, b) => a.tabIndex - b.tabIndex)
    .concat(all.filter((el) => el.tabIndex === 0));
  // Only one radio per group takes a tab stop: the checked one, else the first.
  const seen = new Set();
  return order.filter((el) => {
    if (el.localName !== 'input' || el.type !== 'radio' || !el.name) return true;
    const key = (el.form ? 'f' : 'd') + el.name;
    if (seen.has(key)) return false;
    const group = order.filter((o) => o.localName === 'input' && o.type === 'radio' && o.name === el.name && o.form === el.form);
    const stop = group.find((o) => o.checked) || group[0];
    if (stop !== el) return false;
    seen.add(key);
    return true;
  });
}

function moveFocus(from, back) {
  const d = from.ownerDocument;
  const order = tabOrder(d);
  if (!order.length) return 'nothing on the page can take focus';
  let i = order.indexOf(from);
  if (i < 0) {
    // From a non-tabbable spot, continue from its position in the document.
    const after = order.findIndex((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    i = back ? (after < 0 ? order.length : after) : (after < 0 ? order.length : after) - 1;
  }
  let j = back ? i - 1 : i + 1;
  let wrapped = '';
  if (j < 0 || j >= order.length) {
    j = (j + order.length) % order.length;
    wrapped = ' (wrapped around)';
  }
  const next = order[j];
  next.focus();
  if (next.localName === 'input' && TEXT_TYPES.has(next.type) && next.type !== 'number' && next.type !== 'email') next.select();
  return 'focus moved to ' + describe(next) + wrapped;
}

export const SUBMITTERS = (e) =>
  (e.localName === 'button' && e.type === 'submit') || (e.localName === 'input' && (e.type === 'submit' || e.type === 'image'));

// implicitSubmit is what Enter does in a form field: click the form's
// default button, or submit the form when it has none.
function implicitSubmit(field) {
  const form = field.form;
  if (!form) return 'no form to submit';
  const btn = [...form.elements].find(SUBMITTERS);
  if (btn && btn.disabled) return `the form's submit button ${describe(btn)} is disabled`;
  if (!form.checkValidity()) {
    const bad = [...form.elements].find((e) => e.willValidate && !e.validity.valid);
    form.requestSubmit(btn || undefined); // shows the browser's validation message
    return `the form was not submitted: ${describe(bad)} is invalid (${bad.validationMessage})`;
  }
  if (btn) {
    btn.click();
    return `clicked its submit ${describe(btn)}`;
  }
  form.requestSubmit();
  return 'submitted the form';
}

function deleteInField(el, forward, state) {
  const sel = selectionOf(el);
  const value = sel ? el.value : state.buffer;
  let [s, e] = sel || [value.length, value.length];
  if (s === e) {
    if (forward) e = Math.min(value.length, e + 1);
    else s = Math.max(0, s - 1);
  }
  if (s === e) return;
  const inputType = forward ? 'deleteContentForward' : 'deleteContentBackward';
  if (!fireInput(el, 'beforeinput', inputType)) return;
  const next = value.slice(0, s) + value.slice(e);
  setNativeValue(el, next);
  state.buffer = next;
  if (sel) el.setSelectionRange(s, s);
  fireInput(el, 'input', inputType);
}

function stepSelect(sel, delta) {
  const opts = [...sel.options].filter((o) => !o.disabled);
  const i = opts.indexOf(sel.options[sel.selectedIndex]);
  const next = opts[Math.min(opts.length - 1, Math.max(0, i + delta))];
  if (!next || next.selected) return '';
  sel.selectedIndex = next.index;
  fire(sel, 'input');
  fire(sel, 'change');
  return `${describe(sel)} now ${quote(next.text)}`;
}

function stepRadio(radio, delta) {
  const group = [...radio.ownerDocument.querySelectorAll('input[type=radio]')].filter(
    (r) => r.name === radio.name && r.form === radio.form && !r.disabled,
  );
  const next = group[(group.indexOf(radio) + delta + group.length) % group.length];
  if (!next || next === radio) return '';
  next.focus();
  next.click();
  return `${describe(next)} now checked`;
}

function scrollPageBy(dy) {
  const s = pageScroller('y');
  s.scrollBy({ top: dy, behavior: 'instant' });
  return `page scrolled to y=${Math.round(s.scrollTop)}`;
}

const isButtonLike = (el) =>
  ['button', 'summary'].includes(el.localName) ||
  (el.localName === 'input' && ['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'color', 'file'].includes(el.type));

// defaultAction performs what the browser would after an uncancelled key,
// since synthetic key events have no default actions.
export function defaultAction(t, k, mods, state) {
  const field = isTextField(t) ? t : null;
  const editable = !field && t.isContentEditable ? t : null;
  const command = mods.ctrlKey || mods.metaKey;
  if (command) {
    if (k.key.toLowerCase() === 'a') {
      if (field) {
        t.select();
        return 'selected all text in the field';
      }
      const sel = t.ownerDocument.getSelection();
      sel.selectAllChildren(editable || t.ownerDocument.body);
      return editable ? 'selected all text in the editor' : 'selected all text on the page';
    }
    return '';
  }
  switch (k.key) {
    case 'Tab':
      return moveFocus(t, mods.shiftKey);
    case 'Enter':
      if (t.localName === 'textarea' || editable) {
        insertText(t, '\n', state);
        return 'inserted a line break';
      }
      if (field || (t.localName === 'input' && !isButtonLike(t))) return implicitSubmit(t);
      if (
        (t.localName === 'a' && t.hasAttribute('href')) ||
        ['button', 'summary'].includes(t.localName) ||
        (t.localName === 'input' && ['button', 'submit', 'reset', 'image'].includes(t.type))
      ) {
        t.click();
        return 'activated ' + describe(t);
      }
      return '';
    case ' ':
      if (field || editable) {
        insertText(t, ' ', state);
        return '';
      }
      if (isButtonLike(t)) {
        t.click();
        return 'activated ' + describe(t);
      }
      if (t === t.ownerDocument.body) return scrollPageBy((mods.shiftKey ? -1 : 1) * Math.round(win.innerHeight * 0.875));
      return '';
    case 'Backspace':
    case 'Delete': {
      const forward = k.key === 'Delete';
      if (field) {
        deleteInField(t, forward, state);
        return '';
      }
      if (editable && fireInput(t, 'beforeinput', forward ? 'deleteContentForward' : 'deleteContentBackward')) {
        t.ownerDocument.execCommand(forward ? 'forwardDelete' : 'delete', false);
      }
      return '';
    }
    case 'ArrowUp':
    case 'ArrowDown':
    case 'ArrowLeft':
    case 'ArrowRight': {
      const delta = k.key === 'ArrowUp' || k.key === 'ArrowLeft' ? -1 : 1;
      if (t.localName === 'select' && !t.multiple) return stepSelect(t, delta);
      if (t.localName === 'input' && t.type === 'radio') return stepRadio(t, delta);
      if (field) {
        const sel = selectionOf(t);
        if (sel && (k.key === 'ArrowLeft' || k.key === 'ArrowRight')) {
          const p = Math.max(0, Math.min(t.value.length, (delta < 0 ? sel[0] : sel[1]) + (sel[0] === sel[1] ? delta : 0)));
          t.setSelectionRange(p, p);
        }
        return '';
      }
      if (!editable && t === t.ownerDocument.body && (k.key === 'ArrowUp' || k.key === 'ArrowDown'))
        return scrollPageBy(delta * 40);
      return '';
    }
    case 'Home':
    case 'End': {
      if (field) {
        const sel = selectionOf(t);
        if (sel) {
          const p = k.key === 'Home' ? 0 : t.value.length;
          t.setSelectionRange(p, p);
        }
        return '';
      }
      if (t === t.ownerDocument.body) {
        const s = pageScroller('y');
        s.scrollTo({ top: k.key === 'Home' ? 0 : s.scrollHeight, behavior: 'instant' });
        return `page scrolled to y=${Math.round(s.scrollTop)}`;
      }
      return '';
    }
    case 'PageUp':
    case 'PageDown':
      if (!field && !editable) return scrollPageBy((k.key === 'PageUp' ? -1 : 1) * Math.round(win.innerHeight * 0.875));
      return '';
    case 'Escape': {
      const modal = (() => {
        try {
          return t.ownerDocument.querySelector('dialog:modal');
        } catch {
          return null;
        }
      })();
      if (modal && fire(modal, 'cancel', { bubbles: false, cancelable: true })) {
        modal.close();
        return 'closed ' + describe(modal);
      }
      return '';
    }
    default:
      if (k.text && !mods.altKey && (field || editable)) insertText(t, k.text, state);
      return '';
  }
}
