"""The words of the table page's end of a game and its exits (``static/frontend/endgame.js``,
issue 25 items 4 and 5), merged into the page's strings by ``table_strings``."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ENDGAME_STRINGS: dict[str, Promise] = {
    # the winner first
    "eg_you_won": _("¡Has ganado!"),
    "eg_you_won_with": _("¡Habéis ganado! %(names)s"),
    "eg_winner": _("Gana %(names)s"),
    "eg_winners": _("Ganan %(names)s"),
    "eg_no_winner": _("Nadie gana: los últimos cayeron a la vez (%(names)s comparten el primer puesto)"),
    "eg_and": _(" y "),
    # each seat's numbers, labelled
    "eg_place": _("%(place)sº"),
    "eg_score_one_card": _("Cartas en la mano"),
    "eg_score_pika": _("Cartas en la mano"),
    "eg_score_puteo": _("Vidas"),
    "eg_score_skyjo": _("Puntos"),
    "eg_score_guandan": _("Nivel del equipo"),
    "eg_coins": _("Monedas ganadas"),
    "eg_xp": _("Experiencia"),
    "eg_league": _("Puntos de liga"),
    "eg_entry": _("Entrada pagada"),
    "eg_practice": _("Partida de práctica contra bots: no da monedas, experiencia ni puntos de liga."),
    "eg_practice_offline": _(
        "Práctica en tu navegador: no da monedas, experiencia, puntos de liga ni puntuación, "
        "y no se envía nada al servidor."
    ),
    "eg_friends": _("Las partidas con amigos dan monedas y experiencia al ganador, pero no puntos de liga."),
    "eg_guest": _("Como invitado no ganas monedas ni experiencia: crea una cuenta para ganarlas."),
    "eg_settling": _("Calculando monedas y puntos…"),
    "eg_show_table": _("Ver la mesa"),
    "eg_show_result": _("Ver el resultado"),
    # rematch
    "eg_again_bots": _("Otra partida"),
    "eg_again_friends": _("Revancha"),
    "eg_again_online": _("Buscar otra"),
    "eg_accept": _("Aceptar la revancha"),
    "eg_go_rematch": _("Ir a la revancha"),
    "eg_watch_rematch": _("La revancha ya empezó: mirarla"),
    "eg_wait_host": _("Cuando el anfitrión proponga la revancha, podrás aceptarla aquí."),
    "eg_offered": _("%(name)s propone la revancha: mismos jugadores y bots, nuevo barajado."),
    "eg_offered_you": _("Has propuesto la revancha: te llevamos a la sala nueva."),
    "eg_queued": _("Buscando otra mesa: %(players)s jugadores, %(stake)s. Te llevamos cuando empiece."),
    "eg_free": _("gratis"),
    "eg_stake": _("entrada de %(n)s monedas"),
    "eg_leave_queue": _("Salir de la cola"),
    "eg_left_queue": _("Has salido de la cola."),
    # leaving
    "eg_leave": _("Salir de la mesa"),
    "eg_close": _("Cerrar sala"),
    "eg_confirm_leave": _("Sí, salir"),
    "eg_confirm_close": _("Sí, cerrar la sala"),
    "eg_cancel": _("Seguir en la mesa"),
    "eg_explain_stand_up": _(
        "Dejarás tu asiento libre. Puedes volver con el enlace mientras la partida no empiece."
    ),
    "eg_explain_close": _(
        "La sala se cerrará para todos: los demás verán que la cerraste y sus invitaciones desaparecerán."
    ),
    "eg_explain_online_waiting": _(
        "Dejarás la mesa antes de que empiece; si pagaste entrada, se te devuelve."
    ),
    "eg_explain_friends": _(
        "Un bot jugará tu asiento desde ahora. Si vuelves a abrir la mesa antes de que acabe, "
        "recuperas tu asiento."
    ),
    "eg_explain_bots": _(
        "Un bot jugará tu asiento y la partida esperará a que vuelvas: la encontrarás en «Tus "
        "mesas» del inicio."
    ),
    "eg_explain_online": _(
        "Tu asiento sigue en la mesa: cuando se te acabe el tiempo se jugará por ti, y tras dos "
        "turnos seguidos un bot jugará hasta que vuelvas."
    ),
    "eg_explain_buyin": _(
        "Tu asiento y tu entrada siguen en la mesa: nadie recupera la entrada de una partida "
        "empezada. Cuando se te acabe el tiempo se jugará por ti, y tras dos turnos seguidos un bot "
        "jugará hasta que vuelvas."
    ),
    "eg_room_closed": _("El anfitrión ha cerrado esta sala."),
    "eg_home": _("Volver al inicio"),
    "eg_spectator_chat": _("Estás mirando: lees el chat, pero solo escriben quienes juegan en esta mesa."),
}
