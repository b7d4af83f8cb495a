"""The games app's tables as they stand after the migrations 0001 to 0012 it replaces.

A database made before this squash must have applied all twelve; docs/decisions/squashed-migrations.md
says why and what to do otherwise. A move rewrites its game row in place (PostgreSQL's HOT
update), so each page of the game table keeps free room for it (fillfactor 70).
"""

import django.db.models.deletion
import games.models
from django.conf import settings
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

    initial = True

    replaces = [
        ("games", "0001_initial"),
        ("games", "0002_play"),
        ("games", "0003_queueentry_servicefault"),
        ("games", "0004_clock_keeper"),
        ("games", "0005_game_players_snapshot"),
        ("games", "0006_void_legacy_cancelled_games"),
        ("games", "0007_challenge_queueentry_to_lobby"),
        ("games", "0008_game_log_seq"),
        ("games", "0009_seat_names_rematch"),
        ("games", "0010_computer_players"),
        ("games", "0011_move_updates_in_place"),
        ("games", "0012_one_active_game"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Heartbeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(db_index=True, verbose_name='at')),
                ('keeper', models.CharField(blank=True, max_length=100, verbose_name='clock keeper')),
            ],
            options={
                'verbose_name': 'heartbeat',
                'verbose_name_plural': 'heartbeats',
                'ordering': ['-at'],
            },
        ),
        migrations.CreateModel(
            name='Bot',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('strength', models.CharField(choices=[('easy', 'easy'), ('medium', 'medium'), ('hard', 'hard')], max_length=8, unique=True, verbose_name='strength')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='bot', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'computer player',
                'verbose_name_plural': 'computer players',
                'ordering': ['created_at'],
            },
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('waiting', 'waiting for both players to start'), ('playing', 'playing'), ('finished', 'finished'), ('aborted', 'aborted'), ('no_deal', 'stopped: no deal left'), ('cancelled', 'cancelled')], db_index=True, default='waiting', max_length=16, verbose_name='status')),
                ('state', models.JSONField(verbose_name='engine state')),
                ('setup', models.JSONField(default=dict, verbose_name='setup')),
                ('version', models.PositiveIntegerField(default=0, verbose_name='version')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                ('winner_seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='winner seat')),
                ('reason', models.CharField(blank=True, max_length=16, verbose_name='reason')),
                ('rated', models.BooleanField(default=True, verbose_name='rated')),
                ('same_device', models.BooleanField(default=False, verbose_name='same device')),
                ('next_deadline', models.DateTimeField(blank=True, null=True, verbose_name='next deadline')),
                ('players_snapshot', models.JSONField(default=games.models.default_players_snapshot, verbose_name="players' ratings")),
                ('clock_failures', models.PositiveIntegerField(default=0, verbose_name='clock failures')),
                ('log_seq', models.PositiveIntegerField(default=0, verbose_name='last log sequence')),
                ('clock_retry_at', models.DateTimeField(blank=True, null=True, verbose_name='clock retry at')),
                ('seat_names', models.JSONField(blank=True, default=list, verbose_name="players' names")),
                ('rematch_offered_by', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='rematch offered by seat')),
                ('bot_seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="computer's seat")),
                ('bot_strength', models.CharField(blank=True, choices=[('easy', 'easy'), ('medium', 'medium'), ('hard', 'hard')], max_length=8, verbose_name="computer's strength")),
                ('bot_since', models.DateTimeField(blank=True, db_index=True, null=True, verbose_name='computer to act since')),
                ('player0', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_seat0', to=settings.AUTH_USER_MODEL, verbose_name='player in seat 0')),
                ('player1', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_seat1', to=settings.AUTH_USER_MODEL, verbose_name='player in seat 1')),
                ('rematch_game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematch_of', to='games.game', verbose_name='rematch')),
            ],
            options={
                'verbose_name': 'game',
                'verbose_name_plural': 'games',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='DoubleSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('found_at', models.DateTimeField(auto_now_add=True, verbose_name='found')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='games.game', verbose_name='second game')),
                ('seated_in', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game', verbose_name='game holding the seat')),
            ],
            options={
                'verbose_name': 'player in two active games',
                'verbose_name_plural': 'players in two active games',
                'ordering': ['-found_at'],
            },
        ),
        migrations.CreateModel(
            name='ActiveSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='active_seat', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='active_seats', to='games.game', verbose_name='game')),
            ],
            options={
                'verbose_name': 'active seat',
                'verbose_name_plural': 'active seats',
            },
        ),
        migrations.CreateModel(
            name='GameAction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField(verbose_name='sequence')),
                ('seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat')),
                ('action', models.JSONField(verbose_name='action')),
                ('request_id', models.CharField(blank=True, max_length=64, null=True, verbose_name='request id')),
                ('received_at', models.DateTimeField(verbose_name='received')),
                ('t', models.FloatField(verbose_name='engine time')),
                ('events', models.JSONField(default=list, verbose_name='events')),
                ('version', models.PositiveIntegerField(verbose_name='resulting version')),
                ('error', models.CharField(blank=True, max_length=32, verbose_name='error')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='games.game')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'game action',
                'verbose_name_plural': 'game actions',
                'ordering': ['game', 'seq'],
                'constraints': [models.UniqueConstraint(fields=('game', 'seq'), name='game_action_seq_unique'), models.UniqueConstraint(condition=models.Q(('request_id__isnull', False)), fields=('game', 'user', 'request_id'), name='game_action_request_id_unique')],
            },
        ),
        migrations.CreateModel(
            name='ServiceFault',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('start', models.DateTimeField(db_index=True, verbose_name='start')),
                ('end', models.DateTimeField(db_index=True, verbose_name='end')),
                ('kind', models.CharField(choices=[('heartbeat_gap', 'heartbeat gap'), ('late_clock_check', 'late clock check'), ('admin', 'recorded by an admin')], default='admin', max_length=20, verbose_name='kind')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='recorded')),
                ('processed_at', models.DateTimeField(blank=True, null=True, verbose_name='processed')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by')),
                ('games', models.ManyToManyField(blank=True, related_name='service_faults', to='games.game', verbose_name='cancelled games')),
            ],
            options={
                'verbose_name': 'service fault',
                'verbose_name_plural': 'service faults',
                'ordering': ['-start'],
                'constraints': [models.CheckConstraint(condition=models.Q(('end__gte', models.F('start'))), name='service_fault_window', violation_error_message='A fault cannot end before it starts.'), models.UniqueConstraint(condition=models.Q(('kind', 'admin'), _negated=True), fields=('kind', 'start', 'end'), name='service_fault_detected_once')],
            },
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
