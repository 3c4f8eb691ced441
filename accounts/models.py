"""Players' accounts. Usernames are unique by ``accounts.names.name_key`` and shown as typed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .names import USERNAME_HELP, name_key, validate_username

#: kept for callers that validate a name like a username (guests)
username_validator = validate_username


class CaseInsensitiveUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        return self.get(username_key=name_key(username))


class User(AbstractUser):
    username = models.CharField(
        _("nombre de usuario"),
        max_length=20,
        unique=True,
        validators=[validate_username],
        help_text=USERNAME_HELP,
        error_messages={"unique": _("Ese nombre de usuario ya existe.")},
    )
    #: ``name_key(username)``: case-folded, NFKC, look-alikes of other scripts mapped; set on save
    username_key = models.CharField(_("clave del nombre"), max_length=80, unique=True, editable=False)
    #: a sign-up's welcome coins wait for its first finished game (cardgames/welcome.py)
    welcome_pending = models.BooleanField(_("bienvenida pendiente"), default=False)
    language = models.CharField(
        _("idioma"), max_length=8, choices=[("es", "Español"), ("en", "English")], default="es"
    )

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")]
        verbose_name = _("usuario")
        verbose_name_plural = _("usuarios")

    def __str__(self) -> str:
        return self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username = self.normalize_username(self.username)
        self.username_key = name_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)
