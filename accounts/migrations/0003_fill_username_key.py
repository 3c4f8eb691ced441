"""Data: every existing user's ``username_key`` (accounts.names.name_key). Reversible (nothing to undo)."""

from typing import Any

from django.db import migrations

from accounts.names import name_key


def fill(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username").iterator():
        User.objects.filter(pk=user.pk).update(username_key=name_key(user.username))


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_user_username_key")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
