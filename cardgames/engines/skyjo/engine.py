"""The Skyjo engine class (rules: /work/shared/rules/skyjo.md, SK-1 to SK-34).

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

from cardgames.rulezz.scoring import game_over, placements, round_scores, winners

from ..base import JSON, Engine, IllegalAction, action_type, check_seat, rng_for
from .rules import (
    can_draw,
    check_face_down,
    check_occupied,
    parse_deck,
    parse_pos,
    parse_turn_seconds,
    remove_column,
)
from .state import (
    CARD_CODES,
    CODE_OF,
    COLS,
    DEFAULT_TURN_SECONDS,
    FULL_DECK,
    GRID,
    OVER,
    REVEAL,
    REVEALS,
    SCORE_SCREEN_SECONDS,
    SCORES,
    TURN,
    SkyjoState,
    all_face_up,
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
    def new_game(self, num_players: int, seed: int = 0, options: JSON | None = None) -> SkyjoState:
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
        self._deal(state, [])
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
            self._reveal_initial(new, seat, [pos], events)
        elif state.phase == SCORES:
            if kind != "ready":
                raise IllegalAction("wrong_phase", "The round is over; the next one starts soon (SK-32).")
            new.ready[seat] = True
            if all(new.ready):
                self._deal(new, events)
        elif state.held is None:
            if kind == "take_discard":
                self._take(new, events)
            elif kind == "draw":
                if not can_draw(state):
                    raise IllegalAction("empty_draw_pile", "There is no card left to draw (SK-12).")
                self._draw(new, events)
            else:
                raise IllegalAction("wrong_phase", "Take the discard or draw a card first (SK-9, SK-10).")
        elif kind == "swap":
            assert pos is not None
            self._swap(new, check_occupied(state, seat, pos), events)
        elif kind == "discard_and_reveal":
            assert pos is not None
            if state.held_from != "draw":
                raise IllegalAction("must_swap", "A card taken from the discard pile must be swapped (SK-9).")
            if not face_down_positions(state, seat):
                raise IllegalAction("no_face_down", "You have no face-down card to reveal (SK-11).")
            self._discard_and_reveal(new, check_face_down(state, seat, pos), events)
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
        return state.dump()

    def load(self, data: JSON) -> SkyjoState:
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

    # -- phases ---------------------------------------------------------------------------------------
    def _deal(self, state: SkyjoState, events: list[JSON]) -> None:
        """SK-3/SK-4: a new round: 12 cards face down per seat, a discard starter, the draw pile."""
        if state.decks:
            order = state.decks[0]
            state.decks = state.decks[1:]
        else:
            if state.round_no == 0:
                pool = list(FULL_DECK)
            else:  # every card of the game comes back, sorted so the shuffle depends on the seed only
                pool = sorted(
                    [c for c in state.cards if c is not None] + state.draw + state.discard,
                )
            rng = rng_for(state.seed, state.counter)
            state.counter += 1
            rng.shuffle(pool)
            order = pool
        n = state.n
        state.round_no += 1
        state.phase = REVEAL
        state.cards = list(order[: GRID * n])
        state.up = [False] * (GRID * n)
        state.discard = [order[GRID * n]]
        state.draw = list(reversed(order[GRID * n + 1 :]))
        state.current = None
        state.held = None
        state.held_from = None
        state.closer = None
        state.final_left = 0
        state.ready = [False] * n
        state.turns = 0
        state.timer_seq += 1
        events.append({"type": "deal", "round": state.round_no, "discard": CODE_OF[state.discard[-1]]})

    def _reveal_initial(self, state: SkyjoState, seat: int, positions: list[int], events: list[JSON]) -> None:
        """SK-5: reveal chosen cards; once every seat shows two, the first turn starts (SK-6, SK-7)."""
        base = GRID * seat
        for pos in positions:
            if state.up[base + pos]:
                raise IllegalAction("not_face_down", f"Position {pos} is already face up.")
            state.up[base + pos] = True
            card = state.cards[base + pos]
            assert card is not None
            events.append({"type": "reveal", "seat": seat, "pos": pos, "card": CODE_OF[card]})
        if any(face_up_count(state, s) < REVEALS for s in range(state.n)):
            return
        starter = state.next_starter if state.next_starter is not None else self._first_starter(state)
        self._start_turn(state, starter, events)

    def _first_starter(self, state: SkyjoState) -> int:
        """SK-6: highest sum of the two revealed cards; then the higher single card; then at random."""

        def key(seat: int) -> tuple[int, int]:
            base = GRID * seat
            shown = [c for p in range(base, base + GRID) if state.up[p] and (c := state.cards[p]) is not None]
            return sum(shown), max(shown)

        keys = [key(s) for s in range(state.n)]
        best = max(keys)
        tied = [s for s in range(state.n) if keys[s] == best]
        if len(tied) == 1:
            return tied[0]
        rng = rng_for(state.seed, state.counter)
        state.counter += 1
        return rng.choice(tied)

    def _start_turn(self, state: SkyjoState, seat: int, events: list[JSON]) -> None:
        state.phase = TURN
        state.current = seat
        state.held = None
        state.held_from = None
        state.timer_seq += 1  # SK-31: one deadline for the whole turn (both steps)
        events.append({"type": "turn", "seat": seat})

    def _take(self, state: SkyjoState, events: list[JSON]) -> None:
        """SK-9: take the visible discard; it must then be swapped."""
        state.held = state.discard.pop()
        state.held_from = "discard"
        events.append({"type": "take_discard", "seat": state.current, "card": CODE_OF[state.held]})

    def _draw(self, state: SkyjoState, events: list[JSON]) -> None:
        """SK-10/SK-13: draw the top card (shown to all); SK-12: reshuffle the discards but the top first."""
        if not state.draw:
            top = state.discard.pop()
            pile = sorted(state.discard)
            rng = rng_for(state.seed, state.counter)
            state.counter += 1
            rng.shuffle(pile)
            state.draw = pile
            state.discard = [top]
            events.append({"type": "reshuffle", "size": len(pile)})
        state.held = state.draw.pop()
        state.held_from = "draw"
        events.append({"type": "draw", "seat": state.current, "card": CODE_OF[state.held]})

    def _swap(self, state: SkyjoState, pos: int, events: list[JSON]) -> None:
        """SK-9/SK-10 B1: the held card goes face up at ``pos``; the old card (unseen) goes to the discard."""
        seat = state.current
        assert seat is not None and state.held is not None
        index = GRID * seat + pos
        old = state.cards[index]
        assert old is not None
        state.cards[index] = state.held
        state.up[index] = True
        state.discard.append(old)
        events.append(
            {"type": "swap", "seat": seat, "pos": pos, "card": CODE_OF[state.held], "out": CODE_OF[old]}
        )
        state.held = None
        state.held_from = None
        self._end_action(state, pos, events)

    def _discard_and_reveal(self, state: SkyjoState, pos: int, events: list[JSON]) -> None:
        """SK-10 B2: the drawn card goes to the discard and a face-down card of one's own is revealed."""
        seat = state.current
        assert seat is not None and state.held is not None
        state.discard.append(state.held)
        index = GRID * seat + pos
        state.up[index] = True
        card = state.cards[index]
        assert card is not None
        events.append(
            {
                "type": "discard_and_reveal",
                "seat": seat,
                "card": CODE_OF[state.held],
                "pos": pos,
                "revealed": CODE_OF[card],
            }
        )
        state.held = None
        state.held_from = None
        self._end_action(state, pos, events)

    def _end_action(self, state: SkyjoState, pos: int, events: list[JSON]) -> None:
        """SK-14/SK-15 column check, then SK-18: close the round, count the last turns, or pass on."""
        seat = state.current
        assert seat is not None
        state.turns += 1
        remove_column(state, seat, pos % COLS, events)
        if state.closer is None:
            if all_face_up(state, seat):
                state.closer = seat
                state.final_left = state.n - 1
                events.append({"type": "closer", "seat": seat})
        else:
            state.final_left -= 1
        if state.closer is not None and state.final_left == 0:
            self._score_round(state, events)
            return
        self._start_turn(state, (seat + 1) % state.n, events)  # SK-8: ascending seats

    def _score_round(self, state: SkyjoState, events: list[JSON]) -> None:
        """SK-19 to SK-25: reveal everything, remove new triples, score, and end or pause (SK-32)."""
        closer = state.closer
        assert closer is not None
        for seat in range(state.n):
            base = GRID * seat
            for pos in range(GRID):
                if state.cards[base + pos] is not None and not state.up[base + pos]:
                    state.up[base + pos] = True
            for column in range(COLS):
                remove_column(state, seat, column, events)
        raw = [
            sum(c for c in state.cards[GRID * s : GRID * (s + 1)] if c is not None) for s in range(state.n)
        ]
        scores = round_scores(raw, closer)  # the Rulezz module: one implementation of SK-22
        state.totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
        entry: JSON = {
            "round": state.round_no,
            "raw": raw,
            "scores": scores,
            "closer": closer,
            "doubled": scores[closer] != raw[closer],
        }
        state.history.append(entry)
        state.current = None
        state.next_starter = closer  # SK-7/SK-20
        events.append({"type": "round_scored", **entry, "totals": list(state.totals)})
        state.timer_seq += 1
        if game_over(state.totals):  # SK-25
            state.phase = OVER
            events.append({"type": "game_over", "winners": winners(state.totals)})
        else:
            state.phase = SCORES
            state.ready = [False] * state.n

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
            self._deal(new, events)
        elif name == "reveal":
            assert seat is not None
            rng = rng_for(new.seed, new.counter)
            new.counter += 1
            missing = REVEALS - face_up_count(new, seat)
            self._reveal_initial(
                new, seat, sorted(rng.sample(face_down_positions(new, seat), missing)), events
            )
        else:
            self._auto_turn(new, events)
        return new, events

    def _auto_turn(self, state: SkyjoState, events: list[JSON]) -> None:
        """SK-31: draw and discard-and-reveal the first face-down card; a held discard goes there."""
        seat = state.current
        assert seat is not None
        if state.held is None:
            if can_draw(state):
                self._draw(state, events)
            else:  # a short fixed deck can run dry: take the discard instead (docs/decisions.md)
                self._take(state, events)
        face_down = face_down_positions(state, seat)
        if state.held_from == "draw" and face_down:
            self._discard_and_reveal(state, face_down[0], events)
        else:
            self._swap(state, (face_down or occupied_positions(state, seat))[0], events)
