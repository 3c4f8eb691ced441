"""Pika bots at three levels (docs/bots.md, "Pika"); they see only ``view`` and ``legal``.

- easy: a random legal move; forgets the Pika call one countdown in five (as PF-50 has One Card's
  AI), decided once per countdown.
- normal: one rule of thumb: black cards and +2s kept for when nothing else fits, the colour
  held most after the move, the cheaper chaining card first; 30 % of its moves are random, which
  places it between easy and hard (docs/bots.md); forgets Pika 5 % of the time.
- hard: scores every legal move with the heuristics of good shedding play: black cards kept
  for when nothing else fits (always playable, and a +4 answers any stack), +2s kept as shields
  unless several are held; a hand left that can follow (a card of the new colour, many distinct
  values); the colour a rival near out drew on (``view["drew_on"]``, PK-51); +2/+4, Skip and
  Reverse aimed at a rival close to going out; a Wild saved as the last card and a +2/+4 never
  left as the last one (PK-39); on a stack, a +2 before a +4, and the +4's colour where rivals
  are least likely to chain; a playable drawn card played; Pika always called. Built in but off
  (``HardBot.search = False``; paired gains within noise, docs/bots.md): once a rival holds 3
  cards or fewer, an information-set Monte Carlo search (``_search``) checks the best-scored few
  moves: hidden cards dealt as the view makes likely (random players shed black cards; a seat
  that drew on a colour lacked it), rollouts with hard's own scoring for itself and rivals that
  move half at random (easy) and half by normal's rule, and the heuristic's move kept unless
  another clearly wins more rollouts on the same deals.

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

    def __init__(self) -> None:
        self._forgetting: bool | None = None  # the decision for the running countdown

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        moves = [a for a in legal if a["type"] != "call_pika"]
        if len(moves) == len(legal):
            self._forgetting = None  # no countdown of mine: the next one is decided afresh
        else:
            if self._forgetting is None:  # once per countdown: asking again does not re-roll
                self._forgetting = rng.random() < self.forget_pika
            if not self._forgetting:
                return {"type": "call_pika"}
        if not moves:
            return None  # only the optional call was open, and it was forgotten
        return self.pick(view, moves, rng)

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
    """Scores each move; ties broken at random. The endgame search (``_search``) is off.

    On the bench seeds 0-1999 the search measured +1.2 points against easy and +1.1 against
    normal (paired 95 % CIs [-0.4, +2.9] and [-0.2, +2.5]); on seeds 100000-102999, -0.5
    [-1.8, +0.7] and +0.5 [-0.6, +1.6]: no real gain, so the plain heuristic plays.
    """

    forget_pika = 0.0
    search = False  # True: search in the endgame (p99 ~35 ms a decision, 2 cores, load ~4)
    search_below = 3  # search only while some rival holds at most this many cards (the endgame)
    search_moves = 4  # the best-scored moves the search compares
    search_deals = 80  # at most this many deals, each move rolled out once on each
    search_min_deals = 10  # ... and at least this many, whatever the step budget
    search_steps = 3_500  # rollout moves per decision: bounds the time (p99 < 200 ms, loaded)
    search_z = 2.0  # a move replaces the heuristic's by this many standard errors of the gain

    def pick(self, view: View, moves: list[Action], rng: random.Random) -> Action:
        if len(moves) == 1:
            return moves[0]
        table = _Table(view)
        ranked = sorted(moves, key=lambda a: (table.score(a), rng.random()), reverse=True)
        if not self.search or table.danger > self.search_below:
            return ranked[0]
        return _search(view, ranked[: self.search_moves], self, rng)


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


# -- the search --------------------------------------------------------------------------------
# Information-set Monte Carlo with a gate: deal the unseen cards again as the view makes likely,
# play each compared move on the same deals, roll out to the end on the engine's own transition
# functions (hard's own scoring for the bot; for the rivals easy's random move or normal's rule,
# half and half, as the view does not tell the levels apart: with easy's policy alone the search
# gained 2.2 points against easy but lost 1.1 against normal, seeds 0-1999), and leave the
# heuristic's move only for one that beats it on the same deals by ``search_z`` standard errors.
# A private state the bot builds; it never sees the real one.
#
# Dealing weights (how much likelier than an average unseen card a card is to sit in a rival's
# hand): measured at hard's decisions in hard-vs-easy and hard-vs-normal games, 1,500 seeds each.
# Random players shed black cards fast (four legal moves each), and a seat that drew on a colour
# held none of it, nor any black card, at that moment.
_W_BLACK = 0.4  # a black card, in the hand of a seat that has not drawn (easy 0.3, normal 0.55)
_W_BLACK_DREW = 0.06  # ... of a seat that drew on some colour (easy 0.06, normal 0.08)
_W_DREW_ON = 0.3  # a card of a colour the seat drew on (easy 0.29, normal 0.22, per other card)
_W_DRAW2 = 0.8  # a +2, in the hand of a seat that has not drawn (easy 0.75, normal 1.0)
_MAX_STEPS = 600
_RIVAL_RANDOM = 0.5  # rivals' moves in rollouts: this share easy's (random), the rest normal's rule


def _search(view: View, candidates: list[Action], bot: HardBot, rng: random.Random) -> Action:
    """``candidates[0]`` (the heuristic's move) unless another clearly wins more rollouts."""
    me: int = view["seat"]
    results: list[list[float]] = [[] for _ in candidates]
    steps = 0
    for deal in range(bot.search_deals):
        if steps >= bot.search_steps and deal >= bot.search_min_deals:
            break
        base = _determinize(view, rng)
        seed = rng.randrange(1 << 30)
        for i, action in enumerate(candidates):
            card = action.get("card")
            if card is None:  # keep: the only other move offered with a choice
                state = moves.keep(base, me)[0]
            else:
                state = moves.play(base, me, card, action.get("colour") or COLOUR[card])[0]
            won, used = _playout(state, me, random.Random(seed))
            results[i].append(won)
            steps += used
    best, gain = 0, 0.0
    first = results[0]
    k = len(first)
    for i in range(1, len(candidates)):
        diffs = [a - b for a, b in zip(results[i], first, strict=True)]
        mean = sum(diffs) / k
        if mean <= gain:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        if var == 0.0 or mean > bot.search_z * (var / k) ** 0.5:
            best, gain = i, mean
    return candidates[best]


def _weight(card: str, lacked: str) -> float:
    """How likely ``card`` is in the hand of a rival that drew on ``lacked``, relatively."""
    if card in BLACK:
        return _W_BLACK_DREW if lacked else _W_BLACK
    if COLOUR[card] in lacked:
        return _W_DREW_ON
    if not lacked and VALUE[card] == DRAW2:
        return _W_DRAW2
    return 1.0


def _determinize(view: View, rng: random.Random) -> PikaState:
    """A full state consistent with ``view``: rivals' hands, stock and discard dealt at random.

    Each rival's hand is a weighted sample without replacement from the unseen cards (rejection:
    a random card is kept with its weight as chance); the rest, shuffled, is stock and discard.
    """
    me: int = view["seat"]
    hand: list[str] = view["hand"]
    counts: list[int] = view["hand_counts"]
    pool_count = DECK_COUNTS.copy()
    pool_count.subtract(hand)
    pool_count[view["top"]] -= 1
    pool = list(pool_count.elements())
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    rand, below = rng.random, rng.randrange
    for seat, lacked_list in enumerate(view["drew_on"]):
        if seat == me:
            hands.append(tuple(hand))
            continue
        lacked = "".join(lacked_list)
        got: list[str] = []
        while len(got) < counts[seat] and pool:  # each card drawn with chance ~ its weight
            i = below(len(pool))
            card = pool[i]
            if rand() < _weight(card, lacked):
                got.append(card)
                pool[i] = pool[-1]
                pool.pop()
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
    return _playout(st, me, rng)[0]


def _playout(st: PikaState, me: int, rng: random.Random) -> tuple[float, int]:
    """``_rollout``'s result and the number of moves it took.

    Everybody calls Pika in these rollouts: the model was fitted before the driver's clock
    (``cardgames.bots.driver``) made easy's one-in-five lapse cost the penalty; the search is off.
    """
    for step in range(_MAX_STEPS):
        if st.phase == OVER:
            winners = moves.result(st)["winners"]
            return (1.0 / len(winners) if me in winners else 0.0), step
        if any(st.pika):
            for seat, serial in enumerate(st.pika):
                if serial:
                    st = moves.call_pika(st, seat)[0]
            continue
        seat = st.turn
        if seat == me:
            move = _hard_move(st, seat, rng)
        elif rng.random() < _RIVAL_RANDOM:
            move = _easy_move(st, seat, rng)
        else:
            move = _normal_move(st, seat, rng)
        if move is not None:
            st = moves.play(st, seat, move[0], move[1])[0]
        elif st.phase == AFTER_DRAW:
            st = moves.keep(st, seat)[0]
        elif st.stack:
            st = moves.take_stack(st, seat)[0]
        else:
            st = moves.draw(st, seat)[0]
    return 0.0, _MAX_STEPS


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


def _normal_move(st: PikaState, seat: int, rng: random.Random) -> tuple[str, str] | None:
    """NormalBot's rule on a raw state (None: draw/take): most held of the new colour, cheap card."""
    hand = st.hands[seat]
    if st.phase == AFTER_DRAW:
        options: list[str] = [st.drawn]  # type: ignore[list-item]
    else:
        ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
        options = [card for card in dict.fromkeys(hand) if card in ok]
        if not options:
            return None
    held = dict.fromkeys(COLOURS, 0)
    for card in hand:
        if COLOUR[card]:
            held[COLOUR[card]] += 1
    costs = NormalBot.costs
    scored: list[tuple[float, str, str]] = []
    for card in options:
        own = COLOUR[card]
        cost = costs.get(card, NormalBot.cost_d2 if VALUE[card] == DRAW2 else 0.0)
        for colour in (own,) if own else COLOURS:
            scored.append((held[colour] - (own == colour) - cost, card, colour))
    top = max(scored)[0]
    best = [m for m in scored if m[0] == top]
    _, card, colour = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
    return card, colour


def _hard_move(st: PikaState, seat: int, rng: random.Random) -> tuple[str, str] | None:
    """HardBot's choice on a raw state (None: draw/take/keep), the scores of ``_Table``.

    The same numbers as ``_Table.score`` from counts kept once per hand; ties at random.
    """
    hand = st.hands[seat]
    if st.phase == AFTER_DRAW:
        options: list[str] = [st.drawn]  # type: ignore[list-item]
    else:
        ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
        options = [card for card in dict.fromkeys(hand) if card in ok]
        if not options:
            return None
    t = _Table
    counts = [len(h) for h in st.hands]
    n = len(counts)
    nxt = (seat + st.direction) % n
    drew_nxt = st.drew_on[nxt]
    held = dict.fromkeys(COLOURS, 0)
    values: dict[str, int] = {}
    blacks = shields = 0
    for card in hand:
        colour = COLOUR[card]
        if colour:
            held[colour] += 1
        else:
            blacks += 1
        value = VALUE[card]
        values[value] = values.get(value, 0) + 1
        if card == WILD4 or value == DRAW2:
            shields += 1
    scored: list[tuple[float, str, str]] = []
    left = len(hand) - 1
    if st.stack:  # _Table._chain
        for card in options:
            if card != WILD4:
                scored.append((0.0, card, COLOUR[card]))
                continue
            for colour in COLOURS:
                score = -3.0 + 2.0 * hand.count(colour + DRAW2) + 0.5 * held[colour]
                scored.append((score + 1.5 * bool(drew_nxt & COLOUR_BIT[colour]), card, colour))
    else:  # _Table._play
        threat = counts[nxt] <= 2
        danger = min(counts[s] for s in range(n) if s != seat)
        prev = (seat - st.direction) % n
        for card in options:
            value = VALUE[card]
            own = COLOUR[card]
            colours = (own,) if own else COLOURS
            if not left:
                part = 100.0 if value not in (DRAW2, WILD4) else 60.0
                scored += [(part, card, colour) for colour in colours]
                continue
            part = t.w_values * (len(values) - (values[value] == 1)) + t.w_black_kept * (blacks - (not own))
            if card == WILD4:
                part -= t.cost_w4
            elif card == WILD:
                part -= t.cost_w if left > 1 else t.cost_w_last
            elif value == DRAW2:
                part -= t.cost_d2 if shields <= t.shields_few else t.cost_d2_many
            if threat or danger <= 1:
                if value in (DRAW2, WILD4):
                    part += t.hit_draw if threat else t.hit_draw_far
                elif value == SKIP and threat:
                    part += t.hit_skip
                elif value == REVERSE and threat:
                    behind = counts[prev] > counts[nxt]
                    part += t.hit_skip if n == 2 else t.hit_skip / 2 + behind
            if left == 1:
                last = hand[1] if hand[0] == card else hand[0]
                if last == WILD4 or VALUE[last] == DRAW2:
                    part -= t.last_draw_card
                elif last == WILD:
                    part += t.last_wild
            for colour in colours:
                kept = held[colour] - (own == colour)
                score = part + t.w_held * kept + t.w_has_colour * (kept > 0)
                if drew_nxt & COLOUR_BIT[colour]:
                    score += t.w_drew_on_threat if threat else t.w_drew_on
                scored.append((score, card, colour))
    top = max(scored)[0]
    if st.phase == AFTER_DRAW and t.keep_value > top:
        return None  # keep
    best = [m for m in scored if m[0] == top]
    _, card, colour = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
    return card, colour


BOTS: dict[str, type[EasyBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot"]
