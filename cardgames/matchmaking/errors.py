"""The queue's domain error: a stable ``code`` and a readable Spanish message (English in locale/)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames.errors import CodedError

MESSAGES: dict[str, Any] = {
    "login_required": _("Entra con tu cuenta para jugar online: los invitados no entran en la cola."),
    "unknown_game": _("Juego desconocido."),
    "bad_players": _("Número de jugadores no válido para este juego."),
    "bad_stake": _("La entrada es gratis o de 100, 250, 500 o 1000 monedas."),
    "already_queued": _("Ya estás en la cola de una partida."),
    "already_playing": _("Ya estás en una mesa online: termina esa partida primero."),
    "insufficient_coins": _("No tienes monedas suficientes para esa entrada."),
    "queue_busy": _("Tu sitio en la cola está cambiando ahora mismo: inténtalo de nuevo."),
}


class QueueError(CodedError):
    """A request the queue refuses; nothing was changed. ``where``: the table a refusal is about
    (``already_playing`` names the player's online table: its id, code and URL)."""

    MESSAGES = MESSAGES

    def __init__(self, code: str, message: str | None = None, *, where: dict[str, Any] | None = None) -> None:
        super().__init__(code, message)
        self.where = dict(where or {})

    def as_dict(self) -> dict[str, Any]:
        return {**self.where, **super().as_dict()}
