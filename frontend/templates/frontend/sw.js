{% load static %}// Tapete's service worker (PF-35): the shell and static files from the cache, pages from the
// network with the offline page when it is gone. Live play (/api/, /ws/) always goes to the
// network: a cached move or snapshot would be a lie. Rendered by frontend.views.service_worker,
// which fills in the static URLs and the cache name (it changes with them).
//
// Offline practice (PF-62) has two caches of its own, filled by the practice pages' download
// (static/frontend/practice/download.js): Pyodide's runtime (named by its version, so a new
// deployment keeps it) and the rules code, scripts and practice pages (named by their content).
// Its pages come from the network when there is one (and the copy is refreshed), else from that
// cache, so /practicar/ works with no connection at all.
const CACHE = "tapete-{{ version }}";
const RUNTIME_CACHE = "{{ offline_caches.runtime }}";
const PRACTICE_CACHE = "{{ offline_caches.practice }}";
const KEPT = [CACHE, RUNTIME_CACHE, PRACTICE_CACHE];
const PRACTICE = "{% url 'frontend:practice' %}";
const OFFLINE = "{% url 'frontend:offline' %}";
const FRESH_STATIC = {{ fresh_static|yesno:"true,false" }};
const SHELL = [
  OFFLINE,
{% for url in shell %}  "{{ url }}",
{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => !KEPT.includes(name)).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// A practice page: the network's copy (kept for later, without its set-up query), else the kept one.
async function practicePage(request, url) {
  const cache = await caches.open(PRACTICE_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && (await cache.match(url.pathname))) await cache.put(url.pathname, response.clone());
    return response;
  } catch {
    return (await cache.match(url.pathname, { ignoreSearch: true })) || (await caches.match(OFFLINE));
  }
}

function isLive(url) {
  return url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname.startsWith("/admin/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || isLive(url)) return;
  if (request.mode === "navigate" && url.pathname.startsWith(PRACTICE)) {
    event.respondWith(practicePage(request, url));
    return;
  }
  if (request.mode === "navigate") {
    // pages carry the player's session and live state: network first, never a stale copy
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith("{% get_static_prefix %}") && FRESH_STATIC) {
    // development (DEBUG): files change without a restart, so the network first, the cache offline
    event.respondWith(fetch(request).catch(() => caches.match(request)));
    return;
  }
  if (url.pathname.startsWith("{% get_static_prefix %}")) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});
