"""The tag registry as CSV, and as the board's registry.bin.

A registry entry is (uid bytes, game index, item): the game in engine.GAMES
order, the item in its rules-core encoding (firmware/dicetable/app/registry.py).
The CSV is the firmware's export_csv format, a header then one tag a row:

    uid_hex,game,item
    04a1b2c3,dtwww,1056
    04a1b2c4,dtwww,red d6 copy 1
    04a1b2c5,nokosu,purple die 3

`item` is either the decimal item number or the item's name as the table
names it (games.item_name: 'red d6', 'hearts Q', 'X2', 'purple card 4').  A
name several items share (DTwww has two red d6) takes ' copy N' (N from 1).
`game` is the engine name (dtwww, walzer, dicefull, dtt, nokosu) or the
title (DTwww, Walzer, Dicefull, d-TT, Nokosu).  Names are matched without
regard to case or repeated spaces; a UID may be written with ':', '-' or
spaces between its bytes.

parse_csv() checks every row and raises CsvError listing every bad one by
line (unknown game, unknown or ambiguous item, bad UID, the same UID twice,
the same item twice), so a caller writes nothing unless all rows are good.
"""

from __future__ import annotations

import csv
import io
from typing import Iterable

import sim  # noqa: F401  (puts firmware/ on sys.path)
from dicetable.app import games
from dicetable.app.registry import pack, uid_hex, unpack
from dicetable.match.engine import GAMES
from hal.storage import OK, Storage

HEADER = ("uid_hex", "game", "item")
REGISTRY_FILE = "registry.bin"

Entry = tuple[bytes, int, int]


class CsvError(ValueError):
    """Every bad row of a CSV: `errors` is [(line number, message)]."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = errors
        super().__init__("\n".join("line %d: %s" % e for e in errors))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def game_index(name: str) -> int:
    """The game index of an engine name or a title; ValueError if none."""
    key = _norm(name)
    for g in range(len(GAMES)):
        if key in (GAMES[g], _norm(games.TITLES[g])):
            return g
    raise ValueError("unknown game %r (games: %s)" % (name, ", ".join(GAMES)))


def item_names(g: int) -> dict[int, str]:
    """item -> its unique name in game g (' copy N' added where items share a name)."""
    items = games.all_items(g)
    plain = [games.item_name(g, v) for v in items]
    names = {}
    copies: dict[str, int] = {}
    for v, name in zip(items, plain):
        if plain.count(name) > 1:
            copies[name] = copies.get(name, 0) + 1
            name = "%s copy %d" % (name, copies[name])
        names[v] = name
    return names


_BY_NAME: dict[int, dict[str, int]] = {}


def item_by_name(g: int, text: str) -> int:
    """The item a name or a decimal number stands for in game g; ValueError if none."""
    names = item_names(g)
    text = text.strip()
    if text.isdigit():
        if int(text) in names:
            return int(text)
        raise ValueError("unknown item %s in %s" % (text, GAMES[g]))
    if g not in _BY_NAME:
        _BY_NAME[g] = {_norm(n): v for v, n in names.items()}
    found = _BY_NAME[g].get(_norm(text))
    if found is not None:
        return found
    shared = sorted(n for n in names.values() if _norm(n).startswith(_norm(text) + " copy "))
    if shared:
        raise ValueError("item %r of %s is ambiguous: say %s" % (
            text, GAMES[g], " or ".join(repr(n) for n in shared)))
    raise ValueError("unknown item %r in %s" % (text, GAMES[g]))


def parse_uid(text: str) -> bytes:
    """UID bytes from hex ('04a1b2c3', '04:A1:B2:C3'); 4, 7 or 10 bytes."""
    digits = text.strip()
    for sep in ":- ":
        digits = digits.replace(sep, "")
    try:
        uid = bytes.fromhex(digits)
    except ValueError:
        raise ValueError("UID %r is not hex" % text) from None
    if len(uid) not in (4, 7, 10):
        raise ValueError("UID %r has %d bytes (a tag's UID has 4, 7 or 10)" % (text, len(uid)))
    return uid


def parse_csv(text: str, existing: Iterable[Entry] = ()) -> list[Entry]:
    """Entries from CSV text (header optional, blank and '#' lines skipped).

    `existing` entries (the registry a row is added to) count for the
    duplicate checks.  Raises CsvError naming every bad row."""
    errors: list[tuple[int, str]] = []
    entries: list[Entry] = []
    uid_line: dict[bytes, int] = {}
    item_line: dict[tuple[int, int], int] = {}
    for uid, g, item in existing:
        uid_line[bytes(uid)] = 0
        item_line[(g, item)] = 0
    first = True
    for number, row in enumerate(csv.reader(io.StringIO(text.lstrip("\ufeff"))), 1):
        cells = [c.strip() for c in row]
        while cells and not cells[-1]:
            cells.pop()     # a spreadsheet's empty trailing columns
        if not cells or cells[0].startswith("#"):
            continue
        if first:
            first = False
            if tuple(_norm(c) for c in cells) == HEADER:
                continue
        if len(cells) != 3:
            errors.append((number, "expected 3 columns uid_hex,game,item, got %d" % len(cells)))
            continue
        problems = []
        uid = g = item = None
        try:
            uid = parse_uid(cells[0])
        except ValueError as e:
            problems.append(str(e))
        try:
            g = game_index(cells[1])
            item = item_by_name(g, cells[2])
        except ValueError as e:
            problems.append(str(e))
        if uid is not None and uid in uid_line:
            problems.append("UID %s is already %s" % (uid_hex(uid), _where(uid_line[uid])))
        if g is not None and item is not None and (g, item) in item_line:
            problems.append("item %s of %s already has a tag %s" % (
                item_names(g)[item], GAMES[g], _where(item_line[(g, item)])))
        if uid is not None:
            uid_line.setdefault(uid, number)
        if g is not None and item is not None:
            item_line.setdefault((g, item), number)
        if problems:
            errors.append((number, "; ".join(problems)))
        elif uid is not None and g is not None and item is not None:
            entries.append((uid, g, item))
    if errors:
        raise CsvError(errors)
    return entries


def _where(line: int) -> str:
    return "in the board's registry" if line == 0 else "on line %d" % line


def format_csv(entries: Iterable[Entry], names: bool = False) -> str:
    """CSV text of entries, sorted by game and item as the firmware exports them;
    `names` writes item names instead of numbers (parse_csv reads both)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(HEADER)
    for uid, g, item in sorted(entries, key=lambda e: (e[1], e[2], e[0])):
        w.writerow((uid_hex(uid), GAMES[g], item_names(g).get(item, str(item)) if names else item))
    return out.getvalue()


# --- registry.bin -------------------------------------------------------------

class MemFS:
    """A filesystem in a dict, enough for hal.storage.Storage on the host."""

    def __init__(self, files: dict[str, bytes] | None = None):
        self.files: dict[str, bytes] = dict(files or {})

    def open(self, path: str, mode: str):
        if "r" in mode:
            if path not in self.files:
                raise OSError(2, "no such file", path)
            return io.BytesIO(self.files[path])
        fs = self

        class _File(io.BytesIO):
            def flush(self):
                fs.files[path] = self.getvalue()

            def close(self):
                if not self.closed:
                    self.flush()
                super().close()

        f = _File(self.files.get(path, b"") if "a" in mode else b"")
        f.seek(0, io.SEEK_END)
        return f

    def remove(self, path: str) -> None:
        del self.files[path]

    def rename(self, old: str, new: str) -> None:
        self.files[new] = self.files.pop(old)

    def exists(self, path: str) -> bool:
        return path in self.files


def to_registry_bin(entries: Iterable[Entry]) -> bytes:
    """The exact bytes hal.storage writes as registry.bin for these entries."""
    fs = MemFS()
    Storage(fs).save_registry(pack(list(entries)))
    return fs.files[REGISTRY_FILE]


def from_registry_bin(data: bytes) -> list[Entry]:
    """The entries of a registry.bin; ValueError if it fails its checks."""
    records, status = Storage(MemFS({REGISTRY_FILE: bytes(data)})).load_registry()
    if status != OK:
        raise ValueError("registry.bin is corrupt (check code or an entry is wrong)")
    return unpack(records)
