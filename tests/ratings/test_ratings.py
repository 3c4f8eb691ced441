"""Skill ratings (issue 11): finished online games rate registered players once; simulated players
take part with a fixed rating and move nobody more than a person of that rating would."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from cardgames.ratings import skill
from cardgames.ratings.models import PlayerRating, RatingChange
from cardgames.ratings.selectors import rating_for, ratings_of
from cardgames.ratings.services import rate_game, rate_unrated_games
from cardgames.tables import settlement
from cardgames.tables.models import GameResult, Seat, Table

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DEFAULT_VALUE = skill.DEFAULT.ordinal


def make_user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="mesa-verde-2026")


def finished_table(
    game: str, seats: list[tuple[str, Any]], placements: list[int], *, mode: str = "online"
) -> Table:
    """A finished table with these (kind, user or None) seats and places, not settled yet."""
    table = Table.objects.create(
        game=game,
        mode=mode,
        status=Table.Status.FINISHED,
        host_key="user:0",
        num_players=len(seats),
        result={
            "placements": placements,
            "winners": [i for i, p in enumerate(placements) if p == 1],
            "scores": [0] * len(seats),
        },
        simulated=any(kind == Seat.Kind.SIMULATED for kind, _ in seats),
        last_activity_at=T0,
        finished_at=T0,
    )
    for index, (kind, user) in enumerate(seats):
        key = f"user:{user.pk}" if user else (f"guest:g{index}" if kind == Seat.Kind.GUEST else "")
        name = user.username if user else f"{kind}{index}"
        Seat.objects.create(table=table, index=index, kind=kind, user=user, player_key=key, name=name)
    return table


def finish(table: Table, django_capture_on_commit_callbacks: Any) -> GameResult:
    """Settle the table; the settlement's ``game_finished`` (sent on commit) rates it."""
    with django_capture_on_commit_callbacks(execute=True):
        result = settlement.finish_table(table_id=table.pk, now=T0)
    assert result is not None
    return result


def human(user: Any) -> tuple[str, Any]:
    return (Seat.Kind.HUMAN, user)


def mu(user: Any, game: str = "one_card") -> float:
    return PlayerRating.objects.get(user=user, game=game).mu


def test_a_winner_goes_up_and_a_loser_goes_down(django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    # given: two new players; when: ana wins an online One Card game
    result = finish(
        finished_table("one_card", [human(ana), human(bea)], [1, 2]), django_capture_on_commit_callbacks
    )
    # then: ana's rating rises above the default, bea's falls below it
    assert rating_for(ana.pk, "one_card") > DEFAULT_VALUE
    assert rating_for(bea.pk, "one_card") < rating_for(ana.pk, "one_card")
    assert mu(ana) > skill.DEFAULT_MU > mu(bea)
    changes = RatingChange.objects.filter(game_result=result).order_by("place")
    assert [(c.user_id, c.place, c.mu_before) for c in changes] == [
        (ana.pk, 1, skill.DEFAULT_MU),
        (bea.pk, 2, skill.DEFAULT_MU),
    ]
    assert all(c.at == T0 and c.sigma_after < c.sigma_before for c in changes)
    assert PlayerRating.objects.get(user=ana, game="one_card").games == 1


def test_tied_players_move_together_and_a_tie_of_equals_moves_no_mean(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ana, bea, cris = make_user("ana"), make_user("bea"), make_user("cris")
    finish(
        finished_table("skyjo", [human(ana), human(bea), human(cris)], [1, 2, 2]),
        django_capture_on_commit_callbacks,
    )
    assert mu(bea, "skyjo") == pytest.approx(mu(cris, "skyjo"))
    assert mu(ana, "skyjo") > skill.DEFAULT_MU > mu(bea, "skyjo")

    dani, eva = make_user("dani"), make_user("eva")
    finish(finished_table("skyjo", [human(dani), human(eva)], [1, 1]), django_capture_on_commit_callbacks)
    assert mu(dani, "skyjo") == pytest.approx(skill.DEFAULT_MU)
    assert mu(eva, "skyjo") == pytest.approx(skill.DEFAULT_MU)
    assert PlayerRating.objects.get(user=dani, game="skyjo").sigma < skill.DEFAULT_SIGMA


def test_guandan_partners_are_rated_as_a_team(django_capture_on_commit_callbacks: Any) -> None:
    users = [make_user(n) for n in ("ana", "bea", "cris", "dani")]
    # given: ana already rated higher than her partner cris
    PlayerRating.objects.create(user=users[0], game="guandan", mu=30.0, sigma=5.0, games=4)
    # when: team S0 + S2 wins (PF-56: 1, 3, 1, 3)
    finish(
        finished_table("guandan", [human(u) for u in users], [1, 3, 1, 3]), django_capture_on_commit_callbacks
    )
    after = {c.user_id: c for c in RatingChange.objects.all()}
    ana, bea, cris, dani = (after[u.pk] for u in users)
    # then: both winners go up, both losers go down; equal partners move exactly alike
    assert ana.mu_after > ana.mu_before and cris.mu_after > cris.mu_before
    assert bea.mu_after < bea.mu_before and dani.mu_after < dani.mu_before
    assert bea.mu_after == pytest.approx(dani.mu_after)
    assert bea.sigma_after == pytest.approx(dani.sigma_after)
    # and the team's outcome is the library's two-team rating, not four players ranked 1, 1, 3, 3
    r = skill.MODEL.rating
    [[a, c], [b, _]] = skill.MODEL.rate([[r(30.0, 5.0), r()], [r(), r()]], ranks=[1.0, 3.0])
    assert (ana.mu_after, cris.mu_after, bea.mu_after) == pytest.approx((a.mu, c.mu, b.mu))


def test_guandan_partners_must_share_a_place() -> None:
    with pytest.raises(ValueError, match="share a place"):
        skill.sides("guandan", [1, 2, 3, 4])


def test_a_simulated_opponent_moves_a_person_no_more_than_a_new_person_would(
    django_capture_on_commit_callbacks: Any,
) -> None:
    def play(opponent: tuple[str, Any], suffix: str, place: int) -> tuple[float, float]:
        # a person with an established rating plays the same game against that opponent
        me = make_user(f"me{suffix}")
        PlayerRating.objects.create(user=me, game="pika", mu=28.0, sigma=4.0, games=10)
        finish(
            finished_table("pika", [human(me), opponent], [place, 3 - place]),
            django_capture_on_commit_callbacks,
        )
        row = PlayerRating.objects.get(user=me, game="pika")
        return row.mu - 28.0, row.sigma

    for place in (1, 2):
        sim = play((Seat.Kind.SIMULATED, None), f"s{place}", place)
        person = play(human(make_user(f"new{place}")), f"h{place}", place)
        assert abs(sim[0]) <= abs(person[0]) + 1e-9
        assert sim == pytest.approx(person)
    # and the simulated player has no rating to move
    assert not PlayerRating.objects.filter(user__isnull=True).exists()


def test_simulated_and_guest_seats_take_part_but_are_never_rated(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ana = make_user("ana")
    table = finished_table(
        "one_card", [(Seat.Kind.SIMULATED, None), human(ana), (Seat.Kind.GUEST, None)], [1, 2, 3]
    )
    result = finish(table, django_capture_on_commit_callbacks)
    assert [c.user_id for c in RatingChange.objects.filter(game_result=result)] == [ana.pk]
    assert PlayerRating.objects.count() == 1
    # both took part as new persons: ana moved as the middle of three new players would
    three_new = skill.rate("one_card", [skill.Entrant(skill.DEFAULT, p) for p in (1, 2, 3)])
    assert mu(ana) == pytest.approx(three_new[1].mu)
    assert PlayerRating.objects.get(user=ana, game="one_card").sigma == pytest.approx(three_new[1].sigma)


def test_rating_twice_changes_nothing(django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    result = finish(
        finished_table("pika", [human(ana), human(bea)], [2, 1]), django_capture_on_commit_callbacks
    )
    first = (mu(ana, "pika"), mu(bea, "pika"))
    again = rate_game(game_result=result)
    rate_game(game_result=result.pk)
    assert [c.user_id for c in again] == sorted([ana.pk, bea.pk])
    assert RatingChange.objects.count() == 2
    assert (mu(ana, "pika"), mu(bea, "pika")) == first
    assert PlayerRating.objects.get(user=ana, game="pika").games == 1
    assert rate_unrated_games() == 0
    # and a second settlement sends nothing new
    assert settlement.finish_table(table_id=result.table_id) == result
    assert RatingChange.objects.count() == 2


@pytest.mark.parametrize("mode", ["friends", "bots"])
def test_friends_and_bots_games_are_not_rated(mode: str, django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    result = finish(
        finished_table("one_card", [human(ana), human(bea)], [1, 2], mode=mode),
        django_capture_on_commit_callbacks,
    )
    assert rate_game(game_result=result) == []
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()
    assert rating_for(ana.pk, "one_card") == DEFAULT_VALUE


def test_buyin_games_are_rated(django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    finish(
        finished_table("puteo", [human(ana), human(bea)], [1, 2], mode="buyin"),
        django_capture_on_commit_callbacks,
    )
    assert rating_for(ana.pk, "puteo") > rating_for(bea.pk, "puteo")


def test_an_unrated_player_has_the_default() -> None:
    ana = make_user("ana")
    assert rating_for(ana.pk, "guandan") == DEFAULT_VALUE == pytest.approx(0.0)
    assert rating_for(999_999, "one_card") == DEFAULT_VALUE
    assert ratings_of(ana.pk) == []


def test_ratings_of_lists_each_game_in_catalogue_order(django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    finish(finished_table("skyjo", [human(ana), human(bea)], [1, 2]), django_capture_on_commit_callbacks)
    finish(finished_table("one_card", [human(ana), human(bea)], [2, 1]), django_capture_on_commit_callbacks)
    finish(finished_table("skyjo", [human(ana), human(bea)], [1, 2]), django_capture_on_commit_callbacks)
    rows = ratings_of(ana.pk)
    assert [(r.game, r.name, r.games) for r in rows] == [("one_card", "One Card", 1), ("skyjo", "Skyjo", 2)]
    assert rows[1].value == pytest.approx(rating_for(ana.pk, "skyjo"))
    history = RatingChange.objects.filter(user=ana, game="skyjo").order_by("id")
    assert history[1].mu_before == pytest.approx(history[0].mu_after)


def test_a_missed_game_is_rated_by_the_command(django_capture_on_commit_callbacks: Any) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    # given: a game settled without its on-commit signal (a crash after the commit)
    settlement.finish_table(table_id=finished_table("one_card", [human(ana), human(bea)], [1, 2]).pk, now=T0)
    assert not RatingChange.objects.exists()
    out = io.StringIO()
    call_command("rate_games", stdout=out)
    assert out.getvalue().strip() == "rated 1 game(s)"
    assert rating_for(ana.pk, "one_card") > rating_for(bea.pk, "one_card")
    assert rate_unrated_games() == 0


def test_a_failing_rating_does_not_break_the_signal(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from cardgames.ratings import signals

    def boom(**kwargs: Any) -> None:
        raise RuntimeError("boom")

    heard: list[GameResult] = []

    def listener(sender: Any, *, game_result: GameResult, **kwargs: Any) -> None:
        heard.append(game_result)

    monkeypatch.setattr(signals, "rate_game", boom)
    settlement.game_finished.connect(listener, dispatch_uid="test-listener")
    try:
        ana, bea = make_user("ana"), make_user("bea")
        result = finish(
            finished_table("one_card", [human(ana), human(bea)], [1, 2]), django_capture_on_commit_callbacks
        )
    finally:
        settlement.game_finished.disconnect(dispatch_uid="test-listener")
    assert heard == [result]
    assert not RatingChange.objects.exists()


def test_the_rating_arithmetic_is_pure() -> None:
    code = (
        "import sys, cardgames.ratings.skill; "
        "banned = {'django', 'channels', 'celery', 'datetime'}; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in banned); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
