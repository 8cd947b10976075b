"""The games the table plays: the one place a game is registered.

A game is a package of its own, dicetable/games/<key>/:

    rules.py   the rules core: item encoding, legal plays, tricks, scoring
               (a core too long for one module splits by concern into
               <concern>_rules.py beside it: Dicefull's scoring_rules.py)
    match.py   the match engine: a Match subclass (MATCH) and new(players, options)
    table.py   how its items and actions meet the table: names, LED views,
               deal progress (the functions app/games.py lists)
    playout.py (where a game has one) playout(match, draw): a random match
               to its end in the engine's own loops, for the designers'
               batches; never flashed

and one entry below: its key and the facts the menu shows before any of its
code is loaded.  The board imports a game's modules only when the game is
played (part()); a game's rules for players are docs/rules/<key>.md, its side
in the simulator (transcripts, bots) sim/games/<key>.py.

The order is the journal's: a header names its game by index, so a game is
only ever added at the end.  register() adds one at run time (a designer's
game, the tests' toy game) through the same door.
"""

from micropython import const

from dicetable.match.actions import DEAL, KEEP, PASS_ITEM, PICK, PLAY, REVEAL, ZERO_BID
from dicetable.match.engine import COUNT, HEADER, OPEN_PLAY, TABLE_ROLLS, VARIANT, refusal_of_header

# Per entry: key, title, fewest and most players, the options it reads, its
# longest length, the length's word, the variant's word ("" for none), and
# the action kinds that carry a scanned item (bit 1 << kind), and its colour
# on the menu ring (r, g, b).  The match engine's class says the same of
# players, options and length (tests/test_games_registry.py checks it).
_ENTRIES = [
    (
        "dtwww",
        "DTwww",
        2,
        4,
        OPEN_PLAY | TABLE_ROLLS | VARIANT | COUNT,
        6,
        "games",
        "dice total",
        (1 << DEAL) | (1 << PLAY),
        (48, 16, 0),
    ),
    (
        "walzer",
        "Walzer",
        3,
        4,
        OPEN_PLAY | COUNT,
        9,
        "rounds",
        "",
        (1 << DEAL) | (1 << PASS_ITEM) | (1 << PLAY),
        (0, 16, 48),
    ),
    (
        "dicefull",
        "Dicefull",
        2,
        5,
        TABLE_ROLLS | VARIANT | COUNT,
        12,
        "challenges",
        "2d6 length",
        1 << PICK,
        (0, 48, 8),
    ),
    (
        "dtt",
        "d-TT",
        3,
        3,
        OPEN_PLAY | COUNT,
        6,
        "deals",
        "",
        (1 << REVEAL) | (1 << DEAL) | (1 << KEEP) | (1 << PLAY),
        (40, 0, 40),
    ),
    (
        "nokosu",
        "Nokosu",
        3,
        5,
        OPEN_PLAY | TABLE_ROLLS | COUNT,
        5,
        "rounds",
        "",
        (1 << DEAL) | (1 << PICK) | (1 << ZERO_BID) | (1 << PLAY),
        (40, 36, 0),
    ),
]
KEY = const(0)
TITLE = const(1)
FEWEST = const(2)
MOST = const(3)
OPTIONS = const(4)
LONGEST = const(5)
LENGTH_WORD = const(6)
VARIANT_WORD = const(7)
ITEM_KINDS = const(8)
MENU_RGB = const(9)

GAMES = [str(e[KEY]) for e in _ENTRIES]  # the keys, in journal order (str: for pyright)
_PACKAGES = [None] * len(GAMES)  # None: dicetable.games.<key>
_MODULES = [{} for _ in GAMES]  # per game: part name -> module


def fact(g, which):
    """One fact of game number g (TITLE, FEWEST, ... above)."""
    return _ENTRIES[g][which]


def number(key):
    """The journal's number of the game `key`, or -1 for no such game."""
    for g in range(len(GAMES)):
        if GAMES[g] == key:
            return g
    return -1


def part(g, name):
    """Module `name` ('rules', 'match', 'table', 'playout') of game number g,
    imported on first use (after that a lookup that allocates nothing under
    MicroPython: tests/test_games_registry.py)."""
    m = _MODULES[g].get(name)
    if m is None:
        package = _PACKAGES[g] or "dicetable.games." + GAMES[g]
        m = __import__(package + "." + name, None, None, ("_",))
        _MODULES[g][name] = m
    return m


def new_match(game, players, options=0):
    """A fresh match of the game named `game` (one of GAMES); ValueError with
    engine.refusal_of_header()'s line for a header the game does not take."""
    g = number(game)
    if g < 0:
        raise ValueError(_no_game(game))
    return part(g, "match").new(players, options)


def _no_game(game):
    return "no game %r: the games are %s" % (game, ", ".join(GAMES))


# A journal's header names its game by its number here: packed and read back
# in this module, so the match engine knows nothing of the registry.


def header(m):
    """Match m's journal header: game, players, options (low byte, high byte)."""
    return bytes((number(m.GAME), m.players, m.options & 0xFF, m.options >> 8))


def header_refusal(game, players, options):
    """engine.refusal_of_header() by game name, with an unknown game refused too."""
    g = number(game)
    if g < 0:
        return _no_game(game)
    return refusal_of_header(part(g, "match").MATCH, players, options)


def journal_header_refusal(data):
    """Why the header of journal bytes `data` cannot make a match (one line),
    or None: too short, a game number past the games, or header_refusal()."""
    if len(data) < HEADER:
        return "a journal header is %d bytes, not %d" % (HEADER, len(data))
    if data[0] >= len(GAMES):
        return "no game %d: the games are 0 to %d (%s)" % (
            data[0],
            len(GAMES) - 1,
            ", ".join(GAMES),
        )
    return header_refusal(GAMES[data[0]], data[1], data[2] | (data[3] << 8))


def journal_header(data):
    """(game name, players, options) from journal bytes.  Ask
    journal_header_refusal() first: a game number past the games raises
    IndexError here, and a match is made only of a header no game refuses."""
    return GAMES[data[0]], data[1], data[2] | (data[3] << 8)


def register(entry, package):
    """Add a game after the others: `entry` as in _ENTRIES (its key first),
    its modules in the package `package` (a dotted name).  Returns its
    number.  A key already registered is refused (ValueError)."""
    if number(entry[KEY]) >= 0:
        raise ValueError("a game %r is registered already" % entry[KEY])
    _ENTRIES.append(entry)
    GAMES.append(entry[KEY])
    _PACKAGES.append(package)
    _MODULES.append({})
    return len(GAMES) - 1


def unregister(key):
    """Remove the last registered game if it is `key` (a test's own game);
    the games before it keep their numbers."""
    if GAMES and GAMES[-1] == key:
        for x in (_ENTRIES, GAMES, _PACKAGES, _MODULES):
            x.pop()


def forget_others(g):
    """Drop every module of every game but g: a table holds the code of the
    game it plays, not of the ones played before it since the power-up
    (each is 10-25 KB of the Pico's heap: five in a row would not fit).
    CPython keeps them: there the simulator's own code shares them, and
    memory is not scarce."""
    import sys

    if sys.implementation.name != "micropython":
        return
    for o in range(len(GAMES)):
        package = _PACKAGES[o] or "dicetable.games." + GAMES[o]
        if o != g and (_MODULES[o] or package in sys.modules):
            forget(o)


def forget(g):
    """Drop every module of game g (its package and each part imported), so
    the heap holds no code of a game that is not played: the power-up loads
    a journal's game to check its header, and forgets it if it is refused."""
    import sys

    package = _PACKAGES[g] or "dicetable.games." + GAMES[g]
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]
    _MODULES[g].clear()
    me = sys.modules.get("dicetable.games")
    if _PACKAGES[g] is None and me is not None and GAMES[g] in dir(me):
        delattr(me, GAMES[g])
