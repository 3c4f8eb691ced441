"""``{% load economy %}{% vip_badge user %}``: the VIP badge (PF-59) next to a player's name."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from economy.selectors import has_vip

register = template.Library()


@register.simple_tag
def vip_badge(user: Any) -> SafeString | str:
    """The badge for a user with an active VIP pass, else nothing (one query)."""
    if not getattr(user, "is_authenticated", False) or not has_vip(user=user):
        return ""
    return format_html(
        '<span class="badge badge-vip" data-testid="vip-badge" title="{}">{}</span>',
        _("Pase VIP activo"),
        _("VIP"),
    )
