// The section navigation: a link per section; the section in view is
// marked (aria-current), and following a link moves the keyboard focus to
// that section's heading, so Tab continues from there.
const links = () => [...document.querySelectorAll("#section-nav a[href^='#']")];

function mark(id) {
  for (const a of links()) {
    if (a.getAttribute("href") === `#${id}`) a.setAttribute("aria-current", "true");
    else a.removeAttribute("aria-current");
  }
}

export function setupNav() {
  for (const a of links()) {
    a.addEventListener("click", (e) => {
      const section = document.querySelector(a.getAttribute("href"));
      if (!section) return;
      e.preventDefault();
      section.scrollIntoView({ block: "start" });
      history.replaceState(null, "", a.getAttribute("href"));
      section.querySelector("h2")?.focus({ preventScroll: true });
      mark(section.id);
    });
  }
  // The section whose top is nearest below the sticky header is current.
  const sections = links()
    .map((a) => document.querySelector(a.getAttribute("href")))
    .filter(Boolean);
  const update = () => {
    const top = document.querySelector(".page-header")?.getBoundingClientRect().bottom ?? 0;
    let current = sections[0];
    for (const s of sections) if (s.getBoundingClientRect().top - top <= 40) current = s;
    // At the end of the page the last sections cannot reach the top.
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
      const hash = location.hash.slice(1);
      current = sections.find((s) => s.id === hash && s.getBoundingClientRect().top < window.innerHeight) ?? current;
    }
    if (current) mark(current.id);
  };
  window.addEventListener("scroll", update, { passive: true });
  window.addEventListener("resize", update);
  // Sections grow and shrink (the provider form, an import report) without
  // a scroll.
  new ResizeObserver(update).observe(document.querySelector("main"));
  update();
  if (location.hash) {
    const s = document.querySelector(location.hash);
    if (s) {
      s.scrollIntoView({ block: "start" });
      mark(s.id);
    }
  }
}
