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
    action_type,
    check_seat,
    placements_from_scores,
)
from .actions import (
    BIT,
    CALL,
    CALL_EVENTS,
    CALL_LASTS,
    CATCH,
    CODE,
    DRAW,
    LISTS,
    MAX_PLAYERS,
    PLAY,
    PLAY_BIT,
    PLAY_SEVEN,
    WIN_EVENT,
    Play,
    cards_of,
    listed,
    make_play,
    mask_of,
    situation,
)
from .cards import (
    CARD_CODES,
    CATCH_SECONDS,
    PENALTY,
    SUITS,
    most_held_suit,
)
from .deal import deal
from .moves import attack_cards_played, grow, public_event, sorted_windows, take, without
from .state import State, as_state

_TIMERS = ("turn", "catch")
#: ``LISTS.get`` bound once (LISTS is cleared, never replaced): a call of a builtin, no method lookup
_lists_get = LISTS.get
#: the suits a 7 may declare, as a set (``SUITS`` is a string: ``"" in SUITS`` holds)
_SUIT_SET = frozenset(SUITS)


class OneCardEngine(Engine):
    """One Card, Playfulo (Korean) rules: docs in ``cardgames/engines/one_card/__init__.py``."""

    __slots__ = ()  # stateless: no instance dict (see ``Engine``)

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
        if not s.busy:  # the common case: no window, nobody may pre-call, not over
            return [s.turn]
        if s.over:
            return []
        if s.win[0]:
            return list(range(s.n))  # everyone may catch someone, and owners may call
        # a loop, not a comprehension: a comprehension would make cells of these locals on every call
        may_call = s.twos & ~s.called
        turn = s.turn
        out = []
        for seat in range(s.n):
            if seat == turn or may_call >> seat & 1:
                out.append(seat)
        return out

    def legal_actions(self, state: Any, seat: int) -> list[JSON]:
        """OC-60: plays (a 7 once per suit unless it is the last card) or a draw, calls, catches."""
        s: State = state
        if not s.busy:  # the common case: only the turn player acts, and only plays or draws
            if seat == s.turn and type(seat) is int:
                hand = s.hands[seat]
                ok = hand & s.sit.ok
                if not ok:
                    return [DRAW]
                if ok == hand and not ok & (ok - 1):
                    return [PLAY_BIT[ok]]  # OC-32: a last 7 names no suit
                found = _lists_get(ok)  # one lookup (another thread may clear LISTS meanwhile), pre-bound
                return [*found] if found is not None else [*listed(ok)]  # [*x]: a list without a call
            return []
        if s.over or type(seat) is not int or not 0 <= seat < s.n:  # bool is not a seat
            return []
        hand = s.hands[seat]
        size = hand.bit_count()
        out: list[JSON]
        if seat == s.turn:
            ok = hand & s.sit.ok
            if not ok:
                out = [DRAW]
            elif size == 1:
                out = [PLAY_BIT[ok]]  # OC-32: a last 7 names no suit
            else:
                out = list(listed(ok))
        else:
            out = []
        if size == 2 and not s.called >> seat & 1:
            out.append(CALL)
        windows = s.win[0]
        if windows:
            if size != 2 and s.window_of(seat) is not None:
                out.append(CALL)
            for owner, _ in windows:
                if owner != seat:
                    out.append(CATCH[owner])
        return out

    def apply(self, state: Any, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        s = state
        if type(action) is not Play or type(s) is not State or type(seat) is not int:
            if type(s) is State and type(seat) is int and not s.over:
                # the other listed actions by identity, without reading their "type"; a draw by another
                # seat (or no seat) takes _dispatch's checks
                if action is DRAW:
                    if seat == s.turn:
                        return self._draw(s, seat, [])
                elif action is CALL and 0 <= seat < s.n:
                    return self._call(s, seat)
            return self._dispatch(s, seat, action)
        # the common case: a listed play, checked against the hand and the table's playable mask
        if seat != s.turn or s.over:
            return self._dispatch(s, seat, action)
        act = action
        hand = s.hands[seat]
        rest = hand ^ act.bit
        if not hand & act.bit & s.sit.ok or not (act.more_ok if rest else act.last_ok):
            return self._dispatch(s, seat, action)
        # OC-61: remove, discard, active suit, win check, effect, One Card check, turn; here rather than
        # in a function of its own (a call costs as much as five fields). The new record is built field
        # by field: cheaper than copy() and then overwriting half.
        new = State()
        new.n = n = s.n
        new.cfg = s.cfg
        new.stock = s.stock
        hands = [*s.hands]  # (a display: no call of list)
        hands[seat] = rest
        new.hands = tuple(hands)
        sit = s.sit
        cell = s.discard
        new.discard = (sit.top, cell, 1 if cell is None else cell[2] + 1)
        new.idle = 0
        lacks = s.lacks
        if lacks[seat] == act.own_suit:
            lacks = (*lacks[:seat], "", *lacks[seat + 1 :])
        new.lacks = lacks
        called = s.called
        new.called = called
        event = act.events[seat]
        if not rest:  # OC-31/OC-32: instant win, no effect; OC-42: windows close with the game
            events = [event, WIN_EVENT[seat]]
            new.sit = act.after
            new.twos = s.twos & ~(1 << seat)
            new.direction = s.direction
            new.turn = s.turn
            new.turn_no = s.turn_no
            new.win = ((), s.win[1])
            new.over = True
            new.busy = 1
            new.last = tuple(events)
            return new, events
        new.over = False
        # OC-23 – OC-27: J skips (with two players its player goes again), Q reverses (no change with
        # two players), K and A add to the attack
        effect = act.effect
        direction = s.direction
        if effect == 0:
            new.sit = situation(act.code, act.after.suit, sit.attack) if sit.attack else act.after
            turn = (seat + direction) % n
        elif effect == 3:
            new.sit = situation(act.code, act.own_suit, sit.attack + act.amount)
            turn = (seat + direction) % n
        else:
            new.sit = situation(act.code, act.after.suit, sit.attack) if sit.attack else act.after
            if effect == 1:
                turn = seat if n == 2 else (seat + 2 * direction) % n
            else:
                if n > 2:
                    direction = -direction
                turn = (seat + direction) % n
        new.direction = direction
        new.turn = turn
        new.turn_no = s.turn_no + 1
        left = rest.bit_count()
        if left > 2:  # the common case: no pre-call, window or call flag changes, so neither does busy
            new.twos = s.twos
            new.win = s.win
            new.busy = s.busy
        else:
            bit = 1 << seat
            twos = s.twos | bit if left == 2 else s.twos & ~bit
            new.twos = twos
            windows, number = s.win
            if left == 1 and not called & bit:
                # OC-38: a forgotten call opens a catch window for this seat.
                number += 1
                new.win = (sorted_windows(windows, seat, number), number)
                events = [event, {"type": "window", "seat": seat, "id": f"catch:{number}"}]
                new.last = tuple(events)
                new.busy = 1
                return new, events
            new.win = s.win
            new.busy = 1 if windows else twos & ~called
        new.last = act.lasts[seat]
        return new, [event]

    def _dispatch(self, s: Any, seat: Any, action: Any) -> tuple[State, list[JSON]]:
        """Every action but the common ones: checks in the rules' order, then the action's phase."""
        if type(s) is not State:
            s = as_state(s)
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
        sit = s.sit
        out: JSON = {
            "seat": seat,
            "players": s.n,
            "hand": s.hand_cards(seat) if seat is not None else None,
            "counts": s.hand_sizes(),
            "top": sit.top,
            "suit": sit.suit,
            "attack": {"rank": sit.top[0], "amount": sit.attack} if sit.attack else None,
            "direction": s.direction,
            "turn": s.turn,
            "turn_no": s.turn_no,
            "called": [bool(s.called >> i & 1) for i in range(s.n)],
            "windows": [{"seat": owner, "id": f"catch:{k}"} for owner, k in s.win[0]],
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
            out["hands"] = [None if i == seat else s.hand_cards(i) for i in range(s.n)]
            out["result"] = self.result(s)
        return out

    def timers(self, state: Any) -> list[JSON]:
        """The turn timer (unless ``turn_seconds`` is None) and one 5 s timer per open catch window."""
        s = as_state(state)
        if s.over:
            return []
        out: list[JSON] = []
        turn_seconds = s.cfg[1]
        if turn_seconds is not None:
            out.append({"id": f"turn:{s.turn_no}", "name": "turn", "seat": s.turn, "seconds": turn_seconds})
        for owner, k in s.win[0]:
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
        scores = s.hand_sizes()
        placements = placements_from_scores(scores)
        return {
            "placements": placements,
            "winners": [i for i, p in enumerate(placements) if p == 1],
            "scores": scores,
        }

    def dump(self, state: Any) -> JSON:
        return self.with_format(as_state(state).dump())

    def load(self, data: JSON) -> State:
        self.dump_format(data)  # formats 0 and 1 hold the same fields
        return State.load(data)

    # -- test hooks -------------------------------------------------------
    def all_cards(self, state: Any) -> Counter[str]:
        s = as_state(state)
        found: Counter[str] = Counter(s.stock_cards())
        found.update(s.discard_list())
        found[s.sit.top] += 1
        for seat in range(s.n):
            found.update(s.hand_cards(seat))
        return found

    def visible_cards(self, state: Any, seat: int | None) -> Counter[str]:
        s = as_state(state)
        seen: Counter[str] = Counter([s.sit.top])
        if s.over:
            for i in range(s.n):
                seen.update(s.hand_cards(i))
        elif seat is not None:
            seen.update(s.hand_cards(seat))
        return seen

    # -- phases -----------------------------------------------------------
    def _play(
        self, s: State, seat: int, card: Any, suit: Any, events: list[JSON]
    ) -> tuple[State, list[JSON]]:
        """OC-61: check (in the rules' order, with their refusal codes), then play."""
        _check_play(s, seat, card, suit)  # raises, or accepts (an odd suit too)
        if suit is None:
            act = PLAY[card]
        elif suit in _SUIT_SET:
            act = PLAY_SEVEN[card][suit]
        else:  # an odd suit that _check_play let through ("" is in "SHDC") gets its own object
            act = make_play(card, suit)
        if not (s.hands[seat] & act.bit and (act.more_ok if s.hands[seat] ^ act.bit else act.last_ok)):
            raise AssertionError("a checked play must take apply's common path")  # never loops
        new, more = self.apply(s, seat, act)  # a checked play of a listed action: the common path
        if not events:
            return new, more
        events += more  # a timeout's event first
        new.last = tuple(events)
        return new, events

    def _draw(self, s: State, seat: int, events: list[JSON]) -> tuple[State, list[JSON]]:
        """OC-17 – OC-19, OC-28, OC-29: draw 1 or the attack, the attack ends, the turn passes."""
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        sit = s.sit
        hands = s.hands
        hand = hands[seat]
        if hand & sit.ok:  # has_playable, from the table's playable mask
            raise IllegalAction("has_playable_card", "You hold a legal card: drawing is disabled (OC-17).")
        # the new record is built here field by field: cheaper than copy() and then overwriting half
        new = State()
        new.n = n = s.n
        new.cfg = s.cfg
        new.discard = s.discard
        new.direction = s.direction
        new.over = False
        new.turn_no = s.turn_no + 1
        attack = sit.attack
        lacks = s.lacks
        if attack:  # OC-29: the attack ends, the top card is an ordinary card again
            amount = attack
            new.sit = situation(sit.top, sit.suit, 0)
        else:
            amount = 1
            new.sit = sit
            if lacks[seat] != sit.suit:  # OC-63 tip 1, public: nothing of the active suit
                lacks = (*lacks[:seat], sit.suit, *lacks[seat + 1 :])
        new.lacks = lacks
        stock, spos, rng = s.stock
        if len(stock) - spos >= amount:  # the common case: no reshuffle
            new.stock = (stock, spos + amount, rng)
            if amount == 1:
                card = stock[spos]
                cards = [card]
                drawn = BIT[card]
            else:
                cards = list(stock[spos : spos + amount])
                drawn = mask_of(cards)
        else:
            new.stock = s.stock
            cards = take(new, amount, events)  # OC-20, OC-21
            drawn = mask_of(cards)
        events.append({"type": "draw", "seat": seat, "cards": cards, "count": len(cards)})
        new.turn = (seat + new.direction) % n
        if not cards:
            new.hands = hands
            new.twos = s.twos
            new.called = s.called
            new.win = s.win
            new.busy = s.busy
            new.idle = idle = s.idle + 1
            if idle >= n:  # OC-66: a full lap with no play and no card drawn
                new.over = True
                new.busy = 1
                new.win = ((), s.win[1])
                new.turn = s.turn
                new.turn_no = s.turn_no
                events.append({"type": "game_over", "blocked": True})
            new.last = tuple(events)
            return new, events
        # OC-37 clears the call flag, OC-42 closes the seat's window
        new.idle = 0
        hand |= drawn
        grown = [*hands]
        grown[seat] = hand
        new.hands = tuple(grown)
        bit = 1 << seat
        twos = s.twos | bit if hand.bit_count() == 2 else s.twos & ~bit
        new.twos = twos
        new.called = called = s.called & ~bit
        windows, number = s.win
        if windows:
            windows = without(windows, seat)
            new.win = (windows, number)
        else:
            new.win = s.win
        new.busy = 1 if windows else twos & ~called
        new.last = tuple(events)
        return new, events

    def _call(self, s: State, seat: int) -> tuple[State, list[JSON]]:
        """OC-36/OC-37/OC-40: pre-call at 2 cards, or call inside one's own window."""
        windows, number = s.win
        called = s.called
        if not windows and s.twos >> seat & 1 and not called >> seat & 1:
            # the common case, a pre-call (OC-36): no window to close, so busy is the seats that may call
            new = s.copy()
            new.called = called = called | 1 << seat
            new.busy = s.twos & ~called
            new.last = CALL_LASTS[seat]
            return new, [CALL_EVENTS[seat]]
        new = s.copy()
        if s.window_of(seat) is not None:
            new.win = (without(windows, seat), number)
        elif s.called >> seat & 1:
            raise IllegalAction("already_called", "You have already called One Card.")
        elif s.hands[seat].bit_count() != 2:
            raise IllegalAction("no_window", "One Card can be called at 2 cards or in your catch window.")
        new.called = s.called | 1 << seat
        new.set_busy()
        new.last = CALL_LASTS[seat]
        return new, [CALL_EVENTS[seat]]

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
        windows, number = s.win
        new.win = (without(windows, target), number)
        new.set_busy()
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
            windows, number = s.win
            new.win = (without(windows, seat), number)
            new.set_busy()
            new.last = tuple(events)
            return new, events
        if s.cfg[1] is None:
            raise IllegalAction("no_timer", "This game has no turn timer.")
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "It is not this seat's turn.")
        # OC-48: the first legal card in hand order (a 7 names the suit held most), else draw.
        hand = s.hands[seat]
        ok = hand & s.sit.ok
        if not ok:
            return self._draw(s, seat, events)
        card = CODE[ok & -ok]
        suit = None
        if card[0] == "7" and hand != BIT[card]:
            suit = most_held_suit(cards_of(hand ^ BIT[card]))
        return self._play(s, seat, card, suit, events)


def _check_play(s: State, seat: int, card: Any, suit: Any) -> None:
    """The checks of a play in the rules' order, each with its refusal code (OC-11 – OC-22, OC-32)."""
    if seat != s.turn:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if not isinstance(card, str) or card not in CARD_CODES:
        raise IllegalAction("bad_action", f"{card!r} is not a card code.")
    hand = s.hands[seat]
    if not hand & BIT[card]:
        raise IllegalAction("illegal_card", f"{card} is not in your hand.")
    sit = s.sit
    if sit.attack and card[0] != sit.top[0]:
        raise IllegalAction("illegal_card", f"Only a {sit.top[0]} answers this attack (OC-15).")
    if not sit.attack and card[1] != sit.suit and card[0] != sit.top[0]:
        raise IllegalAction("illegal_card", f"{card} matches neither the suit nor the rank (OC-11).")
    if card[0] == "7" and hand != BIT[card]:
        if not isinstance(suit, str) or suit not in SUITS:
            raise IllegalAction("bad_action", "A 7 declares a suit: S, H, D or C (OC-22).")
    elif suit is not None:
        raise IllegalAction("bad_action", "Only a 7 that is not the last card declares a suit.")
