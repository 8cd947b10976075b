"""The tag registry as CSV, and as the board's registry.bin.

A registry entry is (uid bytes, game index, item): the game in dicetable.games.GAMES
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

read_csv(path) is the one reader of a registry CSV file: it refuses what is
not a CSV of tags at all with the place of the first problem (not UTF-8
text, binary, UTF-16, a file over MAX_BYTES, a cell over MAX_CELL
characters, a quote not closed on its line, text after a closing quote, a
control character) and a file without a single tag (empty, or a header and
comments only), then parse_csv() checks every row and raises CsvError
listing every bad one by line and column (unknown game, unknown or
ambiguous item, bad UID, the same UID twice, the same item twice, a row
that is not three cells), so a caller writes nothing unless all rows are
good.  It is tolerant of what does not change the meaning: a UTF-8
byte-order mark, CRLF or CR line ends, cells quoted or not, spaces around
cells, empty trailing cells, blank and '#' comment lines, the header line or
none.  Each problem is (line, column, message), 1-based; line 0 is the file
as a whole.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any, Iterable

from dicetable.app import games
from dicetable.app.registry import pack, uid_hex, unpack
from dicetable.games import GAMES
from flashmodel.vflash import VFlash
from hal.storage import OK, Storage
from host_tools.errors import ToolError, read_bytes

HEADER = ("uid_hex", "game", "item")
REGISTRY_FILE = "registry.bin"

Entry = tuple[bytes, int, int]

MAX_BYTES = 1 << 20  # a full registry (201 tags) with names and comments is ~10 KB
MAX_CELL = 200  # characters: a UID with separators is 29, the longest name ~20
WHAT = "a CSV file of tags (uid_hex,game,item)"
ROW_FORM = "a row is uid_hex,game,item, e.g. 04a1b2c3,dtwww,red d6 copy 1"
_SAVE_AS = "save the sheet as 'CSV UTF-8 (comma delimited)'"
# The problems, each as docs/refusals.md quotes it.
NOT_UTF8 = "byte 0x%02x is not UTF-8 (another encoding, or not text): %s"
OPEN_QUOTE = "this quote is not closed on its line (a cell is on one line: close the quote)"
AFTER_QUOTE = "text after a closing quote (quote the whole cell, or none of it)"
CONTROL = "a control character U+%04X (a CSV file is text; %s)"
LONG_CELL = "a cell of %d characters (a UID, game or item is at most %d)"
NO_TAGS = "no tags in it (it is empty, or a header and comments only): %s"
ONE_COLUMN = "one column, its cells separated by %s: save the sheet as CSV with commas"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # not \t (\r and \n end lines)


class CsvError(ToolError, ValueError):
    """The problems of a CSV, first first: `problems` is [(line, column, message)],
    `errors` [(line, message)] (line 0: the file as a whole)."""

    def __init__(self, problems: list[tuple[int, int, str]]):
        self.problems = problems
        self.errors = [(line, message) for line, _, message in problems]
        super().__init__(self.where(problems[0]) if problems else "")

    @staticmethod
    def where(problem: tuple[int, int, str], name: str = "") -> str:
        """'name:line:column: message' ('name: message' for the whole file)."""
        line, column, message = problem
        place = ":".join(
            str(x) for x in ((name,) if name else ()) + ((line, column) if line else ())
        )
        return "%s: %s" % (place, message) if place else message

    def lines(self, name: str) -> list[str]:
        """One 'name:line:column: message' line per problem."""
        return [self.where(p, name) for p in self.problems]


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _shown(text: str, width: int = 30) -> str:
    """A cell as a message quotes it: escaped, and cut if long."""
    return repr(text if len(text) <= width else text[:width] + "...")


def game_index(name: str) -> int:
    """The game index of an engine name or a title; ValueError if none."""
    key = _norm(name)
    for g in range(len(GAMES)):
        if key in (GAMES[g], _norm(games.title(g))):
            return g
    if not key:
        raise ValueError("the game is empty (games: %s)" % ", ".join(GAMES))
    raise ValueError("unknown game %s (games: %s)" % (_shown(name), ", ".join(GAMES)))


def item_names(g: int) -> dict[int, str]:
    """item -> its unique name in game g (' copy N' added where items share a name)."""
    items = games.all_items(g)
    plain = [games.item_name(g, v) for v in items]
    names = {}
    copies: dict[str, int] = {}
    for v, name in zip(items, plain, strict=True):
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
    if not text:
        raise ValueError(
            "the item is empty (an item's name, e.g. %r, or its number)"
            % next(iter(names.values()))
        )
    if text.isascii() and text.isdigit():  # not int(): it takes '٣' and 10,000 digits
        if len(text) <= 6 and int(text) in names:
            return int(text)
        raise ValueError("unknown item %s in %s" % (_shown(text), GAMES[g]))
    if g not in _BY_NAME:
        _BY_NAME[g] = {_norm(n): v for v, n in names.items()}
    found = _BY_NAME[g].get(_norm(text))
    if found is not None:
        return found
    shared = sorted(n for n in names.values() if _norm(n).startswith(_norm(text) + " copy "))
    if shared:
        raise ValueError(
            "item %s of %s is ambiguous: say %s"
            % (_shown(text), GAMES[g], " or ".join(repr(n) for n in shared))
        )
    raise ValueError("unknown item %s in %s" % (_shown(text), GAMES[g]))


def parse_uid(text: str) -> bytes:
    """UID bytes from hex ('04a1b2c3', '04:A1:B2:C3'); 4, 7 or 10 bytes."""
    digits = text.strip()
    if not digits:
        raise ValueError("the UID is empty (4, 7 or 10 bytes in hex, e.g. 04a1b2c3)")
    for sep in ":- ":
        digits = digits.replace(sep, "")
    try:
        if not digits.isascii():
            raise ValueError
        uid = bytes.fromhex(digits)
    except ValueError:
        raise ValueError(
            "UID %s is not hex (4, 7 or 10 bytes, e.g. 04a1b2c3)" % _shown(text)
        ) from None
    if len(uid) not in (4, 7, 10):
        raise ValueError(
            "UID %s has %d bytes (a tag's UID has 4, 7 or 10)" % (_shown(text), len(uid))
        )
    return uid


# --- the file -------------------------------------------------------------------


def _place(data: bytes, at: int) -> tuple[int, int]:
    """(line, column) of byte `at` of undecoded data, the column in characters."""
    start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
    line = data.count(b"\n", 0, at) + data.count(b"\r", 0, at) - data.count(b"\r\n", 0, at) + 1
    return line, len(data[start:at].decode("utf-8", "replace")) + 1


def decode(data: bytes) -> str:
    """The text of a CSV file's bytes (a UTF-8 byte-order mark dropped, line ends
    made \\n); CsvError with the place of the first problem if it is not UTF-8
    text."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CsvError([(1, 1, "UTF-16 text: %s" % _SAVE_AS)])
    nul = data.find(b"\0")
    if nul >= 0:
        for half in (data[0::2], data[1::2]):
            if len(half) >= 2 and half.count(0) * 4 >= len(half) * 3:  # every other byte
                raise CsvError([(1, 1, "UTF-16 text: %s" % _SAVE_AS)])
        line, column = _place(data, nul)
        raise CsvError(
            [(line, column, "binary data (a NUL byte): this is not a CSV file; %s" % _SAVE_AS)]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, column = _place(data, e.start)
        raise CsvError([(line, column, NOT_UTF8 % (data[e.start], _SAVE_AS))]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_line(text: str, line: int) -> list[tuple[int, str]]:
    """The cells of one line of CSV: [(column, cell)], quoted cells unquoted
    (a doubled quote inside one is a quote).  CsvError for a quote not closed
    on its line or text after a closing quote."""
    cells: list[tuple[int, str]] = []
    i, n = 0, len(text)
    while True:
        start = i
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == '"':
            opened = i
            parts = []
            j = i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    raise CsvError([(line, opened + 1, OPEN_QUOTE)])
                parts.append(text[j:k])
                if text.startswith('"', k + 1):
                    parts.append('"')
                    j = k + 2
                    continue
                break
            i = k + 1
            while i < n and text[i] in " \t":
                i += 1
            if i < n and text[i] != ",":
                raise CsvError([(line, i + 1, AFTER_QUOTE)])
            cells.append((opened + 1, "".join(parts)))
        else:
            k = text.find(",", i)
            k = n if k < 0 else k
            cells.append((i + 1 if i < k else start + 1, text[start:k]))
            i = k
        if i >= n:
            return cells
        i += 1  # the comma
        if i == n:
            cells.append((n + 1, ""))
            return cells


def rows(text: str) -> list[tuple[int, list[tuple[int, str]]]]:
    """(line, [(column, cell)]) of every row of CSV text that is not blank or a
    comment, cells stripped and empty trailing cells dropped; CsvError at the
    first line that is not CSV text."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip(" \t").startswith("#"):
            continue
        bad = _CONTROL.search(line)
        if bad:
            raise CsvError([(number, bad.start() + 1, CONTROL % (ord(bad.group()), _SAVE_AS))])
        cells = [(column, cell.strip()) for column, cell in split_line(line, number)]
        while cells and not cells[-1][1]:
            cells.pop()  # a spreadsheet's empty trailing columns
        if not cells or cells[0][1].startswith("#"):
            continue
        for column, cell in cells:
            if len(cell) > MAX_CELL:
                raise CsvError([(number, column, LONG_CELL % (len(cell), MAX_CELL))])
        out.append((number, cells))
    return out


def read_csv(path: str | Path, existing: Iterable[Entry] = ()) -> list[Entry]:
    """The entries of the CSV file at `path`: ToolError if the file cannot be read,
    CsvError for its problems (see the module docstring), a file without a tag
    included."""
    text = decode(read_bytes(path, WHAT, MAX_BYTES))
    entries = parse_csv(text, existing)
    if not entries:
        raise CsvError([(0, 0, NO_TAGS % ROW_FORM)])
    return entries


def _columns_problem(number: int, cells: list[tuple[int, str]]) -> tuple[int, int, str]:
    # A row that is not three cells: a sheet saved with ';' or tabs, or a count.
    words = [cell for _, cell in cells]
    if len(cells) == 1 and (";" in words[0] or "\t" in words[0]):
        return (number, 1, ONE_COLUMN % ("';'" if ";" in words[0] else "tabs"))
    column = cells[3][0] if len(cells) > 3 else cells[-1][0] + len(words[-1])
    return (
        number,
        column,
        "expected 3 columns uid_hex,game,item, got %d "
        "(e.g. 04a1b2c3,dtwww,red d6 copy 1)" % len(cells),
    )


def _read_row(
    cells: list[tuple[int, str]],
) -> tuple[bytes | None, int | None, int | None, list[tuple[int, str]]]:
    # (uid, game, item, problems) of a three-cell row; None where a cell is bad.
    found: list[tuple[int, str]] = []
    uid = g = item = None
    try:
        uid = parse_uid(cells[0][1])
    except ValueError as e:
        found.append((cells[0][0], str(e)))
    try:
        g = game_index(cells[1][1])
    except ValueError as e:
        found.append((cells[1][0], str(e)))
    else:
        try:
            item = item_by_name(g, cells[2][1])
        except ValueError as e:
            found.append((cells[2][0], str(e)))
    return uid, g, item, found


class _Seen:
    """The line each UID and each item is first on (0: the board's registry)."""

    def __init__(self, existing: Iterable[Entry]) -> None:
        self.uid_line: dict[bytes, int] = {}
        self.item_line: dict[tuple[int, int], int] = {}
        for uid, g, item in existing:
            self.uid_line[bytes(uid)] = 0
            self.item_line[(g, item)] = 0

    def check(
        self,
        number: int,
        cells: list[tuple[int, str]],
        uid: bytes | None,
        g: int | None,
        item: int | None,
    ) -> list[tuple[int, str]]:
        """The row's duplicates (cell column, message); the row is then seen."""
        found = []
        if uid is not None:
            if uid in self.uid_line:
                found.append(
                    (
                        cells[0][0],
                        "UID %s is already %s" % (uid_hex(uid), _where(self.uid_line[uid])),
                    )
                )
            self.uid_line.setdefault(uid, number)
        if g is not None and item is not None:
            if (g, item) in self.item_line:
                found.append(
                    (
                        cells[2][0],
                        "item %s of %s already has a tag %s"
                        % (item_names(g)[item], GAMES[g], _where(self.item_line[(g, item)])),
                    )
                )
            self.item_line.setdefault((g, item), number)
        return found


def parse_csv(text: str, existing: Iterable[Entry] = ()) -> list[Entry]:
    """Entries from CSV text (header optional, blank and '#' lines skipped).

    `existing` entries (the registry a row is added to) count for the
    duplicate checks.  Raises CsvError naming every bad row."""
    problems: list[tuple[int, int, str]] = []
    entries: list[Entry] = []
    seen = _Seen(existing)
    first = True
    for number, cells in rows(text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")):
        header = first
        first = False
        if header and tuple(_norm(c) for _, c in cells) == HEADER:
            continue
        if len(cells) != 3:
            problems.append(_columns_problem(number, cells))
            continue
        uid, g, item, found = _read_row(cells)
        if header and uid is None and g is None:
            problems.append(
                (number, 1, "neither a tag nor the header uid_hex,game,item (%s)" % ROW_FORM)
            )
            continue
        found += seen.check(number, cells, uid, g, item)
        if found:
            found.sort()
            problems.append((number, found[0][0], "; ".join(m for _, m in found)))
        elif uid is not None and g is not None and item is not None:
            entries.append((uid, g, item))
    if problems:
        raise CsvError(problems)
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


# --- registry.bin: hal.storage's own code over the board's virtual flash -----


def to_registry_bin(entries: Iterable[Entry]) -> bytes:
    """The exact bytes hal.storage writes as registry.bin for these entries."""
    flash = VFlash()
    Storage(flash).save_registry(pack(list(entries)))
    return read_file(flash, REGISTRY_FILE)


def read_file(flash: VFlash, path: str) -> bytes:
    """A whole file of the virtual flash.  Here, not a VFlash method: the
    virtual flash also runs under MicroPython in the Pico's heap, where every
    method costs the tests' board heap."""
    f: Any = flash.open(path, "rb")  # a reader in mode "rb" (VFlash.open)
    try:
        return bytes(f.read())
    finally:
        f.close()


def from_registry_bin(data: bytes) -> list[Entry]:
    """The entries of a registry.bin; ValueError if it fails its checks."""
    records, status = Storage(VFlash({REGISTRY_FILE: bytearray(data)})).load_registry()
    if status != OK:
        raise ValueError("registry.bin is corrupt (check code or an entry is wrong)")
    return unpack(records)
