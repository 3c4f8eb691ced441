from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_fill_username_key")]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False, max_length=80, unique=True, verbose_name="clave del nombre"
            ),
        ),
    ]
