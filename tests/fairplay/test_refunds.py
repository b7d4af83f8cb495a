"""Refunds: a marked booster's wins given back to each victim as ledger entries at the end of
their ledgers, the chain valid afterwards, and the leaderboard without the marked account."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay.errors import FairPlayError
from fairplay.models import ModerationLog
from fairplay.services import account_mark, account_refund_opponents
from ratings.models import RatingEntry
from ratings.selectors import leaderboard, profile_games, rating_state
from ratings.services import rating_reverse_game
from tests.ratings.ledger import assert_ledger_consistent

pytestmark = pytest.mark.django_db


def names(rows) -> list[str]:
    return [row.username for row in rows]


def loss_of(game, player) -> int:
    return RatingEntry.objects.get(game=game, player=player, reason="game").delta


def test_a_marked_boosters_wins_are_given_back_to_each_victim(
    alice, bob, carol, user_factory, played_game, admin_user
):
    booster, dave = user_factory("booster"), user_factory("dave")
    first = played_game(booster, alice, winner=0)
    second = played_game(booster, alice, winner=0)
    third = played_game(bob, booster, winner=1)
    kept = played_game(carol, booster, winner=0)  # the booster lost this one: nothing to give
    played_game(alice, dave, winner=0)  # alice's ledger goes on after her losses
    before = {p.pk: rating_state(user_id=p.pk).rating for p in (alice, bob, carol, booster)}
    assert "booster" in names(leaderboard())

    account_mark(actor=admin_user, player=booster)
    entries = account_refund_opponents(actor=admin_user, player=booster)

    expected = {
        (first.pk, alice.pk, -loss_of(first, alice)),
        (second.pk, alice.pk, -loss_of(second, alice)),
        (third.pk, bob.pk, -loss_of(third, bob)),
    }
    assert {(e.game_id, e.player_id, e.delta) for e in entries} == expected
    assert all(e.reason == "refund" and e.delta > 0 for e in entries)
    after = {p.pk: rating_state(user_id=p.pk).rating for p in (alice, bob, carol, booster)}
    assert after[alice.pk] == before[alice.pk] - loss_of(first, alice) - loss_of(second, alice)
    assert after[bob.pk] == before[bob.pk] - loss_of(third, bob)
    assert after[carol.pk] == before[carol.pk]  # she beat the booster: nothing taken from her
    assert after[booster.pk] == before[booster.pk]  # the marked account's own entries stay
    assert not RatingEntry.objects.filter(game=kept, reason="refund").exists()
    # Refunds count no game less, and each is appended after the victim's latest entry.
    assert rating_state(user_id=alice.pk).games_played == 3
    assert_ledger_consistent()
    board = names(leaderboard())
    assert "booster" not in board and {"alice", "bob", "carol", "dave"} <= set(board)
    # The victim's profile shows the loss as given back.
    (row,) = [r for r in profile_games(user=alice) if r.game.pk == first.pk]
    assert row.refunded and not row.reversed
    # Logged, with who did it.
    log = ModerationLog.objects.get(action="refund")
    assert (log.actor, log.player) == (admin_user, booster) and log.note.startswith("3 entries")

    # Again: nothing more to give back.
    assert account_refund_opponents(actor=admin_user, player=booster) == []
    assert_ledger_consistent()


def test_a_refunded_loss_is_not_given_back_again_when_the_game_is_voided(
    alice, user_factory, played_game, admin_user
):
    booster = user_factory("booster")
    game = played_game(booster, alice, winner=0)
    account_mark(actor=admin_user, player=booster)
    account_refund_opponents(actor=admin_user, player=booster)
    reversed_ = rating_reverse_game(game=game, note="a service fault")
    assert [(e.player_id, e.reason) for e in reversed_] == [(booster.pk, "fault_reversal")]
    assert rating_state(user_id=alice.pk).rating == 1500
    assert_ledger_consistent()


def test_a_voided_game_is_not_refunded(alice, user_factory, played_game, admin_user):
    booster = user_factory("booster")
    game = played_game(booster, alice, winner=0)
    rating_reverse_game(game=game, note="a service fault")
    account_mark(actor=admin_user, player=booster)
    assert account_refund_opponents(actor=admin_user, player=booster) == []
    assert rating_state(user_id=alice.pk).rating == 1500
    assert_ledger_consistent()


def test_only_a_marked_account_and_only_its_recent_wins(
    alice, user_factory, played_game, admin_user, settings
):
    booster = user_factory("booster")
    played_game(booster, alice, winner=0)
    with pytest.raises(FairPlayError) as refused:
        account_refund_opponents(actor=admin_user, player=booster)
    assert refused.value.code == "refund_unmarked"
    assert not RatingEntry.objects.filter(reason="refund").exists()
    account_mark(actor=admin_user, player=booster)
    settings.FAIRPLAY_REFUND_DAYS = 30
    later = timezone.now() + timedelta(days=31)
    assert account_refund_opponents(actor=admin_user, player=booster, now=later) == []
    assert len(account_refund_opponents(actor=admin_user, player=booster)) == 1
