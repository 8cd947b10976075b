"""python -m sim games: every game as it declares itself (sim/gamehost.py)."""

from typing import Any

from dicetable import games as registry
from dicetable.match.engine import COUNT, VARIANT
from sim import gamehost
from sim.arguments import FLAGS


def listing():
    """A table: each game's players, hidden hands, chance, the options it
    reads (as python -m sim takes them) and the bots that can play it."""
    rows = [["game", "title", "players", "hidden hands", "chance", "options", "bots"]]
    for g, key in enumerate(registry.GAMES):
        game = gamehost.host(key)
        bits: Any = registry.fact(g, registry.OPTIONS)  # an entry's facts are of mixed types
        flags = [name for name, bit, _ in FLAGS if bits & bit and bit != VARIANT]
        if bits & VARIANT:
            flags.append("--variant (%s)" % registry.fact(g, registry.VARIANT_WORD))
        if bits & COUNT:
            flags.append("--length (%s)" % registry.fact(g, registry.LENGTH_WORD))
        fewest, most = registry.fact(g, registry.FEWEST), registry.fact(g, registry.MOST)
        rows.append(
            [
                key,
                str(registry.fact(g, registry.TITLE)),
                str(fewest) if fewest == most else "%d-%d" % (fewest, most),
                "yes" if game.hidden_hands else "no",
                "yes" if game.chance else "no",
                ", ".join(flags) or "none",
                ", ".join(game.bots()),
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)) + "  " + row[-1]
        for row in rows
    ]
