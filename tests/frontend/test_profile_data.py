"""The profile's numbers (frontend/profile_data.py): stats per game, level progress, badges."""

from __future__ import annotations

from types import SimpleNamespace

from frontend.profile_data import Level, badges_for, game_stats


def result(game: str, *places: tuple[int | None, int]) -> SimpleNamespace:
    """A finished game: (user id or None for a bot, place) per seat."""
    return SimpleNamespace(game=game, seats=[{"user_id": u, "place": p} for u, p in places])


def test_stats_count_games_wins_best_and_average_place_per_game_in_catalogue_order() -> None:
    results = [
        result("pika", (7, 1), (None, 2)),
        result("pika", (7, 3), (8, 1), (None, 2)),
        result("skyjo", (8, 1), (7, 2)),
        result("guandan", (8, 1), (None, 2)),  # not 7's game
    ]
    stats = {s.game: s for s in game_stats(results, 7)}
    assert list(stats) == ["one_card", "pika", "puteo", "skyjo", "guandan"]
    assert (stats["pika"].played, stats["pika"].won, stats["pika"].best_place) == (2, 1, 1)
    assert stats["pika"].average_place == 2.0 and stats["pika"].win_percent == 50
    assert (stats["skyjo"].played, stats["skyjo"].won, stats["skyjo"].win_percent) == (1, 0, 0)
    assert stats["guandan"].played == 0 and stats["guandan"].average_place is None


def test_level_progress_is_the_share_of_the_way_to_the_next_level() -> None:
    assert Level(level=2, xp=250, start=100, next=400).progress == 50
    assert Level(level=1, xp=0, start=0, next=100).progress == 0


def test_badges_are_earned_by_what_the_player_did() -> None:
    results = [result(game, (7, 1)) for game in ["one_card", "pika", "puteo", "skyjo", "guandan"]]
    stats = game_stats(results, 7)
    earned = {b.key for b in badges_for(stats=stats, level=Level(5, 1600, 1600, 2500), vip=False) if b.earned}
    assert earned == {"first_game", "first_win", "all_games", "level_5"}
    nothing = badges_for(stats=game_stats([], 7), level=Level(1, 0, 0, 100), vip=True)
    assert {b.key for b in nothing if b.earned} == {"vip"}
