from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .matchmaking import hooks as matchmaking_hooks
        from .ratings import signals  # noqa: F401 (rate finished games on game_finished)

        matchmaking_hooks.register()  # online tables: the tables call matchmaking only through these
