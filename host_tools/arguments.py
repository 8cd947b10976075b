"""python -m host_tools' arguments: its commands and their options, each bad one
refused in one line (exit status 2)."""

from __future__ import annotations

import argparse
import math
import os
import re
from typing import Any

from host_tools.challenges_command import (
    cmd_challenges_check,
    cmd_challenges_put,
    cmd_challenges_remove,
)
from host_tools.copy_commands import cmd_backup, cmd_flash, cmd_restore
from host_tools.provision_command import (
    cmd_provision_check,
    cmd_provision_export,
    cmd_provision_import,
    cmd_provision_scan,
)
from host_tools.watch_commands import cmd_monitor, cmd_replay

DESCRIPTION = "python -m host_tools: the maker's tools for the dice table's board."
_HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(_HERE), "firmware")
SEATS = 8  # seat numbers 0-7 (table_config.seats: those fitted)
TIMEOUT = (1.0, 300.0)  # seconds provision scan may wait for a tag
PORT_HELP = "serial device (/dev/ttyACM0, COM5), socket://host:port, or auto"

# The refusal too long to write in place (docs/refusals.md quotes it).
NO_SEAT = "there is no seat %s: seats are 0 to %d (the centre reader is not a seat)"


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
