"""Conformance cases for the rules core, portable so that they run unchanged
under CPython (pytest) and under real MicroPython (the WebAssembly build).

Each game registered (dicetable.games.GAMES, and the tests' toy game High
card) has a module here named by its key (tests/test_conformance.py fails
for a game without one), which defines:

    CASES        a list of (name, fn, args, expected): fn(*args) must equal
                 expected, and MicroPython must print the same repr as CPython.
                 A case that pins a ruling starts its name with it ("R1 ...");
                 a worked example from an original rule text says so ("ex2 ...").
    hot_calls()  a list of (label, fn): zero-argument callables that each make
                 exactly one call the table makes per play ("is_legal",
                 "legal_plays", "resolve"); they must allocate no heap.
    PER_PLAY     the names of those rules-core functions: every function they
                 reach keeps its frame on the board's C stack
                 (tests/test_board_frames.py).

Results are ints, bools, tuples and lists of those, so that repr() is the
same on both interpreters.
"""

from dicetable.games import GAMES  # noqa: F401  (the registry's keys: no list of our own)


def game_module(game):
    return getattr(__import__("cases." + game), game)
