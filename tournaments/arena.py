"""Pure arena logic: scoring, streaks, standings and the pairing of a wave. No Django, no I/O.

Scoring
-------
A win scores 2 and a loss 0. After two wins in a row a player is on a streak: each further
win scores double (4) until their next loss. A game voided by a service fault, an aborted
game and a game stopped for want of a deal count nothing and leave the streak as it was:
the player had no say in how they ended. A game that ended before both players made a
real start at it (`counts`: a number of decisions of their own each) is "too short": it
too counts nothing and breaks no streak, so a friend resigning at once gives nothing.

Standings
---------
By score; ties by performance rating (the mean of the opponents' ratings plus 400 times
(wins - losses) over games played), then by who joined first.

Pairing a wave
--------------
The free players are sorted by score, then rating, and paired greedily with the nearest
one after them (score first, rating next) who was not their last opponent; whoever is
left over waits for the next wave. Two players meet again at once only when nobody else
is free or playing in the arena, and never more than `max_run` games in a row. Within a
pair, the player who has sat first more often sits second.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

WIN_POINTS = 2
STREAK_AFTER = 2  # wins in a row before wins count double
PERFORMANCE_SPREAD = 400


class Outcome(StrEnum):
    WIN = "win"
    LOSS = "loss"
    NONE = "none"  # voided, aborted or no deal: counts nothing, breaks no streak
    SHORT = "short"  # over before both made a real start: counts nothing, breaks no streak


def counts(decisions: tuple[int, int], minimum: int) -> bool:
    """Whether a finished game counts: each seat made at least `minimum` decisions of its own."""
    return min(decisions) >= minimum


@dataclass(frozen=True, slots=True)
class Scored:
    points: int
    streak: int  # wins in a row after this game
    doubled: bool


def score(outcome: Outcome, streak: int) -> Scored:
    """The points of one game for a player who came to it with `streak` wins in a row."""
    if outcome is Outcome.WIN:
        doubled = streak >= STREAK_AFTER
        return Scored(WIN_POINTS * (2 if doubled else 1), streak + 1, doubled)
    if outcome is Outcome.LOSS:
        return Scored(0, 0, False)
    return Scored(0, streak, False)  # NONE and SHORT


def total(outcomes: Iterable[Outcome]) -> tuple[int, int]:
    """(score, streak) after a player's games, in the order they ended."""
    points = streak = 0
    for outcome in outcomes:
        scored = score(outcome, streak)
        points += scored.points
        streak = scored.streak
    return points, streak


def performance(opponent_ratings: Sequence[int], wins: int, losses: int) -> int | None:
    """The linear performance rating over the counted games, or None before the first."""
    played = wins + losses
    if played == 0 or not opponent_ratings:
        return None
    mean = sum(opponent_ratings) / len(opponent_ratings)
    return round(mean + PERFORMANCE_SPREAD * (wins - losses) / played)


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    score: int
    performance: int | None
    joined_order: int  # earlier joiners first on a full tie


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    return sorted(
        standings,
        key=lambda s: (
            -s.score,
            -(s.performance if s.performance is not None else -(10**6)),
            s.joined_order,
            s.user_id,
        ),
    )


@dataclass(frozen=True, slots=True)
class Free:
    """A player waiting for their next arena game."""

    user_id: int
    score: int
    rating: int
    last_opponent: int | None
    first_seats: int  # games in which they sat first, minus games in which they sat second
    same_run: int = 0  # games in a row against last_opponent, the last one included


MAX_RUN = 3  # games in a row against the same opponent, at the most


def _run(a: Free, b: Free) -> int:
    """How many games in a row a and b have just played against each other (0: not the last)."""
    return max(
        max(a.same_run, 1) if a.last_opponent == b.user_id else 0,
        max(b.same_run, 1) if b.last_opponent == a.user_id else 0,
    )


def pair_wave(
    free: Iterable[Free], *, others_playing: bool, max_run: int = MAX_RUN
) -> list[tuple[Free, Free]]:
    """Disjoint pairs, each as (first seat, second seat); a user id counts once.

    Two players meet twice in a row only when nobody else is free, nor playing in the
    arena (who could be their next opponent once their game ends), and never more than
    `max_run` games in a row."""
    players: dict[int, Free] = {}
    for player in free:
        players.setdefault(player.user_id, player)
    order = sorted(players.values(), key=lambda p: (-p.score, -p.rating, p.user_id))
    pairs: list[tuple[Free, Free]] = []
    left = list(order)
    while len(left) >= 2:
        first = left.pop(0)
        candidates = sorted(
            left,
            key=lambda p: (abs(p.score - first.score), abs(p.rating - first.rating), p.user_id),
        )
        fresh = [p for p in candidates if _run(first, p) == 0]
        again = [p for p in candidates if 0 < _run(first, p) < max_run]
        if not fresh and (others_playing or not again):
            continue  # only their last opponent is free: someone else soon will be
        second = (fresh or again)[0]
        left.remove(second)
        pairs.append(seated(first, second))
    return pairs


def seated(a: Free, b: Free) -> tuple[Free, Free]:
    """(first seat, second seat): whoever sat first more often sits second now."""
    if a.first_seats > b.first_seats or (a.first_seats == b.first_seats and a.user_id > b.user_id):
        return b, a
    return a, b
