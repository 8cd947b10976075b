"""The headless simulator: whole matches played by bots, printed as transcripts.

It runs the board's own match engine and rules core, imported from firmware/
(never a copy), on CPython.
"""

import pathlib
import sys

_FIRMWARE = str(pathlib.Path(__file__).resolve().parent.parent / "firmware")
if _FIRMWARE not in sys.path:
    sys.path.insert(0, _FIRMWARE)
