from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.rating import INITIAL_RATING

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrPromise


class Heartbeat(models.Model):
    """One row per beat of a clock keeper (games.clock.keeper); gaps reveal outages."""

    at = models.DateTimeField(_("at"), db_index=True)
    # Which keeper beat ("host:pid"), so that the admin can tell several workers apart.
    keeper = models.CharField(_("clock keeper"), max_length=100, blank=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")

    def __str__(self) -> str:
        return self.at.isoformat()


def default_players_snapshot() -> list[dict[str, object]]:
    """Both seats as an unrated newcomer: what a same-device or unrated game shows."""
    return [{"rating": INITIAL_RATING, "rating_label": f"{INITIAL_RATING}?"} for _seat in (0, 1)]


class Bot(models.Model):
    """A computer player: the account its seats point to, and how strongly it plays.

    One per strength, made on first use by `games.computer.accounts.bot_account`. The account is
    inactive with no usable password, so nobody can log in as it, challenge it or find it
    on the leaderboard; it plays only through the games created for it.
    """

    class Strength(models.TextChoices):
        # The values are games.bots.STRENGTHS (a test keeps them equal).
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        HARD = "hard", _("hard")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.PROTECT,
        related_name="bot",
    )
    strength = models.CharField(_("strength"), max_length=8, choices=Strength.choices, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("computer player")
        verbose_name_plural = _("computer players")

    def __str__(self) -> str:
        return str(self.display_name)

    @property
    def display_name(self) -> str:
        return str(BOT_NAMES[self.strength])


# Whole sentences, so that each language can order the words its own way.
BOT_NAMES: dict[str, StrPromise] = {
    Bot.Strength.EASY: _("Computer (easy)"),
    Bot.Strength.MEDIUM: _("Computer (medium)"),
    Bot.Strength.HARD: _("Computer (hard)"),
}


class Game(models.Model):
    """One duel. The engine state is the truth; the other columns are copies for queries."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for both players to start")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")
        # Only a game created with a fixed list of deals can run out of them (tests, tools).
        NO_DEAL = "no_deal", _("stopped: no deal left")
        # A void (R7.10, engine.void through games.services.game_void).
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE_STATUSES = (Status.WAITING, Status.PLAYING)

    player0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player in seat 0"),
        on_delete=models.PROTECT,
        related_name="games_as_seat0",
    )
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player in seat 1"),
        on_delete=models.PROTECT,
        related_name="games_as_seat1",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    state = models.JSONField(_("engine state"))
    # What new_game was called with, so that games.replay.log can rebuild the game from the log.
    setup = models.JSONField(_("setup"), default=dict)
    version = models.PositiveIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(_("winner seat"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=16, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    same_device = models.BooleanField(_("same device"), default=False)
    # engine.deadline(state) as a datetime, for the clock keeper's sweep. Not indexed, so a
    # move's update stays in place (docs/decisions/lock-free-moves.md); the sweep goes
    # through `status`.
    next_deadline = models.DateTimeField(_("next deadline"), null=True, blank=True)
    # Each seat's {"rating", "rating_label"} as the game was created: what the page shows
    # beside the names for the whole game, so nothing reads the rating ledger mid-game.
    players_snapshot = models.JSONField(_("players' ratings"), default=default_players_snapshot)
    # Quarantine: the clock keeper failed this many times in a row to advance the game, and
    # tries again no sooner than `clock_retry_at` (games.services.game_quarantine).
    clock_failures = models.PositiveIntegerField(_("clock failures"), default=0)
    # The last `seq` of this game's log: read with the row lock, so that the next log row
    # is numbered without a second query (games.move_sql).
    log_seq = models.PositiveIntegerField(_("last log sequence"), default=0)
    clock_retry_at = models.DateTimeField(_("clock retry at"), null=True, blank=True)
    # A same-device game's two players, named by its creator ("Marta", "Luis"): one user
    # holds both seats, so the username cannot tell them apart. Empty: the usernames.
    seat_names = models.JSONField(_("players' names"), default=list, blank=True)
    # Rematch (games.services.game_rematch): the seat whose offer stands, and the game the
    # offer became once the other seat accepted (or offered too).
    rematch_offered_by = models.PositiveSmallIntegerField(
        _("rematch offered by seat"), null=True, blank=True
    )
    rematch_game = models.OneToOneField(
        "self",
        verbose_name=_("rematch"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
    )
    # The computer player's seat and strength in a game against the computer (else null and
    # ""): on the row itself, so that every read of a game knows without a join who decides
    # for that seat (games.computer.accounts) and that the game is unrated.
    bot_seat = models.PositiveSmallIntegerField(_("computer's seat"), null=True, blank=True)
    bot_strength = models.CharField(
        _("computer's strength"), max_length=8, choices=Bot.Strength.choices, blank=True
    )
    # A practice game against the computer: unrated, and its page shows the player a hint
    # at each decision (what is legal and what it would score, from the player's own view).
    practice = models.BooleanField(_("practice"), default=False)
    # Since when a computer seat has had something to do (a decision, Start or Continue),
    # null when it has nothing; the clock keeper asks for its decision again if it is late
    # (games.computer.wakeups), so a lost or crashed task cannot leave it silent.
    bot_since = models.DateTimeField(
        _("computer to act since"), null=True, blank=True, db_index=True
    )
    # Not columns: only a game read by the write path (games.move_sql) carries these.
    player0_name: str
    player1_name: str
    prior_version: int | None
    prior_error: str | None

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"#{self.pk} {self.player0_id} vs {self.player1_id} ({self.status})"

    def seats_of(self, user_id: int | None) -> list[int]:
        """The seats this user holds: none, one, or both (a same-device game)."""
        return [
            seat for seat, pid in enumerate((self.player0_id, self.player1_id)) if pid == user_id
        ]

    def player(self, seat: int) -> User:
        return self.player0 if seat == 0 else self.player1

    def player_names(self) -> list[str]:
        """Both seats' usernames; read with the row by the write path (games.move_sql)."""
        names = getattr(self, "player0_name", None), getattr(self, "player1_name", None)
        if names[0] is not None and names[1] is not None:
            return [names[0], names[1]]
        return [self.player0.get_username(), self.player1.get_username()]

    def seat_name(self, seat: int) -> str:
        """What pages call a seat: "Computer (hard)" for the computer, a same-device game's
        player name, else the player's username."""
        if seat == self.bot_seat:
            return str(BOT_NAMES[self.bot_strength])
        if len(self.seat_names) == 2 and self.seat_names[seat]:
            return str(self.seat_names[seat])
        return self.player_names()[seat]

    def display_names(self) -> list[str]:
        """Both seats' `seat_name`."""
        return [self.seat_name(0), self.seat_name(1)]

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE_STATUSES

    def bots(self) -> dict[int, str]:
        """{seat: strength} of the computer player in this game, if any."""
        return {} if self.bot_seat is None else {self.bot_seat: self.bot_strength}

    @property
    def against_computer(self) -> bool:
        return self.bot_seat is not None


class GameAction(models.Model):
    """The append-only log: every request applied, refused or timed, in order.

    Rows with an empty `error` changed the game (replaying them through the engine, with
    the deals recorded in their events, rebuilds the state exactly). Refused requests are
    logged too, when they carry a request id, so that a retried request gets the same
    answer and a disputed game shows what was sent.
    """

    # Its index is the one of the unique (game, seq) below, which starts with it: one index
    # less to write for each move.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField(_("sequence"))
    # Null for a timed transition (flag, P1 abort, P2 auto-continue) the service observed.
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    action = models.JSONField(_("action"))
    # NULL, not "", for "no request id": the unique constraint below skips NULLs only.
    request_id = models.CharField(  # noqa: DJ001
        _("request id"), max_length=64, null=True, blank=True
    )
    received_at = models.DateTimeField(_("received"))
    # The exact engine time (epoch seconds) the request counted at; a datetime would round it.
    t = models.FloatField(_("engine time"))
    events = models.JSONField(_("events"), default=list)
    version = models.PositiveIntegerField(_("resulting version"))
    error = models.CharField(_("error"), max_length=32, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_action_seq_unique"),
            # Request ids are chosen by the client (often a counter), so two players' ids can
            # collide: idempotency is per game and per user.
            models.UniqueConstraint(
                fields=["game", "user", "request_id"],
                condition=Q(request_id__isnull=False),
                name="game_action_request_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.game_id}.{self.seq} {self.action.get('do', '?')}"


class ServiceFault(models.Model):
    """A window in which the platform could not measure time reliably (R7.10).

    Every game whose clock ran during the window is cancelled with no rating result
    (games.clock.faults). Recorded automatically (a heartbeat gap, a clock check that ran far
    too late) or by an admin; processing is idempotent, so saving one again is harmless.
    """

    class Kind(models.TextChoices):
        HEARTBEAT_GAP = "heartbeat_gap", _("heartbeat gap")
        LATE_CLOCK_CHECK = "late_clock_check", _("late clock check")
        ADMIN = "admin", _("recorded by an admin")

    start = models.DateTimeField(_("start"), db_index=True)
    end = models.DateTimeField(_("end"), db_index=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.ADMIN)
    note = models.TextField(_("note"), blank=True)
    created = models.DateTimeField(_("recorded"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    games = models.ManyToManyField(
        Game, verbose_name=_("cancelled games"), blank=True, related_name="service_faults"
    )
    processed_at = models.DateTimeField(_("processed"), null=True, blank=True)

    class Meta:
        ordering = ["-start"]
        verbose_name = _("service fault")
        verbose_name_plural = _("service faults")
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gte=F("start")),
                name="service_fault_window",
                violation_error_message=_("A fault cannot end before it starts."),
            ),
            # The same automatic detection reported twice (a retried task) is one fault.
            models.UniqueConstraint(
                fields=["kind", "start", "end"],
                condition=~Q(kind="admin"),
                name="service_fault_detected_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.start:%Y-%m-%d %H:%M:%S} - {self.end:%H:%M:%S}"


class ActiveSeat(models.Model):
    """A player's seat in a game not over yet: one per player, which the database enforces.

    Written in the transaction that creates the game; a row whose game has ended is stale
    and is cleared by the player's next game creation (games.services.game_create), so no
    move ever writes here. The computer's accounts and same-device games take no seat.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="active_seat",
    )
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="active_seats"
    )

    class Meta:
        verbose_name = _("active seat")
        verbose_name_plural = _("active seats")

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}"


class DoubleSeat(models.Model):
    """A player found in a second active game when the one-game rule came into the database.

    A report for the admins: the games themselves go on untouched.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE
    )
    game = models.ForeignKey(Game, verbose_name=_("second game"), on_delete=models.CASCADE)
    seated_in = models.ForeignKey(
        Game,
        verbose_name=_("game holding the seat"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    found_at = models.DateTimeField(_("found"), auto_now_add=True)

    class Meta:
        ordering = ["-found_at"]
        verbose_name = _("player in two active games")
        verbose_name_plural = _("players in two active games")

    def __str__(self) -> str:
        return f"{self.user} in games {self.seated_in_id} and {self.game_id}"


class GameReview(models.Model):
    """A finished game graded by the computer, decision by decision (games.review).

    One per game and review version (the engine's, the computer's and the table's): made
    again only when that changes. Cut into parts that workers of the `review` queue value
    at once; `done` counts the decisions valued so far, for the progress bar.
    """

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    version = models.CharField(_("version"), max_length=40)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.RUNNING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    seats = models.JSONField(_("reviewed seats"), default=list)
    total = models.PositiveIntegerField(_("decisions"), default=0)
    done = models.PositiveIntegerField(_("decisions valued"), default=0)
    parts_total = models.PositiveIntegerField(_("parts"), default=0)
    parts_done = models.PositiveIntegerField(_("parts done"), default=0)
    result = models.JSONField(_("result"), default=dict, blank=True)
    # Each seat's accuracy (0-100), copied out of `result` for the profile's chart.
    accuracy0 = models.FloatField(_("accuracy of seat 0"), null=True, blank=True)
    accuracy1 = models.FloatField(_("accuracy of seat 1"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_review_per_version"),
        ]

    def __str__(self) -> str:
        return f"review of game #{self.game_id} ({self.version}, {self.status})"


class GameReviewPart(models.Model):
    """Some decisions of a review, valued by one task of the `review` queue."""

    review = models.ForeignKey(GameReview, on_delete=models.CASCADE, related_name="parts")
    index = models.PositiveIntegerField(_("index"))
    steps = models.JSONField(_("log steps"))
    decisions = models.JSONField(_("valued decisions"), null=True, blank=True)
    done_at = models.DateTimeField(_("done"), null=True, blank=True)

    class Meta:
        ordering = ["review", "index"]
        verbose_name = _("game review part")
        verbose_name_plural = _("game review parts")
        constraints = [
            models.UniqueConstraint(fields=["review", "index"], name="one_review_part_per_index"),
        ]

    def __str__(self) -> str:
        return f"part {self.index} of {self.review_id}"


class ReviewRequests(models.Model):
    """How many reviews a player asked for on a day: a counter raised by one conditional
    UPDATE, so no interleaving of requests passes REVIEW_REQUESTS_PER_DAY."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField(_("day"))
    count = models.PositiveIntegerField(_("requests"), default=0)

    class Meta:
        verbose_name = _("review requests")
        verbose_name_plural = _("review requests")
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="one_review_counter_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.day}: {self.count}"
