from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from cardgames.tables.settlement import game_finished

        from . import sessions, welcome

        game_finished.connect(welcome.on_game_finished, dispatch_uid="accounts.welcome.unlock")
        user_logged_out.connect(sessions.on_logged_out, dispatch_uid="accounts.sessions.close_sockets")
