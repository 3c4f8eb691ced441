from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .names import USERNAME_HELP


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("Nombre de usuario"),
        max_length=20,
        help_text=USERNAME_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    password1 = forms.CharField(
        label=_("Contraseña"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label=_("Repite la contraseña"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("Las contraseñas no coinciden."))
        return data


class LoginForm(forms.Form):
    username = forms.CharField(
        label=_("Nombre de usuario"),
        max_length=40,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    password = forms.CharField(
        label=_("Contraseña"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class PasswordChangeForm(forms.Form):
    old_password = forms.CharField(
        label=_("Contraseña actual"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password1 = forms.CharField(
        label=_("Contraseña nueva"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    new_password2 = forms.CharField(
        label=_("Repite la contraseña nueva"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("new_password1") and data.get("new_password1") != data.get("new_password2"):
            self.add_error("new_password2", _("Las contraseñas no coinciden."))
        return data


class GuestForm(forms.Form):
    name = forms.CharField(
        label=_("Tu nombre en la mesa"),
        max_length=20,
        help_text=USERNAME_HELP,
        widget=forms.TextInput(attrs={"autofocus": True}),
    )
