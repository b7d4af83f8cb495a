"""Games cancelled before the void was an engine transition: their engine state still says
"playing" (or "finished") under a `cancelled` row. Void them through the engine, with the
seatless log row the game service now writes, so that every cancelled game's state, log and
replay agree and no code needs a special case for the old ones. No rating is touched: the
old cancellation already reversed what had been rated.
"""

from django.db import migrations
from django.db.models import Max

from games import engine


def void_legacy_rows(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameAction = apps.get_model("games", "GameAction")
    legacy = Game.objects.filter(status="cancelled").exclude(state__status="cancelled")
    for game in legacy.iterator():
        reason = game.reason or engine.VOID_REASON
        at = game.finished_at or game.created_at
        try:
            state, events = engine.void(engine.from_json(game.state), at.timestamp(), reason)
        except engine.RuleError:  # nothing to void in the state: leave the row as it is
            continue
        last = GameAction.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0
        game.version += 1
        GameAction.objects.create(
            game=game,
            seq=last + 1,
            seat=None,
            user=None,
            action={"do": "void", "reason": reason},
            request_id=None,
            received_at=at,
            t=at.timestamp(),
            events=events,
            version=game.version,
            error="",
        )
        game.state = engine.to_json(state)
        game.save(update_fields=["state", "version"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_players_snapshot")]

    operations = [migrations.RunPython(void_legacy_rows, migrations.RunPython.noop)]
