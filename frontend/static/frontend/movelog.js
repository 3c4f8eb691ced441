// The move log's words: the sentences for the server's log entries and banners
// (docs/protocol.md, "The move log"; cardgames/tables/movelog.py builds the data). No DOM here:
// every function takes an entry (or a fact, or a banner) and the page's words, and returns text.
//
//   ctx = { t, seatName, cardLabel, you }
//     t(key, params)     the page's translated words (frontend/table_strings.py, keys "log_…")
//     seatName(seat)     a seat's display name
//     cardLabel(code)    a card as people read it ("7♥", "7 de oros", "7 rojo")
//     you                the viewer's seat, null for a spectator: a fact about the viewer is
//                        said to them ("Robas 2", "Bot difícil te ha tocado: robas 2")
//
// entryText(entry, ctx)   one line of the log: its facts, " · " between them
// factText(fact, ctx)     one fact
// bannerText(banner, ctx) what a banner says (a penalty, a catch window, a life lost…)
// mergeLog(log, entries)  the client's log: entries merged by seq, newest first, the current
//                         deal only (an entry with new_deal starts it)

const FRENCH_SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "fsuit_S", H: "fsuit_H", D: "fsuit_D", C: "fsuit_C" };
const COLOUR_WORDS = { R: "colour_R", Y: "colour_Y", G: "colour_G", B: "colour_B" };
const RANK_PLURALS = {
  2: "log_rank_pl_2", 3: "log_rank_pl_3", 4: "log_rank_pl_4", 5: "log_rank_pl_5", 6: "log_rank_pl_6",
  7: "log_rank_pl_7", 8: "log_rank_pl_8", 9: "log_rank_pl_9", T: "log_rank_pl_T", J: "log_rank_pl_J",
  Q: "log_rank_pl_Q", K: "log_rank_pl_K", A: "log_rank_pl_A",
};
const COMBOS = {
  pair: "log_combo_pair",
  triple: "log_combo_triple",
  full_house: "log_combo_full_house",
  straight: "log_combo_straight",
  tube: "log_combo_tube",
  plate: "log_combo_plate",
  bomb: "log_combo_bomb",
  straight_flush: "log_combo_straight_flush",
  joker_bomb: "log_combo_joker_bomb",
};

function isYou(ctx, seat) {
  return ctx.you !== null && ctx.you !== undefined && seat === ctx.you;
}

// A key for the viewer ("…_you") or for someone else, with the other's name filled in.
function said(ctx, key, seat, params = {}) {
  return isYou(ctx, seat) ? ctx.t(`${key}_you`, params) : ctx.t(key, { name: ctx.seatName(seat), ...params });
}

function cardList(ctx, cards) {
  const labels = (cards || []).map((code) => ctx.cardLabel(code));
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")}${ctx.t("log_and")}${labels[labels.length - 1]}`;
}

function names(ctx, seats) {
  return (seats || []).map((seat) => ctx.seatName(seat)).join(", ");
}

function rankName(ctx, rank) {
  if (rank === "red_joker") return ctx.t("joker_RJ");
  if (rank === "black_joker") return ctx.t("joker_BJ");
  return rank === "T" ? "10" : String(rank);
}

// A Guandan combination by its kind, main rank and (a full house) its pair: "trío de 7 con
// pareja de 4", "bomba de 4 nueves", "escalera de 5 hasta el 9".
export function comboText(combo, ctx) {
  if (!combo || combo.kind === "single") return "";
  const key = COMBOS[combo.kind];
  if (!key) return combo.kind;
  const rank = rankName(ctx, combo.rank);
  const params = { rank, pair: rankName(ctx, combo.pair ?? ""), size: combo.size ?? "" };
  if (combo.kind === "bomb") params.ranks = RANK_PLURALS[combo.rank] ? ctx.t(RANK_PLURALS[combo.rank]) : rank;
  if (combo.kind === "straight_flush") params.suit = ctx.t(SUIT_WORDS[combo.suit] ?? "") || FRENCH_SUITS[combo.suit] || "";
  return ctx.t(key, params);
}

function playText(fact, ctx) {
  if (fact.combo && fact.combo.kind !== "single") {
    const wild = new Set(fact.wild || []);
    const cards = fact.cards.map((code, i) => (wild.has(i) ? ctx.t("log_wild", { card: ctx.cardLabel(code) }) : ctx.cardLabel(code)));
    return said(ctx, "log_play_combo", fact.seat, { combo: comboText(fact.combo, ctx), cards: cards.join(" ") });
  }
  const cards = (fact.wild || []).length ? ctx.t("log_wild", { card: cardList(ctx, fact.cards) }) : cardList(ctx, fact.cards);
  if (fact.suit) return said(ctx, "log_play_suit", fact.seat, { cards, suit: ctx.t(SUIT_WORDS[fact.suit]) });
  if (fact.colour) return said(ctx, "log_play_colour", fact.seat, { cards, colour: ctx.t(COLOUR_WORDS[fact.colour]) });
  if (fact.auto) return said(ctx, "log_play_auto", fact.seat, { cards });
  return said(ctx, "log_play", fact.seat, { cards });
}

function drawText(fact, ctx) {
  if (!fact.count) return said(ctx, "log_draw_none", fact.seat);
  if (fact.cards && fact.cards.length) return said(ctx, "log_draw_cards", fact.seat, { cards: cardList(ctx, fact.cards) });
  return said(ctx, "log_draw", fact.seat, { n: fact.count });
}

function catchText(fact, ctx) {
  const n = fact.count;
  if (isYou(ctx, fact.target)) {
    const params = { name: ctx.seatName(fact.seat), n };
    return fact.cards && fact.cards.length ? ctx.t("log_caught_you_cards", { ...params, cards: cardList(ctx, fact.cards) }) : ctx.t("log_caught_you", params);
  }
  return said(ctx, "log_catch", fact.seat, { target: ctx.seatName(fact.target), n });
}

function pos(ctx, p) {
  return ctx.t("pos", { r: Math.floor(p / 4) + 1, c: (p % 4) + 1 });
}

function returnsText(fact, ctx) {
  const parts = [];
  for (const item of fact.returns || []) {
    if (!item.card) continue;
    if (isYou(ctx, item.to)) parts.push(ctx.t("log_returned_you", { name: ctx.seatName(item.seat), card: ctx.cardLabel(item.card) }));
    else if (isYou(ctx, item.seat)) parts.push(ctx.t("log_return_card_you", { to: ctx.seatName(item.to), card: ctx.cardLabel(item.card) }));
  }
  parts.push(ctx.t("log_leads", { name: ctx.seatName(fact.leader) }));
  return parts.join(" · ");
}

function overText(fact, ctx) {
  if (fact.blocked) return ctx.t("log_over_blocked");
  if (fact.team !== undefined && fact.team !== null) return ctx.t("log_over_team", { team: ctx.t(fact.team === 0 ? "gd_team_a" : "gd_team_b") });
  if (fact.winners && fact.winners.length) return ctx.t("log_over_winners", { names: names(ctx, fact.winners) });
  return ctx.t("log_over");
}

const FACTS = {
  play: playText,
  draw: drawText,
  take_stack: (f, ctx) => said(ctx, "log_take_stack", f.seat, { n: f.count }),
  keep: (f, ctx) => said(ctx, "log_keep", f.seat),
  call: (f, ctx) => said(ctx, f.call === "pika" ? "log_call_pika" : "log_call_one_card", f.seat),
  window: (f, ctx) => said(ctx, "log_window", f.seat),
  catch: catchText,
  safe: (f, ctx) => said(ctx, "log_safe", f.seat),
  missed_call: (f, ctx) => said(ctx, "log_missed_pika", f.seat, { n: f.count }),
  timeout: (f, ctx) => said(ctx, "log_timeout", f.seat),
  reshuffle: (f, ctx) => ctx.t("log_reshuffle", { n: f.count }),
  over: overText,
  bid: (f, ctx) => said(ctx, "log_bid", f.seat, { n: f.bid }),
  trick: (f, ctx) => said(ctx, "log_trick", f.seat),
  round_end: (f, ctx) => {
    const parts = [ctx.t("log_round_end", { round: f.round })];
    parts.push(f.lost && f.lost.length ? ctx.t("log_lost_life", { names: names(ctx, f.lost) }) : ctx.t("log_nobody_lost"));
    if (f.eliminated && f.eliminated.length) parts.push(ctx.t("log_eliminated", { names: names(ctx, f.eliminated) }));
    return parts.join(" · ");
  },
  deal: (f, ctx) => {
    if (f.level !== undefined) return ctx.t("log_deal_level", { deal: f.deal, level: rankName(ctx, f.level) });
    if (f.dealer !== undefined && f.dealer !== null) return ctx.t("log_round_dealer", { round: f.round, name: ctx.seatName(f.dealer) });
    return ctx.t("log_round", { round: f.round });
  },
  ready: (f, ctx) => said(ctx, "log_ready", f.seat),
  reveal: (f, ctx) => said(ctx, "log_reveal", f.seat, { card: ctx.cardLabel(f.card), pos: pos(ctx, f.pos) }),
  draw_deck: (f, ctx) => said(ctx, "log_draw_deck", f.seat, { card: ctx.cardLabel(f.card) }),
  table_timer: (f, ctx) => ctx.t(f.timer === "reveal" ? "log_reveal_over" : "log_pause_over"),
  take_discard: (f, ctx) => said(ctx, "log_take_discard", f.seat, { card: ctx.cardLabel(f.card) }),
  swap: (f, ctx) => said(ctx, "log_swap", f.seat, { card: ctx.cardLabel(f.card), pos: pos(ctx, f.pos), out: ctx.cardLabel(f.out) }),
  discard_reveal: (f, ctx) => said(ctx, "log_discard_reveal", f.seat, { card: ctx.cardLabel(f.card), revealed: ctx.cardLabel(f.revealed), pos: pos(ctx, f.pos) }),
  column: (f, ctx) => said(ctx, "log_column", f.seat, { card: ctx.cardLabel(f.card) }),
  closer: (f, ctx) => said(ctx, "log_closer", f.seat),
  round_scored: (f, ctx) => ctx.t("log_round_scored", { round: f.round }),
  pass: (f, ctx) => said(ctx, "log_pass", f.seat),
  finished: (f, ctx) => said(ctx, "log_finished", f.seat, { place: f.place }),
  deal_over: (f, ctx) => ctx.t("log_deal_over"),
  anti_tribute: (f, ctx) => ctx.t("log_anti_tribute", { names: names(ctx, f.seats) }),
  tribute: (f, ctx) => {
    const card = ctx.cardLabel(f.card);
    if (isYou(ctx, f.to)) return ctx.t("log_tribute_to_you", { name: ctx.seatName(f.seat), card });
    return said(ctx, "log_tribute", f.seat, { card, to: ctx.seatName(f.to) });
  },
  return: (f, ctx) => {
    if (f.card && isYou(ctx, f.seat)) return ctx.t("log_return_card_you", { to: ctx.seatName(f.to), card: ctx.cardLabel(f.card) });
    return said(ctx, "log_return", f.seat, { to: ctx.seatName(f.to) });
  },
  returns_done: returnsText,
};

export function factText(fact, ctx) {
  const words = FACTS[fact.kind];
  if (words) return words(fact, ctx);
  // an action the log has no words for (a newer server): who did it, and its name
  return fact.seat === null || fact.seat === undefined ? fact.kind : `${ctx.seatName(fact.seat)}: ${fact.kind}`;
}

export function entryText(entry, ctx) {
  const facts = entry.facts || [];
  const done = facts.some((f) => f.kind === "returns_done"); // it says the row's return itself
  const parts = facts.filter((f) => !(done && f.kind === "return")).map((f) => factText(f, ctx));
  const text = parts.filter(Boolean).join(" · ");
  return entry.source === "timeout" && !facts.some((f) => f.kind === "timeout" || f.kind === "safe") && entry.seat !== null && entry.seat !== undefined
    ? `${text} ${ctx.t("log_by_timeout")}`
    : text;
}

const BANNERS = {
  caught: (b, ctx) => {
    if (isYou(ctx, b.target)) return ctx.t("banner_caught_you", { name: ctx.seatName(b.seat), n: b.count });
    if (isYou(ctx, b.seat)) return ctx.t("banner_caught_by_you", { target: ctx.seatName(b.target), n: b.count });
    return ctx.t("banner_caught", { name: ctx.seatName(b.seat), target: ctx.seatName(b.target), n: b.count });
  },
  window: (b, ctx) => said(ctx, "banner_window", b.seat),
  safe: (b, ctx) => said(ctx, "log_safe", b.seat),
  missed_call: (b, ctx) => said(ctx, "log_missed_pika", b.seat, { n: b.count }),
  stack: (b, ctx) => said(ctx, "log_take_stack", b.seat, { n: b.count }),
  lost_life: (b, ctx) => {
    const parts = [];
    if ((b.seats || []).some((seat) => isYou(ctx, seat))) parts.push(ctx.t((b.eliminated || []).some((seat) => isYou(ctx, seat)) ? "banner_out_you" : "banner_lost_life_you"));
    const others = (b.seats || []).filter((seat) => !isYou(ctx, seat));
    if (others.length) parts.push(ctx.t("log_lost_life", { names: names(ctx, others) }));
    return parts.join(" · ");
  },
  closer: (b, ctx) => said(ctx, "log_closer", b.seat),
  doubled: (b, ctx) => said(ctx, "banner_doubled", b.seat, { raw: b.raw, score: b.score }),
  tribute: (b, ctx) => FACTS.tribute(b, ctx),
  anti_tribute: (b, ctx) => FACTS.anti_tribute(b, ctx),
};

export function bannerText(banner, ctx) {
  const words = BANNERS[banner.kind];
  return words ? words(banner, ctx) : "";
}

export function mergeLog(log, entries) {
  const bySeq = new Map((log || []).map((entry) => [entry.seq, entry]));
  for (const entry of entries || []) if (!bySeq.has(entry.seq)) bySeq.set(entry.seq, entry);
  const merged = [...bySeq.values()].sort((a, b) => b.seq - a.seq);
  const start = merged.findIndex((entry) => entry.new_deal);
  return start === -1 ? merged : merged.slice(0, start + 1);
}
