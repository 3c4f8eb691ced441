"""``manage.py rate_games``: rate the finished online and buy-in games not rated yet, oldest first."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cardgames.ratings.services import rate_unrated_games


class Command(BaseCommand):
    help = "Rate the finished online and buy-in games that have no ratings yet (backfill or retry)."

    def handle(self, *args: Any, **options: Any) -> None:
        rated = rate_unrated_games()
        self.stdout.write(f"rated {rated} game(s)")
