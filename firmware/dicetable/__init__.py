"""The dice table's portable package: rules core, match engine and table app.

Everything below this folder runs unchanged on the board (MicroPython) and on
a desktop (CPython).  See ../../docs/rules.md for the rules it implements.
"""


def forget_module(name):
    """Drop module `name` (its dotted name) from sys.modules and from its
    package, so that its code leaves the Pico's heap at the next collection:
    the parts needed now and then (the menu, the power-up, a challenge file,
    the journal's damage) are imported when they begin and forgotten after."""
    import sys

    if name not in sys.modules:
        return  # never imported (or forgotten): dir() below would make a list for nothing
    del sys.modules[name]
    package, _, leaf = name.rpartition(".")
    p = sys.modules.get(package)
    if p is not None and leaf in dir(p):
        delattr(p, leaf)
