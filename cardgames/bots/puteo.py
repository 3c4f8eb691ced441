"""El Puteo bots: easy, normal, hard (docs/bots.md, rules puteo.md).

Every bot sees only ``view(state, seat)`` and the legal actions. Cards are handled as the
engine's card numbers (``4 * strength + suit``, strength 0 = a 2 … 9 = the As, PT-7).

- **easy**: bids its Ases and Reyes (sometimes a random bid), plays a random card.
- **normal**: bids the expected number of tricks (each card's chance that no rival holds a
  stronger one, a hypergeometric estimate), then plays by rule: with tricks still to take, win
  with the cheapest card that beats the trick (lead the strongest); with its bid made, lose
  with the strongest card that still loses (lead the weakest). Blind round: bids 1 when its
  unseen card is more likely than not to beat every visible one.
- **hard**: Monte Carlo. Hidden hands are sampled from the unseen cards (the deck minus its
  hand and every card played this round); for each legal bid it plays the round out with the
  normal policy for everybody and bids the number it most often makes exactly, given the seat
  order and the bids already made. For each card it may play, it rolls the rest of the round
  out on the same samples and plays the card with the best chance of making its bid exactly,
  plus a small bonus for every rival who misses. In the blind round it computes the exact
  chance that its own card (uniform over the cards it cannot see) wins in trick order (PT-8).
  Given a time budget (``cardgames.bots.budget``; 150 ms at live tables) it samples deals until
  its deadline instead of a fixed number, and weights each by how well it explains the rivals'
  bids (``BID_FIT``); with no deal in time it answers as normal does.

``choose`` answers ``{"type": "ready"}`` during the blind-round reveal, so bot tables never wait.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import comb
from typing import Any

from cardgames.bots.budget import Budget, Deadline
from cardgames.bots.memoryless import Memoryless
from cardgames.engines.puteo.cards import CODE_TO_ID, CODES

JSON = dict[str, Any]
_DECK_CLASSIC: tuple[int, ...] = tuple(range(40))
_DECK_BIG: tuple[int, ...] = tuple(c for c in range(40) for _ in range(2))

HARD_BID_SAMPLES = 32
HARD_PLAY_SAMPLES = 20
#: with a time budget the search samples until its deadline, at most this many deals a decision
HARD_MAX_SAMPLES = 4000
RIVAL_MISS_BONUS = 0.15
#: a sampled deal's weight is multiplied by this for each trick by which a rival's rule bid on its
#: sampled cards misses the bid it made (the timed search only)
BID_FIT = 0.25


# -- reading the view ------------------------------------------------------------
class Table:
    """What a seat knows, decoded from its view once per decision."""

    __slots__ = (
        "bids",
        "hand",
        "hand_counts",
        "leader",
        "live",
        "me",
        "n_r",
        "nxt",
        "played",
        "trick",
        "won",
    )

    def __init__(self, view: JSON) -> None:
        self.me: int = view["seat"]
        alive = view["alive"]
        self.live: list[int] = [s for s, a in enumerate(alive) if a]
        n = len(alive)
        self.nxt: list[int] = [0] * n
        for i, s in enumerate(self.live):
            self.nxt[s] = self.live[(i + 1) % len(self.live)]
        self.n_r: int = view["cards_per_player"]
        self.hand: list[int] = sorted(CODE_TO_ID[c] for c in view["hand"])
        self.hand_counts: list[int] = list(view["hand_counts"])
        self.bids: list[int | None] = list(view["bids"])
        self.won: list[int] = list(view["tricks_won"])
        self.trick: list[tuple[int, int]] = [
            (e["seat"], CODE_TO_ID[e["card"]]) for e in view["current_trick"]
        ]
        self.played: list[int] = [c for _, c in self.trick]
        for done in view["tricks"]:
            self.played.extend(CODE_TO_ID[e["card"]] for e in done["cards"])
        self.leader: int | None = view["leader"]

    def unseen(self, deck: tuple[int, ...]) -> list[int]:
        """Cards this seat has not seen this round: rivals' hands and the undealt stock (PT-12)."""
        pool = list(deck)
        for c in self.hand:
            pool.remove(c)
        for c in self.played:
            pool.remove(c)
        return pool


def _deck(view: JSON) -> tuple[int, ...]:
    return _DECK_BIG if view["mode"] == "big" else _DECK_CLASSIC


def _legal_bids(legal: list[JSON]) -> list[int]:
    return [a["k"] for a in legal if a["type"] == "bid"]


def _closest_bid(target: float, bids: list[int]) -> int:
    return min(bids, key=lambda k: (abs(k - target), k))


def _play(card: int) -> JSON:
    return {"type": "play", "card": CODES[card]}


def _forced(legal: list[JSON]) -> JSON | None:
    """The answer when there is no real choice: ready, or a single legal action."""
    if not legal:
        return None
    if len(legal) == 1 or legal[0]["type"] == "ready":
        return legal[0]
    return None


# -- estimates --------------------------------------------------------------------
@lru_cache(maxsize=65536)
def _p_top(unseen: int, stronger: int, held: int) -> float:
    """Chance that ``held`` of ``unseen`` cards (drawn at random) avoid all ``stronger`` ones."""
    if held > unseen:
        held = unseen
    if stronger > unseen - held:
        return 0.0
    return comb(unseen - stronger, held) / comb(unseen, held)


def expected_tricks(hand: list[int], unseen: list[int], rivals_cards: int) -> float:
    """Σ over the hand of the chance that no rival holds a stronger card (a simple estimate)."""
    strengths = sorted(c >> 2 for c in unseen)
    total = 0.0
    u = len(unseen)
    for c in hand:
        s = c >> 2
        stronger = sum(1 for x in strengths if x > s)
        total += _p_top(u, stronger, rivals_cards)
    return total


def blind_win_chance(view: JSON, seat: int) -> float:
    """PT-8, PT-31: chance that the seat's unseen card wins the one-card trick.

    Its card is uniform over the deck minus the cards it sees; the trick is played from the
    second live seat after the dealer, in table order, and a card wins when it is stronger than
    every earlier card and at least as strong as every later one.
    """
    shown = view["blind_cards"]
    alive = view["alive"]
    live = [s for s, a in enumerate(alive) if a]
    dealer = view["dealer"]
    i = live.index(dealer) if dealer in live else 0
    first = live[(i + 2) % len(live)]
    j = live.index(first)
    order = live[j:] + live[:j]
    pos = order.index(seat)
    before = [CODE_TO_ID[shown[s]] >> 2 for s in order[:pos] if shown[s] is not None]
    after = [CODE_TO_ID[shown[s]] >> 2 for s in order[pos + 1 :] if shown[s] is not None]
    pool = list(_deck(view))
    for s in order:
        if s != seat and shown[s] is not None:
            pool.remove(CODE_TO_ID[shown[s]])
    best_before = max(before, default=-1)
    best_after = max(after, default=-1)
    wins = sum(1 for c in pool if c >> 2 > best_before and c >> 2 >= best_after)
    return wins / len(pool) if pool else 0.0


# -- the rule policy (normal, and everybody inside hard's simulations) -------------
def rule_card(hand: list[int], need: int, best: int, after: int) -> int:
    """The card to play from a sorted ``hand``.

    ``need`` = bid − tricks won; ``best`` = strength of the trick's winning card so far (−1 when
    leading); ``after`` = players still to play after this one in the trick.
    """
    if best < 0:
        return hand[-1] if need > 0 else hand[0]
    if need > 0:
        for c in hand:
            if c >> 2 > best:
                return c  # the cheapest winner
        return hand[0]
    keep = -1
    for c in hand:
        if c >> 2 <= best:  # an equal card loses too: the earlier one wins (PT-8)
            keep = c
        else:
            break
    if keep >= 0:
        return keep
    return hand[-1] if after == 0 else hand[0]


def simulate(
    hands: list[list[int]],
    nxt: list[int],
    trick: list[tuple[int, int]],
    turn: int,
    bids: list[int],
    won: list[int],
    live_count: int,
) -> list[int]:
    """Play the round out with ``rule_card`` for every seat; returns the tricks won.

    ``hands`` (sorted) and ``won`` are the simulation's own copies and are changed; ``trick`` is
    the current trick so far and ``turn`` the seat to play next.
    """
    seat = turn
    best_seat, best = -1, -1
    for s, c in trick:
        if c >> 2 > best:
            best, best_seat = c >> 2, s
    played = len(trick)
    while True:
        hand = hands[seat]
        if not hand:
            return won
        card = rule_card(hand, bids[seat] - won[seat], best, live_count - played - 1)
        hand.remove(card)
        if card >> 2 > best:
            best, best_seat = card >> 2, seat
        played += 1
        if played == live_count:
            won[best_seat] += 1
            seat = best_seat
            best = -1
            played = 0
        else:
            seat = nxt[seat]


def _sample_hands(t: Table, pool: list[int], rng: random.Random) -> list[list[int]]:
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in t.hand_counts]
    pos = 0
    for s in t.live:
        if s == t.me:
            hands[s] = list(t.hand)
        else:
            k = t.hand_counts[s]
            hands[s] = sorted(pool[pos : pos + k])
            pos += k
    return hands


def _rule_bid_value(hand: list[int], pool_size: int, pool_strengths: list[int], rivals_cards: int) -> int:
    total = 0.0
    for c in hand:
        s = c >> 2
        stronger = sum(1 for x in pool_strengths if x > s)
        total += _p_top(pool_size, stronger, rivals_cards)
    return round(total)


def _dealt_extra(view: JSON) -> list[list[int]]:
    """Per seat, the cards it has played this round (its hand at the bids is its hand plus these)."""
    extra: list[list[int]] = [[] for _ in view["alive"]]
    for done in view["tricks"]:
        for e in done["cards"]:
            extra[e["seat"]].append(CODE_TO_ID[e["card"]])
    for e in view["current_trick"]:
        extra[e["seat"]].append(CODE_TO_ID[e["card"]])
    return extra


def _bid_fit(
    t: Table, hands: list[list[int]], extra: list[list[int]], deck: tuple[int, ...], dealer: int
) -> float:
    """How well a sampled deal explains the rivals' bids: ``BID_FIT`` per trick of difference between
    each rival's bid and the rule bid (normal's) on the cards the deal gave it."""
    weight = 1.0
    rivals_cards = t.n_r * (len(t.live) - 1)
    for s in t.live:
        bid = t.bids[s]
        if s == t.me or bid is None:
            continue
        dealt = sorted(hands[s] + extra[s])
        pool = list(deck)
        for c in dealt:
            pool.remove(c)
        legal = list(range(t.n_r + 1))
        if s == dealer:  # PT-22: the dealer may not make the bids add up to the cards dealt
            forbidden = t.n_r - sum(b for x, b in enumerate(t.bids) if x != s and b is not None)
            if forbidden in legal and len(legal) > 1:
                legal.remove(forbidden)
        rule = _closest_bid(expected_tricks(dealt, pool, rivals_cards), legal)
        weight *= BID_FIT ** abs(rule - bid)
    return weight


# -- the bots ------------------------------------------------------------------------
class EasyBot(Memoryless):
    """Counts its Ases and Reyes (sometimes bids at random) and plays a random card."""

    def act(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON | None:
        forced = _forced(legal)
        if forced is not None or not legal:
            return forced
        if legal[0]["type"] == "bid":
            bids = _legal_bids(legal)
            if view["blind"] or rng.random() < 0.3:
                return {"type": "bid", "k": rng.choice(bids)}
            strong = sum(1 for c in view["hand"] if CODE_TO_ID[c] >> 2 >= 8)
            return {"type": "bid", "k": _closest_bid(strong, bids)}
        return rng.choice(legal)


class NormalBot(Memoryless):
    """Expected-tricks bids and the rule policy (see the module docstring)."""

    def act(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON | None:
        forced = _forced(legal)
        if forced is not None or not legal:
            return forced
        if legal[0]["type"] == "bid":
            bids = _legal_bids(legal)
            if view["blind"]:
                return {"type": "bid", "k": _closest_bid(blind_win_chance(view, view["seat"]), bids)}
            t = Table(view)
            pool = t.unseen(_deck(view))
            rivals = sum(t.hand_counts[s] for s in t.live if s != t.me)
            return {"type": "bid", "k": _closest_bid(expected_tricks(t.hand, pool, rivals), bids)}
        t = Table(view)
        return _play(self._card(t))

    @staticmethod
    def _card(t: Table) -> int:
        best = max((c >> 2 for _, c in t.trick), default=-1)
        after = len(t.live) - len(t.trick) - 1
        bid = t.bids[t.me] or 0
        return rule_card(t.hand, bid - t.won[t.me], best, after)


class HardBot(Memoryless):
    """Monte Carlo bids and plays over sampled hidden hands (see the module docstring)."""

    #: it takes a time budget (``cardgames.bots.get_bot``)
    searches = True

    def __init__(
        self,
        bid_samples: int = HARD_BID_SAMPLES,
        play_samples: int = HARD_PLAY_SAMPLES,
        *,
        budget: Budget | None = None,
        max_samples: int = HARD_MAX_SAMPLES,
    ) -> None:
        """``budget`` None: ``bid_samples`` / ``play_samples`` deals a decision, no clock. A
        ``Budget``: deals until its deadline (at most ``max_samples``); when not even one deal
        fits, the rule policy's answer (normal's)."""
        self.bid_samples = bid_samples
        self.play_samples = play_samples
        self.budget = budget
        self.max_samples = max_samples

    def act(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON | None:
        forced = _forced(legal)
        if forced is not None or not legal:
            return forced
        deadline = Deadline(self.budget)
        if legal[0]["type"] == "bid":
            return {"type": "bid", "k": self._bid(view, _legal_bids(legal), rng, deadline)}
        return _play(self._card(view, [CODE_TO_ID[a["card"]] for a in legal], rng, deadline))

    def _samples(self, fixed: int, deadline: Deadline) -> range:
        return range(self.max_samples if deadline.timed else fixed)

    # bidding
    def _bid(self, view: JSON, bids: list[int], rng: random.Random, deadline: Deadline) -> int:
        if view["blind"]:
            return 1 if blind_win_chance(view, view["seat"]) > 0.5 and 1 in bids else min(bids)
        t = Table(view)
        deck = _deck(view)
        pool = t.unseen(deck)
        made = dict.fromkeys(bids, 0.0)
        order = list(view["bid_order"])
        leader = view["leader"]
        extra = _dealt_extra(view)
        sampled = 0
        for _ in self._samples(self.bid_samples, deadline):
            if deadline.passed():
                break
            sampled += 1
            hands = _sample_hands(t, pool, rng)
            weight = _bid_fit(t, hands, extra, deck, view["dealer"]) if deadline.timed else 1.0
            est = self._rival_bids(t, hands, order, deck)
            for k in bids:
                est[t.me] = k
                won = simulate(
                    [list(h) for h in hands], t.nxt, [], leader, est, [0] * len(hands), len(t.live)
                )
                if won[t.me] == k:
                    made[k] += weight
        if not sampled:  # no deal fitted in the budget: the rule bid (normal's)
            rivals = sum(t.hand_counts[s] for s in t.live if s != t.me)
            return _closest_bid(expected_tricks(t.hand, pool, rivals), bids)
        return max(bids, key=lambda k: (made[k], -abs(k - t.n_r / len(t.live))))

    @staticmethod
    def _rival_bids(t: Table, hands: list[list[int]], order: list[int], deck: tuple[int, ...]) -> list[int]:
        """Known bids, and for rivals yet to bid the rule bid on their sampled hand."""
        est = [b if b is not None else 0 for b in t.bids]
        for s in order:
            if s == t.me or t.bids[s] is not None:
                continue
            pool = [c >> 2 for c in deck]
            for c in hands[s]:
                pool.remove(c >> 2)
            rivals = sum(len(hands[x]) for x in t.live if x != s)
            est[s] = _rule_bid_value(hands[s], len(pool), pool, rivals)
        return est

    # playing
    def _card(self, view: JSON, cards: list[int], rng: random.Random, deadline: Deadline) -> int:
        t = Table(view)
        distinct = sorted(set(cards))
        if len(distinct) == 1:
            return distinct[0]
        deck = _deck(view)
        pool = t.unseen(deck)
        extra = _dealt_extra(view)
        bids = [b if b is not None else 0 for b in t.bids]
        next_seat = t.nxt[t.me]
        score = dict.fromkeys(distinct, 0.0)
        rivals = [s for s in t.live if s != t.me]
        for _ in self._samples(self.play_samples, deadline):
            if deadline.passed():
                break  # no deal: every score is 0 and the rule card wins the tie below
            hands = _sample_hands(t, pool, rng)
            weight = _bid_fit(t, hands, extra, deck, view["dealer"]) if deadline.timed else 1.0
            for card in distinct:
                sim_hands = [list(h) for h in hands]
                sim_hands[t.me].remove(card)
                trick = [*t.trick, (t.me, card)]
                won = list(t.won)
                if len(trick) == len(t.live):  # this card closes the trick
                    best_seat, best = trick[0][0], -1
                    for s, c in trick:
                        if c >> 2 > best:
                            best, best_seat = c >> 2, s
                    won[best_seat] += 1
                    won = simulate(sim_hands, t.nxt, [], best_seat, bids, won, len(t.live))
                else:
                    won = simulate(sim_hands, t.nxt, trick, next_seat, bids, won, len(t.live))
                value = 1.0 if won[t.me] == bids[t.me] else 0.0
                value += RIVAL_MISS_BONUS * sum(1 for s in rivals if won[s] != bids[s])
                score[card] += weight * value
        # ties go to the rule policy's card (shed high cards when safe, keep them when needed)
        best = max((c >> 2 for _, c in t.trick), default=-1)
        ruled = rule_card(t.hand, bids[t.me] - t.won[t.me], best, len(t.live) - len(t.trick) - 1)
        return max(distinct, key=lambda c: (score[c], c == ruled, -c))


BOTS: dict[str, type[EasyBot] | type[NormalBot] | type[HardBot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}
