"""Every door of `python -m host_tools` (and `make flash`): each bad argument, file
and port answered with one line, the right exit status, no traceback, and no
change to the board or to the maker's files.

REFUSALS is the table: argv (with {tmp}, {port} and {board} filled in) and the
files the case needs -> exit status and the one line of standard error (a
distinctive part of it).  docs/refusals.md names each case by its id.  The
bulk runs in-process (main()); the cases that need a board share one virtual
board per module (sim/vboard: it is slow to start), checked unchanged after
each refusal.  Then: what the tools say when they succeed (restore, backup,
import), Ctrl-C (exit 130, nothing half-written), a closed pipe, make flash,
and hypothesis fuzzing of the CSV reader, the journal reader and restore's
checks: never an error but the tool's own, and never a partial effect.
"""

from __future__ import annotations

import functools
import importlib
import os
import pathlib
import signal
import socket
import stat
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import sim  # noqa: F401
from dicetable.app import games
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, header
from host_tools import backup as bk
from host_tools import registry_csv
from host_tools.__main__ import main
from host_tools.errors import ToolError
from host_tools.flash import REQUIRED
from host_tools.journal_image import JournalError, check_replays, encode, read_image
from sim.play import play

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
NOBODY = "socket://127.0.0.1:9"  # the discard port: nothing listens on loopback
NO_BOARD_AT = (
    "error: no board at %s: nothing answers there; check the cable and the port "
    "(--port, e.g. /dev/ttyACM0, COM5 or socket://host:port)"
)


# --- what the cases are made of -----------------------------------------------------


def all_entries():
    """A tag for every item of every game: the full table's tags (TAGS)."""
    out = []
    for g in range(len(GAMES)):
        for item in games.all_items(g):
            n = len(out) + 1
            out.append((bytes((4, n & 0xFF, n >> 8, 0x5C)), g, item))
    return out


ENTRIES = all_entries()
TAGS = len(ENTRIES)  # 201 with the table's five games
ALL_CSV = registry_csv.format_csv(ENTRIES, names=True)
FEW_CSV = "\n".join(ALL_CSV.splitlines()[:5]) + "\n"  # 4 of the TAGS tags
REGISTRY_BIN = registry_csv.to_registry_bin(ENTRIES)
MATCH = play("walzer", 4, 0, ["heuristic"] * 4, 3)
WORDS = [SEATS_RECORD | 15, SEED_RECORD | 5] + list(MATCH.journal)
JOURNAL_BIN = encode(header(MATCH), WORDS)
HEADER = header(MATCH)
DICEFULL_0 = encode(bytes((2, 0, 0, 0)), [])  # Dicefull with 0 players
REFUSED_ACTION = encode(
    HEADER, [SEATS_RECORD | 15] + list(MATCH.journal[:3]) + [MATCH.journal[2]]
)  # an item dealt twice
MALFORMED = encode(HEADER, [SEATS_RECORD | 15, 0x288000])  # bit 19: no seat uses it
DAMAGED = bytearray(JOURNAL_BIN)
DAMAGED[256 + 8 * 5 + 1] ^= 0xFF  # a record in the middle
DAMAGED = bytes(DAMAGED)
GAME_7 = encode(bytes((7, 3, 0, 0)), [])  # a game number past the five


def _cleared() -> bytes:
    from flashmodel.vflash import VFlash
    from hal.storage import Storage
    from host_tools.journal_image import segment_name

    flash = VFlash()
    s = Storage(flash)
    s.new_match(HEADER, tuple(WORDS[:2]))
    s.append(WORDS[2])
    s.clear()  # the match ended
    return b"".join(bytes(flash.raw.block(flash.placed[segment_name(i)])) for i in range(8))


CLEARED = _cleared()
FIRMWARE_STUBS = {
    "fw/" + name: ""
    for name in (
        "boot.py",
        "main.py",
        "pins.py",
        "maintenance.py",
        "table_config.py",
        "dicetable/__init__.py",
        "hal/__init__.py",
    )
}

BAD_CSV = """uid_hex,game,item
04a1b2c3,dtwww,red d6 copy 1
04a1b2c4,dtwww,red d6
04a1b2c3,nokosu,purple die 3
"""

MATCH_FILES = {
    "chess": "game chess\nplayers 4\noptions 0\n",
    "engine": "game engine\nplayers 4\noptions 0\n",
    "path": "game ../rules/walzer\nplayers 4\noptions 0\n",
    "players9": "game walzer\nplayers 9\noptions 0\n",
    "playersabc": "game walzer\nplayers abc\noptions 0\n",
    "optionsabc": "game walzer\nplayers 4\noptions abc\n",
}


def fill(text: str, tmp: pathlib.Path, port: str) -> str:
    return text.replace("{tmp}", str(tmp)).replace("{port}", port)


def make_files(tmp: pathlib.Path, files: dict) -> None:
    for name, data in files.items():
        if name.startswith("LINK "):
            (tmp / name[5:]).symlink_to(fill(data, tmp, ""))
            continue
        path = tmp / name
        if data is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def host_state(tmp: pathlib.Path) -> dict[str, bytes | None]:
    """Every file and folder under tmp: {relative path: bytes, None for a folder}."""
    return {
        p.relative_to(tmp).as_posix(): None if p.is_dir() else p.read_bytes()
        for p in sorted(tmp.rglob("*"))
    }


# Each case: id -> (argv, files, exit status, the stderr line or a distinctive part of it).
# {port} is a port where nothing listens (the refusal must come before any board).
R = {
    # usage: exit 2, argparse's line with what the command takes
    "no-command": (
        [],
        {},
        2,
        "error: the following arguments are required: command "
        "(python -m host_tools --help lists what it takes)",
    ),
    "bad-command": (["bogus"], {}, 2, "argument command: invalid choice: 'bogus'"),
    "no-action": (["provision"], {}, 2, "the following arguments are required: action"),
    "unknown-option": (["flash", "--bogus"], {}, 2, "unrecognized arguments: --bogus"),
    "abbreviated-option": (
        ["backup", "{tmp}/b", "--forc"],
        {},
        2,
        "unrecognized arguments: --forc",
    ),
    "empty-port": (
        ["flash", "--port", ""],
        {},
        2,
        "argument --port: empty: give a serial "
        "device (/dev/ttyACM0, COM5), socket://host:port, or auto",
    ),
    "empty-firmware": (
        ["flash", "--firmware", ""],
        {},
        2,
        "argument --firmware: an empty name: give a file or folder",
    ),
    "empty-folder-name": (["backup", " "], {}, 2, "argument folder: an empty name"),
    "seat-negative": (
        ["provision", "scan", "--seat", "-1", "--game", "dtwww", "--item", "1"],
        {},
        2,
        "argument --seat: there is no seat -1: seats are 0 to 7 (the centre reader is not a seat)",
    ),
    "seat-8": (
        ["provision", "scan", "--seat", "8", "--game", "dtwww", "--item", "1"],
        {},
        2,
        "there is no seat 8: seats are 0 to 7",
    ),
    "seat-huge": (
        ["provision", "scan", "--seat", "9" * 5000, "--game", "dtwww", "--item", "1"],
        {},
        2,
        "there is no seat 999999999999...: seats are 0 to 7",
    ),
    "seat-word": (
        ["provision", "scan", "--seat", "x", "--game", "dtwww", "--item", "1"],
        {},
        2,
        "argument --seat: 'x' is not a seat number (seats are 0 to 7)",
    ),
    "seat-unicode": (
        ["provision", "scan", "--seat", "\uff13", "--game", "dtwww", "--item", "1"],
        {},
        2,
        "'\uff13' is not a seat number",
    ),
    "timeout-zero": (
        ["provision", "scan", "--seat", "0", "--game", "dtwww", "--item", "1", "--timeout", "0"],
        {},
        2,
        "argument --timeout: '0': the timeout is 1 to 300 seconds",
    ),
    "timeout-nan": (
        ["provision", "scan", "--seat", "0", "--game", "dtwww", "--item", "1", "--timeout", "nan"],
        {},
        2,
        "'nan': the timeout is 1 to 300 seconds",
    ),
    "timeout-huge": (
        [
            "provision",
            "scan",
            "--seat",
            "0",
            "--game",
            "dtwww",
            "--item",
            "1",
            "--timeout",
            "1e400",
        ],
        {},
        2,
        "'1e400': the timeout is 1 to 300 seconds",
    ),
    "timeout-word": (
        ["provision", "scan", "--seat", "0", "--game", "dtwww", "--item", "1", "--timeout", "soon"],
        {},
        2,
        "'soon': the timeout is 1 to 300 seconds",
    ),
    "scan-game": (
        ["provision", "scan", "--seat", "0", "--game", "chess", "--item", "1"],
        {},
        2,
        "argument --game: unknown game 'chess' (games: dtwww, walzer, dicefull, dtt, nokosu)",
    ),
    "scan-item": (
        [
            "provision",
            "scan",
            "--seat",
            "0",
            "--game",
            "dtwww",
            "--item",
            "red d6",
            "--port",
            "{port}",
        ],
        {},
        2,
        "error: argument --item: item 'red d6' of dtwww "
        "is ambiguous: say 'red d6 copy 1' or 'red d6 copy 2'",
    ),
    "scan-item-empty": (
        ["provision", "scan", "--seat", "0", "--game", "dtt", "--item", " ", "--port", "{port}"],
        {},
        2,
        "argument --item: the item is empty",
    ),
    # flash: the folder checked whole before the board (exit 1)
    "flash-empty-folder": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{port}"],
        {"fw": None},
        1,
        "error: {tmp}/fw is not the table's firmware: it "
        "lacks boot.py, main.py, pins.py, maintenance.py, table_config.py, "
        "dicetable/__init__.py, hal/__init__.py; nothing was flashed",
    ),
    "flash-missing-folder": (
        ["flash", "--firmware", "{tmp}/none", "--port", "{port}"],
        {},
        1,
        "error: no firmware folder {tmp}/none (give the firmware folder",
    ),
    "flash-a-file": (
        ["flash", "--firmware", "{tmp}/main.py", "--port", "{port}"],
        {"main.py": "print(1)\n"},
        1,
        "error: {tmp}/main.py is a file, not a firmware folder",
    ),
    "flash-not-compiling": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{port}"],
        {**FIRMWARE_STUBS, "fw/a_bad.py": "def (:\n"},
        1,
        "error: mpy-cross does not compile a_bad.py line 1: SyntaxError: "
        "invalid syntax; nothing was flashed",
    ),
    "flash-file-name": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{port}"],
        {**FIRMWARE_STUBS, "fw/hal/my file.py": "x = 1\n"},
        1,
        "error: hal/my file.py: a firmware file's name is ASCII without "
        "spaces (MicroPython imports it by name); nothing was flashed",
    ),
    "flash-too-many-files": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{port}"],
        {**FIRMWARE_STUBS, **{"fw/x/m%d.py" % i: "" for i in range(501)}},
        1,
        "error: {tmp}/fw holds more than 500 .py files: it is not the "
        "table's firmware; nothing was flashed",
    ),
    "flash-no-board": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{port}"],
        FIRMWARE_STUBS,
        1,
        "NO_BOARD",
    ),
    "flash-port-env": (
        ["flash", "--firmware", "{tmp}/fw"],
        FIRMWARE_STUBS,
        1,
        "NO_BOARD (the port is $DICETABLE_PORT's)",
    ),
    "flash-port-folder": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{tmp}"],
        FIRMWARE_STUBS,
        1,
        "error: no board at {tmp}: not a serial device (a folder); check the cable and the port",
    ),
    "flash-port-not-serial": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "/dev/null"],
        FIRMWARE_STUBS,
        1,
        "error: no board at /dev/null: it did not open "
        "(is another program using it: monitor, Thonny, a terminal?)",
    ),
    "flash-no-usb-board": (
        ["flash", "--firmware", "{tmp}/fw"],
        FIRMWARE_STUBS,
        1,
        "error: no board found on USB: plug in the Pico or pass --port",
    ),
    "flash-no-device": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "{tmp}/ttyACM9"],
        FIRMWARE_STUBS,
        1,
        "error: no board at {tmp}/ttyACM9: no such device",
    ),
    # provision check / import: one reader, the same answer
    "csv-empty": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": ""},
        1,
        "error: {tmp}/t.csv: no tags in it (it is empty, or a header and comments "
        "only): a row is uid_hex,game,item, e.g. 04a1b2c3,dtwww,red d6 copy 1",
    ),
    "csv-header-only": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "uid_hex,game,item\n"},
        1,
        "error: {tmp}/t.csv: no tags in it",
    ),
    "import-empty": (
        ["provision", "import", "{tmp}/t.csv", "--port", "{port}"],
        {"t.csv": "uid_hex,game,item\n# nothing yet\n"},
        1,
        "error: {tmp}/t.csv: no tags in it (it is empty, or a header and comments "
        "only): a row is uid_hex,game,item, e.g. 04a1b2c3,dtwww,red d6 copy 1; "
        "nothing was written",
    ),
    "csv-missing": (
        ["provision", "check", "{tmp}/none.csv"],
        {},
        1,
        "error: {tmp}/none.csv: no such file (give a CSV file of tags",
    ),
    "csv-folder": (
        ["provision", "import", "{tmp}", "--port", "{port}"],
        {},
        1,
        "error: {tmp} is a folder (give a CSV file of tags (uid_hex,game,item))",
    ),
    "csv-utf16": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "uid_hex,game,item\n".encode("utf-16")},
        1,
        "error: {tmp}/t.csv:1:1: UTF-16 text: save the sheet as 'CSV UTF-8 (comma delimited)'",
    ),
    "csv-latin1": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt,hearts Q\n# caf\xe9\n".encode("latin-1")},
        1,
        "error: {tmp}/t.csv:2:6: byte 0xe9 is not UTF-8 (another encoding, or not text)",
    ),
    "csv-binary": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": b"04a1\x00\x01\x02\xff"},
        1,
        "error: {tmp}/t.csv:1:5: binary data (a NUL byte): this is not a CSV file",
    ),
    "csv-huge-field": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt," + "x" * 131073 + "\n"},
        1,
        "error: {tmp}/t.csv:1:14: a cell of 131073 characters (a UID, game or item is at most 200)",
    ),
    "csv-huge-file": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "# padding\n" * 110000},
        1,
        "error: {tmp}/t.csv is larger than 1,048,576 bytes: too large for a CSV file of tags",
    ),
    "csv-open-quote": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": '04a1b2c3,dtt,"hearts Q\n'},
        1,
        "error: {tmp}/t.csv:1:14: this quote is not closed on its line",
    ),
    "csv-after-quote": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": '04a1b2c3,dtt,"hearts" Q\n'},
        1,
        "error: {tmp}/t.csv:1:23: text after a closing quote",
    ),
    "csv-semicolons": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3;dtt;hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:1: one column, its cells separated by ';': save "
        "the sheet as CSV with commas",
    ),
    "csv-control": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt,hearts\x07Q\n"},
        1,
        "error: {tmp}/t.csv:1:20: a control character U+0007",
    ),
    "csv-uid-empty": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": " ,dtt,hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:1: the UID is empty (4, 7 or 10 bytes in hex, e.g. 04a1b2c3)",
    ),
    "csv-uid-hex": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2zz,dtt,hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:1: UID '04a1b2zz' is not hex (4, 7 or 10 bytes, e.g. 04a1b2c3)",
    ),
    "csv-uid-length": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2,dtt,hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:1: UID '04a1b2' has 3 bytes (a tag's UID has 4, 7 or 10)",
    ),
    "csv-game-empty": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,,hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:10: the game is empty (games: dtwww, walzer, dicefull, dtt, nokosu)",
    ),
    "csv-game": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,chess,king\n"},
        1,
        "error: {tmp}/t.csv:1:10: unknown game 'chess' (games: dtwww, walzer, dicefull, "
        "dtt, nokosu)",
    ),
    "csv-item": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,walzer,purple 99\n"},
        1,
        "error: {tmp}/t.csv:1:17: unknown item 'purple 99' in walzer",
    ),
    "csv-item-ambiguous": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtwww,red d6\n"},
        1,
        "error: {tmp}/t.csv:1:16: item 'red d6' of dtwww is ambiguous: say "
        "'red d6 copy 1' or 'red d6 copy 2'",
    ),
    "csv-uid-twice": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt,hearts Q\n04a1b2c3,dtt,hearts K\n"},
        1,
        "error: {tmp}/t.csv:2:1: UID 04a1b2c3 is already on line 1",
    ),
    "csv-item-twice": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt,hearts Q\n04a1b2c4,d-TT,Hearts  q\n"},
        1,
        "error: {tmp}/t.csv:2:15: item hearts Q of dtt already has a tag on line 1",
    ),
    "csv-no-header": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "uid,game,item\n04a1b2c3,dtt,hearts Q\n"},
        1,
        "error: {tmp}/t.csv:1:1: neither a tag nor the header uid_hex,game,item "
        "(a row is uid_hex,game,item, e.g. 04a1b2c3,dtwww,red d6 copy 1)",
    ),
    "csv-columns": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt\n"},
        1,
        "error: {tmp}/t.csv:1:13: expected 3 columns uid_hex,game,item, got 2",
    ),
    "csv-unicode-digit": (
        ["provision", "check", "{tmp}/t.csv"],
        {"t.csv": "04a1b2c3,dtt,\u0663\n"},
        1,
        "error: {tmp}/t.csv:1:14: unknown item '\u0663' in dtt",
    ),
    "csv-bad-rows": (
        ["provision", "import", "{tmp}/t.csv", "--port", "{port}"],
        {"t.csv": BAD_CSV},
        1,
        "error: 2 bad rows in {tmp}/t.csv; nothing was written",
    ),
    # export: never over a file without --force
    "export-exists": (
        ["provision", "export", "{tmp}/t.csv", "--port", "{port}"],
        {"t.csv": "mine\n"},
        1,
        "error: {tmp}/t.csv exists: give --force to "
        "replace it, or another name; nothing was written",
    ),
    "export-folder": (
        ["provision", "export", "{tmp}", "--port", "{port}"],
        {},
        1,
        "error: {tmp} is a folder: give the name of the CSV file to write",
    ),
    "export-no-folder": (
        ["provision", "export", "{tmp}/none/t.csv", "--port", "{port}"],
        {},
        1,
        "error: no folder {tmp}/none to write {tmp}/none/t.csv in",
    ),
    # backup: never over a backup without --force, never half-written
    "backup-exists": (
        ["backup", "{tmp}/bk", "--port", "{port}"],
        {"bk/registry.bin": b"old"},
        1,
        "error: {tmp}/bk is not empty: give a new folder, or --force to replace "
        "that backup (it is replaced whole once the new one is complete)",
    ),
    "backup-a-file": (
        ["backup", "{tmp}/bk", "--port", "{port}"],
        {"bk": b"x"},
        1,
        "error: {tmp}/bk is a file, not a backup folder: give a new folder's name",
    ),
    "backup-under-a-file": (
        ["backup", "{tmp}/f/bk", "--port", "{port}"],
        {"f": b"x"},
        1,
        "error: {tmp}/f is a file: a backup folder cannot go under it",
    ),
    "backup-force-not-a-backup": (
        ["backup", "{tmp}/bk", "--force", "--port", "{port}"],
        {"bk/journal.bin": b"x", "bk/notes.txt": "mine"},
        1,
        "error: {tmp}/bk holds more than a backup (notes.txt): --force "
        "replaces a backup only; give a new folder",
    ),
    "backup-symlink": (
        ["backup", "{tmp}/link", "--port", "{port}"],
        {"LINK link": "{tmp}"},
        1,
        "error: {tmp}/link is a symbolic link: give a new folder's name",
    ),
    "backup-no-board": (["backup", "{tmp}/bk", "--port", "{port}"], {}, 1, "NO_BOARD"),
    # restore: the whole backup checked before the board
    "restore-missing": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {},
        1,
        "error: no backup folder {tmp}/bk (give a folder that backup wrote)",
    ),
    "restore-a-file": (
        ["restore", "{tmp}/journal.bin", "--port", "{port}"],
        {"journal.bin": JOURNAL_BIN},
        1,
        "error: {tmp}/journal.bin is a file, "
        "not a backup folder (give the folder of journal.bin and registry.bin)",
    ),
    "restore-empty": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk": None},
        1,
        "error: {tmp}/bk holds no journal.bin or registry.bin: nothing to restore",
    ),
    "restore-header": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": DICEFULL_0},
        1,
        "error: {tmp}/bk/journal.bin: its header is refused: dicefull is for 2 "
        "to 5 players, not 0; nothing was restored",
    ),
    "restore-size": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": b"DJ" + bytes(98)},
        1,
        "error: {tmp}/bk/journal.bin is 100 bytes, not a journal image (journal.bin,"
        " as backup saves it) (1 to 8 blocks of 4096 bytes); nothing was restored",
    ),
    "restore-not-journal": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": bytes(4096)},
        1,
        "error: {tmp}/bk/journal.bin is not a journal image (journal.bin, "
        "as backup saves it): no block of it starts as a journal segment",
    ),
    "restore-journal-empty": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": b""},
        1,
        "error: {tmp}/bk/journal.bin is empty "
        "(a journal image (journal.bin, as backup saves it) is 1 to 8 "
        "blocks of 4096 bytes); nothing was restored",
    ),
    "restore-cleared": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": CLEARED},
        1,
        "error: {tmp}/bk/journal.bin holds no match (the board had finished "
        "or cleared it); nothing was restored",
    ),
    "restore-refused-action": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": REFUSED_ACTION},
        1,
        "error: {tmp}/bk/journal.bin: action 4 (%#x) is refused by the "
        "walzer rules (" % MATCH.journal[2],
    ),
    "restore-malformed": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": MALFORMED},
        1,
        "error: {tmp}/bk/journal.bin: action 1 (0x288000) is malformed",
    ),
    "restore-damaged": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": DAMAGED},
        1,
        "error: {tmp}/bk/journal.bin is damaged after action 5: restore takes "
        "a whole journal only (replay reads it); nothing was restored",
    ),
    "restore-registry": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": JOURNAL_BIN, "bk/registry.bin": b"DR junk"},
        1,
        "error: {tmp}/bk/registry.bin does not load (its size, check code or "
        "a record is wrong): not a registry; nothing was restored",
    ),
    "restore-journal-folder": (
        ["restore", "{tmp}/bk", "--port", "{port}"],
        {"bk/journal.bin": None},
        1,
        "error: {tmp}/bk/journal.bin is a folder (give a journal image",
    ),
    # replay: one line for whatever it is given
    "replay-missing": (
        ["replay", "{tmp}/none.match"],
        {},
        1,
        "error: {tmp}/none.match: no such file",
    ),
    "replay-folder": (
        ["replay", "{tmp}"],
        {},
        1,
        "error: {tmp} is a folder without a "
        "journal.bin (give a journal.bin, a backup or a match file)",
    ),
    **{
        "replay-" + k: (["replay", "{tmp}/m.match"], {"m.match": v}, 1, "error: {tmp}/m.match:")
        for k, v in MATCH_FILES.items()
    },
    "replay-utf16": (
        ["replay", "{tmp}/m.match"],
        {"m.match": MATCH_FILES["chess"].encode("utf-16")},
        1,
        "error: {tmp}/m.match:1:1: UTF-16 text",
    ),
    "replay-latin1": (
        ["replay", "{tmp}/m.match"],
        {"m.match": "# caf\xe9\n".encode("latin-1")},
        1,
        "error: {tmp}/m.match:1:6: not UTF-8 text (byte 0xe9)",
    ),
    "replay-binary": (
        ["replay", "{tmp}/m.match"],
        {"m.match": b"\x89PNG\r\n\x1a\n\xff"},
        1,
        "neither a match file nor a journal.bin (one starts with the bytes DJ)",
    ),
    "replay-registry": (
        ["replay", "{tmp}/registry.bin"],
        {"registry.bin": REGISTRY_BIN},
        1,
        "error: {tmp}/registry.bin is a registry.bin (the tags), not a match",
    ),
    "replay-header": (
        ["replay", "{tmp}/journal.bin"],
        {"journal.bin": DICEFULL_0},
        1,
        "error: {tmp}/journal.bin: its header is refused: dicefull is for 2 to 5 players, not 0",
    ),
    "replay-refused-action": (
        ["replay", "{tmp}/journal.bin"],
        {"journal.bin": REFUSED_ACTION},
        1,
        ": the replay stops there",
    ),
    "replay-game-number": (
        ["replay", "{tmp}/journal.bin"],
        {"journal.bin": GAME_7},
        1,
        "error: {tmp}/journal.bin: its header is refused: no game 7: the "
        "games are 0 to 4 (dtwww, walzer, dicefull, dtt, nokosu)",
    ),
    "replay-no-header": (
        ["replay", "{tmp}/journal.bin"],
        {"journal.bin": b"DJ" + bytes(4094)},
        1,
        "error: {tmp}/journal.bin is damaged: no segment of it has a whole header (corrupt)",
    ),
    "replay-size": (
        ["replay", "{tmp}/journal.bin"],
        {"journal.bin": b"DJ" + bytes(5000)},
        1,
        "error: {tmp}/journal.bin is 5,002 bytes, not a journal image",
    ),
    # monitor
    "monitor-no-board": (["monitor", "--port", "{port}"], {}, 1, "NO_BOARD"),
    "monitor-no-usb-board": (
        ["monitor"],
        {},
        1,
        "error: no board found on USB: plug in the Pico or pass --port",
    ),
}
REFUSALS = R


@pytest.fixture
def no_usb(monkeypatch):
    """No USB serial port on this computer, and no DICETABLE_PORT."""
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [])
    monkeypatch.delenv("DICETABLE_PORT", raising=False)


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refusal(case, tmp_path, capsys, no_usb, monkeypatch):
    argv, files, status, line = REFUSALS[case]
    make_files(tmp_path, files)
    if case == "flash-port-env":
        monkeypatch.setenv("DICETABLE_PORT", NOBODY)
    before = host_state(tmp_path)
    got = main([fill(a, tmp_path, NOBODY) for a in argv])
    err = capsys.readouterr().err
    assert got == status, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines and lines[-1].startswith("error: "), err
    if case != "csv-bad-rows":
        assert len(lines) == 1, err
    expected = fill(line.replace("NO_BOARD", NO_BOARD_AT % NOBODY), tmp_path, NOBODY)
    assert expected in lines[-1], err
    assert host_state(tmp_path) == before  # nothing written, nothing removed


def test_bad_rows_each_by_line_and_column(tmp_path, capsys):
    (tmp_path / "t.csv").write_text(BAD_CSV)
    assert main(["provision", "check", str(tmp_path / "t.csv")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "%s/t.csv:3:16: item 'red d6' of dtwww is ambiguous: say 'red d6 copy 1' or "
        "'red d6 copy 2'" % tmp_path,
        "%s/t.csv:4:1: UID 04a1b2c3 is already on line 2" % tmp_path,
        "error: 2 bad rows in %s/t.csv" % tmp_path,
    ]


def test_check_and_import_agree(tmp_path, capsys):
    """What check calls good, import takes: the one reader for both."""
    (tmp_path / "t.csv").write_text(ALL_CSV)
    assert main(["provision", "check", str(tmp_path / "t.csv")]) == 0
    assert capsys.readouterr().out == "%s/t.csv: %d tags, all rows good\n" % (tmp_path, TAGS)
    assert registry_csv.read_csv(tmp_path / "t.csv") == registry_csv.parse_csv(ALL_CSV)


# --- what is not a regular file ------------------------------------------------------

# Refused before it is opened (open() of a FIFO waits for ever, /dev/zero never
# ends), by the real command with a timeout: a door that opens one fails here
# instead of hanging.  A folder keeps each door's own words.  {path} is the
# thing itself (or a folder's file that is it: b/journal.bin, fw/extra.py).
KINDS = {
    "fifo": "a FIFO",
    "dev-null": "a character device",
    "folder": None,
    "socket": "a socket",
    "link-to-fifo": "a FIFO",
}
SET = "not a regular file (%s); give a challenge set, e.g. docs/examples/dicefull-challenges.txt"
CSV_TAGS = "a CSV file of tags (uid_hex,game,item)"
FIRMWARE_HINT = "give the firmware folder, e.g. --firmware firmware (the default)"
# door -> (argv, where the thing goes, the line for it, the line for a folder
# (None: a folder is what the door takes there))
FILE_DOORS = {
    "challenges-check": (
        ["challenges", "check", "{path}"],
        "x",
        "{path}: " + SET,
        "{path}: a folder, not a challenge set (give a text file)",
    ),
    "challenges-put": (
        ["challenges", "put", "{path}", "--port", NOBODY],
        "x",
        "{path}: " + SET,
        "{path}: a folder, not a challenge set (give a text file)",
    ),
    "replay-challenges": (
        ["replay", "{tmp}/none.match", "--challenges", "{path}"],
        "x",
        "{path}: " + SET,
        "{path}: a folder, not a challenge set (give a text file)",
    ),
    "replay": (
        ["replay", "{path}"],
        "x",
        "{path}: not a regular file (%s); give a journal.bin, a backup folder or a match file",
        "{path} is a folder without a journal.bin (give a journal.bin, a backup or a match file)",
    ),
    "replay-backup": (
        ["replay", "{tmp}/b"],
        "b/journal.bin",
        "{path}: not a regular file (%s); give a journal.bin, a backup folder or a match file",
        "{path}: a folder, not a match file (python -m host_tools replay reads a backup folder)",
    ),
    "provision-check": (
        ["provision", "check", "{path}"],
        "x",
        "{path}: not a regular file (%s); give " + CSV_TAGS,
        "{path} is a folder (give %s)" % CSV_TAGS,
    ),
    "provision-import": (
        ["provision", "import", "{path}", "--port", NOBODY],
        "x",
        "{path}: not a regular file (%s); give " + CSV_TAGS,
        "{path} is a folder (give %s)" % CSV_TAGS,
    ),
    "restore": (
        ["restore", "{path}", "--port", NOBODY],
        "x",
        "{path} is %s, not a backup folder (give the folder of journal.bin and registry.bin)",
        None,
    ),
    "restore-journal": (
        ["restore", "{tmp}/b", "--port", NOBODY],
        "b/journal.bin",
        "{path}: not a regular file (%s); give a journal image (journal.bin); nothing was restored",
        "{path} is a folder (give a journal image (journal.bin)); nothing was restored",
    ),
    "restore-registry": (
        ["restore", "{tmp}/b", "--port", NOBODY],
        "b/registry.bin",
        "{path}: not a regular file (%s); give a registry.bin (as backup saves it);"
        " nothing was restored",
        "{path} is a folder (give a registry.bin (as backup saves it)); nothing was restored",
    ),
    "flash": (
        ["flash", "--firmware", "{path}", "--port", NOBODY],
        "x",
        "{path} is %s, not a firmware folder (" + FIRMWARE_HINT + ")",
        None,
    ),
    "flash-source": (
        ["flash", "--firmware", "{tmp}/fw", "--port", NOBODY],
        "fw/extra.py",
        "extra.py: not a regular file (%s); nothing was flashed",
        None,
    ),
}
FILE_CASES = [
    (door, kind)
    for door in sorted(FILE_DOORS)
    for kind in sorted(KINDS)
    if KINDS[kind] or FILE_DOORS[door][3]
]


def not_a_regular_file(kind, tmp, where, monkeypatch):
    """tmp/where made what `kind` names; its path ('/dev/null' itself for
    dev-null when the door takes the path)."""
    path = tmp / where
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "dev-null":
        if where == "x":
            return "/dev/null"
        path.symlink_to("/dev/null")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":  # bound by a short relative name: AF_UNIX paths are short
        monkeypatch.chdir(path.parent)
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(path.name)
    else:
        os.mkfifo(tmp / "real.fifo")
        path.symlink_to(tmp / "real.fifo")
    return str(path)


@pytest.mark.parametrize("door, kind", FILE_CASES, ids=["%s-%s" % c for c in FILE_CASES])
def test_what_is_not_a_regular_file_is_refused_before_it_is_opened(
    door, kind, tmp_path, monkeypatch
):
    argv, where, line, folder_line = FILE_DOORS[door]
    if door == "flash-source":  # the firmware's files, empty: extra.py is refused first
        make_files(tmp_path, {"fw/" + name: "" for name in REQUIRED})
    path = not_a_regular_file(kind, tmp_path, where, monkeypatch)
    before = listing(tmp_path)
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "host_tools",
            *(fill(a, tmp_path, NOBODY).replace("{path}", path) for a in argv),
        ],
        cwd=ROOT,
        capture_output=True,
        timeout=30,
        check=False,
        env={**os.environ, "DICETABLE_PORT": ""},
    )
    said = KINDS[kind]
    expected = (line % said if said else folder_line).replace("{path}", path)
    assert (p.returncode, p.stdout, p.stderr.decode()) == (1, b"", "error: %s\n" % expected)
    assert listing(tmp_path) == before  # nothing written, nothing removed


def listing(tmp):
    """host_state() without opening what is not a regular file (a FIFO would block)."""
    return {
        p.relative_to(tmp).as_posix(): p.read_bytes()
        if stat.S_ISREG(p.lstat().st_mode)
        else stat.S_IFMT(p.lstat().st_mode)
        for p in sorted(tmp.rglob("*"))
    }


# --- with a board -------------------------------------------------------------------

SNAPSHOT = """\
import os, hashlib, binascii
def _w(p, r):
    for e in os.ilistdir(p if p else '.'):
        n = (p + '/' if p else '') + e[0]
        if e[1] & 0x4000:
            if n != 'proc':
                _w(n, r)
        else:
            h = hashlib.sha256()
            with open(n, 'rb') as f:
                h.update(f.read())
            r[n] = binascii.hexlify(h.digest()).decode()
    return r
print(repr(_w('', {})))
del _w
"""


def snapshot(url: str) -> dict[str, str]:
    """Every file on the board: {path: sha256}."""
    import ast

    from host_tools.board import Board

    with Board(url) as b:
        return ast.literal_eval(b.exec(SNAPSHOT).strip())


@functools.lru_cache(maxsize=None)
def board_files() -> dict[str, bytes]:
    """A board's flash with the full registry and the Walzer match running (made once:
    the journal's area number is drawn at random)."""
    from flashmodel.vflash import VFlash
    from hal.storage import Storage

    flash = VFlash()
    s = Storage(flash)
    s.new_match(HEADER, tuple(WORDS[:2]))
    for a in WORDS[2:]:
        s.append(a)
    files = {s.segment_path(i): bytes(flash.open(s.segment_path(i), "rb").read()) for i in range(8)}
    files["journal.map"] = bytes(flash.files["journal.map"])
    files["registry.bin"] = REGISTRY_BIN
    return files


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """One virtual board for the module: the full registry and a Walzer match."""
    from sim.vboard import VirtualBoard

    folder = tmp_path_factory.mktemp("flash")
    for name, data in board_files().items():
        (folder / name).write_bytes(data)
    with VirtualBoard(folder) as vb:
        yield vb.url


BOARD_REFUSALS = {
    # id -> (argv, files, exit status, the stderr line or a part of it)
    "board-flash-empty-folder": (
        ["flash", "--firmware", "{tmp}/fw"],
        {"fw": None},
        1,
        "lacks boot.py, main.py",
    ),
    "board-import-would-remove": (
        ["provision", "import", "{tmp}/t.csv"],
        {"t.csv": FEW_CSV},
        1,
        "error: importing {tmp}/t.csv would remove %d of the board's %d tags"
        % (TAGS - 4, TAGS)
        + " (0409005c = dtwww red d12 copy 1, ...): give "
        "--replace to allow it, or add them to the file (export writes "
        "them); nothing was written",
    ),
    "board-import-header-only": (
        ["provision", "import", "{tmp}/t.csv", "--replace"],
        {"t.csv": "uid_hex,game,item\n"},
        1,
        "no tags in it",
    ),
    "board-restore-header": (
        ["restore", "{tmp}/bk"],
        {"bk/journal.bin": DICEFULL_0, "bk/registry.bin": REGISTRY_BIN},
        1,
        "its header is refused: dicefull is for 2 to 5 players, not 0",
    ),
    "board-backup-exists": (
        ["backup", "{tmp}/bk"],
        {"bk/notes.txt": "mine"},
        1,
        "is not empty: give a new folder, or --force",
    ),
    "board-scan-taken": (
        [
            "provision",
            "scan",
            "--seat",
            "0",
            "--game",
            "dtwww",
            "--item",
            "red d6 copy 1",
            "--timeout",
            "1",
        ],
        {},
        1,
        "error: dtwww red d6 copy 1 already has a tag (0403005c): export, "
        "edit and import to change it; nothing was written",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BOARD_REFUSALS))
def test_board_refusal(case, board, tmp_path, capsys):
    argv, files, status, line = BOARD_REFUSALS[case]
    make_files(tmp_path, files)
    before = host_state(tmp_path)
    on_board = snapshot(board)
    got = main([fill(a, tmp_path, board) for a in argv] + ["--port", board])
    err = capsys.readouterr().err
    assert got == status, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert fill(line, tmp_path, board) in err, err
    assert snapshot(board) == on_board  # the board did not change
    assert host_state(tmp_path) == before


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.err.strip()


@pytest.mark.slow
def test_what_restore_backup_and_import_say(board, tmp_path, capsys):
    """The successes name what they did and what they checked; a backup never mixes
    two boards' files; and the board ends as the module's fixture made it."""
    original = snapshot(board)
    src = tmp_path / "src"
    make_files(src, {"journal.bin": JOURNAL_BIN, "registry.bin": REGISTRY_BIN})
    try:
        # restore: exactly what was restored and checked
        status, err = _run(capsys, "restore", src, "--port", board)
        assert status == 0 and err == (
            "restored registry.bin (%d tags; checked: it loads) and journal.bin (walzer, 4 "
            "players, %d actions; checked: replays to the end) from %s; nothing else changed"
            % (TAGS, len(MATCH.journal), src)
        )
        # a backup of only a registry leaves the board's journal as it was
        regonly = tmp_path / "regonly"
        make_files(regonly, {"registry.bin": REGISTRY_BIN})
        segments = {k: v for k, v in snapshot(board).items() if k.startswith("journal")}
        status, err = _run(capsys, "restore", regonly, "--port", board)
        assert status == 0 and err.endswith(
            "the board's journal was left as it was (the backup has no journal.bin); nothing "
            "else changed"
        )
        assert {k: v for k, v in snapshot(board).items() if k.startswith("journal")} == segments
        # backup, then a board without a registry backed up over it: no registry.bin mixed in
        out = tmp_path / "bk"
        status, err = _run(capsys, "backup", out, "--port", board)
        assert status == 0 and err == (
            "backed up journal.bin (walzer, 4 players, %d actions) "
            "and registry.bin (%d tags) to %s" % (len(MATCH.journal), TAGS, out)
        )
        from host_tools.board import Board

        with Board(board) as b:
            b.remove("registry.bin")
        status, err = _run(capsys, "backup", out, "--port", board, "--force")
        assert status == 0 and err.endswith("(the backup that was there is replaced)")
        assert sorted(p.name for p in out.iterdir()) == ["journal.bin"]
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
        # import: the tags it would remove need --replace, and it says what changed
        (tmp_path / "all.csv").write_text(ALL_CSV)
        (tmp_path / "few.csv").write_text(FEW_CSV)
        status, err = _run(
            capsys, "provision", "import", tmp_path / "all.csv", "--port", board, "--no-reset"
        )
        assert status == 0 and err == (
            "the board's registry is now the %d tags of %s/all.csv "
            "(%d added, 0 changed, 0 removed)" % (TAGS, tmp_path, TAGS)
        )
        status, err = _run(capsys, "provision", "import", tmp_path / "all.csv", "--port", board)
        assert status == 0 and err == (
            "the board's registry already holds exactly the %d tags"
            " of %s/all.csv: nothing was written" % (TAGS, tmp_path)
        )
        status, err = _run(
            capsys,
            "provision",
            "import",
            tmp_path / "few.csv",
            "--port",
            board,
            "--replace",
            "--no-reset",
        )
        assert status == 0 and err.endswith("(0 added, 0 changed, %d removed)" % (TAGS - 4))
        # scan on a board without the firmware: what the board said, in one line
        status, err = _run(
            capsys,
            "provision",
            "scan",
            "--seat",
            "1",
            "--game",
            "dtt",
            "--item",
            "hearts Q",
            "--timeout",
            "1",
            "--port",
            board,
        )
        assert status == 1 and err.splitlines() == [
            "put the tag for hearts Q on the reader of seat 1 (waiting 1 s)",
            "error: the board said: ImportError: no module named 'pins'",
        ]
        # a board with nothing on it: nothing to back up, nothing written
        with Board(board) as b:
            for name in b.listdir(""):
                if name.startswith("journal") or name == "registry.bin":
                    b.remove(name)
        status, err = _run(capsys, "backup", tmp_path / "bk2", "--port", board)
        assert status == 1 and err == (
            "error: the board has no journal and no registry.bin: "
            "nothing to back up; nothing was written"
        )
        assert not (tmp_path / "bk2").exists()
    finally:
        from host_tools.board import Board

        with Board(board) as b:
            for name in b.listdir(""):
                if name not in original and name.startswith(("journal", "registry")):
                    b.remove(name)
            for name, data in board_files().items():
                b.write(name, data)
    assert snapshot(board) == original


@pytest.mark.slow
def test_ctrl_c_in_a_restore_leaves_the_board_as_it_was(board, tmp_path, capsys, monkeypatch):
    from host_tools.board import Board

    src = tmp_path / "src"
    make_files(src, {"journal.bin": encode(HEADER, WORDS[:40]), "registry.bin": REGISTRY_BIN})
    before = {k: v for k, v in snapshot(board).items() if not k.endswith(".tmp")}
    calls = []
    real = Board._put

    def put(self, tmp, data, path):
        calls.append(tmp)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, tmp, data, path)

    monkeypatch.setattr(Board, "_put", put)
    status, err = _run(capsys, "restore", src, "--port", board)
    assert status == 130 and err == (
        "interrupted (Ctrl-C): the board has its old files or all "
        "the restored ones, never a mix; run restore again"
    )
    monkeypatch.undo()
    after = {k: v for k, v in snapshot(board).items() if not k.endswith(".tmp")}
    assert after == before


@pytest.mark.slow
def test_ctrl_c_in_a_backup_or_an_export_writes_nothing(board, tmp_path, capsys, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    status, err = _run(capsys, "backup", tmp_path / "bk", "--port", board)
    assert status == 130 and err == ("interrupted (Ctrl-C): no backup folder is left half-written")
    status, err = _run(capsys, "provision", "export", tmp_path / "t.csv", "--port", board)
    assert status == 130 and err == "interrupted (Ctrl-C): no file is left half-written"
    assert list(tmp_path.iterdir()) == []  # no folder, no temporary left


INTERRUPTS = {
    # command -> (argv, the function interrupted, what Ctrl-C says)
    "flash": (["flash", "--port", NOBODY], "host_tools.flash.build", "nothing was changed"),
    "import": (
        ["provision", "import", "{tmp}/t.csv", "--port", NOBODY],
        "host_tools.board.Board.__init__",
        "nothing was changed",
    ),
    "check": (["provision", "check", "{tmp}/t.csv"], "host_tools.registry_csv.parse_csv", ""),
    "replay": (["replay", "{tmp}/journal.bin"], "host_tools.replay.replay", ""),
    "restore": (["restore", "{tmp}"], "host_tools.backup.check_replays", "nothing was changed"),
}


@pytest.mark.parametrize("command", sorted(INTERRUPTS))
def test_ctrl_c_before_the_board(command, tmp_path, capsys, monkeypatch):
    argv, where, note = INTERRUPTS[command]
    make_files(tmp_path, {"t.csv": ALL_CSV, "journal.bin": JOURNAL_BIN})

    def interrupt(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(where, interrupt)
    before = host_state(tmp_path)
    status, err = _run(capsys, *[fill(a, tmp_path, NOBODY) for a in argv])
    assert status == 130
    assert err == "interrupted (Ctrl-C)" + (": " + note if note else "")
    assert host_state(tmp_path) == before


# --- signals, pipes, make -------------------------------------------------------------


def _popen(*args, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "host_tools", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


@pytest.mark.slow
def test_ctrl_c_exits_130_with_one_line(board):
    p = _popen("monitor", "--port", board)
    assert p.stderr is not None
    first = p.stderr.readline().decode()  # once it follows the port
    assert first.startswith("following the board's log at")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=20)
    assert p.returncode == 130
    assert err.decode() == "interrupted (Ctrl-C): stopped\n"


def test_a_closed_pipe_ends_quietly(tmp_path):
    (tmp_path / "t.csv").write_text(ALL_CSV)
    path = tmp_path / "w.match"
    from sim import matchfile

    matchfile.write(str(path), MATCH)
    for args in (("replay", path), ("provision", "check", tmp_path / "t.csv")):
        p = _popen(*args)
        assert p.stdout is not None and p.stderr is not None
        p.stdout.close()  # `| head` that has read enough
        err = p.stderr.read()
        p.wait(timeout=30)
        assert (p.returncode, err) == (141, b"")


@pytest.mark.slow
def test_make_flash_without_a_board_is_one_line():
    r = subprocess.run(
        [
            "make",
            "-s",
            "-o",
            ".venv/.installed",
            "-o",
            "node_modules/.installed",
            "flash",
            "PORT=" + NOBODY,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2  # make's own status for a failed recipe
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0] == NO_BOARD_AT % NOBODY


# --- fuzzing: the tool's own error or success, never a partial effect ----------------


class FakeBoard:
    """A board in a dict, for fuzzing the commands without a board."""

    files: dict[str, bytes] = {}

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url

    def close(self) -> None:
        pass

    def exists(self, path: str) -> bool:
        return path in self.files

    def read(self, path: str) -> bytes:
        return self.files[path]

    def write(self, path: str, data: bytes) -> None:
        self.files[path] = bytes(data)

    def write_many(self, files, remove=()):
        for path in remove:
            self.files.pop(path, None)
        self.files.update(files)

    def soft_reset(self) -> None:
        pass

    output = ""  # what code run on it prints

    def exec(self, code: str, timeout: float = 30.0) -> str:
        return self.output


class ForgetfulBoard(FakeBoard):
    """A board that does not keep what is written to it."""

    def write(self, path: str, data: bytes) -> None:
        self.files[path] = bytes(data)[:-1]


@pytest.fixture
def fake_board(monkeypatch):
    import host_tools.board

    monkeypatch.setattr(host_tools.board, "Board", FakeBoard)
    FakeBoard.output = ""
    return FakeBoard


JUNK_REGISTRY = {"registry.bin": b"DR\x01junk"}
TWO_TAGS = {"registry.bin": registry_csv.to_registry_bin(ENTRIES[:2])}
SCAN = [
    "provision",
    "scan",
    "--seat",
    "2",
    "--game",
    "dtt",
    "--item",
    "hearts Q",
    "--timeout",
    "1.5",
    "--port",
    "x",
]
FAKE_BOARD_REFUSALS = {
    # id -> (argv, the board's files, what the board prints, the stderr's last line)
    "scan-none": (
        SCAN,
        TWO_TAGS,
        "UID none\n",
        "error: no tag read on seat 2 in 1.5 s: put the tag flat on the reader and try again",
    ),
    "scan-two": (SCAN, TWO_TAGS, "UID two\n", "error: two tags on the reader of seat 2: put one"),
    "scan-unfitted": (
        SCAN,
        TWO_TAGS,
        "UID unfitted\n",
        "error: seat 2 has no reader (table_config.seats says which seats are fitted)",
    ),
    "scan-garbled": (SCAN, TWO_TAGS, "what?\n", "error: the board said: what?"),
    "scan-uid-taken": (
        SCAN,
        TWO_TAGS,
        "UID %s\n" % ENTRIES[0][0].hex(),
        "error: the tag %s: UID %s is already in the board's registry (export, "
        "edit and import to change it); nothing was written"
        % (ENTRIES[0][0].hex(), ENTRIES[0][0].hex()),
    ),
    "scan-registry-damaged": (
        SCAN,
        JUNK_REGISTRY,
        "",
        "error: the board's registry.bin does "
        "not load (damaged): import a CSV with --replace first; nothing "
        "was written",
    ),
    "import-registry-damaged": (
        ["provision", "import", "{tmp}/t.csv", "--port", "x"],
        JUNK_REGISTRY,
        "",
        "error: the board's registry.bin does not "
        "load (damaged): give --replace to overwrite it with the %d "
        "tags of {tmp}/t.csv; nothing was written" % TAGS,
    ),
    "export-registry-damaged": (
        ["provision", "export", "-", "--port", "x"],
        JUNK_REGISTRY,
        "",
        "error: the board's registry.bin does not load (damaged): "
        "nothing to export; import a CSV with --replace to write a new "
        "one",
    ),
    "import-read-back": (
        ["provision", "import", "{tmp}/t.csv", "--port", "x", "--replace"],
        "FORGETFUL",
        "",
        "error: the registry read back from the board differs from what was written: import again",
    ),
}


@pytest.mark.parametrize("case", sorted(FAKE_BOARD_REFUSALS))
def test_board_answer_refusal(case, fake_board, tmp_path, capsys, monkeypatch):
    argv, files, output, line = FAKE_BOARD_REFUSALS[case]
    if files == "FORGETFUL":
        import host_tools.board

        monkeypatch.setattr(host_tools.board, "Board", ForgetfulBoard)
        files = {}
    fake_board.files = dict(files)
    fake_board.output = output
    (tmp_path / "t.csv").write_text(ALL_CSV)
    status, err = _run(capsys, *[fill(a, tmp_path, "x") for a in argv])
    assert status == 1 and err.splitlines()[-1] == fill(line, tmp_path, "x"), err
    if case != "import-read-back":
        assert fake_board.files == files  # nothing written


ON_THE_BOARD = {
    # command -> (argv, what is interrupted, what Ctrl-C says)
    "flash": (
        ["flash", "--firmware", "{tmp}/fw", "--port", "x"],
        "host_tools.flash.flash_build",
        "the flash may not be finished: the board starts in maintenance mode; run flash again",
    ),
    "import": (
        ["provision", "import", "{tmp}/t.csv", "--port", "x", "--replace"],
        "FakeBoard.write",
        "the board's registry is the old one or the new one, never half of one; export shows which",
    ),
    "scan": (
        SCAN,
        "FakeBoard.exec",
        "the board's registry is the old one or the new one, never half of one",
    ),
}


@pytest.mark.parametrize("command", sorted(ON_THE_BOARD))
def test_ctrl_c_on_the_board(command, fake_board, tmp_path, capsys, monkeypatch):
    argv, where, note = ON_THE_BOARD[command]
    make_files(tmp_path, {**FIRMWARE_STUBS, "t.csv": ALL_CSV})

    def interrupt(*args, **kw):
        raise KeyboardInterrupt

    owner, _, name = where.rpartition(".")
    monkeypatch.setattr(
        FakeBoard if owner == "FakeBoard" else importlib.import_module(owner), name, interrupt
    )
    fake_board.files = dict(TWO_TAGS)
    status, err = _run(capsys, *[fill(a, tmp_path, "x") for a in argv])
    assert status == 130 and err.splitlines()[-1] == "interrupted (Ctrl-C): " + note
    assert fake_board.files == TWO_TAGS


def test_scan_registers_the_tag(fake_board, capsys):
    fake_board.files = dict(TWO_TAGS)
    fake_board.output = "UID 04aabbcc\n"
    status = main(SCAN)
    captured = capsys.readouterr()
    assert status == 0 and captured.out == "04aabbcc = dtt hearts Q (3 tags)\n"
    assert captured.err == "put the tag for hearts Q on the reader of seat 2 (waiting 1.5 s)\n"
    assert sorted(registry_csv.from_registry_bin(fake_board.files["registry.bin"])) == sorted(
        ENTRIES[:2] + [(bytes.fromhex("04aabbcc"), 3, registry_csv.item_by_name(3, "hearts Q"))]
    )


@pytest.mark.slow
def test_a_board_that_goes_quiet_or_away(board, capsys, monkeypatch):
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    import host_tools.board

    def quiet(self, soft_reset=True, timeout_overall=10):
        raise TransportError("could not enter raw repl")

    with monkeypatch.context() as m:
        m.setattr(SerialTransport, "enter_raw_repl", quiet)
        status, err = _run(capsys, "provision", "export", "-", "--port", board)
    assert status == 1 and err == (
        "error: the device at %s does not answer with a MicroPython REPL within 5 s (could not "
        "enter raw repl): hold the maintenance button while plugging it in, then try again" % board
    )

    def gone(self, command, timeout=10, data_consumer=None):
        raise TransportError("timeout waiting for first EOF reception")

    with monkeypatch.context() as m:
        m.setattr(SerialTransport, "exec_raw", gone)
        status, err = _run(capsys, "provision", "export", "-", "--port", board)
    assert status == 1 and err == (
        "error: lost the board at %s: timeout waiting for first EOF reception" % board
    )
    assert host_tools.board.Board is not None


@pytest.mark.slow
def test_monitor_of_a_board_that_goes_away(capsys):
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    url = "socket://127.0.0.1:%d" % server.getsockname()[1]

    def board():
        conn, _ = server.accept()
        time.sleep(0.5)  # pyserial drops what arrives while it opens
        conn.sendall(b"registry: 3 tags\r\n")
        time.sleep(0.2)
        conn.close()  # the cable pulled

    t = threading.Thread(target=board, daemon=True)
    t.start()
    try:
        status = main(["monitor", "--port", url])
    finally:
        t.join(5)
        server.close()
    captured = capsys.readouterr()
    assert status == 1 and captured.out.endswith("BOOT     registry: 3 tags\n")
    assert captured.err.splitlines() == [
        "following the board's log at %s (Ctrl-C stops)" % url,
        "error: the board at %s went away (read failed: socket disconnected): was the cable "
        "pulled?" % url,
    ]


def test_a_fault_of_the_tool_is_one_line_too(tmp_path, capsys, monkeypatch):
    def boom(*args, **kw):
        raise RuntimeError("boom")

    monkeypatch.setattr("host_tools.replay.replay", boom)
    (tmp_path / "journal.bin").write_bytes(JOURNAL_BIN)
    status, err = _run(capsys, "replay", tmp_path / "journal.bin")
    assert status == 1 and err == (
        "error: unexpected RuntimeError: boom (a fault of host_tools: "
        "please report it with the command; DICETABLE_DEBUG=1 says "
        "where)"
    )


def test_the_current_folder_is_not_a_backup_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, err = _run(capsys, "backup", ".", "--port", NOBODY)
    assert status == 1 and err == (
        "error: . is the current folder or holds it: give a new folder's name for the backup"
    )


CELLS = st.one_of(
    st.sampled_from(["04a1b2c3", "04:A1:B2:C4", "0455e2aa6c2d80", "zz", "04a1b2", "", " "]),
    st.sampled_from(list(GAMES) + ["DTwww", "d-TT", "chess", ""]),
    st.sampled_from(
        [
            "red d6 copy 1",
            "red d6",
            "hearts Q",
            "X2",
            "1056",
            "purple die 3",
            "0",
            "\u0663",
            "9" * 30,
        ]
    ),
    st.text(max_size=12),
)
LINES = st.lists(
    st.one_of(
        st.lists(CELLS, max_size=5).map(lambda cs: ",".join(cs)),
        st.lists(CELLS, max_size=4).map(
            lambda cs: ",".join('"%s"' % c.replace('"', '""') for c in cs)
        ),
        st.sampled_from(["uid_hex,game,item", "# a comment", "", '"open', 'a"b,c', "a;b;c"]),
        st.text(max_size=30),
    ),
    max_size=8,
)
CSV_BYTES = st.one_of(
    LINES.map(lambda ls: "\n".join(ls).encode("utf-8")),
    LINES.map(lambda ls: "\r\n".join(ls).encode("utf-16")),
    st.binary(max_size=200),
)
FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@FUZZ
@given(data=CSV_BYTES)
def test_fuzz_the_csv_reader(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(data)
    try:
        entries = registry_csv.read_csv(path)
    except ToolError as e:
        event("refused")
        assert str(e) and "\n" not in str(e)
    else:
        event("read")
        assert entries and len({e[0] for e in entries}) == len(entries)


@pytest.mark.slow
@FUZZ
@given(data=CSV_BYTES, replace=st.booleans())
def test_fuzz_import_writes_the_whole_registry_or_nothing(
    data, replace, tmp_path_factory, fake_board, capsys
):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(data)
    fake_board.files = {"registry.bin": registry_csv.to_registry_bin(ENTRIES[:3])}
    before = dict(fake_board.files)
    status = main(
        ["provision", "import", str(path), "--port", "x", "--no-reset"] + ["--replace"] * replace
    )
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.splitlines()[-1:] != []
    event("imported" if status == 0 else "refused")
    if status == 0:
        assert registry_csv.from_registry_bin(fake_board.files["registry.bin"]) == sorted(
            registry_csv.read_csv(path)
        )
    else:
        assert status == 1 and err.splitlines()[-1].startswith("error: ")
        assert fake_board.files == before


def _mutations():
    return st.tuples(
        st.sampled_from([JOURNAL_BIN, DICEFULL_0, REFUSED_ACTION, MALFORMED, DAMAGED]),
        st.lists(st.tuples(st.integers(0, len(JOURNAL_BIN) - 1), st.integers(0, 255)), max_size=6),
        st.one_of(st.none(), st.integers(0, len(JOURNAL_BIN))),
    )


def _mutate(base, flips, cut):
    image = bytearray(base)
    for at, value in flips:
        image[at] = value
    return bytes(image if cut is None else image[:cut])


@pytest.mark.slow
@FUZZ
@given(how=_mutations(), noise=st.binary(max_size=64))
def test_fuzz_the_journal_reader(how, noise):
    for data in (_mutate(*how), noise, noise * 64):
        try:
            journal = read_image(data)
            check_replays(journal)
            event("replays")
        except JournalError as e:
            assert str(e) and "\n" not in str(e)


@pytest.mark.slow
@FUZZ
@given(
    how=_mutations(), registry=st.one_of(st.none(), st.just(REGISTRY_BIN), st.binary(max_size=40))
)
def test_fuzz_restore_checks_all_or_nothing(how, registry, tmp_path_factory, fake_board, capsys):
    folder = tmp_path_factory.mktemp("bk")
    image = _mutate(*how)
    (folder / "journal.bin").write_bytes(image)
    if registry is not None:
        (folder / "registry.bin").write_bytes(registry)
    fake_board.files = {"registry.bin": b"old", "journal0.seg": b"old", "journal.map": b"map"}
    before = dict(fake_board.files)
    status = main(["restore", str(folder), "--port", "x"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    event("restored" if status == 0 else "refused")
    if status == 0:
        assert err.startswith("restored ")
        assert "journal.map" not in fake_board.files
        journal = read_image(image)
        assert journal.status != 2 + 1  # never a damaged one (hal.storage.CORRUPT)
        assert check_replays(journal) == len(journal.actions)
        restored = b"".join(fake_board.files["journal%d.seg" % i] for i in range(8))
        assert read_image(restored).words == journal.words
        if registry is not None:
            assert fake_board.files["registry.bin"] == registry
    else:
        assert status == 1 and err.startswith("error: ") and "nothing was restored" in err
        assert fake_board.files == before


def test_backup_module_reads_what_restore_checks():
    checked = bk.check_journal(JOURNAL_BIN)
    assert checked == "walzer, 4 players, %d actions" % len(MATCH.journal)
    with pytest.raises(bk.RestoreError, match="its header is refused"):
        bk.check_journal(DICEFULL_0)
    assert bk.check_registry(REGISTRY_BIN) == TAGS
