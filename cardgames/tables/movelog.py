"""The move log: what one applied action said, told to one viewer without a card they may not see.

Pure (no Django, no I/O, standard library only), so that the offline practice worker runs it too
(PF-62, under Pyodide). The input is one row of the action log — the game, the seat that acted
(None: a table-wide timer), the action and the events its ``engine.apply`` returned — and the
viewer's seat (None: a spectator). The output is JSON the browser turns into words
(``frontend/static/frontend/movelog.js``; docs/protocol.md, "The move log"):

    {"seat": 1, "type": "catch",
     "facts": [{"kind": "catch", "seat": 1, "target": 0, "count": 2}],
     "banners": [{"kind": "caught", "seat": 1, "target": 0, "count": 2}]}

``facts`` say what happened, in order; ``banners`` (left out when there are none) are the facts a
table announces: penalties, catch windows, lives lost. Cards are named only where the viewer is
entitled to them: a drawn card for its drawer alone (OC-52; Pika's events never name one, PK-52),
a Guandan return for its giver and its receiver (GD-59); everything played face up for everyone.
``describe`` returns None for a row that is not a move anyone sees (PK-46: a hand reorder;
GD-54: a return card picked but not yet confirmed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]
Facts = list[JSON]

#: the events that begin a new deal or round: the current deal's log starts at their row
DEAL_EVENTS: dict[str, str] = {"puteo": "deal", "skyjo": "deal", "guandan": "deal_started"}
#: actions that are no move of the table's: never shown as one (PK-46, GD-54)
HIDDEN_ACTIONS: dict[str, frozenset[str]] = {"pika": frozenset({"reorder"}), "guandan": frozenset({"return"})}


def shown(game: str, action: JSON) -> bool:
    """Whether a row with ``action`` is a move the table sees (the same for every viewer)."""
    return action.get("type") not in HIDDEN_ACTIONS.get(game, frozenset())


def starts_deal(game: str, events: list[JSON]) -> bool:
    """Whether a row's events deal a new hand or round (its row opens the current deal's log)."""
    kind = DEAL_EVENTS.get(game)
    return kind is not None and any(e.get("type") == kind for e in events)


def describe(
    game: str, seat: int | None, action: JSON, events: list[JSON], viewer: int | None
) -> JSON | None:
    """The row as ``viewer`` may know it (None: a spectator), or None if it is no move to show."""
    if not shown(game, action):
        return None
    facts: Facts = []
    banners: Facts = []
    _GAMES[game](facts, banners, events, viewer)
    if not facts and seat is None:  # a table-wide timer that changed only the phase (a pause)
        facts.append({"kind": "table_timer", "timer": action.get("timer")})
    elif not facts:  # an action whose events say nothing more (e.g. Skyjo's ready): the action itself
        facts.append({"kind": str(action.get("type")), "seat": seat})
    entry: JSON = {"seat": seat, "type": action.get("type"), "facts": facts}
    if banners:
        entry["banners"] = banners
    if starts_deal(game, events):  # the log of the deal it dealt starts here
        entry["new_deal"] = True
    return entry


def entered(
    game: str, seat: int | None, events: list[JSON], viewer: int | None, hand: list[str] | None
) -> list[str]:
    """The cards this row put into ``viewer``'s hand, for the page to mark for a moment.

    ``hand`` is the viewer's hand in their view at the row's version: Pika's events count drawn
    cards without naming them (PK-52), and new cards go to the right end of the hand (PK-46).
    """
    if viewer is None:
        return []
    out: list[str] = []
    for e in events:
        kind = e.get("type")
        if game == "one_card" and kind in ("draw", "penalty") and e.get("seat") == viewer:
            out += e.get("cards") or []
        elif game == "pika" and kind in ("draw", "take_stack", "pika_penalty") and e.get("seat") == viewer:
            count = int(e.get("count") or 0)
            if count and hand:
                out += hand[-count:] if count <= len(hand) else list(hand)
        elif game == "guandan" and kind == "tribute" and e.get("to") == viewer:
            out.append(e["card"])
        elif game == "guandan" and kind == "returns_done":
            out += [r["card"] for r in e.get("returns", []) if r.get("to") == viewer]
    return out


# -- One Card (OC-38 … OC-45, OC-52) -----------------------------------------------------------
def _one_card(facts: Facts, banners: Facts, events: list[JSON], viewer: int | None) -> None:
    catch: JSON | None = None
    for e in events:
        kind, who = e.get("type"), e.get("seat")
        if kind == "play":
            facts.append(_only({"kind": "play", "seat": who, "cards": [e["card"]], "suit": e.get("suit")}))
        elif kind == "draw":
            fact = {"kind": "draw", "seat": who, "count": e.get("count", 0)}
            if who == viewer and e.get("cards"):  # OC-52: drawn cards are the drawer's alone
                fact["cards"] = list(e["cards"])
            facts.append(fact)
        elif kind == "call_one_card":
            facts.append({"kind": "call", "seat": who, "call": "one_card"})
        elif kind == "window":  # OC-38, OC-53: a forgotten call opens a catch window
            facts.append({"kind": "window", "seat": who})
            banners.append({"kind": "window", "seat": who, "call": "one_card"})
        elif kind == "catch":
            catch = {"kind": "catch", "seat": who, "target": e.get("target"), "count": 0}
            facts.append(catch)
        elif kind == "penalty":  # OC-38, OC-45: the caught player draws 2
            count = e.get("count", 0)
            if catch is not None:
                catch["count"] = count
                if who == viewer and e.get("cards"):
                    catch["cards"] = list(e["cards"])
                banners.append({"kind": "caught", "seat": catch["seat"], "target": who, "count": count})
        elif kind == "timeout":
            if e.get("timer") == "catch":  # OC-41: nobody caught the player in time
                facts.append({"kind": "safe", "seat": who})
                banners.append({"kind": "safe", "seat": who})
            else:
                facts.append({"kind": "timeout", "seat": who, "timer": e.get("timer")})
        elif kind == "reshuffle":
            facts.append({"kind": "reshuffle", "count": e.get("count", 0)})
        elif kind == "game_over":
            if e.get("blocked"):  # OC-66: a full lap with nothing played or drawn
                facts.append({"kind": "over", "blocked": True})
            else:
                facts.append({"kind": "over", "winners": [e.get("winner")]})


# -- Pika (PK-28, PK-32 … PK-37, PK-52) -------------------------------------------------------
def _pika(facts: Facts, banners: Facts, events: list[JSON], viewer: int | None) -> None:
    for e in events:
        kind, who = e.get("type"), e.get("seat")
        if kind == "play":
            facts.append(
                _only({"kind": "play", "seat": who, "cards": [e["card"]], "colour": e.get("colour")})
            )
        elif kind == "draw":  # PK-52: others see how many, and the events never name the card
            facts.append({"kind": "draw", "seat": who, "count": e.get("count", 0)})
        elif kind == "take_stack":  # PK-28: the whole stack
            count = e.get("count", 0)
            facts.append({"kind": "take_stack", "seat": who, "count": count})
            banners.append({"kind": "stack", "seat": who, "count": count})
        elif kind == "keep":
            facts.append({"kind": "keep", "seat": who})
        elif kind == "call_pika":
            facts.append({"kind": "call", "seat": who, "call": "pika"})
        elif kind == "pika_penalty":  # PK-32, PK-34: no call in time, 2 cards automatically
            count = e.get("count", 0)
            facts.append({"kind": "missed_call", "seat": who, "call": "pika", "count": count})
            banners.append({"kind": "missed_call", "seat": who, "call": "pika", "count": count})
        elif kind == "timeout":
            facts.append({"kind": "timeout", "seat": who, "timer": e.get("timer")})
        elif kind == "reshuffle":
            facts.append({"kind": "reshuffle", "count": e.get("count", 0)})
        elif kind == "round_over":
            facts.append({"kind": "over", "winners": list(e.get("winners", []))})


# -- El Puteo (PT-30, PT-35, PT-36) -----------------------------------------------------------
def _puteo(facts: Facts, banners: Facts, events: list[JSON], viewer: int | None) -> None:
    for e in events:
        kind, who = e.get("type"), e.get("seat")
        if kind == "bid":
            facts.append({"kind": "bid", "seat": who, "bid": e.get("k")})
        elif kind == "play":  # PT-30: played cards are face up for everyone
            fact = {"kind": "play", "seat": who, "cards": [e["card"]]}
            if e.get("auto"):
                fact["auto"] = True
            facts.append(fact)
        elif kind == "trick":
            facts.append({"kind": "trick", "seat": e.get("winner")})
        elif kind == "round_end":
            lost, out = list(e.get("lost_life", [])), list(e.get("eliminated", []))
            facts.append({"kind": "round_end", "round": e.get("round"), "lost": lost, "eliminated": out})
            if lost:  # PT-35: any miss costs a life; PT-36: none left, out
                banners.append({"kind": "lost_life", "seats": lost, "eliminated": out})
        elif kind == "deal":
            facts.append({"kind": "deal", "round": e.get("round"), "dealer": e.get("dealer")})
        elif kind == "ready":
            facts.append({"kind": "ready", "seat": who})
        elif kind == "timeout" and who is not None:  # a table-wide pause is no one's move
            facts.append({"kind": "timeout", "seat": who, "timer": e.get("timer")})
        elif kind == "game_over":
            facts.append({"kind": "over"})


# -- Skyjo (SK-22, SK-27 … SK-29: everything is public but face-down values) --------------------
def _skyjo(facts: Facts, banners: Facts, events: list[JSON], viewer: int | None) -> None:
    for e in events:
        kind, who = e.get("type"), e.get("seat")
        if kind == "reveal":
            facts.append({"kind": "reveal", "seat": who, "pos": e.get("pos"), "card": e.get("card")})
        elif kind == "take_discard":
            facts.append({"kind": "take_discard", "seat": who, "card": e.get("card")})
        elif kind == "draw":  # a Skyjo draw is shown to the table (the held card is public)
            facts.append({"kind": "draw_deck", "seat": who, "card": e.get("card")})
        elif kind == "swap":
            facts.append(
                {"kind": "swap", "seat": who, "pos": e.get("pos"), "card": e.get("card"), "out": e.get("out")}
            )
        elif kind == "discard_and_reveal":
            facts.append(
                {
                    "kind": "discard_reveal",
                    "seat": who,
                    "card": e.get("card"),
                    "pos": e.get("pos"),
                    "revealed": e.get("revealed"),
                }
            )
        elif kind == "column_removed":
            facts.append({"kind": "column", "seat": who, "column": e.get("column"), "card": e.get("card")})
        elif kind == "closer":  # the round's last turns begin
            facts.append({"kind": "closer", "seat": who})
            banners.append({"kind": "closer", "seat": who})
        elif kind == "round_scored":
            closer = e.get("closer")
            facts.append(
                {
                    "kind": "round_scored",
                    "round": e.get("round"),
                    "scores": list(e.get("scores", [])),
                    "closer": closer,
                    "doubled": bool(e.get("doubled")),
                }
            )
            if e.get("doubled") and closer is not None:  # SK-22: the closer's score counts double
                raw, scores = e.get("raw", []), e.get("scores", [])
                banners.append(
                    {"kind": "doubled", "seat": closer, "raw": raw[closer], "score": scores[closer]}
                )
        elif kind == "deal":
            facts.append({"kind": "deal", "round": e.get("round")})
        elif kind == "reshuffle":
            facts.append({"kind": "reshuffle", "count": e.get("size", 0)})
        elif kind == "timeout" and who is not None:
            facts.append({"kind": "timeout", "seat": who, "timer": e.get("timer")})
        elif kind == "game_over":
            facts.append({"kind": "over", "winners": list(e.get("winners", []))})


# -- Guandan (GD-52, GD-58, GD-59) -----------------------------------------------------------
def _guandan(facts: Facts, banners: Facts, events: list[JSON], viewer: int | None) -> None:
    done = any(e.get("type") == "returns_done" for e in events)  # it names every return's card
    for e in events:
        kind, who = e.get("type"), e.get("seat")
        if kind == "played":
            facts.append(
                _only(
                    {
                        "kind": "play",
                        "seat": who,
                        "cards": list(e["cards"]),
                        "combo": combo(e["cards"], e["interp"], e.get("level")),
                        # positions in ``cards`` of the heart wildcards (GD-10), by index: a card
                        # is named once in an entry
                        "wild": [i for i, c in enumerate(e["cards"]) if _is_wild(c, e.get("level"))] or None,
                    }
                )
            )
        elif kind == "passed":
            facts.append({"kind": "pass", "seat": who})
        elif kind == "trick_won":
            facts.append({"kind": "trick", "seat": who})
        elif kind == "finished":
            facts.append({"kind": "finished", "seat": who, "place": e.get("place")})
        elif kind == "deal_over":
            facts.append({"kind": "deal_over", "places": list(e.get("places", []))})
        elif kind == "match_over":
            facts.append({"kind": "over", "team": e.get("winner_team")})
        elif kind == "ready":
            facts.append({"kind": "ready", "seat": who})
        elif kind == "deal_started":
            facts.append({"kind": "deal", "deal": e.get("deal"), "level": e.get("level")})
        elif kind == "anti_tribute":  # GD-52: no tribute, and who holds the red jokers
            holders = list(e.get("holders", []))
            facts.append({"kind": "anti_tribute", "seats": holders})
            banners.append({"kind": "anti_tribute", "seats": holders})
        elif kind == "tribute":  # GD-58: the tribute card is shown face up to everyone
            fact = {"kind": "tribute", "seat": who, "to": e.get("to"), "card": e.get("card")}
            facts.append(fact)
            banners.append(dict(fact))
        elif kind == "return_confirmed":  # GD-59: the card is the giver's and receiver's alone
            fact = {"kind": "return", "seat": who, "to": e.get("to")}
            if viewer == who and e.get("card") and not done:  # not moved yet: its giver's alone
                fact["card"] = e["card"]
            facts.append(fact)
        elif kind == "returns_done":
            returns = []
            for r in e.get("returns", []):
                item = {"seat": r.get("seat"), "to": r.get("to")}
                if viewer is not None and viewer in (r.get("seat"), r.get("to")):
                    item["card"] = r.get("card")
                returns.append(item)
            facts.append({"kind": "returns_done", "leader": e.get("leader"), "returns": returns})


def combo(cards: list[str], interp: JSON, level: str | None) -> JSON:
    """A Guandan play's combination as the log names it: the interpretation, and a full house's
    pair rank ("trío de 7 con pareja de 4"), which the interpretation leaves out (GD-31)."""
    out = dict(interp)
    if interp.get("kind") == "full_house":
        triple = interp.get("rank")
        others = Counter(_rank(c) for c in cards if not _is_wild(c, level) and _rank(c) != triple)
        if others:
            out["pair"] = others.most_common(1)[0][0]
        elif level is not None:  # a pair of wildcards alone reads as the level rank (GD-11)
            out["pair"] = level
    return out


def _rank(code: str) -> str:
    return {"RJ": "red_joker", "BJ": "black_joker"}.get(code, code[:-1])


def _is_wild(code: str, level: str | None) -> bool:
    """GD-10: the two hearts of the level rank are wildcards."""
    return level is not None and code == f"{level}H"


def _only(fact: JSON) -> JSON:
    """The fact without its empty keys (a 7 that names no suit, a play with no wildcard)."""
    return {k: v for k, v in fact.items() if v is not None}


_GAMES: dict[str, Callable[[Facts, Facts, list[JSON], int | None], None]] = {
    "one_card": _one_card,
    "pika": _pika,
    "puteo": _puteo,
    "skyjo": _skyjo,
    "guandan": _guandan,
}
