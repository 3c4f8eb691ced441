"""The one game catalogue (cardgames/catalogue.py): room options and player counts, and the parts of
the site that read it (engines, payouts, pages) agree with it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cardgames.catalogue import (
    CATALOGUE,
    CODE_DIGITS,
    CODE_LETTERS,
    GAMES,
    CatalogueError,
    clean_options,
    game_spec,
)
from cardgames.engines import GAMES as ENGINE_GAMES
from cardgames.engines import get_engine
from economy import payouts


@contextmanager
def refused(code: str) -> Iterator[None]:
    with pytest.raises(CatalogueError) as caught:
        yield
    assert caught.value.code == code, caught.value.code


# -- defaults ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("one_card", (4, {})),
        ("pika", (4, {})),
        ("puteo", (4, {"lives": 5, "mode": "classic"})),  # PT-50/PT-51: 5 lives, classic
        ("skyjo", (4, {})),
        ("guandan", (4, {})),
    ],
)
def test_defaults_fill_in_the_player_count_and_the_choices(game: str, expected: Any) -> None:
    assert clean_options(game, None, None) == expected
    assert clean_options(game, None, {}) == expected


def test_pt_50_pt_51_el_puteos_choices_are_kept() -> None:
    assert clean_options("puteo", 3, {"lives": 3}) == (3, {"lives": 3, "mode": "classic"})
    assert clean_options("puteo", 10, {"mode": "big", "lives": 5}) == (10, {"lives": 5, "mode": "big"})


# -- bad options --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("puteo", {"lives": 4}),  # PT-50: 5 or 3
        ("puteo", {"lives": True}),  # a bool is not a number of lives (True == 1 is not 5 or 3)
        ("puteo", {"lives": "5"}),
        ("puteo", {"mode": "huge"}),  # PT-51
        ("puteo", {"deck": ["1O"]}),  # test-only engine options never come from a client
        ("one_card", {"deck": ["AS"]}),
        ("one_card", {"turn_seconds": None}),
        ("skyjo", {"end_at": 50}),  # SK-33: no variants
        ("guandan", {"level": "A"}),
        ("pika", []),
        ("pika", "fast"),
    ],
)
def test_options_a_game_does_not_take_are_refused(game: str, options: Any) -> None:
    with refused("bad_options"):
        clean_options(game, None, options)


def test_an_unknown_game_is_refused() -> None:
    for slug in ("chess", "", None, 3, ["pika"]):
        with refused("unknown_game"):
            clean_options(slug, None, None)  # type: ignore[arg-type]
        with refused("unknown_game"):
            game_spec(slug)


# -- player limits ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "options", "low", "high"),
    [
        ("one_card", {}, 2, 4),  # PF-1
        ("pika", {}, 2, 4),  # PF-12
        ("puteo", {}, 2, 8),  # PF-37/PT-2: classic seats 8
        ("puteo", {"mode": "classic"}, 2, 8),
        ("puteo", {"mode": "big"}, 2, 12),  # PF-37/PT-3: big seats up to 12
        ("skyjo", {}, 2, 8),  # PF-41/SK-1
        ("guandan", {}, 4, 4),  # PF-43/GD-1: exactly 4
    ],
)
def test_player_limits(game: str, options: dict[str, Any], low: int, high: int) -> None:
    for n in range(low, high + 1):
        assert clean_options(game, n, options)[0] == n
    for n in (0, 1, low - 1, high + 1, 13):
        if not low <= n <= high:
            with refused("bad_players"):
                clean_options(game, n, options)
    for odd in ("4", 4.0, True, [4]):
        with refused("bad_players"):
            clean_options(game, odd, options)


def test_pf_43_guandan_is_exactly_four_players() -> None:
    assert clean_options("guandan", 4, None) == (4, {})
    for n in (2, 3, 5):
        with refused("bad_players"):
            clean_options("guandan", n, None)


# -- one source: the engines, the payouts and the pages read the catalogue ------------------------------
def test_the_engines_registry_is_the_catalogues_game_list() -> None:
    assert ENGINE_GAMES == GAMES == ("one_card", "pika", "puteo", "skyjo", "guandan")
    for game in GAMES:
        eng = get_engine(game)
        spec = CATALOGUE[game]
        assert (eng.name, eng.min_players, eng.max_players) == (game, spec.min_players, spec.max_players)
        assert spec.min_players <= spec.default_players <= spec.max_players_for({})


def test_pf_57_base_rates_come_from_the_catalogue() -> None:
    assert payouts.BASE_RATES == {"one_card": 50, "pika": 50, "puteo": 80, "skyjo": 80, "guandan": 100}
    assert {slug: spec.base_rate for slug, spec in CATALOGUE.items()} == payouts.BASE_RATES


def test_pf_55_room_code_styles() -> None:
    assert (CATALOGUE["puteo"].code_style, CATALOGUE["puteo"].code_length) == ("letters", 4)
    assert "I" not in CODE_LETTERS and "O" not in CODE_LETTERS
    for game in ("one_card", "pika", "skyjo", "guandan"):
        assert (CATALOGUE[game].code_style, CATALOGUE[game].code_length) == ("digits", 6)
    assert CODE_DIGITS == "0123456789"


def test_the_pages_list_the_catalogues_games_with_their_player_counts() -> None:
    from frontend.games import GAME_LIST

    assert [(g.slug, g.name, g.players) for g in GAME_LIST] == [
        ("one_card", "One Card", "2–4"),
        ("pika", "Pika", "2–4"),
        ("puteo", "El Puteo", "2–12"),
        ("skyjo", "Skyjo", "2–8"),
        ("guandan", "Guandan", "4"),
    ]
    assert all(str(g.blurb) for g in GAME_LIST)
