"""The double-six set (R2.1) as small integers with precomputed tables.

A tile is an id 0..27; a hand is a 28-bit mask of ids. Every question the rules ask about
tiles (does it hold value v, what is the other half, how many pips) is a table lookup, so the
engine never parses or compares tile strings on its hot path.
"""

from __future__ import annotations

N_TILES = 28
FULL_SET = (1 << N_TILES) - 1

_pairs = [(high, low) for high in range(7) for low in range(high + 1)]

HIGH: tuple[int, ...] = tuple(h for h, _ in _pairs)
LOW: tuple[int, ...] = tuple(lo for _, lo in _pairs)
PIPS: tuple[int, ...] = tuple(h + lo for h, lo in _pairs)
IS_DOUBLE: tuple[bool, ...] = tuple(h == lo for h, lo in _pairs)
# Tiles are always written higher half first ("5-0", "6-6"): docs/engine-api.md, "Spelling".
NAME: tuple[str, ...] = tuple(f"{h}-{lo}" for h, lo in _pairs)
BIT: tuple[int, ...] = tuple(1 << t for t in range(N_TILES))

TILE_BY_NAME: dict[str, int] = {}
for _t, (_h, _lo) in enumerate(_pairs):
    TILE_BY_NAME[f"{_h}-{_lo}"] = _t
    TILE_BY_NAME[f"{_lo}-{_h}"] = _t

# VALUE_MASK[v]: every tile with a half equal to v, so "can this hand play on an end of value v"
# is a single AND.
VALUE_MASK: tuple[int, ...] = tuple(
    sum(1 << t for t, (h, lo) in enumerate(_pairs) if v in (h, lo)) for v in range(7)
)

# OTHER[t * 7 + v]: the half of tile t that faces outward when its half v faces inward
# (R3.1), -1 when t has no half v.
OTHER: tuple[int, ...] = tuple(
    (lo if v == h else h) if v in (h, lo) else -1 for h, lo in _pairs for v in range(7)
)

# R2.2: a double beats any non-double, higher doubles first; then pip sum, then the higher half.
RANK_ORDER: tuple[int, ...] = tuple(
    sorted(range(N_TILES), key=lambda t: (IS_DOUBLE[t], PIPS[t], HIGH[t]), reverse=True)
)

# Hands iterate in id order; _HALF_TILES lists the ids of every 14-bit half-mask, so turning a
# 28-bit hand into ids costs two lookups instead of 28 bit tests.
_HALF = 14
_HALF_MASK = (1 << _HALF) - 1


def _half_table() -> tuple[tuple[int, ...], ...]:
    # Doubling: masks with bit i set are the masks below 2**i with i appended (ascending order).
    table: list[tuple[int, ...]] = [()]
    for i in range(_HALF):
        table += [(*ids, i) for ids in table]
    return tuple(table)


_LOW_TILES = _half_table()
_HIGH_TILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i + _HALF for i in ids) for ids in _LOW_TILES
)


def tiles_of(mask: int) -> tuple[int, ...]:
    """The ids in a hand mask, ascending."""
    high = mask >> _HALF
    if not high:
        return _LOW_TILES[mask]
    return _LOW_TILES[mask & _HALF_MASK] + _HIGH_TILES[high]


def names_of(mask: int) -> list[str]:
    return [NAME[t] for t in tiles_of(mask)]


def pip_total(mask: int) -> int:
    return sum(PIPS[t] for t in tiles_of(mask))


def parse_tile(text: object) -> int | None:
    """The id of a tile written "a-b" in either order, None when it is not a tile."""
    if not isinstance(text, str):
        return None
    return TILE_BY_NAME.get(text)


def mask_of(tiles: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask
