"""One Card bots at three levels (OC-57, docs/bots.md).

A bot sees only ``view(state, seat)`` and ``legal_actions(state, seat)``. The view
carries the public memory a careful player keeps: who last had to draw on which suit
(``lacks``, OC-63 tip 1) and how many Ks and As lie face up (``played``, tip 5).

- **easy**: a random legal card with two common mistakes of OC-64: it spends K/A as soon
  as it can and hoards its 7s; a 7 names a random suit.
- **normal**: scores each play with the basic tips: leave active a suit it still holds
  (measured better than tip 3's "shed short suits first"), keep 7s as an exit and name the
  longest suit, save K/A until the next player has 2-3 cards (tips 3, 4, 6); 30 % of its
  turns are beginner moves.
- **hard**: the same scorer with every tip and no beginner moves: leaves a suit the next
  player lacks (tip 1), J/Q against a short next player (tip 2), plays a K/A nobody can
  return (tip 5, counting attack cards), a J with a follow-up ready at two players (tip 7);
  plus a one-lap lookahead over sampled rival hands (``_lookahead``: its hand after its next
  turn, a rival going out). Full-game Monte Carlo playouts did not pay (docs/bots.md).

Calls and catches follow PF-50: easy forgets the One Card call 20 % of the time and
catches with probability 0.5, normal forgets 5 % and always catches, hard never forgets
and always catches. The engine has no clock, so the reaction delays of PF-50 (3.5 s,
2.5 s, 1.2 s) are exposed as ``catch_delay`` (``cardgames.bots.reaction_seconds``) for the
table service to wait before sending a bot's catch. A forgetful bot decides once per two-card
episode and a catch once per window id; both decisions are its memory (``forgetting``,
``catch_plan``), passed in and returned, so a bot asked again does not re-roll.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from cardgames.engines.one_card.cards import ATTACK_AMOUNT, DECK, SUITS, after_play, playable

Action = dict[str, Any]
View = dict[str, Any]


class _OneCardBot:
    """Shared logic; the levels differ by the class attributes and ``_score``."""

    level: ClassVar[str] = ""
    forget: ClassVar[float] = 0.0  # PF-50: chance of not calling One Card
    catch_chance: ClassVar[float] = 1.0  # PF-50: chance of catching an open window
    catch_delay: ClassVar[float] = 1.2  # PF-50: seconds before the catch (for the table service)

    def choose(
        self, view: View, legal: list[Action], rng: random.Random, memory: dict[str, Any]
    ) -> tuple[Action | None, dict[str, Any]]:
        if not legal:
            return None, dict(memory)
        # the decision for the current two-card episode: None until the call is first open
        forgetting: bool | None = None if len(view["hand"]) > 2 else memory.get("forgetting")
        open_ids = {w["id"] for w in view["windows"]}  # closed windows are forgotten
        plans = {k: v for k, v in memory.get("catch_plan", {}).items() if k in open_ids}
        action = self._catch(view, legal, rng, plans)
        if action is None and {"type": "call_one_card"} in legal:
            if forgetting is None:
                forgetting = rng.random() < self.forget
            if not forgetting:
                action = {"type": "call_one_card"}
        if action is None:
            turn = [a for a in legal if a["type"] in ("play", "draw")]
            if len(turn) == 1:
                action = turn[0]
            elif turn:
                action = self._play(view, turn, rng)
            # no turn: only optional actions left, let the moment pass
        remembered: dict[str, Any] = {}
        if forgetting is not None:
            remembered["forgetting"] = forgetting
        if plans:
            remembered["catch_plan"] = plans
        return action, remembered

    # -- calls and catches (PF-50) ---------------------------------------
    def _catch(
        self, view: View, legal: list[Action], rng: random.Random, plans: dict[str, bool]
    ) -> Action | None:
        """A catch of an open window, deciding each window once (``plans``: window id -> catch it)."""
        for window in view["windows"]:
            action = {"type": "catch", "target": window["seat"]}
            if action not in legal:
                continue
            plan = plans.get(window["id"])
            if plan is None:
                plan = plans[window["id"]] = rng.random() < self.catch_chance
            if plan:
                return action
        return None

    # -- the turn ---------------------------------------------------------
    def _play(self, view: View, turn: list[Action], rng: random.Random) -> Action:
        raise NotImplementedError


class EasyBot(_OneCardBot):
    """A beginner: a random legal card, with two of the common mistakes of OC-64.

    It spends attack cards as soon as it can and hoards its 7s "as if wild" (playing one
    only when nothing else goes); a 7 names a random suit.
    """

    level = "easy"
    forget = 0.2
    catch_chance = 0.5
    catch_delay = 3.5

    def _play(self, view: View, turn: list[Action], rng: random.Random) -> Action:
        return _beginner_play(turn, rng)


class _HeuristicBot(_OneCardBot):
    """Scores every legal play and plays the best (ties: hand order, then the first suit)."""

    mistake: ClassVar[float] = 0.0  # share of turns played like a beginner
    # Weights, tuned with bench/bots.py (see docs/bots.md). Measured: playing from the long
    # suit (w_suit_len < 0) beats shedding short suits first by about 2 points.
    w_suit_len: ClassVar[float] = -1.0  # tip 3, as measured: the suit left active is one I hold
    w_keep_seven: ClassVar[float] = 3.0  # tip 6: a 7 is an exit
    w_hold_attack: ClassVar[float] = 2.5  # tip 4: save K/A ...
    w_attack_short: ClassVar[float] = 6.0  # ... for a next player with 2-3 cards
    short: ClassVar[int] = 3
    w_unreturnable: ClassVar[float] = 0.0  # tip 5: no K/A left unseen, the attack cannot come back
    w_lacks: ClassVar[float] = 0.0  # tip 1: leave a suit the next player lacks
    w_skip_short: ClassVar[float] = 0.0  # tip 2: J/Q against a short next player
    w_jack_follow: ClassVar[float] = 0.0  # tip 7: with two players, a J with a follow-up ready
    w_exit: ClassVar[float] = 0.0  # with two cards, leave active what the last card follows

    def _play(self, view: View, turn: list[Action], rng: random.Random) -> Action:
        if self.mistake and rng.random() < self.mistake:
            return _beginner_play(turn, rng)
        return max(turn, key=lambda a: self._score(view, a))

    def _score(self, view: View, action: Action) -> float:
        hand: list[str] = view["hand"]
        card: str = action["card"]
        rank, suit = card[0], card[1]
        rest = [c for c in hand if c != card]
        if not rest:
            return 1000.0  # playing out wins (OC-31)
        suit_len = dict.fromkeys(SUITS, 0)
        for c in rest:
            suit_len[c[1]] += 1
        n: int = view["players"]
        seat: int = view["seat"]
        nxt = (seat + view["direction"]) % n
        counts: list[int] = view["counts"]
        new_suit: str = action.get("suit", suit)
        score = -self.w_suit_len * suit_len[suit]
        if rank == "7":
            if len(rest) > 1 or not self.w_exit:
                score -= self.w_keep_seven
            score += 0.5 * suit_len[new_suit]  # tip 6: name the suit held most
        if self.w_exit and len(rest) == 1 and (rest[0][1] == new_suit or rest[0][0] == rank):
            score += self.w_exit  # the last card will follow what this one leaves active
        if rank in ATTACK_AMOUNT and not view["attack"]:  # under attack any K (A) is as good as another
            if counts[nxt] <= self.short:
                score += self.w_attack_short
            else:
                score -= self.w_hold_attack
            if self.w_unreturnable and _unseen(view, rank) == 0:
                score += self.w_unreturnable
        lacks = view.get("lacks") or []
        if self.w_lacks and lacks and lacks[nxt] == new_suit and (suit_len[new_suit] or rank != "7"):
            score += self.w_lacks
        if self.w_skip_short and n > 2 and counts[nxt] <= 2:
            prev = (seat - view["direction"]) % n
            # a J skips the short player; a Q turns away from it if the other side is longer
            if rank == "J" or (rank == "Q" and counts[prev] > counts[nxt]):
                score += self.w_skip_short
        if self.w_jack_follow and n == 2 and rank == "J":
            if any(c[1] == suit or c[0] == "J" for c in rest):
                score += self.w_jack_follow
            else:
                score -= self.w_jack_follow
        return score


class NormalBot(_HeuristicBot):
    """The basic tips (3, 4, 6), with a beginner's move now and then."""

    level = "normal"
    forget = 0.05
    catch_chance = 1.0
    catch_delay = 2.5
    mistake = 0.3


class HardBot(_HeuristicBot):
    """Every tip of OC-63, no beginner's moves, never forgets, always catches.

    On top of the scorer, a one-lap lookahead: for each candidate card it deals the unseen cards
    to the rivals (by their counts, keeping out the suit each last drew on), plays the rivals like
    beginners (attack cards at once) until its own next turn, and adds the mean outcome: its hand
    after that turn (a pending attack it cannot pass is drawn in full) or ``look_loss`` if a rival
    goes out. The deals and the rivals' dice are shared by every candidate (common random numbers).
    """

    level = "hard"
    forget = 0.0
    catch_chance = 1.0
    catch_delay = 1.2
    w_unreturnable = 3.0
    w_lacks = 4.0
    w_skip_short = 4.0
    w_jack_follow = 3.0
    w_exit = 5.0
    short = 2
    w_look: ClassVar[float] = 1.0  # weight of the lookahead, in cards
    look_loss: ClassVar[float] = 20.0  # a rival going out during the lap, in cards
    look_samples: ClassVar[int] = 32
    look_attack: ClassVar[float] = 1.0  # rivals' chance to start an attack they can

    def _play(self, view: View, turn: list[Action], rng: random.Random) -> Action:
        scores = [self._score(view, a) for a in turn]
        if self.w_look and len(turn) > 1 and not view["attack"] and max(scores) < 1000.0:
            look = _lookahead(view, turn, random.Random(rng.getrandbits(64)), self)
            scores = [s + self.w_look * v for s, v in zip(scores, look, strict=True)]
        return turn[max(range(len(turn)), key=scores.__getitem__)]


# -- helpers -------------------------------------------------------------------------
def _beginner_play(turn: list[Action], rng: random.Random) -> Action:
    """OC-64 mistakes: attack cards first, 7s last; otherwise any card; a 7 names any suit."""
    cards = sorted({a["card"] for a in turn})
    attacks = [c for c in cards if c[0] in ATTACK_AMOUNT]
    others = [c for c in cards if c[0] != "7"]
    card = rng.choice(attacks or others or cards)
    return rng.choice([a for a in turn if a["card"] == card])


def _unseen(view: View, rank: str) -> int:
    """Cards of ``rank`` neither in my hand nor face up (tip 5: count attack cards)."""
    played: dict[str, int] = view.get("played") or {}
    mine = sum(1 for c in view["hand"] if c[0] == rank)
    return 4 - mine - played.get(rank, 0)


BOTS: dict[str, type[_OneCardBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}


# -- the hard bot's lookahead ----------------------------------------------------------


def _lookahead(view: View, plays: list[Action], rng: random.Random, bot: HardBot) -> list[float]:
    """Mean outcome (minus my hand after my next turn) of each play, over sampled rival hands."""
    n: int = view["players"]
    me: int = view["seat"]
    counts: list[int] = view["counts"]
    top: str = view["top"]
    lacks = view.get("lacks") or [None] * n
    mine = set(view["hand"])
    pool = [c for c in DECK if c not in mine and c != top]
    played: dict[str, int] = view.get("played") or {}
    for rank in ATTACK_AMOUNT:  # the Ks and As face up are out of play (their suits are unknown)
        gone = played.get(rank, 0) - (top[0] == rank)
        if gone > 0:
            drop = set(rng.sample([c for c in pool if c[0] == rank], gone))
            pool = [c for c in pool if c not in drop]
    totals = [0.0] * len(plays)
    for _ in range(bot.look_samples):
        rest = pool[:]
        rng.shuffle(rest)
        hands: list[list[str]] = [[] for _ in range(n)]
        for p in range(n):
            if p == me:
                continue
            lack = lacks[p]
            take = [c for c in rest if c[1] != lack][: counts[p]] if lack else rest[: counts[p]]
            if len(take) < counts[p]:
                take = rest[: counts[p]]
            taken = set(take)
            rest = [c for c in rest if c not in taken]
            hands[p] = take
        seed = rng.getrandbits(64)  # an int: a float seed goes through hash(), 32 bits wide in Pyodide
        for i, action in enumerate(plays):
            totals[i] += _lap(view, action, hands, rest, random.Random(seed), bot)
    return [t / bot.look_samples for t in totals]


def _lap(
    view: View, action: Action, dealt: list[list[str]], stock: list[str], rng: random.Random, bot: HardBot
) -> float:
    """Play ``action``, then the rivals as beginners, up to and including my next turn."""
    n: int = view["players"]
    me: int = view["seat"]
    card: str = action["card"]
    mine = [c for c in view["hand"] if c != card]
    hands = [h[:] for h in dealt]
    top, suit = card, action.get("suit", card[1])
    attack = view["attack"]["amount"] if view["attack"] else 0
    direction: int = view["direction"]
    turn, attack, direction = after_play(me, card, attack, direction, n)
    drawn = 0
    for _ in range(3 * n):
        if turn == me:
            break
        hand = hands[turn]
        options = playable(hand, top, suit, attack)
        if not options:
            amount = attack or 1
            hand.extend(stock[drawn : drawn + amount])
            drawn += amount
            attack = 0
            turn = (turn + direction) % n
            continue
        attacks = [c for c in options if c[0] in ATTACK_AMOUNT]
        if attacks and (attack or rng.random() < bot.look_attack):
            played = rng.choice(attacks)
        else:
            played = rng.choice([c for c in options if c[0] != "7"] or options)
        hand.remove(played)
        if not hand:
            return -bot.look_loss
        top = played
        suit = rng.choice(SUITS) if played[0] == "7" else played[1]
        turn, attack, direction = after_play(turn, played, attack, direction, n)
    if playable(mine, top, suit, attack):
        return -float(len(mine) - 1)
    return -float(len(mine) + (attack or 1))  # a pending attack is drawn in full, else one card
