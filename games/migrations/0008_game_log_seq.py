"""Game.log_seq: the log's last sequence number, kept on the game row (read with its lock)."""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_log_seq(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameAction = apps.get_model("games", "GameAction")
    last = (
        GameAction.objects.filter(game=OuterRef("pk"))
        .values("game")
        .annotate(m=Max("seq"))
        .values("m")
    )
    Game.objects.update(log_seq=Coalesce(Subquery(last), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_challenge_queueentry_to_lobby"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="log_seq",
            field=models.PositiveIntegerField(default=0, verbose_name="last log sequence"),
        ),
        migrations.RunPython(fill_log_seq, migrations.RunPython.noop),
    ]
