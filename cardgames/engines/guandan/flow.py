"""Guandan deal flow as pure helpers on the state dict: dealing, tribute and return, tricks, levels.

Rules: deal GD-4 … GD-7, GD-47; tribute and return GD-48 … GD-56; trick flow
GD-24 … GD-30; end of a deal and levels GD-35 … GD-45. Every helper takes a
state the caller already copied (``clone``) and changes it in place.

State (a JSON-ready dict; ``dump`` is a copy of it):
    seed, rng (random-event counter), ts (turn seconds or None), n (hand size per seat),
    deck (the ``options["deck"]`` codes or None), levels [team A, team B] (rank
    index 0..12), level (L of this deal), deal (0-based), phase
    ("return" | "play" | "between" | "over"), hands (4 lists of 54 counts),
    discard (54 counts: earlier tricks of this deal), trick (current trick:
    [seat, cards, interp] plays and [seat] passes), last (seat of the table's
    play), passes, turn, finished (seats in finishing order), step (actions
    applied: the turn timer id), trib (tribute records), anti (red-joker holders
    when the tribute was cancelled), prev (last deal's places), ready (seats that
    asked for the next deal), winner (team that won the match).
"""

from __future__ import annotations

from typing import Any

from ..base import rng_for
from .cards import ACE, BJ, FULL_DECK, INDEX, NUM_CODES, RJ, card_power, codes_of, wild_code

State = dict[str, Any]


def team(seat: int) -> int:
    """Team A = S0 + S2 (0), team B = S1 + S3 (1): partners sit opposite (GD-1)."""
    return seat & 1


def clone(state: State) -> State:
    """A copy deep enough for ``apply``: every list the helpers change is new."""
    new = dict(state)
    new["hands"] = [list(h) for h in state["hands"]]
    new["discard"] = list(state["discard"])
    new["trick"] = list(state["trick"])
    new["finished"] = list(state["finished"])
    new["levels"] = list(state["levels"])
    new["trib"] = [dict(t) for t in state["trib"]]
    new["ready"] = list(state["ready"])
    return new


def clone_turn(state: State, seat: int | None = None) -> State:
    """A cheaper copy for a play (``seat``'s hand changes) or a pass: only the trick list and that
    hand are new; the caller copies ``finished``, ``discard`` or ``levels`` before changing them."""
    new = dict(state)
    new["trick"] = list(state["trick"])
    if seat is not None:
        hands = new["hands"] = list(state["hands"])
        hands[seat] = list(hands[seat])
    return new


def deck_for_deal(state: State) -> list[int]:
    """Cards of the next deal, top first.

    ``options["deck"]`` is consumed in blocks of sum(hand sizes): deal k takes the
    k-th block. Once it runs out, a seeded shuffle of the first block's cards is used.
    """
    n4 = sum(state["n"])
    deck = state["deck"]
    k = state["deal"]
    if deck is not None and len(deck) >= (k + 1) * n4:
        return [INDEX[c] for c in deck[k * n4 : (k + 1) * n4]]
    base = sorted(INDEX[c] for c in deck[:n4]) if deck is not None else sorted(INDEX[c] for c in FULL_DECK)
    rng = rng_for(state["seed"], state["rng"])
    state["rng"] += 1
    rng.shuffle(base)
    return base


def start_deal(state: State, first_leader: int | None = None) -> None:
    """Deal, then tribute or a random first leader (GD-5, GD-47, GD-56)."""
    cards = deck_for_deal(state)
    hands = []
    start = 0
    for size in state["n"]:  # blocks: seat 0 the first cards, seat 1 the next … (GD-5)
        h = [0] * NUM_CODES
        for c in cards[start : start + size]:
            h[c] += 1
        hands.append(h)
        start += size
    state.update(
        hands=hands,
        discard=[0] * NUM_CODES,
        trick=[],
        last=None,
        passes=0,
        finished=[],
        trib=[],
        anti=None,
        ready=[],
    )
    prev = state["prev"]
    if prev is None:
        if first_leader is None:
            first_leader = rng_for(state["seed"], state["rng"]).randrange(4)
            state["rng"] += 1
        _begin_play(state, first_leader)
    else:
        _tribute(state, prev)


def _begin_play(state: State, leader: int) -> None:
    state["phase"] = "play"
    state["turn"] = leader


def tribute_card(hand: list[int], level: int) -> int | None:
    """The payer's strongest card, never a heart wildcard; ties by suit order ♠♥♣♦ (GD-48, GD-51)."""
    wc = wild_code(level)
    best: int | None = None
    best_power = -1
    for c in range(NUM_CODES):
        if hand[c] and c != wc:
            p = card_power(c, level)
            if p > best_power:  # strictly: the first card of equal power (lowest suit index) stays
                best, best_power = c, p
    return best


def return_eligible(hand: list[int], level: int) -> list[int]:
    """Codes the receiver may return (GD-53): non-wildcards of natural rank 2–10, else the lowest power."""
    wc = wild_code(level)
    low = [c for c in range(36) if hand[c] and c != wc]  # ranks 2..10 are indices 0..35
    if low:
        return low
    others = [c for c in range(NUM_CODES) if hand[c] and c != wc]
    if not others:
        return [wc] if hand[wc] else []
    least = min(card_power(c, level) for c in others)
    return [c for c in others if card_power(c, level) == least]


def _tribute(state: State, prev: list[int]) -> None:
    """Anti-tribute check, automatic tribute, then the return phase (GD-48 … GD-52, GD-56)."""
    hands, level = state["hands"], state["level"]
    first, second, last = prev[0], prev[1], prev[3]
    double = team(first) == team(second)
    payers = [s for s in range(4) if team(s) != team(first)] if double else [last]
    red = sum(hands[s][RJ] for s in payers)
    if red >= 2:  # GD-52: both red jokers among the payers cancels tribute and return
        state["anti"] = [s for s in payers if hands[s][RJ]]
        _begin_play(state, first)
        return
    cards = {s: tribute_card(hands[s], level) for s in payers}
    if double:
        # GD-49: the higher tribute goes to 1st; GD-50: equal ones in turn order from 1st place
        order = sorted(payers, key=lambda s: (-_power(cards[s], level), (s - first) % 4))
        pairs = [(order[0], first), (order[1], second)]
    else:
        pairs = [(last, first)]
    for payer, receiver in pairs:
        card = cards[payer]
        if card is None:  # an empty hand (short test decks) pays nothing
            continue
        hands[payer][card] -= 1
        hands[receiver][card] += 1
        state["trib"].append({"from": payer, "to": receiver, "card": card, "ret": None, "ok": False})
    if not state["trib"]:
        _begin_play(state, first)
        return
    state["phase"] = "return"
    state["turn"] = None


def _power(card: int | None, level: int) -> int:
    return -1 if card is None else card_power(card, level)


def finish_returns(state: State) -> None:
    """Every receiver confirmed: the returns move and the payer to 1st place leads (GD-55, GD-56)."""
    hands = state["hands"]
    first = state["prev"][0]
    leader = first
    for t in state["trib"]:
        hands[t["to"]][t["ret"]] -= 1
        hands[t["from"]][t["ret"]] += 1
        if t["to"] == first:
            leader = t["from"]
    _begin_play(state, leader)


def active(state: State) -> list[int]:
    done = state["finished"]
    return [s for s in range(4) if s not in done]


def next_active(state: State, seat: int) -> int:
    """The next seat after ``seat`` in turn order that still holds cards (GD-24, GD-29)."""
    done = state["finished"]
    for k in range(1, 5):
        s = (seat + k) % 4
        if s not in done:
            return s
    return seat  # pragma: no cover - a live deal always has two active players


def end_trick(state: State) -> None:
    """Everyone else passed: the trick's cards are discarded and a new leader leads (GD-28 … GD-30)."""
    discard = state["discard"]
    for entry in state["trick"]:
        if len(entry) > 1:
            for c in entry[1]:
                discard[c] += 1
    last = state["last"]
    state["trick"] = []
    state["last"] = None
    state["passes"] = 0
    done = state["finished"]
    if last not in done:
        leader = last
    elif (last + 2) % 4 not in done:
        leader = (last + 2) % 4  # jiefeng: the partner takes the lead (GD-29)
    else:
        leader = next_active(state, last)
    state["turn"] = leader


def end_deal(state: State) -> None:
    """Places, level advance, match check (GD-36 … GD-44); then the pause before the next deal."""
    remaining = [s for s in range(4) if s not in state["finished"]]
    places = state["finished"] + remaining
    discard = state["discard"]
    for entry in state["trick"]:
        if len(entry) > 1:
            for c in entry[1]:
                discard[c] += 1
    state["trick"] = []
    state["last"] = None
    state["turn"] = None
    state["prev"] = places
    winner = team(places[0])
    partner_place = places.index(places[0] ^ 2)  # 1, 2 or 3
    levels = state["levels"]
    if levels[winner] == ACE and state["level"] == ACE and partner_place < 3:
        state["phase"] = "over"  # GD-42: a team at A wins a deal played at A, partner not last
        state["winner"] = winner
        return
    levels[winner] = min(ACE, levels[winner] + (4 - partner_place))  # +3/+2/+1 capped at A (GD-38, GD-39)
    state["level"] = levels[winner]  # GD-40: the next deal is played at the winners' level
    state["phase"] = "between"


def hand_codes(state: State, seat: int) -> list[str]:
    return codes_of(state["hands"][seat])


__all__ = ["BJ", "State"]
