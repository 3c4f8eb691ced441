// El Puteo's table (PT-20, PT-46–PT-49, PT-55, PT-56; PF-29–PF-33): the table centre in the
// order of PF-29, the players' lives, the hand played by tap-to-lift and tap-again (or Play),
// the bid picker with the dealer's forbidden number greyed out, the blind round's cards and the
// result of each round while the next one deals itself.
//
// Driven only by the engine's view and the legal actions: a card can be lifted exactly when a
// legal play names it; the picker offers the legal bids and shows the forbidden one disabled.
import { actionButton, activatable, arrival, dock, inert, oneShot, panel, restoreFocus, seatMarks, startDrawing } from "./controls.js";

export function createGame(ctx) {
  const { el, t, seatName, cardLabel } = ctx;
  const shot = oneShot(ctx);
  const arrive = arrival(ctx);
  let lifted = null; // PT-55: the card tapped once
  let picked = null; // PT-56: the number chosen, not yet confirmed
  let bidKey = null;
  let lastEnv = null;

  const name = (seat) => (seat === null || seat === undefined ? "—" : seatName(seat));

  // -- PF-29: who speaks, what each said, who leads, whose turn -----------------------------------
  function centreNode(v) {
    const box = panel(el, "pt-centre", t("pt_centre"));
    box.dataset.testid = "pt-centre";
    const list = el("ol", { class: "pt-order" });
    const bidding = v.phase === "bid" && !v.pause;
    list.append(el("li", { class: "pt-speaks", text: t("pt_speaks", { name: bidding ? name(v.turn) : "—" }) }));
    const said = el("span", { class: "pt-bids" });
    for (const seat of v.bid_order || []) {
      const bid = v.bids[seat];
      said.append(el("span", { class: `pt-said${bid === null ? " none" : ""}`, text: `${name(seat)}: ${bid === null ? "…" : bid}` }));
    }
    list.append(el("li", {}, el("span", { class: "gm-label", text: t("pt_said") }), " ", said));
    list.append(el("li", { text: t("pt_leads", { name: name(v.leader) }) }));
    list.append(el("li", { class: "pt-now", text: t("pt_turn", { name: v.phase === "play" || bidding ? name(v.turn) : "—" }) }));
    box.append(list);

    const trick = el("div", { class: "pt-trick", "data-testid": "trick" });
    const plays = v.current_trick || [];
    plays.forEach((play, i) => {
      const card = inert(ctx.cardFace(play.card, "puteo", {}), `${name(play.seat)}: ${cardLabel(play.card)}`);
      if (i === plays.length - 1) {
        arrive(card, `${v.round}:${v.tricks?.length}:${i}`);
        card.dataset.travel = "played";
      }
      trick.append(el("figure", { class: "pt-played" }, card, el("figcaption", { text: name(play.seat) })));
    });
    if (!v.current_trick?.length) {
      const done = v.tricks?.[v.tricks.length - 1];
      trick.append(el("p", { class: "help", text: done ? t("pt_last_trick", { name: name(done.winner) }) : t("pt_trick_empty") }));
    }
    box.append(el("h3", { text: t("trick") }), trick);
    return box;
  }

  // -- the players: lives, bids and tricks, the dealer (PT-49) -------------------------------------
  function playersNode(env, v) {
    const list = el("ul", { class: "pt-players", "aria-label": t("pt_players") });
    for (let seat = 0; seat < v.lives.length; seat += 1) {
      const alive = v.alive[seat];
      const turn = ctx.turnSeat ? ctx.turnSeat() : v.turn;
      const item = el("li", { class: `pt-player${alive ? "" : " out"}${turn === seat && v.phase !== "over" ? " to-act" : ""}${env.you.seat === seat ? " me" : ""}`, "data-seat": seat });
      item.append(el("strong", { class: "pt-name", text: name(seat) }), ...seatMarks(ctx, seat));
      const hearts = el("span", { class: "pt-lives", role: "img", "aria-label": alive ? t("lives", { n: v.lives[seat] }) : t("eliminated"), "data-lives": v.lives[seat] });
      hearts.textContent = alive ? "♥".repeat(v.lives[seat]) + "♡".repeat(Math.max(0, v.start_lives - v.lives[seat])) : t("eliminated");
      item.append(hearts);
      if (alive) {
        const facts = [v.bids[seat] === null ? t("no_bid") : t("bid", { k: v.bids[seat] }), t("tricks", { n: v.tricks_won[seat] })];
        item.append(el("span", { class: "pt-facts", text: facts.join(" · ") }));
      }
      if (v.dealer === seat) item.append(el("span", { class: "gm-tag", text: t("dealer") }));
      if (v.blind_cards?.[seat]) item.append(inert(ctx.cardFace(v.blind_cards[seat], "puteo", { small: true }), t("pt_blind_card_of", { name: name(seat), card: cardLabel(v.blind_cards[seat]) })));
      list.append(item);
    }
    return list;
  }

  // -- the hand: tap once to lift, again (or Play) to play (PF-32, PT-55) --------------------------
  function handNode(env, v, legal, actions) {
    const box = panel(el, "pt-hand-box", t("your_hand"));
    box.append(el("h3", { text: t("your_hand") }));
    if (v.own_card_hidden) {
      // PT-47: the blind round shows the others' cards, never one's own
      box.append(el("div", { class: "hand-row pt-hand", id: "hand", "data-region": "hand" }, inert(ctx.cardBack("puteo", {}), t("pt_blind_own"))), el("p", { class: "gm-hint", text: t("pt_blind_own") }));
      return box;
    }
    const plays = new Map(legal.filter((a) => a.type === "play").map((a) => [a.card, a]));
    if (lifted !== null && !plays.has(lifted)) lifted = null;
    const hand = el("div", { class: "hand-row pt-hand", id: "hand", "data-region": "hand", role: "group", "aria-label": t("your_hand") });
    (v.hand || []).forEach((code, index) => {
      const action = plays.get(code);
      const up = lifted === code;
      const card = ctx.cardFace(code, "puteo", { selected: up, playable: Boolean(action), interactive: Boolean(action) });
      card.dataset.index = index;
      if (action) {
        activatable(card, up ? t("pt_play_card", { card: cardLabel(code) }) : t("pt_lift_card", { card: cardLabel(code) }), () => {
          if (lifted === code) shot.send(action);
          else {
            lifted = code;
            render(lastEnv);
          }
        });
        if (up) card.setAttribute("aria-pressed", "true");
      } else inert(card, cardLabel(code));
      card.classList.toggle("lifted", up);
      hand.append(card);
    });
    if (!v.hand?.length) hand.append(el("p", { class: "help", text: t("no_hand") }));
    box.append(hand);
    if (plays.size) {
      actions.append(el("p", { class: "gm-hint", "data-testid": "gm-hint", text: lifted ? t("pt_lifted", { card: cardLabel(lifted) }) : t("pt_hint_play") }));
      const text = lifted ? t("pt_play_card", { card: cardLabel(lifted) }) : t("pt_play");
      actions.append(el("div", { class: "controls" }, actionButton(el, text, () => shot.send(plays.get(lifted)), { testid: "pt-play", disabled: lifted === null })));
    }
    return box;
  }

  // -- the bid: choose a number and confirm; the dealer's forbidden one disabled (PF-33, PT-56) ----
  function bidNode(v, legal) {
    const bids = legal.filter((a) => a.type === "bid");
    if (!bids.length) return null;
    const key = `${v.round}:${v.turn}`;
    if (key !== bidKey) picked = null;
    bidKey = key;
    const byK = new Map(bids.map((a) => [a.k, a]));
    if (picked !== null && !byK.has(picked)) picked = null;
    const box = panel(el, "pt-bid", t("pt_bid_title"));
    box.dataset.testid = "pt-bid";
    box.append(el("h3", { id: "pt-bid-title", text: t("pt_bid_title") }));
    const numbers = el("div", { class: "pt-numbers", role: "group", "aria-labelledby": "pt-bid-title" });
    for (let k = 0; k <= v.cards_per_player; k += 1) {
      const allowed = byK.has(k);
      const forbidden = !allowed && v.forbidden_bid === k;
      const button = el("button", {
        type: "button",
        class: `pt-number${picked === k ? " on" : ""}${forbidden ? " forbidden" : ""}${allowed ? " legal" : ""}`,
        text: String(k),
        "data-k": k,
        "aria-pressed": allowed ? String(picked === k) : null,
        "aria-label": forbidden ? t("act_bid_forbidden", { k }) : t("act_bid", { k }),
        title: forbidden ? t("forbidden_bid", { k }) : null,
        disabled: !allowed,
      });
      if (allowed)
        button.addEventListener("click", () => {
          picked = k;
          render(lastEnv);
        });
      numbers.append(button);
    }
    box.append(numbers);
    if (v.forbidden_bid !== null && v.forbidden_bid !== undefined) box.append(el("p", { class: "help", text: t("forbidden_bid", { k: v.forbidden_bid }) }));
    const text = picked === null ? t("pt_bid_confirm") : t("act_bid", { k: picked });
    box.append(el("div", { class: "controls" }, actionButton(el, text, () => shot.send(byK.get(picked)), { testid: "pt-confirm-bid", disabled: picked === null })));
    return box;
  }

  // -- the round's result while the next one deals itself (PF-30, PT-44, PT-45) --------------------
  function resultNode(v, legal) {
    const last = v.last_round;
    if (!v.pause || !last) return null;
    const missed = new Set(last.missed);
    const box = panel(el, "pt-result gm-overlay", t("pt_round_result", { n: last.round }));
    box.dataset.testid = "pt-round-result";
    box.setAttribute("role", "dialog");
    box.append(el("h3", { text: t("pt_round_result", { n: last.round }) }));
    const table = el("table", { class: "gm-table" });
    const losers = last.bids.map((bid, seat) => (bid !== null && missed.has(seat) ? name(seat) : null)).filter(Boolean);
    box.append(el("p", { class: "pt-losers", text: losers.length ? t("pt_lost", { names: losers.join(", ") }) : t("pt_nobody_lost") }));
    table.append(el("thead", {}, el("tr", {}, ...["pt_col_player", "pt_col_bid", "pt_col_won", "pt_col_lives"].map((key) => el("th", { scope: "col", text: t(key) })))));
    const body = el("tbody");
    last.bids.forEach((bid, seat) => {
      if (bid === null) return; // not in that round (already out)
      const miss = missed.has(seat);
      body.append(
        el(
          "tr",
          { class: miss ? "miss" : "hit" },
          el("th", { scope: "row", text: name(seat) }),
          el("td", { text: String(bid) }),
          el("td", { text: String(last.tricks_won[seat]) }),
          el("td", { text: v.alive[seat] ? `${v.lives[seat]}${miss ? " (−1)" : ""}` : t("eliminated") }),
        ),
      );
    });
    table.append(body);
    box.append(el("div", { class: "table-scroll" }, table), el("p", { class: "help", text: t("gm_next_round_auto") }));
    return box; // its "ready" is in the dock, with the other controls
  }

  function render(env) {
    lastEnv = env;
    const legal = startDrawing(ctx, shot, "gm-puteo");
    const v = env.view;
    const root = ctx.root;
    root.classList.toggle("pt-big", v?.mode === "big" || (v?.lives?.length ?? 0) > 8);
    if (!v || !v.lives) return;
    const seated = env.you.role !== "spectator" && env.you.seat !== null && env.you.seat !== undefined;

    const status = [t("round_of", { round: v.round, rounds: v.rounds, n: v.cards_per_player })];
    const centre = el("div", { class: "table-centre", "data-region": "centre" });
    centre.append(el("p", { class: "gm-status", text: status.join(" · ") }));
    if (v.blind && v.phase !== "over") centre.append(el("p", { class: "alert", text: t("blind") }));
    const result = resultNode(v, legal);
    if (result) centre.append(result);
    centre.append(centreNode(v), playersNode(env, v));
    root.append(centre);
    if (seated && v.alive[env.you.seat]) {
      const actions = el("div", { class: "dock-actions" });
      const bid = bidNode(v, legal);
      if (bid) actions.append(bid);
      const ready = legal.find((a) => a.type === "ready");
      // the round's result can be closed early (PT-44); the blind round's 10 s look at the
      // others' cards can be cut short (PT-31)
      if (ready && result) actions.append(actionButton(el, t("pt_ready"), () => shot.send(ready), { testid: "pt-ready" }));
      else if (ready) actions.append(actionButton(el, t("pt_seen"), () => shot.send(ready), { cls: "secondary", testid: "pt-ready" }));
      const hand = handNode(env, v, legal, actions);
      root.append(dock(ctx, { label: t("your_hand"), actions, hand }));
    } else if (seated) {
      root.append(el("p", { class: "gm-hint", text: t("pt_out_watching") })); // PF-27
    }
    restoreFocus(ctx, shot);
  }

  return { render };
}
