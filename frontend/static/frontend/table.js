// The live table page of every game (issues 10 and 12): one socket, one envelope, one game module.
//
// The server sends each viewer its own envelope (cardgames/tables/selectors.py, docs/protocol.md):
// seats, whose turn, timers with absolute deadlines, the viewer's legal actions and the engine's
// view. This module is the shell shared by the five games: the connection and its reconnect
// banner, the seats strip with the turn marker (and the simulated-player marker), absolute-time
// countdowns, the last-move line, chat, the waiting room, the spectator notice and the result
// screen. The game itself (hand, table centre, the game's controls) is drawn by a game module.
//
// == The game-module interface (also in docs/protocol.md, "The table page's game modules") ==
// table.js imports ./games/<name>.js (one_card -> onecard.js; pika, puteo, skyjo, guandan) and calls
//   export function createGame(ctx) -> { render(envelope), tick?(now) }
// once, before the first envelope. ctx holds:
//   root            the element #game-area; the module owns everything inside it
//   el(tag, attrs, ...children)   render.js's element helper (text only through `text`)
//   t(key, params)  the page's translated words (frontend/table_strings.py)
//   seatName(seat)  a seat's display name, "(tú)" for the viewer
//   cardLabel(code) a card's spoken name ("7 de corazones"), for aria-labels and messages
//   cardFace(code, game, opts), cardBack(game, opts)   cards.js (opts: selected, playable,
//                   interactive, label, faceDown, small); the game's name is ctx.game
//   sendAction(action)  sends one action object exactly as `legal` gives it (or a game's unlisted
//                   action such as Pika's reorder) with a fresh action_id; returns false when the
//                   socket is down. It disables every `.legal` control in root until the next render.
//   askHint()       asks the server for the normal bot's choice for the viewer's turn (a "hint"
//                   frame, docs/protocol.md); the module's hint(action) gets it if it still speaks
//                   of the envelope shown (action null: nothing to suggest)
//   legalActions()  the viewer's legal actions now ([] for a spectator or when it is not their turn)
//   envelope()      the last envelope; now() the server's clock in epoch ms (for countdowns)
//   reducedMotion() true when the player asked for less motion (animations are then skipped)
//   game, strings   config.game ("one_card" …) and the raw strings
// render(envelope) is called on every snapshot, also a finished one (the result screen is the
// shell's; the module may show the revealed hands). tick(now) runs every 250 ms for countdowns.
// A spectator has you.role "spectator" and view.hand null: draw no hand and no controls.
// Convention for tests and the keyboard: every enabled control that sends a legal action, or
// opens the choice that sends one, has the class `legal`; controls of a pending choice (a suit
// picker) come first in DOM order; cards that act are <button>s (cardFace does that); the
// viewer's own cards are inside an element with id="hand", each with data-card.
// If the module fails to load (or throws while drawing), the page falls back to render.js's
// generic drawing with one button per legal action (`.legal` too): the table stays playable.
// The page's address with ?ui=plain shows that generic drawing on purpose.
//
// User text (names, chat) only ever goes through textContent.
//
// Offline practice (PF-62, config.practice): the same page and game modules, fed by the practice
// worker (practice/transport.js) instead of the socket: the same frames both ways, no heartbeat, no
// chat, no waiting room.
import { createEndgame } from "./endgame.js";
import { api } from "./api.js";
import { cardBack, cardFace, cardName, setCardWords } from "./cards.js";
import { createRenderer, el, FRENCH_SUITS } from "./render.js";
import { unpackLegal } from "./games/guandan_legal.js";
import { bannerText, entryText, mergeLog } from "./movelog.js";
import { turnPrompt, turnSeat } from "./turn.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const PRACTICE = Boolean(config.practice);
let practice = null; // the practice worker's transport, once open
config.onAgain = () => practice?.again(); // endgame.js's "Otra partida" in practice
const S = config.strings;
const $ = (id) => document.getElementById(id);

const HEARTBEAT_MS = 5000;
// The server answers every heartbeat (a pong, and a snapshot if we are behind): after this
// many unanswered, the socket or what serves it is dead even if it never closed. Counted in
// heartbeats, not seconds, so that a background tab's slowed timers do not count as silence.
const SILENT_BEATS = 3;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

let socket = null;
let env = null; // the last envelope
let clockOffset = 0; // server time - local time, in ms
let retries = 0;
let heartbeat = null;
let unanswered = 0; // heartbeats sent since the server's last frame
let closedForGood = false;
let actionCounter = 0;
let moveLog = []; // the current deal's entries, newest first (movelog.js's mergeLog)
let told = null; // the seq of the last move whose banners, marks and sound were given
let entered = null; // cards that entered the viewer's hand: {codes, until}
let wasMyTurn = false;

// -- words ------------------------------------------------------------------------------------
const { t, seatName, cardLabel, posLabel, comboLabel, seatBadges, ...draw } = createRenderer({
  game: config.game,
  strings: S,
  getEnv: () => env,
});
setCardWords(t);
// the result, rematch, "Salir de la mesa" and the spectator's chat (issue 25 items 4 and 5)
const endgame = createEndgame({ config, t, el, seatName });
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// One readable label per legal action (design.md: actions on the wire).
function actionLabel(action) {
  const view = env.view || {};
  switch (action.type) {
    case "play":
      if (action.cards) return t("act_play_cards", { cards: action.cards.map((c) => cardLabel(c)).join(" "), combo: comboLabel(action.interp) });
      if (action.suit) return t("act_play_suit", { card: cardLabel(action.card), suit: FRENCH_SUITS[action.suit] });
      if (action.colour) return t("act_play_colour", { card: cardLabel(action.card), colour: t(`colour_${action.colour}`) });
      return t("act_play", { card: cardLabel(action.card) });
    case "draw":
      if (config.game === "skyjo") return t("act_draw_deck");
      if (config.game === "one_card" && view.attack) return t("act_draw_n", { n: view.attack.amount });
      return t("act_draw");
    case "take_stack":
      return t("act_take_stack", { n: view.stack ?? "" });
    case "catch":
      return t("act_catch", { name: seatName(action.target) });
    case "bid":
      return t("act_bid", { k: action.k });
    case "reveal":
      return t("act_reveal", { pos: posLabel(action.pos) });
    case "take_discard":
      return t("act_take_discard", { card: cardLabel(view.discard_top) });
    case "swap":
      return t("act_swap", { pos: posLabel(action.pos) });
    case "discard_and_reveal":
      return t("act_discard_and_reveal", { pos: posLabel(action.pos) });
    case "return":
      return t("act_return", { card: cardLabel(action.card) });
    default:
      return S[`act_${action.type}`] ? t(`act_${action.type}`) : action.type;
  }
}

// The order of the buttons: what cannot wait first (calls, catches, confirmations); Skyjo's
// face-down places before the open ones. Otherwise the engine's own order.
const URGENT = { call_one_card: 0, call_pika: 0, catch: 1, confirm: 0, ready: 0 };
function actionRank(action) {
  if (action.type in URGENT) return URGENT[action.type];
  if (config.game === "skyjo" && "pos" in action) {
    const mine = env.view.grids?.[env.you.seat];
    return mine && mine[action.pos] === "hidden" ? 2 : 3;
  }
  return 2;
}

// -- the socket -------------------------------------------------------------------------------
function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${config.socket}`;
}

function connect() {
  if (PRACTICE) return openPractice();
  socket = new WebSocket(socketUrl());
  socket.addEventListener("open", () => {
    retries = 0;
    unanswered = 0;
    showBanner("");
    clearInterval(heartbeat);
    heartbeat = setInterval(beat, HEARTBEAT_MS);
  });
  socket.addEventListener("message", (event) => {
    unanswered = 0;
    onFrame(JSON.parse(event.data));
  });
  socket.addEventListener("close", (event) => {
    if (event.target !== socket) return; // a socket already replaced after the network came back
    clearInterval(heartbeat);
    if (closedForGood || event.code === 4401 || event.code === 4403 || event.code === 4404) {
      closedForGood = true;
      if (!$("notice").textContent) showNotice(t("refused"));
      return;
    }
    showBanner(t("reconnecting"));
    const wait = BACKOFF_MS[Math.min(retries, BACKOFF_MS.length - 1)] * (0.75 + Math.random() / 2);
    retries += 1;
    setTimeout(connect, wait);
  });
}

// The browser knows when the network goes: say so at once (a dead socket may not close for
// minutes), and when it comes back open a fresh socket instead of waiting on the old one.
window.addEventListener("offline", () => {
  if (!closedForGood && !PRACTICE) showBanner(t("reconnecting"));
});
window.addEventListener("online", () => {
  if (PRACTICE || closedForGood || !socket || socket.readyState > WebSocket.OPEN) return; // closed: its backoff reconnects
  replaceSocket();
});

// Offline practice: the worker plays the table; its runtime's loading is shown until it is ready.
async function openPractice() {
  const { openPractice: open } = await import("./practice/transport.js");
  // the practice table is the player's own, in this browser: its envelope may be read (tests, bench)
  window.tapetePractice = { envelope: () => env };
  const loading = $("practice-loading");
  practice = open({
    config,
    onFrame,
    onLoading: ({ step, percent }) => {
      $("practice-loading-bar").value = percent;
      if (step === "ready") {
        loading.hidden = true;
        showBanner("");
      } else $("practice-loading-text").textContent = t(`practice_loading_${step}`);
    },
    onFatal: (message) => {
      loading.hidden = true;
      showBanner("");
      showNotice(t("error", { message }));
    },
  });
}

function beat() {
  if (unanswered >= SILENT_BEATS) {
    showBanner(t("reconnecting"));
    replaceSocket();
    return;
  }
  unanswered += 1;
  send({ type: "sync", version: env ? env.version : null });
}

function replaceSocket() {
  const old = socket;
  clearInterval(heartbeat);
  retries = 0;
  connect();
  if (old) old.close();
}

function send(frame) {
  if (practice) return practice.send(frame);
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(frame));
    return true;
  }
  return false;
}

function sendAction(action) {
  actionCounter += 1;
  const id = `${Date.now().toString(36)}-${actionCounter}-${Math.random().toString(36).slice(2, 8)}`;
  if (!env || !send({ type: "action", action, action_id: id, version: env.version })) return false;
  // one move per snapshot: the controls come back with the next render (a snapshot or an error)
  if (action.type !== "reorder") for (const control of $("game-area").querySelectorAll(".legal")) control.disabled = true;
  return true;
}

// -- the game module ------------------------------------------------------------------------------
const MODULES = { one_card: "onecard", pika: "pika", puteo: "puteo", skyjo: "skyjo", guandan: "guandan" };
let game = null; // { render(envelope), tick?(now) } once loaded; the generic drawing otherwise
const generic = $("game-area").cloneNode(true); // the fallback's own nodes, kept for a module that breaks

// A module that throws while drawing gives the table back to the generic buttons for good.
function dropGame(error) {
  console.error("game module", error);
  game = null;
  $("game-area").replaceChildren(...generic.cloneNode(true).childNodes);
}

// ?ui=plain keeps the generic drawing: the fallback stays testable for every game
const PLAIN = new URLSearchParams(location.search).get("ui") === "plain";

const gameReady = (async () => {
  const name = MODULES[config.game];
  if (!name || PLAIN) return;
  try {
    const module = await import(`./games/${name}.js`);
    const root = $("game-area");
    const ctx = {
      root,
      el,
      t,
      seatName,
      cardLabel: (code) => cardName(code, config.game),
      cardFace,
      cardBack,
      sendAction,
      askHint: () => send({ type: "hint" }),
      legalActions: () => (env && env.you.role !== "spectator" ? [...env.legal] : []),
      envelope: () => env,
      now: () => Date.now() + clockOffset,
      reducedMotion,
      turnSeat: () => (env ? turnSeat(env, config.game) : null),
      game: config.game,
      strings: S,
    };
    root.replaceChildren();
    root.classList.add(`game-${name}`);
    game = module.createGame(ctx);
  } catch (error) {
    dropGame(error); // the generic buttons still play the game
  }
})();

function onFrame(frame) {
  switch (frame.type) {
    case "snapshot":
      frame.table.legal = unpackLegal(frame.table); // Guandan's plays come packed (docs/protocol.md)
      if (!env || frame.version >= env.version || frame.table.status !== env.status) render(frame.table);
      break;
    case "error":
      if (["identity_required", "guests_not_allowed", "no_such_table", "private_room"].includes(frame.code)) closedForGood = true;
      if (frame.code !== "stale") showNotice(t("error", { message: frame.message }));
      if (env) render(env); // enable the buttons again; a stale action gets a snapshot next
      break;
    case "chat":
      addChat(frame.message);
      break;
    case "hint":
      if (game && game.hint && env && frame.version === env.version) game.hint(frame.action);
      break;
    case "log":
      moveLog = mergeLog(frame.entries, env?.last && env.last.seq > frame.version ? [env.last] : []);
      renderLog();
      break;
    case "chat_history":
      $("chat-log").replaceChildren();
      for (const message of frame.messages) addChat(message);
      break;
    default:
      break; // ack, pong: the snapshot that follows says it all
  }
}

// -- rendering --------------------------------------------------------------------------------
function showBanner(text) {
  $("banner").textContent = text;
  $("banner").hidden = !text;
}

function showNotice(text) {
  $("notice").textContent = text;
}

function render(envelope) {
  env = envelope;
  gameReady.then(paint);
}

function paint() {
  const envelope = env;
  clockOffset = envelope.server_time - Date.now();
  const root = $("table-app");
  root.dataset.version = envelope.version;
  root.dataset.status = envelope.status;
  root.dataset.seat = envelope.you.seat ?? "";
  root.dataset.role = envelope.you.role;
  root.dataset.phase = envelope.view?.phase ?? "";
  if (endgame.render(envelope)) return; // a room its host closed
  const waiting = envelope.status === "waiting";
  if ($("waiting")) $("waiting").hidden = !waiting;
  $("board").hidden = waiting;
  $("move-log").hidden = waiting;
  if (waiting) return renderWaiting();
  renderTurn();
  renderTimers();
  renderLastMove();
  $("spectator-notice").hidden = envelope.you.role !== "spectator";
  if (game) {
    try {
      game.render(envelope);
    } catch (error) {
      dropGame(error);
    }
  }
  // each seat is drawn once (issue 25 §1): by the game module, else by the generic strip
  $("seats").hidden = Boolean(game);
  $("timers").hidden = Boolean(game); // the turn line and the buttons count down
  if (game) $("seats").replaceChildren();
  else {
    renderSeats();
    renderPublic();
    renderHand();
    renderActions();
  }
  renderResult();
  tellMove();
  markEntered();
  markTurnSeat();
  renderLog();
}

// The waiting room: seats filling live, the host's bots and start (PF-22 – PF-25).
function renderWaiting() {
  const list = $("wait-seats");
  list.replaceChildren();
  const bySeat = new Map(env.seats.map((s) => [s.seat, s]));
  for (let index = 0; index < env.num_players; index += 1) {
    const seat = bySeat.get(index);
    const item = el("li", { class: seat ? "filled" : "empty", "data-seat": index });
    if (seat) {
      item.append(el("span", { class: "seat-name", text: seatName(index) }), " ", seatBadges(seat));
      if (env.is_host && index !== env.you.seat) {
        const remove = el("button", { type: "button", class: "small secondary", text: t("remove") });
        remove.addEventListener("click", () => hostCall("DELETE", `${config.api}/seats/${index}`));
        item.append(" ", remove);
      }
    } else {
      item.append(el("span", { class: "seat-name", text: t("empty_seat") }));
      if (env.is_host) {
        const select = el("select", { "aria-label": t("bot_level") });
        for (const [value, label] of config.levels) select.append(el("option", { value, text: label, selected: value === "normal" }));
        const add = el("button", { type: "button", class: "small", text: t("add_bot"), "data-testid": `add-bot-${index}` });
        add.addEventListener("click", () => hostCall("POST", `${config.api}/bots`, { level: select.value, seat: index }));
        item.append(" ", select, " ", add);
      }
    }
    list.append(item);
  }
  const missing = env.num_players - env.seats.length;
  $("wait-status").textContent = missing > 0 ? t("missing", { n: missing }) : env.is_host ? t("full") : t("host_starts");
  $("host-controls").hidden = !env.is_host;
  $("start-button").disabled = missing > 0;
}

async function hostCall(method, url, body) {
  showNotice("");
  try {
    return await api(method, url, body);
  } catch (error) {
    showNotice(t("error", { message: error.message }));
    return null;
  }
}

function renderTurn() {
  const line = $("turn-line");
  const prompt = turnPrompt(env, { t, seatName, strings: S, game: config.game });
  line.dataset.text = prompt.text;
  if (prompt.deadline) line.dataset.deadline = prompt.deadline;
  else delete line.dataset.deadline;
  line.textContent = prompt.text;
  line.classList.toggle("mine", Boolean(prompt.mine));
  line.classList.toggle("window", Boolean(prompt.window));
  line.classList.toggle("spectator", env.you.role === "spectator");
  if (prompt.turn && !wasMyTurn) sound("turn");
  wasMyTurn = Boolean(prompt.turn);
}

function tickTurn(now) {
  const line = $("turn-line");
  if (!line.dataset.deadline) return;
  const left = Math.max(0, Math.ceil((Number(line.dataset.deadline) - now) / 1000));
  const text = line.dataset.text;
  line.textContent = t(/[!?]$/.test(text) ? "prompt_seconds_after" : "prompt_seconds", { text, s: left });
}

// Countdowns from the absolute deadlines, corrected by the server's clock.
function renderTimers() {
  const list = $("timers");
  list.replaceChildren();
  for (const timer of env.timers) {
    const item = el("li", { class: "timer", "data-deadline": timer.deadline, "data-name": timer.name });
    item.dataset.label = timer.seat === null || timer.seat === undefined ? t(`timer_${timer.name}`) : `${t(`timer_${timer.name}`)} · ${seatName(timer.seat)}`;
    list.append(item);
  }
  tick();
}

function tick() {
  const now = Date.now() + clockOffset;
  if (game?.tick && env) {
    try {
      game.tick(now);
    } catch (error) {
      dropGame(error);
      paint();
    }
  }
  tickTurn(now);
  for (const item of $("timers").children) {
    const left = Math.max(0, Math.ceil((Number(item.dataset.deadline) - now) / 1000));
    item.textContent = t("seconds", { name: item.dataset.label, s: left });
    item.classList.toggle("urgent", left <= 5);
  }
}
setInterval(tick, 250);

function renderSeats() {
  draw.renderSeats($("seats"));
}

function renderPublic() {
  draw.renderPublic($("public"));
  $("public").querySelector(".last-move")?.remove(); // the shell's own line says it
}

// The last move in words (movelog.js): what was played, the suit or colour asked, the bid, the
// count drawn; a hand reorder is no move (the server never makes it `last`).
function logWords() {
  return { t, seatName, cardLabel: (code) => cardLabel(code), you: env && env.you.role !== "spectator" ? env.you.seat : null };
}

function renderLastMove() {
  const line = $("last-move");
  const last = env.last;
  const text = last ? entryText(last, logWords()) : "";
  line.textContent = text ? t("last_move_said", { move: text }) : "";
}

// This version's own move, told once: its banners (who did what to whom), a sound, the cards
// that entered the viewer's hand (docs/protocol.md, "The move log").
function tellMove() {
  const last = env.last;
  if (!last || last.seq !== env.version || last.seq === told) return;
  const first = told === null;
  told = last.seq;
  if (first && env.status !== "playing") return;
  const words = logWords();
  const banners = (last.banners || []).map((b) => bannerText(b, words)).filter(Boolean);
  if (banners.length) showTableBanner(banners.join(" · "));
  else hideTableBanner(); // a newer move: the old news goes (after a short read)
  if (last.entered?.length) entered = { codes: [...last.entered], until: Date.now() + ENTERED_MS };
  const me = words.you;
  const penalty = (last.banners || []).some((b) => ["caught", "missed_call", "stack", "lost_life"].includes(b.kind));
  if (penalty) sound("penalty");
  else if (last.type === "play" && last.seat !== me) sound("play");
  animateTravel(last);
}

let bannerTimer = null;
let bannerShown = 0;
function showTableBanner(text) {
  const banner = $("table-banner");
  banner.textContent = text;
  banner.hidden = false;
  bannerShown = Date.now();
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => (banner.hidden = true), BANNER_MS);
}

function hideTableBanner() {
  if ($("table-banner").hidden) return;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => ($("table-banner").hidden = true), Math.max(0, BANNER_MIN_MS - (Date.now() - bannerShown)));
}

const BANNER_MS = 6000;
const BANNER_MIN_MS = 2500; // a banner stays this long even when the next move comes at once
const ENTERED_MS = 2500;

// The cards a move put into the viewer's hand are marked for a moment (Pika's go to the right
// end, PK-46: the marks are given from the right).
function markEntered() {
  if (!entered) return;
  if (Date.now() > entered.until) {
    entered = null;
    return;
  }
  const nodes = [...document.querySelectorAll("#game-area #hand [data-card], #hand [data-card]")].filter((node, i, all) => all.indexOf(node) === i).reverse();
  const wanted = [...entered.codes];
  for (const node of nodes) {
    const at = wanted.indexOf(node.dataset.card);
    if (at < 0) continue;
    wanted.splice(at, 1);
    node.classList.add("entered");
    node.dataset.entered = "true";
  }
  const until = entered.until;
  setTimeout(() => {
    if (entered && entered.until !== until) return;
    for (const node of document.querySelectorAll("#hand .entered")) {
      node.classList.remove("entered");
      delete node.dataset.entered;
    }
    entered = null;
  }, until - Date.now());
}

// The current seat pulses (table.css, only without prefers-reduced-motion): the one turn seat.
function markTurnSeat() {
  const seat = turnSeat(env, config.game);
  for (const node of document.querySelectorAll("#game-area [data-seat].turn-now")) node.classList.remove("turn-now");
  if (seat === null || seat === env.you.seat) return;
  for (const node of document.querySelectorAll(`#game-area [data-seat="${seat}"]`)) if (!node.closest("#hand")) node.classList.add("turn-now");
}

// A played card travels from its player's seat to the centre; cards drawn travel from the stock
// to the hand. Only what the page drew with data-travel (the newest card on the table) moves.
function animateTravel(last) {
  if (reducedMotion() || last.seat === null || last.seat === undefined) return;
  const area = $("game-area");
  const target = area.querySelector("[data-travel=played]");
  const from = last.seat === env.you.seat ? area.querySelector("#hand") : area.querySelector(`[data-seat="${last.seat}"]:not(#hand *)`);
  if (target && from && last.type === "play") travel(target, from);
  if (last.seat === env.you.seat && last.entered?.length) {
    const stock = area.querySelector("[data-travel=stock]");
    for (const node of area.querySelectorAll("#hand [data-entered]")) if (stock) travel(node, stock);
  }
}

function travel(node, from) {
  const a = from.getBoundingClientRect();
  const b = node.getBoundingClientRect();
  node.style.setProperty("--from-x", `${Math.round(a.left + a.width / 2 - (b.left + b.width / 2))}px`);
  node.style.setProperty("--from-y", `${Math.round(a.top + a.height / 2 - (b.top + b.height / 2))}px`);
  node.classList.remove("arrive");
  void node.offsetWidth; // restart the animation if the node already had it
  node.classList.add("arrive");
  node.addEventListener("animationend", () => node.classList.remove("arrive"), { once: true });
}

// -- the move log (issue 25 §3): the current deal, newest first, from the log frame ----------------
function renderLog() {
  if (!env || env.status === "waiting") return;
  if (env.last && !moveLog.some((entry) => entry.seq === env.last.seq)) moveLog = mergeLog(moveLog, [env.last]);
  const list = $("log-list");
  const words = logWords();
  const items = moveLog.slice(0, 200).map((entry) => el("li", { "data-seq": entry.seq, text: entryText(entry, words) }));
  list.replaceChildren(...items);
  if (!items.length) list.append(el("li", { class: "help", text: t("no_moves_yet") }));
}

// On a wide screen the log is open beside the table; on a phone it is folded under it.
if (window.matchMedia("(min-width: 64rem)").matches) $("log-details").open = true;

// -- sounds (issue 25 §3): off by default, remembered in this browser, made with WebAudio ----------
const SOUND_KEY = "tapete.sound";
let audio = null;

function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

function showSoundToggle() {
  $("sound-toggle").setAttribute("aria-pressed", String(soundOn()));
}

const TONES = { turn: [[660, 0], [880, 0.12]], play: [[520, 0]], penalty: [[330, 0], [220, 0.16]] };

function sound(kind) {
  if (!soundOn()) return;
  $("table-app").dataset.sound = kind;
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    for (const [frequency, offset] of TONES[kind]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = kind === "penalty" ? "square" : "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(kind === "penalty" ? 0.06 : 0.12, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.18);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.2);
    }
  } catch {
    // no sound here (no WebAudio): the table plays on
  }
}

$("sound-toggle").addEventListener("click", () => {
  const on = !soundOn();
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // private mode: the switch holds for this page only
  }
  showSoundToggle();
  if (on) sound("play"); // a gesture: the browser lets the sound start now, and the player hears it
});
showSoundToggle();

function renderHand() {
  draw.renderHand($("hand"), $("hand-box"));
}

function renderActions() {
  const box = $("actions");
  box.replaceChildren();
  const seated = env.you.role !== "spectator" && env.you.seat !== null;
  $("actions-box").hidden = !seated || Boolean(env.result);
  if (!seated) return;
  const legal = [...env.legal].map((action, index) => ({ action, index }));
  legal.sort((a, b) => actionRank(a.action) - actionRank(b.action) || a.index - b.index);
  const buttons = legal.map(({ action }) => {
    const button = el("button", { type: "button", class: `action legal act-${action.type}`, text: actionLabel(action), "data-action": JSON.stringify(action) });
    button.addEventListener("click", () => sendAction(action));
    return button;
  });
  // PT-56: El Puteo's forbidden bid is shown, disabled.
  const v = env.view || {};
  if (config.game === "puteo" && v.forbidden_bid !== null && v.forbidden_bid !== undefined && env.legal.some((a) => a.type === "bid")) {
    const at = buttons.findIndex((b) => JSON.parse(b.dataset.action).k > v.forbidden_bid);
    const disabled = el("button", { type: "button", class: "action act-bid forbidden", disabled: true, text: t("act_bid_forbidden", { k: v.forbidden_bid }) });
    buttons.splice(at < 0 ? buttons.length : at, 0, disabled);
  }
  if (!buttons.length) box.append(el("p", { class: "help", text: t("no_actions") }));
  box.append(...buttons);
}

function renderResult() {
  endgame.renderResult();
}

// -- chat (PF-34): text only ------------------------------------------------------------------
function addChat(message) {
  const log = $("chat-log");
  const name = message.guest ? `${message.name} (${S.kind_guest})` : message.name;
  const item = el("li", {}, el("strong", { text: name }), ": ", el("span", { text: message.text }));
  log.append(item);
  while (log.children.length > 100) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

$("chat-form")?.addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", text })) input.value = "";
});

// -- the waiting room's controls (a live room's only) ------------------------------------------------
const shareButton = $("share-button");
if (shareButton) wireWaitingRoom();
function wireWaitingRoom() {
  if (!navigator.share) shareButton.textContent = shareButton.dataset.copy;
  shareButton.addEventListener("click", async () => {
    const title = document.title;
    if (navigator.share) {
      try {
        await navigator.share({ title, text: t("share_text", { game: title }), url: config.link });
        return;
      } catch {
        // dismissed, or not allowed here: copy instead
      }
    }
    try {
      await navigator.clipboard.writeText(config.link);
    } catch {
      $("room-link").select();
      document.execCommand("copy");
    }
    showNotice(t("copied"));
  });

  $("start-button").addEventListener("click", () => hostCall("POST", `${config.api}/start`, {}));
  // Usernames to invite as the host types (two letters or more), from /api/users.
  let suggestTimer = null;
  $("invite-name").addEventListener("input", () => {
    clearTimeout(suggestTimer);
    const typed = $("invite-name").value.trim();
    if (typed.length < 2) return;
    suggestTimer = setTimeout(async () => {
      try {
        const { results } = await api("GET", `/api/users?q=${encodeURIComponent(typed)}`);
        $("invite-suggestions").replaceChildren(...results.map((name) => el("option", { value: name })));
      } catch {
        // suggestions are a help, not a need: typing the whole name still invites
      }
    }, 200);
  });
  $("invite-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("invite-name").value.trim();
    if (!name) return;
    if (await hostCall("POST", `${config.api}/invitations`, { username: name })) {
      $("invite-name").value = "";
      showNotice(t("invited", { name }));
    }
  });
}

showBanner(t(PRACTICE ? "practice_loading_runtime" : "connecting"));
connect();
