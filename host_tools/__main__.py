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
    python -m host_tools challenges check my-set.txt    # a Dicefull set, no board
    python -m host_tools challenges put my-set.txt      # the table plays it
    python -m host_tools challenges remove              # back to the built-in set

--port is a serial device, a URL mpremote accepts (socket://127.0.0.1:4000),
or 'auto' (the default, or $DICETABLE_PORT): the first USB serial board.

Every refusal is one line on standard error, 'error: what is wrong (what
would be right)', and never a traceback.  Exit status: 0 done; 1 a failed
or refused operation (a bad file, no board, a board that refused), nothing
changed; 2 a bad argument (usage); 130 Ctrl-C (what it interrupted is said,
and nothing is half-written: every file goes through a temporary file renamed
into place, on the board and on the host).  When standard output is a closed
pipe (`| head`) the tool ends quietly (Python's documented recipe for SIGPIPE:
standard output pointed at devnull) with status 141, 128 + SIGPIPE, as a shell
reports a program SIGPIPE ended and as `python -m sim` does.
docs/host_tools.md is the maker's guide, docs/refusals.md lists every refusal.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Any, Callable

from host_tools import errors

DESCRIPTION = "python -m host_tools: the maker's tools for the dice table's board."
_HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(_HERE), "firmware")
REGISTRY_PATH = "registry.bin"  # on the board, beside the firmware's own
SEATS = 8  # seat numbers 0-7 (table_config.seats: those fitted)
TIMEOUT = (1.0, 300.0)  # seconds provision scan may wait for a tag
CLOSED_PIPE = 141  # 128 + SIGPIPE, as a shell reports `yes | head`
PORT_HELP = "serial device (/dev/ttyACM0, COM5), socket://host:port, or auto"

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

# What Ctrl-C leaves, per command, once the board is connected (before that:
# nothing was changed).  Each is true whenever the interrupt comes.
INTERRUPTED = {
    "flash": "the flash may not be finished: the board starts in maintenance mode; run flash again",
    "import": (
        "the board's registry is the old one or the new one, never half of one; export shows which"
    ),
    "scan": "the board's registry is the old one or the new one, never half of one",
    "export": "no file is left half-written",
    "backup": "no backup folder is left half-written",
    "restore": (
        "the board has its old files or all the restored ones, never a mix; run restore again"
    ),
    "monitor": "stopped",
    "put": "the board has its old challenge set or the new one, never half of one",
    "remove": "the board has its challenge set file or none",
}
BEFORE_THE_BOARD = "nothing was changed"


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
NO_SEAT = "there is no seat %s: seats are 0 to %d (the centre reader is not a seat)"
FAULT = "error: unexpected %s: %s (%s)"
REPORT_IT = "a fault of host_tools: please report it with the command; DICETABLE_DEBUG=1 says where"
NOTHING_WRITTEN = "; nothing was written"


class _StdoutClosed(Exception):
    """Standard output is a closed pipe (`| head`)."""


def say(text: str) -> None:
    """A line on standard error (nothing if it is closed too)."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (BrokenPipeError, ValueError):
        pass


def out(text: str) -> None:
    """Text on standard output, flushed; _StdoutClosed if nobody reads it any more."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise _StdoutClosed() from None


def progress(*args: Any) -> None:
    """Progress of a long operation: progress(i, n[, name]) prints 'file i/n name'."""
    if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], int):
        name = " ".join(str(a) for a in args[2:])
        say(("file %d/%d %s" % (args[0], args[1], name)).rstrip())
    else:
        say(" ".join(str(a) for a in args))


def port_of(args: argparse.Namespace) -> str:
    """--port, else $DICETABLE_PORT, else 'auto'."""
    return args.port or os.environ.get("DICETABLE_PORT", "").strip() or "auto"


def _from_env(args: argparse.Namespace, e: Exception) -> Exception:
    """A no-board error, saying so when the port came from $DICETABLE_PORT."""
    from host_tools.board import NoBoard

    if args.port or not os.environ.get("DICETABLE_PORT", "").strip():
        return e
    return NoBoard("%s (the port is $DICETABLE_PORT's)" % e)


def with_board(args: argparse.Namespace, work: Callable[[Any], int]) -> int:
    """Connect to the board at --port and run work(board)."""
    from host_tools.board import Board, NoBoard

    try:
        board = Board(port_of(args))
    except NoBoard as e:
        raise _from_env(args, e) from None
    args.on_board = True  # what Ctrl-C says from here on
    try:
        return work(board)
    finally:
        board.close()


# --- subcommands ------------------------------------------------------------------


def cmd_flash(args: argparse.Namespace) -> int:
    from host_tools.flash import build, flash_build

    files = build(args.firmware)  # the folder and every file checked before the board

    def work(board: Any) -> int:
        copied, removed = flash_build(board, files, progress)
        if not copied and not removed:
            say(
                "the board already has the %d files of %s (compared by SHA-256): nothing "
                "was copied" % (len(files), args.firmware)
            )
        else:
            say(
                "flashed %s: %d of %d files copied, %d old ones removed; the board has been "
                "soft-reset" % (args.firmware, len(copied), len(files), len(removed))
            )
        return 0

    return with_board(args, work)


def cmd_backup(args: argparse.Namespace) -> int:
    from host_tools.backup import (
        NOTHING_TO_BACK_UP,
        check_destination,
        describe,
        normalised,
        read_board,
        write_folder,
    )

    check_destination(args.folder, args.force)
    existed = os.path.isdir(args.folder) and bool(os.listdir(args.folder))

    def work(board: Any) -> int:
        data = read_board(board)
        if not data:
            raise errors.ToolError(NOTHING_TO_BACK_UP + NOTHING_WRITTEN)
        write_folder(args.folder, normalised(data), args.force)
        say(
            "backed up %s to %s%s"
            % (
                " and ".join(describe(name, blob) for name, blob in data.items()),
                errors.shown(args.folder),
                " (the backup that was there is replaced)" if existed else "",
            )
        )
        return 0

    return with_board(args, work)


def cmd_restore(args: argparse.Namespace) -> int:
    from host_tools.backup import check_backup, write_backup

    checked = check_backup(args.folder)  # the whole backup, before the board

    def work(board: Any) -> int:
        write_backup(board, checked)
        say(checked.restored())
        return 0

    return with_board(args, work)


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


def cmd_monitor(args: argparse.Namespace) -> int:
    from host_tools.board import NoBoard
    from host_tools.monitor import follow

    args.on_board = True
    try:
        follow(
            port_of(args),
            lambda line: out(line + "\n"),
            opened=lambda url: say("following the board's log at %s (Ctrl-C stops)" % url),
        )
    except NoBoard as e:
        raise _from_env(args, e) from None
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from host_tools.replay import replay_into
    from sim.play import RefusedAction

    if args.challenges is not None:
        from sim.play import use_challenges

        use_challenges(_challenge_set(args.challenges)[0])
    lines: list[str] = []
    try:
        note = replay_into(args.file, lines)
    except RefusedAction as e:
        out("".join(line + "\n" for line in lines))
        raise errors.ToolError(
            "%s: %s: the replay stops there" % (errors.shown(args.file), e)
        ) from None
    out("".join(line + "\n" for line in lines))
    if note:
        say("note: " + note)
    return 0


def _challenge_set(path: str) -> tuple[list, str]:
    """The rows of a Dicefull set and the line naming it, read and checked by
    the board's own reader before any board is touched."""
    from sim.play import read_challenges, set_line

    try:
        rows = read_challenges(path)
    except ValueError as e:
        raise errors.ToolError(str(e)) from None
    return rows, set_line(errors.shown(path), rows)[len("challenges: ") :]


def cmd_challenges_check(args: argparse.Namespace) -> int:
    _, named = _challenge_set(args.file)
    out("%s, all rows good\n" % named)
    return 0


def cmd_challenges_put(args: argparse.Namespace) -> int:
    from dicetable.games.dicefull.table import SET_FILE

    _, named = _challenge_set(args.file)
    with open(args.file, "rb") as f:
        data = f.read()

    def work(board: Any) -> int:
        if board.exists(SET_FILE):
            if board.read(SET_FILE) == data:
                say("the board's %s already is %s: nothing was written" % (SET_FILE, named))
                return 0
            if not args.replace:
                raise errors.ToolError(
                    "the board has a %s of its own: give --replace to write %s over it"
                    " (python -m host_tools backup keeps a copy)%s"
                    % (SET_FILE, errors.shown(args.file), NOTHING_WRITTEN)
                )
        board.write(SET_FILE, data)  # a temporary file, then a rename
        if board.read(SET_FILE) != data:
            raise errors.ToolError(
                "the %s read back from the board differs from what was written: put it again"
                % SET_FILE
            )
        say("the board's %s is now %s: Dicefull plays it from the next match" % (SET_FILE, named))
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)


def cmd_challenges_remove(args: argparse.Namespace) -> int:
    from dicetable.games.dicefull.table import SET_FILE

    def work(board: Any) -> int:
        if not board.exists(SET_FILE):
            say("the board has no %s: it plays the built-in set; nothing was changed" % SET_FILE)
            return 0
        board.remove(SET_FILE)
        say("the board's %s is removed: Dicefull plays the built-in set" % SET_FILE)
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)


# --- the parser -----------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with a bad argument said in one line (exit status 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, "error: %s (%s --help lists what it takes)\n" % (message, self.prog))


def seat_arg(text: str) -> int:
    number = text.strip()
    if not re.fullmatch(r"-?[0-9]+", number):  # ASCII digits: int() takes '３' too
        raise argparse.ArgumentTypeError(
            "%r is not a seat number (seats are 0 to %d)"
            % (text if len(text) <= 20 else text[:20] + "...", SEATS - 1)
        )
    if len(number) > 3 or not 0 <= int(number) < SEATS:
        raise argparse.ArgumentTypeError(
            NO_SEAT % (number if len(number) <= 12 else number[:12] + "...", SEATS - 1)
        )
    return int(number)


def timeout_arg(text: str) -> float:
    try:
        t = float(text) if text.strip().isascii() else math.nan
    except ValueError:
        t = math.nan
    if not (math.isfinite(t) and TIMEOUT[0] <= t <= TIMEOUT[1]):
        raise argparse.ArgumentTypeError(
            "%r: the timeout is %g to %g seconds"
            % (text if len(text) <= 20 else text[:20] + "...", TIMEOUT[0], TIMEOUT[1])
        )
    return t


def game_arg(text: str) -> int:
    from host_tools import registry_csv

    try:
        return registry_csv.game_index(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def port_arg(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("empty: give a %s" % PORT_HELP)
    return text.strip()


def path_arg(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name: give a file or folder")
    return text


def parser() -> argparse.ArgumentParser:
    def sub_parser(sub: Any, name: str, **kw: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, allow_abbrev=False, **kw)

    p = Parser(
        prog="python -m host_tools",
        description=DESCRIPTION,
        allow_abbrev=False,
        epilog="docs/host_tools.md is the maker's guide",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="command")
    port = Parser(add_help=False, allow_abbrev=False)
    port.add_argument(
        "--port",
        type=port_arg,
        default=None,
        help=PORT_HELP + " (default: $DICETABLE_PORT, else auto)",
    )

    s = sub_parser(sub, "flash", parents=[port], help="compile the firmware and copy what changed")
    s.add_argument(
        "--firmware", type=path_arg, default=FIRMWARE, help="firmware folder (default: ours)"
    )
    s.set_defaults(run=cmd_flash)

    s = sub_parser(sub, "provision", help="the tag registry: CSV import/export, scan a tag")
    ps = s.add_subparsers(dest="action", required=True, metavar="action")
    t = sub_parser(ps, "import", parents=[port], help="replace the board's registry with a CSV")
    t.add_argument("csv", type=path_arg)
    t.add_argument(
        "--replace",
        action="store_true",
        help="allowed to remove tags the board has and the file has not",
    )
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_provision_import)
    t = sub_parser(ps, "export", parents=[port], help="write the board's registry as CSV")
    t.add_argument("csv", type=path_arg, help="file to write, - for standard output")
    t.add_argument("--names", action="store_true", help="item names instead of numbers")
    t.add_argument("--force", action="store_true", help="replace an existing file")
    t.set_defaults(run=cmd_provision_export)
    t = sub_parser(ps, "check", help="check a CSV without a board")
    t.add_argument("csv", type=path_arg)
    t.set_defaults(run=cmd_provision_check)
    t = sub_parser(ps, "scan", parents=[port], help="read a tag on a seat's reader and name it")
    t.add_argument(
        "--seat", type=seat_arg, required=True, help="seat number, 0 to %d" % (SEATS - 1)
    )
    t.add_argument(
        "--game", type=game_arg, required=True, help="dtwww, walzer, dicefull, dtt or nokosu"
    )
    t.add_argument("--item", required=True, help="item name ('red d6 copy 1') or number")
    t.add_argument(
        "--timeout",
        type=timeout_arg,
        default=10.0,
        help="seconds to wait for the tag, %g to %g (default 10)" % TIMEOUT,
    )
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_provision_scan)

    s = sub_parser(sub, "monitor", parents=[port], help="follow the board's event log")
    s.set_defaults(run=cmd_monitor)
    s = sub_parser(
        sub, "backup", parents=[port], help="copy the journal and registry to a new folder"
    )
    s.add_argument("folder", type=path_arg)
    s.add_argument(
        "--force",
        action="store_true",
        help="replace a backup folder that is there (whole, once the new one is done)",
    )
    s.set_defaults(run=cmd_backup)
    s = sub_parser(sub, "restore", parents=[port], help="copy a backup folder back to the board")
    s.add_argument("folder", type=path_arg)
    s.set_defaults(run=cmd_restore)
    s = sub_parser(sub, "challenges", help="Dicefull's challenge set on the board")
    ps = s.add_subparsers(dest="action", required=True, metavar="action")
    t = sub_parser(ps, "check", help="check a challenge set file without a board")
    t.add_argument("file", type=path_arg)
    t.set_defaults(run=cmd_challenges_check)
    t = sub_parser(ps, "put", parents=[port], help="check a set, then copy it to the board")
    t.add_argument("file", type=path_arg)
    t.add_argument("--replace", action="store_true", help="allowed to write over the board's set")
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_challenges_put)
    t = sub_parser(ps, "remove", parents=[port], help="remove the board's set (the built-in one)")
    t.add_argument("--no-reset", action="store_true", help="do not soft-reset the board after")
    t.set_defaults(run=cmd_challenges_remove)
    s = sub_parser(sub, "replay", help="print the transcript of a journal.bin or match file")
    s.add_argument("file", type=path_arg, help="journal.bin, a backup folder, or a match file")
    s.add_argument(
        "--challenges",
        type=path_arg,
        metavar="FILE",
        help="the Dicefull challenge set the match was played with (the board's dicefull.txt)",
    )
    s.set_defaults(run=cmd_replay)
    return p


def _quiet_stdout() -> None:
    """Python's recipe for a closed pipe: point standard output at devnull, so
    that the interpreter's last flush does not complain."""
    if sys.stdout is not sys.__stdout__:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


SHOWN_ROWS = 20  # bad rows said one by one; the count says the rest


def _csv_problems(e: Any, args: Any, command: str) -> None:
    """A CSV's problems: one line each, 'file:line:column: what is wrong' (the
    first SHOWN_ROWS), then the summary (just the one line for one problem)."""
    name = errors.shown(getattr(args, "csv", "") or "")
    lines = e.lines(name)
    suffix = NOTHING_WRITTEN if command in ("import", "scan") else ""
    if len(lines) == 1:
        say("error: %s%s" % (lines[0], suffix))
        return
    for line in lines[:SHOWN_ROWS]:
        say(line)
    if len(lines) > SHOWN_ROWS:
        say("(%d more bad rows)" % (len(lines) - SHOWN_ROWS))
    say("error: %d bad rows in %s%s" % (len(lines), name, suffix))


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (see the module docstring)."""
    command = ""
    args = None
    try:  # a name the terminal cannot show is escaped, not a crash
        sys.stdout.reconfigure(errors="backslashreplace")  # pyright: ignore[reportAttributeAccessIssue]
    except (AttributeError, ValueError, OSError):
        pass
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit as e:
            sys.stdout.flush()
            return e.code if isinstance(e.code, int) else 0 if e.code is None else 2
        command = getattr(args, "action", None) or args.command
        return args.run(args)
    except KeyboardInterrupt:
        if command not in INTERRUPTED:
            note = ""
        elif getattr(args, "on_board", False):
            note = INTERRUPTED[command]
        else:
            note = BEFORE_THE_BOARD
        say("interrupted (Ctrl-C)%s" % (": " + note if note else ""))
        return 130
    except (_StdoutClosed, BrokenPipeError):
        _quiet_stdout()
        return CLOSED_PIPE
    except Exception as e:  # never a traceback: each refusal is one line
        if isinstance(e, errors.ToolError):
            from host_tools.registry_csv import CsvError

            if isinstance(e, CsvError):
                _csv_problems(e, args, command)
                return 1
            say("error: %s" % e)
            return e.status
        if isinstance(e, OSError):
            where = " %s:" % errors.shown(e.filename) if e.filename else ""
            say("error:%s %s" % (where, errors.why(e)))
            return 1
        if os.environ.get("DICETABLE_DEBUG"):
            raise
        say(FAULT % (type(e).__name__, str(e)[:200], REPORT_IT))
        return 1


if __name__ == "__main__":
    sys.exit(main())
