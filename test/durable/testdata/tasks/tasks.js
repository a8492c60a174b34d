// Shared by the task pages of TestThreeStopsPerTask (three_stops_test.go).
// Every input event and every effect goes to the fixture server at once,
// with a synchronous request from the event's handler, so the server counts
// all of them, also for a page that is gone by the end of the run. The
// server may hold that request: the page (and the content script, which
// shares its thread) is then stuck in the event while the test stops the
// worker, with that input in flight or the effect just complete. It answers
// how many milliseconds the page then keeps "saving" (changing its DOM).
(() => {
  const run = new URLSearchParams(location.search).get("run") || "";
  const page = document.body.dataset.page || "";
  const status = document.createElement("p");
  status.id = "saving";
  document.body.append(status);
  let until = 0,
    timer = 0,
    tick = 0;
  function saving(ms) {
    until = Math.max(until, performance.now() + ms);
    if (timer) return;
    timer = setInterval(() => {
      if (performance.now() >= until) {
        clearInterval(timer);
        timer = 0;
        status.textContent = "Saved.";
        return;
      }
      status.textContent = "Saving" + ".".repeat(1 + (tick++ % 3));
    }, 50);
  }
  // Pages call it for their own effects too.
  const report = (ev, target, value) => {
    const x = new XMLHttpRequest();
    x.open(
      "POST",
      "/tasks/ev?run=" +
        encodeURIComponent(run) +
        "&page=" +
        encodeURIComponent(page) +
        "&ev=" +
        encodeURIComponent(ev) +
        "&target=" +
        encodeURIComponent(target || ""),
      false,
    );
    try {
      x.send(value == null ? "" : String(value));
    } catch {
      return;
    }
    const ms = Number(x.responseText) || 0;
    if (ms > 0) saving(ms);
  };
  window.report = report;
  const id = (e) => {
    const t = e.target;
    return (t && t.closest && t.closest("[id]")?.id) || "";
  };
  const val = (t) => (t.type === "checkbox" ? String(t.checked) : "value" in t ? t.value : t.textContent);
  addEventListener("keydown", (e) => report("keydown", id(e), e.key), true);
  addEventListener("mousedown", (e) => report("mousedown", id(e)), true);
  addEventListener("click", (e) => report("click", id(e)), true);
  addEventListener("input", (e) => report("input", id(e), val(e.target)), true);
  addEventListener("change", (e) => report("change", id(e), val(e.target)), true);
  for (const f of document.querySelectorAll("form[data-post]")) {
    f.action = "/tasks/post/" + f.dataset.post + "?run=" + encodeURIComponent(run);
  }
})();
