"""Guandan views and the card test hooks (GD-57 … GD-61): what each seat may see, each card once.

Public (GD-58): plays with their interpretations, passes, turn, places, levels,
the tribute cards during the return phase, an anti-tribute. Private: the own
hand and, for a tribute receiver, its pick (GD-59). Counts of other hands show
only at 10 or fewer (GD-60); a finished deal shows every hand (GD-61).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import JSON
from .cards import CODES, NUM_CODES, RANK_NAMES, codes_of
from .combos import interp_to_wire
from .flow import State


def seat_view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may see (GD-57 … GD-61); None is a spectator. Each card is mentioned once."""
    phase = state["phase"]
    hands = state["hands"]
    sizes = [sum(h) for h in hands]
    reveal = phase in ("between", "over")  # GD-61
    hand = codes_of(hands[seat]) if seat is not None else None
    out: JSON = {
        "seat": seat,
        "phase": phase,
        "deal": state["deal"] + 1,
        "level": RANK_NAMES[state["level"]],
        "levels": [RANK_NAMES[x] for x in state["levels"]],
        "turn": state["turn"],
        "leading": phase == "play" and state["last"] is None,
        "counts": [n if n <= 10 or s == seat or reveal else None for s, n in enumerate(sizes)],  # GD-60
        "hand": hand,
        "trick": [_trick_entry(e) for e in state["trick"]],
        "table": state["last"],
        "discards": codes_of(state["discard"]),
        "finished": list(state["finished"]),
        "previous_places": state["prev"] if state["deal"] > 0 or state["prev"] else None,
        "anti_tribute": {"red_joker_holders": state["anti"]} if state["anti"] else None,
        "tributes": [_tribute_entry(state, t, seat, hand) for t in state["trib"]],
        "revealed": {str(s): codes_of(hands[s]) for s in range(4) if s != seat} if reveal else None,
        "winner_team": state["winner"],
    }
    return out


def all_cards(state: State) -> Counter[str]:
    """Every card of the deal: hands, earlier tricks, the current trick."""
    total = [0] * NUM_CODES
    for h in state["hands"]:
        for i, n in enumerate(h):
            total[i] += n
    for i, n in enumerate(state["discard"]):
        total[i] += n
    for e in state["trick"]:
        if len(e) > 1:
            for c in e[1]:
                total[c] += 1
    return Counter({CODES[i]: n for i, n in enumerate(total) if n})


def visible_cards(state: State, seat: int | None) -> Counter[str]:
    """What the rules let ``seat`` see now: exactly the cards ``seat_view`` mentions."""
    seen: Counter[str] = Counter(codes_of(state["discard"]))
    for e in state["trick"]:
        if len(e) > 1:
            seen.update(CODES[c] for c in e[1])
    reveal = state["phase"] in ("between", "over")
    for s in range(4):
        if s == seat or reveal:
            seen.update(codes_of(state["hands"][s]))
    if state["phase"] == "return":
        for t in state["trib"]:
            if t["to"] != seat:  # GD-58: the tribute card is shown face up to the table
                seen[CODES[t["card"]]] += 1
    return seen


def _trick_entry(entry: list[Any]) -> JSON:
    if len(entry) == 1:
        return {"seat": entry[0], "pass": True}
    k, r, s, n = entry[2]
    return {
        "seat": entry[0],
        "cards": [CODES[c] for c in entry[1]],
        "interp": interp_to_wire((k, r, s, n)),
    }


def _tribute_entry(state: State, t: dict[str, Any], seat: int | None, hand: list[str] | None) -> JSON:
    out: JSON = {"from": t["from"], "to": t["to"]}
    if state["phase"] == "return":
        # GD-58: the tribute card is public; its receiver finds it in the hand instead, by index,
        # so that every card is mentioned once in a view (GD-59: the pick is the receiver's secret)
        out["confirmed"] = t["ok"]
        if t["to"] == seat and hand is not None:
            out["card_index"] = hand.index(CODES[t["card"]])
            out["selected_index"] = hand.index(CODES[t["ret"]]) if t["ret"] is not None else None
        else:
            out["card"] = CODES[t["card"]]
    return out
