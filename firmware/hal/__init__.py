"""Layer 1: the board drivers, the only code that touches machine, SPI, pins, LEDs and files."""

try:
    # MicroPython's, in C: a - b for its millisecond ticks, which wrap at 2**30.
    from time import ticks_diff  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython (the tests, the simulator): the table app's, the same wrap
    from dicetable.app.render import ticks_diff  # noqa: F401 - the drivers import it from here
