// One Card's table (rules: ../shared/rules/one-card.md; issue 12): the hand as cards to tap,
// the One Card and catch buttons within their windows (PF-6, OC-36 – OC-43), Draw disabled while
// a playable card is held (PF-7, OC-17), the 7's suit picker (PF-8, OC-22), the attack pile and
// the direction, the last move as a short animation.
//
// Driven only by the envelope: a card is a button exactly when a legal play names it, and the
// buttons send the legal actions as they are listed (table.js's game-module interface).
import { suitMark } from "../cards.js";
import { actionButton, animateArrival, centreBox, findTimer, playPicker, revealedHands, sheddingTable } from "./shedding.js";

const SUITS = ["H", "D", "C", "S"];

export function createGame(ctx) {
  const { root, el, t, seatName, cardLabel, cardFace } = ctx;
  const table = sheddingTable(ctx, { centre, handZone, animate });
  const suitName = (suit) => t(`fsuit_${suit}`);

  // -- the table centre ------------------------------------------------------------------------------
  function centre(envelope, v) {
    const open = new Set((v.windows || []).map((w) => w.seat));
    const facts = [el("li", { "data-testid": "active-suit" }, suitMark(v.suit), el("span", { text: t("active_suit", { suit: suitName(v.suit) }) }))];
    if (v.attack) facts.push(el("li", { class: "alert", "data-testid": "attack", text: t("attack_rank", { n: v.attack.amount, rank: v.attack.rank }) }));
    const marksOf = (seat) => [v.called?.[seat] && t("called_one_card"), open.has(seat) && t("catchable")].filter(Boolean);
    const box = centreBox(ctx, envelope, { counts: v.counts, marksOf, stock: v.stock, facts });
    if (v.hands) box.append(revealedHands(ctx, v.hands));
    return box;
  }

  // -- the viewer's hand and controls ------------------------------------------------------------------
  function handZone(envelope, v, legal) {
    const zone = el("section", { class: "hand-zone dock", "aria-labelledby": "hand-title" });
    zone.append(el("h2", { id: "hand-title", tabIndex: -1, text: t("hand_n", { n: v.hand.length }) }));
    if (!envelope.result) zone.append(controls(envelope, v, legal));
    const hand = el("div", { class: "hand-row", id: "hand", "data-region": "hand", role: "group", "aria-labelledby": "hand-title" });
    for (const code of v.hand) hand.append(handCard(code, legal));
    if (!hand.children.length) hand.append(el("p", { class: "help", text: t("no_hand") }));
    zone.append(hand);
    return zone;
  }

  function handCard(code, legal) {
    const plays = legal.filter((a) => a.type === "play" && a.card === code);
    if (!plays.length) return cardFace(code, ctx.game, { label: legal.length ? t("not_playable", { card: cardLabel(code) }) : cardLabel(code) });
    const node = cardFace(code, ctx.game, { playable: true, selected: table.picking === code, label: t("act_play", { card: cardLabel(code) }) });
    node.classList.add("legal");
    node.dataset.focusKey = `card-${code}`;
    node.addEventListener("click", () => {
      if (plays.some((a) => a.suit)) {
        // PF-8: a 7 asks for the next suit before it is sent
        table.picking = table.picking === code ? null : code;
        // the focus goes to the picker's first suit, so Enter chooses from the keyboard
        root.dataset.focusKey = table.picking ? `suit-${SUITS.find((suit) => plays.some((a) => a.suit === suit))}` : `card-${code}`;
        table.render(ctx.envelope());
      } else ctx.sendAction(plays[0]);
    });
    return node;
  }

  function controls(envelope, v, legal) {
    const box = el("div", { class: "controls", "data-testid": "controls", "data-region": "actions" });
    const me = envelope.you.seat;
    const picking = table.picking;
    const choose = playPicker(ctx, table, legal, {
      field: "suit",
      options: SUITS,
      describe: (suit) => ({ text: suitName(suit), mark: suitMark(suit), key: `suit-${suit}`, label: t("act_play_suit", { card: cardLabel(picking), suit: suitName(suit) }) }),
      title: picking && t("pick_suit", { card: cardLabel(picking) }),
      testid: "suit-picker",
      redraw: table.render,
      cardKey: `card-${picking}`,
    });
    if (choose) box.append(choose);
    // a window's countdown on its button: the viewer's own (One Card) or a rival's (catch)
    const windowTimer = (seat) => {
      const win = (v.windows || []).find((w) => w.seat === seat);
      return (win && envelope.timers.find((timer) => timer.id === win.id)) || findTimer(envelope, "catch", seat);
    };
    const withCountdown = (button, text, timer) => {
      if (timer) table.countdowns.push({ node: button, deadline: timer.deadline, text });
      box.append(button);
    };
    // PF-6: One Card at two cards (a pre-call) or in the player's own window after the play
    const call = legal.find((a) => a.type === "call_one_card");
    if (call) withCountdown(actionButton(ctx, { text: t("act_call_one_card"), action: call, key: "call", className: "call" }), t("act_call_one_card"), windowTimer(me));
    // OC-43: the catch control only while someone's window is open
    for (const action of legal.filter((a) => a.type === "catch")) {
      const text = t("act_catch", { name: seatName(action.target) });
      withCountdown(actionButton(ctx, { text, action, key: `catch-${action.target}`, className: "catch" }), text, windowTimer(action.target));
    }
    // PF-7: Draw stays on the table, disabled while a playable card is held
    const myTurn = envelope.to_act.includes(me);
    const drawAction = legal.find((a) => a.type === "draw");
    const drawText = v.attack ? t("act_draw_n", { n: v.attack.amount }) : t("act_draw");
    const drawButton = drawAction ? actionButton(ctx, { text: drawText, action: drawAction, key: "draw", className: "draw" }) : el("button", { type: "button", class: "draw", disabled: true, text: drawText });
    drawButton.dataset.testid = "draw";
    box.append(drawButton);
    if (myTurn && !drawAction && legal.some((a) => a.type === "play")) box.append(el("span", { class: "hint", text: v.attack ? t("must_answer_attack", { rank: v.attack.rank }) : t("draw_blocked") }));
    else if (!myTurn) box.append(el("span", { class: "hint", text: t("wait_turn") }));
    table.tick(ctx.now());
    return box;
  }

  // -- the last move, shown once ------------------------------------------------------------------------
  function animate(envelope, v) {
    const before = table.before;
    if (v.top !== before.top) animateArrival(ctx, root.querySelector("[data-testid=top-card]"), envelope.last?.seat === envelope.you.seat);
    if (v.hand && before.hand) {
      const had = new Set(before.hand);
      for (const node of root.querySelectorAll("#hand [data-card]")) if (!had.has(node.dataset.card)) animateArrival(ctx, node, false);
    }
    (v.counts || []).forEach((count, seat) => {
      if (seat !== envelope.you.seat && count > (before.counts?.[seat] ?? count) && !ctx.reducedMotion()) root.querySelector(`.opponent[data-seat="${seat}"] .count`)?.classList.add("pulse");
    });
  }

  return { render: table.render, tick: table.tick };
}
