"""The live tables' one domain error: a stable ``code`` and a readable message (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames.errors import CodedError

MESSAGES: dict[str, Any] = {
    "no_such_table": _("Esa mesa no existe o ya se cerró."),
    "unknown_game": _("Juego desconocido."),
    "bad_mode": _("Modo de juego desconocido."),
    "bad_options": _("Opciones no válidas para este juego."),
    "bad_players": _("Número de jugadores no válido para este juego."),
    "bad_level": _("El nivel de un bot es fácil, normal o difícil."),
    "login_required": _("Entra con tu cuenta para esto."),
    "identity_required": _("Entra con tu cuenta o elige un nombre de invitado."),
    "not_host": _("Solo el anfitrión puede hacer esto."),
    "not_seated": _("No estás sentado en esta mesa."),
    "already_seated": _("Ya estás sentado en esta mesa."),
    "table_full": _("La mesa está completa."),
    "seat_taken": _("Ese asiento ya está ocupado."),
    "bad_seat": _("Ese asiento no existe en esta mesa."),
    "not_waiting": _("La partida ya ha empezado."),
    "not_playing": _("La partida no está en juego."),
    "not_your_turn": _("Ahora no es tu turno."),
    "seats_empty": _("Quedan asientos libres: invita a alguien o añade bots."),
    "guests_not_allowed": _("Los invitados no pueden entrar en esta mesa."),
    "stale": _("La mesa ha cambiado: aquí tienes la situación actual."),
    "duplicate": _("Esa acción ya se recibió."),
    "spectator": _("Estás mirando: no juegas en esta mesa."),
    "unknown_user": _("No hay ningún jugador con ese nombre."),
    "self_invite": _("No puedes invitarte a ti mismo."),
    "already_invited": _("Ya le has invitado a esta mesa."),
    "no_such_invitation": _("Esa invitación no existe."),
    "invitation_closed": _("Esa invitación ya no está pendiente."),
    "chat_empty": _("Escribe algo antes de enviar."),
    "chat_invalid": _("Ese mensaje tiene caracteres no válidos."),
    "chat_too_long": _("Los mensajes tienen como mucho 300 caracteres."),
    "chat_rate_limited": _("Vas muy rápido: espera unos segundos."),
    "muted": _("No puedes escribir en el chat de esta mesa."),
    "not_finished": _("La partida aún no ha terminado."),
    "no_rematch_yet": _("El anfitrión aún no ha propuesto la revancha."),
    "table_closed": _("Esa mesa ya no admite jugadores: empezó o se anuló."),
    "table_closing": _("Esa mesa no se llenó a tiempo y se está anulando."),
    "too_many_rooms": _("Ya tienes demasiadas mesas abiertas: termina o cierra alguna."),
    "too_many_rooms_here": _(
        "Hay demasiadas mesas abiertas desde tu conexión: termina o cierra alguna antes de crear otra."
    ),
    "too_many_guests": _(
        "Se han creado demasiados invitados desde tu conexión: vuelve a intentarlo más tarde."
    ),
    "busy": _("Estamos creando otra mesa tuya: vuelve a intentarlo en un momento."),
    "too_many_invitations": _("Tienes demasiadas invitaciones pendientes: espera a que respondan."),
    "chat_full": _("El chat de esta mesa está lleno."),
    "private_room": _("Esta sala es privada: entra con su enlace o su código."),
    "too_many_guesses": _("Demasiados códigos equivocados: espera %(minutes)s min y vuelve a probar."),
}


class TableError(CodedError):
    """A request the table service refuses; nothing was changed."""

    MESSAGES = MESSAGES
