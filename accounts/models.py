"""Players' accounts. Usernames are unique case-insensitively and shown as typed."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, UserManager
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

USERNAME_PATTERN = r"^[A-Za-z0-9_]{3,20}$"
username_validator = RegexValidator(
    USERNAME_PATTERN,
    _("Usa de 3 a 20 letras, números o guiones bajos."),
    code="invalid_username",
)


class CaseInsensitiveUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        return self.get(username__iexact=username)


class User(AbstractUser):
    username = models.CharField(
        _("nombre de usuario"),
        max_length=20,
        unique=True,
        validators=[username_validator],
        help_text=_("De 3 a 20 letras, números o guiones bajos."),
        error_messages={"unique": _("Ese nombre de usuario ya existe.")},
    )
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
