// The home page's "Jugar online" panel (issue 11): queue for a game, a player count and a
// stake (free, or a buy-in of 100/250/500/1000 coins, PF-17); see the place in the queue, the
// seconds until simulated players arrive (free, PF-51) or until the table is cancelled
// (buy-in, PF-52); leave at once. lobby.js takes every open tab to the table when it starts.
import { api } from "./api.js";
import { currentStatus, fill, secondsLeft, showAnswer } from "./lobby.js";

const panel = document.getElementById("online-play");
const form = document.getElementById("queue-form");
const statusLine = document.getElementById("queue-status");
const leave = document.getElementById("queue-leave");
const errorBox = document.getElementById("queue-error");
const words = panel.dataset;

function fillPlayers() {
  const game = form.elements.game;
  const players = form.elements.players;
  const counts = game.selectedOptions[0].dataset.players.split(" ");
  const wanted = players.value || game.selectedOptions[0].dataset.default;
  players.replaceChildren(
    ...counts.map((n) => {
      const option = document.createElement("option");
      option.value = n;
      option.textContent = n;
      option.selected = n === wanted;
      return option;
    }),
  );
  if (!counts.includes(wanted)) players.value = game.selectedOptions[0].dataset.default;
}

function describe(status) {
  switch (status.state) {
    case "queued":
      return fill(words.queued, status);
    case "seated": {
      const template = status.then === "cancel" ? words.seatedCancel : words.seatedSimulated;
      return fill(template, { ...status, seconds: secondsLeft(status) });
    }
    case "playing":
      return words.playing;
    case "cancelled":
      return fill(words.cancelled, status);
    case "failed":
      return status.detail || "";
    default:
      return "";
  }
}

function render(status) {
  const waiting = status.state === "queued" || status.state === "seated";
  statusLine.textContent = describe(status);
  form.querySelector("button[type=submit]").disabled = waiting || status.state === "playing";
  leave.hidden = !waiting;
  leave.textContent = status.state === "seated" ? words.standUp : words.leave;
  if (status.state === "playing" && status.url) {
    const link = document.createElement("a");
    link.href = status.url;
    link.textContent = words.playing;
    link.dataset.testid = "queue-table-link";
    statusLine.replaceChildren(link);
  }
}

form.elements.game.addEventListener("change", fillPlayers);
// A game card's "Jugar online" picks that game here and brings the panel into view.
for (const button of document.querySelectorAll("[data-queue-game]")) {
  button.addEventListener("click", () => {
    form.elements.game.value = button.dataset.queueGame;
    fillPlayers();
    panel.scrollIntoView({ block: "start" });
    form.elements.stake.focus();
  });
}
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const data = new FormData(form);
  try {
    await showAnswer(
      api("POST", "/api/queue", {
        game: data.get("game"),
        players: Number(data.get("players")),
        stake: Number(data.get("stake")),
      }),
    );
  } catch (error) {
    errorBox.textContent = error.message;
  }
});
leave.addEventListener("click", async () => {
  errorBox.textContent = "";
  try {
    await showAnswer(api("DELETE", "/api/queue"));
  } catch (error) {
    errorBox.textContent = error.message;
  }
});
document.addEventListener("tapete:queue", (event) => render(event.detail));
document.addEventListener("tapete:tick", (event) => render(event.detail));

fillPlayers();
render(currentStatus());
showAnswer(api("GET", "/api/queue")).catch(() => {});
