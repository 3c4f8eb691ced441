from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = _("Economía")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from accounts.web import page_signed_up

        from . import signals  # noqa: F401  (welcome grant on sign-up)
        from .db import register_sqlite_functions
        from .welcome import tell_on_sign_up

        connection_created.connect(register_sqlite_functions, dispatch_uid="economy_sqlite_functions")
        page_signed_up.connect(tell_on_sign_up, dispatch_uid="economy.welcome.tell_on_sign_up")
