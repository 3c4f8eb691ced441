"""Guandan (掼蛋): four players in two partnerships, two decks, levels, tribute (../shared/rules/guandan.md).

Summary with rule IDs:
- 108 cards (GD-4), 27 each (GD-5); partners opposite, team A = S0 + S2, team B = S1 + S3 (GD-1);
  play goes S0 → S1 → S2 → S3 (counter-clockwise, GD-24).
- Level rank L: jokers > L > A > K > … > 2 (GD-8); the two hearts of L are wildcards for any
  ordinary card, never a joker; alone they are an L (GD-10 … GD-12).
- Combinations GD-13 … GD-22 (see ``combos``), comparison GD-27, GD-31 … GD-33; an ambiguous
  play carries its interpretation (GD-23, GD-67).
- Tricks: the leader plays, followers may pass, the lead returns to the last player when all
  others pass, or to the partner / next active player when that player has finished (GD-25 … GD-30).
- A deal ends when the third player finishes (GD-36); levels +3/+2/+1 capped at A (GD-38, GD-39);
  the match is won at A in a deal played at A with the partner not last (GD-42 … GD-44).
- Tribute (automatic) and return (the receiver picks and confirms), anti-tribute, first leader
  (GD-47 … GD-56). Hidden hands, counts shown at ≤ 10 (GD-57 … GD-61). Timers GD-62 … GD-64.

Actions (GD-66): ``{"type": "play", "cards": [...], "interp": {...}}`` (interp format: ``combos``;
``interp`` may be left out when the cards have one reading; ``legal_actions`` lists the cards in
canonical order: rank 2 … A, within a rank ♠ ♥ ♣ ♦, then BJ, RJ; ``apply`` takes any order; the
``interp`` dicts of listed actions are shared between actions and calls: read them, never change them),
``{"type": "pass"}``,
``{"type": "return", "card": "5S"}`` then ``{"type": "confirm"}``, ``{"type": "ready"}`` (the
pause between deals: all four ready, or the table-wide ``next_deal`` timer, starts the next
deal), and the server's ``{"type": "timeout", "timer": "turn" | "return" | "next_deal"}``.

Options: ``deck`` (codes, top first; dealt in blocks: seat 0 the first hand-size cards, seat 1
the next …; deal k uses the k-th block of 4 × hand size cards, and once the list runs out each
deal is a seeded shuffle of the first block's cards), ``hand_size`` (default 27, or a quarter
of a shorter deck), ``hands`` (tests: four explicit first-deal hands, any sizes),
``turn_seconds`` (30; None removes the turn and return timers, the 8 s pause stays),
``levels`` ([team A, team B], "2".."A" or 2..14; default both 2), ``level`` (L of the first
deal; default team A's level), ``previous_places`` (seats 1st..4th of a previous deal: the
first deal then starts with tribute), ``first_leader`` (instead of the random first leader).
"""

from .engine import GuandanEngine

__all__ = ["GuandanEngine"]
