"""The three Guandan bot levels (docs/bots.md, "Guandan"; rules GD-24 … GD-33, GD-53).

- easy: legal, cheap moves: leads its lowest single, follows with the weakest
  answer of the same kind, never bombs, never thinks about its partner.
- normal: plans its hand into the fewest plays (planner), leads the weakest
  planned play, follows only when that does not break its plan, lets its
  partner's plays stand; bomb timing: a bomb only against an opponent left with
  three cards or fewer, or when the bomb buys the finish.
- hard: normal, but leads the kind its plan holds most plays of (lowest first),
  answers opponents more readily, plus partnership (never overtakes a partner's winning play
  unless that play empties its own hand; feeds a partner left with one or two
  cards), avoids leading singles or pairs into an opponent with that few cards,
  card counting (closes out with plays no unseen card can beat: jokers, level
  cards, wildcards and bombs seen). Then a determinized search (search module):
  its heuristic move and a few alternatives are played out by the normal policy
  on sampled hidden hands, and a clearly better alternative overrules it. Given a
  time budget it samples until its deadline; without one, a small fixed search.
"""

from __future__ import annotations

import random
from typing import Any

from cardgames.bots.budget import Budget, Deadline
from cardgames.bots.memoryless import Memoryless
from cardgames.engines.guandan.cards import BJ, RJ, rank_power
from cardgames.engines.guandan.combos import (
    FULL_HOUSE,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    TUBE,
    bomb_strength,
)

from .common import JSON, Ctx, Move, choose_return, distinct, lowest_single, parse
from .planner import hand_cost, plan_hand

READY: JSON = {"type": "ready"}
PASS: JSON = {"type": "pass"}
_SEQ_KIND = {"straight": STRAIGHT, "tube": TUBE, "plate": PLATE}


class _Base(Memoryless):
    """Shared dispatch: the return pick, the pause between deals, then play."""

    def act(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        return self.act_by(view, legal, rng, Deadline(None))

    def act_by(self, view: JSON, legal: list[JSON], rng: random.Random, deadline: Deadline) -> JSON | None:
        """``act`` with the moment the answer is due (only a searching bot looks at it)."""
        if not legal:
            return None
        kinds = {a["type"] for a in legal}
        if kinds <= {"ready"}:
            return READY
        if kinds & {"return", "confirm"}:
            return choose_return(view, legal)
        ctx = parse(view, legal)
        if not ctx.moves:
            return PASS
        move = self.play(ctx, rng, deadline)
        return PASS if move is None else move.action

    def play(self, ctx: Ctx, rng: random.Random, deadline: Deadline) -> Move | None:
        """The play to make (None: pass)."""
        return self.lead(ctx, rng) if ctx.table is None else self.follow(ctx, rng)

    def lead(self, ctx: Ctx, rng: random.Random) -> Move:
        raise NotImplementedError

    def follow(self, ctx: Ctx, rng: random.Random) -> Move | None:
        raise NotImplementedError


class EasyBot(_Base):
    """Legal and cheap: lowest single to lead, the weakest same-kind answer to follow."""

    def lead(self, ctx: Ctx, rng: random.Random) -> Move:
        return lowest_single(ctx) or ctx.moves[0]

    def follow(self, ctx: Ctx, rng: random.Random) -> Move | None:
        plain = [m for m in ctx.moves if not m.bomb]
        wc = ctx.level * 4 + 1
        return min(plain, key=lambda m: (ctx.power(m), wc in m.cards, m.cards), default=None)


class NormalBot(_Base):
    """Fewest plays: lead from the plan, follow without breaking it, let the partner's plays stand."""

    slack = 0.6  # how much worse the plan may get to answer an opponent
    long_leads = False
    long_below = 9
    control = 0.0  # hard: extra plan cost accepted for an unbeatable answer
    kind_leads = False

    def lead(self, ctx: Ctx, rng: random.Random) -> Move:
        return self.planned_lead(ctx) or ctx.moves[0]

    def planned_lead(self, ctx: Ctx, prefer_high: bool = False) -> Move | None:
        """The weakest play of the hand's plan (or the strongest one, when closing out)."""
        targets = planned_interps(ctx)
        by_interp: dict[tuple[int, int], list[Move]] = {}
        for m in ctx.moves:
            by_interp.setdefault((m.interp[0], m.interp[1]), []).append(m)
        options = [(key, by_interp[key]) for key in targets if key in by_interp]
        if not options:
            # only bombs are planned (or the plan found nothing): the whole hand if it is one play,
            # else the weakest bomb, never a piece of one
            done = self.finishing(ctx)
            if done is not None:
                return done
            bombs = [m for m in ctx.moves if m.bomb]
            if bombs:
                return min(bombs, key=lambda m: (bomb_strength(m.interp, ctx.level), m.cards))
            return None
        pick = max if prefer_high else min
        if self.kind_leads and not prefer_high:
            # lead the kind the plan holds most of (answers come back in that kind), lowest first
            per_kind: dict[int, int] = {}
            for key, _ in options:
                per_kind[key[0]] = per_kind.get(key[0], 0) + 1
            best_kind = max(per_kind, key=lambda k: (per_kind[k], -k))
            options = [item for item in options if item[0][0] == best_kind]

        def order(item: tuple[tuple[int, int], list[Move]]) -> tuple[int, ...]:
            move = item[1][0]
            if self.long_leads and not prefer_high:
                # shed the long, low plays first: they are the hardest to answer
                return ctx.power(move) >= self.long_below, -len(move.cards), ctx.power(move)
            return ctx.power(move), -len(move.cards)

        _, moves = pick(options, key=order)
        return best_fit(ctx, moves)

    def follow(self, ctx: Ctx, rng: random.Random) -> Move | None:
        if ctx.table_seat == ctx.partner:
            return self.finishing(ctx)
        return self.answer(ctx, self.slack) or self.bomb_if_needed(ctx, threshold=3)

    def finishing(self, ctx: Ctx) -> Move | None:
        """A play that empties the hand, if any (always worth making)."""
        total = sum(ctx.hand)
        return next((m for m in ctx.moves if len(m.cards) == total), None)

    def answer(self, ctx: Ctx, slack: float) -> Move | None:
        """The same-kind answer that keeps the plan best, if it costs at most ``slack`` extra."""
        plain = [m for m in ctx.moves if not m.bomb]
        if not plain:
            return None
        done = self.finishing(ctx)
        if done is not None:
            return done
        now = hand_cost(ctx.hand, ctx.level)
        candidates = sorted(distinct(plain, ctx.level), key=ctx.power)[:16]
        scored = [(ctx.cost_after(m) + 0.02 * ctx.power(m), m) for m in candidates]
        score, move = min(scored, key=lambda x: (x[0], x[1].cards))
        if score - 0.02 * ctx.power(move) > now - 1 + slack:
            return None
        if self.control:
            # card counting: an answer nobody can beat (bombs aside) wins the lead back; worth a little
            boss = [(sc, m) for sc, m in scored if sc <= score + self.control and self.unbeatable(ctx, m)]
            if boss:
                return min(boss, key=lambda x: (x[0], x[1].cards))[1]
        return move

    def bomb_if_needed(self, ctx: Ctx, threshold: int) -> Move | None:
        """The weakest bomb, when the table's opponent is close to going out or the bomb wins the deal."""
        bombs = [m for m in ctx.moves if m.bomb]
        if not bombs or ctx.table_seat is None or (ctx.table_seat - ctx.seat) % 2 == 0:
            return None
        weakest = min(bombs, key=lambda m: (bomb_strength(m.interp, ctx.level), m.cards))
        owner = ctx.counts[ctx.table_seat]
        close = owner is not None and owner <= threshold
        if close or plan_hand(ctx.after(weakest), ctx.level).cost <= 1.5:
            return weakest
        return None

    def unbeatable(self, ctx: Ctx, move: Move) -> bool:
        """Card counting: no unseen card could beat this single or pair (bombs aside)."""
        kind = move.interp[0]
        if kind not in (SINGLE, PAIR, TRIPLE, FULL_HOUSE):
            return False
        need = {SINGLE: 1, PAIR: 2, TRIPLE: 3, FULL_HOUSE: 3}[kind]
        power = ctx.power(move)
        unseen = unseen_counts(ctx)
        wc = ctx.level * 4 + 1
        for r in range(15):
            if rank_power(r, ctx.level) <= power:
                continue
            if r >= 13:
                held = unseen[BJ if r == 13 else RJ]
                if kind in (SINGLE, PAIR) and held >= need:
                    return False
                continue
            natural = sum(unseen[r * 4 + s] for s in range(4) if r * 4 + s != wc)
            if natural + unseen[wc] >= need:
                return False
        return True


class HardBot(NormalBot):
    """Normal, plus partnership, bomb timing, card counting, and a determinized search (``search``)
    that may overrule those heuristics when its play-outs say so clearly."""

    #: it takes a time budget (``cardgames.bots.get_bot``)
    searches = True

    #: measured with bench/guandan_bots.py over 300–600 deals each: answering harder when an
    #: opponent is close, bombing at 4–5 cards left, sparing jokers and level cards early, and
    #: "supporting" a partner who is closer to going out did not beat normal, so they are not here
    flags = frozenset({"search", "feed", "boss", "avoid"})
    kind_leads = True  # +6–7 points of deals against normal (bench/guandan_bots.py)
    slack = 1.2  # answers opponents more readily than normal (0.3 … 3.5 measured; 1.2 did best)

    def __init__(self, *, budget: Budget | None = None) -> None:
        """``budget`` None: the search's fixed size in small positions, no clock (deterministic)."""
        self.budget = budget

    def act(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        return self.act_by(view, legal, rng, Deadline(self.budget))  # the clock starts when asked

    def play(self, ctx: Ctx, rng: random.Random, deadline: Deadline) -> Move | None:
        move = super().play(ctx, rng, deadline)
        partner = ctx.table is not None and ctx.table_seat == ctx.partner  # never overtaken
        out = move is not None and len(move.cards) == sum(ctx.hand)  # going out: nothing to weigh
        if "search" in self.flags and not partner and not out:
            from .search import search

            move = search(ctx, move, rng, deadline)
        return move

    def lead(self, ctx: Ctx, rng: random.Random) -> Move:
        partner_count = ctx.counts[ctx.partner] if ctx.partner not in ctx.finished else None
        opp_min = ctx.min_opponent_count()
        if "feed" in self.flags and partner_count is not None and partner_count <= 2 and opp_min > 2:
            fed = self.feed(ctx, partner_count)
            if fed is not None:
                return fed
        plan = plan_hand(ctx.hand, ctx.level)
        if "boss" in self.flags and plan.cost <= 2.5:
            # closing out: lead what nobody can beat first, keep the last play for the end
            boss = [m for m in ctx.moves if not m.bomb and self.unbeatable(ctx, m)]
            if boss:
                return max(boss, key=lambda m: (len(m.cards), m.cards))
        move = self.planned_lead(ctx)
        if "avoid" in self.flags and move is not None and opp_min <= 2 and len(move.cards) <= opp_min:
            # an opponent about to go out: avoid giving them a small single or pair
            other = [m for m in ctx.moves if not m.bomb and len(m.cards) > opp_min]
            if other:
                return min(distinct(other, ctx.level), key=lambda m: (ctx.cost_after(m), ctx.power(m)))
            return max((m for m in ctx.moves if not m.bomb), key=ctx.power, default=move)
        return move or ctx.moves[0]

    def feed(self, ctx: Ctx, partner_count: int) -> Move | None:
        """Give the lead-winning partner an easy trick: our lowest single or pair."""
        kind = SINGLE if partner_count == 1 else PAIR
        small = [m for m in ctx.moves if m.interp[0] == kind]
        if not small and kind == PAIR:
            small = [m for m in ctx.moves if m.interp[0] == SINGLE]
        return min(small, key=lambda m: (ctx.power(m), m.cards), default=None)

    def follow(self, ctx: Ctx, rng: random.Random) -> Move | None:
        done = self.finishing(ctx)
        if done is not None:
            return done
        if ctx.table_seat == ctx.partner:
            return None  # never overtake the partner's winning play
        return self.answer(ctx, self.slack) or self.bomb_if_needed(ctx, threshold=3)


def planned_interps(ctx: Ctx) -> list[tuple[int, int]]:
    """(kind, rank) of every non-bomb play the plan makes (sequences, then groups)."""
    plan = plan_hand(ctx.hand, ctx.level)
    out = [(_SEQ_KIND[kind], top) for kind, top, _, _ in plan.sequences]
    groups = plan.groups
    triples = sorted((r for r, n in groups.items() if n == 3), key=lambda r: rank_power(r, ctx.level))
    pairs = sorted((r for r, n in groups.items() if n == 2), key=lambda r: rank_power(r, ctx.level))
    for i, t in enumerate(triples):
        out.append((FULL_HOUSE, t) if i < len(pairs) else (TRIPLE, t))
    for i, p in enumerate(pairs):
        if i >= len(triples):
            out.append((PAIR, p))
    out += [(SINGLE, r) for r, n in groups.items() if n == 1]
    bj, rj = plan.jokers
    if not (bj == 2 and rj == 2):
        out += [(PAIR, 13)] * (bj == 2) + [(PAIR, 14)] * (rj == 2)
        out += [(SINGLE, 13)] * (bj == 1) + [(SINGLE, 14)] * (rj == 1)
    if plan.wilds:
        out.append((SINGLE, ctx.level))
    return out


def best_fit(ctx: Ctx, moves: list[Move]) -> Move:
    """Among moves of one interpretation, the one that leaves the best hand (fewest wildcards)."""
    wc = ctx.level * 4 + 1
    options = distinct(moves, ctx.level)
    if len(options) == 1:
        return options[0]
    return min(options[:8], key=lambda m: (m.cards.count(wc), ctx.cost_after(m), m.cards))


def unseen_counts(ctx: Ctx) -> list[int]:
    """Copies of each code not in our hand, not discarded and not on the table."""
    from cardgames.engines.guandan.cards import INDEX

    left = [2] * 54
    for c, n in enumerate(ctx.hand):
        left[c] -= n
    for code in ctx.view.get("discards") or []:
        left[INDEX[code]] -= 1
    for entry in ctx.view.get("trick") or []:
        for code in entry.get("cards", []):
            left[INDEX[code]] -= 1
    return [max(0, n) for n in left]
