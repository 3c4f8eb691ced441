"""One Card, Playfulo rules (Korean 원카드): the engine (rules: ../shared/rules/one-card.md).

Rules summary (rule IDs of the specification):

- 2–4 players (OC-1), one 52-card deck without jokers (OC-2, OC-4); no house rules (OC-5, OC-59).
- Deal 7 each (OC-6); the starter is a normal number card 2–6, 8–10: a special card on top of the
  stock goes back at a random position until one shows (OC-7, OC-8). Random first player, ascending
  seats (OC-9); the starter's suit is active, no attack (OC-10).
- Play a card of the active suit or the top card's rank (OC-11); specials must match too, no card is
  wild (OC-12); after a 7 the declared suit is active, a 7 still goes on a 7 (OC-13, OC-14, OC-22).
  Under a pending attack only the attack's rank may be played, K and A never block each other (OC-15).
- A turn is one play or one draw (OC-16); drawing is refused while a legal card is held (OC-17,
  code ``has_playable_card``). A draw takes 1 card, or the whole attack, and ends the turn; the drawn
  cards wait for the next turn (OC-18, OC-19, OC-28, OC-29). An empty stock is rebuilt from the
  discard under the top card (OC-20); a shortfall is forgiven (OC-21).
- J skips one seat, with 2 players its player goes again (OC-23, OC-62); Q reverses, with 2 players
  it does nothing (OC-24); K adds 2 and A adds 3 to an attack of their own rank (OC-25 – OC-27).
- Playing the last card wins at once and its effect is not applied (OC-31, OC-32); the others rank by
  cards left, ties sharing (OC-33); a full lap with no play and no card drawn ends the game (OC-66).
- One Card: callable at 2 cards (pre-call) or in one's own window (OC-35, OC-36, OC-40); the flag
  clears when the hand grows (OC-37). Playing down to 1 card uncalled opens a 5 s catch window
  (OC-38, OC-39); the first call or catch settles it, a catch costs the owner 2 cards (OC-41, OC-45);
  the game does not pause and the window closes if the owner's hand changes (OC-42); a catch with no
  window is refused (OC-43).
- Timers: turn 30 s (OC-46); on timeout the first legal card in hand order is played (a 7 declares the
  suit held most, ties ♠ ♥ ♦ ♣), else a draw; never a call (OC-48, OC-49).
- Views: own hand in hand order (♠ ♥ ♦ ♣, then A 2…10 J Q K, OC-55), others' counts and the public
  table (OC-50, OC-51), others' draws as counts (OC-52), windows (OC-53), all hands at the end (OC-54).

Wire actions (OC-60): ``{"type": "play", "card": "7H", "suit": "S"}`` (``suit`` only for a 7 that is
not the last card), ``{"type": "draw"}``, ``{"type": "call_one_card"}``, ``{"type": "catch",
"target": 2}``, ``{"type": "timeout", "timer": "turn" | "catch"}``. Timers: ``turn`` (seat = the
player to act, id ``turn:<n>``, a new id whenever a turn starts) and ``catch`` (seat = the window's
owner, id ``catch:<k>``, kept while other players move). A ``catch`` timeout closes that window with
no penalty. Refusal codes: ``not_your_turn``, ``illegal_card``, ``bad_action``, ``bad_seat``,
``has_playable_card``, ``already_called``, ``no_window``, ``bad_target`` (catching oneself),
``no_timer`` (a turn timeout with ``turn_seconds`` None), ``game_over``.

Options:

- ``turn_seconds``: the turn limit, default 30; ``None`` turns it off (practice, OC-47). The catch
  window stays at 5 s (OC-59).
- ``deck``: card codes, top first, replacing the shuffle; seat 0 takes the first cards, seat 1 the
  next, and so on; then the starter (OC-8 reinsertion, drawn from the seeded generator, happens only
  if that card is not a normal number card); the rest is the stock in order. A shorter deck is fine.
- Test-only options (never set by rooms): ``first_player`` (a seat, instead of OC-9's random seat)
  and ``hand_size`` (cards dealt to each player instead of OC-6's 7), to build scenarios.

Events returned by ``apply`` are for the server log and hold the cards drawn; clients get views.
The returned list is the caller's, but its dicts are shared with the new state (read-only).
"""

from __future__ import annotations

from .engine import OneCardEngine
from .state import State

__all__ = ["OneCardEngine", "State"]
