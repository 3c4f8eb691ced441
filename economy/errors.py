"""The economy's one domain error: a stable ``code`` for programs and a readable message."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, Any] = {
    "invalid_amount": _("La cantidad debe ser un número entero de monedas mayor que cero y razonable."),
    "invalid_stake": _("La entrada debe ser de 100, 250, 500 o 1000 monedas."),
    "invalid_reference": _("Falta la referencia de la mesa o partida."),
    "pot_reference_taken": _("Esa mesa ya tiene un bote con otra entrada."),
    "insufficient_coins": _("No tienes monedas suficientes."),
    "already_seated": _("Ya has pagado la entrada de esta mesa."),
    "not_seated": _("No estás sentado en esta mesa."),
    "pot_not_open": _("La mesa ya no admite entradas ni salidas."),
    "pot_cancelled": _("La mesa fue anulada: su bote ya se devolvió."),
    "pot_settled": _("El bote de esta mesa ya se repartió."),
    "pot_empty": _("El bote está vacío: nadie pagó la entrada."),
    "pot_started": _("La partida de esta mesa ya empezó: solo la administración puede anularla."),
    "pot_not_started": _("La partida de esta mesa no llegó a empezar: su bote no se reparte."),
    "humans_only": _("Las mesas con entrada son solo para personas con cuenta."),
    "invalid_results": _("El resultado de la partida no es válido para este bote."),
    "bonus_already_claimed": _("Ya has recogido el bono de hoy. Vuelve mañana."),
    "unknown_item": _("Ese artículo no existe en la tienda."),
    "unknown_game": _("Juego desconocido."),
    "invalid_mode": _("Modo de juego desconocido."),
    "invalid_place": _("Puesto de liga no premiado."),
    "prize_place_taken": _("Ese puesto de la liga ya se pagó a otro jugador."),
    "reason_required": _("Escribe el motivo del ajuste."),
    "not_staff": _("Solo la administración puede hacer ajustes."),
    "idempotency_conflict": _("Esta operación ya se hizo con otros datos."),
    "invalid_transfer": _("Movimiento no válido."),
    "invalid_user": _("Jugador no válido."),
    "unknown_user": _("Ese jugador no existe."),
    "invalid_pot": _("Bote no válido."),
    "unknown_pot": _("Ese bote no existe."),
    "invalid_text": _("Texto no válido: demasiado largo o con caracteres no permitidos."),
    "invalid_time": _("Fecha y hora no válidas."),
    "pot_balance_mismatch": _("El saldo del bote no cuadra con sus entradas; avisa a la administración."),
}


class EconomyError(Exception):
    """Bad input or a refused operation; nothing was changed."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = str(message if message is not None else MESSAGES.get(code, code))
        super().__init__(f"{code}: {self.message}")
