"""Pika bots at three levels (docs/bots.md, "Pika"); they see only ``view`` and ``legal``.

- easy: a random legal move; forgets the Pika call one time in five (as PF-50 has One Card's AI).
- normal: one rule of thumb: black cards and +2s kept for when nothing else fits, the colour
  held most after the move, the cheaper chaining card first; 20 % of its moves are random, which
  places it between easy and hard (docs/bots.md); forgets Pika 5 % of the time.
- hard: scores every legal move with the heuristics of good shedding play: black cards kept
  for when nothing else fits (always playable, and a +4 answers any stack), +2s kept as shields
  unless several are held; a hand left that can follow (a card of the new colour, many distinct
  values); the colour a rival near out drew on (``view["drew_on"]``, PK-51); +2/+4, Skip and
  Reverse aimed at a rival close to going out; a Wild saved as the last card and a +2/+4 never
  left as the last one (PK-39); on a stack, a +2 before a +4, and the +4's colour where rivals
  are least likely to chain; a playable drawn card played; Pika always called. An
  information-set Monte Carlo endgame search (``_search``) is built in but off
  (``HardBot.search_below = -1``): it measured no gain and broke the 200 ms p99 (docs/bots.md).

Tuned with tournaments (``bench.bots``); the weights are class attributes of ``_Table``.

Bots answer ``None`` only when they need not act (a Pika countdown outside their turn).
"""

from __future__ import annotations

import random
from typing import Any

from cardgames.engines.pika import moves
from cardgames.engines.pika.cards import (
    BLACK,
    CHAINABLE,
    COLOUR,
    COLOUR_BIT,
    COLOURS,
    DECK_COUNTS,
    DRAW2,
    PLAYABLE,
    REVERSE,
    SKIP,
    VALUE,
    WILD,
    WILD4,
)
from cardgames.engines.pika.state import AFTER_DRAW, OVER, TURN, PikaState

Action = dict[str, Any]
View = dict[str, Any]


class EasyBot:
    """Uniformly random among the legal moves."""

    forget_pika = 0.2

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        moves = [a for a in legal if a["type"] != "call_pika"]
        if len(moves) != len(legal) and rng.random() >= self.forget_pika:
            return {"type": "call_pika"}
        if not moves:
            return None  # only the optional call was open, and it was forgotten
        return self.pick(view, moves, rng)

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        return rng.choice(moves)


class NormalBot(EasyBot):
    """One rule of thumb per decision, no look at the rivals."""

    forget_pika = 0.05
    whim = 0.2  # share of moves made at random: the level between easy and hard (docs/bots.md)
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
    """Scores each move; ties broken at random. The endgame search below is off (docs/bots.md)."""

    forget_pika = 0.0
    # Search when some rival holds at most this many cards; -1: never. At 1 the search measured
    # +0.2 points against easy on seeds 0-1999, -1.1 on 100000+, -0.4 against normal (noise), and
    # its p99 exceeded 200 ms on the loaded 2-core machine, so it stays off.
    search_below = -1
    search_moves = 8  # the best-scored moves the search compares
    rollouts = 320  # rollouts per decision, shared among the compared moves (same deals for each)

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        if len(moves) == 1:
            return moves[0]
        table = _Table(view)
        ranked = sorted(moves, key=lambda a: (table.score(a), rng.random()), reverse=True)
        if table.danger > self.search_below:
            return ranked[0]
        return _search(view, ranked[: self.search_moves], self.rollouts, rng)


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


# -- the endgame search ------------------------------------------------------------------------
# Information-set Monte Carlo: deal the unseen cards again consistently with the view (hand counts,
# a colour a rival drew on is mostly absent from its hand), play each compared move on the same
# deals, and roll out to the end with easy's exact policy for the rivals and a quick hard-like
# rule for the bot itself, on the engine's own transition functions (a private state the bot
# builds; it never sees the real one).
_KEEP_DREW_ON = 0.3  # chance a card of a colour its holder drew on is dealt to it all the same
_RIVAL_FORGETS = 0.2  # easy's missed Pika calls, in rollouts
_MAX_STEPS = 400


def _search(view: View, candidates: list[Action], rollouts: int, rng: random.Random) -> Action:
    """The candidate with the most rollout wins (shared firsts count a share)."""
    me: int = view["seat"]
    totals = [0.0] * len(candidates)
    for _ in range(max(8, rollouts // len(candidates))):
        base = _determinize(view, rng)
        seed = rng.randrange(1 << 30)
        for i, action in enumerate(candidates):
            card = action.get("card")
            if card is None:  # keep: the only other move offered with a choice
                state = moves.keep(base, me)[0]
            else:
                state = moves.play(base, me, card, action.get("colour") or COLOUR[card])[0]
            totals[i] += _rollout(state, me, random.Random(seed))
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))  # ties: the better score
    return candidates[best]


def _determinize(view: View, rng: random.Random) -> PikaState:
    """A full state consistent with ``view``: rivals' hands, stock and discard dealt at random."""
    me: int = view["seat"]
    hand: list[str] = view["hand"]
    counts: list[int] = view["hand_counts"]
    pool_count = DECK_COUNTS.copy()
    pool_count.subtract(hand)
    pool_count[view["top"]] -= 1
    pool = list(pool_count.elements())
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    for seat, lacked in enumerate(view["drew_on"]):
        if seat == me:
            hands.append(tuple(hand))
            continue
        k = counts[seat]
        got: list[str] = []
        rest: list[str] = []
        for card in pool:
            if len(got) < k and (COLOUR[card] not in lacked or rng.random() < _KEEP_DREW_ON):
                got.append(card)
            else:
                rest.append(card)
        missing = k - len(got)
        got += rest[:missing]
        pool = rest[missing:]
        hands.append(tuple(got))
    st = PikaState.__new__(PikaState)
    st.seed = rng.randrange(1 << 30)  # the reshuffles of this deal
    st.turn_seconds = None
    st.hands = tuple(hands)
    stock_count: int = view["stock_count"]
    st.stock = tuple(pool[:stock_count])
    st.sp = 0
    st.discard = (*pool[stock_count:], view["top"])
    st.match = view["colour"] + VALUE[view["top"]]
    st.stack = view["stack"]
    st.direction = view["direction"]
    st.turn = me
    drawn_pos = view["drawn_pos"]
    st.phase = TURN if drawn_pos is None else AFTER_DRAW
    st.drawn = None if drawn_pos is None else hand[drawn_pos]
    st.blocked = view["blocked_passes"]
    st.rngc = 1
    st.tserial = 1
    st.pika = (0,) * len(counts)
    st.pserial = 0
    st.drew_on = tuple(sum(COLOUR_BIT[c] for c in lacked) for lacked in view["drew_on"])
    return st


def _rollout(st: PikaState, me: int, rng: random.Random) -> float:
    """Play to the end: 1 for a win of ``me``, a share for a shared first, else 0."""
    for _ in range(_MAX_STEPS):
        if st.phase == OVER:
            winners = moves.result(st)["winners"]
            return 1.0 / len(winners) if me in winners else 0.0
        if any(st.pika):
            for seat, serial in enumerate(st.pika):
                if serial:
                    forgot = seat != me and rng.random() < _RIVAL_FORGETS
                    st = (moves.pika_penalty if forgot else moves.call_pika)(st, seat)[0]
            continue
        seat = st.turn
        move = _quick_move(st, seat, rng) if seat == me else _easy_move(st, seat, rng)
        if move is not None:
            st = moves.play(st, seat, move[0], move[1])[0]
        elif st.phase == AFTER_DRAW:
            st = moves.keep(st, seat)[0]
        elif st.stack:
            st = moves.take_stack(st, seat)[0]
        else:
            st = moves.draw(st, seat)[0]
    return 0.0


def _easy_move(st: PikaState, seat: int, rng: random.Random) -> tuple[str, str] | None:
    """EasyBot's choice on a raw state: uniform over the legal actions (None: draw/take/keep)."""
    if st.phase == AFTER_DRAW:
        card: str = st.drawn  # type: ignore[assignment]
        options = [(card, c) for c in COLOURS] if card in BLACK else [(card, COLOUR[card])]
        i = rng.randrange(len(options) + 1)
        return options[i] if i < len(options) else None
    ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
    acts: list[tuple[str, str]] = []
    seen: set[str] = set()
    for card in st.hands[seat]:
        if card in ok and card not in seen:
            seen.add(card)
            acts += [(card, c) for c in COLOURS] if card in BLACK else [(card, COLOUR[card])]
    return acts[rng.randrange(len(acts))] if acts else None


def _quick_move(st: PikaState, seat: int, rng: random.Random) -> tuple[str, str] | None:
    """A fast hard-like rule for the searching bot in its rollouts."""
    hand = st.hands[seat]
    held = dict.fromkeys(COLOURS, 0)
    for card in hand:
        if COLOUR[card]:
            held[COLOUR[card]] += 1
    most = max(COLOURS, key=lambda c: (held[c], rng.random()))
    if st.phase == AFTER_DRAW:
        card = st.drawn  # type: ignore[assignment]
        return None if card in BLACK else (card, COLOUR[card])
    ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
    options = [card for card in hand if card in ok]
    if not options:
        return None
    if st.stack:  # the cheaper chaining card first
        card = min(options, key=lambda c: c == WILD4)
        return card, COLOUR[card] or most
    if len(hand) == 1:
        return options[0], COLOUR[options[0]] or most

    def worth(card: str) -> float:
        if card in BLACK:
            return held[most] - (30.0 if card == WILD4 else 15.0)
        colour = COLOUR[card]
        return held[colour] + 2.0 * (held[colour] > 1) - 2.5 * (VALUE[card] == DRAW2) + rng.random() / 10

    card = max(options, key=worth)
    return card, COLOUR[card] or most


BOTS: dict[str, type[EasyBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot"]
