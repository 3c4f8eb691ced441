"""El Puteo: exact-bid tricks with lives, Spanish 40-card deck, a blind round (../shared/rules/puteo.md).

Rules summary (IDs of ``../shared/rules/puteo.md``)
---------------------------------------------------
- Survive: bid exactly the tricks you take; any miss costs 1 life; 0 lives eliminates; the last
  player standing wins (PT-1, PT-35, PT-36). Lives 5 or 3 (PT-5, PT-50).
- Classic mode: 2–8 players, 40 cards; big mode: 2–12 players, two decks mixed, so duplicates
  occur (PT-2–PT-4, PT-51). No trump, suits equal: As > Rey > Caballo > Sota > 7 … 2; of two
  equal cards the one played first wins (PT-6–PT-8, PT-28).
- Nine rounds dealing 5-4-3-2-1-2-3-4-5 cards to every live player, as many tricks (PT-9, PT-10,
  PT-12); a fresh deck each round, undealt cards unused.
- The deal passes to the next live seat each round (PT-14–PT-16); the first dealer is a random
  live seat. The seat after the dealer bids first, the dealer last (PT-17); the second seat after
  the dealer leads the first trick, the trick winner the next ones (PT-18, PT-19 with 2 players).
- Bids 0..n; the dealer may not bid ``f = n − (others' bids)`` when ``0 ≤ f ≤ n`` (the puteo rule,
  PT-21–PT-24); any card may be played, highest strength wins (PT-26–PT-29).
- Round 5 is blind (PT-13, PT-31–PT-34, PT-47): a seat sees every other live seat's card and never
  its own; a 10 s reveal comes before bidding (no bid is accepted during it); no forbidden bid;
  after the last bid the cards are played automatically in trick order, starting with the second
  seat after the dealer.
- After each round lives are settled; the game ends when one or no live player is left (no
  winner if the last ones fall together) or after round 9 (most lives wins, ties share)
  (PT-11, PT-36–PT-38). Ranking PT-39.
- Timers (PT-40–PT-45): ``turn`` (``turn_seconds``, default 30 s) for each bid and card; on
  timeout bid 0, or 1 if 0 is forbidden; play the first card in hand order (hands are sorted
  weakest first, equal ranks O, C, E, B). A 6 s ``pause`` after each round, then the next deal.

Phases, the pause and the ``ready`` action (docs/decisions.md, PT-44, PT-57)
-----------------------------------------------------------------------------
``reveal`` (round 5 only), ``bid``, ``play``, ``over``. When a round ends (and the game goes
on) the next round is dealt at once, in the same ``apply``, and a 6 s table timer ``pause``
(seat None) runs first: the view shows ``"pause": true`` and ``last_round`` (bids, tricks won,
missed, the tricks) while no other deadline runs. During the pause ``to_act`` lists the live
seats that have not yet pressed ``{"type": "ready"}``, their only legal action; no bid is
accepted (``wrong_phase``), so nobody cuts another player's result screen short. The pause ends
when it lapses (``apply(state, None, {"type": "timeout", "timer": "pause"})``) or when every
live seat is ready; the votes do not carry over. The reveal (10 s table timer ``reveal``, after
the pause) works the same way with its own votes and accepts no bid (PT-T08); when every live
seat is ready, bidding opens early, otherwise the timer opens it. There is no ``play`` phase
in the blind round: the last bid plays the cards at once (``play`` events in order,
``"auto": true``); the ~1 s pacing of PT-34 is the client's animation of those events.

Actions (PT-57): ``{"type": "bid", "k": 3}``, ``{"type": "play", "card": "1O"}``,
``{"type": "ready"}``, ``{"type": "timeout", "timer": "turn" | "reveal" | "pause"}``.
IllegalAction codes: ``bad_action`` (malformed, unknown card code), ``bad_seat``,
``not_your_turn``, ``wrong_phase`` (e.g. a bid during the reveal, a play in the blind round),
``bad_bid`` (outside 0..n), ``forbidden_bid`` (the puteo rule), ``illegal_card`` (not in hand),
``already_ready``, ``no_timer`` (no such deadline is pending), ``game_over``.

Options
-------
- ``lives``: 5 (default) or 3. ``mode``: ``"classic"`` or ``"big"``; when absent it is classic
  for 2–8 players and big for 9–12 (the only mode that seats them); an explicit classic game of
  9+ players raises ``IllegalAction("too_many_players")`` (a ValueError), PT-T21.
- ``turn_seconds``: default 30; ``None`` removes the per-player ``turn`` timer (``reveal`` and
  ``pause`` stay).
- ``deck``: card codes, top first, replacing the shuffle. **Every round deals from this same
  order again** (it stands for the fresh deck of PT-12): the live seats in ascending seat order
  each take the next ``n`` cards of the round in a block (seat 0 the first n, the next live seat
  the following n, …); the rest is the unused stock. So with 4 live players in round 5, seat 0
  gets ``deck[0]``, seat 1 ``deck[1]`` …; in round 1 seat 0 gets ``deck[0:5]``. Eliminated seats
  are skipped (the next live seat takes the next block). The deck must be able to serve every
  round from ``start_round`` on (``max n × players`` cards), holding each code at most once
  (classic) or twice (big). Without ``deck``, each round deals the same way from a fresh
  shuffle: each round's randomness is 512 bits of a keyed BLAKE2b hash of ``"{seed}:{round}"``
  (round 0's bits choose the first dealer, round r's bits a partial Fisher–Yates shuffle of the
  full deck), so a game is reproducible from its seed and options alone.
- Test options: ``first_dealer`` (seat of the first dealer, default a uniformly random live
  seat, PT-15); ``start_round`` (1–9, default 1: the game starts at that round, e.g. 5
  for the blind round); ``start_lives`` (one int per seat, 0..lives: lives at the start; 0 means
  already eliminated, ranked as eliminated in round 0; at least two seats must be alive).
  Unknown option keys are ignored.

Views
-----
``view(state, seat)`` carries ``seat``, round, cards per player, phase, dealer, bid order,
leader, turn, lives, bids, tricks won (PT-30), the forbidden bid, the current trick and the
completed tricks of the round (every card played is public), the own ``hand`` (sorted, PT-43),
in the blind round ``blind_cards``: per seat the card if this viewer may see it, else None
(own card, spectators and eliminated players: PT-47, PT-48), and during the pause
``last_round`` (the round just scored, its tricks included: played cards are public, PT-30).
"""

from __future__ import annotations

from .engine import PuteoEngine

__all__ = ["PuteoEngine"]
