// DOM helpers shared by the accessibility tree and the page tools (each
// bundle carries its own copy of this module; the source is this one).

// ownFunction reads a function a WebBrain script defined on window. Only an
// own property counts: an element with that id or name shows through DOM
// named access as window[name], in the content scripts' world too, so a
// page could otherwise plant something there.
export function ownFunction(name) {
  const d = Object.getOwnPropertyDescriptor(window, name);
  return d && typeof d.value === 'function' ? d.value : null;
}

// defineExport puts fn on window as an own property nothing can overwrite
// or list, for ownFunction to find.
export function defineExport(name, fn) {
  Object.defineProperty(window, name, { value: fn, writable: false, enumerable: false, configurable: true });
}

// deepActive is the element that has focus: through open shadow roots and
// into same-origin frames, from document d.
export function deepActive(d = document) {
  let a = d.activeElement;
  for (;;) {
    if (a && a.shadowRoot && a.shadowRoot.activeElement) {
      a = a.shadowRoot.activeElement;
      continue;
    }
    if (a && (a.localName === 'iframe' || a.localName === 'frame')) {
      let inner = null;
      try {
        inner = a.contentDocument && a.contentDocument.activeElement;
      } catch {
        /* cross-origin */
      }
      if (inner) {
        a = inner;
        continue;
      }
    }
    return a || d.body;
  }
}
