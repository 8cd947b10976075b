"""A game's side in the simulator: what it declares, what it supplies, and the
defaults of what it may leave out, in one place.

Each game's host side is one module, sim/games/<key>.py (never flashed: the
board's code never imports sim), which ends with its declaration:

    HOST = GameHost("dtwww", hidden_hands=True, chance=True, narrate=narrate, ...)

GameHost is the contract (as OpenSpiel's GameType and KMK's Module): every
part has a slot here, with a default where one makes sense; a part without a
default that a game leaves out is None, and a bot that needs it refuses the
game in one line (refusal()), never a traceback in the middle of a match.
docs/architecture.md lists the parts ("What a game supplies").  host(key)
finds a game's declaration: sim/games/<key>.py for the table's games, the
module register() names for a game added at run time (the tests' toy game).
"""

import importlib
from typing import Any

from dicetable import games as registry
from dicetable.app.line import words


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


def _never(match):
    return False


def _own_hand(match, seat):
    return list(match.hand(seat))


def _no_centre(match):
    return []


def _no_packet(match, seat):
    return []


ISMCTS_PLAYOUTS = 100  # a decision's playouts when a game names no budget of its own
GUIDE = "docs/architecture.md lists what the bots need"


class GameHost:
    """One game's declaration and parts.  `hidden_hands`: a seat holds items
    the others do not see (the search must draw them); `chance`: dice are
    rolled or cards dealt at random.  What the game reads of the table's
    options, its players and lengths are its registry entry's
    (dicetable/games/__init__.py): facts the board needs too.

    Each part below is given as a keyword; the class holds its default, or
    None for a part with none (the bots that need it refuse the game: NEEDS).
    The functions are staticmethods: a part is called as the game wrote it."""

    # Transcript lines for an action just accepted: narrate(match, action).
    narrate: Any = None
    # An item in words, as the board logs it: describe_of(table) gives it.
    describe: Any = None
    # A seat's items in hand (values) and the items on the table's centre: the
    # terminal table and the web page show them.  Default: the engine's own
    # hand(seat), and no centre.
    hand: Any = staticmethod(_own_hand)
    centre: Any = staticmethod(_no_centre)
    # Items a seat chooses from besides its hand (d-TT's draft packet).  Default: none.
    packet: Any = staticmethod(_no_packet)
    # What the ring shows of a match of the game while the centre waits for
    # nothing, for the LED legend (sim/legend_match.py): (the match's fields its
    # ring_view reads, the pattern's name, its meaning).  Default: none (the
    # ring glows in the game's colour).
    ring_legend: Any = None
    # The heuristic bot, and the model of every decision a search cannot see.
    heuristic: Any = None
    # What the search bot needs (sim/ismcts.py, docs/bots.md).
    view: Any = None
    observe: Any = None
    hidden_decisions: Any = None
    last_round: Any = None
    ismcts_playouts: Any = ISMCTS_PLAYOUTS
    ismcts_options: Any = {}
    only_chance_left: Any = staticmethod(_never)
    chance_outcomes: Any = None
    uniform_draws: Any = False
    # The same match in open play, for the game's own tests.
    open_play_journal: Any = None

    def __init__(self, key, hidden_hands, chance, **parts):
        unknown = sorted(set(parts) - set(PARTS))
        if unknown:
            raise TypeError("%s: no such part of a game: %s" % (key, ", ".join(unknown)))
        self.key = key
        self.hidden_hands = hidden_hands
        self.chance = chance
        for name, part in parts.items():
            setattr(self, name, part)

    def missing(self, bot):
        """The first part `bot` needs that this game does not give, or None.
        A game that lists its chance (chance_outcomes) must say which round
        is the last (last_round)."""
        bot = bot.partition(":")[0]
        needs = NEEDS.get(bot, ())
        if bot == "ismcts" and self.chance_outcomes is not None:
            needs += ("last_round",)
        for name in needs:
            if getattr(self, name) is None:
                return name
        return None

    def bots(self):
        """The bots that can play this game, in NEEDS's order."""
        return [bot for bot in NEEDS if self.missing(bot) is None]


PARTS = tuple(GameHost.__annotations__)  # every part a game may give
NEEDS = {
    "random": (),
    "heuristic": ("heuristic",),
    # view: what a seat sees and how to draw the rest (determinize is built
    # on it); observe: an action as the observer sees it; hidden_decisions:
    # the kinds of action another seat takes unseen.
    "ismcts": ("heuristic", "view", "observe", "hidden_decisions"),
}


_REGISTERED: dict = {}  # key -> module of a game registered at run time


def register(key, module):
    """Name the module (dotted) holding HOST for a game added at run time
    with dicetable.games.register(); unregister(key) forgets it."""
    _REGISTERED[key] = module


def unregister(key):
    _REGISTERED.pop(key, None)


def host(key) -> Any:
    """The GameHost of the game `key` (imported on first use)."""
    if registry.number(key) < 0:
        raise KeyError("no game %r" % key)
    return importlib.import_module(_REGISTERED.get(key) or "sim.games." + key).HOST


def host_of(match) -> Any:
    """The GameHost of `match`'s game."""
    return host(match.GAME)


class CannotPlay(ValueError):
    """A bot asked to play a game that lacks a part it needs; the message is
    the one line refusal() gives."""


def refusal(game, bot):
    """Why `bot` (random, heuristic, ismcts; a budget after ':' is ignored)
    cannot play the game `game` (its key), or None."""
    name = host(game).missing(bot)
    if name is None:
        return None
    return "game %s gives no %s: %s cannot play it (%s)" % (
        game,
        name,
        bot.partition(":")[0],
        GUIDE,
    )


def check(game, bot):
    """refusal() as an exception: CannotPlay with its line."""
    why = refusal(game, bot)
    if why:
        raise CannotPlay(why)
