"""bench/frames.py measures what the broadcast sends, and Guandan's frames stay lean (issue 26, item 13)."""

from __future__ import annotations

from bench import frames


def test_one_games_frames_are_every_versions_seat_and_spectator_snapshots() -> None:
    row = frames.measure("one_card", deals=0, n=1)
    seat, spectator = row["seat"], row["spectator"]
    assert row["games"] == 1 and seat["frames"] == 4 * spectator["frames"] > 10  # four seats a version
    assert 500 < spectator["p50"] <= seat["max"] < 8_000


def test_gd_a_whole_matchs_seat_frames_stay_within_the_targets() -> None:
    """The targets of issue 26 (p99 ≤ 16 KB, max ≤ 32 KB) on one whole match of bots; with every
    play listed in ``legal`` the same match's frames reached far more."""
    sizes: dict[str, list[int]] = {"seat": [], "spectator": []}
    deals = frames.play("guandan", 0, sizes)
    assert deals >= 5
    assert frames.percentile(sizes["seat"], 0.99) <= 16_000 and max(sizes["seat"]) <= 32_000
