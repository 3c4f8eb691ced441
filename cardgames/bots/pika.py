"""Pika bots at three levels (docs/bots.md, "Pika"); they see only ``view`` and ``legal``.

- easy: a random legal move; forgets the Pika call one countdown in five (as PF-50 has One Card's
  AI), decided once per countdown (the bot's memory ``forgetting``, passed in and returned).
- normal: one rule of thumb: black cards and +2s kept for when nothing else fits, the colour
  held most after the move, the cheaper chaining card first; 30 % of its moves are random, which
  places it between easy and hard (docs/bots.md); forgets Pika 5 % of the time.
- hard: scores every legal move with the heuristics of good shedding play: black cards kept
  for when nothing else fits (always playable, and a +4 answers any stack), +2s kept as shields
  unless several are held; a hand left that can follow (a card of the new colour, many distinct
  values); the colour a rival near out drew on (``view["drew_on"]``, PK-51); +2/+4, Skip and
  Reverse aimed at a rival close to going out; a Wild saved as the last card and a +2/+4 never
  left as the last one (PK-39); on a stack, a +2 before a +4, and the +4's colour where rivals
  are least likely to chain; a playable drawn card played; Pika always called. Searches over
  the hidden hands were measured and dropped (docs/bots.md: no gain within noise; the last one
  is in the history at commit 98f6178).

Tuned with tournaments (``bench.bots``); the weights are class attributes of ``_Table``.

Bots answer ``None`` only when they need not act (a Pika countdown outside their turn).
"""

from __future__ import annotations

import random
from typing import Any

from cardgames.engines.pika.cards import (
    BLACK,
    COLOUR,
    DRAW2,
    REVERSE,
    SKIP,
    VALUE,
    WILD,
    WILD4,
)

Action = dict[str, Any]
View = dict[str, Any]


class EasyBot:
    """Uniformly random among the legal moves."""

    forget_pika = 0.2

    def choose(
        self, view: View, legal: list[Action], rng: random.Random, memory: dict[str, Any]
    ) -> tuple[Action | None, dict[str, Any]]:
        """The move, and the memory: ``forgetting``, the decision for the running countdown."""
        forgetting: bool | None = memory.get("forgetting")
        moves = [a for a in legal if a["type"] != "call_pika"]
        action: Action | None = None
        if len(moves) == len(legal):
            forgetting = None  # no countdown of mine: the next one is decided afresh
        else:
            if forgetting is None:  # once per countdown: asking again does not re-roll
                forgetting = rng.random() < self.forget_pika
            if not forgetting:
                action = {"type": "call_pika"}
        if action is None and moves:  # with no moves, only the optional call was open: forgotten
            action = self.pick(view, moves, rng)
        return action, ({} if forgetting is None else {"forgetting": forgetting})

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        return rng.choice(moves)


class NormalBot(EasyBot):
    """One rule of thumb per decision, no look at the rivals."""

    forget_pika = 0.05
    whim = 0.3  # share of moves made at random: the level between easy and hard (docs/bots.md)
    costs = {WILD4: 3.0, WILD: 2.0}  # what keeping the card is worth, in cards of the colour
    cost_d2 = 1.0

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        if rng.random() < self.whim:
            return rng.choice(moves)
        plays = [a for a in moves if a["type"] == "play"]
        if not plays:
            return moves[0]  # draw or take_stack: the only move
        hand: list[str] = view["hand"]
        return max(plays, key=lambda a: (self.value(a, hand), rng.random()))

    def value(self, action: Action, hand: list[str]) -> float:
        """Cards of the new active colour left in hand, less the worth of the card played."""
        card = action["card"]
        colour = action.get("colour") or COLOUR[card]
        held = sum(1 for c in hand if COLOUR[c] == colour) - (COLOUR[card] == colour)
        return held - self.costs.get(card, self.cost_d2 if VALUE[card] == DRAW2 else 0.0)


class HardBot(EasyBot):
    """Scores each move; ties broken at random."""

    forget_pika = 0.0

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        if len(moves) == 1:
            return moves[0]
        table = _Table(view)
        return max(moves, key=lambda a: (table.score(a), rng.random()))


class _Table:
    """What a hard bot reads off its view, and the score of one move."""

    def __init__(self, view: View) -> None:
        self.hand: list[str] = view["hand"]
        self.me: int = view["seat"]
        self.counts: list[int] = view["hand_counts"]
        self.n = len(self.counts)
        self.direction: int = view["direction"]
        self.stack: int = view["stack"]
        self.drew_on: list[list[str]] = view.get("drew_on") or [[] for _ in range(self.n)]
        self.next = (self.me + self.direction) % self.n
        self.prev = (self.me - self.direction) % self.n
        self.danger = min(self.counts[s] for s in range(self.n) if s != self.me)
        self.shields = sum(1 for c in self.hand if c == WILD4 or VALUE[c] == DRAW2)
        drawn_pos = view.get("drawn_pos")
        self.drawn = self.hand[drawn_pos] if drawn_pos is not None else None

    def score(self, action: Action) -> float:
        kind = action["type"]
        if kind == "keep":
            return self._keep()
        if kind != "play":
            return 0.0  # draw / take_stack are only ever legal alone
        card: str = action["card"]
        colour: str = action.get("colour") or COLOUR[card]
        if self.stack:
            return self._chain(card, colour)
        return self._play(card, colour)

    # -- the parts of a score --------------------------------------------------------
    def _rest(self, card: str) -> list[str]:
        rest = list(self.hand)
        rest.remove(card)
        return rest

    # weights, in "cards" of a score, tuned with tournaments (docs/bots.md)
    w_held = 0.3  # per card of the new active colour kept in hand
    w_has_colour = 2.0  # some card of the new active colour is kept
    w_values = 1.0  # per distinct value still held
    w_black_kept = 0.4  # per black card kept in hand
    w_drew_on = 1.0  # the next seat drew on the new colour
    w_drew_on_threat = 2.5  # ... and it is close to going out
    cost_w4 = 30.0
    cost_w = 15.0
    cost_w_last = 0.5
    cost_d2 = 2.5
    cost_d2_many = 1.0
    shields_few = 2  # up to this many +2/+4 in hand, a +2 is kept as a shield
    hit_draw = 9.0  # +2/+4 on a next seat with <= 2 cards
    hit_draw_far = 3.0  # +2/+4 when some other seat has 1 card
    hit_skip = 6.0
    last_draw_card = 5.0  # penalty for keeping only a +2/+4
    last_wild = 2.0
    keep_value = -4.0

    def _play(self, card: str, colour: str) -> float:
        value = VALUE[card]
        rest = self._rest(card)
        nxt = self.next
        threat = self.counts[nxt] <= 2  # the next seat could go out soon
        score = 0.0
        if not rest:
            return 100.0 if value not in (DRAW2, WILD4) else 60.0  # PK-38 / PK-39
        # keep the active colour one we can follow and rivals could not
        held = sum(1 for c in rest if COLOUR[c] == colour)
        score += self.w_held * held + self.w_has_colour * (held > 0)
        score += self.w_values * len({VALUE[c] for c in rest})
        score += self.w_black_kept * sum(1 for c in rest if c in BLACK)
        if colour in self.drew_on[nxt]:
            score += self.w_drew_on_threat if threat else self.w_drew_on
        # the value of the card kept in hand instead
        if card == WILD4:
            score -= self.cost_w4
        elif card == WILD:
            score -= self.cost_w if len(rest) > 1 else self.cost_w_last
        elif value == DRAW2:
            score -= self.cost_d2 if self.shields <= self.shields_few else self.cost_d2_many
        # aimed at a seat close to going out
        if threat or self.danger <= 1:
            if value in (DRAW2, WILD4):
                score += self.hit_draw if threat else self.hit_draw_far
            elif value == SKIP and threat:
                score += self.hit_skip
            elif value == REVERSE and threat:
                # with 3+ players the turn goes back to the previous seat instead
                behind = self.counts[self.prev] > self.counts[nxt]
                score += self.hit_skip if self.n == 2 else self.hit_skip / 2 + behind
        # PK-39: never be left with only a +2/+4, which cannot end the round
        if len(rest) == 1 and (rest[0] == WILD4 or VALUE[rest[0]] == DRAW2):
            score -= self.last_draw_card
        if len(rest) == 1 and rest[0] == WILD:
            score += self.last_wild  # a Wild fits any table without a stack: a safe last card
        return score

    def _chain(self, card: str, colour: str) -> float:
        """On a stack: chain with the cheaper card; name the colour rivals can least chain."""
        score = 0.0 if card != WILD4 else -3.0
        if card == WILD4:
            rest = self._rest(card)
            mine = sum(1 for c in rest if c == colour + DRAW2)  # +2s of it nobody else holds
            score += 2.0 * mine + 0.5 * sum(1 for c in rest if COLOUR[c] == colour)
            if colour in self.drew_on[self.next]:
                score += 1.5
        return score

    def _keep(self) -> float:
        """One more card in hand: worth it only for a card whose play scores worse."""
        return self.keep_value


BOTS: dict[str, type[EasyBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot"]
