// Guandan's table (GD-1, GD-23, GD-51–GD-61; PF-43–PF-49): partner opposite, both teams' levels
// and the deal's level rank, the hand sorted by power with the heart wildcards marked, cards
// selected by tapping, the interpretation chooser for an ambiguous selection, the tribute and
// the return-card picker with Confirm, and each deal's result.
//
// Driven only by the engine's view and the legal actions: a selection can be played exactly when
// some legal play holds the same cards; when several do (wildcards, straight or straight flush),
// the player picks the reading before confirming (GD-23).
import { actionButton, activatable, arrival, dock, inert, oneShot, panel, restoreFocus, seatMarks, startDrawing } from "./controls.js";
import { comboName, groupedHand, groupingControl, groupOf, selectionNote, storedGrouping } from "./guandan_help.js";

const team = (seat) => seat & 1; // GD-1: seats 1 and 3, 2 and 4 are partners

export function createGame(ctx) {
  const { el, t, seatName, cardLabel } = ctx;
  const shot = oneShot(ctx);
  const arrive = arrival(ctx);
  let selected = new Set(); // indices into the sorted hand (two decks: equal codes are two cards)
  let chosen = 0; // the reading picked in the chooser
  let handKey = null;
  let lastEnv = null;
  const tributesSeen = new Map(); // deal -> the tribute cards shown during its return phase
  let grouping = storedGrouping(); // the hand by rank or by suit (guandan_help.js)
  let suggested = null; // the hint shown: {version, action} (null: none asked at this version)

  const name = (seat) => (seat === null || seat === undefined ? "—" : seatName(seat));
  const rankText = (rank) => (rank === "T" ? "10" : rank);
  const isWild = (code, level) => code === `${level}H`;

  function cardText(code, level) {
    return isWild(code, level) ? t("gd_wild_card", { card: cardLabel(code) }) : cardLabel(code);
  }

  // the rules page's mark of a wildcard (✱ in a circle, the hand's legend says what it means), low
  // on the card's left edge: the part a fanned hand leaves in sight
  const wildMark = () => el("span", { class: "gd-wild-mark", "aria-hidden": "true", text: "✱" });

  function face(code, level, opts = {}) {
    const node = ctx.cardFace(code, "guandan", opts);
    if (isWild(code, level)) {
      node.classList.add("gd-wild");
      node.append(wildMark());
    }
    return node;
  }

  // -- PF-49: both teams' levels and the deal's level rank ----------------------------------------
  function levelsNode(env, v) {
    const me = env.you.role === "spectator" ? null : env.you.seat;
    const box = el("p", { class: "gd-levels", "data-testid": "gd-levels" });
    const mine = me === null ? 0 : team(me);
    const label = (tm) => (me === null ? t(tm === 0 ? "gd_team_a" : "gd_team_b") : tm === mine ? t("gd_team_us") : t("gd_team_them"));
    box.append(
      el("span", { class: "gd-level us", text: t("gd_team_level", { team: label(mine), level: rankText(v.levels[mine]) }) }),
      el("span", { class: "gd-level them", text: t("gd_team_level", { team: label(1 - mine), level: rankText(v.levels[1 - mine]) }) }),
      el("span", { class: "gd-level deal", text: t("gd_deal_level", { n: v.deal, level: rankText(v.level), wild: cardLabel(`${v.level}H`) }) }),
    );
    return box;
  }

  // -- the four seats, partner opposite (PF-43) ---------------------------------------------------
  function seatNode(env, v, seat, where) {
    const me = env.you.role === "spectator" ? null : env.you.seat;
    const role = me === null ? "" : seat === me ? t("you") : team(seat) === team(me) ? t("gd_partner") : t("gd_opponent");
    const box = el("div", { class: `gd-seat ${where}${v.turn === seat && v.phase === "play" ? " to-act" : ""}`, "data-seat": seat });
    box.append(el("strong", { text: name(seat) }));
    if (role && seat !== me) box.append(" ", el("span", { class: "gm-tag", text: role }));
    for (const mark of seatMarks(ctx, seat)) box.append(" ", mark);
    const count = v.counts[seat];
    const facts = [count === null ? t("cards_n", { n: "> 10" }) : t("cards_n", { n: count })];
    const place = v.finished.indexOf(seat);
    if (place >= 0) facts.push(t("gd_place", { n: place + 1 }));
    box.append(el("span", { class: "gd-facts", text: facts.join(" · ") }));
    const lastOf = [...(v.trick || [])].reverse().find((entry) => entry.seat === seat);
    if (lastOf) box.append(el("span", { class: "gd-said", text: lastOf.pass ? t("passes") : comboName(ctx, lastOf.interp, lastOf.cards, v.level, { capital: false }) }));
    return box;
  }

  function trickNode(v) {
    const box = el("div", { class: "gd-trick", "data-testid": "trick", "aria-live": "polite" });
    const plays = (v.trick || []).filter((entry) => !entry.pass);
    const top = plays[plays.length - 1];
    if (!top) {
      box.append(el("p", { class: "help", text: v.phase === "play" ? t("gd_lead_by", { name: name(v.turn) }) : "" }));
      return box;
    }
    const cards = el("div", { class: "gd-cards" });
    for (const code of top.cards) cards.append(inert(face(code, v.level, { small: true }), cardText(code, v.level)));
    arrive(cards, `${v.deal}:${(v.trick || []).length}:${top.seat}`);
    cards.dataset.travel = "played";
    box.append(el("p", { class: "gd-top", text: t("gd_top_play", { name: name(top.seat), combo: comboName(ctx, top.interp, top.cards, v.level, { capital: false }) }) }), cards);
    return box;
  }

  function tableNode(env, v) {
    const me = env.you.role === "spectator" || env.you.seat === null ? 0 : env.you.seat;
    const box = el("div", { class: "gd-table" });
    box.append(seatNode(env, v, (me + 2) % 4, "top"), seatNode(env, v, (me + 3) % 4, "left"), trickNode(v), seatNode(env, v, (me + 1) % 4, "right"));
    if (env.you.role === "spectator") box.append(seatNode(env, v, me, "bottom"));
    return box;
  }

  // -- tribute and return (GD-48–GD-56, PF-45) ----------------------------------------------------
  function tributeNode(env, v, hand, legal, actions) {
    if (v.phase === "return") {
      const cards = v.tributes.map((tr) => tr.card ?? (tr.card_index !== undefined ? v.hand?.[tr.card_index] : null));
      tributesSeen.set(v.deal, v.tributes.map((tr, i) => ({ ...tr, card: cards[i] })));
    }
    const box = panel(el, "gd-tribute", t("gd_tribute"));
    box.dataset.testid = "gd-tribute";
    if (v.anti_tribute) {
      box.append(el("p", { class: "alert", text: t("gd_anti_tribute", { names: v.anti_tribute.red_joker_holders.map(name).join(", ") }) }));
      return box;
    }
    const shown = v.phase === "return" ? tributesSeen.get(v.deal) : tributesSeen.get(v.deal) ?? v.tributes;
    if (!shown?.length) return null;
    box.append(el("h3", { text: t("gd_tribute") }));
    for (const tr of shown) {
      const line = el("p", { class: "gd-tribute-line", text: t("gd_tribute_line", { from: name(tr.from), to: name(tr.to) }) });
      if (tr.card) line.append(" ", inert(face(tr.card, v.level, { small: true }), cardText(tr.card, v.level)));
      if (v.phase === "return") line.append(" ", el("span", { class: "gm-tag", text: tr.confirmed ? t("gd_returned") : t("gd_returning") }));
      box.append(line);
    }
    const returns = legal.filter((a) => a.type === "return");
    const confirm = legal.find((a) => a.type === "confirm");
    if (!returns.length && !confirm) return box;
    // GD-53/GD-54: pick one eligible card, then confirm it
    const mine = v.tributes.find((tr) => tr.to === env.you.seat);
    const pickedCode = mine && mine.selected_index !== null && mine.selected_index !== undefined ? v.hand[mine.selected_index] : null;
    actions.append(el("p", { class: "gm-hint", id: "gd-return-title", text: pickedCode ? t("gd_return_picked", { card: cardText(pickedCode, v.level), name: name(mine.from) }) : t("gd_return_pick", { name: name(mine?.from) }) }));
    const picker = el("div", { class: "gd-return-cards", role: "group", "aria-labelledby": "gd-return-title", "data-testid": "gd-return" });
    const eligible = [...returns.map((a) => a.card), ...(pickedCode ? [pickedCode] : [])];
    for (const code of groupedHand([...new Set(eligible)], v.level, "rank")) {
      const action = returns.find((a) => a.card === code);
      const node = face(code, v.level, { selected: code === pickedCode, playable: Boolean(action), interactive: Boolean(action) });
      if (action) activatable(node, t("act_return", { card: cardText(code, v.level) }), () => shot.send(action));
      else inert(node, t("gd_return_chosen", { card: cardText(code, v.level) })).setAttribute("aria-pressed", "true");
      picker.append(node);
    }
    actions.append(picker); // in the dock, over the hand (issue 25 §1)
    actions.append(el("div", { class: "controls" }, actionButton(el, t("act_confirm"), () => shot.send(confirm), { testid: "gd-confirm", disabled: !confirm })));
    return box;
  }

  // -- the hand and the play (GD-23, PF-46) --------------------------------------------------------
  function matchingPlays(hand, legal) {
    if (!selected.size) return [];
    const want = [...selected].map((i) => hand[i]).sort().join(" ");
    return legal.filter((a) => a.type === "play" && [...a.cards].sort().join(" ") === want);
  }

  // The cards that can still make a legal play with the ones selected: lit, the others dimmed
  // (all stay selectable), so a player sees what can follow the table or complete a combination.
  function usefulCodes(hand, legal) {
    const want = new Map();
    for (const i of selected) want.set(hand[i], (want.get(hand[i]) ?? 0) + 1);
    const useful = new Set();
    for (const action of legal) {
      if (action.type !== "play") continue;
      const have = new Map();
      for (const code of action.cards) have.set(code, (have.get(code) ?? 0) + 1);
      if ([...want].every(([code, n]) => (have.get(code) ?? 0) >= n)) for (const code of action.cards) useful.add(code);
    }
    return useful;
  }

  function handNode(env, v, hand, legal, actions) {
    const box = el("div", { class: "gd-hand-box" });
    const title = el("div", { class: "gd-hand-title" }, el("h3", { text: `${t("your_hand")} · ${t("cards_n", { n: hand.length })}` }));
    title.append(groupingControl(ctx, grouping, regroup));
    box.append(title);
    const wild = `${v.level}H`;
    if (hand.includes(wild)) {
      const legend = el("p", { class: "gd-wild-legend", "data-testid": "gd-wild-legend" }, wildMark());
      legend.append(" ", t("gd_wild_legend"));
      box.append(legend);
    }
    const playing = legal.some((a) => a.type === "play" || a.type === "pass");
    const useful = usefulCodes(hand, legal);
    const row = el("div", { class: "hand-row gd-hand", id: "hand", "data-region": "hand", role: "group", "aria-label": t("your_hand") });
    let previous = null;
    hand.forEach((code, index) => {
      const rank = groupOf(code, v.level, grouping);
      const on = selected.has(index);
      const node = face(code, v.level, { selected: on, playable: useful.has(code), interactive: playing });
      node.dataset.index = index;
      if (previous !== null && previous !== rank) node.classList.add("gd-new-rank");
      previous = rank;
      if (playing) {
        activatable(node, cardText(code, v.level), () => {
          if (selected.has(index)) selected.delete(index);
          else selected.add(index);
          chosen = 0;
          render(lastEnv);
        });
      } else inert(node, cardText(code, v.level));
      if (playing) node.setAttribute("aria-pressed", String(on));
      node.classList.toggle("lifted", on);
      row.append(node);
    });
    if (!hand.length) row.append(el("p", { class: "help", text: t("no_hand") }));
    box.append(row);
    if (playing) actions.append(playControls(v, hand, legal));
    return box;
  }

  function playControls(v, hand, legal) {
    const box = el("div", { class: "gd-controls" });
    const plays = matchingPlays(hand, legal);
    if (chosen >= plays.length) chosen = 0;
    const cards = [...selected].map((i) => hand[i]);
    let hint;
    if (!selected.size) hint = v.leading ? t("gd_hint_lead") : t("gd_hint_follow");
    else hint = selectionNote(ctx, { cards, plays, top: topPlay(v), level: v.level });
    const advice = suggestion(v, hand, cards);
    if (advice) hint = `${advice} ${selected.size ? hint : ""}`.trim();
    box.append(el("p", { class: "gm-hint", "data-testid": "gm-hint", "aria-live": "polite", text: hint }));
    if (plays.length > 1) {
      // PF-46: the reading of an ambiguous selection is chosen before confirming
      const chooser = el("fieldset", { class: "gd-chooser", "data-testid": "gd-chooser" }, el("legend", { text: t("gd_choose_reading") }));
      plays.forEach((action, i) => {
        const input = el("input", { type: "radio", class: "legal", name: "gd-reading", value: String(i), checked: i === chosen, id: `gd-reading-${i}` });
        input.addEventListener("change", () => {
          chosen = i;
          render(lastEnv);
        });
        chooser.append(el("label", { class: "gd-reading" }, input, comboName(ctx, action.interp, action.cards, v.level)));
      });
      box.append(chooser);
    }
    const buttons = el("div", { class: "controls" });
    const text = plays.length ? t("gd_play_combo", { combo: comboName(ctx, plays[chosen].interp, plays[chosen].cards, v.level, { capital: false }) }) : t("pt_play");
    buttons.append(actionButton(el, text, () => shot.send(plays[chosen]), { testid: "gd-play", disabled: !plays.length }));
    const pass = legal.find((a) => a.type === "pass");
    if (pass) buttons.append(actionButton(el, t("act_pass"), () => shot.send(pass), { cls: "secondary", testid: "gd-pass" }));
    // «Sugerir» (issue 25, section 7): the server's normal bot picks; nothing is played. Not `legal`:
    // it sends no action (a test that clicks every legal control never asks for hints)
    const ask = el("button", { type: "button", class: "secondary gd-suggest", "data-testid": "gd-suggest", text: t("gd_suggest") });
    ask.addEventListener("click", () => ctx.askHint?.());
    buttons.append(ask);
    if (selected.size) {
      const clear = el("button", { type: "button", class: "secondary", "data-testid": "gd-clear", text: t("gd_clear") });
      clear.addEventListener("click", () => {
        selected = new Set();
        render(lastEnv);
      });
      buttons.append(clear);
    }
    box.append(buttons);
    return box;
  }

  // -- the end of a deal: places, levels, every hand (GD-38–GD-44, GD-61) --------------------------
  function dealEndNode(env, v, legal, actions) {
    const over = v.phase === "over"; // the match's last deal: the shell's result screen follows
    if (v.phase !== "between" && !over) return null;
    const box = panel(el, "gd-deal-end gm-overlay", t("gd_deal_over", { n: v.deal }));
    box.dataset.testid = "gd-deal-end";
    box.setAttribute("role", "dialog");
    box.append(el("h3", { text: t("gd_deal_over", { n: v.deal }) }));
    const places = el("ol", { class: "gd-places" });
    const order = [...v.finished, ...[0, 1, 2, 3].filter((s) => !v.finished.includes(s))];
    for (const seat of order) places.append(el("li", { text: `${name(seat)} (${t(team(seat) === 0 ? "gd_team_a" : "gd_team_b")})` }));
    const levels = { a: rankText(v.levels[0]), b: rankText(v.levels[1]), level: rankText(v.level) };
    box.append(places, el("p", { text: over ? t("gd_final_levels", levels) : t("gd_next_level", levels) }));
    const winners = over ? env.result?.winners ?? [] : [];
    if (winners.length) {
      // GD-42: the team that won the match, by its letter and its players
      const letter = team(winners[0]) === 0 ? "A" : "B"; // as the places above name the teams
      box.append(el("p", { class: "gd-match-winner", "data-testid": "gd-match-winner", text: t("gd_match_won", { team: letter, names: winners.map(name).join(", ") }) }));
    }
    if (v.revealed) {
      for (const [seat, cards] of Object.entries(v.revealed)) {
        if (!cards.length) continue;
        const line = el("div", { class: "gd-cards" });
        for (const code of cards) line.append(inert(face(code, v.level, { small: true }), cardText(code, v.level)));
        box.append(el("p", { class: "gd-revealed", text: t("revealed", { name: name(Number(seat)), cards: "" }) }), line);
      }
    }
    const ready = legal.find((a) => a.type === "ready");
    if (ready) actions.append(actionButton(el, t("gd_next_deal"), () => shot.send(ready), { testid: "gd-ready" }));
    if (!over) box.append(el("p", { class: "help", text: t("gd_next_deal_soon") }));
    return box;
  }

  // -- learning aids (guandan_help.js): the grouping, the table's play, the hint -------------------
  function regroup(value) {
    const v = lastEnv.view;
    const before = sortedHand(v);
    const codes = [...selected].map((i) => before[i]);
    grouping = value;
    selected = pick(sortedHand(v), codes);
    render(lastEnv);
  }

  function sortedHand(v) {
    return groupedHand(v.hand || [], v.level, grouping);
  }

  // the indices of `codes` in `hand` (two decks: an equal code takes the next copy)
  function pick(hand, codes) {
    const out = new Set();
    for (const code of codes) {
      const index = hand.findIndex((c, i) => c === code && !out.has(i));
      if (index >= 0) out.add(index);
    }
    return out;
  }

  function topPlay(v) {
    const plays = (v.trick || []).filter((entry) => !entry.pass);
    return v.leading ? null : plays[plays.length - 1] || null;
  }

  // The hint of this version, said while its cards are the selection (or it says to pass).
  function suggestion(v, hand, cards) {
    if (!suggested || suggested.version !== lastEnv.version) return "";
    const action = suggested.action;
    if (!action) return t("gd_suggest_none");
    if (action.type === "pass") return t("gd_suggest_pass");
    const same = [...action.cards].sort().join(" ") === [...cards].sort().join(" ");
    return same ? t("gd_suggest_play") : "";
  }

  function hint(action) {
    suggested = { version: lastEnv.version, action };
    if (action && action.type === "play") {
      selected = pick(sortedHand(lastEnv.view), action.cards);
      const matching = matchingPlays(sortedHand(lastEnv.view), ctx.legalActions());
      const same = (a) => ["kind", "rank", "size", "suit"].every((k) => a.interp[k] === action.interp[k]);
      chosen = Math.max(0, matching.findIndex(same));
    } else selected = new Set();
    render(lastEnv);
  }

  function render(env) {
    lastEnv = env;
    const legal = startDrawing(ctx, shot, "gm-guandan");
    const v = env.view;
    const root = ctx.root;
    if (!v || !v.levels) return;
    const hand = sortedHand(v);
    const key = `${v.deal}:${(v.hand || []).join(" ")}`;
    if (key !== handKey) {
      selected = new Set();
      chosen = 0;
    }
    handKey = key;

    const centre = el("div", { class: "table-centre", "data-region": "centre" });
    const actions = el("div", { class: "dock-actions" });
    centre.append(levelsNode(env, v));
    const end = dealEndNode(env, v, legal, actions);
    if (end) centre.append(end);
    const tribute = tributeNode(env, v, hand, legal, actions);
    if (tribute) centre.append(tribute);
    centre.append(tableNode(env, v));
    root.append(centre);
    if (env.you.role !== "spectator" && env.you.seat !== null && env.you.seat !== undefined && v.hand) {
      // the dock (issue 25 §1): the controls of the viewer's decision over their hand
      const handBox = handNode(env, v, hand, legal, actions);
      root.append(dock(ctx, { label: t("your_hand"), actions, hand: handBox }));
    }
    restoreFocus(ctx, shot);
  }

  return { render, hint };
}
