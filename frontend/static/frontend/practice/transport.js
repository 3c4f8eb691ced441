// The table page's transport for offline practice (PF-62): the practice worker instead of the
// socket. table.js sends the same client frames and gets the same server frames; this module also
// reads the set-up from the address (/practicar/<game>/?nueva=1&players=…), shows the runtime's
// loading, and offers "Otra partida". Pressing nothing here ever talks to the server.
//
// Set-up parameters (the practice list's form): players, bot_level (easy|normal|hard),
// option-<name> (the catalogue's choices, e.g. option-lives=3), think (seconds a bot waits before moving, 0–5; default the live tables'
// 1 s), start_levels (Guandan: two levels "A,A", a match set up late as on the live server) and
// autoplay (the person's seat played by a bot too: bench/offline.py's whole games).
export function readSetup(search) {
  const params = new URLSearchParams(search);
  if (!params.get("nueva")) return null;
  const setup = { options: {} };
  if (params.get("players")) setup.players = Number(params.get("players"));
  if (params.get("bot_level")) setup.level = params.get("bot_level");
  if (params.get("think") !== null) setup.think = Number(params.get("think"));
  if (params.get("start_levels")) setup.start_levels = params.get("start_levels").split(",");
  if (params.get("autoplay")) setup.autoplay = true;
  for (const [key, value] of params.entries()) {
    if (!key.startsWith("option-")) continue;
    const number = Number(value);
    setup.options[key.slice(7)] = Number.isNaN(number) ? value : number;
  }
  return setup;
}

export function openPractice({ config, onFrame, onLoading, onFatal }) {
  const worker = new Worker(config.worker, { type: "module" });
  // ms from the page's navigation (bench/offline.py): the worker made, its first table shown
  const stats = (window.__practiceStats = { wakes: [], ready: null, opened: performance.now(), firstSnapshot: null });
  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.op === "frames") {
      if (stats.firstSnapshot === null && message.frames.some((f) => f.type === "snapshot")) stats.firstSnapshot = performance.now();
      for (const frame of message.frames) onFrame(frame);
    }
    else if (message.op === "loading") {
      if (message.step === "ready") {
        stats.ready = performance.now();
        stats.marks = message.marks;
      }
      onLoading(message);
    } else if (message.op === "stats") stats.wakes.push(message.ms);
    else if (message.op === "fatal") onFatal(message.message);
  });
  worker.addEventListener("error", (event) => onFatal(event.message || "worker"));
  const setup = readSetup(location.search);
  // the address keeps no set-up: a reload resumes the saved game instead of dealing a new one
  if (setup) history.replaceState(null, "", location.pathname);
  // the person's name at the table, in the page's language ("Jugador (tú)", "Player (you)")
  worker.postMessage({ op: "open", game: config.game, setup, name: config.strings.practice_player, pyodide: new URL(config.pyodide, location.href).href, bundle: new URL(config.bundle, location.href).href });
  return {
    send(frame) {
      worker.postMessage({ op: "frame", frame });
      return true;
    },
    again() {
      worker.postMessage({ op: "again" });
    },
  };
}
