"""The rules pages written for players (issue 12): every game in Spanish and English, no rule IDs,
no text of the original sites, a link to try the game against bots, real lists and pictures with
alternative text; and the renderer's own behaviour."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from frontend.games import GAME_LIST, RULES_DIR
from frontend.rules_render import expand_includes, loosen_lists, render_markdown

pytestmark = pytest.mark.django_db

SLUGS = [g.slug for g in GAME_LIST]
LANGUAGES = ["es", "en"]
STATIC_DIR = Path(settings.BASE_DIR) / "frontend" / "static"
RULE_ID = re.compile(r"\b(OC|PK|PT|SK|GD|PF)-T?\d+")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[A-Za-z]{2,}")


class Page(HTMLParser):
    """The rules article of a page: its tags, image attributes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.tags: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.links: list[dict[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article" and ("class", "rules") in attrs:
            self.depth = 1
        elif self.depth:
            self.tags.append(tag)
            if tag == "img":
                self.images.append(dict(attrs))
            if tag == "a":
                self.links.append(dict(attrs))
            if tag == "article":
                self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag == "article":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def rules_page(client: Client, slug: str, language: str) -> tuple[str, Page]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/reglas/{slug}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert f'<html lang="{language}">' in body
    page = Page()
    page.feed(body)
    assert page.tags, "no rules article"
    return body, page


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_is_written_for_players(client: Client, slug: str, language: str) -> None:
    body, page = rules_page(client, slug, language)
    text = " ".join(page.text)
    assert not RULE_ID.search(body), RULE_ID.search(body)
    assert "Playfulo" not in body and "playfulo" not in body.lower()
    assert not EMAIL.search(text), EMAIL.search(text)
    assert "integrado" not in text
    assert "engine" not in text.lower() and "legal_actions" not in text
    assert page.tags.count("h2") >= 5
    assert 'data-testid="simulated-disclosure"' in body


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_links_to_a_game_against_bots(client: Client, slug: str, language: str) -> None:
    body, page = rules_page(client, slug, language)
    [link] = [a for a in page.links if a.get("data-testid") == "try-bots"]
    assert link["href"] == "/" and link["data-game"] == slug
    label = "Pruébalo contra bots" if language == "es" else "Try it against bots"
    assert label in body
    assert "frontend/rules/try-bots.js" in body and "frontend/rules.css" in body


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_lists_render_as_list_items(client: Client, slug: str, language: str) -> None:
    body, page = rules_page(client, slug, language)
    assert page.tags.count("li") >= 5
    article = body[body.index('<article class="rules">') :]
    assert not re.search(r"<(p|h\d)[^>]*>\s*(?:[-*•]|\d+\.)\s", article), "a list item rendered as text"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_pictures_exist_and_have_alt_text(client: Client, slug: str, language: str) -> None:
    _, page = rules_page(client, slug, language)
    assert page.images, "a rules page shows the cards"
    for image in page.images:
        assert (image.get("alt") or "").strip(), image
        src = image["src"] or ""
        assert src.startswith(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/static/")
        assert (STATIC_DIR / src.split("/static/", 1)[1]).is_file(), src


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_source_is_markdown_with_nothing_left_of_the_seeds(language: str) -> None:
    folder = RULES_DIR / language
    assert sorted(p.stem for p in folder.glob("*.md") if not p.stem.startswith("_")) == sorted(SLUGS)
    assert not list(folder.glob("*.txt"))


def test_a_list_right_after_a_paragraph_renders_as_a_list() -> None:
    html = render_markdown("Tienes dos opciones:\n- echar una carta\n- robar\n")
    assert "<ul>\n<li>echar una carta</li>\n<li>robar</li>\n</ul>" in html
    assert "<h2" not in html


def test_loosen_lists_leaves_nested_and_separated_lists_alone() -> None:
    text = "Texto\n\n- uno\n  sigue\n- dos\n1. tres\n"
    assert loosen_lists(text) == text


def test_headings_pictures_and_classes() -> None:
    html = render_markdown("# Título\n\n## Cómo se juega\n\n![As de picas](@rules/fr-AS.svg)\n{: .cards }\n")
    assert not html.startswith("<h1")  # the page's own <h1> names the game
    assert "<h2 tabindex='-1'>Cómo se juega</h2>" in html
    assert '<p class="cards"><img alt="As de picas" src="/static/frontend/rules/fr-AS.svg" /></p>' in html


def test_includes_fill_the_shared_sections(tmp_path: Path) -> None:
    (tmp_path / "_premio.md").write_text("Premio: $coins monedas.\n", encoding="utf-8")
    text = 'Antes\n\n@include premio coins="25 o 50"\n\nDespués\n'
    assert expand_includes(text, tmp_path) == "Antes\n\nPremio: 25 o 50 monedas.\n\n\nDespués\n"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_bots_link_request_starts_a_game_for_a_signed_in_player(client: Client, slug: str) -> None:
    """What frontend/rules/try-bots.js sends: the game, mode bots, normal bots, default seats."""
    client.force_login(User.objects.create_user(username="lectora", password="mesa-verde-2026"))
    body = {"game": slug, "mode": "bots", "bot_level": "normal"}
    room = client.post("/api/tables", data=body, content_type="application/json")
    assert room.status_code == 201, room.content
    started = client.post(f"/api/tables/{room.json()['id']}/start", content_type="application/json")
    assert started.status_code == 200 and started.json()["status"] == "playing"


def test_the_bots_link_falls_back_to_the_home_page_for_a_visitor_without_a_name(client: Client) -> None:
    room = client.post("/api/tables", data={"game": "pika", "mode": "bots"}, content_type="application/json")
    assert room.status_code >= 400  # the script then follows the link to the home page's name box
