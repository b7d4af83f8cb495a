"""A player is in at most one active game, enforced by the database (games.models.ActiveSeat).

Each player of a game waiting or playing gets its seat, oldest game first; a player found
in a later active game as well is reported (DoubleSeat, listed in the admin) and that game
goes on untouched.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


ACTIVE = ("waiting", "playing")


def seat_players(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Bot = apps.get_model("games", "Bot")
    ActiveSeat = apps.get_model("games", "ActiveSeat")
    DoubleSeat = apps.get_model("games", "DoubleSeat")
    bots = set(Bot.objects.values_list("user_id", flat=True))
    seated: dict[int, int] = {}
    for game in Game.objects.filter(status__in=ACTIVE).order_by("created_at", "pk").iterator():
        for user_id in {game.player0_id, game.player1_id} - bots:
            if user_id in seated:
                DoubleSeat.objects.create(
                    user_id=user_id, game_id=game.pk, seated_in_id=seated[user_id]
                )
            else:
                seated[user_id] = game.pk
                ActiveSeat.objects.create(user_id=user_id, game_id=game.pk)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_move_updates_in_place'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ActiveSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='active_seats', to='games.game', verbose_name='game')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='active_seat', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'active seat',
                'verbose_name_plural': 'active seats',
            },
        ),
        migrations.CreateModel(
            name='DoubleSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('found_at', models.DateTimeField(auto_now_add=True, verbose_name='found')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='games.game', verbose_name='second game')),
                ('seated_in', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game', verbose_name='game holding the seat')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'player in two active games',
                'verbose_name_plural': 'players in two active games',
                'ordering': ['-found_at'],
            },
        ),
        migrations.RunPython(seat_players, migrations.RunPython.noop),
    ]
