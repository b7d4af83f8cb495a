from django.db import migrations, models


class Migration(migrations.Migration):
    """QueueEntry.held: a place kept while its player plays the computer meanwhile."""

    dependencies = [
        ("lobby", "0001_challenges_and_queue"),
    ]

    operations = [
        migrations.AddField(
            model_name="queueentry",
            name="held",
            field=models.BooleanField(default=False, verbose_name="held"),
        ),
    ]
