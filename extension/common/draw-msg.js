// A text the background wrote, in the interface language
// (docs/decisions/background-texts.md). One classic script for every
// context that shows one: the panel and the other pages through i18n.js's
// tmsg, the background's system notifications (Chrome's service worker
// imports it, Firefox's background page lists it).
//
// wbDrawMsg(msg, sent, english, own, rtl): msg is {key, params}, each
// parameter a string (data, shown as it is) or another {key, params};
// sent is the English the background sent; english and own are catalogs
// (messages.json objects). The own language's message is drawn only when
// English's catalog knows every key and gives exactly sent, so a
// background newer than the catalog, or a text changed after its key was
// set, shows as sent. Right-to-left languages isolate each parameter.
(() => {
  function render(msg, catalog, english, isolate) {
    const entry = catalog[msg.key] ?? english[msg.key];
    if (!entry || !english[msg.key]) return null;
    const values = {};
    for (const [name, value] of Object.entries(msg.params ?? {})) {
      if (value && typeof value === "object") {
        const inner = render(value, catalog, english, isolate);
        if (inner === null) return null;
        values[name] = inner;
      } else {
        values[name] = String(value ?? "");
      }
    }
    const [open, close] = isolate ? ["\u2068", "\u2069"] : ["", ""];
    return entry.message.replace(/\$([A-Za-z0-9_]+)\$|\$\$/g, (all, name) => {
      if (!name) return "$";
      const value = values[name] ?? values[name.toLowerCase()];
      return value === undefined ? all : open + value + close;
    });
  }

  globalThis.wbDrawMsg = (msg, sent, english, own, rtl) => {
    const text = String(sent ?? "");
    if (!msg || typeof msg.key !== "string") return text;
    const plain = render(msg, english, english, false);
    if (plain === null || (text !== "" && plain !== text)) return text;
    return render(msg, own, english, rtl) ?? text;
  };
})();
