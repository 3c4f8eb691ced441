"""What each seat may see of an El Puteo state (PT-20, PT-25, PT-30, PT-46–PT-49)."""

from __future__ import annotations

from collections import Counter

from ..base import JSON
from .cards import BLIND_ROUND, CARDS_PER_ROUND, CODES, ROUNDS
from .state import BID, OVER, PHASE_NAMES, PLAY, REVEAL, State, Trick, hands_now, tricks_won


def build_view(state: State, seat: int | None, to_act: list[int]) -> JSON:
    """The JSON view of ``seat`` (None: a spectator); each visible card is mentioned once."""
    tab = state.tab
    cfg = tab.cfg
    r = tab.round
    phase = state.phase
    blind = r == BLIND_ROUND
    playing = seat is not None and tab.lives[seat] > 0
    hands = hands_now(state)
    # a spectator has no hand (None, docs/protocol.md); a seat's may be empty (eliminated, or its
    # own card hidden in the blind round)
    hand: list[str] | None = None if seat is None else []
    blind_cards: list[str | None] | None = None
    if blind and phase in (REVEAL, BID):
        # PT-31, PT-47, PT-48: the others' cards only, never one's own; nothing for spectators
        blind_cards = [CODES[h[0]] if playing and s != seat and h else None for s, h in enumerate(hands)]
    elif playing and seat is not None:
        hand = [CODES[c] for c in hands[seat]]
    order = bid_order(state)
    view: JSON = {
        "seat": seat,
        "game": "puteo",
        "mode": cfg.mode,
        "round": r,
        "rounds": ROUNDS,
        "cards_per_player": CARDS_PER_ROUND[r],
        "blind": blind,
        "phase": PHASE_NAMES[phase],
        "dealer": tab.dealer,
        "bid_order": order,
        "leader": leader(state),
        "turn": state.turn if phase in (BID, PLAY) else None,
        "to_act": to_act,
        "lives": list(tab.lives),
        "start_lives": cfg.lives,
        "alive": [life > 0 for life in tab.lives],
        "eliminated_in": [None if e < 0 else e for e in tab.elim],
        "bids": [None if b < 0 else b for b in state.bids],
        "tricks_won": list(tricks_won(state)),
        "forbidden_bid": forbidden_bid(state),
        "hand": hand,
        "hand_counts": [len(h) for h in hands],
        "own_card_hidden": blind and playing and phase in (REVEAL, BID),
        "blind_cards": blind_cards,
        "current_trick": [{"seat": s, "card": CODES[c]} for s, c in state.trick],
        "tricks": _tricks_json(state.done),
        "ready": [s for s in range(cfg.n) if state.ready >> s & 1],
        "turn_seconds": cfg.turn_seconds,
        "pause": tab.last is not None,
        "last_round": None,
    }
    if tab.last is not None:  # PT-44: the result of the round just played, during the pause
        round_no, bids, won, done, missed = tab.last
        view["last_round"] = {
            "round": round_no,
            "bids": [None if b < 0 else b for b in bids],
            "tricks_won": list(won),
            "missed": list(missed),
            "tricks": _tricks_json(done),
        }
    if phase == OVER:
        won_now = tricks_won(state)
        view["missed"] = [s for s in order if state.bids[s] != won_now[s]]  # PT-35
    return view


def _tricks_json(done: tuple[tuple[int, Trick], ...]) -> list[JSON]:
    return [{"winner": w, "cards": [{"seat": s, "card": CODES[c]} for s, c in trick]} for w, trick in done]


def all_cards(state: State) -> Counter[str]:
    """Every card of the game: hands, the current and completed tricks, the undealt stock."""
    found: Counter[str] = Counter(CODES[c] for c in state.tab.stock)
    for hand in hands_now(state):
        found.update(CODES[c] for c in hand)
    found.update(CODES[c] for _, c in state.trick)
    for _, trick in state.done:
        found.update(CODES[c] for _, c in trick)
    return found


def visible_cards(state: State, seat: int | None) -> Counter[str]:
    """Played cards for everyone (PT-30); the own hand (PT-46), or in the blind round the
    others' cards and never one's own (PT-47); public cards only for spectators and
    eliminated players (PT-48)."""
    seen: Counter[str] = Counter(CODES[c] for _, c in state.trick)
    for _, trick in state.done:
        seen.update(CODES[c] for _, c in trick)
    if state.tab.last is not None:  # the round just played, on show during the pause (PT-30, PT-44)
        for _, trick in state.tab.last[3]:
            seen.update(CODES[c] for _, c in trick)
    if seat is None or not state.tab.lives[seat]:
        return seen
    if state.tab.round == BLIND_ROUND:
        for s, hand in enumerate(hands_now(state)):
            if s != seat:
                seen.update(CODES[c] for c in hand)
    else:
        seen.update(CODES[c] for c in hands_now(state)[seat])
    return seen


def forbidden_bid(state: State) -> int | None:
    """PT-22, PT-32: the dealer's forbidden bid when it is the dealer's turn, else None."""
    tab = state.tab
    if state.phase != BID or state.turn != tab.dealer or tab.round == BLIND_ROUND:
        return None
    n_r = CARDS_PER_ROUND[tab.round]
    made = 0  # the bids made (-1 is none): a plain loop is the cheapest sum here
    for b in state.bids:
        if b > 0:
            made += b
    f = n_r - made
    return f if 0 <= f <= n_r else None


def bid_order(state: State) -> list[int]:
    """PT-17: the seat after the dealer first, the dealer last (at the end: the bidders of the
    last round)."""
    n = state.tab.cfg.n
    seats = [(state.tab.dealer + i) % n for i in range(1, n + 1)]
    if state.phase == OVER:
        return [s for s in seats if state.bids[s] >= 0]
    return [s for s in seats if state.tab.lives[s]]


def leader(state: State) -> int | None:
    """PT-18: who leads (or led) the current trick; before play, who will lead the first one."""
    if state.phase == PLAY:
        return state.trick[0][0] if state.trick else state.turn
    if state.phase in (REVEAL, BID):
        return state.tab.nxt[state.tab.nxt[state.tab.dealer]]
    return None
