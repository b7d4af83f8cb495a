"""Deals (R2.1): validating the ones given, shuffling the ones that are not.

A deal not given up front is shuffled from a 128-bit secret seed drawn once, at game creation,
from the caller's `rng` (default `secrets.SystemRandom()`), together with the round number. The
seed lives in the state (server side only, never in a view), so `apply` is a pure function of
its arguments: replaying, branching or round-tripping a state through JSON always deals the
same tiles, and no shared random generator is ever advanced behind the caller's back. Every
deal actually dealt is recorded in `State.deals`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .state import Deal
from .tiles import N_TILES, NAME, parse_tile

HAND_SIZE = 7
BONEYARD_SIZE = 14


class DealError(ValueError):
    """A deal that is not 7 + 7 + 14 distinct tiles of the double-six set."""


def parse_deal(raw: object) -> Deal:
    """A deal written {"hands": [[7 tiles], [7 tiles]], "boneyard": [14 tiles]}."""
    if not isinstance(raw, Mapping):
        raise DealError("a deal must be an object with 'hands' and 'boneyard'")
    hands = raw.get("hands")
    boneyard = raw.get("boneyard")
    if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != 2:
        raise DealError("a deal needs 'hands': two lists of 7 tiles")
    parts: list[tuple[int, ...]] = []
    for label, tiles, size in (
        ("hand 0", hands[0], HAND_SIZE),
        ("hand 1", hands[1], HAND_SIZE),
        ("boneyard", boneyard, BONEYARD_SIZE),
    ):
        if not isinstance(tiles, Sequence) or isinstance(tiles, str) or len(tiles) != size:
            raise DealError(f"{label} must list exactly {size} tiles")
        ids = []
        for text in tiles:
            tile = parse_tile(text)
            if tile is None:
                raise DealError(f"{label}: {text!r} is not a double-six tile")
            ids.append(tile)
        parts.append(tuple(ids))
    if len(set(parts[0] + parts[1] + parts[2])) != N_TILES:
        raise DealError("a deal must use all 28 tiles exactly once")
    return parts[0], parts[1], parts[2]


def deal_to_json(deal: Deal) -> dict[str, list[list[str]] | list[str]]:
    return {
        "hands": [[NAME[t] for t in deal[0]], [NAME[t] for t in deal[1]]],
        "boneyard": [NAME[t] for t in deal[2]],
    }


def written_deal(hand0: str, hand1: str, boneyard: str) -> dict[str, Any]:
    """A deal in the form parse_deal reads, from three space-separated lists of tiles."""
    return {"hands": [hand0.split(), hand1.split()], "boneyard": boneyard.split()}


def new_seed(rng: random.Random | None) -> str:
    import secrets

    source = rng if rng is not None else secrets.SystemRandom()
    return f"{source.getrandbits(128):032x}"


def shuffled_deal(seed: str, round_number: int) -> Deal:
    """The deal of a round not given up front: all 28 tiles shuffled (R2.1)."""
    tiles = list(range(N_TILES))
    random.Random(f"{seed}/{round_number}").shuffle(tiles)
    return (
        tuple(tiles[:HAND_SIZE]),
        tuple(tiles[HAND_SIZE : 2 * HAND_SIZE]),
        tuple(tiles[2 * HAND_SIZE :]),
    )
