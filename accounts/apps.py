from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from . import sessions

        user_logged_out.connect(sessions.on_logged_out, dispatch_uid="accounts.sessions.close_sockets")
