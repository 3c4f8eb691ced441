// The lobby socket on every page of a signed-in player (issues 11 and 25): the queue status as
// it changes; invitations as notices on every page (notices.js); and when an online table starts,
// one tab of this browser goes to it — the one that queued, else one open tab (tabs.js) — while
// the others, and a chosen tab that is busy at another table, show "your table is ready · Go".
// A short status line sits in the header; the home page's queue panel (queue.js) listens to the
// same statuses through the "tapete:queue" DOM event, and its invitations list (home.js) to
// "tapete:invitation".
import { api } from "./api.js";
import { fill, setServerTime, showInvitation, showTableReady } from "./notices.js";
import { busyElsewhere, elect } from "./tabs.js";

const banner = document.getElementById("queue-banner");
let socket = null;
let retry = 1000;
let offset = 0; // server clock minus this clock, from the last status that carried server_time
let current = { type: "queue", state: "idle" };
let ticking = null;
let heard = 0; // statuses the socket has delivered

export { fill };

export function secondsLeft(status) {
  if (!status || !status.deadline) return null;
  return Math.max(0, Math.ceil((status.deadline - (Date.now() + offset)) / 1000));
}

export function currentStatus() {
  return current;
}

function bannerText(status) {
  const words = banner.dataset;
  if (status.state === "queued") return fill(words.queued, status);
  if (status.state === "seated") {
    const template = status.then === "cancel" ? words.seatedCancel : words.seatedSimulated;
    return fill(template, { ...status, seconds: secondsLeft(status) });
  }
  if (status.state === "cancelled") return fill(words.cancelled, status);
  if (status.state === "failed") return status.detail || "";
  return "";
}

function paint() {
  if (!banner) return;
  const text = bannerText(current);
  banner.textContent = text;
  banner.hidden = !text;
  if (current.state === "playing" && current.url) {
    const link = document.createElement("a");
    link.href = current.url;
    link.textContent = banner.dataset.playing;
    banner.replaceChildren(link);
    banner.hidden = location.pathname === current.url;
  }
}

// Show a status (from the socket, the API or the home page's own requests) everywhere on the page.
export function showStatus(status) {
  if (!status || status.type !== "queue") return;
  current = status;
  if (typeof status.server_time === "number") offset = status.server_time - Date.now();
  clearInterval(ticking);
  ticking = status.state === "seated" ? setInterval(tick, 1000) : null;
  paint();
  document.dispatchEvent(new CustomEvent("tapete:queue", { detail: status }));
}

// A status the page asked for (joining, leaving, catching up): if the socket told of a change
// while the request was out, the answer may be older than what is shown — a join's answer
// "queued" arriving after the wave's "seated" — so the current one is asked for instead.
export async function showAnswer(request) {
  const before = heard;
  const status = await request;
  if (heard === before) showStatus(status);
  else await refresh();
}

function tick() {
  paint();
  document.dispatchEvent(new CustomEvent("tapete:tick", { detail: current }));
}

// An invitation as it arrives or changes: a notice on this page, and the home page's list (home.js).
function announce(invitation) {
  if (!invitation) return;
  showInvitation(invitation);
  document.dispatchEvent(new CustomEvent("tapete:invitation", { detail: invitation }));
}

async function tableStarted(message) {
  const url = message.url;
  if (!url || location.pathname === url) return;
  if ((await elect(message.table, url)) && !busyElsewhere(url)) location.assign(url);
  else showTableReady(url);
}

async function refresh() {
  const before = heard;
  try {
    const status = await api("GET", "/api/queue");
    if (heard === before) showStatus(status); // else the socket's newer one stands
  } catch {
    // the status line stays as it was; the next event or reconnection repairs it
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => {
    retry = 1000;
    refresh(); // catch up with whatever happened while the socket was down
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "table_started" || message.type === "queue") heard += 1;
    if (message.type === "table_started") {
      showStatus({ type: "queue", state: "playing", url: message.url, code: message.code, table: message.table });
      tableStarted(message);
    } else if (message.type === "queue") {
      showStatus(message);
    } else if (message.type === "hello") {
      setServerTime(message.server_time);
      for (const invitation of message.invitations || []) announce(invitation);
    } else if (message.type === "invitation") {
      announce(message.invitation);
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // signed out
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

if (banner) connect();
