"""Challenge and QueueEntry move here from the games app, rows and all.

Only Django's model state moves: the tables keep their names (``db_table``), so nothing
in the database is created, copied or dropped. games 0005 removes the models from the
games app's state once they exist here. The content types (and so the permissions and
admin log entries that point at them) are relabelled rather than left behind.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("challenge", "queueentry")


def relabel_content_types(apps, schema_editor, old="games", new="lobby"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        # A fresh database has no content types yet (post_migrate creates them); one that
        # already has the new label keeps it.
        if not ContentType.objects.using(db).filter(app_label=new, model=model).exists():
            ContentType.objects.using(db).filter(app_label=old, model=model).update(
                app_label=new
            )


def unrelabel_content_types(apps, schema_editor):
    relabel_content_types(apps, schema_editor, old="lobby", new="games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_clock_keeper"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Challenge",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                        ("expires_at", models.DateTimeField(db_index=True, verbose_name="expires")),
                        ("status", models.CharField(choices=[("open", "open"), ("accepted", "accepted"), ("declined", "declined"), ("cancelled", "cancelled"), ("expired", "expired")], db_index=True, default="open", max_length=16, verbose_name="status")),
                        ("challenger", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="challenges_sent", to=settings.AUTH_USER_MODEL, verbose_name="challenger")),
                        ("opponent", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="challenges_received", to=settings.AUTH_USER_MODEL, verbose_name="opponent")),
                        ("game", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="challenges", to="games.game", verbose_name="game")),
                    ],
                    options={
                        "verbose_name": "challenge",
                        "verbose_name_plural": "challenges",
                        "db_table": "games_challenge",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.CreateModel(
                    name="QueueEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("rating", models.IntegerField(verbose_name="rating at join")),
                        ("joined_at", models.DateTimeField(db_index=True, verbose_name="joined")),
                        ("seen_at", models.DateTimeField(verbose_name="last seen")),
                        ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="queue_entry", to=settings.AUTH_USER_MODEL, verbose_name="player")),
                    ],
                    options={
                        "verbose_name": "queue entry",
                        "verbose_name_plural": "matchmaking queue",
                        "db_table": "games_queueentry",
                        "ordering": ["joined_at"],
                    },
                ),
            ],
        ),
        migrations.RunPython(relabel_content_types, unrelabel_content_types),
    ]
