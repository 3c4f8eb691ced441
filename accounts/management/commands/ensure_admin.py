"""Make sure a local administrator exists; print its password (used by bin/run).

The password is random on first use and kept in .run/admin-password, so each
machine has its own and nothing secret is in the repository.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = "Create the local 'admin' superuser if missing and print its password."

    def handle(self, *args: Any, **options: Any) -> None:
        path = settings.RUN_DIR / "admin-password"
        path.parent.mkdir(parents=True, exist_ok=True)
        password = path.read_text().strip() if path.exists() else ""
        user = User.objects.filter(username__iexact="admin").first()
        if user is None or not password or not user.check_password(password):
            password = secrets.token_urlsafe(12)
            path.write_text(password + "\n")
            path.chmod(0o600)
            if user is None:
                User.objects.create_superuser(username="admin", password=password, email="")
            else:
                user.set_password(password)
                user.is_staff = user.is_superuser = True
                user.save()
        self.stdout.write(password)
