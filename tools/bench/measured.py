"""What the table's firmware did on a Pico, and the firmware it was.

Measured on the official MicroPython v1.28.0 rp2 firmware (board RPI_PICO,
unmodified, 245,888 B heap, 7,936 B C stack) running on an
instruction-level RP2040 emulator: the same machine code and memory layout
as a Pico, the W25Q16 charged its typical times, an MFRC522 register model
with tags on each reader line, the WS2812 frames decoded from the data pin.
The emulator charges no flash wait states for code run from flash, so a
real chip is only slower.  The board's files were built as
host_tools.flash.build() builds them, from commit AT.

Each bench prints its model's figure for the firmware AT beside these
(the model run on that tree: tree()), and docs/performance.md lists them
all ("The model against the board").

    AT            the commit the board ran
    BOARD         {name: figure}, as measured on the board
    tree(folder)  that commit's files, written into folder
"""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
AT = "74a722b"

BOARD = {
    # Power-up (ms from reset; heap in bytes).
    "menu_line_ms": 1505,  # an empty table: the menu's log line
    "registry_ms": 970,  # 201 tags and a 759-action Nokosu journal: "registry"
    "resumed_ms": 2505,  # ... "resumed Nokosu at action 759"
    "after_boot_in_use": 231216,  # ... heap in use after boot, not yet collected
    "after_boot_free": 14672,
    # The journal: a commit per accepted action, 759 in a row.
    "commit_median_ms": 1.24,  # 0.84 ms of it Python, 0.4 ms the page program
    "commit_worst_ms": 50.38,  # a segment change: a 45 ms erase, 4.6 ms of Python
    "erases_per_100": 0.13,
    # The CPU, 3 s windows.
    "busy_menu": 19.9,  # % at the menu, nothing to do
    "busy_waiting": 26.3,  # % in a match waiting for a seat
    "busy_no_host": 25.8,  # % with no USB host or the port closed
    "reader_gap_ms": 35,  # ... the longest gap between two looks at a reader
    # A USB host that holds the port open stops reading: the longest time
    # without a look at any reader in the 20 s after (to the window's end).
    "console_stall_gap_ms": 18900,
    # The mirror's lines (ms of CPU).
    "match_line_300_ms": 13.0,  # @match at 300 actions
    "match_line_759_ms": 31.9,  # ... at 759
    "leds_line_ms": 0.9,
    # The heap over a whole 760-action Nokosu match (committed from a script).
    "live_low": 123600,  # live after collections, bytes (123.6 KB)
    "live_high": 128700,  # (128.7 KB)
    "peak_with_garbage": 158992,
    "largest_free": 23120,
    # The same firmware frozen into a v1.28.0 build.
    "import_loaded": 82128,  # heap the firmware's import takes from .mpy files
    "import_frozen": 21056,  # ... frozen
    "live_after_boot_loaded": 125936,
    "live_after_boot_frozen": 52368,
    "resumed_loaded_ms": 1275,
    "resumed_frozen_ms": 583,
    # A one-argument recursive function from the raw REPL.
    "recursion_depth": 27,
}


def tree(folder):
    """The files of commit AT, written into `folder` (git archive): the tree
    the board ran."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", AT], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return pathlib.Path(folder)
