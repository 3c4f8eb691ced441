"""A hand as Guandan's move generation reads it: counts per rank, wildcards, groups of one rank,
and the plays an earlier hand of the same seat still holds (see ``movegen``)."""

from __future__ import annotations

from .cards import rank_power
from .combos import Interp, window_ranks

Play = tuple[tuple[int, ...], Interp]
#: (power, interp, the cards of each play of that reading), see movegen's docstring; all tuples,
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
GROUPS: dict[tuple[bytes, int, int, int, int, bool], tuple[Group, ...]] = {}
GROUPS_LIMIT = 20_000  # small: every cached list is one more object for the garbage collector


class Hand:
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
        x = (x & LANES2) + (x >> 8 & LANES2)
        x = (x & LANES4) + (x >> 16 & LANES4)
        self.nat = nat = list(x.to_bytes(52, "little")[::4])
        nat[level] -= c[wc]  # the hearts of the level rank are wildcards, not naturals
        self.masks: tuple[int, int, int] | None = None
        self.lists: dict[int, list[Block]] = {}
        self.sources: dict[int, tuple[bytes, list[Block]]] = {}

    def inherit(self, earlier: Hand) -> None:
        """Take ``earlier``'s lists (and its own sources) as sources, if it held all these cards."""
        if earlier.level != self.level or not within(self.counts, earlier.counts):
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
                blocks = self.lists[key] = still_held(source[1], source[0], self.counts)
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
        hit = GROUPS.get(key)
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
        if len(GROUPS) >= GROUPS_LIMIT:
            GROUPS.clear()
        found = GROUPS[key] = tuple(out)
        return found

    def suit_masks(self) -> list[int]:
        """Per suit, a bit per rank held as a natural card (0 for a suit too short for a flush)."""
        held = self.counts[:52].translate(NONZERO)  # 1 per card held (counts are 0..2)
        need = 5 - self.wilds
        masks = [ROW_MASKS[held[suit:52:4]] for suit in range(4)]  # rank by rank, one suit
        masks[1] &= ~(1 << self.level)  # the wildcards are not natural hearts
        return [m if BEST5[m] >= need else 0 for m in masks]  # most hands hold no straight flush


def within(now: bytes, then: bytes) -> bool:
    """Does every count of ``now`` stay within ``then``? (counts below 128: no borrow reaches 128)"""
    a, b = int.from_bytes(then, "big"), int.from_bytes(now, "big")
    return a >= b and max((a - b).to_bytes(len(now), "big")) < 128


def still_held(blocks: list[Block], then: bytes, now: bytes) -> list[Block]:
    """The plays of ``blocks`` (found for the counts ``then``) that ``now`` still holds."""
    if not blocks:
        return blocks
    fewer = (int.from_bytes(then, "big") - int.from_bytes(now, "big")).to_bytes(len(now), "big")
    flags = fewer.translate(NONZERO)
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


#: single power of each rank index 0..14 (jokers 13, 14) at each level (``rank_power``)
POWERS = [[rank_power(r, level) for r in range(15)] for level in range(13)]
#: bits set in every 13-bit rank mask
POP = [bin(m).count("1") for m in range(1 << 13)]
#: 13 bytes of 0/1 (one suit's cards held, rank by rank) -> the rank bit mask
ROW_MASKS = {bytes((m >> r) & 1 for r in range(13)): m for m in range(1 << 13)}
NONZERO = bytes([0] + [1] * 255)
#: masks of the low byte of every 2-byte and of the low 2 bytes of every 4-byte lane of 52 bytes
LANES2 = int.from_bytes(bytes([255, 0]) * 26, "little")
LANES4 = int.from_bytes(bytes([255, 255, 0, 0]) * 13, "little")
#: five-card windows: (top rank index, rank bit mask, ranks in card order), ace low first (GD-20)
WINDOWS5: list[tuple[int, int, list[int]]] = [
    (window_ranks(top, 5)[-1], sum(1 << r for r in window_ranks(top, 5)), sorted(window_ranks(top, 5)))
    for top in range(5, 15)
]

#: per 13-bit rank mask: the most ranks it holds in one five-card window
BEST5 = [max(POP[m & w] for _, w, _ in WINDOWS5) for m in range(1 << 13)]
