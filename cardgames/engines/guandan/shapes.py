"""The generators of Guandan's combinations (GD-13 … GD-23) over a ``Hand``, one per kind, and bombs.

Each appends blocks (``hand.Block``) of the plays above a power to a list (see ``movegen``)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, product

from .cards import BJ, BJ_RANK, RJ, RJ_RANK
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
    window_ranks,
)
from .hand import GROUPS, GROUPS_LIMIT, POP, POWERS, WINDOWS5, Block, Group, Hand

Generator = Callable[[Hand, int, list[Block]], None]


# -- groups of one rank (GD-13 … GD-15) ---------------------------------------------------------
#: the block of ``k`` cards of one rank (a single, pair, triple or bomb) by the memo key of
#: ``Hand.groups``, None if there is none; blocks are shared: never change one (bounded memo)
_BLOCKS: dict[tuple[bytes, int, int, int, int, bool], Block | None] = {}
_UNSEEN: Block = (0, (0, 0, 0, 0), ())  # a stand-in for a key not in _BLOCKS


def _rank_block(hand: Hand, rank: int, k: int, all_wild: bool) -> Block | None:
    """The block of ``k`` cards of ``rank`` (``hand.groups``), made and memoised."""
    i = rank * 4
    groups = hand.groups(rank, k, all_wild)
    block: Block | None = None
    if groups:
        power = POWERS[hand.level][rank]
        if k < 4:
            block = (power, ((SINGLE, PAIR, TRIPLE)[k - 1], rank, -1, k), tuple([g[0] for g in groups]))
        else:  # the power: bomb_strength((BOMB, rank, -1, k), level)
            block = (k * 1_000 + power, (BOMB, rank, -1, k), tuple([g[0] for g in groups]))
    if len(_BLOCKS) >= GROUPS_LIMIT:
        _BLOCKS.clear()
    _BLOCKS[(hand.counts[i : i + 4], rank, k, hand.wilds, hand.level, all_wild)] = block
    return block


def _same_rank(kind: int, k: int) -> Generator:
    def gen(hand: Hand, above: int, out: list[Block]) -> None:
        level, nat, wilds, c = hand.level, hand.nat, hand.wilds, hand.counts
        power = POWERS[level]
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


def _full_houses(hand: Hand, above: int, out: list[Block]) -> None:
    """Triple plus a pair of another rank, or of two identical jokers (GD-16)."""
    level, wilds, nat, c = hand.level, hand.wilds, hand.nat, hand.counts
    memo = GROUPS
    pairs = [  # hand.groups(p, 2, p == level), its memo read first
        (p, memo.get((c[p * 4 : p * 4 + 4], p, 2, wilds, level, p == level)) or hand.groups(p, 2, p == level))
        for p in range(13)
        if (nat[p] and nat[p] + wilds >= 2) or (p == level and wilds >= 2)
    ]
    joker_pairs = [((c, c), 0) for c in (BJ, RJ) if hand.counts[c] == 2]
    power = POWERS[level]
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

    def gen(hand: Hand, above: int, out: list[Block]) -> None:
        wilds = hand.wilds
        held = hand.rank_masks()[:per]
        got: dict[int, tuple[Group, ...]] = {}  # rank -> its groups: windows overlap
        for ranks, wmask, order in zip(windows, masks, orders, strict=True):
            if ranks[-1] <= above:
                continue
            deficit = 0  # cards missing on the window: per rank, per minus the naturals held
            for m in held:
                deficit += POP[wmask & ~m]
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


def _straights(hand: Hand, above: int, out: list[Block]) -> None:
    """Five-card straights (GD-17): per position a natural code or a wildcard."""
    wilds, wc, c = hand.wilds, hand.wc, hand.counts
    m1 = hand.rank_masks()[0]
    for top_rank, wmask, order in WINDOWS5:
        if top_rank <= above:
            continue
        if POP[wmask & ~m1] > wilds:
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


def bombs(hand: Hand, above: int, out: list[Block]) -> None:
    """N-bombs, straight flushes and the four-joker bomb stronger than ``above`` (GD-22, GD-32)."""
    blocks = hand.cached(BOMB)
    if blocks is None:
        blocks = hand.lists[BOMB] = _all_bombs(hand)
    if blocks:
        out.extend([b for b in blocks if b[0] > above])


def _all_bombs(hand: Hand) -> list[Block]:
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


def _straight_flushes(hand: Hand, above: int, out: list[Block]) -> None:
    wilds, wc = hand.wilds, hand.wc
    masks = hand.suit_masks()
    if not any(masks):
        return
    suits = [suit for suit in range(4) if masks[suit]]
    for top_rank, wmask, order in WINDOWS5:
        if 5_500 + top_rank <= above:
            continue
        for suit in suits:
            held = wmask & masks[suit]
            missing = 5 - POP[held]
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


GENERATORS: dict[int, Generator] = {
    SINGLE: _same_rank(SINGLE, 1),
    PAIR: _same_rank(PAIR, 2),
    TRIPLE: _same_rank(TRIPLE, 3),
    FULL_HOUSE: _full_houses,
    STRAIGHT: _straights,
    TUBE: _sequences(TUBE, 3, 2, 3),
    PLATE: _sequences(PLATE, 2, 3, 2),
    STRAIGHT_FLUSH: _straight_flushes,
}
