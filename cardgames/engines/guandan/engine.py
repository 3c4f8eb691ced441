"""The Guandan engine class: the public contract first, then one private method per phase.

See the package docstring (``cardgames.engines.guandan``) for the rules summary,
actions and options. Deal flow lives in ``flow``, combinations in ``combos``,
move generation in ``movegen``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, action_type, check_seat
from .cards import ACE, CODES, INDEX, NUM_CODES, RANK_NAMES, card_power, level_number, parse_level
from .combos import Interp, beats, classify, interp_from_wire, interp_to_wire
from .flow import (
    State,
    clone,
    clone_turn,
    end_deal,
    end_trick,
    finish_returns,
    next_active,
    return_eligible,
    start_deal,
    team,
)
from .movegen import Block, blocks_of
from .views import all_cards, seat_view, visible_cards

TURN_SECONDS = 30  # GD-62 (also the return pick, GD-63)
BETWEEN_SECONDS = 8  # GD-64
#: the last play-phase ``legal_actions``: (state, seat, trick length, hand bytes, blocks (movegen)),
#: one tuple swapped whole; states never change after creation, the hand and trick are checked all
#: the same
_LISTED: list[tuple[Any, int, int, bytes, list[Block]]] = [(None, -1, -1, b"", [])]


#: interpretation -> the "interp" dict that every listed action of that reading shares (never
#: changed once made: consumers read it)
_INTERPS: dict[Interp, JSON] = {}


def _interp(interp: Interp) -> JSON:
    wire = _INTERPS[interp] = interp_to_wire(interp)
    return wire


class GuandanEngine(Engine):
    name: ClassVar[str] = "guandan"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    card_codes: ClassVar[frozenset[str]] = frozenset(CODES)

    # -- the contract -----------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> State:
        if num_players != 4:
            raise ValueError("Guandan is played by exactly 4 players (GD-1).")
        opts = dict(options or {})
        deck = opts.get("deck")
        hands = opts.get("hands")
        if hands is not None:  # test option: explicit first-deal hands, any sizes
            if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, list) for h in hands):
                raise ValueError("options['hands'] is four lists of card codes")
            sizes = [len(h) for h in hands]
            deck = [c for h in hands for c in h]
        if deck is not None:
            if not isinstance(deck, list) or any(c not in INDEX for c in deck):
                raise ValueError("options['deck'] must be a list of card codes")
            deck = list(deck)
            if max(Counter(deck[:108]).values(), default=0) > 2:
                raise ValueError("a deal has at most two copies of a card (GD-4)")
        if hands is None:
            n = opts.get("hand_size") or (27 if deck is None or len(deck) >= 108 else len(deck) // 4)
            if not isinstance(n, int) or n < 1 or (deck is not None and len(deck) < 4 * n):
                raise ValueError("options['hand_size'] does not fit the deck")
            sizes = [n] * 4
        levels = [parse_level(x) for x in opts.get("levels", [2, 2])]
        if len(levels) != 2:
            raise ValueError("options['levels'] is [team A, team B]")
        level = parse_level(opts["level"]) if "level" in opts else levels[0]
        prev = opts.get("previous_places")
        if prev is not None and sorted(prev) != [0, 1, 2, 3]:
            raise ValueError("options['previous_places'] lists the four seats, 1st first")
        state: State = {
            "seed": seed,
            "rng": 0,
            "ts": opts.get("turn_seconds", TURN_SECONDS),
            "n": sizes,
            "deck": deck,
            "levels": levels,
            "level": level,
            "deal": 0,
            "phase": "play",
            "hands": [],
            "discard": [],
            "trick": [],
            "last": None,
            "passes": 0,
            "turn": None,
            "finished": [],
            "step": 0,
            "trib": [],
            "anti": None,
            "prev": list(prev) if prev is not None else None,
            "ready": [],
            "winner": None,
        }
        leader = opts.get("first_leader")
        start_deal(state, check_seat(4, leader) if leader is not None else None)
        return state

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "play":
            return [state["turn"]]
        if phase == "return":
            return sorted(t["to"] for t in state["trib"] if not t["ok"])
        if phase == "between":
            return [s for s in range(4) if s not in state["ready"]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        phase = state["phase"]
        if phase == "play":
            if seat != state["turn"]:
                return []
            return self._play_actions(state, seat)
        if phase == "return":
            for t in state["trib"]:
                if t["to"] == seat and not t["ok"]:
                    acts: list[JSON] = [
                        {"type": "return", "card": CODES[c]}
                        for c in return_eligible(state["hands"][seat], state["level"])
                        if c != t["ret"]
                    ]
                    if t["ret"] is not None:
                        acts.append({"type": "confirm"})
                    return acts
            return []
        if phase == "between" and seat in self.to_act(state):
            return [{"type": "ready"}]
        return []

    def apply(self, state: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        kind = action_type(action)
        if kind == "timeout":
            return self._timeout(state, seat, action)
        if state["phase"] == "play" and seat == state["turn"] and type(seat) is int:  # the common case
            if kind == "pass":
                return self._pass(state, seat)
            if kind == "play":
                cards, interp = self._parse_play(state, seat, action)
                return self._play(state, seat, cards, interp)
        seat = check_seat(4, seat)
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", f"Seat {seat} may not act now.")
        phase = state["phase"]
        if phase == "play" and kind in ("play", "pass"):
            if kind == "pass":
                return self._pass(state, seat)
            cards, interp = self._parse_play(state, seat, action)
            return self._play(state, seat, cards, interp)
        if phase == "return" and kind in ("return", "confirm"):
            return self._return(state, seat, action)
        if phase == "between" and kind == "ready":
            return self._ready(state, seat)
        raise IllegalAction("bad_action", f"{kind!r} is not possible in the {phase} phase.")

    def view(self, state: State, seat: int | None) -> JSON:
        return seat_view(state, seat)

    def timers(self, state: State) -> list[JSON]:
        phase, ts = state["phase"], state["ts"]
        if phase == "between":
            return [{"id": f"next_deal:{state['deal']}", "name": "next_deal", "seat": None, "seconds": 8}]
        if ts is None:
            return []
        if phase == "play":
            return [{"id": f"turn:{state['step']}", "name": "turn", "seat": state["turn"], "seconds": ts}]
        if phase == "return":
            return [
                {"id": f"return:{state['deal']}:{t['to']}", "name": "return", "seat": t["to"], "seconds": ts}
                for t in state["trib"]
                if not t["ok"]
            ]
        return []

    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> JSON:
        if state["phase"] != "over":
            raise ValueError("the match is not over")
        win = state["winner"]
        places = [1 if team(s) == win else 3 for s in range(4)]
        return {
            "placements": places,
            "winners": [s for s in range(4) if team(s) == win],
            "scores": [level_number(state["levels"][team(s)]) for s in range(4)],
        }

    def dump(self, state: State) -> JSON:
        return self.with_format(_copied(state))

    def load(self, data: JSON) -> State:
        self.dump_format(data)  # formats 0 and 1 hold the same fields
        state = _copied(data)
        state.pop("format", None)
        state["trick"] = [[e[0], list(e[1]), list(e[2])] if len(e) > 1 else [e[0]] for e in data["trick"]]
        return state

    # -- test hooks -------------------------------------------------------------------------
    def all_cards(self, state: State) -> Counter[str]:
        return all_cards(state)

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        return visible_cards(state, seat)

    # -- play (GD-24 … GD-30) -----------------------------------------------------------------
    def _play_actions(self, state: State, seat: int) -> list[JSON]:
        table = self._table(state)
        hand = state["hands"][seat]
        key = bytes(hand)
        blocks = blocks_of(hand, state["level"], table, key, (state["seed"], state["deal"], seat))
        # the "interp" dicts are shared (one per interpretation, read-only for everyone, the
        # engine included); each action dict and its "cards" list is new
        out: list[JSON] = [] if table is None else [{"type": "pass"}]
        append = out.append
        codes = CODES
        interps = _INTERPS
        for _, interp, plays in blocks:
            w = interps.get(interp) or _interp(interp)
            size = len(plays[0])  # one reading, one size
            if size == 5:  # most plays: spelt out, no comprehension to set up
                for a, b, c, d, e in plays:
                    append(
                        {
                            "type": "play",
                            "cards": [codes[a], codes[b], codes[c], codes[d], codes[e]],
                            "interp": w,
                        }
                    )
            elif size == 1:
                for (a,) in plays:
                    append({"type": "play", "cards": [codes[a]], "interp": w})
            else:
                for cards in plays:
                    append({"type": "play", "cards": [codes[c] for c in cards], "interp": w})
        _LISTED[0] = (state, seat, len(state["trick"]), key, blocks)
        return out

    @staticmethod
    def _table(state: State) -> Interp | None:
        if state["last"] is None:
            return None
        for entry in reversed(state["trick"]):
            if len(entry) > 1:
                k, r, s, n = entry[2]
                return (k, r, s, n)
        return None  # pragma: no cover - "last" always names a play of the trick

    def _parse_play(self, state: State, seat: int, action: JSON) -> tuple[list[int], Interp]:
        raw = action.get("cards")
        try:  # only card codes are keys of INDEX (a list or dict among the cards: a TypeError)
            cards = sorted([INDEX[c] for c in raw]) if isinstance(raw, list) and raw else None
        except (KeyError, TypeError):
            cards = None
        if cards is None:
            raise IllegalAction("bad_action", "A play names a non-empty list of card codes.")
        listed = _LISTED[0]
        if (
            listed[0] is state
            and listed[1] == seat
            and "interp" in action
            and listed[2] == len(state["trick"])
            and listed[3] == bytes(state["hands"][seat])
        ):  # the answer of the last ``legal_actions``, for this very state: a lookup is enough
            interp = interp_from_wire(action["interp"])
            if interp is not None:
                for block in listed[4]:  # one block per interpretation (movegen)
                    if block[1] == interp:
                        if tuple(cards) in block[2]:
                            return cards, interp
                        break
        counts = [0] * NUM_CODES
        for c in cards:
            counts[c] += 1
        hand = state["hands"][seat]
        if any(counts[c] > hand[c] for c in cards):
            raise IllegalAction("illegal_play", "Those cards are not in your hand.")
        readings = classify(counts, state["level"])
        table = self._table(state)
        if table is not None:
            readings = {r for r in readings if beats(r, table, state["level"])}
        if "interp" in action:
            interp = interp_from_wire(action["interp"])
            if interp is None:
                raise IllegalAction("bad_action", "Malformed interpretation.")
            if interp not in readings:
                raise IllegalAction("illegal_play", "The cards do not make that play here (GD-13 … GD-33).")
            return cards, interp
        if len(readings) != 1:  # GD-23: an ambiguous play needs its interpretation
            raise IllegalAction("illegal_play", "Not a legal play, or ambiguous: give an interp.")
        return cards, next(iter(readings))

    def _play(self, state: State, seat: int, cards: list[int], interp: Interp) -> tuple[State, list[JSON]]:
        new = clone_turn(state, seat)
        new["step"] += 1
        hand = new["hands"][seat]
        for c in cards:
            hand[c] -= 1
        new["trick"].append([seat, cards, list(interp)])
        new["last"] = seat
        new["passes"] = 0
        events: list[JSON] = [
            {
                "type": "played",
                "seat": seat,
                "cards": [CODES[c] for c in cards],
                "interp": interp_to_wire(interp),
                # which hearts are wild, for the move log's words (GD-10)
                "level": RANK_NAMES[state["level"]],
            }
        ]
        if not any(hand):
            new["finished"] = [*new["finished"], seat]
            events.append({"type": "finished", "seat": seat, "place": len(new["finished"])})
            if len(new["finished"]) == 3:
                return self._end_deal(new, events)
        new["turn"] = next_active(new, seat)
        return new, events

    def _pass(self, state: State, seat: int) -> tuple[State, list[JSON]]:
        if state["last"] is None:
            raise IllegalAction("illegal_play", "The leader must play (GD-25).")
        new = clone_turn(state)
        new["step"] += 1
        new["trick"].append([seat])
        new["passes"] += 1
        events: list[JSON] = [{"type": "passed", "seat": seat}]
        done = new["finished"]
        others = 4 - len(done) - (new["last"] not in done)  # the active seats but the table's owner
        if new["passes"] >= others:
            new["discard"] = list(new["discard"])
            end_trick(new)
            events.append({"type": "trick_won", "seat": state["last"], "leader": new["turn"]})
        else:
            new["turn"] = next_active(new, seat)
        return new, events

    def _end_deal(self, new: State, events: list[JSON]) -> tuple[State, list[JSON]]:
        before = list(new["levels"])
        new["discard"] = list(new["discard"])
        new["levels"] = list(new["levels"])
        end_deal(new)
        events.append({"type": "deal_over", "places": list(new["prev"]), "levels_before": before})
        if new["phase"] == "over":
            events.append({"type": "match_over", "winner_team": new["winner"]})
        return new, events

    # -- tribute and return (GD-47 … GD-56) -------------------------------------------------------
    def _return(self, state: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        new = clone(state)
        new["step"] += 1
        rec = next(t for t in new["trib"] if t["to"] == seat and not t["ok"])
        if action["type"] == "return":
            code = action.get("card")
            if not isinstance(code, str) or code not in INDEX:
                raise IllegalAction("bad_action", "RETURN names one card code.")
            if INDEX[code] not in return_eligible(new["hands"][seat], new["level"]):
                raise IllegalAction("illegal_return", "That card may not be returned (GD-53).")
            rec["ret"] = INDEX[code]
            return new, [{"type": "return_selected", "seat": seat}]
        if rec["ret"] is None:
            raise IllegalAction("illegal_return", "Choose a card to return before confirming (GD-54).")
        return self._confirm(new, rec)

    def _confirm(self, new: State, rec: dict[str, Any]) -> tuple[State, list[JSON]]:
        rec["ok"] = True
        # GD-59: the returned card is the giver's and the receiver's to see (the move log shows it
        # to them alone); it moves once every return is confirmed (GD-56)
        events: list[JSON] = [
            {"type": "return_confirmed", "seat": rec["to"], "to": rec["from"], "card": CODES[rec["ret"]]}
        ]
        if all(t["ok"] for t in new["trib"]):
            finish_returns(new)
            returns = [{"seat": t["to"], "to": t["from"], "card": CODES[t["ret"]]} for t in new["trib"]]
            events.append({"type": "returns_done", "leader": new["turn"], "returns": returns})
        return new, events

    # -- the pause between deals (GD-64) ----------------------------------------------------------
    def _ready(self, state: State, seat: int) -> tuple[State, list[JSON]]:
        new = clone(state)
        new["step"] += 1
        new["ready"].append(seat)
        if len(new["ready"]) == 4:
            return self._next_deal(new)
        return new, [{"type": "ready", "seat": seat}]

    def _next_deal(self, new: State) -> tuple[State, list[JSON]]:
        new["deal"] += 1
        start_deal(new)
        events: list[JSON] = [
            {"type": "deal_started", "deal": new["deal"] + 1, "level": RANK_NAMES[new["level"]]}
        ]
        if new["anti"]:  # GD-52: the table is shown that the tribute was cancelled, and why
            events.append({"type": "anti_tribute", "holders": list(new["anti"])})
        # GD-58: the tribute cards are public (shown face up during the return phase)
        events += [
            {"type": "tribute", "seat": t["from"], "to": t["to"], "card": CODES[t["card"]]}
            for t in new["trib"]
        ]
        return new, events

    # -- timeouts (GD-62 … GD-64) ------------------------------------------------------------------
    def _timeout(self, state: State, seat: Any, action: JSON) -> tuple[State, list[JSON]]:
        name = action.get("timer")
        for timer in self.timers(state):
            if timer["name"] == name and timer["seat"] == seat and not isinstance(seat, bool):
                break
        else:
            raise IllegalAction("bad_action", f"No running timer {name!r} for seat {seat!r}.")
        if name == "next_deal":
            new = clone(state)
            new["step"] += 1
            return self._next_deal(new)
        if name == "return":
            new = clone(state)
            new["step"] += 1
            rec = next(t for t in new["trib"] if t["to"] == seat and not t["ok"])
            if rec["ret"] is None:  # GD-63: the lowest eligible card, ties by suit order
                level = new["level"]
                rec["ret"] = min(
                    return_eligible(new["hands"][seat], level), key=lambda c: (card_power(c, level), c)
                )
            return self._confirm(new, rec)
        # the turn timer: a follower passes, a leader plays its lowest non-wildcard single (GD-62)
        if state["last"] is not None:
            return self._pass(state, seat)
        hand = state["hands"][seat]
        level = state["level"]
        wc = level * 4 + 1
        held = [c for c in range(NUM_CODES) if hand[c]]
        pool = [c for c in held if c != wc] or held
        card = min(pool, key=lambda c: (card_power(c, level), c))
        return self._play(
            state, seat, [card], next(iter(classify([int(i == card) for i in range(NUM_CODES)], level)))
        )


def _copied(state: State) -> State:
    """A copy of a state (or of a dump) that shares no list with it, tuples made lists (JSON)."""
    out = clone(state)
    out["trick"] = [list(e) for e in state["trick"]]
    out["prev"] = list(state["prev"]) if state["prev"] is not None else None
    out["anti"] = list(state["anti"]) if state["anti"] is not None else None
    out["deck"] = list(state["deck"]) if state["deck"] is not None else None
    out["n"] = list(state["n"])
    return out


__all__ = ["ACE", "GuandanEngine"]
