// Home: "Jugar contra bots" creates a bots room through the API, starts it and opens the
// table; "Crear sala con amigos" creates a friends room and opens its waiting room.
import { api } from "./api.js";

const errorBox = document.getElementById("home-error");
const nameInput = document.getElementById("player-name");

function roomBody(form, mode) {
  const data = new FormData(form);
  const options = {};
  for (const [key, value] of data.entries()) {
    if (key.startsWith("option-")) {
      const number = Number(value);
      options[key.slice(7)] = Number.isNaN(number) ? value : number;
    }
  }
  const body = {
    game: form.dataset.game,
    mode,
    players: Number(data.get("players")),
    options,
    bot_level: data.get("bot_level") || "normal",
  };
  if (nameInput && nameInput.value.trim()) body.name = nameInput.value.trim();
  return body;
}

async function createRoom(form, mode, button) {
  errorBox.textContent = "";
  if (nameInput && !nameInput.value.trim()) {
    nameInput.focus();
    errorBox.textContent = document.getElementById("home-play").dataset.nameRequired;
    return;
  }
  button.disabled = true;
  try {
    const room = await api("POST", "/api/tables", roomBody(form, mode));
    if (mode === "bots") await api("POST", `/api/tables/${room.id}/start`, {});
    window.location.assign(`/mesa/${encodeURIComponent(room.code)}/`);
  } catch (error) {
    errorBox.textContent = error.message;
    button.disabled = false;
  }
}

for (const form of document.querySelectorAll(".room-form")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter || form.querySelector("button[value=bots]");
    createRoom(form, button.value, button);
  });
}

// "Ahora mismo": pending invitations (server-rendered, then live from the lobby socket through
// the "tapete:invitation" event of lobby.js): accept seats you and opens the room; decline drops it.
const live = document.getElementById("live-panel");
const invitationList = document.getElementById("invitation-list");
const invitationsEmpty = document.getElementById("invitations-empty");
const gameNames = JSON.parse(document.getElementById("game-names")?.textContent || "{}");

function syncEmpty() {
  invitationsEmpty.hidden = invitationList.children.length > 0;
}

function invitationRow(invitation) {
  const row = document.createElement("li");
  row.className = "invitation";
  row.dataset.invitation = invitation.id;
  row.dataset.code = invitation.code;
  const text = document.createElement("span");
  text.textContent = live.dataset.invited
    .replace("{from}", invitation.from)
    .replace("{game}", gameNames[invitation.game] || invitation.game)
    .replace("{code}", invitation.code);
  const buttons = document.createElement("span");
  buttons.className = "live-buttons";
  for (const [answer, label, style] of [
    ["accept", live.dataset.accept, ""],
    ["decline", live.dataset.decline, "secondary"],
  ]) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.answer = answer;
    button.textContent = label;
    if (style) button.className = style;
    buttons.append(button);
  }
  row.append(text, buttons);
  return row;
}

function showInvitation(invitation) {
  const existing = invitationList.querySelector(`[data-invitation="${invitation.id}"]`);
  if (invitation.status !== "pending") {
    existing?.remove();
  } else if (!existing) {
    invitationList.prepend(invitationRow(invitation));
  }
  syncEmpty();
}

async function answerInvitation(row, answer, button) {
  errorBox.textContent = "";
  button.disabled = true;
  try {
    await api("POST", `/api/invitations/${row.dataset.invitation}/${answer}`, {});
    if (answer === "accept") {
      window.location.assign(`/mesa/${encodeURIComponent(row.dataset.code)}/`);
      return;
    }
    row.remove();
    syncEmpty();
  } catch (error) {
    errorBox.textContent = error.message;
    button.disabled = false;
  }
}

if (invitationList) {
  invitationList.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-answer]");
    if (button) answerInvitation(button.closest("li"), button.dataset.answer, button);
  });
  document.addEventListener("tapete:invitation", (event) => showInvitation(event.detail));
}
