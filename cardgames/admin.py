"""Admin of cardgames. Rulezz, ratings and the live tables register their models in their own ``admin``
modules; importing them here lets the admin's autodiscover (which imports ``<app>.admin``) find them."""

from .matchmaking import admin as matchmaking_admin  # noqa: F401  (registers QueueEntry)
from .ratings import admin as ratings_admin  # noqa: F401  (registers ratings)
from .rulezz import admin as rulezz_admin  # noqa: F401  (registers ScoreSheet)
from .tables import admin as tables_admin  # noqa: F401  (registers Table, GameResult, ChatMessage)
