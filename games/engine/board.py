"""The table: lead, main line, the spinner's lateral arms, open ends and their count (R3, R4).

A `Board` is immutable: placing a tile builds a new one that shares the untouched arms with the
old, so a game state can be copied cheaply and an old state is never changed.
"""

from __future__ import annotations

from .tiles import HIGH, IS_DOUBLE, LOW, OTHER, VALUE_MASK

LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3
END_NAMES: tuple[str, str, str, str] = ("left", "right", "up", "down")
END_INDEX: dict[str, int] = {name: i for i, name in enumerate(END_NAMES)}
SPINNER_AT_LEAD = -1

# One placed tile on an arm: (tile id, outer value). Arms list tiles from the centre outward.
Placed = tuple[int, int]
Arm = tuple[Placed, ...]

_NO_ENDS = (-1, -1, -1, -1)
_ZERO_COUNTS = (0, 0, 0, 0)


class Board:
    __slots__ = ("_placed", "arms", "count", "counts", "ends", "fit_mask", "lead", "spinner")

    lead: int
    arms: tuple[Arm, Arm, Arm, Arm]
    # (arm, index): arm is SPINNER_AT_LEAD, LEFT or RIGHT; None until the first double (R3.2).
    spinner: tuple[int, int] | None
    ends: tuple[int, int, int, int]  # open value per end, -1 when closed
    counts: tuple[int, int, int, int]  # what each end adds to the count
    count: int
    fit_mask: int  # every tile that fits at least one open end

    def __init__(
        self,
        lead: int = -1,
        arms: tuple[Arm, Arm, Arm, Arm] = ((), (), (), ()),
        spinner: tuple[int, int] | None = None,
    ) -> None:
        self.lead = lead
        # Boards `place` built from this one, by tile * 4 + end: a search asks what a placement
        # would count and then makes it, many times from one position; never part of the state.
        self._placed: dict[int, Board] | None = None
        self.arms = arms
        self.spinner = spinner
        if lead < 0:
            self.ends, self.counts, self.count, self.fit_mask = _NO_ENDS, _ZERO_COUNTS, 0, 0
            return
        ends, counts = _open_ends(lead, arms, spinner)
        self.ends = ends
        self.counts = counts
        self.count = counts[0] + counts[1] + counts[2] + counts[3]
        fit = 0
        for v in ends:
            if v >= 0:
                fit |= VALUE_MASK[v]
        self.fit_mask = fit

    def _spinner_tile(self) -> int:
        assert self.spinner is not None
        arm, index = self.spinner
        return self.lead if arm == SPINNER_AT_LEAD else self.arms[arm][index][0]

    def spinner_tile(self) -> int | None:
        return None if self.spinner is None else self._spinner_tile()

    def fitting_ends(self, tile: int) -> list[int]:
        """Every open end on which `tile` may be placed (R3.1, R3.4)."""
        base = tile * 7
        return [e for e, v in enumerate(self.ends) if v >= 0 and OTHER[base + v] >= 0]

    def place(self, tile: int, end: int) -> Board:
        """A new board with `tile` on `end`; the caller has checked that it fits."""
        placed = self._placed
        key = tile * 4 + end
        if placed is None:
            placed = self._placed = {}
        else:
            known = placed.get(key)
            if known is not None:
                return known
        left, right, up, down = self.arms
        arm = self.arms[end]
        grown = (*arm, (tile, OTHER[tile * 7 + self.ends[end]]))
        if end == LEFT:
            arms = (grown, right, up, down)
        elif end == RIGHT:
            arms = (left, grown, up, down)
        elif end == UP:
            arms = (left, right, grown, down)
        else:
            arms = (left, right, up, grown)
        spinner = self.spinner
        if spinner is None and IS_DOUBLE[tile]:
            # R3.2: the first double of the round is the spinner, wherever it lands.
            spinner = (end, len(arm))
        board = placed[key] = Board(self.lead, arms, spinner)
        return board


EMPTY_BOARD = Board()


def lead_board(tile: int) -> Board:
    """The board after the lead: a double lead is the spinner (R3.2)."""
    return Board(tile, ((), (), (), ()), (SPINNER_AT_LEAD, 0) if IS_DOUBLE[tile] else None)


def _arm_end(arm: Arm) -> tuple[int, int]:
    tile, outer = arm[-1]
    # R4.1: a double at an end counts both halves.
    return outer, (outer + outer if IS_DOUBLE[tile] else outer)


def _open_ends(
    lead: int, arms: tuple[Arm, Arm, Arm, Arm], spinner: tuple[int, int] | None
) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    left, right, up, down = arms
    if spinner is None:
        # R4.4: a non-double lead exposes both halves, higher toward the left.
        lv, lc = _arm_end(left) if left else (HIGH[lead], HIGH[lead])
        rv, rc = _arm_end(right) if right else (LOW[lead], LOW[lead])
        return (lv, rv, -1, -1), (lc, rc, 0, 0)
    arm, index = spinner
    if arm == SPINNER_AT_LEAD:
        s = HIGH[lead]
        if left and right:
            lv, lc = _arm_end(left)
            rv, rc = _arm_end(right)
        elif left:
            # R4.2: while a main arm is empty the spinner is an end worth both halves.
            lv, lc = _arm_end(left)
            rv, rc = s, s + s
            return (lv, rv, -1, -1), (lc, rc, 0, 0)
        elif right:
            lv, lc = s, s + s
            rv, rc = _arm_end(right)
            return (lv, rv, -1, -1), (lc, rc, 0, 0)
        else:
            # R4.2: a spinner lead alone counts 2v once; shown as v on each side.
            return (s, s, -1, -1), (s, s, 0, 0)
    else:
        main = arms[arm]
        lv, lc = _arm_end(left) if left else (HIGH[lead], HIGH[lead])
        rv, rc = _arm_end(right) if right else (LOW[lead], LOW[lead])
        if len(main) == index + 1:
            # The spinner is still the end of its arm: R4.1/R4.2 count it 2v, laterals closed.
            return (lv, rv, -1, -1), (lc, rc, 0, 0)
        s = main[index][1]
    # R3.2, R4.3: both main arms occupied, so the laterals are open; empty ones count zero.
    uv, uc = _arm_end(up) if up else (s, 0)
    dv, dc = _arm_end(down) if down else (s, 0)
    return (lv, rv, uv, dv), (lc, rc, uc, dc)
