// How an engine's view looks on a page: cards, seats, the public table, the viewer's hand and
// the result, for the five games. Shared by the live table page (table.js) and the replay
// page (replay.js); both hand over an "envelope"-shaped object through `getEnv`:
//   { seats: [{seat, name, kind, level?, host?, connected?, stand_in?, muted?}],
//     you: {seat, role}, to_act: [seats], view: engine view, last: {seat, type} | null }
// User text (names) only ever goes through textContent.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "title") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export const FRENCH_SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const GUANDAN_LEVELS = { 11: "J", 12: "Q", 13: "K", 14: "A" }; // 2..10 are their own numbers

export function createRenderer({ game: GAME, strings: S, getEnv }) {
  // -- words ----------------------------------------------------------------------------------
  // A key's "_one" form (cards_n_one: "1 carta") is used when its count n is 1.
  function t(key, params = {}) {
    const one = Number(params.n) === 1 && S[`${key}_one`] !== undefined;
    let text = (one ? S[`${key}_one`] : S[key]) ?? key;
    for (const [name, value] of Object.entries(params)) text = text.split(`%(${name})s`).join(String(value));
    return text;
  }

  function seatName(index) {
    const env = getEnv();
    if (index === null || index === undefined) return "—";
    const seat = env?.seats.find((s) => s.seat === index);
    let name = seat ? seat.name : t("seat", { n: index + 1 });
    if (seat && env.seats.some((s) => s.seat !== index && s.name === seat.name)) name = `${name} ${index + 1}`;
    return env?.you.seat === index ? `${name} (${t("you")})` : name;
  }

  // A card code as people read it (design.md "card codes").
  function cardLabel(code, game = GAME) {
    if (code === null || code === undefined) return "?";
    if (code === "hidden") return t("hidden");
    if (game === "skyjo") return String(code);
    if (game === "puteo") {
      const n = code.slice(0, -1);
      return t("card_spanish", { n, suit: t(`suit_${code.slice(-1)}`) });
    }
    if (game === "pika") {
      if (code === "W" || code === "W+4") return t(`pika_${code}`);
      const colour = t(`colour_${code[0]}`);
      const value = code.slice(1);
      return t("card_pika", { value: value === "S" || value === "R" ? t(`pika_${value}`) : value, colour });
    }
    if (code === "RJ" || code === "BJ") return t(`joker_${code}`);
    const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    return `${rank}${FRENCH_SUITS[code.slice(-1)] ?? code.slice(-1)}`;
  }

  function cardClass(code, game = GAME) {
    if (!code || code === "hidden") return "card back";
    if (game === "pika") return `card pika-${code[0] === "W" ? "wild" : code[0]}`;
    if (game === "puteo") return `card spanish-${code.slice(-1)}`;
    if (game === "skyjo") {
      const v = Number(code);
      return `card skyjo ${v < 0 ? "sk-neg" : v === 0 ? "sk-zero" : v <= 4 ? "sk-low" : v <= 8 ? "sk-mid" : "sk-high"}`;
    }
    if (code === "RJ") return "card red";
    return RED.has(code.slice(-1)) ? "card red" : "card";
  }

  function cardNode(code, game) {
    if (code === "hidden") return el("span", { class: cardClass(code, game), "data-card": code, text: "?", title: t("hidden"), "aria-label": t("hidden") });
    return el("span", { class: cardClass(code, game), "data-card": code, text: cardLabel(code, game) });
  }

  function posLabel(pos) {
    return t("pos", { r: Math.floor(pos / 4) + 1, c: (pos % 4) + 1 });
  }

  function comboLabel(interp) {
    if (!interp) return "";
    const kind = t(`combo_${interp.kind}`, { size: interp.size ?? "" });
    if (interp.kind === "joker_bomb") return kind;
    const rank = interp.rank === "red_joker" ? t("joker_RJ") : interp.rank === "black_joker" ? t("joker_BJ") : interp.rank;
    return interp.suit ? `${kind} ${rank}${FRENCH_SUITS[interp.suit]}` : `${kind} ${rank === "T" ? "10" : rank}`;
  }

  function moveLabel(type) {
    return S[`move_${type}`] ? t(`move_${type}`) : type;
  }

  // -- seats ----------------------------------------------------------------------------------
  function seatBadges(seat) {
    const badges = el("span", { class: "badges" });
    const add = (text, cls) => badges.append(el("span", { class: `badge ${cls}`, text }));
    add(t(`kind_${seat.kind}`) + (seat.level ? ` · ${t(`level_${seat.level}`)}` : ""), `kind-${seat.kind}`);
    if (seat.host) add(t("host"), "host");
    if (!seat.connected) add(t("offline"), "offline");
    if (seat.stand_in) add(t("stand_in"), "stand-in");
    if (seat.muted) add(t("muted"), "muted");
    return badges;
  }

  function handCount(index) {
    const v = getEnv().view || {};
    const counts = v.counts ?? v.hand_counts;
    if (!counts) return null;
    return counts[index];
  }

  function renderSeats(list) {
    const env = getEnv();
    list.replaceChildren();
    const v = env.view || {};
    for (const seat of env.seats) {
      const index = seat.seat;
      const item = el("li", { class: "seat", "data-seat": index });
      item.classList.toggle("to-act", env.to_act.includes(index));
      item.classList.toggle("me", env.you.seat === index);
      item.append(el("strong", { class: "seat-name", text: seatName(index) }), " ", seatBadges(seat));
      const facts = [];
      const count = handCount(index);
      if (count !== null && count !== undefined && GAME !== "skyjo") facts.push(t("cards_n", { n: count }));
      else if (count === null && GAME === "guandan") facts.push(t("cards_n", { n: "> 10" }));
      if (GAME === "one_card" && v.called?.[index]) facts.push(t("called_one_card"));
      if (GAME === "pika" && v.pika?.includes(index)) facts.push(t("pika_called"));
      if (GAME === "puteo") {
        facts.push(v.alive?.[index] === false ? t("eliminated") : t("lives", { n: v.lives?.[index] }));
        if (v.bids) facts.push(v.bids[index] === null ? t("no_bid") : t("bid", { k: v.bids[index] }));
        if (v.tricks_won) facts.push(t("tricks", { n: v.tricks_won[index] }));
        if (v.dealer === index) facts.push(t("dealer"));
        if (v.leader === index && v.phase !== "over") facts.push(t("leader"));
        if (v.ready?.includes(index)) facts.push(t("ready_mark"));
      }
      if (GAME === "skyjo") {
        facts.push(t("total", { n: v.totals?.[index] ?? 0 }));
        if (v.closer === index) facts.push(t("closer"));
        if (v.ready?.includes(index)) facts.push(t("ready_mark"));
      }
      if (GAME === "guandan" && v.finished?.includes(index)) facts.push(`${v.finished.indexOf(index) + 1}º`);
      if (facts.length) item.append(el("span", { class: "facts", text: facts.join(" · ") }));
      list.append(item);
    }
  }

  // -- the public table -----------------------------------------------------------------------
  function row(label, ...nodes) {
    return el("div", { class: "public-row" }, el("span", { class: "public-label", text: label }), ...nodes);
  }

  function renderPublic(box) {
    const env = getEnv();
    box.replaceChildren();
    const v = env.view;
    if (!v) return;
    const renderer = PUBLIC[GAME];
    if (renderer) renderer(box, v);
    if (env.last && env.last.seat !== null && env.last.seat !== undefined) {
      box.append(el("p", { class: "last-move", text: t("last_move", { name: seatName(env.last.seat), move: moveLabel(env.last.type) }) }));
    }
  }

  const PUBLIC = {
    one_card(box, v) {
      box.append(row(t("top"), cardNode(v.top)));
      box.append(el("p", { text: [t("active_suit", { suit: FRENCH_SUITS[v.suit] ?? v.suit }), t("stock", { n: v.stock }), t("discard_pile", { n: v.discard }), v.direction === 1 ? t("clockwise") : t("counter")].join(" · ") }));
      if (v.attack) box.append(el("p", { class: "alert", text: t("attack", { n: v.attack.amount }) }));
      revealHands(box, v.hands);
    },
    pika(box, v) {
      box.append(row(t("top"), cardNode(v.top)));
      const facts = [t("active_colour", { colour: v.colour ? t(`colour_${v.colour}`) : "—" }), t("stock", { n: v.stock_count }), v.direction === 1 ? t("clockwise") : t("counter")];
      box.append(el("p", { text: facts.join(" · ") }));
      if (v.stack) box.append(el("p", { class: "alert", text: t("stack", { n: v.stack }) }));
      revealHands(box, v.revealed);
    },
    puteo(box, v) {
      box.append(el("p", { class: "round-line", text: t("round_of", { round: v.round, rounds: v.rounds, n: v.cards_per_player }) }));
      if (v.blind) box.append(el("p", { class: "alert", text: t("blind") }));
      if (v.forbidden_bid !== null && v.forbidden_bid !== undefined) box.append(el("p", { text: t("forbidden_bid", { k: v.forbidden_bid }) }));
      if (v.blind_cards) {
        const cards = el("div", { class: "cards" });
        v.blind_cards.forEach((code, seat) => code && cards.append(el("span", { class: "labelled" }, el("small", { text: seatName(seat) }), cardNode(code))));
        box.append(row(t("revealed", { name: "", cards: "" }).replace(/[:\s]+$/, ""), cards));
      }
      const trick = el("div", { class: "cards trick", "data-testid": "trick" });
      for (const play of v.current_trick || []) trick.append(el("span", { class: "labelled" }, el("small", { text: seatName(play.seat) }), cardNode(play.card)));
      box.append(row(t("trick"), trick));
      if (v.last_round) {
        const summary = v.last_round.bids.map((bid, seat) => `${seatName(seat)}: ${t("bid", { k: bid ?? "—" })}, ${t("tricks", { n: v.last_round.tricks_won[seat] })}${v.last_round.missed?.[seat] ? ` (${t("missed")})` : ""}`);
        box.append(row(t("last_round"), el("span", { text: summary.join(" · ") })));
      }
    },
    skyjo(box, v) {
      const facts = [t("round", { n: v.round }), t("discard_top", { card: v.discard_top ?? "—" }), t("draw_size", { n: v.draw_size })];
      if (v.final_turns_left) facts.push(t("final_turns", { n: v.final_turns_left }));
      box.append(el("p", { class: "round-line", text: facts.join(" · ") }));
      if (v.held) box.append(el("p", { class: "alert", text: t("held", { card: v.held.card }) }));
      const grids = el("div", { class: "grids" });
      v.grids.forEach((grid, seat) => {
        if (seat === getEnv().you.seat) return; // the viewer's own grid is the "hand"
        grids.append(el("figure", { class: "grid-box" }, el("figcaption", { text: seatName(seat) }), gridNode(grid)));
      });
      box.append(grids);
    },
    guandan(box, v) {
      box.append(el("p", { class: "round-line", text: `${t("deal_no", { n: v.deal })} · ${t("level", { level: v.level })}` }));
      box.append(el("p", { text: t("teams", { a: v.levels[0], b: v.levels[1] }) }));
      const trick = el("div", { class: "trick-list", "data-testid": "trick" });
      for (const entry of v.trick || []) {
        const line = el("div", { class: "trick-entry" }, el("small", { text: seatName(entry.seat) }));
        if (entry.pass) line.append(" ", el("span", { text: t("passes") }));
        else {
          const cards = el("span", { class: "cards" });
          for (const code of entry.cards) cards.append(cardNode(code));
          line.append(" ", cards, " ", el("span", { text: comboLabel(entry.interp) }));
        }
        trick.append(line);
      }
      box.append(row(t("trick"), trick));
      if (v.finished?.length) box.append(el("p", { text: t("finished", { names: v.finished.map(seatName).join(", ") }) }));
      for (const tribute of v.tributes || []) {
        const card = tribute.card ?? (tribute.card_index !== undefined ? v.hand?.[tribute.card_index] : null);
        box.append(el("p", { text: t("tribute", { from: seatName(tribute.from), to: seatName(tribute.to), card: card ? cardLabel(card) : "?" }) }));
      }
      if (v.revealed) revealHands(box, Object.fromEntries(Object.entries(v.revealed)));
    },
  };

  function revealHands(box, hands) {
    if (!hands) return;
    for (const [seat, cards] of Object.entries(hands)) {
      if (!cards || Number(seat) === getEnv().you.seat || !cards.length) continue;
      const line = el("div", { class: "cards" });
      for (const code of cards) line.append(cardNode(code));
      box.append(row(t("revealed", { name: seatName(Number(seat)), cards: "" }).replace(/[:\s]+$/, ""), line));
    }
  }

  function gridNode(grid) {
    const table = el("div", { class: "sk-grid", role: "grid" });
    for (let r = 0; r < 3; r += 1) {
      const line = el("div", { class: "sk-row", role: "row" });
      for (let c = 0; c < 4; c += 1) {
        const code = grid[r * 4 + c];
        const cell = code === null ? el("span", { class: "card gone", role: "gridcell", text: "·" }) : cardNode(code, "skyjo");
        cell.setAttribute("role", "gridcell");
        cell.title = posLabel(r * 4 + c);
        line.append(cell);
      }
      table.append(line);
    }
    return table;
  }

  // -- the viewer's hand (hidden for a spectator) ------------------------------------------------
  function renderHand(box, handBox) {
    const env = getEnv();
    box.replaceChildren();
    const v = env.view || {};
    const seated = env.you.role !== "spectator" && env.you.seat !== null;
    handBox.hidden = !seated;
    if (!seated) return;
    if (GAME === "skyjo") {
      box.append(gridNode(v.grids[env.you.seat]));
      return;
    }
    const hand = v.hand || [];
    if (v.own_card_hidden) {
      box.append(el("span", { class: "card back", text: t("hidden") }));
      return;
    }
    if (!hand.length) box.append(el("p", { class: "help", text: t("no_hand") }));
    for (const code of hand) box.append(cardNode(code));
  }

  // -- the result: winners and places ----------------------------------------------------------
  // A result's score as the game counts it; Guandan's is the team's level (14 is "nivel A").
  function scoreText(score) {
    if (score === null || score === undefined) return "";
    return GAME === "guandan" ? t("gd_level", { level: GUANDAN_LEVELS[score] ?? score }) : score;
  }

  function renderResult(result, winnersNode, placesNode) {
    const env = getEnv();
    winnersNode.textContent = t("winners", { names: (result.winners || []).map(seatName).join(", ") });
    placesNode.replaceChildren();
    const order = env.seats.map((s) => s.seat).sort((a, b) => result.placements[a] - result.placements[b]);
    for (const seat of order) {
      placesNode.append(el("li", { text: t("place", { place: result.placements[seat], name: seatName(seat), score: scoreText(result.scores?.[seat]) }) }));
    }
  }

  return { t, seatName, cardLabel, cardNode, posLabel, comboLabel, moveLabel, seatBadges, renderSeats, renderPublic, renderHand, renderResult, gridNode };
}
