"""provision: the board's tag registry checked, imported and exported as CSV
(host_tools/registry_csv.py reads and writes it), and a tag scanned on a seat's reader."""

from __future__ import annotations

import argparse
import os
from typing import Any

from host_tools import errors
from host_tools.cli import NOTHING_WRITTEN, out, say, with_board

REGISTRY_PATH = "registry.bin"  # on the board, beside the firmware's own

# Run on the board by `provision scan` (the app must not be polling the
# readers: mpremote's Ctrl-C stops it, or boot in maintenance mode).  It
# brings up the readers as hal/board.py does and waits for one confirmed tag.
SCAN_SNIPPET = """\
import time, pins, table_config
from machine import SPI, Pin
from hal.board import reader_selects
from hal.readers import Readers, read_one
spi = SPI(pins.SPI_ID, baudrate=table_config.SPI_BAUDRATE, sck=Pin(pins.SPI_SCK),
          mosi=Pin(pins.SPI_MOSI), miso=Pin(pins.SPI_MISO))
rd = Readers(spi, reader_selects(), Pin(pins.READER_RESET, Pin.OUT, value=1))
uid = read_one(rd, {seat}, {timeout_ms}, time.sleep_ms)
print('UID', 'unfitted' if uid is None else 'none' if not uid else
      'two' if uid == b'two' else ''.join('%02x' % b for b in uid))
"""

# The refusals too long to write in place (docs/refusals.md quotes each).
DAMAGED = "the board's registry.bin does not load (damaged)"
DAMAGED_IMPORT = "%s: give --replace to overwrite it with the %d tags of %s; nothing was written"
DAMAGED_EXPORT = "%s: nothing to export; import a CSV with --replace to write a new one"
DAMAGED_SCAN = "%s: import a CSV with --replace first; nothing was written"
WOULD_REMOVE = "importing %s would remove %d of the board's %d tags (%s%s): %s"
GIVE_REPLACE = "give --replace to allow it, or add them to the file (export writes them)"
READ_BACK = "the registry read back from the board differs from what was written: import again"
EXISTS = "%s exists: give --force to replace it, or another name; nothing was written"
ITEM_TAKEN = "%s %s already has a tag (%s): export, edit and import to change it"
TAG_TAKEN = "the tag %s: %s (export, edit and import to change it)"
NO_TAG = "no tag read on seat %d in %g s: put the tag flat on the reader and try again"
TWO_TAGS = "two tags on the reader of seat %d: put one"
UNFITTED = "seat %d has no reader (table_config.seats says which seats are fitted)"


def board_registry(board: Any) -> list:
    """The registry on the board ([] if it has none); ValueError if it does not load."""
    from host_tools import registry_csv

    if not board.exists(REGISTRY_PATH):
        return []
    return registry_csv.from_registry_bin(board.read(REGISTRY_PATH))


def write_registry(board: Any, entries: list) -> None:
    from host_tools import registry_csv

    data = registry_csv.to_registry_bin(entries)
    board.write(REGISTRY_PATH, data)  # a temporary file, then a rename
    if board.read(REGISTRY_PATH) != data:
        raise errors.ToolError(READ_BACK)


def cmd_provision_check(args: argparse.Namespace) -> int:
    from host_tools import registry_csv

    entries = registry_csv.read_csv(args.csv)
    out("%s: %d tags, all rows good\n" % (errors.shown(args.csv), len(entries)))
    return 0


def _tag(entry: tuple) -> str:
    from host_tools import registry_csv

    uid, g, item = entry
    return "%s = %s %s" % (
        registry_csv.uid_hex(uid),
        registry_csv.GAMES[g],
        registry_csv.item_names(g).get(item, str(item)),
    )


def cmd_provision_import(args: argparse.Namespace) -> int:
    from host_tools import registry_csv

    entries = registry_csv.read_csv(args.csv)  # every row checked before the board is touched
    name = errors.shown(args.csv)

    def work(board: Any) -> int:
        try:
            existing = board_registry(board)
        except ValueError:
            if not args.replace:
                raise errors.ToolError(DAMAGED_IMPORT % (DAMAGED, len(entries), name)) from None
            existing = []
        new = {uid: (g, item) for uid, g, item in entries}
        removed = [e for e in existing if e[0] not in new]
        changed = [e for e in existing if e[0] in new and new[e[0]] != (e[1], e[2])]
        if removed and not args.replace:
            raise errors.ToolError(
                WOULD_REMOVE
                % (
                    name,
                    len(removed),
                    len(existing),
                    _tag(removed[0]),
                    ", ..." if len(removed) > 1 else "",
                    GIVE_REPLACE,
                )
                + NOTHING_WRITTEN
            )
        if sorted(existing) == sorted(entries):
            say(
                "the board's registry already holds exactly the %d tags of %s: nothing was "
                "written" % (len(entries), name)
            )
            return 0
        write_registry(board, entries)
        say(
            "the board's registry is now the %d tags of %s (%d added, %d changed, %d removed)"
            % (
                len(entries),
                name,
                len(entries) - len(existing) + len(removed),
                len(changed),
                len(removed),
            )
        )
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)


def cmd_provision_export(args: argparse.Namespace) -> int:
    from host_tools import registry_csv

    to_stdout = args.csv == "-"
    if not to_stdout:
        path = args.csv
        name = errors.shown(path)
        if os.path.isdir(path):
            raise errors.ToolError("%s is a folder: give the name of the CSV file to write" % name)
        if os.path.lexists(path) and not args.force:
            raise errors.ToolError(EXISTS % name)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise errors.ToolError("no folder %s to write %s in" % (errors.shown(folder), name))

    def work(board: Any) -> int:
        try:
            entries = board_registry(board)
        except ValueError:
            raise errors.ToolError(DAMAGED_EXPORT % DAMAGED) from None
        text = registry_csv.format_csv(entries, names=args.names)
        if to_stdout:
            out(text)
        else:
            errors.write_file(args.csv, text.encode("utf-8"))
            say("%d tags written to %s" % (len(entries), errors.shown(args.csv)))
        return 0

    return with_board(args, work)


def cmd_provision_scan(args: argparse.Namespace) -> int:
    from host_tools import registry_csv

    g = args.game
    try:
        item = registry_csv.item_by_name(g, args.item)
    except ValueError as e:
        raise errors.UsageError("argument --item: %s" % e) from None
    item_name = registry_csv.item_names(g)[item]

    def work(board: Any) -> int:
        try:
            existing = board_registry(board)
        except ValueError:
            raise errors.ToolError(DAMAGED_SCAN % DAMAGED) from None
        for uid, eg, eitem in existing:
            if (eg, eitem) == (g, item):
                raise errors.ToolError(
                    ITEM_TAKEN % (registry_csv.GAMES[g], item_name, registry_csv.uid_hex(uid))
                    + NOTHING_WRITTEN
                )
        say(
            "put the tag for %s on the reader of seat %d (waiting %g s)"
            % (item_name, args.seat, args.timeout)
        )
        code = SCAN_SNIPPET.format(seat=args.seat, timeout_ms=int(args.timeout * 1000))
        board_out = board.exec(code, timeout=args.timeout + 15)
        words = [
            line.split()[1]
            for line in board_out.splitlines()
            if line.startswith("UID ") and len(line.split()) == 2
        ]
        if not words or words[0] in ("none", "two", "unfitted"):
            reason = {
                "none": NO_TAG % (args.seat, args.timeout),
                "two": TWO_TAGS % args.seat,
                "unfitted": UNFITTED % args.seat,
            }
            raise errors.ToolError(
                reason.get(
                    words[0] if words else "",
                    "the board said: %s" % " ".join(board_out.split())[:200],
                )
            )
        row = "%s,%s,%d" % (words[0], registry_csv.GAMES[g], item)
        try:
            entries = existing + registry_csv.parse_csv(row, existing)
        except registry_csv.CsvError as e:
            raise errors.ToolError(
                TAG_TAKEN % (words[0], e.errors[0][1]) + NOTHING_WRITTEN
            ) from None
        write_registry(board, entries)
        out("%s = %s %s (%d tags)\n" % (words[0], registry_csv.GAMES[g], item_name, len(entries)))
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)
