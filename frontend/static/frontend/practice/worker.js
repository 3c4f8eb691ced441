// Offline practice's worker (PF-62): the practice table in Pyodide, off the page's thread, so the
// page never freezes while a bot thinks. It runs the repository's own engines, bots and practice
// table (cardgames/practice, zipped by frontend/offline.py) and speaks the live socket's frames.
//
// page -> worker: {op: "open", game, setup|null, pyodide, bundle}   setup null: resume the saved game
//                 {op: "frame", frame}   a client frame (action, sync, log, hint), as to the socket
//                 {op: "again"}          a new game with the same set-up ("Otra partida")
// worker -> page: {op: "loading", step, percent} · {op: "frames", frames} · {op: "fatal", message}
//                 {op: "stats", kind: "wake", ms}   how long a wake-up (a bot's move) took here
// The table is saved in IndexedDB after every change (store.js) and woken by this worker's own
// timers (bots' moves, windows' deadlines), which the practice table says when to set.
import { dropTable, loadTable, saveTable } from "./store.js";

let py = null;
let session = null;
let game = null;
let setup = null; // the last set-up, for "Otra partida"
let name = undefined; // the person's name, in the page's language
let wakeTimer = null;
let queue = Promise.resolve(); // one call into Python at a time, in arrival order

const post = (message) => self.postMessage(message);
const nowSeconds = () => Date.now() / 1000;

function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// How long each step of the start took, in ms from the worker's own start (bench/offline.py).
const marks = {};
const mark = (name) => (marks[name] = Math.round(performance.now()));

async function boot(message) {
  post({ op: "loading", step: "runtime", percent: 10 });
  const { loadPyodide } = await import(`${message.pyodide}pyodide.mjs`);
  mark("module");
  py = await loadPyodide({ indexURL: message.pyodide });
  mark("runtime");
  post({ op: "loading", step: "rules", percent: 70 });
  const bundle = await fetch(message.bundle);
  if (!bundle.ok) throw new Error(`${message.bundle}: ${bundle.status}`);
  py.unpackArchive(await bundle.arrayBuffer(), "zip", { extractDir: "/tapete" });
  py.runPython(`
import sys, time
sys.path.insert(0, "/tapete")
from cardgames.practice.session import PracticeSession
from cardgames.engines import get_engine
import importlib
get_engine(${JSON.stringify(message.game)})
importlib.import_module("cardgames.bots.${message.game}")
session = PracticeSession(clock=time.perf_counter)
`);
  session = py.globals.get("session");
  mark("rules");
  post({ op: "loading", step: "table", percent: 90 });
}

async function answer(text) {
  const reply = JSON.parse(text);
  if (reply.table) await saveTable(game, reply.table);
  if (reply.frames.length) post({ op: "frames", frames: reply.frames });
  clearTimeout(wakeTimer);
  if (reply.wake_at !== null) wakeTimer = setTimeout(wake, Math.max(0, reply.wake_at - Date.now()));
  return reply;
}

function wake() {
  enqueue(async () => {
    const started = performance.now();
    const text = session.wake_json(nowSeconds());
    const ms = performance.now() - started;
    const reply = await answer(text);
    if (reply.frames.length) post({ op: "stats", kind: "wake", ms });
  });
}

async function start(chosen) {
  setup = { name, ...chosen, game };
  const reply = await answer(session.start_json(JSON.stringify({ ...setup, seed: newSeed() }), nowSeconds()));
  if (!reply.ok && Object.keys(chosen).length) {
    // a refused set-up (its error frame is shown): the game's defaults instead
    setup = { name, game, level: chosen.level || "normal" };
    await answer(session.start_json(JSON.stringify({ ...setup, seed: newSeed() }), nowSeconds()));
  }
}

async function open(message) {
  game = message.game;
  name = message.name;
  await boot(message);
  const saved = message.setup ? null : await loadTable(game).catch(() => null);
  let resumed = false;
  if (saved) {
    try {
      setup = { ...saved.setup, game };
      await answer(session.resume_json(JSON.stringify(saved), nowSeconds()));
      resumed = true;
    } catch {
      // a saved game this version cannot read (damaged, or from an older release): a new deal
      await dropTable(game).catch(() => {});
    }
  }
  if (!resumed) await start(message.setup || setup || {});
  mark("table");
  post({ op: "loading", step: "ready", percent: 100, marks });
}

function enqueue(job) {
  queue = queue.then(job).catch((error) => post({ op: "fatal", message: String(error?.message || error) }));
  return queue;
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.op === "open") enqueue(() => open(message));
  else if (message.op === "frame") enqueue(() => answer(session.frame_json(JSON.stringify(message.frame), nowSeconds())));
  else if (message.op === "again") enqueue(() => start(setup || {}));
});
