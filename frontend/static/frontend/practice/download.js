// "Descargar para jugar sin conexión" (PF-62): every file offline practice needs, into the
// service worker's practice caches, with the progress in megabytes. The manifest (the page's
// #offline-manifest, frontend/practice.py) names each cache (Pyodide's runtime, the rest) with its
// addresses and sizes; a file already in its cache is counted and not fetched again, so a second
// press (or a new deployment that kept the runtime's cache) finishes at once.
export async function download(manifest, onProgress) {
  const files = manifest.caches.flatMap((c) => c.files.map((file) => ({ ...file, cache: c.name })));
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  let done = 0;
  for (const file of files) {
    const cache = await caches.open(file.cache);
    if (!(await cache.match(file.url, { ignoreSearch: true }))) {
      const response = await fetch(file.url, { cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) throw new Error(`${file.url}: ${response.status}`);
      await cache.put(file.url, response);
    }
    done += file.bytes;
    onProgress(done, total);
  }
  return total;
}

export async function downloaded(manifest) {
  if (!("caches" in self)) return false;
  for (const { name, files } of manifest.caches) {
    if (!(await caches.has(name))) return false;
    const cache = await caches.open(name);
    for (const file of files) if (!(await cache.match(file.url, { ignoreSearch: true }))) return false;
  }
  return true;
}

// The download box of a page (#offline-download): the button, the bar and the status line.
// auto: start at once (the practice page: a first visit keeps the games for offline play).
export function wireDownload({ auto = false } = {}) {
  const box = document.getElementById("offline-download");
  if (!box) return;
  const manifest = JSON.parse(document.getElementById("offline-manifest").textContent);
  const button = document.getElementById("offline-download-button");
  const bar = document.getElementById("offline-download-bar");
  const status = document.getElementById("offline-download-status");
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  if (!("caches" in self) || !("serviceWorker" in navigator)) {
    status.textContent = box.dataset.unsupported;
    button.disabled = true;
    return;
  }
  async function run() {
    button.disabled = true;
    bar.hidden = false;
    try {
      await download(manifest, (done, total) => {
        bar.value = Math.round((100 * done) / total);
        status.textContent = box.dataset.progress.replace("{done}", mb(done)).replace("{total}", mb(total));
      });
      bar.value = 100;
      status.textContent = box.dataset.ready;
      box.dataset.state = "ready";
    } catch {
      status.textContent = box.dataset.failed;
      box.dataset.state = "failed";
      button.disabled = false;
    }
  }
  button.addEventListener("click", run);
  downloaded(manifest).then((ready) => {
    if (ready) {
      status.textContent = box.dataset.ready;
      box.dataset.state = "ready";
    } else if (auto && navigator.onLine) run();
  });
}
