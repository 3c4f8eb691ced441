// /practicar/: the download for offline play (started by a first visit), "Continuar la partida
// guardada" for each game kept in this browser, and El Puteo's seat limit in classic mode (PT-2).
import { wireDownload } from "./download.js";
import { savedGames } from "./store.js";

wireDownload({ auto: true });

savedGames()
  .then((games) => {
    for (const game of games) {
      const link = document.querySelector(`[data-resume="${game}"]`);
      if (link) link.hidden = false;
    }
  })
  .catch(() => {
    // no IndexedDB here (a private window): nothing to resume
  });

for (const form of document.querySelectorAll(".practice-form")) {
  const players = form.querySelector("select[name=players]");
  const mode = form.querySelector("select[name=option-mode]");
  if (!players || !mode) continue;
  const limit = () => {
    const max = mode.value === "classic" ? Number(form.dataset.maxClassic) : Infinity;
    for (const option of players.options) option.disabled = Number(option.value) > max;
    if (Number(players.value) > max) players.value = String(max);
  };
  mode.addEventListener("change", limit);
  limit();
}
