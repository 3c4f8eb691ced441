// Guandan's plays unpacked from the envelope (docs/protocol.md, "Guandan's plays"; issue 26, item 13).
//
// The server sends each legal reading once (`plays`: kind -> readings, each the interpretation's
// values after its kind: [rank], a bomb [rank, size], a straight flush [rank, suit], the joker bomb
// []) instead of every card set that makes it; a reading stands for every sub-multiset of the
// viewer's hand (`view.hand`, at `view.level`) that reads as it (GD-13 … GD-22), which is exactly
// what the engine lists. This module rebuilds that list, as cardgames/tables/legal_wire.py does in
// Python; tests/browser/test_guandan_legal_browser.py checks it against the engine over real deals.
const RANKS = "23456789TJQKA";
const SUITS = "SHCD"; // the card index order within a rank (GD-51)
const BJ = 52;
const RJ = 53;
const CODES = [...[...RANKS].flatMap((r) => [...SUITS].map((s) => r + s)), "BJ", "RJ"];
const INDEX = new Map(CODES.map((code, i) => [code, i]));
const GROUP_SIZES = { single: 1, pair: 2, triple: 3 };
const WINDOWS = { straight: [5, 1], tube: [3, 2], plate: [2, 3] }; // ranks in the window, cards a rank

const rankIndex = (name) => (name === "black_joker" ? 13 : name === "red_joker" ? 14 : name === "10" ? 8 : RANKS.indexOf(name));

// The ranks (0 = "2" … 12 = "A") of a sequence whose top natural value is `top` (ace low = 1,
// ace high = 14; GD-20).
export function windowRanks(top, length) {
  const out = [];
  for (let v = top - length + 1; v <= top; v++) out.push((((v - 2) % 13) + 13) % 13);
  return out;
}

// The interpretation of a packed reading (the engine's `interp` dict).
export function readingInterp(kind, values) {
  if (kind === "joker_bomb") return { kind };
  const interp = { kind, rank: values[0] };
  if (kind === "bomb") interp.size = values[1];
  else if (kind === "straight_flush") interp.suit = values[1];
  return interp;
}

// The distinct sub-multisets of m cards of `cards` (sorted indices, repeats allowed).
function choose(cards, m) {
  const out = new Map();
  const walk = (start, picked) => {
    if (picked.length === m) {
      out.set(picked.join(","), picked);
      return;
    }
    for (let i = start; i < cards.length; i++) walk(i + 1, [...picked, cards[i]]);
  };
  walk(0, []);
  return [...out.values()];
}

function held(hand, level) {
  const counts = new Array(CODES.length).fill(0);
  for (const code of hand) counts[INDEX.get(code)] += 1;
  const wc = level * 4 + 1; // the heart of the level rank (GD-10)
  const wilds = counts[wc];
  const naturals = [];
  for (let r = 0; r < 13; r++) {
    const cards = [];
    for (let c = r * 4; c < r * 4 + 4; c++) if (c !== wc) for (let n = 0; n < counts[c]; n++) cards.push(c);
    naturals.push(cards);
  }

  // every way to hold k cards of a rank: naturals plus wildcards (wildcards alone only if allWild)
  function groups(rank, k, allWild) {
    const out = new Map();
    for (let j = 0; j <= Math.min(wilds, k); j++) {
      const m = k - j;
      if (m > naturals[rank].length || (m === 0 && !allWild)) continue;
      for (const picked of choose(naturals[rank], m)) {
        const cards = [...picked, ...new Array(j).fill(wc)].sort((a, b) => a - b);
        out.set(cards.join(","), cards);
      }
    }
    return [...out.values()];
  }

  // one option of each position, as long as the hand's wildcards last
  function withinWilds(options) {
    let partial = [[[], 0]];
    for (const choices of options) {
      const next = [];
      for (const [cards, used] of partial) {
        for (const choice of choices) {
          const extra = choice.filter((c) => c === wc).length;
          if (used + extra <= wilds) next.push([[...cards, ...choice], used + extra]);
        }
      }
      partial = next;
    }
    return partial.map(([cards]) => cards);
  }

  function plays(kind, values) {
    if (kind === "joker_bomb") return counts[BJ] === 2 && counts[RJ] === 2 ? [[BJ, BJ, RJ, RJ]] : [];
    const rank = rankIndex(values[0]);
    if (kind in GROUP_SIZES || kind === "bomb") {
      const k = kind === "bomb" ? values[1] : GROUP_SIZES[kind];
      if (rank > 12) {
        const joker = rank === 13 ? BJ : RJ; // identical jokers only (GD-14)
        return counts[joker] >= k ? [new Array(k).fill(joker)] : [];
      }
      return groups(rank, k, kind !== "bomb" && rank === level); // a lone wildcard is the level rank (GD-11)
    }
    if (kind === "full_house") {
      // a triple and a pair of another rank, or two identical jokers (GD-16)
      const pairs = [];
      for (let r = 0; r < 13; r++) if (r !== rank) pairs.push(...groups(r, 2, r === level));
      for (const joker of [BJ, RJ]) if (counts[joker] === 2) pairs.push([joker, joker]);
      return withinWilds([groups(rank, 3, false), pairs]);
    }
    if (kind === "straight_flush") {
      const suit = SUITS.indexOf(values[1]);
      return withinWilds(
        windowRanks(rank + 2, 5).map((r) => {
          const card = r * 4 + suit;
          return card !== wc && counts[card] > 0 ? [[card], [wc]] : [[wc]];
        }),
      );
    }
    const [length, per] = WINDOWS[kind];
    const window = windowRanks(rank + 2, length); // the reading's rank is the top's ("5" for A-2-3-4-5)
    if (kind === "straight") return withinWilds(window.map((r) => [...[...new Set(naturals[r])].map((c) => [c]), [wc]]));
    return withinWilds(window.map((r) => groups(r, per, true)));
  }

  return { plays };
}

// Every reading of a set of cards (codes) at the deal's level rank: the interpretations it may be
// played as anywhere (GD-13 … GD-23), whatever is on the table. A reading of the cards taken as a
// hand that uses every card is a reading of the whole set.
export function readingsOf(cards, level) {
  const n = cards.length;
  const { plays } = held(cards, RANKS.indexOf(level));
  const names = [...RANKS, "black_joker", "red_joker"];
  const candidates = [];
  if (n >= 1 && n <= 3) for (const name of names) candidates.push([Object.keys(GROUP_SIZES)[n - 1], [name]]);
  if (n >= 4) for (const name of RANKS) candidates.push(["bomb", [name, n]]);
  if (n === 4) candidates.push(["joker_bomb", []]);
  if (n === 5) {
    for (const name of RANKS) candidates.push(["full_house", [name]]);
    for (let top = 5; top <= 14; top++) {
      const name = RANKS[windowRanks(top, 5)[4]];
      candidates.push(["straight", [name]], ...[...SUITS].map((suit) => ["straight_flush", [name, suit]]));
    }
  }
  if (n === 6) {
    for (let top = 3; top <= 14; top++) candidates.push(["tube", [RANKS[windowRanks(top, 3)[2]]]]);
    for (let top = 2; top <= 14; top++) candidates.push(["plate", [RANKS[windowRanks(top, 2)[1]]]]);
  }
  return candidates.filter(([kind, values]) => plays(kind, values).some((found) => found.length === n)).map(([kind, values]) => readingInterp(kind, values));
}

// Every play of the packed `plays` from `hand` (card codes) at the deal's level rank ("2" … "A").
export function unpackPlays(plays, hand, level) {
  const { plays: cardSets } = held(hand, RANKS.indexOf(level));
  const out = [];
  for (const [kind, readings] of Object.entries(plays)) {
    for (const values of readings) {
      for (const cards of cardSets(kind, values)) {
        const sorted = [...cards].sort((a, b) => a - b).map((c) => CODES[c]);
        out.push({ type: "play", cards: sorted, interp: readingInterp(kind, values) });
      }
    }
  }
  return out;
}

// Every legal action of an envelope: its `legal`, then its `plays` unpacked (none for the other games).
export function unpackLegal(envelope) {
  const legal = envelope.legal || [];
  const view = envelope.view;
  if (!envelope.plays || !view) return legal;
  return [...legal, ...unpackPlays(envelope.plays, view.hand || [], view.level)];
}
