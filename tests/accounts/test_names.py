"""Issue 13 item 5: names in every language the site speaks, none that deceives."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.identity import player_for_user
from accounts.models import User
from accounts.names import clean_text, name_key, validate_username
from cardgames.rulezz import services as rulezz
from cardgames.rulezz.scoring import RulezzError

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


def signup(client: Client, name: str):
    return client.post("/cuenta/registro/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize("name", ["ñandú", "José_2", "Ana_one_", "Çağla", "Møller", "Москва", "Σοφία", "ﬁlo"])
def test_letters_of_any_script_are_accepted(name: str) -> None:
    validate_username(name)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("___", "invalid_username"),
        ("a__b", "invalid_username"),
        ("_ana", "invalid_username"),
        ("1ana", "invalid_username"),
        ("an", "invalid_username"),
        ("ana maría", "invalid_username"),
        ("аdmin", "mixed_script"),  # a Cyrillic а among Latin letters
        ("Ana\u200b", "invisible_characters"),
        ("An\u200ba", "invisible_characters"),
        ("ana\u202eabc", "invisible_characters"),
        ("ana\u3164", "invisible_characters"),  # Hangul filler: a "letter" that shows nothing
        ("admin", "reserved_name"),
        ("Admin_2", "reserved_name"),
        ("Soporte", "reserved_name"),
        ("invitado", "reserved_name"),
    ],
)
def test_deceptive_names_are_refused(name: str, code: str) -> None:
    with pytest.raises(ValidationError) as err:
        validate_username(name)
    assert err.value.code == code


def test_signup_takes_accents_and_compares_them_case_insensitively(client: Client) -> None:
    assert signup(client, "Ñandú").status_code == 302
    assert User.objects.get(username="Ñandú").username_key == "ñandú"
    response = signup(Client(), "ñANDÚ")
    assert response.status_code == 400 and "ya existe" in response.content.decode()
    assert signup(Client(), "___").status_code == 400


def test_nfkc_forms_are_one_name_and_log_in_either_way(client: Client) -> None:
    assert signup(client, "Ｊｏｓé").status_code == 302  # full-width letters are NFKC "José"
    assert User.objects.filter(username="José").exists()
    assert client.post("/cuenta/entrar/", {"username": "JOSÉ", "password": PASSWORD}).status_code == 302


def test_a_whole_other_script_look_alike_of_a_name_is_taken(client: Client) -> None:
    User.objects.create_user(username="coco", password=PASSWORD)
    assert name_key("сосо") == "coco"  # all Cyrillic
    assert signup(client, "сосо").status_code == 400


def test_guests_cannot_take_an_account_name_or_a_reserved_word(client: Client) -> None:
    User.objects.create_user(username="Ñandú", password=PASSWORD)
    for name in ["ñandú", "ÑANDÚ", "admin", "An\u200ba"]:
        response = client.post("/cuenta/invitado/", {"name": name})
        assert response.status_code == 400, name
    assert client.post("/cuenta/invitado/", {"name": "Rocío"}).status_code == 302
    assert "Rocío (invitado)" in client.get("/").content.decode()


def test_rulezz_player_names_and_titles_are_cleaned() -> None:
    owner = player_for_user(User.objects.create_user(username="Ana", password=PASSWORD))
    with pytest.raises(RulezzError) as err:
        rulezz.sheet_create(owner=owner, players=["Ana", "An\u200ba"])
    assert err.value.code == "invisible_characters"
    with pytest.raises(RulezzError) as err:
        rulezz.sheet_create(owner=owner, players=["Ana", "ANA"])
    assert err.value.code == "duplicate_player"
    with pytest.raises(RulezzError) as err:
        rulezz.sheet_create(owner=owner, players=["Ana", "Bea"], title="gana \u202eLUIS")
    assert err.value.code == "invisible_characters"
    with pytest.raises(RulezzError) as err:
        rulezz.sheet_create(owner=owner, players=["Ana", "Bеа"])  # Cyrillic е and а
    assert err.value.code == "mixed_script"
    sheet = rulezz.sheet_create(owner=owner, players=["Ａna", "Tía  Carmen"], title="  Viernes\tnoche ")
    assert sheet.players == ["Ana", "Tía Carmen"] and sheet.title == "Viernes noche"


def test_clean_text_turns_line_breaks_into_spaces() -> None:
    assert clean_text("a\nb", max_length=10) == "a b"
