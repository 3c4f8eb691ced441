// The end of a game and the ways out of a table (issue 25 items 4 and 5), for table.js.
//
// - The result: the winner first (a sheet in the viewport at every size, so a phone sees it
//   without scrolling), then each seat's place with its numbers labelled — the game's own measure
//   (cards in hand, lives, points, the team's level), the coins and XP it took and, online, its
//   league points (the envelope's `earnings`, filled once the game is settled) — then the rematch
//   of the mode and, folded away, the seed and its commitment.
// - Rematch (data-action="rematch"): "Otra partida" (bots: a new room, dealt at once, you are taken
//   there), "Revancha" (friends: the host offers a room with the same people and bots; the others
//   see the offer here and accept it; the host starts it), "Buscar otra" (online: queue again for
//   the same game, players and stake; this tab goes to the table when it starts, tabs.js).
//   POST /api/tables/<id>/rematch (docs/protocol.md). Offline practice: "Otra partida" deals again in
//   the browser (config.onAgain), and "Salir de la mesa" just goes (the game stays saved).
// - "Salir de la mesa" (data-action="leave"), always on the page: it first says what will happen
//   (stand up, close the room, the PF-63 stand-in, or PF-63's rule at an online or buy-in table),
//   then POST /api/tables/<id>/leave (the host's "Cerrar sala": /close). A room its host closed
//   says so to everyone on it.
// - The chat: a spectator reads it and gets no box to write in, with a one-line note.
//
// User text only ever goes through textContent (render.js's el).
import { api } from "./api.js";
import { markQueued } from "./tabs.js";

const GUANDAN_LEVELS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const ROOM_MODES = ["bots", "friends"];

export function createEndgame({ config, t, el, seatName }) {
  const $ = (id) => document.getElementById(id);
  let env = null;
  let busy = false; // a rematch or leave call is on its way
  let confirming = false;
  let queued = null; // the queue event after "Buscar otra"

  // -- the exit bar: one "Salir de la mesa" control, placed under the page's title ----------------
  const leaveButton = el("button", { type: "button", class: "secondary small", "data-action": "leave", "data-testid": "leave", text: t("eg_leave") });
  const explain = el("p", { class: "exit-explain", id: "exit-explain" });
  const confirmButton = el("button", { type: "button", class: "danger", "data-testid": "leave-confirm" });
  const cancelButton = el("button", { type: "button", class: "secondary", text: t("eg_cancel") });
  const confirmBox = el("div", { class: "exit-confirm", id: "exit-confirm", role: "group", "aria-labelledby": "exit-explain", hidden: true }, explain, el("p", { class: "exit-buttons" }, confirmButton, " ", cancelButton));
  const bar = el("div", { class: "table-exit", id: "table-exit" }, leaveButton, confirmBox);
  const closedBox = el("section", { class: "room-closed", id: "room-closed", "data-testid": "room-closed", hidden: true }, el("p", { text: t("eg_room_closed") }), el("p", {}, el("a", { href: config.home, text: t("eg_home") })));
  const app = $("table-app");
  const title = app.querySelector("h1");
  if (title) title.after(bar, closedBox);
  else app.prepend(bar, closedBox);

  function seated() {
    return env && env.you.role !== "spectator" && env.you.seat !== null && env.you.seat !== undefined;
  }

  function hostOfRoom() {
    return env.is_host && ROOM_MODES.includes(env.mode);
  }

  // What leaving does here, said before the player confirms (null: nothing to confirm, just go).
  function leaveExplanation() {
    // offline practice: the game stays saved in this browser, so leaving asks nothing
    if (!seated() || env.status === "finished" || env.mode === "practice") return null;
    if (env.status === "waiting") {
      if (hostOfRoom()) return t("eg_explain_close");
      return ROOM_MODES.includes(env.mode) ? t("eg_explain_stand_up") : t("eg_explain_online_waiting");
    }
    if (env.mode === "buyin") return t("eg_explain_buyin");
    if (env.mode === "online") return t("eg_explain_online");
    return env.mode === "bots" ? t("eg_explain_bots") : t("eg_explain_friends");
  }

  function renderExit() {
    const closing = env.status === "waiting" && seated() && hostOfRoom();
    leaveButton.textContent = closing ? t("eg_close") : t("eg_leave");
    confirmButton.textContent = closing ? t("eg_confirm_close") : t("eg_confirm_leave");
    const words = leaveExplanation();
    if (!words) confirming = false;
    explain.textContent = words || "";
    confirmBox.hidden = !confirming;
    leaveButton.setAttribute("aria-expanded", String(confirming));
    leaveButton.disabled = busy;
    confirmButton.disabled = busy;
  }

  leaveButton.addEventListener("click", () => {
    if (!env) return;
    if (!leaveExplanation()) {
      location.assign(config.home);
      return;
    }
    confirming = !confirming;
    renderExit();
    if (confirming) confirmButton.focus();
  });
  cancelButton.addEventListener("click", () => {
    confirming = false;
    renderExit();
    leaveButton.focus();
  });
  confirmButton.addEventListener("click", async () => {
    const closing = env.status === "waiting" && hostOfRoom();
    busy = true;
    renderExit();
    try {
      await api("POST", `${config.api}/${closing ? "close" : "leave"}`, {});
      location.assign(config.home);
    } catch (error) {
      busy = false;
      confirming = false;
      renderExit();
      showNotice(t("error", { message: error.message }));
    }
  });

  function showNotice(text) {
    const notice = $("notice");
    if (notice) notice.textContent = text;
  }

  // -- the chat: no box for a spectator ------------------------------------------------------------
  function renderChat() {
    if (!$("chat-form")) return; // offline practice has no chat
    const watching = env.you.role === "spectator";
    $("chat-form").hidden = watching;
    $("chat-note").hidden = !watching;
  }

  // -- the result ---------------------------------------------------------------------------------
  function names(seats) {
    const all = seats.map(seatName);
    return all.length > 1 ? `${all.slice(0, -1).join(", ")}${t("eg_and")}${all.at(-1)}` : all.join("");
  }

  function winnerLine(result) {
    const winners = result.winners || [];
    if (result.no_winner) return t("eg_no_winner", { names: names(winners) });
    const mine = env.you.seat;
    if (seated() && winners.includes(mine)) {
      const partners = winners.filter((s) => s !== mine);
      return partners.length ? t("eg_you_won_with", { names: names(partners) }) : t("eg_you_won");
    }
    return t(winners.length > 1 ? "eg_winners" : "eg_winner", { names: names(winners) });
  }

  function scoreText(score) {
    if (score === null || score === undefined) return null;
    return config.game === "guandan" ? String(GUANDAN_LEVELS[score] ?? score) : String(score);
  }

  function number(label, value, kind) {
    return el("div", { class: `num num-${kind}`, "data-number": kind }, el("dt", { text: label }), el("dd", { text: value }));
  }

  function signed(n) {
    return n > 0 ? `+${n}` : String(n);
  }

  function renderPlaces(result) {
    const list = $("result-places");
    list.replaceChildren();
    const earned = new Map((env.earnings || []).map((e) => [e.seat, e]));
    const order = env.seats.map((s) => s.seat).sort((a, b) => result.placements[a] - result.placements[b] || a - b);
    for (const index of order) {
      const seat = env.seats.find((s) => s.seat === index);
      const person = seat && seat.kind === "human"; // guests and bots take nothing (PF-57, PF-61)
      const numbers = el("dl", { class: "place-numbers" });
      const score = scoreText(result.scores?.[index]);
      if (score !== null) numbers.append(number(t(`eg_score_${config.game}`), score, "score"));
      const mine = earned.get(index);
      if (mine && person) {
        numbers.append(number(t("eg_coins"), signed(mine.coins), "coins"), number(t("eg_xp"), signed(mine.xp), "xp"));
        if (mine.league_points !== null && mine.league_points !== undefined) numbers.append(number(t("eg_league"), signed(mine.league_points), "league"));
        if (mine.entry) numbers.append(number(t("eg_entry"), `−${mine.entry}`, "entry"));
      }
      const item = el(
        "li",
        { class: `place${result.winners?.includes(index) ? " winner" : ""}${index === env.you.seat ? " mine" : ""}`, "data-seat": index },
        el("span", { class: "place-who" }, el("span", { class: "place-rank", text: t("eg_place", { place: result.placements[index] }) }), " ", el("span", { class: "place-name", text: seatName(index) })),
        numbers,
      );
      list.append(item);
    }
  }

  function resultNote() {
    if (env.mode === "practice") return t("eg_practice_offline");
    if (env.mode === "bots") return t("eg_practice");
    if (!env.earnings) return t("eg_settling");
    const me = env.seats.find((s) => s.seat === env.you.seat);
    const notes = [env.mode === "friends" ? t("eg_friends") : "", me?.kind === "guest" ? t("eg_guest") : ""];
    return notes.filter(Boolean).join(" ");
  }

  function rematchLabel() {
    return t(env.mode === "bots" || env.mode === "practice" ? "eg_again_bots" : env.mode === "friends" ? "eg_again_friends" : "eg_again_online");
  }

  function renderRematch() {
    const box = $("result-actions");
    box.replaceChildren();
    if (!seated()) return;
    const offer = env.rematch;
    const button = el("button", { type: "button", class: "rematch", "data-action": "rematch", "data-testid": "rematch" });
    button.disabled = busy;
    let line = null;
    if (queued) {
      button.textContent = t("eg_again_online");
      button.disabled = true;
      line = t("eg_queued", { players: env.num_players, stake: queued.stake ? t("eg_stake", { n: queued.stake }) : t("eg_free") });
      const leave = el("button", { type: "button", class: "secondary", text: t("eg_leave_queue"), "data-testid": "leave-queue" });
      leave.addEventListener("click", leaveQueue);
      box.append(button, " ", leave);
    } else if (env.mode === "friends" && offer) {
      button.textContent = offer.joined || env.is_host ? t("eg_go_rematch") : offer.status === "waiting" ? t("eg_accept") : t("eg_watch_rematch");
      if (!env.is_host) line = t("eg_offered", { name: seatName(env.seats.find((s) => s.host)?.seat ?? 0) });
      button.addEventListener("click", () => (offer.joined || offer.status !== "waiting" ? location.assign(offer.url) : askRematch()));
      box.append(button);
    } else if (env.mode === "friends" && !env.is_host) {
      button.textContent = t("eg_accept");
      button.disabled = true;
      line = t("eg_wait_host");
      box.append(button);
    } else {
      button.textContent = rematchLabel();
      if (offer) button.addEventListener("click", () => location.assign(offer.url));
      else button.addEventListener("click", askRematch);
      box.append(button);
    }
    if (line) box.append(el("p", { class: "rematch-line", "data-testid": "rematch-line", text: line }));
  }

  async function askRematch() {
    if (busy) return;
    if (env.mode === "practice") {
      config.onAgain(); // a new deal in this browser's worker, same set-up
      return;
    }
    busy = true;
    $("result-status").textContent = "";
    renderRematch();
    try {
      const answer = await api("POST", `${config.api}/rematch`, {});
      if (answer.kind === "queue") {
        markQueued(); // this tab goes to the table when it starts (tabs.js)
        queued = answer.queued || {};
        busy = false;
        renderRematch();
        return;
      }
      location.assign(answer.url);
    } catch (error) {
      busy = false;
      renderRematch();
      $("result-status").textContent = t("error", { message: error.message });
    }
  }

  async function leaveQueue() {
    try {
      await api("DELETE", "/api/queue");
      queued = null;
      renderRematch();
      $("result-status").textContent = t("eg_left_queue");
    } catch (error) {
      $("result-status").textContent = t("error", { message: error.message });
    }
  }

  let minimized = false;
  $("result-toggle").addEventListener("click", () => {
    minimized = !minimized;
    renderToggle();
  });

  function renderToggle() {
    $("result-body").hidden = minimized;
    $("result").classList.toggle("minimized", minimized);
    $("result-toggle").textContent = minimized ? t("eg_show_result") : t("eg_show_table");
    $("result-toggle").setAttribute("aria-expanded", String(!minimized));
  }

  function renderResult() {
    const box = $("result");
    const result = env.result;
    box.hidden = !result;
    if (!result) return;
    $("result-winners").textContent = winnerLine(result);
    renderPlaces(result);
    $("result-note").textContent = resultNote();
    $("result-note").hidden = !$("result-note").textContent;
    renderRematch();
    renderToggle();
    if (!$("result-seed")) return; // offline practice publishes no commitment
    $("result-seed").textContent = env.seed ?? "";
    $("result-hash").textContent = env.seed_hash ?? "";
  }

  // Every envelope: true when the room is gone (closed by its host), so the page draws nothing else.
  function render(envelope) {
    env = envelope;
    const closed = env.status === "closed";
    closedBox.hidden = !closed;
    bar.hidden = closed;
    if (closed) {
      $("waiting").hidden = true;
      $("board").hidden = true;
      return true;
    }
    renderExit();
    renderChat();
    return false;
  }

  return { render, renderResult };
}
