"""What the test modules share, and how the suite is cut.

Shared helpers are plain modules beside the tests, imported by name (pytest's
pythonpath in pyproject.toml holds firmware/, tests/, tools/bench/, tools/ and the
repository): mpy_wasm (real MicroPython with the Pico's heap), board_parts
(the MicroPython-only modules hal/board.py imports, made of virtual parts),
match_helpers (playing matches out), forked (a test in a forked child),
mpy_frames.  A fixture belongs here only once two modules would otherwise
each define it; none does yet.

Tests that take seconds (a whole match or many under MicroPython, a virtual
board behind mpremote, a power cut at every byte, long property runs) carry
@pytest.mark.slow: `make quick` runs the rest, `make test` everything.
"""
