"""The one door through which anything changes a game (docs/architecture.md, "How a move flows").

Every write reads the game row (under its lock, but for an ordinary move on PostgreSQL:
docs/decisions/lock-free-moves.md), rebuilds the engine state, lets the clock act at the
server's current time, applies what was asked, logs it, and bumps `version`. After commit
it broadcasts the new views. The new deadline is stored with the game (`next_deadline`),
where the clock keeper (games.clock.keeper) finds it. No rule lives here: the engine
decides everything.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils.functional import Promise

from accounts.selectors import username_lookalike
from games import engine
from games import move_sql as rows
from games.clock import timebase
from games.computer import accounts as computer
from games.computer import wakeups
from games.errors import ServiceError, message_for
from games.live.broadcast import broadcast_rematch, broadcast_state
from games.live.yours import broadcast_your_game, turn_key
from games.models import ActiveSeat, Bot, Game, GameAction, default_players_snapshot
from games.signals import (
    game_finished,
    game_rematch_asked,
    game_rematched,
    game_status_changed,
    game_voided,
)
from realtime.messages import is_request_id

logger = logging.getLogger(__name__)

MAX_ACTION_CHARS = 256
ADVANCE = {"do": "advance"}
DUE_BATCH = 500
# A game the clock keeper could not advance is retried after 2, 4, 8 … s, at most this.
QUARANTINE_MAX_SECONDS = 300.0


@dataclass(frozen=True)
class ActionResult:
    ok: bool
    version: int | None
    code: str = ""
    duplicate: bool = False

    @property
    def message(self) -> Promise | str:
        return message_for(self.code) if self.code else ""


@dataclass(frozen=True)
class AdvanceResult:
    changed: bool
    version: int | None = None
    deadline: float | None = None
    now: float | None = None


def action_is_well_formed(action: Any) -> bool:
    """Shape only: a small dict whose `do` is a known word with scalar fields.

    Checked before the engine only to refuse junk without taking the game's lock; the
    engine validates every field itself, against the same vocabulary.
    """
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        return False
    if action["do"] not in engine.ACTIONS or len(action) > engine.MAX_ACTION_KEYS:
        return False
    if not all(isinstance(k, str) for k in action):
        return False
    if not all(v is None or isinstance(v, str | int | float | bool) for v in action.values()):
        return False
    # What the log's JSON column refuses, refused here as malformed: otherwise a refusal
    # (which is logged) would fail as an outage, and the page retry it for ever. NaN and
    # the infinities are not JSON; PostgreSQL takes no NUL in a string.
    if any(isinstance(v, float) and not math.isfinite(v) for v in action.values()):
        return False
    if any("\x00" in text for text in (*action, *action.values()) if isinstance(text, str)):
        return False
    return len(json.dumps(action)) <= MAX_ACTION_CHARS


def game_locked(
    game_id: int, *, user: User | None = None, request_id: str | None = None
) -> Game | None:
    """The game row, locked until the transaction ends: every writer of a game takes it.

    The same statement reads what the writer needs next (games.move_sql.game_locked_read), so
    that an accepted move costs three statements: this one, the log row, the game row.
    """
    return rows.game_locked_read(
        game_id, user_id=None if user is None else user.pk, request_id=request_id
    )


# The columns a change writes (clock_* are reset by game_advance when it succeeds).
CHANGED_FIELDS = (
    "state",
    "status",
    "winner_seat",
    "reason",
    "next_deadline",
    "started_at",
    "finished_at",
    "version",
    "clock_failures",
    "clock_retry_at",
    "log_seq",
    "bot_since",
)


# What a move may change; a write without the row lock leaves the rest as it is.
MOVE_FIELDS = tuple(f for f in CHANGED_FIELDS if f not in ("clock_failures", "clock_retry_at"))


ACTION_COLUMNS = (
    "game_id",
    "seq",
    "seat",
    "user_id",
    "action",
    "request_id",
    "received_at",
    "t",
    "events",
    "version",
    "error",
)


class _GameWriter:
    """Accumulates what one transaction does to a game, then saves it all at once."""

    def __init__(self, game: Game, now: float) -> None:
        self.game = game
        self.now = now
        self.received_at = timebase.to_datetime(now)
        self.state_json = game.state
        self.state: Any = None
        self.events: list[dict[str, Any]] = []
        self.changed = False
        self.logged = False  # a row was logged: the game row is written even if unchanged
        # Accepted changes' log rows, written with the game row in one statement (save).
        self.pending_rows: list[dict[str, Any]] = []
        # Signals go out when the status changes, so once per result or void.
        self._status_before = game.status
        # What a write without the row lock checks the row still has (save(locked=False)).
        self._version_before = game.version
        self._log_seq_before = game.log_seq
        # Whose turn it was: the players' other pages are told only when it changes.
        self._turn_before = turn_key(game.state)
        self.void_note = ""

    def _next_seq(self) -> int:
        # Kept on the game row, read with its lock and written with it (CHANGED_FIELDS).
        self.game.log_seq += 1
        self.logged = True
        return self.game.log_seq

    def record(
        self,
        *,
        seat: int | None,
        user: User | None,
        action: dict[str, Any],
        request_id: str | None,
        state: Any,
        events: list[dict[str, Any]],
    ) -> None:
        """Log a change and keep the new state; the version moves once per change."""
        self.game.version += 1
        self.state = state
        self.state_json = engine.to_json(state)
        self.events.extend(events)
        self.changed = True
        self._log(seat, user, action, request_id, events, error="")

    def refuse(
        self,
        *,
        seat: int | None,
        user: User,
        action: dict[str, Any],
        request_id: str,
        code: str,
    ) -> None:
        """Log a refused request, so a retry of the same request id gets the same answer.

        Only the user's latest refusal in this game is kept: a client retries only its
        latest request, and keeping them all would let anyone grow the log without bound.
        Accepted actions (error == "") are never touched.
        """
        row = self._log(seat, user, action, request_id, [], error=code)
        # Deleted after the new row is written, so that seq never goes back.
        GameAction.objects.filter(game=self.game, user=user).exclude(error="").exclude(
            pk=row.pk
        ).delete()

    def _log(
        self,
        seat: int | None,
        user: User | None,
        action: dict[str, Any],
        request_id: str | None,
        events: list[dict[str, Any]],
        *,
        error: str,
    ) -> GameAction:
        row = GameAction(
            game=self.game,
            seq=self._next_seq(),
            seat=seat,
            user=user,
            action=action,
            request_id=request_id,
            received_at=self.received_at,
            t=self.now,
            events=events,
            version=self.game.version,
            error=error,
        )
        if error:
            row.save(force_insert=True)  # its id is needed (refuse deletes the older ones)
        else:
            self.pending_rows.append({field: getattr(row, field) for field in ACTION_COLUMNS})
        return row

    def save(self, *, locked: bool = True) -> bool:
        """Write what this transaction did; True once written.

        Not `locked` (the game was read without its lock, PostgreSQL, outside any
        transaction): one statement writes it all only if the row has not moved on since
        it was read; False, with nothing written, when it has, or when the status changes
        (whoever listens to that, the ratings, writes in the same transaction): the caller
        then does it all again under the lock.
        """
        if not self.changed:
            if self.logged:  # a refusal: only the log's sequence moved
                rows.game_update(self.game, ("log_seq",))
            return True
        game = self.game
        state = self.state
        deadline = engine.deadline(state)
        status, winner_seat, reason = engine.outcome(state)
        if not locked and status != self._status_before:
            return False
        game.state = self.state_json
        game.status, game.winner_seat, game.reason = status, winner_seat, reason or ""
        game.next_deadline = timebase.to_datetime(deadline) if deadline is not None else None
        if game.started_at is None and game.status != Game.Status.WAITING:
            game.started_at = self.received_at
        if game.finished_at is None and not game.is_active:
            game.finished_at = self.received_at
        computer_to_act = computer.seats_to_act(game, state)
        game.bot_since = self.received_at if computer_to_act else None
        if locked:
            rows.game_update(game, CHANGED_FIELDS, log_rows=self.pending_rows)
        elif not rows.game_update_if_unchanged(
            game,
            MOVE_FIELDS,
            log_rows=self.pending_rows,
            version=self._version_before,
            log_seq=self._log_seq_before,
        ):
            return False
        # Inside the transaction: the ratings app rates (or reverses) with the result itself.
        if game.status != self._status_before:
            if game.status == Game.Status.FINISHED:
                game_finished.send(sender=Game, game=game)
            elif game.status == Game.Status.CANCELLED:
                game_voided.send(sender=Game, game=game, note=self.void_note)
            game_status_changed.send(sender=Game, game=game)
        events = list(self.events)
        since = self._version_before
        turned = turn_key(self.state_json) != self._turn_before
        # Outside a transaction (not `locked`) these run at once: the write has committed.
        transaction.on_commit(
            lambda: broadcast_state(game, events, state=state, since=since, turn_changed=turned)
        )
        if computer_to_act:
            wakeups.computer_schedule_on_commit(
                game_id=game.pk, version=game.version, since=self.now
            )
        return True


def _advance_into(writer: _GameWriter, state: Any) -> Any:
    """engine.advance at the transaction's instant; logged as a seatless row if it did anything."""
    advanced, events = engine.advance(state, writer.now)
    # The engine hands back the very same object when nothing was due.
    if advanced is not state:
        writer.record(
            seat=None, user=None, action=ADVANCE, request_id=None, state=advanced, events=events
        )
        return advanced
    return state


def _normalize_request_id(request_id: Any) -> str | None:
    if request_id is None:
        return None
    if not is_request_id(request_id) or request_id == "":
        raise ValueError("request id")
    return str(request_id)


def game_submit_action(
    *,
    game_id: int,
    user: User,
    action: Any,
    request_id: Any,
    expected_version: int | None = None,
) -> ActionResult:
    """Apply one player's action; idempotent on (game, user, request_id).

    With `expected_version`, the action is refused as `stale` (and not logged) if the game
    has changed since that version: a decision made on an older table (the computer's)
    must not land on a newer one.
    """
    try:
        rid = _normalize_request_id(request_id)
    except ValueError:
        return ActionResult(ok=False, version=None, code="bad_request")
    if not action_is_well_formed(action):
        return ActionResult(ok=False, version=None, code="bad_request")
    try:
        return _submit(game_id, user, action, rid, expected_version)
    except IntegrityError:
        if rid is None:
            raise
        # The same request, sent again while its original held the lock, did not see the
        # original's log row (see games.move_sql.game_locked_read); now it does.
        return _submit(game_id, user, action, rid, expected_version)


def _submit(
    game_id: int,
    user: User,
    action: Any,
    rid: str | None,
    expected_version: int | None = None,
) -> ActionResult:
    """First without the row lock where that can be done (games.move_sql.game_update_if_unchanged).

    Most moves then cost two statements and no transaction. A move that changes the
    status, is refused, or found the game moved on before it wrote is done again, under
    the lock, from a fresh read.
    """
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        result = _apply(game_id, user, action, rid, expected_version, locked=False)
        if result is not None:
            return result
    with transaction.atomic():
        result = _apply(game_id, user, action, rid, expected_version, locked=True)
    assert result is not None  # under the lock, every outcome is final
    return result


def _apply(
    game_id: int,
    user: User,
    action: Any,
    rid: str | None,
    expected_version: int | None,
    *,
    locked: bool,
) -> ActionResult | None:
    """One attempt at the action; None when an attempt without the lock cannot finish it."""
    read = rows.game_locked_read if locked else rows.game_read
    game = read(game_id, user_id=user.pk, request_id=rid)
    if game is None:
        return ActionResult(ok=False, version=None, code="not_found")
    seats = game.seats_of(user.pk)
    if not seats:
        return ActionResult(ok=False, version=game.version, code="forbidden")
    if rid is not None and game.prior_version is not None:
        return ActionResult(
            ok=not game.prior_error,
            version=game.prior_version,
            code=cast(str, game.prior_error),  # its log row was found: never NULL there
            duplicate=True,
        )
    if expected_version is not None and game.version != expected_version:
        return ActionResult(ok=False, version=game.version, code="stale")
    writer = _GameWriter(game, timebase.server_now())
    state = _advance_into(writer, engine.from_json(game.state))  # a flag beats a late move
    # A same-device game (one user, both seats) acts for the seat its screen shows (R7.7).
    seat = seats[0] if len(seats) == 1 else engine.device_seat(state)
    try:
        new_state, events = engine.apply(state, seat, action, writer.now)
    except engine.RuleError as error:
        if not locked:
            return None  # the refusal is logged, and any advance kept, under the lock
        if rid is not None:
            writer.refuse(seat=seat, user=user, action=action, request_id=rid, code=error.code)
        writer.save()  # the advance, if any, stands
        return ActionResult(ok=False, version=game.version, code=error.code)
    writer.record(
        seat=seat, user=user, action=action, request_id=rid, state=new_state, events=events
    )
    if not writer.save(locked=locked):
        return None
    return ActionResult(ok=True, version=game.version)


def _is_due(game_id: int, expected_version: int | None, now: float) -> bool:
    """Whether the clock may have something to do, read without taking the row lock.

    Most clock checks and ticks find nothing due (the game has moved on, or its deadline
    is still ahead); answering those from a plain read keeps them off the lock that moves
    wait for. A stale read only ever says "due" too often: the locked path re-checks.
    """
    row = Game.objects.filter(pk=game_id).values_list("status", "version", "next_deadline").first()
    if row is None:
        return False
    status, version, deadline = row
    if status not in Game.ACTIVE_STATUSES or deadline is None:
        return False
    if expected_version is not None and version != expected_version:
        return False
    return deadline <= timebase.to_datetime(now)


def game_advance(*, game_id: int, expected_version: int | None = None) -> AdvanceResult:
    """Let the clock act now (flag, P1 abort, P2 auto-continue). Idempotent.

    A no-op when the game is gone, over, has moved past `expected_version`, or nothing is
    due; only a game whose stored deadline has passed is locked.
    """
    if not _is_due(game_id, expected_version, timebase.server_now()):
        return AdvanceResult(changed=False)
    with transaction.atomic():
        game = game_locked(game_id)
        if game is None:
            return AdvanceResult(changed=False)
        if not game.is_active or (
            expected_version is not None and game.version != expected_version
        ):
            return AdvanceResult(changed=False, version=game.version)
        writer = _GameWriter(game, timebase.server_now())
        state = _advance_into(writer, engine.from_json(game.state))
        if game.clock_failures:
            game.clock_failures = 0
            game.clock_retry_at = None
            if not writer.changed:
                rows.game_update(game, ("clock_failures", "clock_retry_at"))
        writer.save()
        return AdvanceResult(
            changed=writer.changed,
            version=game.version,
            deadline=engine.deadline(state),
            now=writer.now,
        )


def game_void(*, game_id: int, reason: str = engine.VOID_REASON, note: str = "") -> bool:
    """Cancel a game with no result (R7.10); False if it is gone or has no result to void.

    A playing game and a finished one (its result came from a clock that was not to be
    trusted) are voided; `game_voided` then lets the ratings app reverse what it rated.
    The clock is deliberately not advanced first: a flag that "fell" while time was not
    being measured must not decide the game. `note` says why, for the ledger and the log.
    """
    with transaction.atomic():
        game = game_locked(game_id)
        if game is None:
            return False
        writer = _GameWriter(game, timebase.server_now())
        try:
            state, events = engine.void(engine.from_json(game.state), writer.now, reason)
        except engine.RuleError:
            return False
        writer.void_note = note
        writer.record(
            seat=None,
            user=None,
            action={"do": "void", "reason": reason},
            request_id=None,
            state=state,
            events=events,
        )
        writer.save()
    logger.warning("game %s voided (%s): %s", game_id, reason, note)
    return True


def games_due(*, now: float, horizon: float = 0.0) -> list[tuple[int, float]]:
    """(id, deadline) of the active games due by `now + horizon`, earliest first.

    Games in quarantine (see `game_quarantine`) are left out until their retry time.
    """
    at = timebase.to_datetime(now)
    rows = (
        Game.objects.filter(
            status__in=Game.ACTIVE_STATUSES,
            next_deadline__lte=timebase.to_datetime(now + horizon),
        )
        .filter(Q(clock_retry_at__isnull=True) | Q(clock_retry_at__lte=at))
        .order_by("next_deadline")
        .values_list("pk", "next_deadline")[:DUE_BATCH]
    )
    # The filter on next_deadline leaves out the games that have none.
    return [(pk, cast(datetime, deadline).timestamp()) for pk, deadline in rows]


def game_quarantine(*, game_id: int, now: float) -> int:
    """A game the clock could not advance: push its next attempt later. Returns the count.

    The retry waits 2, 4, 8 … seconds (at most QUARANTINE_MAX_SECONDS), so one broken game
    costs the clock keeper a query now and then instead of one every pass.
    """
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(clock_failures=F("clock_failures") + 1)
        failures = Game.objects.filter(pk=game_id).values_list("clock_failures", flat=True).first()
        if failures is None:
            return 0
        delay = min(QUARANTINE_MAX_SECONDS, 2.0**failures)
        retry_at = timebase.to_datetime(now) + timedelta(seconds=delay)
        Game.objects.filter(pk=game_id).update(clock_retry_at=retry_at)
    logger.error(
        "clock could not advance game %s (%s failures); next attempt in %.0f s",
        game_id,
        failures,
        delay,
    )
    return failures


def players_lock(*, user_ids: list[int]) -> None:
    """Lock the players' rows until the transaction ends, in id order so that two locks
    never wait on each other: a limit counted from a player's rows (arenas a day, open
    challenges, computer games an hour) is counted and filled under it, so two requests
    cannot both see room for one more. A no-key lock: rows pointing at the player still
    insert freely."""
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    list(users.select_for_update(no_key=True).values_list("pk", flat=True))


def game_create(
    *,
    player0: User,
    player1: User,
    rated: bool = True,
    same_device: bool = False,
    deals: list[dict[str, Any]] | None = None,
    balances: tuple[int, int] | None = None,
    banks: tuple[float, float] | None = None,
    created_at: float | None = None,
    players_snapshot: list[dict[str, Any]] | None = None,
    seat_names: list[str] | None = None,
) -> Game:
    """A new game in the `waiting` state. `deals`/`balances`/`banks` exist for tests and tools.

    `seat_names`: a same-device game's two players' names, stored with the row, so that
    whoever hears of the new game (the live games list) reads them with it.

    `players_snapshot` is each seat's {"rating", "rating_label"} now, shown beside the names
    for the whole game; whoever pairs rated players passes it (games reads no ratings), and
    the default is two newcomers. ServiceError("already_playing") when a player is in an
    active game already (games.models.ActiveSeat).
    """
    now = timebase.server_now() if created_at is None else created_at
    options: dict[str, Any] = {"deals": deals, "same_device": same_device, "created_at": now}
    if balances is not None:
        options["balances"] = tuple(balances)
    if banks is not None:
        options["banks"] = tuple(float(b) for b in banks)
    state = engine.new_game(**options)
    deadline = engine.deadline(state)
    setup = {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}
    with transaction.atomic():
        game = Game.objects.create(
            player0=player0,
            player1=player1,
            state=engine.to_json(state),
            setup=setup,
            rated=rated and not same_device,
            same_device=same_device,
            players_snapshot=players_snapshot or default_players_snapshot(),
            next_deadline=timebase.to_datetime(deadline) if deadline is not None else None,
            seat_names=seat_names or [],
        )
        _seats_take(game)
        game_status_changed.send(sender=Game, game=game)
        transaction.on_commit(lambda: broadcast_your_game(game))
    return game


def _seats_take(game: Game) -> None:
    """The new game's players take their seats; ServiceError("already_playing") if one is
    in an active game already, whatever made that game and however the requests raced."""
    if game.same_device:  # nobody waits on it, so it keeps nobody from another game
        return
    players = {game.player0_id, game.player1_id}
    players -= set(Bot.objects.filter(user_id__in=players).values_list("user_id", flat=True))
    ActiveSeat.objects.filter(user_id__in=players).exclude(
        game__status__in=Game.ACTIVE_STATUSES
    ).delete()
    try:
        with transaction.atomic():
            ActiveSeat.objects.bulk_create(
                [ActiveSeat(user_id=user_id, game=game) for user_id in sorted(players)]
            )
    except IntegrityError:
        raise ServiceError("already_playing") from None


SEAT_NAME_MAX_CHARS = 20


def seat_names_clean(names: tuple[str, str], *, owner: User | None = None) -> tuple[str, str]:
    """Two players' names for a shared screen, stripped; ValueError when unusable.

    Each is 1-20 printable characters, and they differ (ignoring case): every text of the
    page ("Pass the device to Marta") must tell the seats apart. Neither may look like an
    account's username other than the owner's (whoever creates the game), or a spectator
    would take the seat for that player: ValueError("account", name).
    """
    cleaned = tuple(" ".join(str(name).split()) for name in names)
    for name in cleaned:
        if not name or len(name) > SEAT_NAME_MAX_CHARS or not name.isprintable():
            raise ValueError("name")
    if cleaned[0].casefold() == cleaned[1].casefold():
        raise ValueError("same")
    for name in cleaned:
        if username_lookalike(name, exclude=owner) is not None:
            raise ValueError("account", name)
    return cleaned[0], cleaned[1]


def same_device_game_create(*, user: User, names: tuple[str, str]) -> Game:
    """A game on one shared screen: both seats are the same user, and it is never rated.

    `names` are the two players' names, seat 0 first (see seat_names_clean). Both players
    are at the screen that asked for the game: that request is both Starts (P1), and the
    screen goes straight to the hand-over, where the clocks wait for the first reveal (R7.7).
    """
    first, second = seat_names_clean(names, owner=user)
    with transaction.atomic():
        game = game_create(
            player0=user, player1=user, rated=False, same_device=True, seat_names=[first, second]
        )
        for seat in (0, 1):
            result = game_submit_action(
                game_id=game.pk, user=user, action={"do": "start"}, request_id=f"start-{seat}"
            )
            if not result.ok:  # a new game always takes both Starts: a bug if not
                raise RuntimeError(f"a new same-device game refused a Start: {result.code}")
        game.refresh_from_db()
    return game


REMATCH_ANSWERS = ("offer", "decline")


@dataclass(frozen=True)
class RematchResult:
    ok: bool
    code: str = ""
    game_id: int | None = None  # the new game, once both want it
    refused: ServiceError | None = None  # a refusal from above (game_rematch_asked)

    @property
    def message(self) -> Promise | str:
        if self.refused is not None:
            return self.refused.message
        return message_for(self.code) if self.code else ""


def _rematch_refused(game: Game, *, user_id: int, offerer_id: int | None) -> RematchResult | None:
    """What the apps above games answer to a rematch offered or accepted: None if allowed."""
    try:
        game_rematch_asked.send(sender=Game, game=game, user_id=user_id, offerer_id=offerer_id)
    except ServiceError as refused:
        return RematchResult(ok=False, code=refused.code, refused=refused)
    return None


def game_rematch(*, game_id: int, user: User, answer: Any) -> RematchResult:
    """A player's answer about a rematch of a game that is over: "offer" or "decline".

    An offer from the seat that was offered one (an acceptance, or two offers that cross)
    creates the new game, seats swapped, exactly once; later offers get that game. A
    decline withdraws the standing offer. Everyone watching the game is told on commit.
    An offer or an acceptance is first asked of the apps above games (game_rematch_asked):
    fair play refuses a player serving a leaver's wait, and an offer whose player began one.
    """
    if answer not in REMATCH_ANSWERS:
        return RematchResult(ok=False, code="bad_request")
    with transaction.atomic():
        game = game_locked(game_id)
        if game is None:
            return RematchResult(ok=False, code="not_found")
        seats = game.seats_of(user.pk)
        if not seats:
            return RematchResult(ok=False, code="forbidden")
        if game.same_device:
            return RematchResult(ok=False, code="rematch_same_device")
        if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
            return RematchResult(ok=False, code="rematch_not_over")
        if game.rematch_game_id is not None:  # both wanted it already: here it is
            if answer == "decline":
                return RematchResult(ok=False, code="rematch_no_offer")
            return RematchResult(ok=True, game_id=game.rematch_game_id)
        seat = seats[0]
        if answer == "decline":
            if game.rematch_offered_by is None:
                return RematchResult(ok=False, code="rematch_no_offer")
            game.rematch_offered_by = None
            game.save(update_fields=["rematch_offered_by"])
            declined_by: int | None = seat
        elif game.rematch_offered_by is None or game.rematch_offered_by == seat:
            gate = _rematch_refused(game, user_id=user.pk, offerer_id=None)
            if gate is not None:
                return gate
            game.rematch_offered_by = seat
            game.save(update_fields=["rematch_offered_by"])
            declined_by = None
        else:
            offerer_id = (game.player0_id, game.player1_id)[game.rematch_offered_by]
            gate = _rematch_refused(game, user_id=user.pk, offerer_id=offerer_id)
            if gate is not None:
                return gate
            try:
                new = game_create(player0=game.player1, player1=game.player0, rated=game.rated)
            except ServiceError as refused:  # a player started another game meanwhile
                return RematchResult(ok=False, code=refused.code)
            game.rematch_game = new
            game.rematch_offered_by = None
            game.save(update_fields=["rematch_game", "rematch_offered_by"])
            game_rematched.send(sender=Game, game=new, previous=game)
            declined_by = None
        transaction.on_commit(lambda: broadcast_rematch(game, declined_by=declined_by))
        return RematchResult(ok=True, game_id=game.rematch_game_id)
