"""The moves of a Skyjo round (SK-3 to SK-25), shared by the actions and the timeouts.

Each function mutates ``state``, a fresh copy owned by the ``apply`` that calls it, and appends
the events it causes; the engine validates an action before it calls them.
"""

from __future__ import annotations

from ..base import JSON, IllegalAction, rng_for
from .rules import can_draw, remove_column
from .scoring import add_scores, game_over, round_scores, winners
from .state import (
    CODE_OF,
    COLS,
    FULL_DECK,
    GRID,
    OVER,
    REVEAL,
    REVEALS,
    SCORES,
    TURN,
    SkyjoState,
    all_face_up,
    face_down_positions,
    face_up_count,
    occupied_positions,
)


def deal(state: SkyjoState, events: list[JSON]) -> None:
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


def reveal_initial(state: SkyjoState, seat: int, positions: list[int], events: list[JSON]) -> None:
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
    starter = state.next_starter if state.next_starter is not None else first_starter(state)
    start_turn(state, starter, events)


def first_starter(state: SkyjoState) -> int:
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


def start_turn(state: SkyjoState, seat: int, events: list[JSON]) -> None:
    state.phase = TURN
    state.current = seat
    state.held = None
    state.held_from = None
    state.timer_seq += 1  # SK-31: one deadline for the whole turn (both steps)
    events.append({"type": "turn", "seat": seat})


def take(state: SkyjoState, events: list[JSON]) -> None:
    """SK-9: take the visible discard; it must then be swapped."""
    state.held = state.discard.pop()
    state.held_from = "discard"
    events.append({"type": "take_discard", "seat": state.current, "card": CODE_OF[state.held]})


def draw(state: SkyjoState, events: list[JSON]) -> None:
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


def swap(state: SkyjoState, pos: int, events: list[JSON]) -> None:
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
    end_action(state, pos, events)


def discard_and_reveal(state: SkyjoState, pos: int, events: list[JSON]) -> None:
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
    end_action(state, pos, events)


def end_action(state: SkyjoState, pos: int, events: list[JSON]) -> None:
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
        score_round(state, events)
        return
    start_turn(state, (seat + 1) % state.n, events)  # SK-8: ascending seats


def score_round(state: SkyjoState, events: list[JSON]) -> None:
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
    raw = [sum(c for c in state.cards[GRID * s : GRID * (s + 1)] if c is not None) for s in range(state.n)]
    scores = round_scores(raw, closer)  # SK-22/SK-23, the same function Rulezz scores with
    state.totals = add_scores(state.totals, scores)  # SK-24
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


def auto_turn(state: SkyjoState, events: list[JSON]) -> None:
    """SK-31: draw and discard-and-reveal the first face-down card; a held discard goes there."""
    seat = state.current
    assert seat is not None
    if state.held is None:
        if can_draw(state):
            draw(state, events)
        else:  # a short fixed deck can run dry: take the discard instead (docs/decisions.md)
            take(state, events)
    face_down = face_down_positions(state, seat)
    if state.held_from == "draw" and face_down:
        discard_and_reveal(state, face_down[0], events)
    else:
        swap(state, (face_down or occupied_positions(state, seat))[0], events)
