"""Economy services: every write to coins, pots, XP and the shop (docs/economy.md).

Keyword-only, typed; each raises ``EconomyError(code, message)`` for bad input and then
changes nothing. Each runs in one transaction and names the locks it takes; the order is
always: one Pot row, then Account rows by ascending primary key (economy/ledger.py).
One module per kind of money movement; callers import them from here.
"""

from .adjustments import adjust_wallet
from .grants import claim_daily_bonus, grant_welcome, pay_league_prize
from .pots import abort_pot, buy_in, buy_in_many, cancel_pot, open_pot, settle_pot, stand_up, start_pot
from .rewards import GAME_MODES, Reward, SeatResult, active_items, reward_game
from .shop import purchase_item

__all__ = [
    "GAME_MODES",
    "Reward",
    "SeatResult",
    "abort_pot",
    "active_items",
    "adjust_wallet",
    "buy_in",
    "buy_in_many",
    "cancel_pot",
    "claim_daily_bonus",
    "grant_welcome",
    "open_pot",
    "pay_league_prize",
    "purchase_item",
    "reward_game",
    "settle_pot",
    "stand_up",
    "start_pot",
]
