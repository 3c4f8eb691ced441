// The installable app (PF-35): register the service worker at the site's root scope.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // the site works the same without it; nothing to tell the player
    });
  });
}
