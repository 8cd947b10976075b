"""The match journal and the tag registry on flash, safe against power cuts.

Storage(fs) keeps two files on a filesystem object `fs` (open, remove,
rename, exists; FlashFS below is the board's, sim/hw/vflash.py a virtual
one whose power a test can cut at any byte).

THE JOURNAL (journal.bin) holds the running match: the 4-byte match header
(game, players, options lo, options hi: Match.journal_bytes()[:4]), then one
record per action.  append() writes a record and flushes it before it
returns, so an action the app has shown is on flash.  Format, little-endian:

    header record, 9 bytes:  "D" "J" version(1) game players opt_lo opt_hi crc(2)
    action record, 6 bytes:  word(4) crc(2)

A word below 2**24 is an action (match/actions.py packs kind, seat and value
into 24 bits); the word UNDO (type byte 1 in the top byte) takes back the
last action, so undo is an append too.  crc is CRC-16/CCITT-FALSE (poly
0x1021, MSB first, no final xor).  The header's is taken over its first 7
bytes from 0xFFFF; a record's over its number (2 bytes, the first action
record is 0) and its word, starting from the header's crc instead of
0xFFFF, so a record in the wrong place or from another match fails.

load() reads the records in order up to the first one that is incomplete
or fails its check, and returns (header4 or None, actions, status):
OK; NONE (no journal); TORN (the last record was torn or damaged by a power
cut during its write: it is dropped, everything before it is returned);
CORRUPT (a damaged record before the end: the load stops at the last good
one, and a damaged header gives no match).  It never raises on bad data.
The next append() first rewrites the journal without the bad tail (a
temporary file, then a rename), so new records never follow damaged ones.

new_match() writes a fresh journal as a temporary file and renames it over
the old one: a power cut during it leaves the previous match.

THE REGISTRY (registry.bin) maps tag UIDs to items: entries of (uid bytes,
game index, item).  save_registry() writes it whole to registry.tmp, then
renames it over registry.bin, so a power cut leaves the old registry or the
new one, never a mix.  Format, little-endian:

    "D" "R" version(1) count(2), then per entry: uid length(1) uid(10, zero
    padded) game(1) item(2); then crc(2) over everything before it from 0xFFFF

load_registry() returns (entries, status): OK, NONE, or CORRUPT with no
entries when the check code fails or any entry is invalid (UID length not
4, 7 or 10, game unknown, a (uid, game) pair twice, wrong size).

On the board the filesystem is LittleFS: flush() commits a file's data, and
rename() replaces its target atomically.  Each append programs flash (a few
ms, longer when a block is erased) with interrupts held off; the LEDs are
driven by PIO and carry on.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

from dicetable.match.engine import GAMES

# load() and load_registry() statuses.
OK = const(0)
NONE = const(1)
TORN = const(2)
CORRUPT = const(3)
STATUS_NAMES = ("ok", "none", "torn tail dropped", "corrupt")

UNDO = const(0x01000000)    # the record word that takes back the last action

_VERSION = const(1)
_HEADER_SIZE = const(9)
_RECORD_SIZE = const(6)
_ENTRY_SIZE = const(14)
_UID_MAX = const(10)
_REG_HEAD = const(5)
_ACTION_LIMIT = const(0x1000000)

# CRC-16/CCITT-FALSE, four bits at a time: a 16-entry table is enough.
_CRC_TABLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
              0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, start, end, crc):
    """CRC-16/CCITT-FALSE of data[start:end], continuing from `crc` (0xFFFF to begin)."""
    for i in range(start, end):
        crc ^= data[i] << 8
        crc = ((crc << 4) & 0xFFFF) ^ _CRC_TABLE[crc >> 12]
        crc = ((crc << 4) & 0xFFFF) ^ _CRC_TABLE[crc >> 12]
    return crc


class Storage:
    """The journal and the registry on `fs`; file names start with `prefix`."""

    def __init__(self, fs, prefix=""):
        self.fs = fs
        self._journal = prefix + "journal.bin"
        self._registry = prefix + "registry.bin"
        self._tmp = prefix + "journal.tmp"
        self._reg_tmp = prefix + "registry.tmp"
        self._f = None          # the journal open for appending
        self._header = None     # the 4 header bytes of the journal on flash
        self._seed = 0          # the header's crc: where every record crc starts
        self._count = 0         # records on flash that load() accepted or we wrote
        self._good = 0          # bytes of the journal that are good
        self._size = 0          # bytes of the journal on flash
        self._known = False     # the fields above describe the journal on flash
        # record number (2), word (4), crc (2); the last 6 bytes are written
        self._rec = bytearray(8)
        self._out = memoryview(self._rec)[2:]

    # -- journal ---------------------------------------------------------

    def new_match(self, header4):
        """Start a fresh journal for a match with this 4-byte header (replaces any old one)."""
        self._close()
        rec = bytearray(_HEADER_SIZE)
        rec[0] = 0x44  # "D"
        rec[1] = 0x4A  # "J"
        rec[2] = _VERSION
        for i in range(4):
            rec[3 + i] = header4[i]
        crc = crc16(rec, 0, 7, 0xFFFF)
        rec[7] = crc & 0xFF
        rec[8] = crc >> 8
        self._replace(self._journal, self._tmp, rec, _HEADER_SIZE)
        self._header = bytes(rec[3:7])
        self._seed = crc
        self._count = 0
        self._good = self._size = _HEADER_SIZE
        self._known = True

    def append(self, action):
        """Write one action and flush it to flash before returning.

        new_match(), or a load() that found a match, comes first.  An OSError
        (flash full) means the action is not committed; the next append or
        load looks at the file again and drops whatever part of it was written.
        """
        if not 0 <= action < _ACTION_LIMIT:
            raise ValueError("not an action")
        self._write(action)

    def undo(self):
        """Record that the last action was taken back."""
        self._write(UNDO)

    def load(self):
        """(header4 or None, actions, status) from the journal; never raises on bad data."""
        self._close()
        self._known = True
        self._header = None
        self._count = self._good = self._size = 0
        data = self._read(self._journal)
        if data is None:
            return None, [], NONE
        self._size = len(data)
        if len(data) < _HEADER_SIZE:
            return None, [], TORN
        crc = crc16(data, 0, 7, 0xFFFF)
        if (data[0] != 0x44 or data[1] != 0x4A or data[2] != _VERSION
                or data[7] | (data[8] << 8) != crc):
            return None, [], CORRUPT
        self._header = bytes(data[3:7])
        self._seed = crc
        actions = []
        pos = _HEADER_SIZE
        n = 0
        while pos + _RECORD_SIZE <= len(data):
            word = self._check(data, pos, n)
            if word < 0 or (word >= _ACTION_LIMIT and (word != UNDO or not actions)):
                break
            if word == UNDO:
                actions.pop()
            else:
                actions.append(word)
            pos += _RECORD_SIZE
            n += 1
        self._count = n
        self._good = pos
        if pos == len(data):
            status = OK
        elif pos + _RECORD_SIZE >= len(data):
            status = TORN
        else:
            status = CORRUPT
        return self._header, actions, status

    def clear(self):
        """Remove the journal: no match is running."""
        self._close()
        for path in (self._journal, self._tmp):
            if self.fs.exists(path):
                self.fs.remove(path)
        self._header = None
        self._count = self._good = self._size = 0
        self._known = True

    def close(self):
        """Close the journal file (it is reopened by the next append)."""
        self._close()

    def _check(self, data, pos, n):
        # The record's word if its crc holds, else -1.
        rec = self._rec
        rec[0] = n & 0xFF
        rec[1] = (n >> 8) & 0xFF
        for i in range(4):
            rec[2 + i] = data[pos + i]
        crc = crc16(rec, 0, 6, self._seed)
        if data[pos + 4] | (data[pos + 5] << 8) != crc:
            return -1
        return rec[2] | (rec[3] << 8) | (rec[4] << 16) | (rec[5] << 24)

    def _write(self, word):
        if self._f is None:
            self._open_for_append()
        rec = self._rec
        n = self._count
        rec[0] = n & 0xFF
        rec[1] = (n >> 8) & 0xFF
        rec[2] = word & 0xFF
        rec[3] = (word >> 8) & 0xFF
        rec[4] = (word >> 16) & 0xFF
        rec[5] = word >> 24
        crc = crc16(rec, 0, 6, self._seed)
        rec[6] = crc & 0xFF
        rec[7] = crc >> 8
        self._commit()
        self._count = n + 1
        self._good += _RECORD_SIZE
        self._size = self._good

    def _commit(self):
        f = self._f
        if f is None:
            raise OSError("journal not open")
        try:
            f.write(self._out)
            f.flush()
        except OSError:
            # Part of the record may be on flash: look again before the next one.
            self._known = False
            self._close()
            raise

    def _open_for_append(self):
        if not self._known:
            self.load()
        if self._header is None:
            raise ValueError("no match: call new_match() first")
        if self._good < self._size:
            # Drop the damaged tail before anything is appended behind it.
            data = self._read(self._journal)
            if data is None:
                raise OSError("journal vanished")
            self._replace(self._journal, self._tmp, data, self._good)
            self._size = self._good
        self._f = self.fs.open(self._journal, "ab")

    def _close(self):
        f = self._f
        self._f = None
        if f is not None:
            try:
                f.close()
            except OSError:
                self._known = False

    # -- registry --------------------------------------------------------

    def save_registry(self, entries):
        """Replace the registry with `entries` [(uid, game, item)], atomically."""
        data = bytearray(_REG_HEAD + _ENTRY_SIZE * len(entries) + 2)
        data[0] = 0x44  # "D"
        data[1] = 0x52  # "R"
        data[2] = _VERSION
        data[3] = len(entries) & 0xFF
        data[4] = len(entries) >> 8
        pos = _REG_HEAD
        for uid, game, item in entries:
            if len(uid) not in (4, 7, 10) or not 0 <= game < len(GAMES) or not 0 <= item <= 0xFFFF:
                raise ValueError("bad registry entry")
            data[pos] = len(uid)
            for i in range(len(uid)):
                data[pos + 1 + i] = uid[i]
            data[pos + 11] = game
            data[pos + 12] = item & 0xFF
            data[pos + 13] = item >> 8
            pos += _ENTRY_SIZE
        crc = crc16(data, 0, pos, 0xFFFF)
        data[pos] = crc & 0xFF
        data[pos + 1] = crc >> 8
        if _registry_entries(data) is None:
            raise ValueError("a (uid, game) pair is in the registry twice")
        self._replace(self._registry, self._reg_tmp, data, len(data))

    def load_registry(self):
        """(entries, status) from flash; entries is [] unless status is OK."""
        data = self._read(self._registry)
        if data is None:
            # Only a filesystem whose rename cannot replace would leave just
            # the temporary file; it counts only if it is complete and valid.
            data = self._read(self._reg_tmp)
            entries = None if data is None else _registry_entries(data)
            return ([], NONE) if entries is None else (entries, OK)
        entries = _registry_entries(data)
        return ([], CORRUPT) if entries is None else (entries, OK)

    # -- files -----------------------------------------------------------

    def _read(self, path):
        # The whole file, or None if there is none or it cannot be read.
        try:
            if not self.fs.exists(path):
                return None
            f = self.fs.open(path, "rb")
            try:
                return f.read()
            finally:
                f.close()
        except OSError:
            return None

    def _replace(self, path, tmp, data, size):
        # Write data[:size] to tmp, then rename it over path.
        f = self.fs.open(tmp, "wb")
        try:
            f.write(memoryview(data)[:size])
            f.flush()
        finally:
            f.close()
        self.fs.rename(tmp, path)


def _registry_entries(data):
    # The entries of a registry file, or None if anything about it is wrong.
    size = len(data)
    if size < _REG_HEAD + 2 or data[0] != 0x44 or data[1] != 0x52 or data[2] != _VERSION:
        return None
    count = data[3] | (data[4] << 8)
    if size != _REG_HEAD + _ENTRY_SIZE * count + 2:
        return None
    if crc16(data, 0, size - 2, 0xFFFF) != data[size - 2] | (data[size - 1] << 8):
        return None
    entries = []
    seen = set()
    for pos in range(_REG_HEAD, size - 2, _ENTRY_SIZE):
        n = data[pos]
        game = data[pos + 11]
        if n not in (4, 7, 10) or game >= len(GAMES):
            return None
        for i in range(n + 1, _UID_MAX + 1):
            if data[pos + i]:
                return None
        uid = bytes(data[pos + 1:pos + 1 + n])
        key = uid + bytes((game,))
        if key in seen:
            return None
        seen.add(key)
        entries.append((uid, game, data[pos + 12] | (data[pos + 13] << 8)))
    return entries


class FlashFS:
    """The `fs` for Storage on the board: MicroPython's own filesystem."""

    def open(self, path, mode):
        """open() a file; modes 'rb', 'wb', 'ab'."""
        return open(path, mode)

    def remove(self, path):
        """Delete a file."""
        import os
        os.remove(path)

    def rename(self, old, new):
        """Rename a file, replacing `new` (atomic on LittleFS)."""
        import os
        os.rename(old, new)

    def exists(self, path):
        """True if the file exists."""
        import os
        try:
            os.stat(path)
            return True
        except OSError:
            return False
