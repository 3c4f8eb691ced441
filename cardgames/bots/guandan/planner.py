"""Hand decomposition for the Guandan bots: split a hand into the fewest plays (rules GD-13 … GD-22).

The planner works on rank counts (suits only matter for straight flushes): naturals
per rank, wildcards, jokers. It greedily extracts the sequence (straight, tube,
plate, natural straight flush) that lowers the cost most, then groups what is
left by rank (bombs, triples absorbing pairs as full houses, pairs, singles).

Cost = number of plays, plus a small penalty for weak singles and pairs (they
are hard to get rid of), minus a little for bombs (each one wins a lead back).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgames.engines.guandan.cards import BJ, RJ, rank_power
from cardgames.engines.guandan.combos import window_ranks

#: (kind, top rank index, ranks used in order, cards per rank)
Seq = tuple[str, int, tuple[int, ...], int]

_WINDOWS: dict[str, list[tuple[int, tuple[int, ...]]]] = {
    "straight": [(window_ranks(t, 5)[-1], tuple(window_ranks(t, 5))) for t in range(5, 15)],
    "tube": [(window_ranks(t, 3)[-1], tuple(window_ranks(t, 3))) for t in range(3, 15)],
    "plate": [(window_ranks(t, 2)[-1], tuple(window_ranks(t, 2))) for t in range(2, 15)],
}
_PER = {"straight": 1, "tube": 2, "plate": 3}


@dataclass
class Plan:
    """A decomposition: sequences taken out, then groups by rank."""

    cost: float
    sequences: list[Seq] = field(default_factory=list)
    groups: dict[int, int] = field(default_factory=dict)  # rank -> natural count kept together
    wilds: int = 0
    jokers: tuple[int, int] = (0, 0)  # (black, red)

    @property
    def plays(self) -> int:
        return int(self.cost + 0.999)


def rank_counts(counts: list[int], level: int) -> tuple[list[int], int]:
    """Natural cards per rank and the number of wildcards held."""
    wc = level * 4 + 1
    nat = [counts[i] + counts[i + 1] + counts[i + 2] + counts[i + 3] for i in range(0, 52, 4)]
    nat[level] -= counts[wc]
    return nat, counts[wc]


def groups_cost(nat: list[int], wilds: int, bj: int, rj: int, level: int) -> float:
    """Cost of playing the cards by rank: bombs, full houses, triples, pairs, singles."""
    singles = pairs = triples = bombs = 0
    weak = 0.0
    for r in range(13):
        n = nat[r]
        if not n:
            continue
        power = rank_power(r, level)
        if n >= 4:
            bombs += 1
        elif n == 3:
            triples += 1
        elif n == 2:
            pairs += 1
            weak += max(0, 8 - power) * 0.01
        else:
            singles += 1
            weak += max(0, 10 - power) * 0.03
    if bj == 2 and rj == 2:
        bombs += 1
    else:
        pairs += (bj == 2) + (rj == 2)
        singles += (bj == 1) + (rj == 1)
    full = min(triples, pairs)
    # a wildcard is a strong single (a level card); half a play
    return singles + pairs + triples - full + bombs * 0.6 + wilds * 0.5 + weak


def plan_hand(counts: list[int], level: int) -> Plan:
    """The greedy fewest-plays decomposition of a hand (54 counts)."""
    nat, wilds = rank_counts(counts, level)
    bj, rj = counts[BJ], counts[RJ]
    plan = Plan(cost=groups_cost(nat, wilds, bj, rj, level), wilds=wilds, jokers=(bj, rj))
    taken = 0.0
    while True:
        best: tuple[float, Seq, list[int], int] | None = None
        for kind, windows in _WINDOWS.items():
            per = _PER[kind]
            for top, ranks in windows:
                deficit = 0
                for r in ranks:
                    if nat[r] < per:
                        deficit += per - nat[r]
                    if nat[r] >= 4 and nat[r] - per < 4:
                        deficit += 9  # never break a bomb for a sequence
                if deficit > wilds:
                    continue
                rest = list(nat)
                for r in ranks:
                    rest[r] = max(0, rest[r] - per)
                cost = taken + 1 + groups_cost(rest, wilds - deficit, bj, rj, level)
                if best is None or cost < best[0] - 1e-9:
                    best = (cost, (kind, top, ranks, per), rest, wilds - deficit)
        if best is None or best[0] >= plan.cost - 1e-9:
            break
        plan.cost = best[0]
        plan.sequences.append(best[1])
        nat, wilds = best[2], best[3]
        taken += 1
    plan.groups = {r: n for r, n in enumerate(nat) if n}
    plan.wilds = wilds
    return plan


def hand_cost(counts: list[int], level: int) -> float:
    return plan_hand(counts, level).cost
