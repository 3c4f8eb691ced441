"""The table page's words (frontend/table_strings.py): singular forms for a count of one."""

from __future__ import annotations

import re

from django.utils import translation

from frontend.table_strings import STRINGS, table_strings

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_singular_form_has_its_plural_and_the_same_placeholders() -> None:
    singular = [key for key in STRINGS if key.endswith("_one") and key.removesuffix("_one") in STRINGS]
    wanted = {"cards_n", "hand_n", "round_of", "draw_size", "sk_draw_pile", "sk_hint_reveal"}
    assert {f"{key}_one" for key in wanted} <= set(singular)
    for language in ("es", "en"):
        with translation.override(language):
            words = table_strings()
        for key in singular:
            base = key.removesuffix("_one")
            assert "n" in PLACEHOLDER.findall(words[base]), base
            assert sorted(PLACEHOLDER.findall(words[key])) == sorted(PLACEHOLDER.findall(words[base])), key


def test_the_singular_forms_read_as_singular() -> None:
    with translation.override("es"):
        assert table_strings()["cards_n_one"] == "%(n)s carta"
    with translation.override("en"):
        words = table_strings()
    assert (words["cards_n"], words["cards_n_one"]) == ("%(n)s cards", "%(n)s card")
    assert words["hand_n_one"] == "Your hand (%(n)s card)"


def test_the_move_logs_words_are_all_there_and_all_used() -> None:
    """movelog.js says each fact with a key of its own, a viewer's own move with the key's
    "_you" form (``said``); every such key is a page word, and every log word is used."""
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "frontend/static/frontend/movelog.js").read_text()
    used = set(re.findall(r'"((?:log|banner)_\w+)"', script))
    yours = {
        key
        for line in script.splitlines()
        if "said(" in line
        for key in re.findall(r'"((?:log|banner)_\w+)"', line)
    }
    wanted = used | {f"{key}_you" for key in yours}
    assert wanted <= set(STRINGS), sorted(wanted - set(STRINGS))
    words = {key for key in STRINGS if key.startswith(("log_", "banner_"))}
    assert {key.removesuffix("_one") for key in words} <= wanted
