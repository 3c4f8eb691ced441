// Pieces shared by the One Card and Pika tables (games/onecard.js, games/pika.js): both are
// shedding games with a hand of buttons, a discard pile, opponents' card counts, a call button
// on a short countdown and a picker that finishes a play (the 7's suit, the wild's colour).
//
// Every snapshot redraws the game area, so the keyboard focus is carried over by a key
// (data-focus-key) rather than by the element: a player using Tab and Enter keeps their place.
import { seatMarks } from "./controls.js";

// Runs draw() and puts the focus back where it was: the same control if it is still there,
// else `fallback()` (the next useful control). Only when the focus was in root: a control that
// was disabled under it (a move sent) leaves the focus on <body>, so root remembers it held it.
export function keepingFocus(root, draw, fallback) {
  if (!root.dataset.focusWatch) {
    root.dataset.focusWatch = "1";
    root.addEventListener("focusin", (event) => {
      root.dataset.focusHere = "1";
      if (event.target.dataset.focusKey) root.dataset.focusKey = event.target.dataset.focusKey;
    });
    root.addEventListener("focusout", (event) => {
      if (event.relatedTarget && !root.contains(event.relatedTarget)) delete root.dataset.focusHere;
    });
  }
  const active = document.activeElement;
  const had = root.contains(active) || (active === document.body && root.dataset.focusHere === "1");
  const key = root.dataset.focusKey;
  draw();
  if (!had) return;
  const again = key ? root.querySelector(`[data-focus-key="${CSS.escape(key)}"]:not([disabled])`) : null;
  const target = again ?? fallback();
  if (target) target.focus({ preventScroll: true });
}

// Whole seconds left until a deadline (epoch ms) on the server's clock.
export function secondsLeft(ctx, deadline) {
  return Math.max(0, Math.ceil((deadline - ctx.now()) / 1000));
}

// The timer of the envelope with this name (and seat, when given).
export function findTimer(envelope, name, seat) {
  return envelope.timers.find((timer) => timer.name === name && (seat === undefined || timer.seat === seat)) ?? null;
}

// A button that sends one legal action; `key` keeps the focus on it across snapshots.
export function actionButton(ctx, { text, action, key, className = "", label, onClick }) {
  const button = ctx.el("button", { type: "button", class: `legal ${className}`.trim(), text, "aria-label": label, "data-focus-key": key });
  button.addEventListener("click", onClick ?? (() => ctx.sendAction(action)));
  return button;
}

// A choice that completes a play: a titled group of buttons, then Cancel. Escape cancels too.
export function picker(ctx, { title, choices, onCancel, testid }) {
  const { el, t } = ctx;
  const box = el("div", { class: "picker", role: "group", "aria-label": title, "data-testid": testid });
  box.append(el("p", { text: title }));
  for (const choice of choices) {
    const button = actionButton(ctx, { text: choice.text, action: choice.action, key: choice.key, label: choice.label });
    button.prepend(choice.mark);
    box.append(button);
  }
  const cancel = el("button", { type: "button", class: "secondary", text: t("cancel"), "data-focus-key": "picker-cancel" });
  cancel.addEventListener("click", onCancel);
  box.append(cancel);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") onCancel();
  });
  return box;
}

// The opponents around the table: a small fan of backs, the count, and the game's marks.
export function opponents(ctx, envelope, counts, marksOf) {
  const { el, t, seatName, cardBack, game } = ctx;
  const list = el("ul", { class: "opponents", "aria-label": ctx.t("opponents") });
  for (const seat of envelope.seats) {
    if (seat.seat === envelope.you.seat) continue;
    const count = counts?.[seat.seat] ?? 0;
    const fan = el("span", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 5); i += 1) fan.append(cardBack(game, { small: true }));
    const item = el("li", { class: "opponent", "data-seat": seat.seat }, fan, el("span", {}, el("strong", { text: seatName(seat.seat) }), " ", el("span", { class: "count", text: t("cards_n", { n: count }) })));
    // the one seat whose turn it is; a catch window is no one's turn (issue 25 §2)
    item.classList.toggle("to-act", ctx.turnSeat?.() === seat.seat);
    item.append(...seatMarks(ctx, seat.seat));
    for (const mark of marksOf(seat.seat)) item.append(el("span", { class: "badge", text: mark }));
    list.append(item);
  }
  return list;
}

// A pile: a card (or a back) above a caption.
export function pile(ctx, node, caption) {
  return ctx.el("figure", { class: "pile" }, node, ctx.el("figcaption", { text: caption }));
}

// The last move, animated once: a card arriving on the discard pile from the player who played
// it (from below for the viewer, from above for the others), new cards arriving in the hand.
export function animateArrival(ctx, node, fromBelow) {
  if (!node || ctx.reducedMotion()) return;
  node.style.setProperty("--from-y", fromBelow ? "4rem" : "-4rem");
  node.classList.add("arrive");
  node.addEventListener("animationend", () => node.classList.remove("arrive"), { once: true });
}

// The frame both tables share: the picker state, the previous view, the countdown buttons, a
// draw of the centre and the viewer's hand on every snapshot, the focus kept, the countdowns
// ticked. `parts` = { centre(envelope, v), handZone(envelope, v, legal), animate(envelope, v) }.
export function sheddingTable(ctx, parts) {
  const { root } = ctx;
  const table = { picking: null, before: null, countdowns: [], render, tick };

  function render(envelope) {
    keepingFocus(root, () => draw(envelope), () => root.querySelector(".legal:not([disabled])") ?? root.querySelector("#hand-title"));
    table.before = envelope.view;
  }

  function draw(envelope) {
    const v = envelope.view;
    const seated = envelope.you.role !== "spectator" && envelope.you.seat !== null && v.hand;
    const legal = ctx.legalActions();
    if (table.picking && !legal.some((a) => a.type === "play" && a.card === table.picking)) table.picking = null;
    table.countdowns = [];
    root.replaceChildren(parts.centre(envelope, v));
    if (seated) root.append(parts.handZone(envelope, v, legal));
    if (table.before) parts.animate(envelope, v);
  }

  function tick(now) {
    for (const { node, deadline, text } of table.countdowns) node.textContent = ctx.t("with_seconds", { label: text, s: secondsLeft({ now: () => now }, deadline) });
  }

  return table;
}

// The centre's common part: the opponents, the stock, the top card and the list of facts
// (the game's own first, then the direction). `marksOf(seat)` gives an opponent's badges.
export function centreBox(ctx, envelope, { counts, marksOf, stock, facts }) {
  const { el, t, cardFace, cardBack, cardLabel, game } = ctx;
  const v = envelope.view;
  const box = el("section", { class: "centre", "aria-label": t("table_centre"), "data-region": "centre" });
  const back = cardBack(game);
  back.dataset.travel = "stock";
  box.append(opponents(ctx, envelope, counts, marksOf), pile(ctx, back, t("stock", { n: stock })));
  const top = cardFace(v.top, game, { label: t("top_card", { card: cardLabel(v.top) }) });
  top.dataset.testid = "top-card";
  top.dataset.travel = "played";
  box.append(pile(ctx, top, t("top")));
  const list = el("ul", { class: "centre-facts" }, ...facts);
  const clockwise = v.direction === 1;
  list.append(el("li", { "data-testid": "direction" }, el("span", { class: "direction-mark", "aria-hidden": "true", text: clockwise ? "↻" : "↺" }), el("span", { text: `${t("direction")}: ${clockwise ? t("clockwise") : t("counter")}` })));
  box.append(list);
  return box;
}

// Every other hand, shown when the game is over (OC-54, PK-52): [cards or null] by seat.
export function revealedHands(ctx, hands) {
  const { el, seatName, cardFace, game } = ctx;
  const box = el("div", { class: "revealed" });
  (hands || []).forEach((cards, seat) => {
    if (!cards || !cards.length) return;
    const line = el("div", { class: "cards", role: "group", "aria-label": seatName(seat) });
    for (const code of cards) line.append(cardFace(code, game, { small: true }));
    box.append(el("p", { text: seatName(seat) }), line);
  });
  return box;
}

// A choice's buttons: one per option that some legal play offers for `card` (key `field`).
export function choicesFor(legal, card, field, options, describe) {
  return options
    .map((option) => ({ option, action: legal.find((a) => a.type === "play" && a.card === card && a[field] === option) }))
    .filter((c) => c.action)
    .map(({ option, action }) => ({ action, ...describe(option) }));
}

// The picker of the card being played (table.picking), or null: its options come from the legal
// plays of that card (`field` = "suit" or "colour"); Cancel puts the focus back on the card.
export function playPicker(ctx, table, legal, { field, options, describe, title, testid, redraw, cardKey }) {
  const card = table.picking;
  if (!card) return null;
  const cancel = () => {
    ctx.root.dataset.focusKey = cardKey;
    table.picking = null;
    redraw(ctx.envelope());
  };
  return picker(ctx, { title, choices: choicesFor(legal, card, field, options, describe), onCancel: cancel, testid });
}
