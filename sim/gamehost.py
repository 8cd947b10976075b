"""The parts every game's host.py shares, in one place.

A game's host.py (firmware/dicetable/games/<key>/host.py) is the simulator's
side of the game, kept in its package but never run on the board
(firmware/manifest.py leaves it out, as it leaves out playout.py).  What
several games' host.py wrote alike lives here, and a host.py takes it or
writes its own: docs/architecture.md lists what a host.py supplies and what
it gets for free.  Simulator code only: nothing on the board imports sim.
"""

from typing import Any

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


# --- what the bots need of a host.py --------------------------------------------
#
# A bot plays a game only with the parts it needs; a part missing is one line
# (refusal()), never a traceback in the middle of a match.  Parts with a
# default (DEFAULTS) may be left out.  docs/architecture.md lists them all.

GUIDE = "its host.py lists what the bots need: docs/architecture.md"
NEEDS = {
    "random": (),
    "heuristic": ("heuristic",),
    # view: what a seat sees and how to draw the rest (determinize is built
    # on it); observe: an action as the observer sees it; HIDDEN_DECISIONS:
    # the kinds of action another seat takes unseen.
    "ismcts": ("heuristic", "view", "observe", "HIDDEN_DECISIONS"),
}
ISMCTS_PLAYOUTS = 100  # a decision's playouts when a game names no budget of its own


def _never(match):
    return False


DEFAULTS = {
    "ISMCTS_PLAYOUTS": ISMCTS_PLAYOUTS,  # the budget of a bare `ismcts`
    "ISMCTS_OPTIONS": {},  # the search's options (sim/ismcts.py, Search): none
    "UNIFORM_DRAWS": False,  # a seat's draws are listed, not drawn by random_action
    "only_chance_left": _never,  # the search never averages a round's chance
}


class CannotPlay(ValueError):
    """A bot asked to play a game whose host.py lacks a part it needs; the
    message is the one line refusal() gives."""


def part(host, name) -> Any:
    """The host.py's `name`, or its default (DEFAULTS; KeyError for a part
    with none: the bots check those first, refusal())."""
    if hasattr(host, name):
        return getattr(host, name)
    return DEFAULTS[name]


def refusal(game, bot):
    """Why `bot` (random, heuristic, ismcts; a budget after ':' is ignored)
    cannot play the game `game` (its key), or None: the first part it needs
    that the game's host.py does not give.  A game that lists its chance
    (chance_outcomes) must say which round is the last (last_round)."""
    bot = bot.partition(":")[0]
    host = registry.part(registry.number(game), "host")
    needs = NEEDS.get(bot, ())
    if bot == "ismcts" and hasattr(host, "chance_outcomes"):
        needs += ("last_round",)
    for name in needs:
        if not hasattr(host, name):
            return "game %s gives no %s: %s cannot play it (%s)" % (game, name, bot, GUIDE)
    return None


def check(game, bot):
    """refusal() as an exception: CannotPlay with its line."""
    why = refusal(game, bot)
    if why:
        raise CannotPlay(why)
