from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Liga semanal")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from cardgames.tables.settlement import game_finished

        from .services import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="league.record_game")
