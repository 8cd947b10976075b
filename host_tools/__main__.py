"""python -m host_tools: the maker's tools for the dice table's board.

    python -m host_tools flash --port /dev/ttyACM0
    python -m host_tools provision import set.csv       # write the tag registry
    python -m host_tools provision export set.csv       # read it back
    python -m host_tools provision check set.csv        # check a CSV, no board
    python -m host_tools provision scan --seat 0 --game dtwww --item "red d6 copy 1"
    python -m host_tools monitor
    python -m host_tools backup backups/tuesday
    python -m host_tools restore backups/tuesday
    python -m host_tools replay backups/tuesday/journal.bin

--port is a serial device, a URL mpremote accepts (socket://127.0.0.1:4000),
or 'auto' (the default, or $DICETABLE_PORT): the first USB serial board.
Exit status: 0 done, 1 refused (bad CSV, bad journal, a file error), 2 no
board answers.  docs/host_tools.md is the maker's guide.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
from typing import Any, Callable

import sim  # noqa: F401  (puts firmware/ on sys.path)
from host_tools import registry_csv
from host_tools.monitor import NoSerial
from host_tools.registry_csv import CsvError

DESCRIPTION = "python -m host_tools: the maker's tools for the dice table's board."
FIRMWARE = pathlib.Path(__file__).resolve().parent.parent / "firmware"
REGISTRY_PATH = registry_csv.REGISTRY_FILE     # on the board, beside the firmware's own

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


class Refused(Exception):
    """A one-line reason the command did nothing (exit status 1)."""


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def progress(*args: Any) -> None:
    """Progress of a long operation: progress(i, n[, name]) prints 'file i/n name'."""
    if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], int):
        name = " ".join(str(a) for a in args[2:])
        say(("file %d/%d %s" % (args[0], args[1], name)).rstrip())
    else:
        say(" ".join(str(a) for a in args))


def _no_board_types() -> tuple[type[BaseException], ...]:
    try:
        from host_tools.board import NoBoard
    except ImportError:
        return (NoSerial,)
    return (NoSerial, NoBoard)


def _refusal_types() -> tuple[type[BaseException], ...]:
    """Errors that mean 'refused, nothing changed' (exit 1), from the modules that have them."""
    found: list[type[BaseException]] = [Refused, OSError, ValueError]
    for module, name in (("host_tools.board", "BoardError"), ("host_tools.flash", "FlashError"),
                         ("host_tools.backup", "RestoreError")):
        try:
            found.append(getattr(__import__(module, fromlist=[name]), name))
        except (ImportError, AttributeError):
            pass
    return tuple(found)


def with_board(args: argparse.Namespace, work: Callable[[Any], int]) -> int:
    """Connect to the board at --port and run work(board)."""
    from host_tools.board import Board
    board = Board(args.port)
    try:
        return work(board)
    finally:
        close = getattr(board, "close", None)
        if close is not None:
            close()


# --- subcommands ------------------------------------------------------------------

def cmd_flash(args: argparse.Namespace) -> int:
    from host_tools.flash import flash

    def work(board: Any) -> int:
        flash(board, args.firmware, progress)
        say("flashed %s; the board has been soft-reset" % args.firmware)
        return 0
    return with_board(args, work)


def cmd_backup(args: argparse.Namespace) -> int:
    from host_tools.backup import backup

    def work(board: Any) -> int:
        pathlib.Path(args.folder).mkdir(parents=True, exist_ok=True)
        copied = backup(board, args.folder)
        say("backed up %s to %s" % (" and ".join(copied) or "nothing (the board has no journal"
                                    " or registry)", args.folder))
        return 0
    return with_board(args, work)


def cmd_restore(args: argparse.Namespace) -> int:
    from host_tools.backup import restore
    if not pathlib.Path(args.folder).is_dir():
        raise Refused("no backup folder %s" % args.folder)

    def work(board: Any) -> int:
        copied = restore(board, args.folder)
        say("restored %s from %s (checked: the journal replays)" % (
            " and ".join(copied), args.folder))
        return 0
    return with_board(args, work)


def read_csv_file(path: str, existing: list[registry_csv.Entry] | None = None):
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise Refused("%s is not UTF-8 text (save the sheet as CSV UTF-8)" % path) from None
    return registry_csv.parse_csv(text, existing or [])


def board_registry(board: Any) -> list[registry_csv.Entry]:
    """The registry on the board ([] if it has none)."""
    if not board.exists(REGISTRY_PATH):
        return []
    return registry_csv.from_registry_bin(board.read(REGISTRY_PATH))


def write_registry(board: Any, entries: list[registry_csv.Entry]) -> None:
    data = registry_csv.to_registry_bin(entries)
    board.write(REGISTRY_PATH, data)     # a temporary file, then a rename
    if board.read(REGISTRY_PATH) != data:
        raise Refused("the registry read back from the board differs from what was written")


def cmd_provision_check(args: argparse.Namespace) -> int:
    entries = read_csv_file(args.csv)
    print("%s: %d tags, all rows good" % (args.csv, len(entries)))
    return 0


def cmd_provision_import(args: argparse.Namespace) -> int:
    entries = read_csv_file(args.csv)   # every row checked before the board is touched

    def work(board: Any) -> int:
        write_registry(board, entries)
        say("the board's registry is now the %d tags of %s" % (len(entries), args.csv))
        if not args.no_reset:
            board.soft_reset()
        return 0
    return with_board(args, work)


def cmd_provision_export(args: argparse.Namespace) -> int:
    def work(board: Any) -> int:
        entries = board_registry(board)
        text = registry_csv.format_csv(entries, names=args.names)
        if args.csv == "-":
            sys.stdout.write(text)
        else:
            pathlib.Path(args.csv).write_text(text, encoding="utf-8")
            say("%d tags written to %s" % (len(entries), args.csv))
        return 0
    return with_board(args, work)


def cmd_provision_scan(args: argparse.Namespace) -> int:
    g = registry_csv.game_index(args.game)
    item = registry_csv.item_by_name(g, args.item)

    def work(board: Any) -> int:
        existing = board_registry(board)
        say("put the tag for %s on the reader of seat %d" % (
            registry_csv.item_names(g)[item], args.seat))
        out = board.exec(SCAN_SNIPPET.format(seat=args.seat, timeout_ms=int(args.timeout * 1000)))
        words = [line.split()[1] for line in out.splitlines()
                 if line.startswith("UID ") and len(line.split()) == 2]
        if not words or words[0] in ("none", "two", "unfitted"):
            reason = {"none": "no tag read in %g s" % args.timeout,
                      "two": "two tags on the reader: put one",
                      "unfitted": "seat %d has no reader (table_config.seats)" % args.seat}
            raise Refused(reason.get(words[0] if words else "", "the board said: %s" % out.strip()))
        row = "%s,%s,%d" % (words[0], registry_csv.GAMES[g], item)
        entries = existing + registry_csv.parse_csv(row, existing)
        write_registry(board, entries)
        print("%s = %s %s (%d tags)" % (words[0], registry_csv.GAMES[g],
                                         registry_csv.item_names(g)[item], len(entries)))
        if not args.no_reset:
            board.soft_reset()
        return 0
    return with_board(args, work)


def cmd_monitor(args: argparse.Namespace) -> int:
    from host_tools.monitor import follow
    say("following the board's log at %s (Ctrl-C stops)" % args.port)
    follow(args.port, lambda line: print(line, flush=True))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from host_tools.replay import replay_into
    from sim.play import RefusedAction
    out: list[str] = []
    try:
        note = replay_into(args.file, out)
    except RefusedAction as e:
        print("\n".join(out))
        raise Refused(str(e)) from None
    print("\n".join(out))
    if note:
        say("note: " + note)
    return 0


# --- the parser -----------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m host_tools", description=DESCRIPTION,
                                epilog="docs/host_tools.md is the maker's guide")
    sub = p.add_subparsers(dest="command", required=True, metavar="command")
    port = argparse.ArgumentParser(add_help=False)
    port.add_argument("--port", default=os.environ.get("DICETABLE_PORT", "auto"),
                      help="serial device, socket://host:port, or auto (default: %(default)s)")

    s = sub.add_parser("flash", parents=[port], help="compile the firmware and copy what changed")
    s.add_argument("--firmware", default=str(FIRMWARE), help="firmware folder (default: ours)")
    s.set_defaults(run=cmd_flash)

    s = sub.add_parser("provision", help="the tag registry: CSV import/export, scan a tag")
    ps = s.add_subparsers(dest="action", required=True, metavar="action")
    t = ps.add_parser("import", parents=[port], help="replace the board's registry with a CSV")
    t.add_argument("csv")
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_provision_import)
    t = ps.add_parser("export", parents=[port], help="write the board's registry as CSV")
    t.add_argument("csv", help="file to write, - for standard output")
    t.add_argument("--names", action="store_true", help="item names instead of numbers")
    t.set_defaults(run=cmd_provision_export)
    t = ps.add_parser("check", help="check a CSV without a board")
    t.add_argument("csv")
    t.set_defaults(run=cmd_provision_check)
    t = ps.add_parser("scan", parents=[port], help="read a tag on a seat's reader and name it")
    t.add_argument("--seat", type=int, required=True, help="seat number from 0")
    t.add_argument("--game", required=True, help="dtwww, walzer, dicefull, dtt or nokosu")
    t.add_argument("--item", required=True, help="item name ('red d6 copy 1') or number")
    t.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the tag")
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_provision_scan)

    s = sub.add_parser("monitor", parents=[port], help="follow the board's event log")
    s.set_defaults(run=cmd_monitor)
    s = sub.add_parser("backup", parents=[port], help="copy the journal and registry to a folder")
    s.add_argument("folder")
    s.set_defaults(run=cmd_backup)
    s = sub.add_parser("restore", parents=[port], help="copy a backup folder back to the board")
    s.add_argument("folder")
    s.set_defaults(run=cmd_restore)
    s = sub.add_parser("replay", help="print the transcript of a journal.bin or match file")
    s.add_argument("file", help="journal.bin, a backup folder, or a match file")
    s.set_defaults(run=cmd_replay)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except CsvError as e:
        for line, message in e.errors:
            say("%s:%d: %s" % (args.csv, line, message))
        say("error: %d bad rows in %s; nothing was written" % (len(e.errors), args.csv))
        return 1
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except Exception as e:
        if isinstance(e, _no_board_types()):
            say("error: %s" % e)
            return 2
        if isinstance(e, _refusal_types()):
            say("error: %s" % e)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
