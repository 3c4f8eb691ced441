// Which of this browser's open tabs goes to a started online table (issue 25 item 5). The lobby
// socket tells every tab at once; without a choice each one would navigate, and a tab in the
// middle of another game would be pulled out of it. The tab that queued goes (api.js marks it
// when a join of the queue succeeds); if it has been closed, one open tab goes, preferring a
// visible one that is not at another table. The tabs hear each other on a BroadcastChannel
// for a moment and every tab computes the same choice from what it heard.

const CHANNEL = "tapete-tabs";
const QUEUER = "tapete:queue-tab";
//: how long a tab listens for the others before it decides (the queuing tab never waits)
export const LISTEN_MS = 400;

function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// One id per tab, kept across its page loads (sessionStorage lives as long as the tab).
export const tabId = (() => {
  try {
    const known = sessionStorage.getItem("tapete:tab");
    if (known) return known;
    const id = newId();
    sessionStorage.setItem("tapete:tab", id);
    return id;
  } catch {
    return newId(); // storage refused (privacy settings): this page load is the tab
  }
})();

export function markQueued() {
  try {
    localStorage.setItem(QUEUER, tabId);
  } catch {
    // no storage: the election falls back to "one open tab"
  }
}

function queuer() {
  try {
    return localStorage.getItem(QUEUER);
  } catch {
    return null;
  }
}

// A tab showing a table (a game under way or a room) other than `url` is busy there; a game
// whose result is on screen is over (the table page's result region, data-region="result"),
// so its tab — where "find another" queues again — is free to go.
export function busyElsewhere(url) {
  if (!location.pathname.startsWith("/mesa/") || location.pathname === url) return false;
  const result = document.querySelector('[data-region="result"], #result');
  return !result || result.hidden;
}

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
const heard = new Map(); // table id -> the other tabs that answered for it

if (channel) {
  channel.addEventListener("message", (event) => {
    const note = event.data;
    if (!note || note.kind !== "here" || note.id === tabId) return;
    if (!heard.has(note.table)) heard.set(note.table, []);
    heard.get(note.table).push(note);
  });
}

function rank(tab) {
  // lower is better: not busy at another table, then visible, then the id
  return [tab.busy ? 1 : 0, tab.visible ? 0 : 1, tab.id];
}

function before(a, b) {
  const x = rank(a);
  const y = rank(b);
  for (let i = 0; i < x.length; i += 1) {
    if (x[i] !== y[i]) return x[i] < y[i];
  }
  return false;
}

// The choice, from every tab that answered (this one included): a tab already showing the
// table keeps it and nobody moves; else the tab that queued; else the best-ranked tab.
export function choose(tabs, queuingTab) {
  if (tabs.some((tab) => tab.there)) return null;
  const queued = tabs.find((tab) => tab.id === queuingTab);
  if (queued) return queued.id;
  return tabs.reduce((best, tab) => (before(tab, best) ? tab : best)).id;
}

// Resolves true in the one tab of this browser chosen to go to the started table at `url` (it
// goes unless it is busy at another table; lobby.js decides that, and the other tabs show a notice).
export async function elect(table, url) {
  const me = {
    kind: "here",
    table,
    id: tabId,
    busy: busyElsewhere(url),
    visible: document.visibilityState === "visible",
    there: location.pathname === url,
  };
  if (!channel) return !me.there; // no way to hear the others: each tab decides for itself
  heard.set(table, heard.get(table) || []);
  channel.postMessage(me);
  const queuingTab = queuer();
  if (queuingTab === tabId) return !me.there; // the tab that queued is chosen at once
  await new Promise((resolve) => setTimeout(resolve, LISTEN_MS));
  const tabs = [me, ...heard.get(table)];
  heard.delete(table);
  return choose(tabs, queuingTab) === tabId;
}
