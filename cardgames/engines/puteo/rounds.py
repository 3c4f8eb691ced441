"""The moves of a round, shared by every action that makes them (PT-12–PT-38).

Each function mutates ``st``, a fresh state owned by the ``apply`` that calls it, and appends
the events it causes; none of them validates anything (``engine`` does that first).

Speed (docs/performance.md): the hot events (a play, a bid, a trick, a ready vote) are built once
as shared read-only dicts (``base.ReadOnlyAction``, as the legal actions), so no event is copied.
"""

from __future__ import annotations

from ..base import JSON, ReadOnlyAction
from .cards import BLIND_ROUND, CARDS_PER_ROUND, CODES, ROUNDS, full_deck, shuffled
from .options import BIG_MAX
from .state import BID, OVER, PLAY, REVEAL, State, Table, Trick

#: PLAYED[seat][card]: ``((seat, card),)``, what a trick grows by when ``seat`` plays ``card``
PLAYED: tuple[tuple[Trick, ...], ...] = tuple(
    tuple(((seat, card),) for card in range(len(CODES))) for seat in range(BIG_MAX)
)
#: shared read-only events: PLAY_EVENTS[auto][seat][card], BID_EVENTS[seat][k], TRICK_EVENTS[winner],
#: READY_EVENTS[seat]
PLAY_EVENTS: tuple[tuple[tuple[JSON, ...], ...], ...] = tuple(
    tuple(
        tuple(ReadOnlyAction(type="play", seat=seat, card=code, auto=auto) for code in CODES)
        for seat in range(BIG_MAX)
    )
    for auto in (False, True)
)
BID_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple(ReadOnlyAction(type="bid", seat=seat, k=k) for k in range(max(CARDS_PER_ROUND) + 1))
    for seat in range(BIG_MAX)
)
TRICK_EVENTS: tuple[JSON, ...] = tuple(ReadOnlyAction(type="trick", winner=seat) for seat in range(BIG_MAX))
READY_EVENTS: tuple[JSON, ...] = tuple(ReadOnlyAction(type="ready", seat=seat) for seat in range(BIG_MAX))
_NO_BIDS: tuple[tuple[int, ...], ...] = tuple((-1,) * n for n in range(BIG_MAX + 1))


def deal(st: State, tab: Table) -> None:
    """PT-12: deal round ``tab.round`` to the live seats in ascending order, n cards each.

    ``tab`` is a fresh table (round, dealer and lives set) that no other state shares:
    the undealt stock is stored into it.
    """
    cfg = tab.cfg
    n_r = tab.n_r
    live = tab.live
    if cfg.deck is not None:
        order: list[int] | tuple[int, ...] = cfg.deck
    else:
        order = shuffled(full_deck(cfg.mode), cfg.round_bits(tab.round), n_r * len(live))
    hands: list[tuple[int, ...]] = [()] * cfg.n
    if n_r == 1:
        for pos, s in enumerate(live):
            hands[s] = (order[pos],)
        pos = len(live)
    else:
        pos = 0
        for s in live:
            end = pos + n_r
            hands[s] = tuple(sorted(order[pos:end]))
            pos = end
    tab.stock = tuple(order[pos:])
    st.tab = tab
    st.ready = 0
    st.hands = tuple(hands)
    st.bids = _NO_BIDS[cfg.n]
    st.trick = ()
    st.done = ()
    if tab.round == BLIND_ROUND:
        st.phase = REVEAL  # PT-31: the reveal comes before bidding
        st.turn = -1
    else:
        st.phase = BID
        st.turn = tab.nxt[tab.dealer]  # PT-17


def open_bidding(st: State, events: list[JSON]) -> None:
    """PT-T08: after the reveal, bidding opens with the seat after the dealer."""
    if st.tab.last is not None:
        st.tab = st.tab.copy()
        st.tab.last = None
    st.ready = 0
    st.phase = BID
    st.turn = st.tab.nxt[st.tab.dealer]
    events.append({"type": "bidding_opens", "turn": st.turn})


def bid(st: State, seat: int, k: int, events: list[JSON]) -> None:
    bids = list(st.bids)
    bids[seat] = k
    st.bids = tuple(bids)
    events.append(BID_EVENTS[seat][k])
    if seat != st.tab.dealer:
        st.turn = st.tab.nxt[seat]
        return
    start_play(st, events)


def start_play(st: State, events: list[JSON]) -> None:
    """The dealer has bid (the last bid of the round): the play starts."""
    st.phase = PLAY
    st.turn = st.tab.nxt[st.tab.nxt[st.tab.dealer]]  # PT-18, PT-19
    if st.tab.round == BLIND_ROUND:  # PT-34: the cards are played automatically in trick order
        while st.phase == PLAY:
            play_card(st, st.turn, st.hands[st.turn][0], events, True)


def play_card(st: State, seat: int, card: int, events: list[JSON], auto: bool) -> None:
    trick = st.trick + PLAYED[seat][card]
    events.append(PLAY_EVENTS[auto][seat][card])
    nxt = st.tab.nxt[seat]
    if nxt != trick[0][0]:
        st.trick = trick
        st.turn = nxt
    else:
        close_trick(st, trick, events)


def close_trick(st: State, trick: Trick, events: list[JSON]) -> None:
    """The last card of ``trick`` is down: score it, take its cards out of the hands.

    The winner (PT-8, PT-28) is the first card of the highest strength: only a strictly
    stronger later card takes the trick over (``cards.trick_winner``, inlined here).
    """
    hands = [*st.hands]
    best = winner = -1
    for seat, card in trick:
        strength = card >> 2
        if strength > best:
            best = strength
            winner = seat
        hand = hands[seat]
        if hand[0] == card:
            hands[seat] = hand[1:]
        else:
            i = hand.index(card)
            hands[seat] = hand[:i] + hand[i + 1 :]
    st.hands = new_hands = tuple(hands)
    st.done = st.done + ((winner, trick),)  # noqa: RUF005
    st.trick = ()
    events.append(TRICK_EVENTS[winner])
    if new_hands[winner]:
        st.turn = winner  # PT-29
    else:
        end_round(st, events)


def end_round(st: State, events: list[JSON]) -> None:
    """PT-35–PT-38: exact bids are safe, any miss costs one life; elimination; game end."""
    tab = st.tab
    bids = st.bids
    counts = [0] * tab.cfg.n  # tricks won (PT-30), as ``state.tricks_won``
    for winner, _ in st.done:
        counts[winner] += 1
    won = tuple(counts)
    lost = [s for s in tab.live if bids[s] != won[s]]  # live seats, ascending
    out: list[int] = []
    fresh = False  # is ``tab`` a new table that no other state shares?
    if lost:
        fresh = True
        lives = list(tab.lives)
        elim = list(tab.elim)
        for s in lost:
            lives[s] -= 1
            if not lives[s]:
                elim[s] = tab.round
                out.append(s)
        if out:  # the seating changes: derive it again
            tab = Table(tab.cfg, tab.round, tab.dealer, tuple(lives), tuple(elim), tab.stock)
        else:
            tab = tab.copy()
            tab.lives = tuple(lives)
            tab.elim = tuple(elim)
    events.append({"type": "round_end", "round": tab.round, "lost_life": lost, "eliminated": out})
    if len(tab.live) <= 1 or tab.round == ROUNDS:
        st.tab = tab
        st.turn = -1
        st.phase = OVER
        events.append({"type": "game_over"})
        return
    # PT-44: the result stays on show during the pause while the next round is dealt;
    # PT-14, PT-16: the deal passes to the next live seat
    last = (tab.round, bids, won, st.done, tuple(lost))
    round_no = tab.round + 1
    dealer = tab.nxt[tab.dealer]
    if fresh:
        tab.round = round_no
        tab.n_r = CARDS_PER_ROUND[round_no]
        tab.dealer = dealer
    else:
        tab = tab.with_round(round_no, dealer, ())
    tab.last = last
    deal(st, tab)
    events.append({"type": "deal", "round": round_no, "dealer": dealer})
