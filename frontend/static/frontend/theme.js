// Light or dark (issue 25): a classic script in <head>, so <html data-theme> is set before the
// first paint and no page flashes the wrong colours. The choice made with the header's toggle is
// kept in this browser (localStorage); without one the system's prefers-color-scheme decides and
// is followed live. Other open tabs follow a change at once (the storage event). site.css holds
// the colours of both themes.
(() => {
  const KEY = "tapete:theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");

  function chosen() {
    try {
      const value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch {
      return null;
    }
  }

  function current() {
    return chosen() || (system.matches ? "dark" : "light");
  }

  function paint(theme = current()) {
    root.dataset.theme = theme;
    const toggle = document.getElementById("theme-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", String(theme === "dark"));
  }

  function flip() {
    const next = current() === "dark" ? "light" : "dark";
    try {
      localStorage.setItem(KEY, next);
    } catch {
      paint(next); // no storage: the change lasts for this page only
      return;
    }
    paint();
  }

  paint();
  system.addEventListener("change", () => paint());
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) paint();
  });
  document.addEventListener("DOMContentLoaded", () => {
    const toggle = document.getElementById("theme-toggle");
    if (!toggle) return;
    toggle.hidden = false; // without this script the button would do nothing: it starts hidden
    toggle.addEventListener("click", flip);
    paint();
  });
})();
