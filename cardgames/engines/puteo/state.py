"""The El Puteo state: small, immutable-by-convention, cheap to copy.

A ``State`` holds tuples and ints only. ``apply`` makes one shallow ``clone`` and replaces
the fields that change, so unchanged tuples (hands of other seats, the undealt stock, the
completed tricks) are shared between successive states and never copied.
"""

from __future__ import annotations

from typing import Any

from .cards import CODE_TO_ID, CODES

# phases (PT-57): REVEAL and PAUSE are the table-timer phases (``ready`` votes may end them early)
REVEAL, BID, PLAY, PAUSE, OVER = range(5)
PHASE_NAMES: tuple[str, ...] = ("reveal", "bid", "play", "pause", "over")
PHASE_IDS: dict[str, int] = {name: i for i, name in enumerate(PHASE_NAMES)}

Trick = tuple[tuple[int, int], ...]  # (seat, card) in play order


class Config:
    """What never changes during a game; shared by every state of that game."""

    __slots__ = ("deck", "lives", "mode", "n", "seed", "turn_seconds")

    def __init__(
        self,
        n: int,
        seed: int | str,
        mode: str,
        lives: int,
        turn_seconds: int | float | None,
        deck: tuple[int, ...] | None,
    ) -> None:
        self.n = n
        self.seed = seed
        self.mode = mode
        self.lives = lives
        self.turn_seconds = turn_seconds
        self.deck = deck  # options["deck"] (top first), or None for a seeded shuffle


class State:
    """One moment of a game. Never mutate a state that left ``apply``."""

    __slots__ = (
        "bids",
        "cfg",
        "dealer",
        "done",
        "elim",
        "hands",
        "lives",
        "phase",
        "ready",
        "round",
        "step",
        "stock",
        "trick",
        "turn",
        "won",
    )

    cfg: Config
    round: int  # 1..9
    phase: int
    dealer: int
    lives: tuple[int, ...]
    elim: tuple[int, ...]  # round in which each seat was eliminated; -1 alive, 0 before the start
    hands: tuple[tuple[int, ...], ...]  # sorted weakest first (PT-43)
    stock: tuple[int, ...]  # undealt cards of this round (PT-12)
    bids: tuple[int, ...]  # -1: no bid (yet)
    won: tuple[int, ...]  # tricks won this round
    turn: int  # seat to bid or play; -1 in the table-timer phases
    trick: Trick  # the current trick
    done: tuple[tuple[int, Trick], ...]  # completed tricks of this round: (winner, trick)
    ready: int  # bit mask of seats that pressed "ready" in REVEAL / PAUSE
    step: int  # actions applied so far (timer ids)

    def clone(self) -> State:
        new = State.__new__(State)
        new.cfg = self.cfg
        new.round = self.round
        new.phase = self.phase
        new.dealer = self.dealer
        new.lives = self.lives
        new.elim = self.elim
        new.hands = self.hands
        new.stock = self.stock
        new.bids = self.bids
        new.won = self.won
        new.turn = self.turn
        new.trick = self.trick
        new.done = self.done
        new.ready = self.ready
        new.step = self.step
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and dump_state(self) == dump_state(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<puteo State round={self.round} phase={PHASE_NAMES[self.phase]} turn={self.turn}>"


def _trick_json(trick: Trick) -> list[list[Any]]:
    return [[seat, CODES[card]] for seat, card in trick]


def _trick_load(data: list[list[Any]]) -> Trick:
    return tuple((int(seat), CODE_TO_ID[code]) for seat, code in data)


def dump_state(st: State) -> dict[str, Any]:
    cfg = st.cfg
    return {
        "game": "puteo",
        "version": 1,
        "players": cfg.n,
        "seed": cfg.seed,
        "mode": cfg.mode,
        "start_lives": cfg.lives,
        "turn_seconds": cfg.turn_seconds,
        "deck": None if cfg.deck is None else [CODES[c] for c in cfg.deck],
        "round": st.round,
        "phase": PHASE_NAMES[st.phase],
        "dealer": st.dealer,
        "lives": list(st.lives),
        "eliminated_in": list(st.elim),
        "hands": [[CODES[c] for c in hand] for hand in st.hands],
        "stock": [CODES[c] for c in st.stock],
        "bids": list(st.bids),
        "won": list(st.won),
        "turn": st.turn,
        "trick": _trick_json(st.trick),
        "done": [[winner, _trick_json(trick)] for winner, trick in st.done],
        "ready": st.ready,
        "step": st.step,
    }


def load_state(data: dict[str, Any]) -> State:
    try:
        deck = data["deck"]
        cfg = Config(
            n=int(data["players"]),
            seed=data["seed"],
            mode=str(data["mode"]),
            lives=int(data["start_lives"]),
            turn_seconds=data["turn_seconds"],
            deck=None if deck is None else tuple(CODE_TO_ID[c] for c in deck),
        )
        st = State.__new__(State)
        st.cfg = cfg
        st.round = int(data["round"])
        st.phase = PHASE_IDS[data["phase"]]
        st.dealer = int(data["dealer"])
        st.lives = tuple(int(x) for x in data["lives"])
        st.elim = tuple(int(x) for x in data["eliminated_in"])
        st.hands = tuple(tuple(CODE_TO_ID[c] for c in hand) for hand in data["hands"])
        st.stock = tuple(CODE_TO_ID[c] for c in data["stock"])
        st.bids = tuple(int(x) for x in data["bids"])
        st.won = tuple(int(x) for x in data["won"])
        st.turn = int(data["turn"])
        st.trick = _trick_load(data["trick"])
        st.done = tuple((int(winner), _trick_load(trick)) for winner, trick in data["done"])
        st.ready = int(data["ready"])
        st.step = int(data["step"])
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(f"not a dumped El Puteo state: {err!r}") from err
    return st
