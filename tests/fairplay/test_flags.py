"""Automatic flags: many quick rated losses to one opponent (boosting), and resigning early far
more often than the others; raised once, kept up to date, not raised again once handled."""

from __future__ import annotations

import pytest

from fairplay.flags import flags_scan, flags_scan_boosting, flags_scan_early_resignations
from fairplay.models import Flag, Status
from fairplay.tasks import flags_scan_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_windows(settings):
    settings.FAIRPLAY_BOOSTING_GAMES = 3
    settings.FAIRPLAY_QUICK_GAME_DECISIONS = 4
    settings.FAIRPLAY_EARLY_RESIGN_MIN_GAMES = 4
    settings.FAIRPLAY_EARLY_RESIGN_MIN_SHARE = 0.5
    settings.FAIRPLAY_EARLY_RESIGN_RATIO = 3.0


def test_many_quick_losses_to_one_opponent_flag_the_winner(
    alice, bob, carol, quick_loss, small_windows
):
    quick_loss(alice, bob)
    quick_loss(alice, bob)
    quick_loss(alice, carol)  # another opponent: not the same pair
    assert flags_scan_boosting() == []
    third = quick_loss(alice, bob)
    (flag,) = flags_scan_boosting()
    assert (flag.player, flag.opponent, flag.kind, flag.games) == (alice, bob, "boosting", 3)
    assert flag.detail["game_ids"][-1] == third.pk and flag.status == Status.OPEN
    # Scanned again: the open flag is brought up to date, never doubled.
    quick_loss(alice, bob)
    assert flags_scan_boosting() == []
    flag.refresh_from_db()
    assert flag.games == 4 and Flag.objects.count() == 1


def test_games_the_loser_really_played_are_not_quick(alice, bob, quick_loss, small_windows):
    for _ in range(3):
        quick_loss(alice, bob, decisions=4)
    assert flags_scan_boosting() == []


def test_a_handled_flag_is_not_raised_again_within_its_window(
    alice, bob, quick_loss, small_windows
):
    for _ in range(3):
        quick_loss(alice, bob)
    (flag,) = flags_scan_boosting()
    Flag.objects.filter(pk=flag.pk).update(status=Status.HANDLED)
    quick_loss(alice, bob)
    assert flags_scan_boosting() == []
    assert Flag.objects.count() == 1


def test_resigning_early_far_more_often_than_others_is_flagged(
    alice, bob, carol, user_factory, quick_loss, played_game, small_windows
):
    dave = user_factory("dave")
    # Bob resigns early in 4 of his 5 games; the others played their games out.
    for winner in (alice, carol, dave, alice):
        quick_loss(winner, bob)
    played_game(bob, carol, winner=0)
    for _ in range(4):
        played_game(alice, carol, winner=0)
        played_game(carol, dave, winner=1)
    (flag,) = flags_scan_early_resignations()
    assert (flag.player, flag.kind, flag.opponent, flag.games) == (bob, "early_resign", None, 5)
    assert flag.detail["early_resignations"] == 4 and flag.detail["others_share"] == 0.0
    assert flags_scan_early_resignations() == []  # once


def test_a_platform_where_everybody_resigns_early_flags_nobody(
    alice, bob, carol, quick_loss, small_windows
):
    for _ in range(2):
        quick_loss(alice, bob)
        quick_loss(bob, carol)
        quick_loss(carol, alice)
    # Each resigned early in 2 of 4 games: as often as the others, so nobody stands out.
    assert flags_scan_early_resignations() == []


def test_the_periodic_task_runs_both_scans(alice, bob, quick_loss, small_windows):
    for _ in range(3):
        quick_loss(alice, bob)
    assert flags_scan_task() == 1
    assert flags_scan() == 0
