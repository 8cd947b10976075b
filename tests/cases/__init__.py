"""Conformance cases for the rules core, portable so that they run unchanged
under CPython (pytest) and under real MicroPython (the WebAssembly build).

Each game module here (named as in GAMES) defines:

    CASES        a list of (name, fn, args, expected): fn(*args) must equal
                 expected, and MicroPython must print the same repr as CPython.
                 A case that pins a ruling starts its name with it ("R1 ...");
                 a worked example from an original rule text says so ("ex2 ...").
    hot_calls()  a list of (label, fn): zero-argument callables that each make
                 exactly one call the table makes per play ("is_legal",
                 "legal_plays", "resolve"); they must allocate no heap.

Results are ints, bools, tuples and lists of those, so that repr() is the
same on both interpreters.
"""

GAMES = ("dtwww", "walzer", "dicefull", "dtt", "nokosu")


def game_module(game):
    return getattr(__import__("cases." + game), game)
