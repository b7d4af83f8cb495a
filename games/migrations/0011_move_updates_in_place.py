"""A move rewrites its game row in place (PostgreSQL's HOT update) and writes fewer indexes.

A move changes `state`, `version`, `log_seq` and `next_deadline`. With `next_deadline`
indexed, every move wrote a new entry into each of the game table's eight indexes and left
a dead one in each; now no indexed column changes, and PostgreSQL updates the row within
its page, touching no index, and prunes the old versions as it goes (without waiting for a
vacuum). Free room is kept in each page for that (fillfactor 70: a game row is 1-2 KB).
The log's index on `game` alone duplicated the start of its unique (game, seq) index.
"""

import django.db.models.deletion
from django.db import migrations, models

GAME_FILLFACTOR = 70


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {GAME_FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_computer_players"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="next_deadline",
            field=models.DateTimeField(blank=True, null=True, verbose_name="next deadline"),
        ),
        migrations.AlterField(
            model_name="gameaction",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="actions",
                to="games.game",
            ),
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
