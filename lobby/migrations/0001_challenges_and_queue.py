"""The lobby's tables (named games_challenge and games_queueentry: the games app made them
before the lobby took them over), replacing the migration that took them over.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [("lobby", "0001_initial")]

    dependencies = [
        ('games', '0001_squashed_0012_one_active_game'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Challenge',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('expires_at', models.DateTimeField(db_index=True, verbose_name='expires')),
                ('status', models.CharField(choices=[('open', 'open'), ('accepted', 'accepted'), ('declined', 'declined'), ('cancelled', 'cancelled'), ('expired', 'expired')], db_index=True, default='open', max_length=16, verbose_name='status')),
                ('challenger', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenges_sent', to=settings.AUTH_USER_MODEL, verbose_name='challenger')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='challenges', to='games.game', verbose_name='game')),
                ('opponent', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='challenges_received', to=settings.AUTH_USER_MODEL, verbose_name='opponent')),
            ],
            options={
                'verbose_name': 'challenge',
                'verbose_name_plural': 'challenges',
                'db_table': 'games_challenge',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='QueueEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rating', models.IntegerField(verbose_name='rating at join')),
                ('joined_at', models.DateTimeField(db_index=True, verbose_name='joined')),
                ('seen_at', models.DateTimeField(verbose_name='last seen')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='queue_entry', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'queue entry',
                'verbose_name_plural': 'matchmaking queue',
                'db_table': 'games_queueentry',
                'ordering': ['joined_at'],
            },
        ),
    ]
