"""Render a game's rules page from the Markdown kept in frontend/rules/<language>/<slug>.md.

The pages are written for Tapete's players (issue 12). They are trusted Markdown (ours, in the
repository), so raw HTML passes through; card pictures are SVG files under
``frontend/static/frontend/rules/``, written ``![alt text](@rules/name.svg)`` in a page.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache
from pathlib import Path
from string import Template

import markdown
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe

#: ``](@rules/one-card-7.svg)`` → the static URL of frontend/rules/one-card-7.svg
PICTURE = re.compile(r"\]\(@rules/([\w.-]+\.svg)\)")
#: a list item line: "- x", "* x", "1. x"
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\S")

#: ``@include modos friends="25 monedas" online="…"``: the shared section ``_modos.md`` of the
#: page's language, its ``$name`` placeholders filled from the line
INCLUDE = re.compile(r"^@include (\w+)(.*)$", re.MULTILINE)

EXTENSIONS = ["tables", "sane_lists", "attr_list"]


def loosen_lists(text: str) -> str:
    """Put a blank line before a list that follows a paragraph line.

    Python-Markdown only starts a list after a blank line, so "Tienes tres opciones:" followed
    by "- robar" would render the items as one paragraph of dashes.
    """
    out: list[str] = []
    previous = ""
    for line in text.splitlines():
        follows_paragraph = previous.strip() and not previous.startswith((" ", "\t"))
        if LIST_ITEM.match(line) and follows_paragraph and not LIST_ITEM.match(previous):
            out.append("")
        out.append(line)
        previous = line
    return "\n".join(out) + "\n"


def expand_includes(text: str, folder: Path) -> str:
    """Replace each ``@include`` line with the shared section it names (see INCLUDE)."""

    def section(match: re.Match[str]) -> str:
        params = dict(item.split("=", 1) for item in shlex.split(match.group(2)))
        shared = (folder / f"_{match.group(1)}.md").read_text(encoding="utf-8")
        return Template(shared).substitute(params)

    return INCLUDE.sub(section, text)


def render_markdown(text: str) -> str:
    text = PICTURE.sub(lambda m: f"]({static('frontend/rules/' + m.group(1))})", text)
    html = markdown.markdown(loosen_lists(text), extensions=EXTENSIONS)
    # the page shows the game's name as its <h1>; a first heading in the file would repeat it
    html = html.split("</h1>", 1)[-1].lstrip() if html.startswith("<h1") else html
    return html.replace("<h2", "<h2 tabindex='-1'")


@lru_cache(maxsize=32)
def render_rules(path: Path) -> SafeString:
    text = expand_includes(path.read_text(encoding="utf-8"), path.parent)
    return mark_safe(render_markdown(text))
