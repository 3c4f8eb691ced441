"""The Skyjo engine class (rules: ../shared/rules/skyjo.md, SK-1 to SK-34).

Phases (SK-34): ``reveal`` (every seat picks 2 cards at once, SK-5), ``turn``
(TURN_START / HOLDING_DISCARD / HOLDING_DRAWN, told apart by ``held_from``; the
FINAL_TURNS are ordinary turns counted by ``final_left``), then ROUND_SCORING
happens inside the action that ends the last turn, followed by ``scores`` (the
8 s score screen, SK-32) or ``over``.

Actions on the wire (design.md): ``reveal(pos)``, ``take_discard``, ``draw``,
``swap(pos)``, ``discard_and_reveal(pos)``, ``ready`` (dismiss the score screen)
and ``timeout(timer)``; ``pos`` is 0-11 in reading order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, action_type, check_seat, rng_for
from .moves import auto_turn, deal, discard_and_reveal, draw, reveal_initial, swap, take
from .rules import (
    can_draw,
    check_face_down,
    check_occupied,
    parse_deck,
    parse_pos,
    parse_turn_seconds,
)
from .scoring import placements, winners
from .state import (
    CARD_CODES,
    CODE_OF,
    DEFAULT_TURN_SECONDS,
    GRID,
    OVER,
    REVEAL,
    REVEALS,
    SCORE_SCREEN_SECONDS,
    SCORES,
    TURN,
    SkyjoState,
    face_down_positions,
    face_up_count,
    occupied_positions,
)

ACTION_TYPES = frozenset({"reveal", "take_discard", "draw", "swap", "discard_and_reveal", "ready", "timeout"})
TAKE: JSON = {"type": "take_discard"}
DRAW: JSON = {"type": "draw"}
READY: JSON = {"type": "ready"}


class SkyjoEngine(Engine):
    """Skyjo for 2 to 8 players, rounds until someone reaches 100 (SK-25)."""

    name: ClassVar[str] = "skyjo"
    min_players: ClassVar[int] = 2  # SK-1
    max_players: ClassVar[int] = 8
    card_codes: ClassVar[frozenset[str]] = CARD_CODES

    # -- the contract -----------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> SkyjoState:
        """Deal round 1.

        Options: ``turn_seconds`` (default 30, None: no per-player timers),
        ``deck`` (card codes top first: 12 per seat in seat order, the discard
        starter, then the draw pile; at least 12 x players + 1 cards) and the test
        option ``decks`` (a list of such decks for rounds 1, 2, ...; each a
        reordering of the first). A round without its own fixed deck shuffles
        every card of the game with ``rng_for`` (see docs/decisions.md, SK-2).
        """
        options = dict(options or {})
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise IllegalAction("bad_players", "The number of players is an integer.")
        if not self.min_players <= num_players <= self.max_players:
            raise IllegalAction("bad_players", "Skyjo takes 2 to 8 players (SK-1).")
        state = SkyjoState()
        state.n = num_players
        state.seed = seed
        state.turn_seconds = parse_turn_seconds(options.get("turn_seconds", DEFAULT_TURN_SECONDS))
        state.totals = [0] * num_players
        decks = [parse_deck(d, num_players) for d in options.get("decks") or []]
        if options.get("deck") is not None:
            decks.insert(0, parse_deck(options["deck"], num_players))
        for later in decks[1:]:
            if sorted(later) != sorted(decks[0]):
                raise IllegalAction("bad_option", "Every fixed deck must hold the same cards as the first.")
        state.decks = decks
        deal(state, [])
        return state

    def to_act(self, state: SkyjoState) -> list[int]:
        if state.phase == TURN:
            return [state.current] if state.current is not None else []
        if state.phase == REVEAL:
            return [s for s in range(state.n) if face_up_count(state, s) < REVEALS]
        if state.phase == SCORES:
            return [s for s in range(state.n) if not state.ready[s]]
        return []

    def legal_actions(self, state: SkyjoState, seat: int) -> list[JSON]:
        seat = check_seat(state.n, seat)
        if seat not in self.to_act(state):
            return []
        if state.phase == REVEAL:
            return [{"type": "reveal", "pos": p} for p in face_down_positions(state, seat)]
        if state.phase == SCORES:
            return [dict(READY)]
        if state.held is None:  # TURN_START
            return [dict(TAKE), dict(DRAW)] if can_draw(state) else [dict(TAKE)]
        actions = [{"type": "swap", "pos": p} for p in occupied_positions(state, seat)]
        if state.held_from == "draw":  # HOLDING_DRAWN; SK-11: B2 needs a face-down card
            actions += [{"type": "discard_and_reveal", "pos": p} for p in face_down_positions(state, seat)]
        return actions

    def apply(self, state: SkyjoState, seat: Any, action: Any) -> tuple[SkyjoState, list[JSON]]:
        if seat is not None:
            seat = check_seat(state.n, seat)
        kind = action_type(action)
        if kind not in ACTION_TYPES:
            raise IllegalAction("bad_action", f"Unknown action {kind!r}.")
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        if kind == "timeout":
            return self._timeout(state, seat, action)
        if seat is None:
            raise IllegalAction("bad_seat", "Only a table timer acts without a seat.")
        pos = parse_pos(action) if kind in ("reveal", "swap", "discard_and_reveal") else None
        if seat not in self.to_act(state):
            if state.phase == REVEAL and kind == "reveal":
                raise IllegalAction("reveal_limit", "You have already revealed two cards (SK-5).")
            raise IllegalAction("not_your_turn", "It is not your turn.")
        new = state.copy()
        events: list[JSON] = []
        if state.phase == REVEAL:
            if kind != "reveal":
                raise IllegalAction("wrong_phase", "Everyone reveals two cards first (SK-5).")
            assert pos is not None
            reveal_initial(new, seat, [pos], events)
        elif state.phase == SCORES:
            if kind != "ready":
                raise IllegalAction("wrong_phase", "The round is over; the next one starts soon (SK-32).")
            new.ready[seat] = True
            if all(new.ready):
                deal(new, events)
        elif state.held is None:
            if kind == "take_discard":
                take(new, events)
            elif kind == "draw":
                if not can_draw(state):
                    raise IllegalAction("empty_draw_pile", "There is no card left to draw (SK-12).")
                draw(new, events)
            else:
                raise IllegalAction("wrong_phase", "Take the discard or draw a card first (SK-9, SK-10).")
        elif kind == "swap":
            assert pos is not None
            swap(new, check_occupied(state, seat, pos), events)
        elif kind == "discard_and_reveal":
            assert pos is not None
            if state.held_from != "draw":
                raise IllegalAction("must_swap", "A card taken from the discard pile must be swapped (SK-9).")
            if not face_down_positions(state, seat):
                raise IllegalAction("no_face_down", "You have no face-down card to reveal (SK-11).")
            discard_and_reveal(new, check_face_down(state, seat, pos), events)
        else:
            raise IllegalAction("wrong_phase", "Place the card you hold first (SK-9, SK-10).")
        return new, events

    def view(self, state: SkyjoState, seat: int | None) -> JSON:
        """What ``seat`` sees; everything in Skyjo is public except face-down values (SK-27 to SK-29)."""
        if seat is not None:
            seat = check_seat(state.n, seat)
        grids = []
        for s in range(state.n):
            base = GRID * s
            row: list[str] = []
            for p in range(base, base + GRID):
                card = state.cards[p]
                row.append("removed" if card is None else CODE_OF[card] if state.up[p] else "hidden")
            grids.append(row)
        over = state.phase == OVER
        return {
            "game": self.name,
            "seat": seat,
            "players": state.n,
            "phase": state.phase,
            "round": state.round_no,
            "current": state.current if state.phase == TURN else None,
            "to_act": self.to_act(state),
            "grids": grids,
            "discard_top": CODE_OF[state.discard[-1]] if state.discard else None,
            "discard_size": len(state.discard),
            "draw_size": len(state.draw),
            "turns_played": state.turns,
            "held": None if state.held is None else {"card": CODE_OF[state.held], "source": state.held_from},
            "closer": state.closer,
            "final_turns_left": state.final_left if state.closer is not None and state.phase == TURN else 0,
            "reveals_left": [max(0, REVEALS - face_up_count(state, s)) for s in range(state.n)]
            if state.phase == REVEAL
            else [0] * state.n,
            "ready": list(state.ready) if state.phase == SCORES else [],
            "totals": list(state.totals),
            "rounds": [dict(h) for h in state.history],
            "result": self.result(state) if over else None,
        }

    def timers(self, state: SkyjoState) -> list[JSON]:
        seconds = state.turn_seconds
        if state.phase == TURN and seconds is not None:
            return [
                {"id": f"turn:{state.timer_seq}", "name": "turn", "seat": state.current, "seconds": seconds}
            ]
        if state.phase == REVEAL and seconds is not None:
            return [
                {"id": f"reveal:{state.timer_seq}:{s}", "name": "reveal", "seat": s, "seconds": seconds}
                for s in self.to_act(state)
            ]
        if state.phase == SCORES:  # a table pause: stays even without turn timers (SK-32)
            return [
                {
                    "id": f"score:{state.timer_seq}",
                    "name": "score",
                    "seat": None,
                    "seconds": SCORE_SCREEN_SECONDS,
                }
            ]
        return []

    def is_over(self, state: SkyjoState) -> bool:
        return state.phase == OVER

    def result(self, state: SkyjoState) -> JSON:
        """SK-25/SK-26: lowest total wins, ties share; ``scores`` are the totals."""
        if state.phase != OVER:
            raise IllegalAction("not_over", "The game is not over.")
        return {
            "placements": placements(state.totals),
            "winners": winners(state.totals),
            "scores": list(state.totals),
        }

    def dump(self, state: SkyjoState) -> JSON:
        return self.with_format(state.dump())

    def load(self, data: JSON) -> SkyjoState:
        self.dump_format(data)  # formats 0 and 1 hold the same fields
        return SkyjoState.load(data)

    # -- test hooks ---------------------------------------------------------------------------------
    def all_cards(self, state: SkyjoState) -> Counter[str]:
        values = [c for c in state.cards if c is not None] + state.draw + state.discard
        if state.held is not None:
            values.append(state.held)
        return Counter(CODE_OF[v] for v in values)

    def visible_cards(self, state: SkyjoState, seat: int | None) -> Counter[str]:
        """Face-up grid cards, the discard's top and the held card (SK-13, SK-28), the same for all."""
        shown = [c for c, u in zip(state.cards, state.up, strict=True) if u and c is not None]
        if state.discard:
            shown.append(state.discard[-1])
        if state.held is not None:
            shown.append(state.held)
        return Counter(CODE_OF[v] for v in shown)

    # -- actions --------------------------------------------------------------------------------
    def _timeout(self, state: SkyjoState, seat: int | None, action: JSON) -> tuple[SkyjoState, list[JSON]]:
        """SK-30 to SK-32: the automatic action of a lapsed deadline."""
        name = action.get("timer")
        if not isinstance(name, str):
            raise IllegalAction("bad_action", "A timeout names its timer.")
        pending = {(t["name"], t["seat"]) for t in self.timers(state)}
        if state.phase == REVEAL and name == "turn":
            name = "reveal"  # the reveal is this seat's decision timer too; accept the generic name
        if (name, seat) not in pending:
            raise IllegalAction("no_timer", f"No {name!r} timer is running for seat {seat!r}.")
        new = state.copy()
        events: list[JSON] = [{"type": "timeout", "timer": name, "seat": seat}]
        if name == "score":
            deal(new, events)
        elif name == "reveal":
            assert seat is not None
            rng = rng_for(new.seed, new.counter)
            new.counter += 1
            missing = REVEALS - face_up_count(new, seat)
            reveal_initial(new, seat, sorted(rng.sample(face_down_positions(new, seat), missing)), events)
        else:
            auto_turn(new, events)
        return new, events
