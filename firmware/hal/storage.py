"""The match journal and the tag registry on flash, safe against power cuts.

Storage(fs, dev=None, prefix="", segments=8) keeps them on a filesystem `fs` (open,
remove, rename, exists; FlashFS below is the board's LittleFS, flashmodel/vflash.py
a virtual one) and, for the journal, the raw flash under it `dev` (default
fs.raw: rp2.Flash() on the board, a NOR flash model in tests).
board_storage() builds the board's.

THE JOURNAL lives in `segments` files of exactly one 4096-byte block each
(journal0.seg ...), made once through the filesystem and from then on
written in place on the raw flash by hal/journal.py, which says how (one
page program per action; the format, the power-cut and damage rules).
LittleFS never moves a file it does not write, so the blocks stay the
files'.  journal.map (written once, replaced atomically) names the block of
each segment and the area's random number, which every segment header
repeats:

    "D" "M" version(1) count(1) area(4) block(2) x count, crc(2)

Before the journal touches raw flash, every segment file's first 16 bytes
read through the filesystem must equal its block's on the raw flash: a map
that no longer fits (the files were replaced, e.g. by a restore) is never
written through.  Then it is made again from a scan of the raw flash for
the blocks whose first 16 bytes are the files' (each must be unique; a
newly made segment file starts with "D" "S" version index area and is 0xFF
after, so it is); a journal that cannot be found so is CORRUPT, and the
next new_match() makes the segment files afresh.

new_match(header4, words) commits the match header and the table's words
(the seats and seed records) in one page program; load() returns the words
first in `actions`, then the live actions.  work_ahead(), which the main
loop calls when no input waits for its answer, does one step of the
journal's erasing and header building ahead of need, so that no commit
waits for a 45 ms erase (hal/journal.py, "AHEAD OF NEED").  load() -> (header4 or None,
actions, status): OK, NONE (no match), TORN (a torn last record dropped),
CORRUPT (damage: everything before it).  It never raises on bad data and
writes nothing.

THE FIRMWARE'S ID (firmware.id): 5 hex digits `make flash` draws afresh
whenever it changes the board's code (host_tools/flash.py).  The table
writes it in a new journal's records (app/play.py FIRMWARE_RECORD), and a
power-up that finds the same id in the journal and in this file knows that
this very firmware accepted every record (app/resume.py).

THE REGISTRY (registry.bin) maps tag UIDs to items: the records of
dicetable/app/registry.py, 14 bytes each, sorted by UID.  save_registry()
writes it to registry.tmp, then renames it over registry.bin, so a power cut
leaves the old registry or the new one.  load_registry() reads the records
into one bytearray of their size (at most MAX_TAGS of them: 3.5 KB), never
the file whole.

    "D" "R" version(1) count(2), then the records, then crc(2) over
    everything before it from 0xFFFF

load_registry() returns (records, status): OK, NONE, or CORRUPT with no
records when the check code fails, the size is wrong or a record is invalid
(UID length not 4, 7 or 10, bytes after the UID not zero, game unknown).
"""

import os
import random

from micropython import const

from dicetable.app.registry import MAX_TAGS, RECORD, valid_record
from hal.journal import CORRUPT, NONE, OK, TORN, UNDO, Journal
from hal.journal_segments import BLOCK, VERSION, crc16, get32, put32

__all__ = (
    "OK",
    "NONE",
    "TORN",
    "CORRUPT",
    "UNDO",
    "crc16",
    "Storage",
    "FlashFS",
    "board_storage",
    "STATUS_NAMES",
    "SEGMENTS",
)

STATUS_NAMES = ("ok", "none", "torn tail dropped", "corrupt")

SEGMENTS = const(8)
_HEAD = const(16)  # bytes of a segment compared through the filesystem
_VERSION = const(1)  # of journal.map and registry.bin
_REG_HEAD = const(5)
_MAP_HEAD = const(8)
ID_BITS = const(0xFFFFF)  # an id is a journal record's value: 20 bits
FIRMWARE_FILE = "firmware.id"  # host_tools/flash.py writes it


class Storage:
    """The journal and the registry; file names start with `prefix`."""

    def __init__(self, fs, dev=None, prefix="", segments=SEGMENTS):
        self.fs = fs
        self.segments = segments
        self._dev = dev
        self._prefix = prefix
        self._map = prefix + "journal.map"
        self._registry = prefix + "registry.bin"
        self._reg_tmp = prefix + "registry.tmp"
        self._journal = None
        self.writes = 0  # journal writes so far: what hal/mirror.py watches
        self._head = bytearray(_HEAD)  # a segment file's first bytes
        self._raw = bytearray(_HEAD)  # the same bytes of a raw block
        self._entry = bytearray(_REG_HEAD)  # the registry's header, then its crc
        view = memoryview(self._entry)
        self._reg_head = view
        self._reg_crc = view[:2]
        self._reg_tail = view[:3]  # one byte more than the crc: none may follow

    def segment_path(self, i):
        """The file of segment i."""
        return "%sjournal%d.seg" % (self._prefix, i)

    @property
    def dev(self):
        """The raw flash device under the filesystem."""
        if self._dev is None:
            self._dev = self.fs.raw
        return self._dev

    # -- journal ---------------------------------------------------------

    def prepare(self):
        """Make the journal's segment files now if there are none, so that the
        first match starts without writing eight files first."""
        if self._open() is None and self._match_file() < 0:
            self._make_area()

    def new_match(self, header4, words=()):
        """Start a match with this 4-byte header and the table's words, in one step."""
        j = self._open()
        if j is None:
            j = self._make_area()
        j.new_match(header4, words)
        self.writes += 1

    def append(self, action):
        """Program one action before returning (new_match or a load that found one first)."""
        if not 0 <= action < UNDO:
            raise ValueError("not an action")
        # Called from deep in the app's play: no helper between here and the
        # journal (each Python call is ~240 B of the board's C stack).
        j = self._journal
        if j is None:
            j = self._open()
            if j is None:
                raise ValueError("no match: call new_match() first")
        j.append(action)
        self.writes += 1

    def undo(self):
        """Record that the last action was taken back."""
        j = self._journal
        if j is None:
            j = self._open()
            if j is None:
                raise ValueError("no match: call new_match() first")
        j.append(UNDO)
        self.writes += 1

    def work_ahead(self):
        """One bounded step of the journal's work ahead of need (a segment
        erased, the next header page built, a piece of a compaction: see
        hal/journal.py), for the main loop when no input waits for its
        answer: True if it did one, False, allocating nothing, if there was
        none to do.  A flash error is not raised: the next commit reads the
        flash again and says so."""
        j = self._journal
        if j is None:
            return False
        try:
            return j.work_ahead()
        except OSError:
            j.forget()
            return True

    def load(self):
        """(header4 or None, actions, status); never raises on bad data.
        `found` lists the damage met (hal/journal.py, DAMAGED HEADERS)."""
        self.found = ()
        try:
            j = self._open()
        except OSError:
            return None, [], CORRUPT
        if j is None:
            i = self._match_file()
            if i < 0:
                return None, [], NONE
            head = self._file_head(i)
            if head is not None and head[2] != VERSION:
                from hal.journal_damage import FOREIGN

                self.found = [(FOREIGN, i, head[2], VERSION)]
            return None, [], CORRUPT
        try:
            got = j.load()
        except OSError:
            j.forget()
            return None, [], CORRUPT
        self.found = j.found
        return got

    def clear(self):
        """No match is running any more (the journal's segments stay)."""
        j = self._open()
        if j is not None:
            j.clear()
        self.writes += 1

    def close(self):
        """Nothing stays open between calls; kept for the app's shutdown."""

    # -- the segments ----------------------------------------------------

    def _open(self):
        # The Journal over the mapped segments, or None if there is none.
        if self._journal is not None:
            return self._journal
        found = self._read_map()
        if found is None:
            found = self._locate()
            if found is None:
                return None
            self._write_map(found[0], found[1])
        self._journal = Journal(self.dev, found[1], found[0])
        return self._journal

    def _read_map(self):
        # (area, blocks) from journal.map if every block still holds its file.
        data = self._read(self._map)
        if data is None or len(data) < _MAP_HEAD + 2:
            return None
        n = data[3]
        if (
            data[0] != 0x44
            or data[1] != 0x4D
            or data[2] != _VERSION
            or len(data) != _MAP_HEAD + 2 * n + 2
            or crc16(data, 0, len(data) - 2, 0xFFFF) != data[-2] | (data[-1] << 8)
        ):
            return None
        blocks = [data[_MAP_HEAD + 2 * i] | (data[_MAP_HEAD + 2 * i + 1] << 8) for i in range(n)]
        for i in range(n):
            head = self._file_head(i)
            if head is None:
                return None
            self.dev.readblocks(blocks[i], self._raw, 0)
            if head != self._raw:
                return None
        return get32(data, 4), blocks

    def _locate(self):
        # (area, blocks) found by scanning the raw flash for the files' heads.
        heads = []
        area = -1
        for i in range(self.segments):
            head = self._file_head(i)
            if (
                head is None
                or head[0] != 0x44
                or head[1] not in (0x4A, 0x53)
                or head[2] != VERSION
                or head[3] != i
            ):
                return None
            if area >= 0 and get32(head, 4) != area:
                return None
            area = get32(head, 4)
            heads.append(bytes(head))
        blocks = [-1] * self.segments
        dev = self.dev
        raw = self._raw
        for b in range(dev.ioctl(4, 0)):
            dev.readblocks(b, raw, 0)
            for i in range(self.segments):
                if raw == heads[i]:
                    if blocks[i] >= 0:
                        return None  # two candidates: never guess
                    blocks[i] = b
        for b in blocks:
            if b < 0:
                return None
        return area, blocks

    def _file_head(self, i):
        # The first bytes of segment file i through the filesystem, or None.
        try:
            f = self.fs.open(self.segment_path(i), "rb")
        except OSError:
            return None
        try:
            n = f.readinto(self._head)
        except OSError:
            return None
        finally:
            f.close()
        return self._head if n == _HEAD else None

    def _match_file(self):
        # The first segment file that shows a match was ever written to it, or -1.
        for i in range(self.segments):
            head = self._file_head(i)
            if head is not None and head[0] == 0x44 and head[1] == 0x4A:
                return i
        return -1

    def _make_area(self):
        # Fresh segment files through the filesystem, found on the raw flash.
        for path in [self._map] + [self.segment_path(i) for i in range(self.segments)]:
            if self.fs.exists(path):
                self.fs.remove(path)
        area = random.getrandbits(32)
        # One block's worth written at once: LittleFS gives the file one whole block.
        data = bytearray(BLOCK)
        for i in range(8, BLOCK):
            data[i] = 0xFF
        for i in range(self.segments):
            data[0] = 0x44  # "D"
            data[1] = 0x53  # "S": a segment no match has used
            data[2] = VERSION
            data[3] = i
            put32(data, 4, area)
            f = self.fs.open(self.segment_path(i), "wb")
            try:
                f.write(data)
            finally:
                f.close()
        data = None
        found = self._locate()
        if found is None:
            raise OSError(5, "journal segments not found on flash")
        self._write_map(found[0], found[1])
        self._journal = Journal(self.dev, found[1], found[0])
        return self._journal

    def _write_map(self, area, blocks):
        n = len(blocks)
        data = bytearray(_MAP_HEAD + 2 * n + 2)
        data[0] = 0x44
        data[1] = 0x4D
        data[2] = _VERSION
        data[3] = n
        put32(data, 4, area)
        for i in range(n):
            data[_MAP_HEAD + 2 * i] = blocks[i] & 0xFF
            data[_MAP_HEAD + 2 * i + 1] = blocks[i] >> 8
        crc = crc16(data, 0, len(data) - 2, 0xFFFF)
        data[-2] = crc & 0xFF
        data[-1] = crc >> 8
        self._replace(self._map, self._map + ".tmp", data)

    # -- registry --------------------------------------------------------

    def save_registry(self, records):
        """Replace the registry with `records` (Registry.records), atomically;
        ValueError, and nothing written, if a record is invalid."""
        n = len(records) // RECORD
        if len(records) % RECORD or n > MAX_TAGS:
            raise ValueError("not a whole number of registry records")
        for k in range(n):
            if not valid_record(records, k * RECORD):
                raise ValueError("bad registry record %d" % k)
        head = self._entry
        head[0] = 0x44  # "D"
        head[1] = 0x52  # "R"
        head[2] = _VERSION
        head[3] = n & 0xFF
        head[4] = n >> 8
        crc = crc16(records, 0, len(records), crc16(head, 0, _REG_HEAD, 0xFFFF))
        f = self.fs.open(self._reg_tmp, "wb")
        try:
            f.write(self._reg_head)
            f.write(records)
            head[0] = crc & 0xFF
            head[1] = crc >> 8
            f.write(self._reg_crc)
            f.flush()
        finally:
            f.close()
        self.fs.rename(self._reg_tmp, self._registry)

    def load_registry(self):
        """(records, status) from flash; records is empty unless status is OK."""
        if not self.fs.exists(self._registry):
            # Only a filesystem whose rename cannot replace would leave just
            # the temporary file; it counts only if it is complete and valid.
            records = self._registry_records(self._reg_tmp)
            return (bytearray(), NONE) if records is None else (records, OK)
        records = self._registry_records(self._registry)
        return (bytearray(), CORRUPT) if records is None else (records, OK)

    def _registry_records(self, path):
        # The records of a registry file, or None if anything about it is wrong.
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            return self._parse_registry(f)
        except OSError:
            return None
        finally:
            f.close()

    def _parse_registry(self, f):
        buf = self._entry
        if (
            f.readinto(self._reg_head) != _REG_HEAD
            or buf[0] != 0x44
            or buf[1] != 0x52
            or buf[2] != _VERSION
        ):
            return None
        count = buf[3] | (buf[4] << 8)
        if count > MAX_TAGS:
            return None
        crc = crc16(buf, 0, _REG_HEAD, 0xFFFF)
        records = bytearray(count * RECORD)
        if f.readinto(records) != len(records):
            return None
        if f.readinto(self._reg_tail) != 2 or buf[0] | (buf[1] << 8) != crc16(
            records, 0, len(records), crc
        ):
            return None
        for k in range(count):
            if not valid_record(records, k * RECORD):
                return None
        return records

    # -- the firmware ------------------------------------------------------

    def firmware_id(self):
        """The id `make flash` gave the firmware on this board (firmware.id,
        5 hex digits, drawn afresh whenever it changes the code), or 0: none,
        or not readable."""
        text = self._read(self._prefix + FIRMWARE_FILE)
        try:
            return int(str(text, "ascii"), 16) & ID_BITS if text else 0
        except ValueError:  # MicroPython's UnicodeError is one too
            return 0

    # -- files -----------------------------------------------------------

    def _read(self, path):
        # A small whole file, or None if there is none or it cannot be read.
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        except OSError:
            return None
        finally:
            f.close()

    def _replace(self, path, tmp, data):
        f = self.fs.open(tmp, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()
        self.fs.rename(tmp, path)


class FlashFS:
    """The `fs` for Storage on the board: MicroPython's own filesystem, and
    rp2.Flash() under it as `raw`."""

    @property
    def raw(self):
        """The raw flash the filesystem lives on."""
        import rp2

        return rp2.Flash()

    def open(self, path, mode):
        """open() a file; modes 'rb', 'wb', 'ab'."""
        return open(path, mode)

    def remove(self, path):
        """Delete a file."""
        os.remove(path)

    def rename(self, old, new):
        """Rename a file, replacing `new` (atomic on LittleFS)."""
        os.rename(old, new)

    def exists(self, path):
        """True if the file exists."""
        try:
            os.stat(path)
            return True
        except OSError:
            return False


def board_storage():
    """The board's Storage: LittleFS, and rp2.Flash() under it for the journal,
    its segments made if there are none yet."""
    storage = Storage(FlashFS())
    try:
        storage.prepare()
    except OSError:
        pass  # a full filesystem: the first new_match() tries again and says so
    return storage
