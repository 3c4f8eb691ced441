"""The El Puteo state: small, immutable-by-convention, cheap to copy.

A ``State`` holds eight fields: the ones a bid, a card or a ready vote changes, and a ``Table``
holding what changes at most a few times a round (round, dealer, lives, the pause), shared by the
states of the round. ``apply`` builds one new ``State`` and replaces the fields
that change, so unchanged tuples (hands, the undealt stock, the completed tricks) are shared
between successive states and never copied. Tricks won are counted from the completed tricks.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from .cards import BITS_PER_ROUND, CARDS_PER_ROUND, CODE_TO_ID, CODES

# phases (PT-57): REVEAL is a table-timer phase (``ready`` votes may end it early); the pause
# between rounds (PT-44) is a flag (``Table.last``) on the next round's first phase, not a phase
# of its own, with the same ``ready`` votes: while it is set nobody bids.
# Numbered so that ``phase < REVEAL`` means "one seat decides": ``to_act`` is ``[turn]``.
PLAY, BID, REVEAL, OVER = range(4)
PHASE_NAMES: tuple[str, ...] = ("play", "bid", "reveal", "over")
PHASE_IDS: dict[str, int] = {name: i for i, name in enumerate(PHASE_NAMES)}

Trick = tuple[tuple[int, int], ...]  # (seat, card) in play order
# the round just scored, shown during the pause: (round, bids, tricks won, completed tricks, missed)
LastRound = tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, Trick], ...], tuple[int, ...]]


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

    def round_bits(self, round_no: int) -> int:
        """Random bits for the shuffle of round ``round_no``; bits of round 0 choose the dealer.

        A keyed hash of (seed, round): reproducible from the seed alone, drawn only for the
        rounds played, and ~10x cheaper than seeding a ``random.Random`` (docs/performance.md).
        """
        digest = _DEAL_HASH.copy()  # the same as a new hasher with these parameters, cheaper
        digest.update(f"{self.seed}:{round_no}".encode())
        return int.from_bytes(digest.digest(), "little")


_DEAL_HASH = blake2b(digest_size=BITS_PER_ROUND // 8, person=b"puteo-deal")


class Table:
    """The facts that change between rounds or at the few table-wide moments of a round (the
    pause ends): shared by the states in between. Replaced, never mutated, once
    a state holding it has left ``apply``."""

    __slots__ = (
        "big",
        "cfg",
        "dealer",
        "elim",
        "last",
        "live",
        "live_mask",
        "lives",
        "n_r",
        "nxt",
        "round",
        "stock",
    )

    cfg: Config
    round: int  # 1..9
    n_r: int  # cards dealt to each live seat this round (derived from round, PT-9)
    big: bool  # big mode: two decks mixed, equal cards possible (derived from cfg)
    dealer: int
    lives: tuple[int, ...]
    elim: tuple[int, ...]  # round in which each seat was eliminated; -1 alive, 0 before the start
    stock: tuple[int, ...]  # undealt cards of this round (PT-12)
    nxt: tuple[int, ...]  # nxt[s]: the next live seat after s (derived from lives)
    live: tuple[int, ...]  # the live seats, ascending (derived)
    live_mask: int  # bit s set for each live seat s (derived)
    last: LastRound | None  # set while the pause after a round runs (PT-44), else None

    def __init__(
        self,
        cfg: Config,
        round_no: int,
        dealer: int,
        lives: tuple[int, ...],
        elim: tuple[int, ...],
        stock: tuple[int, ...],
    ) -> None:
        self.cfg = cfg
        self.round = round_no
        self.n_r = CARDS_PER_ROUND[round_no]
        self.big = cfg.mode == "big"
        self.dealer = dealer
        self.lives = lives
        self.elim = elim
        self.stock = stock
        self.last = None
        seating = _SEATINGS.get(lives)
        if seating is None:
            if len(_SEATINGS) >= 4096:
                _SEATINGS.clear()
            live = tuple(s for s, life in enumerate(lives) if life)
            seating = _SEATINGS[lives] = (next_live_table(lives), live, sum(1 << s for s in live))
        self.nxt, self.live, self.live_mask = seating

    def with_round(self, round_no: int, dealer: int, stock: tuple[int, ...]) -> Table:
        """The same seating (lives unchanged) for another round, dealer or stock."""
        new = self.copy()
        new.round = round_no
        new.n_r = CARDS_PER_ROUND[round_no]
        new.dealer = dealer
        new.stock = stock
        return new

    def copy(self) -> Table:
        """A copy to change before any state holds it."""
        new = Table.__new__(Table)
        new.cfg = self.cfg
        new.round = self.round
        new.n_r = self.n_r
        new.big = self.big
        new.dealer = self.dealer
        new.lives = self.lives
        new.elim = self.elim
        new.stock = self.stock
        new.nxt = self.nxt
        new.live = self.live
        new.live_mask = self.live_mask
        new.last = self.last
        return new


#: lives -> (nxt, live, live_mask): the seating derived from the lives (memoized, bounded)
_SEATINGS: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], int]] = {}


class State:
    """One moment of a game. Never mutate a state that left ``apply``.

    Each field is replaced (never mutated) by the ``apply`` that changes it.
    """

    __slots__ = ("bids", "done", "hands", "phase", "ready", "tab", "trick", "turn")

    tab: Table
    phase: int
    turn: int  # seat to bid or play; -1 in the table-timer phases
    # the hands at the start of the current trick, sorted weakest first (PT-43): the cards of
    # ``trick`` are still in them (see ``hands_now``), so a play does not rebuild the hands, the
    # end of the trick does once; the seat to act has not played yet, its hand is ``hands[turn]``
    hands: tuple[tuple[int, ...], ...]
    bids: tuple[int, ...]  # -1: no bid (yet)
    trick: Trick  # the current trick
    done: tuple[tuple[int, Trick], ...]  # completed tricks of this round: (winner, trick)
    # bit mask of the seats that pressed "ready" in the pause (PT-44) or the reveal (PT-T08); a
    # vote changes only this field, so it does not copy the table
    ready: int

    def clone(self) -> State:
        new = State.__new__(State)
        new.tab = self.tab
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.bids = self.bids
        new.trick = self.trick
        new.done = self.done
        new.ready = self.ready
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and dump_state(self) == dump_state(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<puteo State round={self.tab.round} phase={PHASE_NAMES[self.phase]} turn={self.turn}>"


def tricks_won(st: State) -> tuple[int, ...]:
    """Tricks won this round by each seat (PT-30), counted from the completed tricks."""
    won = [0] * st.tab.cfg.n
    for winner, _ in st.done:
        won[winner] += 1
    return tuple(won)


def next_live_table(lives: tuple[int, ...]) -> tuple[int, ...]:
    """For each seat, the next live seat in table order (ascending, wrapping), PT-15, PT-16."""
    n = len(lives)
    table = [0] * n
    cur = next((s for s in range(n) if lives[s]), 0)  # wrapping past the last seat
    for s in range(n - 1, -1, -1):
        table[s] = cur
        if lives[s]:
            cur = s
    return tuple(table)


def hands_now(st: State) -> tuple[tuple[int, ...], ...]:
    """Each seat's hand now: ``st.hands`` without the cards already played to the current trick."""
    return without_trick(st.hands, st.trick) if st.trick else st.hands


def without_trick(hands: tuple[tuple[int, ...], ...], trick: Trick) -> tuple[tuple[int, ...], ...]:
    """``hands`` with each card of ``trick`` taken out of its player's hand (one copy)."""
    new = list(hands)
    for seat, card in trick:
        hand = new[seat]
        if hand[0] == card:
            new[seat] = hand[1:]
        else:
            i = hand.index(card)
            new[seat] = hand[:i] + hand[i + 1 :]
    return tuple(new)


def _trick_json(trick: Trick) -> list[list[Any]]:
    return [[seat, CODES[card]] for seat, card in trick]


def _trick_load(data: list[list[Any]]) -> Trick:
    return tuple((int(seat), CODE_TO_ID[code]) for seat, code in data)


def _last_json(last: LastRound) -> dict[str, Any]:
    round_no, bids, won, done, missed = last
    return {
        "round": round_no,
        "bids": list(bids),
        "won": list(won),
        "done": [[winner, _trick_json(trick)] for winner, trick in done],
        "missed": list(missed),
    }


def _last_load(data: dict[str, Any]) -> LastRound:
    return (
        int(data["round"]),
        tuple(int(x) for x in data["bids"]),
        tuple(int(x) for x in data["won"]),
        tuple((int(winner), _trick_load(trick)) for winner, trick in data["done"]),
        tuple(int(x) for x in data["missed"]),
    )


def dump_state(st: State) -> dict[str, Any]:
    tab = st.tab
    cfg = tab.cfg
    return {
        "game": "puteo",
        "version": 1,
        "players": cfg.n,
        "seed": cfg.seed,
        "mode": cfg.mode,
        "start_lives": cfg.lives,
        "turn_seconds": cfg.turn_seconds,
        "deck": None if cfg.deck is None else [CODES[c] for c in cfg.deck],
        "round": tab.round,
        "dealer": tab.dealer,
        "lives": list(tab.lives),
        "eliminated_in": list(tab.elim),
        "stock": [CODES[c] for c in tab.stock],
        "phase": PHASE_NAMES[st.phase],
        "turn": st.turn,
        "hands": [[CODES[c] for c in hand] for hand in hands_now(st)],
        "bids": list(st.bids),
        "won": list(tricks_won(st)),
        "trick": _trick_json(st.trick),
        "done": [[winner, _trick_json(trick)] for winner, trick in st.done],
        "ready": st.ready,
        "last_round": None if tab.last is None else _last_json(tab.last),
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
        st.tab = Table(
            cfg,
            int(data["round"]),
            int(data["dealer"]),
            tuple(int(x) for x in data["lives"]),
            tuple(int(x) for x in data["eliminated_in"]),
            tuple(CODE_TO_ID[c] for c in data["stock"]),
        )
        st.phase = PHASE_IDS[data["phase"]]
        st.turn = int(data["turn"])
        hands = [tuple(CODE_TO_ID[c] for c in hand) for hand in data["hands"]]
        st.bids = tuple(int(x) for x in data["bids"])
        won = tuple(int(x) for x in data["won"])
        st.trick = _trick_load(data["trick"])
        for seat, card in st.trick:  # back into the hand it came from (see State.hands)
            hands[seat] = tuple(sorted((*hands[seat], card)))
        st.hands = tuple(hands)
        st.done = tuple((int(winner), _trick_load(trick)) for winner, trick in data["done"])
        if won != tricks_won(st):  # not stored: counted from the completed tricks
            raise ValueError(f"won {list(won)} does not match the completed tricks")
        st.ready = int(data["ready"])
        last = data["last_round"]
        st.tab.last = None if last is None else _last_load(last)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(f"not a dumped El Puteo state: {err!r}") from err
    return st
