"""The headless simulator: whole matches played by bots, printed as transcripts.

It runs the board's own match engine and rules core, imported from firmware/
(never a copy), on CPython.
"""

import pathlib
import sys

# The checkout (the install is editable): the tools and benches find the
# board's files and write their outputs from here.
ROOT = pathlib.Path(__file__).resolve().parent.parent
_FIRMWARE = str(ROOT / "firmware")
# firmware/ for the board's code, cpython/ for the stand-in of MicroPython's
# `micropython` module it imports (const).  Importing sim (or any of its
# modules) is how a tool gets them: `import sim` before `from dicetable ...`.
for _path in (str(ROOT / "cpython"), _FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)
