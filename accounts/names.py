"""People's names and free text shown to others: one cleaning for usernames, guests, Rulezz (issue 13).

Every name is NFKC-normalised (so "ﬁ" is "fi" and "Ｊｏｓé" is "José") and refused when it
holds an invisible or direction-changing character (zero-width spaces and joiners, bidi
overrides such as U+202E, control characters, fillers that render as nothing): with them
"Ana" and "An\u200ba" would be two people who look the same, and U+202E reverses the text
that follows it on the page.

Usernames and guest names are letters of one script (accents and ñ welcome), ASCII digits and
underscores (never two in a row), 3 to 20 characters, starting with a letter: a name mixing scripts
("аdmin" with a Cyrillic а) is refused. Two names are the same name when their ``name_key``
is: the case-folded text with every letter of another script that looks like a Latin one
replaced by it (Unicode's confusables data, ``confusable-homoglyphs``), so "Ñandú" is taken
once "ñandú" is, and an all-Cyrillic "сосо" once "coco" is.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

USERNAME_MIN = 3
USERNAME_MAX = 20

#: Characters that render as nothing or as blank though their category says letter or symbol.
INVISIBLE = frozenset(
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164, 0xFFA0, 0x1D159, 0x1D173}
)
#: Categories never allowed in a name or a title: controls, format characters (zero-width
#: space, joiners, bidi embeddings/overrides/isolates, marks), private use, surrogates,
#: unassigned code points, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: Names nobody may take: they would pass for the site or its staff.
RESERVED = frozenset(
    {
        "admin",
        "administrador",
        "administradora",
        "administrator",
        "root",
        "staff",
        "soporte",
        "support",
        "moderador",
        "moderadora",
        "moderator",
        "tapete",
        "sistema",
        "system",
        "invitado",
        "invitada",
        "guest",
        "bot",
        "anonimo",
        "anonima",
        "anonymous",
        "banca",
        "casa",
    }
)
#: Reserved beginnings: "admin_2", "soporte_tapete" and the like.
RESERVED_PREFIXES = ("admin", "tapete", "soporte", "moderador")
_NEUTRAL_SCRIPTS = {"COMMON", "INHERITED"}
_USERNAME_SHAPE = re.compile(r"^[^\W\d_]\w*$")  # a letter first; "__" is refused apart


ZWJ = "\u200d"
#: what an emoji's part may be on either side of a zero-width joiner (👩‍💻, 👩🏽‍💻, 🏳️‍🌈): a
#: symbol, a skin-tone modifier, or the emoji variation selector U+FE0F
_EMOJI_PARTS = frozenset({"So", "Sk"})


def _emoji_joiner(text: str, at: int) -> bool:
    """Is the zero-width joiner at ``at`` inside an emoji sequence (a symbol on both sides)?"""
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    joins_before = bool(before) and (before == "\ufe0f" or unicodedata.category(before) in _EMOJI_PARTS)
    return joins_before and bool(after) and unicodedata.category(after) == "So"


def _has_refused_character(text: str, *, emoji: bool = False) -> bool:
    """An invisible, control or direction-changing character; with ``emoji``, a zero-width joiner
    between two parts of an emoji is not one (it draws one picture, it hides nothing)."""
    return any(
        (ord(ch) in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES)
        and not (emoji and ch == ZWJ and _emoji_joiner(text, at))
        for at, ch in enumerate(text)
    )


def _scripts(text: str) -> set[str]:
    return {categories.alias(ch) for ch in text} - _NEUTRAL_SCRIPTS if text else set()


def clean_text(value: object, *, max_length: int, field: str = "text") -> str:
    """NFKC, runs of spaces made one, trimmed; invisible or bidi characters refused.

    For free text others read (titles, Rulezz names, table chat): one cleaning for all of them.
    Emoji built with zero-width joiners (👩‍💻) are kept; a joiner anywhere else is refused.
    Raises ``ValidationError`` with code ``invisible_characters`` or ``too_long``.
    """
    text = unicodedata.normalize("NFKC", str(value or ""))
    text = re.sub(r"[\t\n\r\f\v]", " ", text)  # before the check: plain line breaks become spaces
    if _has_refused_character(text, emoji=True):
        raise ValidationError(
            _("No se admiten caracteres invisibles ni de control de dirección."),
            code="invisible_characters",
        )
    text = " ".join(text.split())
    if len(text) > max_length:
        raise ValidationError(
            _("Como máximo %(n)d caracteres.") % {"n": max_length}, code="too_long", params={"field": field}
        )
    return text


def clean_display_name(value: object, *, max_length: int = USERNAME_MAX) -> str:
    """A name typed for a score sheet: clean text of one script with at least one letter or digit."""
    text = clean_text(value, max_length=max_length, field="name")
    if text and not any(ch.isalnum() for ch in text):
        raise ValidationError(_("Un nombre necesita al menos una letra o un número."), code="no_letters")
    if len(_scripts(text)) > 1:
        raise ValidationError(
            _("No mezcles alfabetos distintos en un nombre (por ejemplo, latino y cirílico)."),
            code="mixed_script",
        )
    return text


def normalize_username(value: object) -> str:
    return unicodedata.normalize("NFKC", str(value or "")).strip()


def validate_username(value: object) -> None:
    """A username or guest name: see the module docstring. Raises ``ValidationError``."""
    name = normalize_username(value)
    if _has_refused_character(name):
        raise ValidationError(
            _("No se admiten caracteres invisibles ni de control de dirección."),
            code="invisible_characters",
        )
    if (
        not USERNAME_MIN <= len(name) <= USERNAME_MAX
        or not _USERNAME_SHAPE.match(name)
        or "__" in name
        or any(ch.isdigit() and not ch.isascii() for ch in name)
    ):
        raise ValidationError(USERNAME_HELP, code="invalid_username")
    if len(_scripts(name)) > 1:
        raise ValidationError(
            _("No mezcles alfabetos distintos en un nombre (por ejemplo, latino y cirílico)."),
            code="mixed_script",
        )
    if is_reserved(name):
        raise ValidationError(_("Ese nombre está reservado."), code="reserved_name")


USERNAME_HELP = _("De 3 a 20 letras (acentos y ñ incluidos), números o guiones bajos; empieza por una letra.")


@lru_cache(maxsize=4096)
def _latin_lookalike(ch: str) -> str:
    if categories.alias(ch) in _NEUTRAL_SCRIPTS | {"LATIN"}:
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            candidate = glyph.get("c", "")
            if candidate and all(categories.alias(c) == "LATIN" for c in candidate):
                return candidate.casefold()
    return ch


def name_key(value: object) -> str:
    """What two names must not share: NFKC, case-folded, other scripts' Latin look-alikes mapped.

    Total (never raises), so it also serves to look up a name typed at log-in.
    """
    folded = normalize_username(value).casefold()
    return unicodedata.normalize("NFKC", "".join(_latin_lookalike(ch) for ch in folded))


def is_reserved(value: object) -> bool:
    key = _strip_accents(name_key(value))
    return key in RESERVED or key.startswith(RESERVED_PREFIXES)


def _strip_accents(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
