// Whose turn it is, and what is asked of the viewer (issue 25 §2): the table page's turn line.
// Pure: an envelope and the page's words in, a prompt out (table.js draws it and counts down).
//   turnSeat(envelope, game)  the one seat whose turn it is, from the engine's view, or null
//   turnPrompt(envelope, {t, seatName, strings, game})
//       -> {text, deadline?, mine, turn?, window?}: "Te toca" (turn) only when the engine asks the
//          viewer for a decision; a reaction window (window) is its own prompt with its deadline;
//          otherwise the one player whose turn it is, a table-wide countdown (the next deal) or
//          "waiting for the others" — never a list of names.
// A reaction window (One Card's call and catch, Pika's call) is a prompt of its own, never "Te
// toca"; the line names one player (the engine's turn seat) or one window, never a list.
const REACTIONS = new Set(["call_one_card", "call_pika", "catch"]);
const OPTIONAL = new Set(["ready", "reorder"]); // "I have seen it": the table goes on without it

// The one seat whose turn it is, from the engine's view (null: nobody's, e.g. between deals).
export function turnSeat(envelope, game) {
  const v = envelope.view || {};
  if (envelope.result || v.over || v.pause || ["over", "between", "scores", "reveal", "tribute", "return"].includes(v.phase)) return null;
  const seat = game === "skyjo" ? v.current : v.turn;
  return seat === undefined ? null : seat;
}

// A window's timer: the engine's own for that seat (One Card lists them), else by name.
function windowTimer(envelope, seat, name) {
  const win = (envelope.view?.windows || []).find((w) => w.seat === seat);
  return (win && envelope.timers.find((timer) => timer.id === win.id)) || envelope.timers.find((timer) => timer.name === name && timer.seat === seat) || null;
}

export function turnPrompt(envelope, { t, seatName, strings, game }) {
  if (envelope.result) return { text: t("result"), mine: false };
  const me = envelope.you.role === "spectator" ? null : envelope.you.seat;
  const legal = me === null ? [] : envelope.legal;
  const decisions = legal.filter((a) => !REACTIONS.has(a.type) && !OPTIONAL.has(a.type));
  // a call is a window only while its timer runs (One Card's pre-call at two cards waits for nothing)
  const called = legal.find((a) => a.type === "call_one_card" || a.type === "call_pika");
  const callTimer = called && windowTimer(envelope, me, called.type === "call_pika" ? "pika" : "catch");
  const call = callTimer ? called : null;
  const catches = legal.filter((a) => a.type === "catch");
  if (decisions.length) {
    const timer = envelope.timers.find((x) => x.seat === me && !["catch", "pika"].includes(x.name));
    const prompt = { text: t("your_turn"), deadline: timer?.deadline, mine: true, turn: true };
    if (call) prompt.text = `${prompt.text} · ${t(call.type === "call_pika" ? "prompt_call_pika" : "prompt_call_one_card")}`;
    return prompt;
  }
  if (call) {
    return { text: t(call.type === "call_pika" ? "prompt_call_pika" : "prompt_call_one_card"), deadline: callTimer.deadline, mine: true, window: true };
  }
  if (catches.length) {
    const first = catches[0];
    const text = catches.length > 1 ? t("prompt_catch_many", { n: catches.length }) : t("prompt_catch", { name: seatName(first.target) });
    return { text, deadline: windowTimer(envelope, first.target, "catch")?.deadline, mine: true, window: true };
  }
  const tableTimer = envelope.timers.find((x) => x.seat === null || x.seat === undefined);
  const seat = turnSeat(envelope, game);
  let prompt;
  if (tableTimer) prompt = { text: strings[`prompt_${tableTimer.name}`] ? t(`prompt_${tableTimer.name}`) : t(`timer_${tableTimer.name}`), deadline: tableTimer.deadline };
  else if (seat !== null) prompt = { text: t("turn_of", { names: seatName(seat) }), deadline: envelope.timers.find((x) => x.seat === seat && x.name === "turn")?.deadline };
  else if (envelope.to_act.length === 1) prompt = { text: t("turn_of", { names: seatName(envelope.to_act[0]) }) };
  else prompt = { text: envelope.to_act.length ? t("waiting_others") : t("nobody_turn") };
  if (envelope.you.role === "spectator") prompt.text = `${t("spectating")} · ${prompt.text}`;
  return { mine: false, ...prompt };
}

