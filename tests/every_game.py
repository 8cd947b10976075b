"""The games the per-game tests run over: every game the registry holds
(dicetable.games.GAMES, in journal order), then High card, the tests' toy
game (tests/toy_game), as the sixth game a designer adds through register().

A per-game test is parametrized over KEYS, never over a list of its own, so
a game registered in dicetable/games/__init__.py gets every per-game test
(conformance, golden transcript, undo, action words, heap, frames) with no
test edited: where it lacks what a test needs (its conformance cases, its
golden transcript) that test fails and says what to add.

The toy game is registered only while a test that is given its key runs
(conftest.py's autouse fixture, by registered()): the suite's other tests
see the five games of the table.
"""

import ast
import contextlib
import pathlib
import sys

from dicetable import games as registry
from sim import gamehost

TOY = "highcard"
TOY_PACKAGE = "toy_game"

# The registry's games at collection, then the toy game.
KEYS = [key for key in registry.GAMES if key != TOY] + [TOY]


@contextlib.contextmanager
def registered(key):
    """The game `key` registered while the block runs: the toy game is
    registered for it (and forgotten after), any other is already."""
    if key != TOY or registry.number(TOY) >= 0:
        yield registry.number(key)
        return
    from toy_game import ENTRY

    g = registry.register(ENTRY, TOY_PACKAGE)
    gamehost.register(TOY, TOY_PACKAGE + ".host")
    try:
        yield g
    finally:
        registry.forget(g)
        registry.unregister(TOY)
        gamehost.unregister(TOY)


def players(key):
    """(fewest, most) players of `key`, at collection too, before the toy
    game is registered (its entry says)."""
    if key == TOY and registry.number(TOY) < 0:
        from toy_game import ENTRY

        return ENTRY[registry.FEWEST], ENTRY[registry.MOST]
    g = registry.number(key)
    return registry.fact(g, registry.FEWEST), registry.fact(g, registry.MOST)


def package(key):
    """The dotted name of the package of `key`'s modules (the game registered)."""
    g = registry.number(key)
    assert g >= 0, "%s is not registered" % key
    return registry.part(g, "match").__name__.rpartition(".")[0]


def match_class(key):
    """The match engine's class of `key` (the game registered)."""
    return registry.part(registry.number(key), "match").MATCH


def match_source(key):
    """The file of `key`'s match engine (the game registered): what mpy-cross
    compiles for the board (sim/mpy_code.py reads its frames)."""
    return pathlib.Path(registry.part(registry.number(key), "match").__file__)


def match_sources(key):
    """Every file of `key`'s match engine, match.py first: the modules of its
    class and of the classes it is built on in the game's package (an engine
    split by phase holds a layer a module), whose frames a play may reach."""
    inside = package(key) + "."
    files = []
    for cls in match_class(key).__mro__:
        if cls.__module__.startswith(inside):
            path = pathlib.Path(sys.modules[cls.__module__].__file__ or "")
            if path not in files:
                files.append(path)
    return files


def rules_sources(key):
    """Every file of `key`'s rules core (the game registered), rules.py first:
    a core split by concern keeps its other modules beside it, each named
    <concern>_rules.py (Dicefull's scoring_rules.py), whose frames a play may
    reach."""
    folder = match_source(key).parent
    return [folder / "rules.py"] + sorted(folder.glob("*_rules.py"))


def parsed(paths):
    """The modules of `paths` as one tree (their statements in order): what a
    call may reach across an engine's modules, read as one module."""
    body = [node for path in paths for node in ast.parse(path.read_text()).body]
    return ast.Module(body=body, type_ignores=[])
