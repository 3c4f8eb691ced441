"""Pika Cartas: a UNO-like shedding game with +2/+4 stacking (rules/pika.md, seed 001).

Rules summary (rule IDs from ``rules/pika.md``):

- 2-4 players, all against all (PK-1, PK-53); the 108-card UNO deck (PK-3): per colour
  R Y G B one 0, two each of 1-9, Skip ``S``, Reverse ``R`` and ``+2``; four ``W`` and four
  ``W+4``. 7 cards each (PK-5); the starter is the first number card of the stock, other
  cards go back at a random place (PK-6); a random first seat, ascending order (PK-7).
- Play a card matching the active colour or the top value/symbol; black cards always
  (PK-8 - PK-10, no +4 challenge). A Wild or +4 names the colour in the same action (PK-12, PK-22).
- Draw one card only when nothing can be played (PK-13, PK-14); a playable drawn card may be
  played at once or kept, anything else passes (PK-15, PK-16). An empty stock is refilled from
  the discard under the card in play (PK-17); with nothing left the turn is a blocked pass (PK-18);
  multi-card draws take what exists (PK-19).
- Skip skips the next seat, Reverse turns the direction; with 2 players both replay (PK-20, PK-21).
- +2/+4 stack (PK-23): on a pending +4 only a +2 of the chosen colour or any +4 (PK-24); on a
  pending +2 any +2 (PK-25) or a +4 (PK-26); nothing else (PK-11, PK-27, PK-31). Whoever can
  chain must (PK-29); otherwise they take the whole stack, which ends their turn and leaves the
  top card as an ordinary card (PK-28, PK-30).
- Pika: a play that leaves one card starts a 5 s countdown for that seat (PK-32, PK-33, PK-36);
  ``call_pika`` stops it; when it lapses the seat draws 2 (PK-34, PK-37); any change of the hand
  size cancels it, and every play down to one card restarts it (PK-35).
- Going out wins (PK-38) unless the last card is a +2/+4: then the round ends only when a stack
  is taken while somebody holds 0 cards (PK-39 - PK-41). As many consecutive blocked passes as
  players close the round (PK-42). Places go by cards left, fewest first, competition ranking
  (PK-43); one game is one round (PK-44).
- Hand order is state: ``reorder`` at any time, new cards to the right (PK-45, PK-46).
- Timers (PK-47 - PK-49): a "turn" timer of ``turn_seconds`` per turn (kept through the
  play-or-keep decision); on timeout the engine chains / plays the first legal card in hand order
  (a black card takes the colour held most, ties R, Y, G, B), else takes / draws and keeps.
  The "pika" timer (5 s) is an engine timer that stays when ``turn_seconds`` is None.
- Hidden information (PK-50 - PK-52): own hand in order, others' counts, public table; all hands
  at the end.

Actions (PK-56): ``{"type": "play", "card": "G7"}``, ``{"type": "play", "card": "W+4",
"colour": "G"}`` (``"color"`` accepted as an alias), ``{"type": "draw"}``, ``{"type": "keep"}``,
``{"type": "take_stack"}``, ``{"type": "call_pika"}``, ``{"type": "reorder", "order": [codes]}``
(``"permutation"`` accepted as an alias, hand positions as well as codes; never listed in
``legal_actions``), ``{"type": "timeout", "timer": "turn" | "pika"}`` for the timer's seat.

View (``view(state, seat)``, each card once): ``seat``, ``num_players``, ``phase`` (turn /
after_draw / over), ``turn``, ``direction``, ``top``, ``colour``, ``stack``, ``hand`` (own, in
order; None for spectators), ``drawn_pos`` (own card waiting for PLAY or KEEP), ``hand_counts``,
``stock_count``, ``discard_count``, ``pika`` (seats in a countdown), ``blocked_passes``,
``drew_on`` (per seat, colours it drew on and has not played since: public events) and, once
over, ``revealed`` (the other seats' hands). Events never name a drawn card.

Options: ``turn_seconds`` (default 30, None: no turn timer), ``deck`` (top card first, any
ordered part of the deck, dealt in blocks of the hand size, then the starter, then the stock).
Test options: ``first_player`` (a seat instead of the random one), ``hand_size`` (default 7;
an int, or a list of one size per seat, still dealt in blocks in seat order).
"""

from .engine import PikaEngine

__all__ = ["PikaEngine"]
