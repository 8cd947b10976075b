"""Host tools for the maker: talk to the board over USB with mpremote.

board.py (the connection), flash.py, backup.py (backup and restore),
registry_csv.py (the tag registry as CSV: its one reader), journal_image.py
(the board's journal: its one reader on the host), replay.py, monitor.py,
errors.py (the one-line refusals and safe host writes); the CLI is
`python -m host_tools` (__main__.py), installed as `dicetable-tools`: its
arguments in arguments.py, what its commands share in cli.py, and the
commands in copy_commands.py (flash, backup, restore), provision_command.py,
challenges_command.py and watch_commands.py (monitor, replay).

The tools read journals and registries with the board's own code, imported
from firmware/ (never a copy): importing the package puts firmware/ on
sys.path, as the simulator's package does for itself.
"""

import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = str(_ROOT / "firmware")
# firmware/ for the board's code, cpython/ for the stand-in of MicroPython's
# `micropython` module it imports (const).
for _path in (str(_ROOT / "cpython"), FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)
