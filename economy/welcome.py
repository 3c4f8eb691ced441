"""What a new player is told about the welcome coins until they come (issue 25, PF-57).

A sign-up's 1,000 coins wait for its first finished game (``cardgames/welcome.py`` pays them);
the sign-up page says so at once (``accounts.web.page_signed_up``, connected in
``EconomyConfig.ready``), in the same words as the wallet's and the shop's notice
(``economy/_welcome_pending.html``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _


def pending_notice() -> str:
    """What a new account is told until its coins come (issue 25): when they come, and why — the
    same words as the wallet's and the shop's notice (economy/_welcome_pending.html)."""
    from .payouts import WELCOME_GRANT

    when = _("Tus %(coins)s monedas de bienvenida llegan al terminar tu primera partida.") % {
        "coins": WELCOME_GRANT
    }
    why = _(
        "Vale cualquier partida en la que juegues, también contra bots: así nadie abre cuentas solo para "
        "recoger monedas."
    )
    return f"{when} {why}"


def tell_on_sign_up(sender: Any, *, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """The sign-up page's next page says when the welcome coins come (if they wait)."""
    if getattr(user, "welcome_pending", False):
        messages.info(request, pending_notice())
