"""Compile every project and app locale/*/LC_MESSAGES/*.po into .mo with polib (pure Python).

Django's compilemessages needs GNU gettext's msgfmt, which a fresh machine with
only Python lacks; this gives the same .mo files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand

PROJECT_APPS = ("accounts", "cardgames", "economy", "league", "frontend")


def catalogues() -> list[Path]:
    """The .po files of LOCALE_PATHS and of our own apps (not of installed packages)."""
    dirs = [Path(d) for d in settings.LOCALE_PATHS]
    dirs += [Path(apps.get_app_config(label).path) / "locale" for label in PROJECT_APPS]
    return sorted(po for d in dirs for po in d.glob("*/LC_MESSAGES/*.po"))


class Command(BaseCommand):
    help = "Compile the project's .po translation catalogues to .mo (no gettext needed)."

    def handle(self, *args: Any, **options: Any) -> None:
        count = 0
        for po_path in catalogues():
            catalogue = polib.pofile(str(po_path))
            untranslated = catalogue.untranslated_entries()
            if untranslated:  # they fall back to the Spanish source; tests insist on none
                self.stderr.write(
                    f"{po_path}: {len(untranslated)} untranslated, e.g. {untranslated[0].msgid!r}"
                )
            catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
            count += 1
        self.stdout.write(f"compiled {count} catalogue(s)")
