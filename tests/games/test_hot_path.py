"""The cost of an accepted move in SQL statements (issue: fast moves under load).

A move is a locked read of the game (with the log's last sequence number and the request
id's earlier answer in the same statement), one log row and the game row. The broadcast
after commit reads nothing from the database: the players' names came with the locked
read and their ratings are the game's snapshot.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.live import broadcast, presence
from games.live.audiences import SEAT_0, SEAT_1, WATCH
from games.live.groups import game_group
from games.models import Game, GameAction
from tests.games.factories import choose, make_game
from tests.threads import at_once

pytestmark = pytest.mark.django_db

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The SQL statements run, without the transaction's own BEGIN/COMMIT/savepoints."""
    return [
        query["sql"]
        for query in captured.captured_queries
        if not query["sql"].upper().startswith(TRANSACTION_CONTROL)
    ]


def next_move(game: Game) -> tuple[int, dict]:
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    for seat in (0, 1):
        action = choose(engine.legal_actions(state, seat))
        if action is not None:
            return seat, action
    raise AssertionError("nobody can act")


def test_every_accepted_move_of_a_game_costs_at_most_four_statements(
    alice, bob, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob)
    users = (alice, bob)
    costs = []
    for number in range(40):
        seat, action = next_move(game)
        # The broadcast runs too (on commit), and must read nothing.
        with (
            CaptureQueriesContext(connection) as captured,
            django_capture_on_commit_callbacks(execute=True),
        ):
            result = services.game_submit_action(
                game_id=game.pk, user=users[seat], action=action, request_id=f"m{number}"
            )
        assert result.ok, (action, result)
        costs.append((action["do"], statements(captured)))
    assert all(len(sql) <= 4 for _do, sql in costs), [
        (do, len(sql), [s[:60] for s in sql]) for do, sql in costs if len(sql) > 4
    ]
    # A plain move: lock-and-read, then insert the log row and write the game (one
    # statement on PostgreSQL, a WITH clause; two on SQLite).
    _do, sql = next(c for c in costs if c[0] == "play")
    written = [s.upper() for s in sql[1:]]
    assert sql[0].upper().startswith("SELECT")
    if connection.features.has_select_for_update_of:
        assert "FOR UPDATE OF" in sql[0].upper()
    if connection.vendor == "postgresql":
        assert len(written) == 1
        assert written[0].startswith("WITH") and "INSERT INTO" in written[0]
    else:
        assert [w.split()[0] for w in written] == ["INSERT", "UPDATE"]


def test_a_replayed_request_is_answered_from_the_locked_read_alone(alice, bob):
    game = make_game(alice, bob)
    assert services.game_submit_action(
        game_id=game.pk, user=alice, action={"do": "start"}, request_id="r1"
    ).ok
    with CaptureQueriesContext(connection) as captured:
        again = services.game_submit_action(
            game_id=game.pk, user=alice, action={"do": "start"}, request_id="r1"
        )
    assert again.ok and again.duplicate and again.version == 1
    assert len(statements(captured)) == 1


def test_the_locked_read_carries_names_and_the_prior_answer(alice, bob):
    game = make_game(alice, bob)
    services.game_submit_action(game_id=game.pk, user=bob, action={"do": "draw"}, request_id="x")
    with transaction.atomic():
        locked = services.game_locked(game.pk, user=bob, request_id="x")
        assert locked is not None
        assert locked.player_names() == ["alice", "bob"]
        assert locked.log_seq == 1
        assert locked.prior_error and locked.prior_version == 0
        fresh = services.game_locked(game.pk, user=alice, request_id="x")
        assert fresh is not None and fresh.prior_version is None and fresh.prior_error is None
    assert services.game_locked(10**9) is None


def submit_twice_at_once(game_id: int, user, rid: str) -> list:
    def submit():
        return services.game_submit_action(
            game_id=game_id, user=user, action={"do": "resign"}, request_id=rid
        )

    return at_once(submit, submit)


@pytest.mark.django_db(transaction=True)
def test_a_request_racing_its_own_retry_is_applied_once(alice, bob):
    """Both copies of one request id at once: one applies, the other gets its answer."""
    for attempt in range(5):
        game = make_game(alice, bob)
        results = submit_twice_at_once(game.pk, alice, f"same-{attempt}")
        assert results[0].version == results[1].version == 1, results
        assert sorted(r.duplicate for r in results) == [False, True], results
        assert GameAction.objects.filter(game=game, request_id=f"same-{attempt}").count() == 1


def test_a_change_is_computed_and_sent_only_for_audiences_somebody_listens_to(
    alice, bob, monkeypatch
):
    game = make_game(alice, bob)
    sent: list[list[str]] = []
    send = broadcast.group_send_all

    def recorded(messages, **guard):
        send(messages, **guard)  # a send whose presence guard changed raises: not sent
        sent.append([g for g, _ in messages])

    monkeypatch.setattr(broadcast, "group_send_all", recorded)
    group = {a: game_group(game.pk, a) for a in (SEAT_0, SEAT_1, WATCH)}
    try:
        broadcast.broadcast_state(game, [])
        presence.presence_join(game.pk, [0], "socket-of-alice")
        broadcast.broadcast_state(game, [])
        presence.presence_join(game.pk, [presence.WATCH], "socket-of-carol")
        # A spectator is not a player: the seats' presence is unchanged.
        assert presence.presence_connected(game.pk) == [True, False]
        broadcast.broadcast_state(game, [])
        # Presence unknown (Redis unreachable): everybody is sent the change.
        with monkeypatch.context() as patch:
            patch.setattr(broadcast, "presence_listening", lambda game_id: None)
            patch.setattr(broadcast, "presence_expected", lambda game_id: None)
            broadcast.broadcast_state(game, [])
    finally:
        presence.presence_leave(game.pk, [0], "socket-of-alice")
        presence.presence_leave(game.pk, [presence.WATCH], "socket-of-carol")
    assert sent == [
        [],
        [group[SEAT_0]],
        [group[SEAT_0], group[WATCH]],
        [group[SEAT_0], group[SEAT_1], group[WATCH]],
    ]


def test_a_view_leaves_the_seats_presence_unsaid_while_it_is_unknown(alice, bob, monkeypatch):
    """Redis away: the page keeps the dots it shows rather than hear that both players left."""
    game = make_game(alice, bob)
    message = broadcast.state_message(game, SEAT_0)
    assert message["game"]["connected"] == [False, False]
    monkeypatch.setattr(presence, "presence_listening", lambda game_id: None)
    assert broadcast.state_message(game, SEAT_0)["game"]["connected"] is None
    outgoing = broadcast.state_messages(
        game, engine.from_json(game.state), [], 0.0, None, broadcast.players_meta(game)
    )
    assert all('"connected":null' in event["text"] for _group, event in outgoing)


def started_game(alice, bob) -> Game:
    game = make_game(alice, bob)
    for user in (alice, bob):
        assert services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id="start"
        ).ok
    return game


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the write without the row lock is PostgreSQL's"
)


@pytest.fixture
def due_move(alice, bob, monkeypatch) -> tuple[Game, Any, dict[str, Any], Any]:
    """A started game (its changes sent nowhere), the user to move, the move, the other."""
    monkeypatch.setattr(broadcast, "group_send_all", lambda messages, **guard: None)
    game = started_game(alice, bob)
    users = (alice, bob)
    seat, action = next_move(game)
    return game, users[seat], action, users[1 - seat]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_move_is_one_read_and_one_conditional_write(due_move):
    game, mover, action, _other = due_move
    with CaptureQueriesContext(connection) as captured:
        result = services.game_submit_action(
            game_id=game.pk, user=mover, action=action, request_id="plain"
        )
    assert result.ok
    sql = [query["sql"].upper() for query in captured.captured_queries]
    assert len(sql) == 2, sql  # no BEGIN, no COMMIT: the write is a statement of its own
    assert sql[0].startswith("SELECT") and "FOR UPDATE" not in sql[0]
    assert sql[1].startswith("WITH UPDATED AS (UPDATE") and "INSERT INTO" in sql[1]
    logged = GameAction.objects.get(game=game, request_id="plain")
    assert (logged.version, logged.action) == (result.version, action)
    assert Game.objects.get(pk=game.pk).version == result.version


def interleave(monkeypatch, between) -> list[int]:
    """Run `between()` once, after the next read without the lock and before its write.

    Returns a list that gets an item for each attempt that broke the log's unique
    (game, seq) and had to be retried: the conditional write must see the change itself.
    """
    from games import move_sql as rows

    read = rows.game_read
    pending = [between]
    broken: list[int] = []

    def read_then_interleave(*args, **kwargs):
        game = read(*args, **kwargs)
        if pending:
            pending.pop()()
        return game

    submit = services._submit

    def submit_counting_retries(*args, **kwargs):
        try:
            return submit(*args, **kwargs)
        except IntegrityError:
            broken.append(1)
            raise

    monkeypatch.setattr(rows, "game_read", read_then_interleave)
    monkeypatch.setattr(services, "_submit", submit_counting_retries)
    return broken


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_refusal_logged_between_the_read_and_the_write_sends_the_move_under_the_lock(
    due_move, monkeypatch
):
    """A refusal moves only the log's sequence (not the version): the write checks both."""
    game, mover, action, other = due_move

    def refused_request() -> None:
        refused = services.game_submit_action(
            game_id=game.pk, user=other, action={"do": "bid", "points": -1}, request_id="junk"
        )
        assert not refused.ok

    broken = interleave(monkeypatch, refused_request)
    with CaptureQueriesContext(connection) as captured:
        result = services.game_submit_action(
            game_id=game.pk, user=mover, action=action, request_id="move"
        )
    assert result.ok
    assert any("FOR UPDATE" in q["sql"].upper() for q in captured.captured_queries)
    seqs = list(GameAction.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert GameAction.objects.filter(game=game, request_id__in=["junk", "move"]).count() == 2
    assert Game.objects.get(pk=game.pk).log_seq == seqs[-1]
    assert broken == []


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_game_voided_between_the_read_and_the_write_keeps_the_void(due_move, monkeypatch):
    game, mover, action, _other = due_move
    broken = interleave(monkeypatch, lambda: services.game_void(game_id=game.pk, note="test"))
    result = services.game_submit_action(
        game_id=game.pk, user=mover, action=action, request_id="late"
    )
    assert not result.ok
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert not GameAction.objects.filter(game=game, request_id="late", error="").exists()
    assert broken == []


def game_table_updates() -> tuple[int, int]:
    """Rows of the games table updated in this transaction so far, and how many of them in
    place (HOT: a new version in the same page, no index written)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables"
            " WHERE relid = %s::regclass",
            [Game._meta.db_table],
        )
        updated, hot = cursor.fetchone()
    return updated, hot


@postgresql_only
def test_a_move_rewrites_its_game_row_in_place_without_writing_any_index(due_move):
    """No indexed column of the games table changes with a move (games.models.Game)."""
    game, mover, action, _other = due_move
    updated, hot = game_table_updates()
    assert services.game_submit_action(
        game_id=game.pk, user=mover, action=action, request_id="in-place"
    ).ok
    assert game_table_updates() == (updated + 1, hot + 1)
