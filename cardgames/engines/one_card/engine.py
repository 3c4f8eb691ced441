"""The One Card engine class: public contract first, then one private method per phase.

See the package docstring (``cardgames.engines.one_card``) for the rules summary.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import (
    JSON,
    Engine,
    IllegalAction,
    ReadOnlyAction,
    action_type,
    check_seat,
    placements_from_scores,
)
from .cards import (
    CARD_CODES,
    CATCH_SECONDS,
    PENALTY,
    SUITS,
    after_play,
    has_playable,
    most_held_suit,
    playable,
)
from .deal import deal
from .moves import attack_cards_played, grow, public_event, sorted_windows, take
from .state import State, as_state

_TIMERS = ("turn", "catch")
MAX_PLAYERS = 4
# The legal actions, built once and shared read-only by every caller (docs/engines.md).
_PLAY: dict[str, JSON] = {c: ReadOnlyAction(type="play", card=c) for c in CARD_CODES}
_PLAY_SEVEN: dict[str, tuple[JSON, ...]] = {
    c: tuple(ReadOnlyAction(type="play", card=c, suit=x) for x in SUITS) for c in CARD_CODES if c[0] == "7"
}
_DRAW: JSON = ReadOnlyAction(type="draw")
_CALL: JSON = ReadOnlyAction(type="call_one_card")
_CATCH: tuple[JSON, ...] = tuple(ReadOnlyAction(type="catch", target=seat) for seat in range(MAX_PLAYERS))


class OneCardEngine(Engine):
    """One Card, Playfulo (Korean) rules: docs in ``cardgames/engines/one_card/__init__.py``."""

    name: ClassVar[str] = "one_card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    card_codes: ClassVar[frozenset[str]] = CARD_CODES

    # -- the contract -----------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> State:
        """Deal (OC-6), pick the starter (OC-8) and the first player (OC-9)."""
        return deal(num_players, seed, options)

    def to_act(self, state: Any) -> list[int]:
        """The turn player, plus seats that may call (2 cards or own window) or catch (a window is open)."""
        s: State = state  # hot path: no isinstance check
        if s.over:
            return []
        if s.windows:
            return list(range(s.n))  # everyone may catch someone, and owners may call
        hands = s.hands
        turn = s.turn
        if 2 not in map(len, hands):  # the common case, checked in C
            return [turn]
        called = s.called
        return [
            seat
            for seat, hand in enumerate(hands)
            if seat == turn or (len(hand) == 2 and not called >> seat & 1)
        ]

    def legal_actions(self, state: Any, seat: int) -> list[JSON]:
        """OC-60: plays (a 7 once per suit unless it is the last card) or a draw, calls, catches."""
        s: State = state
        if s.over or type(seat) is not int or not 0 <= seat < s.n:  # bool is not a seat
            return []
        hand = s.hands[seat]
        out: list[JSON]
        if seat == s.turn:
            rank = s.top[0]
            if s.attack:
                cards = [c for c in hand if c[0] == rank]
            else:
                suit = s.suit
                cards = [c for c in hand if c[1] == suit or c[0] == rank]
            if not cards:
                out = [_DRAW]
            elif len(hand) == 1 or "7" not in "".join(cards):  # suits are letters: "7" is a rank
                out = [*map(_PLAY.__getitem__, cards)]  # (OC-32: a last 7 names no suit)
            else:
                out = []
                for c in cards:
                    if c[0] == "7":
                        out += _PLAY_SEVEN[c]
                    else:
                        out.append(_PLAY[c])
        else:
            out = []
        if len(hand) == 2 and not s.called >> seat & 1:
            out.append(_CALL)
        if s.windows:
            if len(hand) != 2 and s.window_of(seat) is not None:
                out.append(_CALL)
            for owner, _ in s.windows:
                if owner != seat:
                    out.append(_CATCH[owner])
        return out

    def apply(self, state: Any, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        s = state if type(state) is State else as_state(state)
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str):
            kind = action_type(action)  # raises bad_action
        if s.over:
            raise IllegalAction("game_over", "The game is over.")
        if type(seat) is not int or not 0 <= seat < s.n:
            check_seat(s.n, seat)  # raises bad_seat (bool is a subclass of int, hence the exact type test)
        # Each phase stores its events in the new state as a tuple (views sanitize and copy them,
        # OC-52): the returned list is the caller's, the event dicts are read-only by contract.
        if kind == "play":
            return self._play(s, seat, action.get("card"), action.get("suit"), [])
        if kind == "draw":
            return self._draw(s, seat, [])
        if kind == "call_one_card":
            return self._call(s, seat)
        if kind == "catch":
            return self._catch(s, seat, action)
        if kind == "timeout":
            return self._timeout(s, seat, action)
        raise IllegalAction("bad_action", f"Unknown action type {kind!r}.")

    def view(self, state: Any, seat: int | None) -> JSON:
        """What ``seat`` sees (OC-50 – OC-54); each visible card appears once."""
        s = as_state(state)
        if seat is not None:
            check_seat(s.n, seat)
        counts = [len(h) for h in s.hands]
        out: JSON = {
            "seat": seat,
            "players": s.n,
            "hand": list(s.hands[seat]) if seat is not None else None,
            "counts": counts,
            "top": s.top,
            "suit": s.suit,
            "attack": {"rank": s.top[0], "amount": s.attack} if s.attack else None,
            "direction": s.direction,
            "turn": s.turn,
            "turn_no": s.turn_no,
            "called": [bool(s.called >> i & 1) for i in range(s.n)],
            "windows": [{"seat": owner, "id": f"catch:{k}"} for owner, k in s.windows],
            "stock": s.stock_size(),
            "discard": s.dsize + 1,
            "timers": self.timers(s),
            "last": [public_event(e) for e in s.last],
            # public memory a careful player keeps (OC-63 tips 1 and 5), as data rather than card codes
            "lacks": [x or None for x in s.lacks],
            "played": attack_cards_played(s),
            "over": s.over,
        }
        if s.over:
            # OC-54: every hand is revealed; the viewer's own stays in "hand" only (no card twice).
            out["hands"] = [None if i == seat else list(h) for i, h in enumerate(s.hands)]
            out["result"] = self.result(s)
        return out

    def timers(self, state: Any) -> list[JSON]:
        """The turn timer (unless ``turn_seconds`` is None) and one 5 s timer per open catch window."""
        s = as_state(state)
        if s.over:
            return []
        out: list[JSON] = []
        if s.turn_seconds is not None:
            out.append({"id": f"turn:{s.turn_no}", "name": "turn", "seat": s.turn, "seconds": s.turn_seconds})
        for owner, k in s.windows:
            out.append({"id": f"catch:{k}", "name": "catch", "seat": owner, "seconds": CATCH_SECONDS})
        return out

    def is_over(self, state: Any) -> bool:
        s: State = state
        return s.over

    def result(self, state: Any) -> JSON:
        """OC-33/OC-66: ranked by cards left, fewest first, ties share (the winner holds 0)."""
        s = as_state(state)
        if not s.over:
            raise IllegalAction("not_over", "The game is not over.")
        scores = [len(h) for h in s.hands]
        placements = placements_from_scores(scores)
        return {
            "placements": placements,
            "winners": [i for i, p in enumerate(placements) if p == 1],
            "scores": scores,
        }

    def dump(self, state: Any) -> JSON:
        return as_state(state).dump()

    def load(self, data: JSON) -> State:
        return State.load(data)

    # -- test hooks -------------------------------------------------------
    def all_cards(self, state: Any) -> Counter[str]:
        s = as_state(state)
        found: Counter[str] = Counter(s.stock[s.spos :])
        found.update(s.discard_list())
        found[s.top] += 1
        for h in s.hands:
            found.update(h)
        return found

    def visible_cards(self, state: Any, seat: int | None) -> Counter[str]:
        s = as_state(state)
        seen: Counter[str] = Counter([s.top])
        if s.over:
            for h in s.hands:
                seen.update(h)
        elif seat is not None:
            seen.update(s.hands[seat])
        return seen

    # -- phases -----------------------------------------------------------
    def _play(
        self, s: State, seat: int, card: Any, suit: Any, events: list[JSON]
    ) -> tuple[State, list[JSON]]:
        """OC-61: check, remove, discard, active suit, win check, effect, One Card check, pass the turn."""
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if not isinstance(card, str) or card not in CARD_CODES:
            raise IllegalAction("bad_action", f"{card!r} is not a card code.")
        hand = s.hands[seat]
        if card not in hand:
            raise IllegalAction("illegal_card", f"{card} is not in your hand.")
        if s.attack and card[0] != s.top[0]:
            raise IllegalAction("illegal_card", f"Only a {s.top[0]} answers this attack (OC-15).")
        if not s.attack and card[1] != s.suit and card[0] != s.top[0]:
            raise IllegalAction("illegal_card", f"{card} matches neither the suit nor the rank (OC-11).")
        if card[0] == "7" and len(hand) > 1:
            if not isinstance(suit, str) or suit not in SUITS:
                raise IllegalAction("bad_action", "A 7 declares a suit: S, H, D or C (OC-22).")
        elif suit is not None:
            raise IllegalAction("bad_action", "Only a 7 that is not the last card declares a suit.")
        new = s.copy()
        i = hand.index(card)
        rest = hand[:i] + hand[i + 1 :]
        hands = list(s.hands)
        hands[seat] = rest
        new.hands = tuple(hands)
        new.discard = (s.top, s.discard)
        new.dsize = s.dsize + 1
        new.top = card
        new.suit = card[1]
        event: JSON = {"type": "play", "seat": seat, "card": card}
        events.append(event)
        new.idle = 0
        if s.lacks[seat] == card[1]:
            lacks = list(s.lacks)
            lacks[seat] = ""
            new.lacks = tuple(lacks)
        if not rest:  # OC-31/OC-32: instant win, no effect; OC-42: windows close with the game
            new.over = True
            new.windows = ()
            new.attack = 0
            events.append({"type": "game_over", "winner": seat})
            new.last = tuple(events)
            return new, events
        if card[0] == "7":
            new.suit = suit  # OC-13, OC-22
            event["suit"] = suit
        turn, new.attack, new.direction = after_play(seat, card, s.attack, s.direction, s.n)
        if len(rest) == 1 and not s.called >> seat & 1:
            # OC-38: a forgotten call opens a catch window for this seat.
            new.window_no = s.window_no + 1
            new.windows = sorted_windows(s.windows, seat, new.window_no)
            events.append({"type": "window", "seat": seat, "id": f"catch:{new.window_no}"})
        new.turn = turn
        new.turn_no = s.turn_no + 1
        new.last = tuple(events)
        return new, events

    def _draw(self, s: State, seat: int, events: list[JSON]) -> tuple[State, list[JSON]]:
        """OC-17 – OC-19, OC-28, OC-29: draw 1 or the attack, the attack ends, the turn passes."""
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if has_playable(s.hands[seat], s.top, s.suit, s.attack):
            raise IllegalAction("has_playable_card", "You hold a legal card: drawing is disabled (OC-17).")
        new = s.copy()
        amount = s.attack or 1
        if not s.attack and s.lacks[seat] != s.suit:  # OC-63 tip 1, public: nothing of the active suit
            lacks = list(s.lacks)
            lacks[seat] = s.suit
            new.lacks = tuple(lacks)
        cards = take(new, amount, events)
        events.append({"type": "draw", "seat": seat, "cards": cards, "count": len(cards)})
        new.attack = 0
        if cards:
            grow(new, seat, cards)
            new.idle = 0
        else:
            new.idle = s.idle + 1
            if new.idle >= s.n:  # OC-66: a full lap with no play and no card drawn
                new.over = True
                new.windows = ()
                events.append({"type": "game_over", "blocked": True})
                new.last = tuple(events)
                return new, events
        new.turn = (seat + new.direction) % s.n
        new.turn_no = s.turn_no + 1
        new.last = tuple(events)
        return new, events

    def _call(self, s: State, seat: int) -> tuple[State, list[JSON]]:
        """OC-36/OC-37/OC-40: pre-call at 2 cards, or call inside one's own window."""
        new = s.copy()
        if s.window_of(seat) is not None:
            new.windows = tuple(w for w in s.windows if w[0] != seat)
        elif s.called >> seat & 1:
            raise IllegalAction("already_called", "You have already called One Card.")
        elif len(s.hands[seat]) != 2:
            raise IllegalAction("no_window", "One Card can be called at 2 cards or in your catch window.")
        new.called = s.called | 1 << seat
        events: list[JSON] = [{"type": "call_one_card", "seat": seat}]
        new.last = tuple(events)
        return new, events

    def _catch(self, s: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        """OC-38/OC-41/OC-43/OC-45: first catch wins, 2 penalty cards, the turn is untouched."""
        target = action.get("target")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < s.n:
            raise IllegalAction("bad_action", f"Catch target {target!r} is not a seat.")
        if target == seat:
            raise IllegalAction("bad_target", "You cannot catch yourself.")
        if s.window_of(target) is None:
            raise IllegalAction("no_window", f"Seat {target} has no open catch window (OC-43).")
        new = s.copy()
        new.windows = tuple(w for w in s.windows if w[0] != target)
        events: list[JSON] = [{"type": "catch", "seat": seat, "target": target}]
        cards = take(new, PENALTY, events)
        events.append({"type": "penalty", "seat": target, "cards": cards, "count": len(cards)})
        if cards:
            grow(new, target, cards)
        new.last = tuple(events)
        return new, events

    def _timeout(self, s: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        timer = action.get("timer")
        if timer not in _TIMERS:
            raise IllegalAction("bad_action", f"Unknown timer {timer!r}.")
        events: list[JSON] = [{"type": "timeout", "seat": seat, "timer": timer}]
        if timer == "catch":
            # OC-41: a window that lapses leaves its owner safe.
            if s.window_of(seat) is None:
                raise IllegalAction("no_window", "No catch window of this seat is open.")
            new = s.copy()
            new.windows = tuple(w for w in s.windows if w[0] != seat)
            new.last = tuple(events)
            return new, events
        if s.turn_seconds is None:
            raise IllegalAction("no_timer", "This game has no turn timer.")
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "It is not this seat's turn.")
        # OC-48: the first legal card in hand order (a 7 names the suit held most), else draw.
        hand = s.hands[seat]
        cards = playable(hand, s.top, s.suit, s.attack)
        if not cards:
            return self._draw(s, seat, events)
        card = cards[0]
        suit = None
        if card[0] == "7" and len(hand) > 1:
            suit = most_held_suit(c for c in hand if c != card)
        return self._play(s, seat, card, suit, events)
