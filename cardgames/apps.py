from typing import Any

from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.sessions import sessions_ended

        from . import welcome
        from .matchmaking import hooks as matchmaking_hooks
        from .ratings import signals  # noqa: F401 (rate finished games on game_finished)
        from .tables.settlement import game_finished

        matchmaking_hooks.register()  # online tables: the tables call matchmaking only through these
        game_finished.connect(welcome.on_game_finished, dispatch_uid="cardgames.welcome.unlock")
        sessions_ended.connect(close_sockets, dispatch_uid="cardgames.close_sockets")


def close_sockets(sender: Any, *, user_id: int, session: str = "", keep: str = "", **kwargs: Any) -> None:
    """Log-out or a password change (``accounts.sessions``): the ended sessions' sockets close."""
    from .tables.broadcast import close_user_sockets

    close_user_sockets(user_id, session=session, keep=keep)
