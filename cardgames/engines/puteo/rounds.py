"""The moves of a round, shared by every action that makes them (PT-12–PT-38).

Each function mutates ``st``, a fresh state owned by the ``apply`` that calls it, and appends
the events it causes; none of them validates anything (``engine`` does that first).
"""

from __future__ import annotations

from ..base import JSON
from .cards import BLIND_ROUND, CARDS_PER_ROUND, CODES, ROUNDS, full_deck, shuffled, trick_winner
from .options import BIG_MAX
from .state import BID, OVER, PLAY, REVEAL, State, Table, Trick, tricks_won, without_trick

#: PLAYED[seat][card]: ``((seat, card),)``, what a trick grows by when ``seat`` plays ``card``
PLAYED: tuple[tuple[Trick, ...], ...] = tuple(
    tuple(((seat, card),) for card in range(len(CODES))) for seat in range(BIG_MAX)
)
_TRICK_EVENTS: tuple[JSON, ...] = tuple({"type": "trick", "winner": seat} for seat in range(BIG_MAX))
_NO_BIDS: tuple[tuple[int, ...], ...] = tuple((-1,) * n for n in range(BIG_MAX + 1))


def deal(st: State, tab: Table) -> None:
    """PT-12: deal round ``tab.round`` to the live seats in ascending order, n cards each.

    ``tab`` is a fresh table (round, dealer and lives set) that no other state shares:
    the undealt stock is stored into it.
    """
    cfg = tab.cfg
    n = cfg.n
    n_r = tab.n_r
    live = tab.live
    if cfg.deck is not None:
        order: list[int] | tuple[int, ...] = cfg.deck
    else:
        order = shuffled(full_deck(cfg.mode), cfg.round_bits(tab.round), n_r * len(live))
    hands: list[tuple[int, ...]] = [()] * n
    if n_r == 1:
        for pos, s in enumerate(live):
            hands[s] = (order[pos],)
        pos = len(live)
    else:
        pos = 0
        for s in live:
            end = pos + n_r
            hand = order[pos:end]
            hands[s] = tuple(sorted(hand))
            pos = end
    tab.stock = tuple(order[pos:])
    tab.ready = 0
    st.tab = tab
    st.hands = tuple(hands)
    st.bids = _NO_BIDS[n]
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
    st.tab = st.tab.copy()
    st.tab.ready = 0
    st.tab.last = None
    st.phase = BID
    st.turn = st.tab.nxt[st.tab.dealer]
    events.append({"type": "bidding_opens", "turn": st.turn})


def bid(st: State, seat: int, k: int, events: list[JSON]) -> None:
    bids = list(st.bids)
    bids[seat] = k
    st.bids = tuple(bids)
    events.append({"type": "bid", "seat": seat, "k": k})
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
    events.append({"type": "play", "seat": seat, "card": CODES[card], "auto": auto})
    nxt = st.tab.nxt[seat]
    if nxt != trick[0][0]:
        st.trick = trick
        st.turn = nxt
    else:
        close_trick(st, trick, events)


def close_trick(st: State, trick: Trick, events: list[JSON]) -> None:
    """The last card of ``trick`` is down: score it, take its cards out of the hands."""
    winner = trick_winner(trick)  # PT-8, PT-28
    st.hands = hands = without_trick(st.hands, trick)
    st.done = st.done + ((winner, trick),)  # noqa: RUF005
    st.trick = ()
    events.append(_TRICK_EVENTS[winner].copy())
    if hands[winner]:
        st.turn = winner  # PT-29
    else:
        end_round(st, events)


def end_round(st: State, events: list[JSON]) -> None:
    """PT-35–PT-38: exact bids are safe, any miss costs one life; elimination; game end."""
    tab = st.tab
    bids = st.bids
    won = tricks_won(st)
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
    events.append({"type": "deal", "round": st.tab.round, "dealer": st.tab.dealer})
