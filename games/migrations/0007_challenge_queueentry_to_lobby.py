"""Challenge and QueueEntry now belong to the lobby app (lobby 0001): only the state goes.

The tables stay where they are, under their old names, now owned by the lobby's models.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_void_legacy_cancelled_games"),
        ("lobby", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="Challenge"),
                migrations.DeleteModel(name="QueueEntry"),
            ],
        ),
    ]
