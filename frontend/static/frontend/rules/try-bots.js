// Rules pages: "Pruébalo contra bots" starts a game against bots (normal level, the game's
// default seats) the way the home page does. A visitor without a name yet (or any error)
// follows the link to the home page, where the game's own "Jugar contra bots" button waits.
import { api } from "../api.js";

async function tryAgainstBots(link) {
  const room = await api("POST", "/api/tables", { game: link.dataset.game, mode: "bots", bot_level: "normal" });
  await api("POST", `/api/tables/${room.id}/start`, {});
  window.location.assign(`/mesa/${encodeURIComponent(room.code)}/`);
}

for (const link of document.querySelectorAll("a.try-bots[data-game]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    link.setAttribute("aria-busy", "true");
    tryAgainstBots(link).catch(() => window.location.assign(link.href));
  });
}
