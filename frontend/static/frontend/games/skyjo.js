// Skyjo's table (SK-3 to SK-34): the viewer's 3 × 4 grid large, the others' small, the draw and
// discard piles, the card in hand, and the round scores with the closer's doubling (SK-22).
//
// Driven only by the engine's view and the legal actions: a cell is a button exactly when some
// legal action names its position, the piles exactly when drawing or taking is legal.
import { actionButton, activatable, arrival, dock, inert, oneShot, panel, restoreFocus, seatMarks, startDrawing } from "./controls.js";

const ROWS = 3;
const COLS = 4;

export function createGame(ctx) {
  const { el, t, seatName } = ctx;
  const shot = oneShot(ctx);
  const arrive = arrival(ctx);
  let mode = "swap"; // with a drawn card in hand: swap it in, or discard it and reveal (SK-10)
  let heldKey = null;

  const posText = (pos) => t("pos", { r: Math.floor(pos / COLS) + 1, c: (pos % COLS) + 1 });
  const cardText = (code) => (code === "hidden" ? t("hidden") : code === "removed" ? t("sk_removed") : String(code));

  function cardNode(code, small, interactive = false) {
    if (code === "removed") return el("div", { class: `pcard sk-gone${small ? " small" : ""}`, role: "img", "data-card": "removed", "aria-label": t("sk_removed") });
    return ctx.cardFace(String(code), "skyjo", { small, interactive, faceDown: code === "hidden" });
  }

  // -- the grids ------------------------------------------------------------------------------
  function gridNode(grid, { small, actions = new Map(), label, id }) {
    const box = el("div", { class: `sk-grid${small ? " small" : ""}`, role: "grid", "aria-label": label, id, "data-region": id === "hand" ? "hand" : null });
    for (let r = 0; r < ROWS; r += 1) {
      const line = el("div", { class: "sk-row", role: "row" });
      for (let c = 0; c < COLS; c += 1) {
        const pos = r * COLS + c;
        const code = grid[pos];
        const cell = el("div", { role: "gridcell", class: "sk-cell" });
        const action = actions.get(pos);
        const face = cardNode(code, small, Boolean(action));
        face.dataset.pos = pos;
        if (action) {
          activatable(face, actionText(action, pos, code), () => shot.send(action));
          face.dataset.testid = `sk-cell-${pos}`;
          cell.classList.add("target");
        } else {
          inert(face, `${posText(pos)}: ${cardText(code)}`);
        }
        cell.append(face);
        line.append(cell);
      }
      box.append(line);
    }
    return box;
  }

  function actionText(action, pos, code) {
    const where = posText(pos);
    if (action.type === "reveal") return t("sk_cell_reveal", { pos: where });
    if (action.type === "discard_and_reveal") return t("sk_cell_discard_reveal", { pos: where });
    return t("sk_cell_swap", { pos: where, card: cardText(code) });
  }

  // Which action a tap on each of the viewer's cells sends now.
  function cellActions(legal, view) {
    const byPos = new Map();
    const hasDiscard = legal.some((a) => a.type === "discard_and_reveal");
    if (!hasDiscard) mode = "swap";
    const wanted = view.held ? (mode === "discard" ? "discard_and_reveal" : "swap") : "reveal";
    for (const action of legal) if (action.type === wanted) byPos.set(action.pos, action);
    return byPos;
  }

  // -- the piles and the card in hand -----------------------------------------------------------
  function pilesNode(env, legal) {
    const v = env.view;
    const box = el("div", { class: "centre sk-piles" });
    const draw = legal.find((a) => a.type === "draw");
    const deck = draw ? ctx.cardFace("hidden", "skyjo", { interactive: true, faceDown: true }) : ctx.cardBack("skyjo", {});
    deck.dataset.travel = "stock";
    const deckLabel = t("sk_draw_pile", { n: v.draw_size });
    if (draw) {
      activatable(deck, `${t("act_draw_deck")} · ${deckLabel}`, () => shot.send(draw));
      deck.dataset.testid = "sk-draw";
    } else inert(deck, deckLabel);
    box.append(el("figure", { class: "pile sk-pile" }, deck, el("figcaption", { text: deckLabel })));

    const take = legal.find((a) => a.type === "take_discard");
    const top = v.discard_top === null ? cardNode("removed", false) : ctx.cardFace(v.discard_top, "skyjo", { interactive: Boolean(take) });
    top.dataset.travel = "played";
    const topLabel = v.discard_top === null ? t("sk_discard_empty") : t("discard_top", { card: v.discard_top });
    if (take) {
      activatable(top, t("act_take_discard", { card: v.discard_top }), () => shot.send(take));
      top.dataset.testid = "sk-take";
    } else inert(top, topLabel);
    box.append(el("figure", { class: "pile sk-pile" }, top, el("figcaption", { text: topLabel })));

    if (v.held) {
      const mine = v.current === env.you.seat;
      const key = mine ? (v.held.source === "draw" ? "sk_held_draw_mine" : "sk_held_discard_mine") : v.held.source === "draw" ? "sk_held_draw" : "sk_held_discard";
      const text = t(key, { name: seatName(v.current), card: v.held.card });
      const held = arrive(inert(ctx.cardFace(v.held.card, "skyjo", { interactive: false }), text), `${v.round}:${v.turns_played}:${v.held.card}`);
      held.classList.add("selected");
      box.append(el("figure", { class: "pile sk-pile sk-held", "aria-live": "polite" }, held, el("figcaption", { text })));
    }
    return box;
  }

  function hint(env, legal) {
    const v = env.view;
    if (env.you.role === "spectator" || env.you.seat === null) return "";
    if (v.phase === "reveal") {
      const left = v.reveals_left?.[env.you.seat] ?? 0;
      return left ? t("sk_hint_reveal", { n: left }) : t("sk_hint_wait_reveal");
    }
    if (!legal.length) return "";
    if (legal.some((a) => a.type === "draw")) return t("sk_hint_start");
    if (v.held?.source === "discard") return t("sk_hint_swap", { card: v.held.card });
    if (v.held) return mode === "discard" ? t("sk_hint_discard") : t("sk_hint_drawn", { card: v.held.card });
    return "";
  }

  // With a drawn card: two ways to use a tap on the grid (SK-10 B1/B2), as a pressed toggle.
  function modeNode(legal) {
    if (!legal.some((a) => a.type === "discard_and_reveal")) return null;
    const box = el("div", { class: "sk-modes", role: "group", "aria-label": t("sk_modes") });
    for (const [value, key] of [
      ["swap", "sk_mode_swap"],
      ["discard", "sk_mode_discard"],
    ]) {
      const button = el("button", { type: "button", class: `secondary legal sk-mode${mode === value ? " on" : ""}`, text: t(key), "aria-pressed": String(mode === value), "data-testid": `sk-mode-${value}` });
      button.addEventListener("click", () => {
        mode = value;
        render(lastEnv);
      });
      box.append(button);
    }
    return box;
  }

  // -- the scores -------------------------------------------------------------------------------
  function scoresNode(env) {
    const v = env.view;
    if (!v.rounds?.length) return null;
    const seats = v.grids.map((_, seat) => seat);
    const table = el("table", { class: "sk-scores", "data-testid": "sk-scores" });
    table.append(el("caption", { text: t("sk_scores") }));
    const head = el("tr", {}, el("th", { scope: "col", text: t("sk_round_col") }));
    for (const seat of seats) head.append(el("th", { scope: "col", text: seatName(seat) }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    for (const round of v.rounds) {
      const line = el("tr", {}, el("th", { scope: "row", text: String(round.round) }));
      for (const seat of seats) {
        const cell = el("td", { text: String(round.scores[seat]) });
        if (seat === round.closer) {
          cell.classList.add("sk-closer");
          cell.title = round.doubled ? t("sk_doubled_title", { raw: round.raw[seat], score: round.scores[seat] }) : t("sk_closer_title");
          cell.append(" ", el("span", { class: round.doubled ? "sk-x2" : "sk-mark", text: round.doubled ? t("sk_doubled_cell", { raw: round.raw[seat] }) : "◆", "aria-label": cell.title }));
        }
        line.append(cell);
      }
      body.append(line);
    }
    const totals = el("tr", { class: "sk-totals" }, el("th", { scope: "row", text: t("sk_total_col") }));
    for (const seat of seats) totals.append(el("td", { text: String(v.totals[seat]) }));
    body.append(totals);
    table.append(body);
    return el("div", { class: "table-scroll" }, table);
  }

  // SK-22 in words, under the score screen of the round just played.
  function closerNote(v) {
    const round = v.rounds?.[v.rounds.length - 1];
    if (!round || round.closer === null || round.closer === undefined) return null;
    const name = seatName(round.closer);
    const text = round.doubled
      ? t("sk_doubled_note", { name, raw: round.raw[round.closer], score: round.scores[round.closer] })
      : t("sk_closer_note", { name, score: round.scores[round.closer] });
    return el("p", { class: `sk-note${round.doubled ? " alert" : ""}`, "data-testid": "sk-closer-note", text });
  }

  function scoreScreen(env, legal) {
    const v = env.view;
    if (v.phase !== "scores") return null;
    const ready = legal.find((a) => a.type === "ready");
    const box = panel(el, "sk-score-screen", t("sk_round_over", { n: v.round }));
    box.append(el("h3", { text: t("sk_round_over", { n: v.round }) }), closerNote(v) ?? "", scoresNode(env) ?? "");
    box.append(el("p", { class: "help", text: t("gm_next_round_auto") }));
    return box; // its "next round" is in the dock, with the other controls
  }

  // -- one drawing --------------------------------------------------------------------------------
  let lastEnv = null;
  function render(env) {
    lastEnv = env;
    const legal = startDrawing(ctx, shot, "gm-skyjo");
    const v = env.view;
    const root = ctx.root;
    if (!v || !v.grids) return;
    const key = v.held ? `${v.round}:${v.turns_played}:${v.current}` : null;
    if (key !== heldKey) mode = "swap";
    heldKey = key;
    const me = env.you.role === "spectator" ? null : env.you.seat;

    const facts = [t("round", { n: v.round })];
    if (v.closer !== null && v.closer !== undefined && v.phase === "turn") facts.push(t("sk_closed", { name: seatName(v.closer), n: v.final_turns_left }));
    const centre = el("div", { class: "table-centre", "data-region": "centre" });
    centre.append(el("p", { class: "gm-status", text: facts.join(" · ") }));

    const others = el("div", { class: "sk-others" });
    v.grids.forEach((grid, seat) => {
      if (seat === me) return;
      const name = seatName(seat);
      const caption = el("figcaption", {}, el("strong", { text: name }), " ", el("span", { text: t("total", { n: v.totals[seat] }) }));
      if (v.closer === seat) caption.append(" ", el("span", { class: "gm-tag", text: t("closer") }));
      for (const mark of seatMarks(ctx, seat)) caption.append(" ", mark);
      const figure = el("figure", { class: `sk-other${v.current === seat ? " to-act" : ""}`, "data-seat": seat }, caption, gridNode(grid, { small: true, label: t("sk_grid_of", { name }) }));
      others.append(figure);
    });
    centre.append(others);
    if (me === null) centre.append(pilesNode(env, legal));

    const screen = scoreScreen(env, legal);
    if (screen) centre.append(screen);
    if (!screen) {
      const scores = scoresNode(env);
      // open at the end of the game: the last round's doubling decided it as much as any card
      if (scores) centre.append(el("details", { class: "sk-history", open: v.phase === "over" }, el("summary", { text: t("sk_scores") }), closerNote(v) ?? "", scores));
    }
    root.append(centre);

    if (me !== null) {
      // the dock: what to do now, the piles (drawing is a decision), then the grid (issue 25 §1)
      const text = hint(env, legal);
      const actions = el("div", { class: "sk-actions" });
      if (text) actions.append(el("p", { class: "gm-hint", "data-testid": "gm-hint", text }));
      actions.append(pilesNode(env, legal));
      const modes = modeNode(legal);
      if (modes) actions.append(modes);
      const ready = legal.find((a) => a.type === "ready");
      if (ready && screen) actions.append(actionButton(el, t("sk_next_round"), () => shot.send(ready), { testid: "sk-ready" }));
      const title = el("h3", { text: `${t("sk_your_grid")} · ${t("total", { n: v.totals[me] })}` });
      root.append(dock(ctx, { label: t("sk_your_grid"), title, actions, hand: gridNode(v.grids[me], { small: false, actions: cellActions(legal, v), label: t("sk_your_grid"), id: "hand" }) }));
    }
    restoreFocus(ctx, shot);
  }

  return { render };
}
