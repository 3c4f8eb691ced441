"""Every new registered account gets its welcome grant (PF-57), in the sign-up's transaction."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="economy_welcome_grant")
def grant_welcome_on_signup(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # raw: rows loaded by loaddata, whose ledger rows come from the same fixture.
    # welcome_pending: a sign-up's coins wait for its first finished game (cardgames/welcome.py).
    # superusers (the local `admin`) run the site: they are not new players (issue 13)
    if created and not raw and not getattr(instance, "welcome_pending", False) and not instance.is_superuser:
        from .services import grant_welcome

        grant_welcome(user=instance)
