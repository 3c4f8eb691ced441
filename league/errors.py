"""The league's one domain error: a stable ``code`` for programs and a readable message."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, Any] = {
    "invalid_week": _("Esa semana no existe. Usa el formato 2026-W49 o una fecha."),
    "unknown_game": _("Juego desconocido."),
    "week_not_over": _("La semana todavía no ha terminado."),
    "week_not_started": _("La semana todavía no ha empezado."),
    "week_closed": _("La semana ya está cerrada: su clasificación y sus premios no cambian."),
    "invalid_points": _("Los puntos de una corrección deben ser un número entero distinto de cero."),
    "reason_required": _("Escribe el motivo de la corrección."),
    "not_staff": _("Solo la administración puede corregir la liga."),
    "unknown_user": _("Ese jugador no existe."),
}


class LeagueError(Exception):
    """Bad input or a refused operation; nothing was changed."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = str(message if message is not None else MESSAGES.get(code, code))
        super().__init__(f"{code}: {self.message}")
