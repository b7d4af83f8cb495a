"""fairplay.waits: the wait a leaver serves, escalating, and forgotten after clean games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fairplay.waits import Left, Played, current_wait

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
WAITS = (5, 15, 30, 60)


def history(*entries: str) -> list[Played]:
    """Oldest first as written ("L" a leave, "c" a clean game), a minute apart; newest first out."""
    played = [
        Played(T0 + timedelta(minutes=i), Left.NO_START if kind == "L" else None)
        for i, kind in enumerate(entries)
    ]
    return played[::-1]


def wait_of(*entries: str, reset: int = 5):
    return current_wait(history(*entries), waits=WAITS, clean_reset=reset)


def test_no_leave_no_wait():
    assert wait_of() is None
    assert wait_of("c", "c", "c") is None


def test_each_leave_since_the_last_reset_lengthens_the_wait_up_to_the_last():
    for leaves, minutes in ((1, 5), (2, 15), (3, 30), (4, 60), (6, 60)):
        wait = wait_of(*["L"] * leaves)
        assert wait is not None and wait.leaves == leaves
        latest = T0 + timedelta(minutes=leaves - 1)
        assert wait.until == latest + timedelta(minutes=minutes)


def test_the_wait_counts_from_the_latest_leave_and_says_why():
    played = [
        Played(T0 + timedelta(minutes=30), Left.RAN_OUT),
        Played(T0, Left.NO_START),
    ]
    wait = current_wait(played, waits=WAITS, clean_reset=5)
    assert wait is not None
    assert (wait.reason, wait.until) == (Left.RAN_OUT, T0 + timedelta(minutes=30 + 15))


def test_clean_games_between_leaves_do_not_reset_short_of_the_run():
    assert wait_of("L", "c", "c", "c", "c", "L").leaves == 2


def test_a_run_of_clean_games_forgets_every_leave_before_it():
    assert wait_of("L", "L", "L", "c", "c", "c", "c", "c") is None
    again = wait_of("L", "L", "L", "c", "c", "c", "c", "c", "L")
    assert again is not None and again.leaves == 1
    assert again.until - (T0 + timedelta(minutes=8)) == timedelta(minutes=5)
    assert wait_of("L", "c", "c", reset=2) is None


def test_the_history_is_read_only_as_far_as_the_reset():
    def endless():
        yield Played(T0, Left.NO_START)
        for _ in range(5):
            yield Played(T0, None)
        raise AssertionError("read past the reset")

    assert current_wait(endless(), waits=WAITS, clean_reset=5) is not None
