from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import ValidationError

from .backends import lockout_of
from .models import User
from .services import lockout_message


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "date_joined", "language", "is_staff", "is_active", "welcome_pending")
    search_fields = ("username",)
    fieldsets = (*BaseUserAdmin.fieldsets, ("Tapete", {"fields": ("language",)}))


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's log-in goes through the same throttle as the site's (accounts.backends)."""

    def get_invalid_login_error(self) -> ValidationError:
        lockout = lockout_of(self.request) if self.request is not None else None
        if lockout is not None:
            return ValidationError(lockout_message(lockout.retry_after_seconds), code="throttled")
        return super().get_invalid_login_error()


admin.site.login_form = ThrottledAdminAuthenticationForm
