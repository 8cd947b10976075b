"""The parts every game's host.py shares, in one place.

A game's host.py (firmware/dicetable/games/<key>/host.py) is the simulator's
side of the game, kept in its package but never run on the board
(firmware/manifest.py leaves it out, as it leaves out playout.py).  What
several games' host.py wrote alike lives here, and a host.py takes it or
writes its own: docs/architecture.md lists what a host.py supplies and what
it gets for free.  Simulator code only: nothing on the board imports sim.
"""

from dicetable import games as registry
from dicetable.app.line import words


def host_of(match):
    """The host.py module of `match`'s game."""
    return registry.part(registry.number(match.GAME), "host")


def describe_of(table):
    """A game's describe(item): the item in the table's words, shown as the
    board logs it (table.item_words, app/line.py): the one vocabulary of the
    board's log, the CSV, the transcripts and the replay."""

    def describe(item):
        return words(table.item_words, item, True)

    return describe


def nothing(rng):
    """A view's sample when there is nothing left to draw: no actions."""
    return []


def determinize(match, seat, rng):
    """A new match consistent with what `seat` sees (the game's host.view),
    drawn with `rng`: its known journal and a sample of what is hidden."""
    from sim import ismcts

    prefix, sample = host_of(match).view(match, seat, rng)
    out = ismcts.replay(match, prefix + sample(rng))
    if out is None:
        raise RuntimeError("a determinization the engine refuses")
    return out
