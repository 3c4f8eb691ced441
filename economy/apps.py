from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"
    default_auto_field = "django.db.models.BigAutoField"
