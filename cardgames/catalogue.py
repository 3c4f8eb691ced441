"""The one game catalogue: which engine plays a game, how many seat, its options, its base rate.

Pure (no Django): the engines' registry, the table service, the pages and the economy all
read this module, so a game's player range or base rate is written down once.

- PF-1/PF-12/PF-37/PF-41/PF-43: player ranges (One Card and Pika 2–4, El Puteo 2–8 classic and
  up to 12 big, Skyjo 2–8, Guandan 4).
- PF-55: room codes — El Puteo 4 letters from an alphabet without I and O, the others 6 digits.
- PF-57: base rates B (One Card 50, Pika 50, El Puteo 80, Skyjo 80, Guandan 100).
- PT-50–PT-52: El Puteo's room options, lives 5 or 3 and mode classic or big.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

CodeStyle = Literal["digits", "letters"]
#: PF-55: unambiguous capitals for El Puteo's codes (no I, O; no look-alikes)
CODE_LETTERS: Final[str] = "ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_DIGITS: Final[str] = "0123456789"


class CatalogueError(ValueError):
    """An unknown game or options that game does not take; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Choice:
    """A room option a host picks from a short list (the first value is the default)."""

    name: str
    values: tuple[Any, ...]

    @property
    def default(self) -> Any:
        return self.values[0]


@dataclass(frozen=True)
class GameSpec:
    slug: str
    name: str
    engine: str  # "module:Class", imported lazily by cardgames.engines.get_engine
    min_players: int
    max_players: int
    default_players: int
    base_rate: int
    code_style: CodeStyle
    code_length: int
    choices: tuple[Choice, ...] = field(default=())

    def player_range(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def max_players_for(self, options: dict[str, Any]) -> int:
        """El Puteo's classic mode seats 8 (PT-2); every other limit is the game's own."""
        if self.slug == "puteo" and options.get("mode", "classic") == "classic":
            return 8
        return self.max_players


CATALOGUE: Final[dict[str, GameSpec]] = {
    spec.slug: spec
    for spec in (
        GameSpec(
            "one_card", "One Card", "cardgames.engines.one_card:OneCardEngine", 2, 4, 4, 50, "digits", 6
        ),
        GameSpec("pika", "Pika", "cardgames.engines.pika:PikaEngine", 2, 4, 4, 50, "digits", 6),
        GameSpec(
            "puteo",
            "El Puteo",
            "cardgames.engines.puteo:PuteoEngine",
            2,
            12,
            4,
            80,
            "letters",
            4,
            (Choice("lives", (5, 3)), Choice("mode", ("classic", "big"))),
        ),
        GameSpec("skyjo", "Skyjo", "cardgames.engines.skyjo:SkyjoEngine", 2, 8, 4, 80, "digits", 6),
        GameSpec("guandan", "Guandan", "cardgames.engines.guandan:GuandanEngine", 4, 4, 4, 100, "digits", 6),
    )
}
GAMES: Final[tuple[str, ...]] = tuple(CATALOGUE)


def game_spec(slug: Any) -> GameSpec:
    """The spec of ``slug``, or CatalogueError("unknown_game")."""
    spec = CATALOGUE.get(slug) if isinstance(slug, str) else None
    if spec is None:
        known = ", ".join(GAMES)
        raise CatalogueError("unknown_game", f"There is no game {str(slug)[:40]!r}; pick one of {known}.")
    return spec


def clean_options(slug: str, players: Any, options: Any) -> tuple[int, dict[str, Any]]:
    """(player count, the room's options) checked against the catalogue, defaults filled in.

    Only the host's choices are accepted here; test-only engine options (decks, hands) never
    come from a client.
    """
    spec = game_spec(slug)
    raw = options if options is not None else {}
    if not isinstance(raw, dict):
        raise CatalogueError("bad_options", "Options are an object.")
    unknown = sorted(set(raw) - {c.name for c in spec.choices})
    if unknown:
        raise CatalogueError("bad_options", f"{spec.name} has no option {unknown[0][:40]!r}.")
    cleaned: dict[str, Any] = {}
    for choice in spec.choices:
        value = raw.get(choice.name, choice.default)
        if isinstance(value, bool) or value not in choice.values:
            allowed = ", ".join(str(v) for v in choice.values)
            raise CatalogueError("bad_options", f"{choice.name} must be one of {allowed}.")
        cleaned[choice.name] = value
    count = spec.default_players if players is None else players
    limit = spec.max_players_for(cleaned)
    if isinstance(count, bool) or not isinstance(count, int) or not spec.min_players <= count <= limit:
        raise CatalogueError("bad_players", f"{spec.name} seats {spec.min_players} to {limit} players.")
    return count, cleaned
