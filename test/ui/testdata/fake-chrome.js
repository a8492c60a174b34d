// A stand-in for the extension APIs the panel and settings pages use. It
// records runtime.sendMessage calls in __fake.sent, answers them from
// __fake.replies (a value or a function of the message; {ok: true} when
// missing), and __fake.deliver(msg) calls the page's onMessage listeners
// like a background broadcast. storage.* is kept in sessionStorage so it
// survives a reload of the page, as storage.session survives a panel reopen.
(() => {
  const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
  const area = (name) => {
    const key = `__fake_storage_${name}`;
    const read = () => JSON.parse(sessionStorage.getItem(key) || "{}");
    const write = (all) => sessionStorage.setItem(key, JSON.stringify(all));
    const names = (keys) => (typeof keys === "string" ? [keys] : Array.isArray(keys) ? keys : Object.keys(keys));
    return {
      async get(keys) {
        const all = read();
        if (keys == null) return all;
        return Object.fromEntries(
          names(keys)
            .filter((k) => k in all)
            .map((k) => [k, all[k]]),
        );
      },
      async set(items) {
        write({ ...read(), ...clone(items) });
      },
      async remove(keys) {
        const all = read();
        for (const k of names(keys)) delete all[k];
        write(all);
      },
    };
  };
  const fake = { sent: [], listeners: [], replies: {}, optionsOpened: 0 };
  fake.deliver = (msg) => {
    for (const listener of fake.listeners) listener(clone(msg), { id: "webbrain" }, () => {});
  };
  fake.sentOf = (action) => fake.sent.filter((m) => m.action === action);
  globalThis.__fake = fake;
  globalThis.chrome = {
    runtime: {
      async sendMessage(msg) {
        fake.sent.push(clone(msg));
        const r = fake.replies[msg.action];
        const reply = typeof r === "function" ? await r(msg) : r;
        return reply === undefined ? { ok: true } : clone(reply);
      },
      onMessage: { addListener: (f) => fake.listeners.push(f), removeListener() {} },
      async openOptionsPage() {
        fake.optionsOpened++;
      },
    },
    storage: { session: area("session"), local: area("local"), onChanged: { addListener() {} } },
    tabs: {
      query: async () => [{ id: 1, windowId: 1, active: true }],
      get: async (id) => ({ id, windowId: 1, title: "Blue mug – Shop", url: "https://shop.example/mug" }),
      onActivated: { addListener() {} },
      onUpdated: { addListener() {} },
    },
    windows: { getCurrent: async () => ({ id: 1 }) },
  };
})();
