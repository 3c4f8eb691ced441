"""Fast move generation for Guandan: every (cards, interpretation) a hand can play (GD-13 … GD-23, GD-67).

A play is ``(cards, interp)``: ``cards`` a sorted tuple of card indices (so two
copies of one code are interchangeable and nothing is listed twice), ``interp``
a ``combos.Interp``. Inside, plays come in blocks, one per interpretation:
``(power, interp, [cards, …])``, ``power`` being ``main_power`` (``bomb_strength``
for bombs), so no play needs a tuple of its own. The generator builds plays rank by rank from small cached
building blocks ("groups": k cards of one rank, j of them wildcards) and only
crosses them where a kind needs it (full houses, sequences), so following a
table only builds the kind that can answer plus the bombs (GD-27).

Uniqueness (GD-67): inside one kind and main rank the natural cards fix which
position each card fills, and wildcards fill the rest, so a card multiset is
produced at most once per interpretation. A group of wildcards alone is only
read as the level rank (combos module docstring).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import combinations, product

from .cards import BJ, BJ_RANK, RJ, RJ_RANK, rank_power
from .combos import (
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    TUBE,
    Interp,
    bomb_strength,
    main_power,
    window_ranks,
)

Play = tuple[tuple[int, ...], Interp]
#: (power, interp, the cards of each play of that reading), see the module docstring; all tuples,
#: so the garbage collector soon stops tracking the blocks kept in the memos
Block = tuple[int, Interp, tuple[tuple[int, ...], ...]]
Group = tuple[tuple[int, ...], int]  # (sorted cards, wildcards used)

# Memo of natural multisets: (rank, suit counts, size) -> tuples. Bounded: 13 * 3^4 * 9 keys.
_MULTISETS: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def _multisets(rank: int, quad: tuple[int, ...], m: int) -> tuple[tuple[int, ...], ...]:
    key = (rank, quad, m)
    hit = _MULTISETS.get(key)
    if hit is not None:
        return hit
    out: list[tuple[int, ...]] = []
    base = rank * 4

    def rec(suit: int, left: int, prefix: tuple[int, ...]) -> None:
        if left == 0:
            out.append(prefix)
            return
        if suit == 4:
            return
        for take in range(min(quad[suit], left), -1, -1):
            rec(suit + 1, left - take, prefix + (base + suit,) * take)

    rec(0, m, ())
    found = _MULTISETS[key] = tuple(out)
    return found


# Memo of groups: (the rank's four counts, rank, k, wildcards held, level, all_wild) -> groups.
# Groups are immutable tuples shared between calls; the memo is cleared if it ever grows large.
_GROUPS: dict[tuple[bytes, int, int, int, int, bool], tuple[Group, ...]] = {}
_GROUPS_LIMIT = 20_000  # small: every cached list is one more object for the garbage collector


class _Hand:
    """Per-call view of a hand: natural counts per rank, wildcards, and memoised plays.

    ``lists`` holds the blocks found so far: ``LEAD`` -> every play that may be led, ``BOMB``
    -> every bomb, SINGLE / PAIR / TRIPLE -> those plays. ``sources`` holds, for keys not
    found yet, the same list of an earlier hand of the same
    seat and level that held all these cards (with its counts): the plays this hand still
    holds, in the same order, are those of that list (a play is legal by its cards alone)."""

    __slots__ = ("counts", "level", "lists", "masks", "nat", "sources", "wc", "wilds")

    def __init__(self, counts: bytes, level: int) -> None:
        self.counts = c = counts  # bytes: a snapshot, the caller may change its list later
        self.level = level
        self.wc = wc = level * 4 + 1
        self.wilds = c[wc]
        # cards per rank: the four counts of each rank summed as bytes lanes of one integer
        x = int.from_bytes(c[:52], "little")
        x = (x & _LANES2) + (x >> 8 & _LANES2)
        x = (x & _LANES4) + (x >> 16 & _LANES4)
        self.nat = nat = list(x.to_bytes(52, "little")[::4])
        nat[level] -= c[wc]  # the hearts of the level rank are wildcards, not naturals
        self.masks: tuple[int, int, int] | None = None
        self.lists: dict[int, list[Block]] = {}
        self.sources: dict[int, tuple[bytes, list[Block]]] = {}

    def inherit(self, earlier: _Hand) -> None:
        """Take ``earlier``'s lists (and its own sources) as sources, if it held all these cards."""
        if earlier.level != self.level or not _within(self.counts, earlier.counts):
            return
        sources = dict(earlier.sources)
        own = earlier.counts
        for key, blocks in earlier.lists.items():
            sources[key] = (own, blocks)
        self.sources = sources

    def cached(self, key: int) -> list[Block] | None:
        """The list ``key`` of ``lists``, or derived from its source, or None."""
        blocks = self.lists.get(key)
        if blocks is None:
            source = self.sources.pop(key, None)
            if source is not None:
                blocks = self.lists[key] = _still_held(source[1], source[0], self.counts)
        return blocks

    def rank_masks(self) -> tuple[int, int, int]:
        """Bit masks of the ranks held as at least 1, 2 and 3 natural cards."""
        if self.masks is None:
            m1 = m2 = m3 = 0
            for r, n in enumerate(self.nat):
                if n:
                    m1 |= 1 << r
                    if n > 1:
                        m2 |= 1 << r
                        if n > 2:
                            m3 |= 1 << r
            self.masks = (m1, m2, m3)
        return self.masks

    def groups(self, rank: int, k: int, all_wild: bool) -> tuple[Group, ...]:
        """Every way to make ``k`` cards of ``rank`` from naturals plus wildcards."""
        i = rank * 4
        c = self.counts
        wilds = self.wilds
        # the raw counts of the rank's four codes and the level fix the answer (quad, wildcard code)
        key = (c[i : i + 4], rank, k, wilds, self.level, all_wild)
        hit = _GROUPS.get(key)
        if hit is not None:
            return hit
        quad = (c[i], 0 if rank == self.level else c[i + 1], c[i + 2], c[i + 3])
        out: list[Group] = []
        nat = sum(quad)
        wc = self.wc
        for j in range(min(wilds, k) + 1):
            m = k - j
            if m > nat or (m == 0 and not all_wild):
                continue
            for ms in _multisets(rank, quad, m):
                out.append((tuple(sorted(ms + (wc,) * j)) if j else ms, j))
        if len(_GROUPS) >= _GROUPS_LIMIT:
            _GROUPS.clear()
        found = _GROUPS[key] = tuple(out)
        return found

    def suit_masks(self) -> list[int]:
        """Per suit, a bit per rank held as a natural card (0 for a suit too short for a flush)."""
        held = self.counts[:52].translate(_NONZERO)  # 1 per card held (counts are 0..2)
        need = 5 - self.wilds
        masks = [_ROW_MASKS[held[suit:52:4]] for suit in range(4)]  # rank by rank, one suit
        masks[1] &= ~(1 << self.level)  # the wildcards are not natural hearts
        return [m if _BEST5[m] >= need else 0 for m in masks]  # most hands hold no straight flush


Generator = Callable[[_Hand, int, list[Block]], None]

#: the hands asked about lately, by (counts as bytes, level): a seat's hand is asked about again
#: at each of its turns until it plays, so its bombs are found once (a small, bounded memo)
_HANDS: dict[tuple[bytes, int], _Hand] = {}
_HANDS_LIMIT = 16
#: the last hand of each line (a caller's name for one seat in one deal): the next hand of the line
#: holds fewer cards, so its plays are filtered from the ones found for this one (bounded memo)
_LINES: dict[Hashable, _Hand] = {}
_LINES_LIMIT = 64
LEAD = -1  # key of the lead plays in ``_Hand.lists``


def legal_plays(
    counts: list[int], level: int, table: Interp | None = None, raw: bytes | None = None
) -> list[Play]:
    """Every play of ``counts`` at ``level`` that may be led (table None) or that beats ``table``.

    ``raw``, if given, is ``bytes(counts)`` (the caller has it already)."""
    return [(cards, interp) for _, interp, block in blocks_of(counts, level, table, raw) for cards in block]


def blocks_of(
    counts: list[int], level: int, table: Interp | None, raw: bytes | None = None, line: Hashable = None
) -> list[Block]:
    """``legal_plays`` as blocks (module docstring), in the same order; blocks and their lists
    may be shared with the memos: never change them.

    ``line`` names the seat and deal the hand belongs to (None: unknown), so that a smaller
    hand of the same line filters the plays already found for the larger one."""
    key = (bytes(counts) if raw is None else raw, level)
    hand = _HANDS.get(key)
    if hand is None:
        if len(_HANDS) >= _HANDS_LIMIT:
            _HANDS.clear()
        hand = _HANDS[key] = _Hand(key[0], level)
        if line is not None:
            earlier = _LINES.get(line)
            if earlier is not None:
                hand.inherit(earlier)
    if line is not None:
        if len(_LINES) >= _LINES_LIMIT and line not in _LINES:
            _LINES.clear()
        _LINES[line] = hand
    if table is None:
        out = hand.cached(LEAD)
        if out is None:
            out = []
            for kind in (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE):
                _GENERATORS[kind](hand, -1, out)
            _bombs(hand, -1, out)
            hand.lists[LEAD] = out
        return out
    kind = table[0]
    if kind <= TRIPLE:  # the commonest follows: every play of the kind once per hand, then filter
        above = main_power(table, level)
        blocks = hand.cached(kind)
        if blocks is None:
            blocks = hand.lists[kind] = []
            _GENERATORS[kind](hand, -1, blocks)
        out = [b for b in blocks if b[0] > above]
        _bombs(hand, -1, out)
    elif kind < BOMB:
        out = []
        _GENERATORS[kind](hand, main_power(table, level), out)
        _bombs(hand, -1, out)
    else:
        out = []
        _bombs(hand, bomb_strength(table, level), out)
    return out


def _within(now: bytes, then: bytes) -> bool:
    """Does every count of ``now`` stay within ``then``? (counts below 128: no borrow reaches 128)"""
    a, b = int.from_bytes(then, "big"), int.from_bytes(now, "big")
    return a >= b and max((a - b).to_bytes(len(now), "big")) < 128


def _still_held(blocks: list[Block], then: bytes, now: bytes) -> list[Block]:
    """The plays of ``blocks`` (found for the counts ``then``) that ``now`` still holds."""
    if not blocks:
        return blocks
    fewer = (int.from_bytes(then, "big") - int.from_bytes(now, "big")).to_bytes(len(now), "big")
    flags = fewer.translate(_NONZERO)
    gone: set[int] = set()
    less: set[int] = set()
    c = flags.find(1)
    while c >= 0:
        (less if now[c] else gone).add(c)
        c = flags.find(1, c + 1)
    if not gone and not less:
        return blocks
    out = gone.isdisjoint
    kept: list[tuple[int, ...]]
    found: list[Block] = []
    for block in blocks:
        plays = block[2]
        if len(plays) == 1:  # common (a single, a pair, a bomb): no comprehension to set up
            cards = plays[0]
            if out(cards) and (not less or _fit(cards, less, now)):
                found.append(block)
            continue
        if less:
            kept = [cards for cards in plays if out(cards) and _fit(cards, less, now)]
        else:
            kept = [cards for cards in plays if out(cards)]
        if len(kept) == len(plays):
            found.append(block)
        elif kept:
            found.append((block[0], block[1], tuple(kept)))
    return found


def _fit(cards: tuple[int, ...], less: set[int], now: bytes) -> bool:
    """Does ``now`` hold ``cards`` as far as the codes ``less`` go?"""
    return less.isdisjoint(cards) or all(cards.count(c) <= now[c] for c in less)


# -- groups of one rank (GD-13 … GD-15) ---------------------------------------------------------
#: the block of ``k`` cards of one rank (a single, pair, triple or bomb) by the memo key of
#: ``_Hand.groups``, None if there is none; blocks are shared: never change one (bounded memo)
_BLOCKS: dict[tuple[bytes, int, int, int, int, bool], Block | None] = {}
_UNSEEN: Block = (0, (0, 0, 0, 0), ())  # a stand-in for a key not in _BLOCKS


def _rank_block(hand: _Hand, rank: int, k: int, all_wild: bool) -> Block | None:
    """The block of ``k`` cards of ``rank`` (``hand.groups``), made and memoised."""
    i = rank * 4
    groups = hand.groups(rank, k, all_wild)
    block: Block | None = None
    if groups:
        power = _POWERS[hand.level][rank]
        if k < 4:
            block = (power, ((SINGLE, PAIR, TRIPLE)[k - 1], rank, -1, k), tuple([g[0] for g in groups]))
        else:  # the power: bomb_strength((BOMB, rank, -1, k), level)
            block = (k * 1_000 + power, (BOMB, rank, -1, k), tuple([g[0] for g in groups]))
    if len(_BLOCKS) >= _GROUPS_LIMIT:
        _BLOCKS.clear()
    _BLOCKS[(hand.counts[i : i + 4], rank, k, hand.wilds, hand.level, all_wild)] = block
    return block


def _same_rank(kind: int, k: int) -> Generator:
    def gen(hand: _Hand, above: int, out: list[Block]) -> None:
        level, nat, wilds, c = hand.level, hand.nat, hand.wilds, hand.counts
        power = _POWERS[level]
        memo = _BLOCKS
        append = out.append
        for r in range(13):
            n = nat[r]
            if (n == 0 and r != level) or n + wilds < k or power[r] <= above:
                continue
            # wildcards alone only as the level rank (GD-11, GD-T08)
            i = r * 4
            block = memo.get((c[i : i + 4], r, k, wilds, level, r == level), _UNSEEN)  # see _rank_block
            if block is _UNSEEN:
                block = _rank_block(hand, r, k, r == level)
            if block is not None:
                append(block)
        if k <= 2:  # jokers: singles and identical pairs only (GD-14)
            for card, rank in ((BJ, BJ_RANK), (RJ, RJ_RANK)):
                if hand.counts[card] >= k and power[rank] > above:
                    append((power[rank], (kind, rank, -1, k), ((card,) * k,)))

    return gen


def _full_houses(hand: _Hand, above: int, out: list[Block]) -> None:
    """Triple plus a pair of another rank, or of two identical jokers (GD-16)."""
    level, wilds, nat, c = hand.level, hand.wilds, hand.nat, hand.counts
    memo = _GROUPS
    pairs = [  # hand.groups(p, 2, p == level), its memo read first
        (p, memo.get((c[p * 4 : p * 4 + 4], p, 2, wilds, level, p == level)) or hand.groups(p, 2, p == level))
        for p in range(13)
        if (nat[p] and nat[p] + wilds >= 2) or (p == level and wilds >= 2)
    ]
    joker_pairs = [((c, c), 0) for c in (BJ, RJ) if hand.counts[c] == 2]
    power = _POWERS[level]
    for t in range(13):
        if power[t] <= above or not nat[t] or nat[t] + wilds < 3:
            continue
        triples = memo.get((c[t * 4 : t * 4 + 4], t, 3, wilds, level, False)) or hand.groups(t, 3, False)
        if not triples:
            continue
        block: list[tuple[int, ...]] = []
        add = block.append
        for p, pgroups in pairs:
            if p == t:
                continue
            if not wilds:  # naturals only: the lower rank's cards come first
                if t < p:
                    block += [tc + pc for tc, _ in triples for pc, _ in pgroups]
                else:
                    block += [pc + tc for tc, _ in triples for pc, _ in pgroups]
                continue
            for tcards, j1 in triples:
                left = wilds - j1
                for pcards, j2 in pgroups:
                    if j2 > left:
                        continue
                    if j1 or j2:
                        add(tuple(sorted(tcards + pcards)))
                    elif t < p:
                        add(tcards + pcards)
                    else:
                        add(pcards + tcards)
        for pcards, _ in joker_pairs:
            for tcards, _ in triples:
                add(tcards + pcards)
        if block:
            out.append((power[t], (FULL_HOUSE, t, -1, 5), tuple(block)))


def _sequences(kind: int, length: int, per: int, first_top: int) -> Generator:
    """Straights, tubes and plates (GD-17 … GD-20): ``length`` ranks of ``per`` cards each."""

    windows = [window_ranks(top, length) for top in range(first_top, 15)]
    masks = [sum(1 << r for r in ranks) for ranks in windows]
    orders = [sorted(ranks) for ranks in windows]  # card order: the ace of an ace-low window sorts last

    def gen(hand: _Hand, above: int, out: list[Block]) -> None:
        wilds = hand.wilds
        held = hand.rank_masks()[:per]
        got: dict[int, tuple[Group, ...]] = {}  # rank -> its groups: windows overlap
        for ranks, wmask, order in zip(windows, masks, orders, strict=True):
            if ranks[-1] <= above:
                continue
            deficit = 0  # cards missing on the window: per rank, per minus the naturals held
            for m in held:
                deficit += _POP[wmask & ~m]
            if deficit > wilds:
                continue
            options = [got[r] if r in got else got.setdefault(r, hand.groups(r, per, True)) for r in order]
            if not wilds:  # naturals only: the groups' cards in card order
                if length == 3:
                    whole = tuple([a + b + c for (a, _), (b, _), (c, _) in product(*options)])
                else:
                    whole = tuple([a + b for (a, _), (b, _) in product(*options)])
                if whole:
                    out.append((ranks[-1], (kind, ranks[-1], -1, per * length), whole))
                continue
            block: list[tuple[int, ...]] = []
            for combo in product(*options):
                used = 0
                for _, j in combo:
                    used += j
                if used > wilds:
                    continue
                cards: tuple[int, ...] = ()
                for c, _ in combo:
                    cards += c
                block.append(tuple(sorted(cards)) if used else cards)
            if block:
                out.append((ranks[-1], (kind, ranks[-1], -1, per * length), tuple(block)))

    return gen


def _straights(hand: _Hand, above: int, out: list[Block]) -> None:
    """Five-card straights (GD-17): per position a natural code or a wildcard."""
    wilds, wc, c = hand.wilds, hand.wc, hand.counts
    m1 = hand.rank_masks()[0]
    for top_rank, wmask, order in _WINDOWS5:
        if top_rank <= above:
            continue
        if _POP[wmask & ~m1] > wilds:
            continue
        naturals = [[i for i in range(r * 4, r * 4 + 4) if c[i] and i != wc] for r in order]
        missing = [i for i, codes in enumerate(naturals) if not codes]
        block: list[tuple[int, ...]] = []
        for j in range(len(missing), wilds + 1):
            for wpos in combinations(range(5), j):
                if any(i not in wpos for i in missing):
                    continue
                opts = [naturals[i] for i in range(5) if i not in wpos]
                if j == 0:
                    block.extend(product(*opts))
                else:
                    extra = (wc,) * j
                    block.extend([tuple(sorted(cards + extra)) for cards in product(*opts)])
        if block:
            out.append((top_rank, (STRAIGHT, top_rank, -1, 5), tuple(block)))


def _bombs(hand: _Hand, above: int, out: list[Block]) -> None:
    """N-bombs, straight flushes and the four-joker bomb stronger than ``above`` (GD-22, GD-32)."""
    blocks = hand.cached(BOMB)
    if blocks is None:
        blocks = hand.lists[BOMB] = _all_bombs(hand)
    if blocks:
        out.extend([b for b in blocks if b[0] > above])


def _all_bombs(hand: _Hand) -> list[Block]:
    """Every bomb of the hand, its strength (``bomb_strength``) as the power, in listing order."""
    level, counts, nat, wilds = hand.level, hand.counts, hand.nat, hand.wilds
    out: list[Block] = []
    memo = _BLOCKS
    for r in range(13) if max(nat) + wilds >= 4 else ():
        top = nat[r] + wilds
        quad = counts[r * 4 : r * 4 + 4]
        for k in range(4, top + 1):
            block = memo.get((quad, r, k, wilds, level, False), _UNSEEN)
            if block is _UNSEEN:
                block = _rank_block(hand, r, k, False)
            if block is not None:
                out.append(block)
    _straight_flushes(hand, -1, out)
    if counts[BJ] == 2 and counts[RJ] == 2:
        out.append((11_000, (JOKER_BOMB, RJ_RANK, -1, 4), ((BJ, BJ, RJ, RJ),)))
    return out


def _straight_flushes(hand: _Hand, above: int, out: list[Block]) -> None:
    wilds, wc = hand.wilds, hand.wc
    masks = hand.suit_masks()
    if not any(masks):
        return
    suits = [suit for suit in range(4) if masks[suit]]
    for top_rank, wmask, order in _WINDOWS5:
        if 5_500 + top_rank <= above:
            continue
        for suit in suits:
            held = wmask & masks[suit]
            missing = 5 - _POP[held]
            if missing > wilds:
                continue
            # each position: its natural card if held, or a wildcard; listed as product() did:
            # by position in card order, the natural card before the wildcard
            naturals = [r * 4 + suit if held >> r & 1 else -1 for r in order]
            block = tuple(
                [
                    tuple(sorted(combo)) if wilds else combo
                    for combo in product(*[(n, wc) if n >= 0 else (wc,) for n in naturals])
                    if combo.count(wc) <= wilds
                ]
            )
            if block:  # the power: bomb_strength((STRAIGHT_FLUSH, top_rank, suit, 5), level)
                out.append((5_500 + top_rank, (STRAIGHT_FLUSH, top_rank, suit, 5), block))


#: single power of each rank index 0..14 (jokers 13, 14) at each level (``rank_power``)
_POWERS = [[rank_power(r, level) for r in range(15)] for level in range(13)]
#: bits set in every 13-bit rank mask
_POP = [bin(m).count("1") for m in range(1 << 13)]
#: 13 bytes of 0/1 (one suit's cards held, rank by rank) -> the rank bit mask
_ROW_MASKS = {bytes((m >> r) & 1 for r in range(13)): m for m in range(1 << 13)}
_NONZERO = bytes([0] + [1] * 255)
#: masks of the low byte of every 2-byte and of the low 2 bytes of every 4-byte lane of 52 bytes
_LANES2 = int.from_bytes(bytes([255, 0]) * 26, "little")
_LANES4 = int.from_bytes(bytes([255, 255, 0, 0]) * 13, "little")
#: five-card windows: (top rank index, rank bit mask, ranks in card order), ace low first (GD-20)
_WINDOWS5: list[tuple[int, int, list[int]]] = [
    (window_ranks(top, 5)[-1], sum(1 << r for r in window_ranks(top, 5)), sorted(window_ranks(top, 5)))
    for top in range(5, 15)
]

#: per 13-bit rank mask: the most ranks it holds in one five-card window
_BEST5 = [max(_POP[m & w] for _, w, _ in _WINDOWS5) for m in range(1 << 13)]


_GENERATORS: dict[int, Generator] = {
    SINGLE: _same_rank(SINGLE, 1),
    PAIR: _same_rank(PAIR, 2),
    TRIPLE: _same_rank(TRIPLE, 3),
    FULL_HOUSE: _full_houses,
    STRAIGHT: _straights,
    TUBE: _sequences(TUBE, 3, 2, 3),
    PLATE: _sequences(PLATE, 2, 3, 2),
    STRAIGHT_FLUSH: _straight_flushes,
}
