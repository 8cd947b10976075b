"""The headless simulator: whole matches played by bots, printed as transcripts.

It runs the board's own match engine and rules core, imported from firmware/
(never a copy), on CPython.
"""

import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parent.parent
_FIRMWARE = str(_ROOT / "firmware")
# firmware/ for the board's code, cpython/ for the stand-in of MicroPython's
# `micropython` module it imports (const).
for _path in (str(_ROOT / "cpython"), _FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)
