"""MicroPython's built-in `micropython` module, for the board's code on CPython.

The portable package and the drivers write `from micropython import const`,
as on the board, where const() makes a compile-time constant.  The simulator,
the host tools and the tests put this folder on sys.path (sim/__init__.py,
host_tools/__init__.py, pyproject.toml's pythonpath); it is never flashed.
"""


def const(x):
    """The value itself: CPython has no compile-time constants."""
    return x
