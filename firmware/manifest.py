# ruff: noqa: F821
# pyright: reportUndefinedVariable=false, reportAttributeAccessIssue=false
"""The table's firmware frozen into a MicroPython build for the Raspberry Pi Pico.

Not a module of the board: MicroPython's build reads it (a manifest, see
docs.micropython.org/en/v1.29.0/reference/manifest.html).  In micropython/ports/rp2:

    make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/dicetable/firmware/manifest.py

Frozen, a module's bytecode and constants stay in flash and its names in the
firmware's string pool; only what running it makes (its globals, functions,
classes, objects) takes heap.  tools/bench/bench_heap.py measures what that saves;
docs/firmware.md says how to build, flash and check such a firmware.

boot.py and main.py stay on the board's filesystem, as MicroPython runs them
by name.  A module on the filesystem is found before a frozen one (sys.path
is '', '.frozen', '/lib'), so a board with a frozen firmware must not keep
the .mpy files `make flash` copies, or freezing saves nothing.
"""

import os

# The rp2 port's own frozen modules: _boot.py (mounts the filesystem),
# asyncio (the main loop), rp2's helpers.  FROZEN_MANIFEST replaces the
# board's manifest, so it must be included.
include("$(PORT_DIR)/boards/manifest.py")

# Layers 2 to 4: the portable package (table app, match engine, rules core),
# without each game's playout.py (the designers' random playouts, never run on
# the board).
# MicroPython's build runs this file from its own folder.
package(
    "dicetable",
    files=sorted(
        os.path.relpath(os.path.join(folder, name), "dicetable")
        for folder, _, names in os.walk("dicetable")
        for name in names
        if name.endswith(".py") and name != "playout.py"
    ),
)
# Layer 1: the board's drivers and main loop.
package("hal")
# The pin map, the table's build, and the maintenance button boot.py and
# main.py read first.
module("pins.py")
module("table_config.py")
module("maintenance.py")
