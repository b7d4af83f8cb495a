"""Look-alike names: Unicode's confusables (UTS #39) and scripts, from confusable-homoglyphs.

Two names are confusable when they have the same skeleton: each character replaced by the
one Unicode says it looks like (Cyrillic "a" U+0430 by Latin "a", "m" by "rn", "0" by "O").
The library keeps Unicode's table as undirected pairs, so the skeleton here maps each group
of look-alikes to one member of it; equal skeletons are what matters, not which member.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import cache, lru_cache

# The library's data is plain JSON in untyped modules; its confusables table (a megabyte
# of JSON) is loaded on first use, not when the processes start.
from confusable_homoglyphs import categories

# Characters of no script of their own (digits, "_", ".", "@", combining marks) go with any.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
# Scripts written together in one name (UTS #39's "highly restrictive" level): Japanese,
# Chinese with Bopomofo, Korean, each possibly with Latin.
SCRIPT_COMBINATIONS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
# The library marks right-to-left characters with left-to-right marks (from the table's
# comments); they are no part of the characters.
_LRM = "\u200e"


def scripts_of(name: str) -> frozenset[str]:
    """The scripts `name` is written in, leaving out characters shared by every script."""
    return frozenset(categories.alias(char) for char in name) - SHARED_SCRIPTS


def one_script(name: str) -> bool:
    """Whether `name` keeps to one script (or to one of the usual mixes, such as Japanese)."""
    scripts = scripts_of(name)
    return len(scripts) <= 1 or any(scripts <= allowed for allowed in SCRIPT_COMBINATIONS)


@cache
def _prototypes() -> dict[str, str]:
    """Each character with look-alikes mapped to its group's representative."""
    from confusable_homoglyphs import confusables

    neighbours: dict[str, set[str]] = defaultdict(set)
    for key, entries in confusables.confusables_data.items():
        for entry in entries:
            a, b = key.strip(_LRM), str(entry["c"]).strip(_LRM)
            neighbours[a].add(b)
            neighbours[b].add(a)
    # Unicode maps every look-alike straight to its prototype, so each group is a star:
    # the prototype (possibly several characters, "rn") joined to each of its look-alikes.
    seen: set[str] = set()
    mapping: dict[str, str] = {}
    for start in neighbours:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - group:
                group.add(other)
                todo.append(other)
        seen |= group
        # The centre of the star; of a lone pair, the longer, then the lower code point.
        centre = min(group, key=lambda m: (-len(neighbours[m]), -len(m), m))
        for member in group:
            if len(member) == 1:
                mapping[member] = centre
    # A prototype of several characters is spelt in representatives too ("rn" stays "rn").
    return {
        char: "".join(mapping.get(c, c) for c in centre) if len(centre) > 1 else centre
        for char, centre in mapping.items()
    }


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decomposed, each character replaced by its representative."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


@lru_cache(maxsize=65536)
def confusable_keys(name: str) -> frozenset[str]:
    """Keys that two names share when they look alike in some letter case.

    Folding the case first makes "\u0406an" (a Cyrillic capital) meet "ian"; folding after the
    skeleton makes "Ian" meet "lan", since a capital I looks like a small L.
    """
    name = unicodedata.normalize("NFKC", name)
    folded_first = skeleton(name.casefold())
    folded_after = skeleton(skeleton(name).casefold())
    return frozenset({folded_first, folded_after})
