from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_username_key_unique")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="welcome_pending",
            field=models.BooleanField(default=False, verbose_name="bienvenida pendiente"),
        ),
    ]
