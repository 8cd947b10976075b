"""The match journal in place on raw NOR flash: a page program per action, no erase.

Journal(dev, blocks, area) keeps the journal in the flash blocks `blocks`
(one segment each; hal/storage.py finds them) of the block device `dev`
(rp2.Flash() on the board, sim/hw/norflash.py in tests): readblocks(block,
buf, offset), writeblocks(block, buf, offset) programs whole 256-byte pages
WITHOUT erasing (bits only go 1 -> 0), ioctl(6, block) erases one block.
`area` is a 32-bit number the storage drew when it made the segments.

A SEGMENT is one 4096-byte block: page 0 holds its header, pages 1-15 hold
480 records of 8 bytes.  Little-endian throughout.

    header copy, 46 bytes, at offsets 0 and 128 of page 0:
      "D" "J" version(1) segment(1) area(4) seq(4) generation(4) first(2)
      need(2) game players opt_lo opt_hi (the match header) nwords(1) 0 0 0
      words(4 x 4) crc(2)
    cleared mark: bytes 252-255 of page 0 (0xFF: the match runs; programmed
      to 0: it was cleared)
    record, 8 bytes: crc(2) crc ^ 0xFFFF(2) word(4)

`seq` numbers every header ever programmed (the newest is the highest).
A GENERATION is one match's journal: its id is the seq of its first
segment, and every segment of it repeats the match header and the table's
words (the seats and seed records, committed with the header in one page
program).  `first` is the number of the segment's first record in the
generation: a later segment (higher seq) with first = k takes over from
record k on, so records after damage are never followed by new ones.
`need` is the number of records a generation must hold to count (0, but
for a compacted one: see below).  A record's crc is CRC-16/CCITT-FALSE
over generation(4) number(4) word(4), so a record from another match or
another place fails; its second copy inverted makes random bytes pass only
1 time in 2**32, and its last byte (the word's top byte, 0 or 1) is written
last and is never 0xFF, so a record cut short never reads as complete.  A
word below 2**24 is an action; UNDO takes back the last action.

WRITES.  An action programs the page that holds its record (0xFF in every
other byte): 1 page program.  A new match, or the next segment when one is
full, erases one segment that the current match does not use (the one
written longest ago: wear spreads over all) and programs its header page.
clear() programs the cleared mark into the match's header pages.  When a
match with many undos would need a seventh segment, its live actions are
copied to a new generation in free segments (need = their count); the old
one is left alone, so a cut during the copy leaves it as it was.

LOAD.  The header pages tell the generations; the newest whole one (all of
`need` present) is the match, unless it was cleared (NONE).  Either header
copy will do.  Its records are read page by page into one 256-byte buffer.
A record that fails its check followed by one that checks with the same
number was cut short and passed over; a failing record followed only by
erased space (or failing ones) is a torn tail: TORN, dropped; anything
else is damage: CORRUPT, everything before it is returned.
"""

from micropython import const

OK = const(0)
NONE = const(1)
TORN = const(2)
CORRUPT = const(3)

UNDO = const(0x01000000)
_ACTION_LIMIT = const(0x1000000)

BLOCK = const(4096)
PAGE = const(256)
RECORDS = const(480)  # records in a segment: pages 1-15, 32 a page
MAX_WORDS = const(4)  # table words a header holds
_PER_PAGE = const(32)
_REC = const(8)
_COPY_B = const(128)  # offset of the second header copy
_CRC_AT = const(44)
_MARK = const(252)
VERSION = const(2)  # of the segment format
_ERASED = const(-2)
_FAILS = const(-1)
_NO_LIMIT = const(0x10000)

# CRC-16/CCITT-FALSE, four bits at a time: a 16-entry table is enough.
_CRC_TABLE = (
    0x0000,
    0x1021,
    0x2042,
    0x3063,
    0x4084,
    0x50A5,
    0x60C6,
    0x70E7,
    0x8108,
    0x9129,
    0xA14A,
    0xB16B,
    0xC18C,
    0xD1AD,
    0xE1CE,
    0xF1EF,
)


def crc16(data, start, end, crc):
    """CRC-16/CCITT-FALSE of data[start:end], continuing from `crc` (0xFFFF to begin)."""
    for i in range(start, end):
        crc ^= data[i] << 8
        crc = ((crc << 4) & 0xFFFF) ^ _CRC_TABLE[crc >> 12]
        crc = ((crc << 4) & 0xFFFF) ^ _CRC_TABLE[crc >> 12]
    return crc


def get32(buf, at):
    """The little-endian 32-bit number at buf[at]."""
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def put32(buf, at, v):
    """Store v little-endian at buf[at:at + 4]."""
    buf[at] = v & 0xFF
    buf[at + 1] = (v >> 8) & 0xFF
    buf[at + 2] = (v >> 16) & 0xFF
    buf[at + 3] = (v >> 24) & 0xFF


class Journal:
    """The journal in the segments `blocks` of `dev`; see the module docstring."""

    def __init__(self, dev, blocks, area):
        self.dev = dev
        self.blocks = list(blocks)
        self.area = area
        n = len(self.blocks)
        self._seq = [-1] * n  # each segment's header seq; -1: no header checks
        self._gen = [0] * n
        self._first = [0] * n
        self._need = [0] * n
        self._mark = [False] * n
        self._page = bytearray(PAGE)  # the page last read
        self._at = -1  # which: segment * 16 + page; -1 none
        self._out = bytearray(b"\xff" * PAGE)  # a page to program: 0xFF but what changes
        self._crc = bytearray(12)
        self._known = False
        self._top = 0  # the highest seq on flash
        self._cur = -1  # the current generation; -1: none
        self._segs = []  # its segments, in seq order
        self._header = None
        self._words = ()
        self._need_cur = 0
        self._count = 0  # its records (undos included)
        self._wseg = -1  # the segment and slot the next record goes to
        self._wslot = RECORDS
        self._cleared = False
        self._soiled = False  # self._out holds bytes of a program that failed
        self._short = False  # the generation _read() last read lacks records

    # -- the interface Storage uses ------------------------------------------

    def load(self):
        """(header4 or None, actions, status): the words first, then the live actions."""
        self._scan()
        ids = []
        for i in range(len(self.blocks)):
            if self._seq[i] >= 0 and self._gen[i] not in ids:
                ids.append(self._gen[i])
        ids.sort()
        partial = None
        for k in range(len(ids) - 1, -1, -1):
            got = self._read(ids[k])
            if not self._short:
                return got
            if partial is None:
                partial = ids[k]
        if partial is not None:
            # Only a compacted generation short of records is left: damage.
            header, actions, _ = self._read(partial)
            return header, actions, CORRUPT
        self._cur = -1
        self._known = True
        return None, [], NONE

    def new_match(self, header4, words=()):
        """Erase a free segment and program the match's header page with `words`."""
        if len(words) > MAX_WORDS:
            raise ValueError("too many words for a header")
        for w in words:
            if not 0 <= w < _ACTION_LIMIT:
                raise ValueError("not an action")
        if not self._known:
            self.load()
        seg = self._free(())
        self._known = False
        gen = self._top + 1
        self._start(seg, gen, 0, 0, bytes(header4), tuple(words))
        self._cur = gen
        self._segs = [seg]
        self._header = bytes(header4)
        self._words = tuple(words)
        self._need_cur = 0
        self._count = 0
        self._wseg = seg
        self._wslot = 0
        self._cleared = False
        self._known = True

    def append(self, word):
        """Program one record (an action, or UNDO) before returning."""
        if not self._known:
            self.load()
        if self._cur < 0 or self._cleared:
            raise ValueError("no match: call new_match() first")
        if self._wslot >= RECORDS:
            self._known = False
            self._extend()
            self._known = True
        self._known = False
        slot = self._wslot
        crc = self._crc16_of(self._cur, self._count, word)
        self._put(slot, crc, word)
        self._flush(self._wseg, slot)
        self._blank((slot % _PER_PAGE) * _REC)
        self._count += 1
        self._wslot = slot + 1
        self._known = True

    def clear(self):
        """Mark the match cleared: load() then finds none (no erase)."""
        if not self._known:
            self.load()
        if self._cur < 0:
            return
        self._known = False
        if self._soiled:
            self._blank(-1)
        out = self._out
        for i in range(_MARK, PAGE):
            out[i] = 0
        self._soiled = True
        for seg in self._segs:
            self.dev.writeblocks(self.blocks[seg], out, 0)
            self._mark[seg] = True
        self._blank(-1)
        self._at = -1
        self._cleared = True
        self._known = True

    def forget(self):
        """Read the flash again before the next write (after an error)."""
        self._known = False

    # -- reading ---------------------------------------------------------------

    def _scan(self):
        # Every segment's header page: which generation, where it starts.
        page = self._page
        self._at = -1
        for i in range(len(self.blocks)):
            self.dev.readblocks(self.blocks[i], page, 0)
            self._seq[i] = -1
            at = self._copy(i)
            if at >= 0:
                self._seq[i] = get32(page, at + 8)
                self._gen[i] = get32(page, at + 12)
                self._first[i] = page[at + 16] | (page[at + 17] << 8)
                self._need[i] = page[at + 18] | (page[at + 19] << 8)
                zeros = 0
                for j in range(_MARK, PAGE):
                    if page[j] == 0:
                        zeros += 1
                # Two of four: one flipped bit neither clears a match nor revives one.
                self._mark[i] = zeros >= 2
                if self._seq[i] > self._top:
                    self._top = self._seq[i]

    def _copy(self, seg):
        # The offset of a header copy in self._page that checks, or -1.
        page = self._page
        for at in (0, _COPY_B):
            if (
                page[at] == 0x44
                and page[at + 1] == 0x4A
                and page[at + 2] == VERSION
                and page[at + 3] == seg
                and get32(page, at + 4) == self.area
                and page[at + 24] <= MAX_WORDS
                and crc16(page, at, at + _CRC_AT, 0xFFFF)
                == page[at + _CRC_AT] | (page[at + _CRC_AT + 1] << 8)
            ):
                return at
        return -1

    def _read(self, gen):
        # The match of generation `gen`; self._short tells if it lacks records.
        segs = []
        for i in range(len(self.blocks)):
            if self._seq[i] >= 0 and self._gen[i] == gen:
                segs.append(i)
        segs.sort(key=lambda i: self._seq[i])
        self._read_header(segs[0])
        need = self._need[segs[0]]
        actions = list(self._words)
        # A segment counts up to the first record of any later one.
        limits = [_NO_LIMIT] * len(segs)
        for j in range(len(segs) - 2, -1, -1):
            limits[j] = min(limits[j + 1], self._first[segs[j + 1]])
        n = 0
        status = OK
        slot = RECORDS
        for j in range(len(segs)):
            s = segs[j]
            if self._first[s] >= limits[j]:
                continue
            if self._first[s] != n:
                status = CORRUPT
                break
            n, slot, status = self._read_segment(s, gen, n, limits[j], actions)
            if status == OK and n < limits[j] < _NO_LIMIT:
                status = CORRUPT  # records missing before the next segment
            if status != OK:
                break
        self._short = n < need
        self._cur = gen
        self._segs = segs
        self._need_cur = need
        self._count = n
        self._wseg = segs[-1]
        # After damage the next record starts a new segment.
        self._wslot = RECORDS if status == CORRUPT else slot
        self._cleared = False
        for s in segs:
            if self._mark[s]:
                self._cleared = True
        self._known = True
        if self._cleared:
            return None, [], NONE
        return self._header, actions, status

    def _read_segment(self, seg, gen, n, limit, actions):
        # Records n.. of `seg` into actions: (n after them, the slot after
        # them, status).
        slot = 0
        base = len(self._words)
        while n < limit and slot < RECORDS:
            word = self._record(seg, slot, gen, n)
            if word >= 0 and (word < _ACTION_LIMIT or (word == UNDO and len(actions) > base)):
                if word == UNDO:
                    actions.pop()
                else:
                    actions.append(word)
                n += 1
                slot += 1
                continue
            if word == _ERASED:
                break
            after = self._after_failure(seg, slot + 1, gen, n)
            if after >= 0:
                slot = after
                continue
            if after == _ERASED and limit == _NO_LIMIT:
                return n, self._next_erased(seg, slot + 1), TORN
            return n, slot, CORRUPT
        return n, slot, OK

    def _read_header(self, seg):
        page = self._page
        self._at = -1
        self.dev.readblocks(self.blocks[seg], page, 0)
        at = self._copy(seg)
        self._header = bytes(page[at + 20 : at + 24])
        words = []
        for k in range(page[at + 24]):
            words.append(get32(page, at + 28 + 4 * k))
        self._words = tuple(words)

    def _after_failure(self, seg, slot, gen, n):
        # After a failing record: the slot of the next one that checks as
        # number n (a cut-short record was passed over), else _ERASED if only
        # failing or erased records follow to the end, else _FAILS.
        while slot < RECORDS:
            word = self._record(seg, slot, gen, n)
            if word >= 0:
                return slot
            if word == _ERASED:
                return _ERASED
            if self._record(seg, slot, gen, n + 1) >= 0:
                return _FAILS
            slot += 1
        return _ERASED

    def _next_erased(self, seg, slot):
        while slot < RECORDS and self._record(seg, slot, 0, 0) != _ERASED:
            slot += 1
        return slot

    def _record(self, seg, slot, gen, n):
        # The word of record `slot` if it checks as number n of `gen`;
        # _ERASED if it was never written; _FAILS otherwise.
        key = seg * 16 + 1 + slot // _PER_PAGE
        page = self._page
        if key != self._at:
            self.dev.readblocks(self.blocks[seg], page, (1 + slot // _PER_PAGE) * PAGE)
            self._at = key
        at = (slot % _PER_PAGE) * _REC
        erased = True
        for i in range(at, at + _REC):
            if page[i] != 0xFF:
                erased = False
                break
        if erased:
            return _ERASED
        word = get32(page, at + 4)
        crc = self._crc16_of(gen, n, word)
        if (
            page[at] | (page[at + 1] << 8) != crc
            or page[at + 2] | (page[at + 3] << 8) != crc ^ 0xFFFF
        ):
            return _FAILS
        return word

    def _crc16_of(self, gen, n, word):
        b = self._crc
        put32(b, 0, gen)
        put32(b, 4, n)
        put32(b, 8, word)
        return crc16(b, 0, 12, 0xFFFF)

    # -- writing ---------------------------------------------------------------

    def _put(self, slot, crc, word):
        # A record into its place in self._out.
        if self._soiled:
            self._blank(-1)
        out = self._out
        at = (slot % _PER_PAGE) * _REC
        out[at] = crc & 0xFF
        out[at + 1] = crc >> 8
        out[at + 2] = (crc & 0xFF) ^ 0xFF
        out[at + 3] = (crc >> 8) ^ 0xFF
        put32(out, at + 4, word)

    def _flush(self, seg, slot):
        # Program self._out as the page of `slot`.  Until _blank() the page
        # buffer counts as soiled, so a program cut off by an error leaves
        # nothing behind for the next one.
        self._at = -1
        self._soiled = True
        self.dev.writeblocks(self.blocks[seg], self._out, (1 + slot // _PER_PAGE) * PAGE)

    def _blank(self, at):
        # Back to 0xFF: the record at `at`, or (at < 0) the whole page.
        out = self._out
        for i in range(0 if at < 0 else at, PAGE if at < 0 else at + _REC):
            out[i] = 0xFF
        self._soiled = False

    def _free(self, taken):
        # The segment to erase next: not the current match's nor `taken`;
        # one without a header first, else the one written longest ago.
        best = -1
        for i in range(len(self.blocks)):
            if i in taken or (i in self._segs and self._cur >= 0):
                continue
            if best < 0 or self._seq[i] < self._seq[best]:
                best = i
        if best < 0:
            raise OSError(28, "no free journal segment")
        return best

    def _start(self, seg, gen, first, need, header, words):
        # Erase `seg` and program its header page (both copies at once).
        dev = self.dev
        block = self.blocks[seg]
        self._at = -1
        self._seq[seg] = -1
        dev.ioctl(6, block)
        self._top += 1
        out = bytearray(b"\xff" * PAGE)
        for at in (0, _COPY_B):
            out[at] = 0x44
            out[at + 1] = 0x4A
            out[at + 2] = VERSION
            out[at + 3] = seg
            put32(out, at + 4, self.area)
            put32(out, at + 8, self._top)
            put32(out, at + 12, gen)
            out[at + 16] = first & 0xFF
            out[at + 17] = first >> 8
            out[at + 18] = need & 0xFF
            out[at + 19] = need >> 8
            for k in range(4):
                out[at + 20 + k] = header[k]
            out[at + 24] = len(words)
            for k in range(25, 44):
                out[at + k] = 0
            for k in range(len(words)):
                put32(out, at + 28 + 4 * k, words[k])
            crc = crc16(out, at, at + _CRC_AT, 0xFFFF)
            out[at + _CRC_AT] = crc & 0xFF
            out[at + _CRC_AT + 1] = crc >> 8
        dev.writeblocks(block, out, 0)
        self._seq[seg] = self._top
        self._gen[seg] = gen
        self._first[seg] = first
        self._need[seg] = need
        self._mark[seg] = False

    def _extend(self):
        # The current segment is full (or follows damage): the next one.
        if len(self._segs) >= len(self.blocks) - 2:
            self._compact()
            if self._wslot < RECORDS:
                return
        seg = self._free(())
        self._start(seg, self._cur, self._count, self._need_cur, self._header, self._words)
        self._segs.append(seg)
        self._wseg = seg
        self._wslot = 0

    def _compact(self):
        # Copy the live actions to a new generation in free segments, a page
        # at a time; the old generation stays whole until the new one is.
        _, actions, _ = self._read(self._cur)
        live = actions[len(self._words) :]
        count = len(live)
        gen = self._top + 1
        new = []
        for k in range(0, max(count, 1), RECORDS):
            seg = self._free(new)
            new.append(seg)
            self._start(seg, gen, k, count, self._header, self._words)
            self._cur = gen
            end = min(count, k + RECORDS)
            for i in range(k, end):
                slot = i - k
                self._put(slot, self._crc16_of(gen, i, live[i]), live[i])
                if slot % _PER_PAGE == _PER_PAGE - 1 or i == end - 1:
                    self._flush(seg, slot)
                    self._blank(-1)
        self._cur = gen
        self._segs = new
        self._need_cur = count
        self._count = count
        self._wseg = new[-1]
        self._wslot = count - RECORDS * (len(new) - 1)
