"""Helpers for the Guandan tests (no tests here): set up deals with known hands and drive them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.guandan.cards import counts_of, parse_level
from cardgames.engines.guandan.combos import beats, classify, interp_from_wire

ENG = get_engine("guandan")


PAD_ORDER = ["6C", "8H", "TC", "QH", "7H", "9C", "JH", "KC", "6D", "8C", "TH", "QC", "7D", "9H", "JC", "KH"]


def padded(hands: list[list[str]], pad: int) -> list[list[str]]:
    """Add ``pad`` harmless low-interest cards to every hand (copies left in the pack only)."""
    used = Counter(c for h in hands for c in h)
    pool = [c for c in PAD_ORDER for _ in range(2 - min(2, used[c]))]
    out = []
    for i, h in enumerate(hands):
        out.append(list(h) + pool[i * pad : (i + 1) * pad])
    return out


def game(
    hands: list[list[str]], level: str = "2", levels: list[str] | None = None, pad: int = 2, **opts: Any
) -> Any:
    """A first deal with explicit hands plus ``pad`` filler cards each (S0 leads unless told otherwise)."""
    options: dict[str, Any] = {
        "hands": padded(hands, pad),
        "level": level,
        "levels": levels or [level, level],
        "turn_seconds": opts.pop("turn_seconds", None),
    }
    if "previous_places" not in opts:
        options["first_leader"] = opts.pop("first_leader", 0)
    options.update(opts)
    return ENG.new_game(4, seed=opts.pop("seed", 1), options=options)


def interp(kind: str, rank: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind}
    if rank is not None:
        out["rank"] = rank
    out.update(extra)
    return out


def play_action(cards: str | list[str], kind: str, rank: str | None = None, **extra: Any) -> dict[str, Any]:
    if isinstance(cards, str):
        cards = cards.split()
    return {"type": "play", "cards": list(cards), "interp": interp(kind, rank, **extra)}


def play(
    state: Any, seat: int, cards: str | list[str], kind: str, rank: str | None = None, **extra: Any
) -> Any:
    return ENG.apply(state, seat, play_action(cards, kind, rank, **extra))[0]


def pass_(state: Any, seat: int) -> Any:
    return ENG.apply(state, seat, {"type": "pass"})[0]


def refused(state: Any, seat: Any, action: Any) -> str:
    """Apply an action that must be refused; return its code."""
    try:
        ENG.apply(state, seat, action)
    except IllegalAction as err:
        return err.code
    raise AssertionError(f"{action!r} by {seat!r} was accepted")


def readings(cards: str, level: str = "2") -> set[tuple[str, str | None]]:
    """The (kind, rank) readings of a space-separated card list (classifier)."""
    from cardgames.engines.guandan.combos import interp_to_wire

    out = set()
    for it in classify(counts_of(cards.split()), parse_level(level)):
        w = interp_to_wire(it)
        out.add((w["kind"], w.get("rank")))
    return out


def beats_wire(a: dict[str, Any], b: dict[str, Any], level: str) -> bool:
    ia, ib = interp_from_wire(a), interp_from_wire(b)
    assert ia is not None and ib is not None
    return beats(ia, ib, parse_level(level))


def finish_deal(order: list[int], levels: list[str], level: str, **opts: Any) -> Any:
    """Play one deal of single cards so that the seats finish in ``order`` (1st first)."""
    ranks = [r for r in "34678" if r != level][:4]  # rising single power, the level rank left out
    hands: list[list[str]] = [[] for _ in range(4)]
    for place, seat in enumerate(order):
        hands[seat] = [ranks[place] + "S"]
    state = game(hands, level=level, levels=levels, first_leader=order[0], pad=0, **opts)
    expected = list(order[:3])
    while ENG.to_act(state) and ENG.view(state, None)["phase"] == "play":
        seat = ENG.to_act(state)[0]
        if expected and seat == expected[0]:
            card = hands[seat][0]
            state = play(state, seat, [card], "single", card[0])
            expected.pop(0)
        else:
            state = pass_(state, seat)
    return state


def start_next_deal(state: Any) -> Any:
    """Let the pause between deals lapse (GD-64)."""
    return ENG.apply(state, None, {"type": "timeout", "timer": "next_deal"})[0]
