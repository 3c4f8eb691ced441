"""People-facing, translated messages for Rulezz errors (the pure module speaks in codes)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .scoring import MAX_PLAYERS, MAX_POINTS, MIN_PLAYERS, MIN_POINTS, RulezzError


def rulezz_message(err: RulezzError) -> str:
    where = {"round": err.round_number or "", "player": err.player or ""}
    messages = {
        "too_few_players": _("Skyjo se juega con al menos %(n)d jugadores.") % {"n": MIN_PLAYERS},
        "too_many_players": _("Skyjo se juega con %(n)d jugadores como máximo.") % {"n": MAX_PLAYERS},
        "duplicate_player": _("El nombre «%(player)s» está repetido.") % where,
        "bad_player_name": _("Cada jugador necesita un nombre (de hasta 20 caracteres)."),
        "unknown_player": _("Ronda %(round)s: «%(player)s» no está en esta partida.") % where,
        "missing_player": _("Ronda %(round)s: faltan los puntos de %(player)s.") % where,
        "not_a_number": _("Ronda %(round)s: los puntos de %(player)s no son un número.") % where,
        "not_an_integer": _("Ronda %(round)s: los puntos de %(player)s deben ser un número entero.") % where,
        "out_of_range": _("Ronda %(round)s: los puntos de %(player)s deben estar entre %(lo)d y %(hi)d.")
        % {**where, "lo": MIN_POINTS, "hi": MAX_POINTS},
        "no_closer": _("Ronda %(round)s: indica quién cerró la ronda.") % where,
        "several_closers": _("Ronda %(round)s: solo una persona cierra la ronda.") % where,
        "unknown_closer": _("Ronda %(round)s: quien cierra debe ser uno de los jugadores.") % where,
        "round_after_end": _("La partida ya terminó: no se pueden añadir más rondas."),
        "bad_round_index": _("Esa ronda no existe."),
        "too_many_sheets": _("Ya tienes el máximo de hojas guardadas: borra alguna para crear otra."),
        "too_many_rounds": _("Esta hoja ya tiene el máximo de rondas."),
        "bad_rounds": _("Las rondas no son válidas: cada una lleva los puntos y quién cerró."),
        "bad_title": _("El título tiene como máximo 80 caracteres."),
        "invisible_characters": _("No se admiten caracteres invisibles ni de control de dirección."),
        "mixed_script": _("No mezcles alfabetos distintos en un nombre (por ejemplo, latino y cirílico)."),
    }
    return messages.get(err.code, _("Datos no válidos."))


def parse_points(raw: object) -> object:
    """Form text to an int when it is one; anything else goes through so scoring names the error."""
    if isinstance(raw, str):
        text = raw.strip().replace("−", "-")
        try:
            return int(text)
        except ValueError:
            return text
    return raw
