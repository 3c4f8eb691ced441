// The replay page (issue 10): a finished game step by step, as this viewer may see it.
//
// The server rebuilt every step from the seed and the action log and computed each step's
// view for this viewer (cardgames/tables/selectors.py replay_for): a seated player's own
// seat, else a spectator's. They arrive in the page's json_script block; this module only
// steps through them and draws each view with the table page's renderers (render.js).
import { createRenderer, el } from "./render.js";

const config = JSON.parse(document.getElementById("replay-config").textContent);
const replay = config.replay;
const $ = (id) => document.getElementById(id);
const AUTOPLAY_MS = 900;
const last = replay.steps.length - 1;

// An envelope-shaped object for the renderers: the replay's seats (a replay has no presence,
// so every seat counts as connected), the viewer's seat, the step's view.
let env = null;
const seats = replay.seats.map((s) => ({ ...s, connected: true }));
const { t, seatName, moveLabel, renderSeats, renderPublic, renderHand, renderResult } = createRenderer({
  game: replay.game,
  strings: config.strings,
  getEnv: () => env,
});

const clock = new Intl.DateTimeFormat(document.documentElement.lang || "es", {
  timeZone: "Europe/Madrid",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

let index = 0;
let timer = null;

function describe(step) {
  if (step.type === "deal" && step.seq === 0) return el("span", { text: t("deal_step") });
  const line = el("span");
  const move = moveLabel(step.type);
  if (step.seat === null || step.seat === undefined) line.append(t("table_move", { move }));
  else line.append(el("strong", { text: seatName(step.seat) }), ` ${move}`);
  if (step.source) line.append(" ", el("span", { class: `badge source-${step.source}`, text: t(`source_${step.source}`) }));
  return line;
}

function show(target) {
  index = Math.max(0, Math.min(last, target));
  const step = replay.steps[index];
  env = {
    seats,
    you: { seat: replay.seat, role: replay.seat === null ? "spectator" : "player" },
    to_act: [],
    view: step.view,
    last: null,
  };
  const root = $("replay-app");
  root.dataset.step = index;
  root.dataset.phase = step.view?.phase ?? "";
  $("step-slider").value = index;
  const at = step.at ? ` · ${clock.format(new Date(step.at))}` : "";
  $("step-line").textContent = `${t("step_of", { n: index, total: last })}${at}`;
  $("step-move").replaceChildren(describe(step));
  renderSeats($("seats"));
  for (const item of $("seats").children) item.classList.toggle("acted", Number(item.dataset.seat) === step.seat);
  renderPublic($("public"));
  renderHand($("hand"), $("hand-box"));
  const atEnd = index === last && Boolean(replay.result);
  $("result").hidden = !atEnd;
  if (atEnd) renderResult(replay.result, $("result-winners"), $("result-places"));
  $("first-step").disabled = $("prev-step").disabled = index === 0;
  $("next-step").disabled = $("last-step").disabled = index === last;
  if (index === last) stop();
}

function play() {
  if (index === last) show(0);
  $("play-button").textContent = t("pause");
  $("play-button").setAttribute("aria-pressed", "true");
  timer = setInterval(() => show(index + 1), AUTOPLAY_MS);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play-button").textContent = t("play");
  $("play-button").setAttribute("aria-pressed", "false");
}

$("first-step").addEventListener("click", () => show(0));
$("prev-step").addEventListener("click", () => show(index - 1));
$("next-step").addEventListener("click", () => show(index + 1));
$("last-step").addEventListener("click", () => show(last));
$("play-button").addEventListener("click", () => (timer ? stop() : play()));
$("step-slider").addEventListener("input", (event) => {
  stop();
  show(Number(event.target.value));
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "ArrowLeft") show(index - 1);
  else if (event.key === "ArrowRight") show(index + 1);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(last);
  else return;
  event.preventDefault();
});

show(0);
