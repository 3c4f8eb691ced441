"""Create the local administrator once (used by bin/run); never change it afterwards.

On the first run the ``admin`` superuser is created with a random password, kept in
``.run/admin-password`` (mode 600) and printed. Later runs leave the account alone — a
password changed in the admin stays changed, and staff/superuser flags turned off stay off —
and print the kept password only while it still opens the account.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.names import name_key

CHANGED = "(changed: not shown)"


class Command(BaseCommand):
    help = "Create the local 'admin' superuser if missing; print its password while it is the kept one."

    def handle(self, *args: Any, **options: Any) -> None:
        path = settings.RUN_DIR / "admin-password"
        path.parent.mkdir(parents=True, exist_ok=True)
        user = User.objects.filter(username_key=name_key("admin")).first()
        if user is None:
            password = secrets.token_urlsafe(12)
            path.write_text(password + "\n")
            path.chmod(0o600)
            User.objects.create_superuser(username="admin", password=password, email="")
            self.stdout.write(password)
            return
        kept = path.read_text().strip() if path.exists() else ""
        self.stdout.write(kept if kept and user.check_password(kept) else CHANGED)
