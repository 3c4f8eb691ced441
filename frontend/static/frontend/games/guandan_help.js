// Guandan for people learning it (issue 25, section 7): the hand grouped by rank or by suit, the
// selection named before it is played ("Escalera de 5 hasta el 9") or told why it is not a play,
// and the «Sugerir» hint (the normal bot's choice, asked of the server: docs/protocol.md, "hint").
//
// No drawing of the table here: guandan.js calls these and places what they return.
import { comboText } from "../movelog.js";
import { readingsOf, windowRanks } from "./guandan_legal.js";

const RANKS = "23456789TJQKA";
const SUIT_ORDER = "SHCD"; // GD-51's tie-break order
const GROUPING_KEY = "tapete.guandan.grouping";
export const GROUPINGS = ["rank", "suit"];

const isWild = (code, level) => code === `${level}H`;

// GD-8: 2 < … < A < the level rank < black joker < red joker
export function power(code, level) {
  if (code === "BJ") return 14;
  if (code === "RJ") return 15;
  const rank = code.slice(0, -1);
  return rank === level ? 13 : RANKS.indexOf(rank);
}

// The group a card is shown in: by rank, its rank; by suit, its suit, the jokers together and
// the level's two heart wildcards apart (they stand for any card: GD-10).
export function groupOf(code, level, grouping) {
  if (code === "BJ" || code === "RJ") return grouping === "suit" ? "jokers" : code;
  if (grouping === "suit") return isWild(code, level) ? "wild" : code.slice(-1);
  return code.slice(0, -1);
}

// The hand in the order it is shown: by rank (power, then suit: the engine's order of power), or
// by suit (♠ ♥ ♣ ♦ by power, the jokers, then the wildcards).
export function groupedHand(hand, level, grouping) {
  const bySuit = (code) => {
    const group = groupOf(code, level, "suit");
    return group === "jokers" ? 4 : group === "wild" ? 5 : SUIT_ORDER.indexOf(group);
  };
  const suit = (code) => SUIT_ORDER.indexOf(code.slice(-1));
  return [...hand].sort((a, b) => {
    if (grouping === "suit") return bySuit(a) - bySuit(b) || power(a, level) - power(b, level);
    return power(a, level) - power(b, level) || suit(a) - suit(b);
  });
}

export function storedGrouping() {
  try {
    const value = localStorage.getItem(GROUPING_KEY);
    return GROUPINGS.includes(value) ? value : "rank";
  } catch {
    return "rank";
  }
}

function storeGrouping(value) {
  try {
    localStorage.setItem(GROUPING_KEY, value);
  } catch {
    // a private window without storage: the choice lasts as long as the page
  }
}

// Two toggle buttons, "Por número" and "Por palo": the one pressed is the hand's grouping.
export function groupingControl(ctx, grouping, onChange) {
  const { el, t } = ctx;
  const box = el("div", { class: "gd-grouping", role: "group", "aria-label": t("gd_group_by") });
  for (const value of GROUPINGS) {
    const button = el("button", {
      type: "button",
      class: "secondary gd-group",
      "data-testid": `gd-group-${value}`,
      "aria-pressed": String(value === grouping),
      text: t(`gd_group_${value}`),
    });
    button.addEventListener("click", () => {
      if (value === grouping) return;
      storeGrouping(value);
      onChange(value);
    });
    box.append(button);
  }
  return box;
}

const rankName = (ctx, rank) => (rank === "red_joker" ? ctx.t("joker_RJ") : rank === "black_joker" ? ctx.t("joker_BJ") : rank === "T" ? "10" : rank);

// The full house's pair: the rank of the cards that are not the triple's (identical jokers, or the
// level rank for a pair of the two wildcards).
function pairRank(cards, interp, level) {
  const natural = cards.find((code) => !isWild(code, level) && code.slice(0, -1) !== interp.rank);
  if (!natural) return level;
  if (natural === "BJ") return "black_joker";
  if (natural === "RJ") return "red_joker";
  return natural.slice(0, -1);
}

// What the selection's wildcards stand for in a reading (GD-10): the ranks its natural cards lack,
// a triple's before its pair's. None where a wildcard is at its own rank, the level's (alone, a
// pair of the two read as the level rank: GD-11).
export function wildRanks(cards, interp, level) {
  const wilds = cards.filter((code) => isWild(code, level)).length;
  if (!wilds || interp.kind === "single" || interp.kind === "joker_bomb") return [];
  const held = new Map();
  for (const code of cards) if (!isWild(code, level)) held.set(code.slice(0, -1), (held.get(code.slice(0, -1)) ?? 0) + 1);
  const short = (rank, want) => new Array(Math.max(0, want - (held.get(rank) ?? 0))).fill(rank);
  const top = RANKS.indexOf(interp.rank) + 2; // a sequence's top natural value
  let out;
  if (interp.kind === "full_house") {
    const pair = pairRank(cards, interp, level);
    out = [...short(interp.rank, 3), ...short(pair, 2)];
  } else if (interp.kind === "straight" || interp.kind === "straight_flush") {
    out = windowRanks(top, 5).flatMap((r) => short(RANKS[r], 1));
  } else if (interp.kind === "tube") out = windowRanks(top, 3).flatMap((r) => short(RANKS[r], 2));
  else if (interp.kind === "plate") out = windowRanks(top, 2).flatMap((r) => short(RANKS[r], 3));
  else out = new Array(wilds).fill(interp.rank);
  return out.filter((rank) => rank !== level); // a wildcard at its own rank stands for itself
}

// "el comodín hace de 7", "los comodines hacen de 7 y 9"; "" when they stand for nothing.
function wildText(ctx, ranks) {
  if (!ranks.length) return "";
  const names = [...new Set(ranks)].map((rank) => rankName(ctx, rank));
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")}${ctx.t("log_and")}${names[names.length - 1]}` : names[0];
  return ctx.t(ranks.length > 1 ? "gd_sel_wilds" : "gd_sel_wild", { ranks: list });
}

// A combination's name as a player says it, capitalised: "Escalera de 5 hasta el 9", "Trío de 7 con
// pareja de 4", "Un 7 suelto" (movelog.js's words, the log's own); in a sentence, not capitalised.
export function comboName(ctx, interp, cards, level, { capital = true } = {}) {
  let text;
  if (interp.kind === "single") text = ctx.t("gd_combo_single", { rank: rankName(ctx, interp.rank) });
  else if (interp.kind === "full_house") text = comboText({ ...interp, pair: pairRank(cards, interp, level) }, ctx);
  else text = comboText(interp, ctx);
  return capital ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// What the selection is, said before it is played: its name when it is a legal play; else why not
// (no combination at all; or one that does not beat the table's play). `plays`: the legal plays
// holding exactly the selected cards; `top`: the trick's last play, null when leading.
export function selectionNote(ctx, { cards, plays, top, level }) {
  if (plays.length === 1) {
    const wild = wildText(ctx, wildRanks(cards, plays[0].interp, level));
    const combo = comboName(ctx, plays[0].interp, cards, level);
    return ctx.t("gd_sel_play", { combo: wild ? `${combo} (${wild})` : combo });
  }
  if (plays.length > 1) return ctx.t("gd_hint_choose");
  const readings = readingsOf(cards, level);
  if (!readings.length) return ctx.t("gd_sel_no_combo");
  const combo = comboName(ctx, readings[readings.length - 1], cards, level); // the strongest reading
  if (!top) return ctx.t("gd_sel_play", { combo }); // a lead takes any combination (GD-25)
  const table = comboName(ctx, top.interp, top.cards, level, { capital: false });
  const kinds = new Set(["bomb", "straight_flush", "joker_bomb"]);
  const sameKind = readings.some((r) => r.kind === top.interp.kind || (kinds.has(r.kind) && kinds.has(top.interp.kind)));
  return ctx.t(sameKind ? "gd_sel_lower" : "gd_sel_other_kind", { combo, table });
}
