"""Render a game's rules page from the sources kept in frontend/rules/."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import markdown
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# The first line of the Skyjo seed is a stray UI label, not a rule (PF-42).
STRAY_LINES = {"integrado"}


def _is_heading(line: str) -> bool:
    return (
        len(line) < 70 and not line.endswith((".", ":", ";", ",", "?", "!", ")")) and not line[:1].isdigit()
    )


def render_seed_text(text: str) -> str:
    """The seed documents are plain text: short unpunctuated lines are headings."""
    parts: list[str] = []
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip() not in STRAY_LINES]
    for index, line in enumerate(lines):
        if index == 0:
            continue  # the title line; the page shows the game's name as <h1>
        tag = "h2" if _is_heading(line) else "p"
        parts.append(f"<{tag}>{escape(line)}</{tag}>")
    return "\n".join(parts)


@lru_cache(maxsize=32)
def render_rules(path: Path) -> SafeString:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        # Our own spec files: trusted Markdown; the first heading duplicates the page title.
        html = markdown.markdown(text, extensions=["tables"])
        html = html.split("</h1>", 1)[-1] if html.startswith("<h1>") else html
        return mark_safe(html.replace("<h2", "<h2 tabindex='-1'"))
    return mark_safe(render_seed_text(text))
