// Pika's table (rules: ../shared/rules/pika.md; issue 12): the hand in the player's own order,
// reordered by dragging with a finger or a mouse (PF-10, PK-45, PK-46) or with Alt + arrows; the
// Pika! button with its visible countdown (PF-11, PK-32 – PK-36); the colour picker of the wilds;
// the stack of +2/+4 shown and answered; the drawn card's play-or-keep (PK-15, PK-16).
//
// The reorder is the engine's unlisted action {"type": "reorder", "order": [codes]}: it is sent
// when a drag ends, the hand is shown in the new order at once, and the next snapshot confirms it.
import { colourSwatch } from "../cards.js";
import { actionButton, animateArrival, centreBox, findTimer, playPicker, revealedHands, sheddingTable } from "./shedding.js";

const COLOURS = ["R", "Y", "G", "B"];
const DRAG_START_PX = 8; // below this a press is a tap (play), above it a drag (reorder)

export function createGame(ctx) {
  const { root, el, t, cardLabel, cardFace, game } = ctx;
  const table = sheddingTable(ctx, { centre, handZone, animate });
  let drag = null; // the drag in progress: {node, pointerId, x, y, moved, ghost}
  let deferred = null; // a snapshot that arrived during a drag, drawn when it ends
  let suppressClick = false; // the click that ends a drag is not a play
  let order = null; // the order sent by the last reorder, shown until a snapshot has it
  let orderVersion = null; // the version it was sent against
  let resends = 0;

  const colourName = (colour) => t(`colour_${colour}`);

  function render(envelope) {
    if (drag) {
      deferred = envelope;
      return;
    }
    const hand = envelope.view.hand;
    if (order && (!hand || hand.join() === order.join() || [...hand].sort().join() !== [...order].sort().join())) order = null;
    else if (order && envelope.version > orderVersion && resends < 3) {
      // another move got in first (the reorder came back stale): ask again at this version
      resends += 1;
      orderVersion = envelope.version;
      ctx.sendAction({ type: "reorder", order });
    }
    table.render(envelope);
  }

  // -- the table centre --------------------------------------------------------------------------------
  function centre(envelope, v) {
    const inCountdown = new Set(v.pika || []);
    const facts = [];
    if (v.colour) facts.push(el("li", { "data-testid": "active-colour" }, colourSwatch(v.colour), el("span", { text: t("active_colour", { colour: colourName(v.colour) }) })));
    if (v.stack) facts.push(el("li", { class: "alert", "data-testid": "stack", text: t("stack", { n: v.stack }) }));
    const box = centreBox(ctx, envelope, { counts: v.hand_counts, marksOf: (seat) => (inCountdown.has(seat) ? [t("pika_called")] : []), stock: v.stock_count, facts });
    if (v.revealed) box.append(revealedHands(ctx, v.revealed));
    return box;
  }

  // -- the hand and the controls -----------------------------------------------------------------------
  function handZone(envelope, v, legal) {
    const zone = el("section", { class: "hand-zone dock", "aria-labelledby": "hand-title" });
    const cards = order ?? v.hand;
    zone.append(el("h2", { id: "hand-title", tabIndex: -1, text: t("hand_n", { n: cards.length }) }));
    if (!envelope.result) zone.append(controls(envelope, v, legal));
    const running = !envelope.result && v.phase !== "over";
    const hand = el("div", { class: "hand-row", id: "hand", "data-region": "hand", role: "group", "aria-labelledby": "hand-title", "aria-describedby": running ? "reorder-help" : null });
    hand.classList.toggle("reorderable", running);
    const seen = new Map();
    cards.forEach((code, index) => {
      const copy = seen.get(code) ?? 0;
      seen.set(code, copy + 1);
      hand.append(handCard(code, `${code}~${copy}`, legal, running, !order && index === v.drawn_pos));
    });
    if (!hand.children.length) hand.append(el("p", { class: "help", text: t("no_hand") }));
    zone.append(hand);
    if (running) zone.append(el("p", { class: "hint", id: "reorder-help", text: t("reorder_help") }));
    return zone;
  }

  function handCard(code, key, legal, running, drawn) {
    const plays = legal.filter((a) => a.type === "play" && a.card === code);
    const name = drawn ? `${cardLabel(code)} (${t("drawn")})` : cardLabel(code);
    const label = plays.length ? t("act_play", { card: name }) : legal.length ? t("not_playable", { card: name }) : name;
    // every card of a running hand is a button: it can be moved with the keyboard (Alt + arrows)
    const node = cardFace(code, game, { playable: plays.length > 0, selected: table.picking === code, interactive: running, label });
    node.dataset.focusKey = `card-${key}`;
    if (drawn) node.classList.add("drawn");
    if (!running) return node;
    if (plays.length) node.classList.add("legal");
    else node.setAttribute("aria-disabled", "true");
    node.addEventListener("click", () => {
      if (suppressClick || !plays.length) return;
      if (plays.some((a) => a.colour)) {
        table.picking = table.picking === code ? null : code;
        table.pickingKey = `card-${key}`;
        root.dataset.focusKey = table.picking ? "colour-R" : `card-${key}`;
        render(ctx.envelope());
      } else ctx.sendAction(plays[0]);
    });
    node.addEventListener("keydown", (event) => {
      if (!event.altKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
      event.preventDefault();
      moveByKey(node, event.key === "ArrowLeft" ? -1 : 1);
    });
    node.addEventListener("pointerdown", (event) => startDrag(event, node));
    return node;
  }

  function controls(envelope, v, legal) {
    const box = el("div", { class: "controls", "data-testid": "controls", "data-region": "actions" });
    const me = envelope.you.seat;
    const picking = table.picking;
    const choose = playPicker(ctx, table, legal, {
      field: "colour",
      options: COLOURS,
      describe: (colour) => ({ text: colourName(colour), mark: colourSwatch(colour), key: `colour-${colour}`, label: t("act_play_colour", { card: cardLabel(picking), colour: colourName(colour) }) }),
      title: picking && t("pick_colour", { card: cardLabel(picking) }),
      testid: "colour-picker",
      redraw: render,
      cardKey: table.pickingKey,
    });
    if (choose) box.append(choose);
    // PF-11: the Pika! button shows its own countdown (the timers strip shows it too)
    const call = legal.find((a) => a.type === "call_pika");
    if (call) {
      const button = actionButton(ctx, { text: t("act_call_pika"), action: call, key: "call", className: "call pulse" });
      const timer = findTimer(envelope, "pika", me);
      if (timer) table.countdowns.push({ node: button, deadline: timer.deadline, text: t("act_call_pika") });
      box.append(button);
    }
    for (const type of ["take_stack", "keep"]) {
      const action = legal.find((a) => a.type === type);
      if (action) box.append(actionButton(ctx, { text: type === "keep" ? t("act_keep") : t("act_take_stack", { n: v.stack }), action, key: type, className: type }));
    }
    // PK-14: drawing only with nothing to play; the button stays in place, disabled otherwise
    const drawAction = legal.find((a) => a.type === "draw");
    if (!legal.some((a) => a.type === "take_stack" || a.type === "keep")) {
      const drawButton = drawAction ? actionButton(ctx, { text: t("act_draw"), action: drawAction, key: "draw", className: "draw" }) : el("button", { type: "button", class: "draw", disabled: true, text: t("act_draw") });
      drawButton.dataset.testid = "draw";
      box.append(drawButton);
    }
    const myTurn = envelope.to_act.includes(me);
    let hint = null;
    if (call) hint = t("pika_now");
    else if (v.phase === "after_draw" && myTurn) hint = t("drawn_choice");
    else if (v.stack && myTurn) hint = t("stack_answer", { n: v.stack });
    else if (myTurn && !drawAction && legal.some((a) => a.type === "play")) hint = t("draw_blocked");
    else if (!myTurn) hint = t("wait_turn");
    if (hint) box.append(el("span", { class: "hint", text: hint }));
    table.tick(ctx.now());
    return box;
  }

  // -- reordering (PF-10) --------------------------------------------------------------------------------
  function currentOrder() {
    return [...root.querySelectorAll("#hand [data-card]")].map((node) => node.dataset.card);
  }

  function sendOrder() {
    const envelope = ctx.envelope();
    const now = currentOrder();
    if (!envelope?.view.hand || now.join() === (order ?? envelope.view.hand).join()) return;
    order = now;
    orderVersion = envelope.version;
    resends = 0;
    ctx.sendAction({ type: "reorder", order: now });
  }

  function moveByKey(node, step) {
    const hand = node.parentElement;
    const cards = [...hand.children];
    const at = cards.indexOf(node) + step;
    if (at < 0 || at >= cards.length) return;
    if (step < 0) hand.insertBefore(node, cards[at]);
    else hand.insertBefore(node, cards[at].nextSibling);
    node.focus();
    announce(t("moved_to", { card: cardLabel(node.dataset.card), n: at + 1, total: cards.length }));
    sendOrder();
  }

  function announce(text) {
    let live = document.getElementById("game-live");
    if (!live) {
      live = el("p", { id: "game-live", class: "visually-hidden", "aria-live": "polite" });
      document.body.append(live);
    }
    live.textContent = text;
  }

  function startDrag(event, node) {
    if (!event.isPrimary || event.button > 0 || drag) return;
    drag = { node, pointerId: event.pointerId, x: event.clientX, y: event.clientY, moved: false, ghost: null };
    // on the document, not the card: moving the card in the DOM ends any pointer capture on it
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onEnd);
    document.addEventListener("pointercancel", onEnd);
  }

  function onMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { node } = drag;
    if (!drag.moved) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      drag.moved = true;
      const rect = node.getBoundingClientRect();
      drag.ghost = node.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("data-card");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.style.width = `${rect.width}px`;
      drag.dx = drag.x - rect.left;
      drag.dy = drag.y - rect.top;
      document.body.append(drag.ghost);
      node.classList.add("dragging");
      // the game area (which stays in the page) holds the pointer until the drop, even outside
      // the window, so a drag always ends; only now, so that a tap still clicks its card
      root.setPointerCapture(event.pointerId);
    }
    drag.ghost.style.left = `${event.clientX - drag.dx}px`;
    drag.ghost.style.top = `${event.clientY - drag.dy}px`;
    // the card goes before the first card whose centre is after the pointer (reading order)
    const hand = node.parentElement;
    const others = [...hand.children].filter((card) => card !== node);
    let target = null;
    for (const card of others) {
      const r = card.getBoundingClientRect();
      const sameRow = event.clientY >= r.top && event.clientY <= r.bottom;
      if ((sameRow && event.clientX < r.left + r.width / 2) || event.clientY < r.top) {
        target = card;
        break;
      }
    }
    if (target !== node.nextSibling) hand.insertBefore(node, target);
  }

  function onEnd(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { node, moved, ghost } = drag;
    document.removeEventListener("pointermove", onMove);
    document.removeEventListener("pointerup", onEnd);
    document.removeEventListener("pointercancel", onEnd);
    ghost?.remove();
    node.classList.remove("dragging");
    if (root.hasPointerCapture(event.pointerId)) root.releasePointerCapture(event.pointerId);
    drag = null;
    if (moved) {
      suppressClick = true;
      setTimeout(() => (suppressClick = false), 0); // the click event follows pointerup at once
      if (event.type === "pointerup") sendOrder();
    }
    const pending = deferred ?? ctx.envelope();
    deferred = null;
    if (moved || pending !== ctx.envelope()) render(pending);
  }

  // -- the last move, shown once ------------------------------------------------------------------------
  function animate(envelope, v) {
    const before = table.before;
    if (v.top !== before.top || v.discard_count !== before.discard_count) animateArrival(ctx, root.querySelector("[data-testid=top-card]"), envelope.last?.seat === envelope.you.seat);
    if (v.hand && before.hand && v.hand.length > before.hand.length) {
      const nodes = [...root.querySelectorAll("#hand [data-card]")];
      for (const node of nodes.slice(before.hand.length)) animateArrival(ctx, node, false); // new cards go to the right (PK-46)
    }
  }

  return { render, tick: table.tick };
}
