"""Rooms: codes (PF-55), joining as a user or guest (PF-22, PF-24, PF-61), spectators (PF-26),
host controls (PF-25), invitations (PF-14), chat (PF-34) and the 4-hour expiry (PF-54)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from cardgames.catalogue import CODE_LETTERS
from cardgames.engines import get_engine
from cardgames.tables import selectors, services
from cardgames.tables.errors import TableError
from cardgames.tables.models import Invitation, Seat, Table
from tests.tables.helpers import Clock, guest_player, started_table, user_player

pytestmark = pytest.mark.django_db


class refused:
    """The block raises TableError with exactly this code."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:  # type: ignore[no-untyped-def]
        assert kind is TableError, f"expected TableError({self.code!r}), got {kind}"
        assert exc.code == self.code, f"expected {self.code!r}, got {exc.code!r}"
        return True


def test_pf55_codes_six_digits_and_puteo_four_unambiguous_letters(settings) -> None:
    settings.TABLES_MAX_LIVE_ROOMS = 40
    ana = user_player("Ana")
    for game in ("one_card", "pika", "skyjo", "guandan"):
        assert re.fullmatch(r"\d{6}", services.create_room(player=ana, game=game, mode="friends").code)
    codes = {services.create_room(player=ana, game="puteo", mode="friends").code for _ in range(30)}
    assert all(len(c) == 4 and set(c) <= set(CODE_LETTERS) for c in codes)
    assert not {"I", "O"} & set("".join(codes))


def test_pf55_codes_are_unique_among_live_rooms_and_a_closed_room_frees_its_code() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="friends", now=clock.now)
    code = table.code
    assert services.find_room(code=code).pk == table.pk
    with pytest.raises(IntegrityError), transaction.atomic():  # a second live room with the code
        Table.objects.create(
            game="pika", mode="friends", code=code, host_key="x", num_players=2, last_activity_at=clock.now
        )
    services.leave_room(table_id=table.pk, player=ana, now=clock.now)  # the last person leaves: closed
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.code is None
    with refused("no_such_table"):
        services.find_room(code=code)


def test_pf22_pf24_guests_join_a_friends_room_by_code_and_latecomers_watch() -> None:
    clock = Clock()
    host = guest_player("Paco", "g-host")
    table = services.create_room(player=host, game="puteo", mode="friends", players=3, options={"lives": 3})
    assert table.options == {"lives": 3, "mode": "classic"}
    lola = guest_player("Lola", "g-lola")
    found = services.find_room(code=table.code.lower())
    seat = services.join_room(table_id=found.pk, code=table.code.lower(), player=lola)
    assert seat is not None and seat.index == 1 and seat.kind == Seat.Kind.GUEST
    again = services.join_room(table_id=table.pk, code=table.code, player=lola)
    assert again is not None and again.pk == seat.pk  # twice: the same seat
    with refused("seats_empty"):
        services.start_table(table_id=table.pk, player=host, now=clock.now)
    with refused("not_host"):
        services.add_bot(table_id=table.pk, player=lola, level="easy")
    services.add_bot(table_id=table.pk, player=host, level="hard")
    services.start_table(table_id=table.pk, player=host, now=clock.now)
    late = user_player("Tarde")
    assert services.join_room(table_id=table.pk, code=table.code, player=late) is None  # PF-26


def test_options_and_player_counts_are_checked_against_the_catalogue() -> None:
    ana = user_player("Ana")
    with refused("bad_players"):
        services.create_room(player=ana, game="guandan", mode="friends", players=3)
    with refused("bad_players"):
        services.create_room(player=ana, game="puteo", mode="friends", players=9)  # classic seats 8
    assert (
        services.create_room(
            player=ana, game="puteo", mode="friends", players=12, options={"mode": "big"}
        ).num_players
        == 12
    )
    with refused("bad_options"):
        services.create_room(player=ana, game="puteo", mode="friends", options={"lives": 4})
    with refused("bad_options"):
        services.create_room(player=ana, game="one_card", mode="friends", options={"deck": ["AS"]})
    with refused("unknown_game"):
        services.create_room(player=ana, game="chess", mode="friends")
    with refused("bad_mode"):
        services.create_room(player=ana, game="pika", mode="casino")
    with refused("bad_level"):
        services.create_room(player=ana, game="pika", mode="bots", bot_level="godlike")
    with refused("identity_required"):
        services.create_room(player=None, game="pika", mode="bots")


def test_gd3_gd42_a_guandan_match_set_up_late_starts_at_the_given_levels() -> None:
    """GD-3 (both teams start at 2) unless the table service is given ``start_levels``: a match
    set up late, like a puzzle position; its first deal is played at team A's level (GD-7, GD-47)
    and the replay from the seed agrees. Never a host's option (GD-65)."""
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="guandan", mode="bots", start_levels=["A", 14])
    assert table.options == {"levels": [14, 14]}
    services.start_table(table_id=table.pk, player=ana)
    table.refresh_from_db()
    engine = get_engine("guandan")
    view = engine.view(engine.load(table.state), 0)
    assert (view["levels"], view["level"], view["deal"], view["tributes"]) == (["A", "A"], "A", 1, [])
    assert engine.dump(selectors.replay_states(table)[-1][1]) == table.state  # the seed replays it
    assert table.options["levels"] == [14, 14] and table.options["turn_seconds"] is None
    plain = services.create_room(player=ana, game="guandan", mode="friends")
    assert "levels" not in plain.options  # GD-3: everybody else starts at 2
    mixed = services.create_room(player=ana, game="guandan", mode="friends", start_levels=("10", "Q"))
    assert mixed.options["levels"] == [10, 12]


@pytest.mark.parametrize(
    ("game", "levels"),
    [
        ("pika", ["A", "A"]),  # only Guandan has team levels
        ("guandan", ["A"]),
        ("guandan", ["A", "A", "A"]),
        ("guandan", "AA"),
        ("guandan", {"a": "A"}),
        ("guandan", [1, "A"]),
        ("guandan", [15, "A"]),
        ("guandan", ["A", "BJ"]),
        ("guandan", ["A", "red_joker"]),
        ("guandan", [True, "A"]),
        ("guandan", [14.0, "A"]),
        ("guandan", [None, "A"]),
        ("guandan", [["A"], "A"]),
    ],
)
def test_gd3_bad_start_levels_are_refused_and_nothing_is_created(game: str, levels: object) -> None:
    ana = user_player("Ana")
    with refused("bad_options"):
        services.create_room(player=ana, game=game, mode="bots", start_levels=levels)
    assert not Table.objects.exists()


def test_gd65_levels_are_no_room_option_a_client_can_send() -> None:
    with refused("bad_options"):
        services.create_room(
            player=user_player("Ana"), game="guandan", mode="bots", options={"levels": ["A", "A"]}
        )
    assert not Table.objects.exists()


def test_pf13_a_bots_room_seats_bots_of_the_chosen_level_and_nobody_else() -> None:
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="pika", mode="bots", players=3, bot_level="hard")
    seats = [(s.kind, s.bot_level) for s in table.seats.all()]
    assert seats == [("human", ""), ("bot", "hard"), ("bot", "hard")]
    bea = user_player("Bea")
    assert services.join_room(table_id=table.pk, code=table.code, player=bea) is None  # watches


def test_pf25_host_controls_bots_levels_and_seats_before_the_start() -> None:
    clock = Clock()
    host, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=host, game="one_card", mode="friends", players=3)
    services.join_room(table_id=table.pk, code=table.code, player=bea)
    bot = services.add_bot(table_id=table.pk, player=host, level="easy")
    with refused("table_full"):
        services.add_bot(table_id=table.pk, player=host, level="easy")
    changed = services.set_bot_level(table_id=table.pk, player=host, seat=bot.index, level="hard")
    assert changed.bot_level == "hard"
    services.remove_seat(table_id=table.pk, player=host, seat=1)  # Bea is asked to leave
    with refused("seat_taken"):
        services.add_bot(table_id=table.pk, player=host, level="easy", seat=bot.index)
    services.add_bot(table_id=table.pk, player=host, level="normal", seat=1)
    with refused("bad_seat"):
        services.remove_seat(table_id=table.pk, player=host, seat=0)  # not the host's own seat
    services.start_table(table_id=table.pk, player=host, now=clock.now)
    with refused("not_waiting"):
        services.add_bot(table_id=table.pk, player=host, level="easy")
    with refused("not_waiting"):
        services.leave_room(table_id=table.pk, player=host)  # PF-63: a started seat keeps its place


def test_the_host_role_passes_on_when_the_host_leaves_before_the_start() -> None:
    host, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=host, game="one_card", mode="friends")
    services.join_room(table_id=table.pk, code=table.code, player=bea)
    services.leave_room(table_id=table.pk, player=host)
    table.refresh_from_db()
    assert table.host_key == bea.key and table.status == Table.Status.WAITING


# -- invitations ------------------------------------------------------------------------------
def test_pf14_invite_by_username_accept_decline_and_clear_errors() -> None:
    clock = Clock()
    ana, bea, carla = user_player("Ana"), user_player("Bea"), user_player("Carla")
    table = services.create_room(player=ana, game="pika", mode="friends", players=3)
    invitation = services.invite(table_id=table.pk, sender=ana, username="bea", now=clock.now)
    assert invitation.recipient.username == "Bea"
    with refused("already_invited"):
        services.invite(table_id=table.pk, sender=ana, username="Bea", now=clock.now)
    with refused("unknown_user"):
        services.invite(table_id=table.pk, sender=ana, username="Nadie", now=clock.now)
    with refused("self_invite"):
        services.invite(table_id=table.pk, sender=ana, username="ana", now=clock.now)
    with refused("not_seated"):
        services.invite(table_id=table.pk, sender=carla, username="Bea", now=clock.now)
    with refused("login_required"):
        services.invite(table_id=table.pk, sender=guest_player("Paco"), username="Bea", now=clock.now)
    with refused("no_such_invitation"):
        services.respond_invitation(invitation_id=invitation.pk, player=carla, accept=True, now=clock.now)
    seat = services.respond_invitation(invitation_id=invitation.pk, player=bea, accept=True, now=clock.now)
    assert seat is not None and seat.user_id == bea.user_id
    with refused("invitation_closed"):
        services.respond_invitation(invitation_id=invitation.pk, player=bea, accept=False, now=clock.now)
    with refused("already_seated"):
        services.invite(table_id=table.pk, sender=ana, username="Bea", now=clock.now)
    declined = services.invite(table_id=table.pk, sender=bea, username="Carla", now=clock.now)
    answer = services.respond_invitation(invitation_id=declined.pk, player=carla, accept=False, now=clock.now)
    assert answer is None
    assert not table.seats.filter(user_id=carla.user_id).exists()


def test_invitations_expire_and_an_expired_one_can_be_sent_again() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=ana, game="pika", mode="friends")
    first = services.invite(table_id=table.pk, sender=ana, username="Bea", now=clock.now)
    later = clock.tick(services.INVITATION_MINUTES * 60 + 1)
    with refused("invitation_closed"):
        services.respond_invitation(invitation_id=first.pk, player=bea, accept=True, now=later)
    again = services.invite(table_id=table.pk, sender=ana, username="Bea", now=later)
    first.refresh_from_db()
    assert first.status == Invitation.Status.EXPIRED and again.status == Invitation.Status.PENDING


# -- chat (PF-34) -------------------------------------------------------------------------------
def test_pf34_chat_cap_rate_limit_mute_and_spectators_read_only() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=ana, game="one_card", mode="friends")
    services.join_room(table_id=table.pk, code=table.code, player=bea)
    message = services.post_chat(table_id=table.pk, player=bea, text="  <b>hola</b>  ", now=clock.now)
    assert message.text == "<b>hola</b>"  # kept as text (cleaned, never escaped); escaped on output
    with refused("chat_too_long"):
        services.post_chat(table_id=table.pk, player=bea, text="x" * 301, now=clock.now)
    with refused("chat_empty"):
        services.post_chat(table_id=table.pk, player=bea, text="   ", now=clock.now)
    with refused("chat_empty"):
        services.post_chat(table_id=table.pk, player=bea, text=["hola"], now=clock.now)
    for _ in range(services.CHAT_MESSAGES_PER_WINDOW - 1):
        services.post_chat(table_id=table.pk, player=bea, text="¡otra!", now=clock.tick(0.1))
    with refused("chat_rate_limited"):
        services.post_chat(table_id=table.pk, player=bea, text="spam", now=clock.tick(0.1))
    later = clock.tick(services.CHAT_WINDOW_SECONDS)
    services.post_chat(table_id=table.pk, player=bea, text="ya puedo", now=later)
    with refused("spectator"):
        services.post_chat(table_id=table.pk, player=user_player("Mirona"), text="hola", now=clock.now)
    services.set_muted(table_id=table.pk, player=ana, seat=1, muted=True)
    with refused("muted"):
        services.post_chat(table_id=table.pk, player=bea, text="hola", now=clock.tick(60))


@pytest.mark.parametrize(
    "text",
    [
        "hola \u202emundo",  # RIGHT-TO-LEFT OVERRIDE: the rest would render reversed
        "ho\u200bla",  # a zero-width space
        "\u2066hola\u2069",  # a bidi isolate
        "ho\u200dla",  # a joiner between letters
        "ana\u3164",  # Hangul filler: a "letter" that shows nothing
        "hola\x00",
    ],
)
def test_pf34_chat_refuses_the_invisible_and_bidi_characters_names_refuse(text: str) -> None:
    """Issue 26 (7): chat goes through the cleaning of names and titles (accounts.names)."""
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="friends")
    with refused("chat_invalid"):
        services.post_chat(table_id=table.pk, player=ana, text=text)
    assert not table.chat.exists()


def test_pf34_chat_is_normalised_as_names_are_and_keeps_emoji() -> None:
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="friends")
    typed = "  ｈｏｌａ\n\n a  todos 👩\u200d💻 🏳️\u200d🌈 "
    said = services.post_chat(table_id=table.pk, player=ana, text=typed)
    assert said.text == "hola a todos 👩\u200d💻 🏳️\u200d🌈"


# -- expiry (PF-54) ---------------------------------------------------------------------------------
def test_pf54_rooms_idle_for_four_hours_close_and_free_their_code() -> None:
    clock = Clock()
    ana = user_player("Ana")
    idle = services.create_room(player=ana, game="one_card", mode="friends", now=clock.now)
    busy = services.create_room(player=ana, game="pika", mode="friends", now=clock.now)
    clock.tick(3 * 3600)
    services.post_chat(table_id=busy.pk, player=ana, text="sigo aquí", now=clock.now)
    assert services.close_idle_rooms(now=clock.tick(3600 + 1)) == 1
    idle.refresh_from_db()
    busy.refresh_from_db()
    assert idle.status == Table.Status.CLOSED and idle.code is None
    assert busy.status == Table.Status.WAITING and busy.code


def test_pf54_a_finished_game_closes_only_after_it_was_settled() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock)
    finished = {"status": Table.Status.FINISHED, "result": {"placements": [1, 2, 3, 4]}}
    Table.objects.filter(pk=table.pk).update(**finished)
    assert services.close_idle_rooms(now=clock.now + timedelta(hours=5)) == 0


def test_pf61_a_guest_chat_line_is_marked_as_a_guest() -> None:
    clock = Clock()
    paco = guest_player("Paco", "g-paco")
    table = services.create_room(player=paco, game="pika", mode="friends", now=clock.now)
    ana = user_player("Ana")
    services.join_room(table_id=table.pk, code=table.code, player=ana)
    guest_line = services.chat_message_dict(services.post_chat(table_id=table.pk, player=paco, text="hola"))
    user_line = services.chat_message_dict(services.post_chat(table_id=table.pk, player=ana, text="hola"))
    assert (guest_line["guest"], user_line["guest"]) == (True, False)
