// "Descargar para jugar sin conexión" (PF-62): every file offline practice needs, into the
// service worker's practice cache, with the progress in megabytes. The manifest (the page's
// #offline-manifest, frontend/practice.py) names the cache and each address with its size; a file
// already in the cache is counted and not fetched again, so a second press finishes at once.
export async function download(manifest, onProgress) {
  const cache = await caches.open(manifest.cache);
  const total = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  let done = 0;
  for (const file of manifest.files) {
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
  if (!("caches" in self) || !(await caches.has(manifest.cache))) return false;
  const cache = await caches.open(manifest.cache);
  for (const file of manifest.files) if (!(await cache.match(file.url, { ignoreSearch: true }))) return false;
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
