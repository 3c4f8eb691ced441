// Notices on every page of a signed-in player (issue 25 item 5), in the header's #toasts box of
// base.html: an invitation to a friends room, with Accept / Decline, from the moment it is sent
// until it is answered (here, on the home page or in another tab), its room starts or closes,
// or it expires; and "your online table is ready · Go" in a tab that does not go there itself.
// A notice closed with × stays closed in this browser; the home page still lists the invitation.
import { api } from "./api.js";

const box = document.getElementById("toasts");
const words = box ? box.dataset : {};
const DISMISSED = "tapete:dismissed-invitations";
const expiries = new Map(); // invitation id -> its expiry timer
let offset = 0; // server clock minus this clock

export function setServerTime(serverTime) {
  if (typeof serverTime === "number") offset = serverTime - Date.now();
}

function dismissed() {
  try {
    return new Set(JSON.parse(localStorage.getItem(DISMISSED) || "[]"));
  } catch {
    return new Set();
  }
}

function remember(id) {
  try {
    // only ids still shown are worth keeping: the list never grows past the live invitations
    const live = [...box.querySelectorAll("[data-invitation]")].map((node) => Number(node.dataset.invitation));
    const keep = [...dismissed()].filter((known) => live.includes(known));
    localStorage.setItem(DISMISSED, JSON.stringify([...keep, id]));
  } catch {
    // no storage: it comes back on the next page, as an unanswered invitation should
  }
}

export function fill(template, values) {
  return (template || "").replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : ""));
}

function button(label, className, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  if (className) node.className = className;
  node.addEventListener("click", onClick);
  return node;
}

function toast(testid, text, extra = []) {
  const node = document.createElement("div");
  node.className = "toast";
  node.dataset.testid = testid;
  const line = document.createElement("p");
  line.id = `toast-${Math.random().toString(36).slice(2, 10)}`;
  line.append(...(Array.isArray(text) ? text : [text]));
  const close = button("×", "toast-close", () => node.remove());
  close.setAttribute("aria-label", words.close);
  node.append(line, ...extra, close);
  return node;
}

function drop(id) {
  clearTimeout(expiries.get(id));
  expiries.delete(id);
  box?.querySelector(`[data-invitation="${id}"]`)?.remove();
}

async function answer(node, invitation, reply) {
  for (const control of node.querySelectorAll("button")) control.disabled = true;
  try {
    await api("POST", `/api/invitations/${invitation.id}/${reply}`, {});
  } catch (error) {
    node.querySelector("p").textContent = error.message;
    node.querySelector(".toast-close").disabled = false;
    node.querySelector(".toast-buttons")?.remove();
    return;
  }
  if (reply === "accept") {
    location.assign(`/mesa/${encodeURIComponent(invitation.code)}/`);
    return;
  }
  drop(invitation.id);
  document.dispatchEvent(
    new CustomEvent("tapete:invitation", { detail: { ...invitation, status: "declined" } }),
  );
}

// Its expiry passed with no message (the server marks it lazily): it goes here and, through the
// same event the socket's changes use, from the home page's list.
function expire(invitation) {
  drop(invitation.id);
  document.dispatchEvent(new CustomEvent("tapete:invitation", { detail: { ...invitation, status: "expired" } }));
}

// An invitation as the lobby socket tells it: pending ones are shown, any other state removes it.
export function showInvitation(invitation) {
  if (!box || !invitation) return;
  const left = invitation.expires_at - (Date.now() + offset);
  if (invitation.status !== "pending" || left <= 0) {
    drop(invitation.id);
    return;
  }
  // PF-14's 10 minutes: timed even when the notice was closed, for the home page's list
  if (!expiries.has(invitation.id)) {
    expiries.set(invitation.id, setTimeout(() => expire(invitation), Math.min(left, 2 ** 31 - 1)));
  }
  if (box.querySelector(`[data-invitation="${invitation.id}"]`) || dismissed().has(invitation.id)) return;
  const text = fill(words.invited, {
    from: invitation.from,
    game: invitation.game_name || invitation.game,
    code: invitation.code,
  });
  const buttons = document.createElement("div");
  buttons.className = "toast-buttons";
  const node = toast("invitation-toast", text, [buttons]);
  node.dataset.invitation = invitation.id;
  buttons.append(
    button(words.accept, "", () => answer(node, invitation, "accept")),
    button(words.decline, "secondary", () => answer(node, invitation, "decline")),
  );
  for (const control of buttons.children) control.setAttribute("aria-describedby", node.querySelector("p").id);
  node.querySelector(".toast-close").addEventListener("click", () => remember(invitation.id));
  box.prepend(node);
}

// The online table started and this tab stays where it is: say so, with a link to it.
export function showTableReady(url) {
  if (!box || box.querySelector(`[data-testid="table-ready-toast"][data-url="${url}"]`)) return;
  const link = document.createElement("a");
  link.href = url;
  link.textContent = words.go;
  const node = toast("table-ready-toast", [`${words.ready} · `, link]);
  node.dataset.url = url;
  box.prepend(node);
}
