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
full, takes a segment the current match does not use (the one written
longest ago: wear spreads over all), erased, and programs its header page.
clear() programs the cleared mark into the match's header pages.

AHEAD OF NEED.  work_ahead(), called when no input waits for its answer,
does one bounded step of what a commit would otherwise wait for, and says
whether it did one:
  - the SPARE: a free segment erased (45 ms on the W25Q16), then its header's
    first 8 bytes ("D" "J" version segment area: what any header of it will
    hold) programmed, so that the segment files stay findable by their first
    bytes (hal/storage.py) while it waits;
  - the header page of the match's next segment built into a buffer, for
    the spare, the seq and the first record it will have;
  - a piece of a compaction (below).
A new match then programs its header page into the spare, and a full
segment's successor is the spare with its page already built: page programs
only.  Without the chance (no call since), the same work is done at need.
The spare is known in RAM only: after a power-up it is erased again, since a
cut during its erase could leave cells that read 0xFF without being erased
through.  Waiting, it reads as no segment of any generation (its header
copies fail their checks), and so does one cut during its erase or its
first bytes.

COMPACTION.  When a match with many undos uses every segment but two and
its live actions would fit in two segments fewer, they are copied to a new
generation in free segments, in steps of work_ahead(): the old generation is
read a page at a time and folded; then the live actions, then the records
appended since (as they are, undos as undos), are programmed a page at a
time into segments that have no header yet, so load() passes over them; last
the headers are programmed (need = every record copied), the first segment's
last: until that page program is whole the old generation is the match, after
it the new one.  A commit whose match needs a segment more than that (the
work ahead had no chance) compacts it, or ends the compaction under way, itself.

LOAD.  The header pages tell the generations; the newest whole one (all of
`need` present) is the match, unless it was cleared (NONE).  Either header
copy will do (one that fails, or differs from the other, is said: COPY);
when both fail but differ in just two bytes, the copy with one of them
taken from the other that checks is the header (MENDED).  Its records are
read page by page into one 256-byte buffer.  A record that fails
its check followed by one that checks with the same number was cut short and
passed over; a failing record followed only by erased space (or failing
ones) is a torn tail: TORN, dropped; anything else is damage: CORRUPT,
everything before it is returned, and the next record starts a segment.

DAMAGED HEADERS.  A segment whose header copies both start as this table's
("D" "J" segment area) and hold more than a spare's first bytes, yet neither
checks nor mends, is UNREADABLE; one whose copies name another format
version is FOREIGN.  A cut while a header page is programmed leaves the
second copy erased, and a cut erase leaves no such start: neither counts.
Records check themselves (their crc covers the generation and their
number), so an unreadable segment whose records continue the match where
its segments leave off is read as the match's (BY_RECORDS).  While no match
runs, unreadable and foreign segments are kept as they are (no spare is
erased from them) until a player starts a new match.  load() lists what it
found in `found`: (what, segment, a, b) tuples, one a damage, for the
power-up's log (app/resume.py says them):
  (COPY, seg, 0, 0)          one copy of the match's header damaged, the other read
  (MENDED, seg, 0, 0)        the match's header mended from its two copies
  (BY_RECORDS, seg, 0, 0)    the match's segment read by its records alone
  (UNREADABLE, seg, 0, 0)    a segment no match read
  (FOREIGN, seg, v, VERSION) a segment of format version v
  (LOST, seg, lost, 0)       CORRUPT: damage in segment seg; `lost` records
                             written from it on were not taken
"""

from array import array
from struct import pack_into

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

# Of what load() found (hal/journal_damage.py numbers them all), what a
# segment's _damage may be that the journal itself looks at.
_UNREADABLE = const(3)
_FOREIGN = const(4)
_ONE_COPY = const(6)
_ERASED = const(-2)
_FAILS = const(-1)
_NO_LIMIT = const(0x10000)

# A compaction's phases (Journal._phase).
_IDLE = const(0)
_FOLD = const(1)  # reading the old generation
_COPY = const(2)  # programming the new one's records
_FAILED = const(3)  # given up until the next load() or new_match()


def _table():
    # CRC-16/CCITT-FALSE a byte at a time: the 256 remainders (512 bytes).  The
    # CRC is linear, T[a ^ b] = T[a] ^ T[b], and the byte 1 << k leaves the
    # register that 0x8000 becomes in k + 1 steps: 8 steps and 248 XORs.
    t = array("H", bytes(512))
    c = 0x8000
    for k in range(8):
        c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else c << 1
        t[1 << k] = c
    for i in range(3, 256):
        if i & (i - 1):
            t[i] = t[i & (i - 1)] ^ t[i & -i]
    return t


_T8 = _table()


def crc16(data, start, end, crc):
    """CRC-16/CCITT-FALSE of data[start:end], continuing from `crc` (0xFFFF to begin)."""
    # A while loop: a for loop's iterator would take the frame past 11 words.
    while start < end:
        crc = ((crc & 0xFF) << 8) ^ _T8[(crc >> 8) ^ data[start]]
        start += 1
    return crc


def _crc4(v, crc):
    # The CRC continued over the 4 little-endian bytes of v.
    t = _T8
    crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ (v & 0xFF)]
    crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((v >> 8) & 0xFF)]
    crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((v >> 16) & 0xFF)]
    return ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((v >> 24) & 0xFF)]


def get32(buf, at):
    """The little-endian 32-bit number at buf[at]."""
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def put32(buf, at, v):
    """Store v little-endian at buf[at:at + 4]."""
    buf[at] = v & 0xFF
    buf[at + 1] = (v >> 8) & 0xFF
    buf[at + 2] = (v >> 16) & 0xFF
    buf[at + 3] = (v >> 24) & 0xFF


def _match_block(header4, words):
    # Bytes 20-43 of a header: the match header, nwords, 0 0 0, the words.
    if len(words) > MAX_WORDS:
        raise ValueError("too many words for a header")
    block = bytearray(24)
    block[:4] = header4
    block[4] = len(words)
    k = 0
    while k < len(words):
        if not 0 <= words[k] < _ACTION_LIMIT:
            raise ValueError("not an action")
        pack_into("<I", block, 8 + 4 * k, words[k])
        k += 1
    return bytes(block)


def _damage():
    # The reading of damage (hal/journal_damage.py): loaded only when there
    # is some, and forgotten by its found() at the load's end.
    from hal import journal_damage

    return journal_damage


def _room(segs, n):
    # segs as a list with room for n: appending to it allocates nothing.
    out = [0] * n
    del out[len(segs) :]
    for k in range(len(segs)):
        out[k] = segs[k]
    return out


class Journal:
    """The journal in the segments `blocks` of `dev`; see the module docstring."""

    def __init__(self, dev, blocks, area):
        self.dev = dev
        self.blocks = list(blocks)
        self.area = area
        n = len(self.blocks)
        self._full = n - 2  # segments of a match that call for a compaction
        self._seq = [-1] * n  # each segment's header seq; -1: no header checks
        self._gen = [0] * n
        self._first = [0] * n
        self._need = [0] * n
        self._mark = [False] * n
        self._damage = bytearray(n)  # MENDED, UNREADABLE, FOREIGN or 0, by _scan()
        self.found = ()  # what load() found: see DAMAGED HEADERS
        self._hurt = False  # _scan() found a damaged header
        self._lost = None  # (segment, records) of the damage _read() met: where, how many lost
        self._page = bytearray(PAGE)  # the page last read
        self._at = -1  # which: segment * 16 + page; -1 none
        self._out = bytearray(b"\xff" * PAGE)  # a page to program: 0xFF but what changes
        # A header page: "D" "J" version and the area never change.
        self._head = bytearray(b"\xff" * PAGE)
        pack_into("<HBBI", self._head, 0, 0x4A44, VERSION, 0, area)
        pack_into("<HBBI", self._head, _COPY_B, 0x4A44, VERSION, 0, area)
        self._known = False
        self._top = 0  # the highest seq on flash (or reserved)
        self._cur = -1  # the current generation; -1: none
        self._segs = []  # its segments, in seq order
        self._header = None
        self._words = ()
        self._match = bytes(24)  # header bytes 20-43: the match header, nwords, words
        self._pre = 0  # the CRC after the generation's 4 bytes
        self._need_cur = 0
        self._count = 0  # its records (undos included)
        self._live = 0  # its live actions
        self._wseg = -1  # the segment and slot the next record goes to
        self._wslot = RECORDS
        self._cleared = False
        self._soiled = False  # self._out holds bytes of a program that failed
        self._short = False  # the generation _read() last read lacks records
        self._spare = -1  # a segment erased ahead, its first bytes programmed
        # What self._head holds the page of (segment -1: nothing).
        self._hseg = -1
        self._hseq = 0
        self._hgen = 0
        self._hfirst = 0
        self._hneed = 0
        self._phase = _IDLE  # of a compaction; its state:
        self._new = []  # the new generation's segments
        self._fold = []  # the old one's words and live actions, as read
        self._fj = 0  # where the reading is: index in _segs, slot, records read
        self._fslot = 0
        self._fn = 0
        self._limits = []
        self._cgen = -1  # the new generation
        self._cn = 0  # its records programmed
        self._from = 0  # the old records after the reading: from this number,
        self._fromslot = 0  # at this slot of _wseg on

    # -- the interface Storage uses ------------------------------------------

    def load(self):
        """(header4 or None, actions, status): the words first, then the live
        actions; `found` lists the damage met (module docstring)."""
        got = self._load()
        found = ()
        if self._hurt or got[2] == CORRUPT:
            found = _damage().found(self, got[0] is not None, got[2] == CORRUPT)
        self.found = found
        if got[0] is None and found:
            return None, [], CORRUPT  # no match read, but one may be in what is damaged
        return got

    def _load(self):
        self._stop(_IDLE)
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
        """Program the match's header page with `words` into an erased segment
        (the spare if there is one: no erase)."""
        match = _match_block(header4, words)
        if not self._known:
            self.load()
        self._known = False
        self._stop(_IDLE)
        self._undamage()  # a player asked: any segment may be erased
        self._match = match
        self._hseg = -1  # a page built ahead holds another match's header
        gen = self._top + 1
        seg = self._ready(gen, 0, 0)
        self._begin(seg, gen, 0)
        self._cur = gen
        self._segs = _room([seg], len(self.blocks))
        self._header = bytes(header4)
        self._words = tuple(words)
        self._pre = _crc4(gen, 0xFFFF)
        self._need_cur = 0
        self._count = 0
        self._live = 0
        self._wseg = seg
        self._wslot = 0
        self._cleared = False
        self._known = True

    def _undamage(self):
        # Every segment's _damage forgotten, in place (a new match allocates nothing here).
        for i in range(len(self.blocks)):
            self._damage[i] = 0

    def append(self, word):
        """Program one record (an action, or UNDO) before returning."""
        if not self._known:
            self.load()
        if self._cur < 0 or self._cleared:
            raise ValueError("no match: call new_match() first")
        if self._wslot >= RECORDS:
            self._known = False
            self._extend()
        self._known = False
        if self._soiled:
            self._blank()
        # The record's crc, inline: generation (in _pre), number, word.
        n = self._count
        c = self._pre
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ (n & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ ((n >> 8) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ ((n >> 16) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ (n >> 24)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ (word & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ ((word >> 8) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ ((word >> 16) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ _T8[(c >> 8) ^ (word >> 24)]
        n = self._wslot
        pack_into("<HHI", self._out, (n & 31) << 3, c, c ^ 0xFFFF, word)
        # Until blanked again the buffer counts as soiled, so that a program
        # cut off by an error leaves nothing behind for the next one.
        self._soiled = True
        self._at = -1
        self.dev.writeblocks(self.blocks[self._wseg], self._out, ((n >> 5) + 1) << 8)
        pack_into("<q", self._out, (n & 31) << 3, -1)
        self._soiled = False
        self._count += 1
        self._wslot = n + 1
        self._live += -1 if word == UNDO else 1
        self._known = True

    def clear(self):
        """Mark the match cleared: load() then finds none (no erase)."""
        if not self._known:
            self.load()
        if self._cur < 0:
            return
        self._known = False
        self._stop(_IDLE)
        if self._soiled:
            self._blank()
        pack_into("<i", self._out, _MARK, 0)
        self._soiled = True
        k = 0
        while k < len(self._segs):
            self.dev.writeblocks(self.blocks[self._segs[k]], self._out, 0)
            self._mark[self._segs[k]] = True
            k += 1
        self._blank()
        self._at = -1
        self._cleared = True
        self._known = True

    def forget(self):
        """Read the flash again before the next write (after an error); the
        spare and any work ahead are forgotten."""
        self._known = False
        self._spare = -1
        self._hseg = -1

    def work_ahead(self):
        """One bounded step of work ahead of need (module docstring): True if
        it did one, False (and nothing allocated) if there was none to do."""
        if not self._known:
            return False
        if (
            self._phase == _FOLD
            or self._phase == _COPY
            or (len(self._segs) >= self._full and self._due())
        ):
            self._compact_step()
            return True
        if self._spare < 0:
            seg = self._free()
            if seg < 0:
                return False  # every segment holds a match: none to erase
            self._known = False
            self._erase(seg)
            self._known = True
            return True
        if (
            self._cur >= 0
            and not self._cleared
            and (
                self._hseg != self._spare
                or self._hseq != self._top + 1
                or self._hgen != self._cur
                or self._hfirst != self._count + RECORDS - self._wslot
            )
        ):
            self._hseg = -1
            self._hseq = self._top + 1
            self._hgen = self._cur
            self._hfirst = self._count + RECORDS - self._wslot
            self._hneed = self._need_cur
            self._hseg = self._spare
            self._build()
            return True
        return False

    # -- reading ---------------------------------------------------------------

    def _scan(self):
        # Every segment's header page: which generation, where it starts.
        page = self._page
        self._at = -1
        self._hurt = False
        for i in range(len(self.blocks)):
            self.dev.readblocks(self.blocks[i], page, 0)
            self._seq[i] = -1
            self._mark[i] = False
            self._damage[i] = 0
            at = self._copy(i)
            if at < 0 and self._differ(0xFF):
                # Neither copy checks, and it is no spare nor a header page cut short.
                at = _damage().assess(self, i)
            elif at == _COPY_B or (at == 0 and self._differ(-1)):
                self._damage[i] = _ONE_COPY
            if self._damage[i]:
                self._hurt = True
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

    def _differ(self, byte):
        # Whether header copy B in self._page differs from copy A (byte -1),
        # or from an erased copy (byte 0xFF): no slice, nothing allocated.
        page = self._page
        for p in range(_CRC_AT + 2):
            if page[_COPY_B + p] != (page[p] if byte < 0 else byte):
                return True
        return False

    def _read(self, gen):
        # The match of generation `gen`; self._short tells if it lacks records.
        segs = self._segments_of(gen)
        self._read_header(segs[0])
        need = self._need[segs[0]]
        pre = _crc4(gen, 0xFFFF)
        actions = list(self._words)
        limits = self._limits_of(segs)
        n = 0
        status = OK
        slot = RECORDS
        self._lost = None
        j = 0
        while j < len(segs):
            s = segs[j]
            if self._first[s] >= limits[j]:
                j += 1
                continue
            if self._first[s] != n:
                # Records missing before s: a segment whose header is lost may hold them.
                if (
                    self._hurt
                    and self._first[s] > n
                    and _damage().adopt(
                        self, pre, n, segs, limits, j, min(limits[j], self._first[s])
                    )
                ):
                    continue
                status = CORRUPT
                slot = 0
                break
            n, slot, status = self._read_segment(s, pre, n, limits[j], actions, 0, RECORDS)
            # Full, and more to come: the next may be one whose header is lost.
            if (
                status == OK
                and slot >= RECORDS
                and n < limits[j]
                and self._hurt
                and _damage().adopt(self, pre, n, segs, limits, j + 1, limits[j])
            ):
                j += 1
                continue
            if status == OK and n < limits[j] < _NO_LIMIT:
                status = CORRUPT  # records missing before the next segment
            if status != OK:
                break
            j += 1
        if status == CORRUPT:
            self._lost = (segs[j], _damage().lost_from(self, segs, limits, j, slot))
        elif self._damage[segs[-1]]:
            slot = RECORDS  # what follows goes to a segment with a header that checks
        self._short = n < need
        self._cur = gen
        self._segs = _room(segs, len(self.blocks))
        self._pre = pre
        self._need_cur = need
        self._count = n
        self._live = len(actions) - len(self._words)
        self._wseg = segs[-1]
        # After damage the next record starts a new segment.
        self._wslot = RECORDS if status == CORRUPT else slot
        self._cleared = self._marked(segs)
        self._known = True
        if self._cleared:
            return None, [], NONE
        return self._header, actions, status

    def _segments_of(self, gen):
        # The segments of generation `gen` whose headers check, in seq order.
        segs = []
        for i in range(len(self.blocks)):
            if self._seq[i] >= 0 and self._gen[i] == gen:
                segs.append(i)
        segs.sort(key=lambda i: self._seq[i])
        return segs

    def _marked(self, segs):
        # Whether any of segs has the cleared mark.
        for s in segs:
            if self._mark[s]:
                return True
        return False

    def _limits_of(self, segs):
        # A segment counts up to the first record of any later one.
        limits = [_NO_LIMIT] * len(segs)
        for j in range(len(segs) - 2, -1, -1):
            limits[j] = min(limits[j + 1], self._first[segs[j + 1]])
        return limits

    def _read_segment(self, seg, pre, n, limit, actions, slot, stop):
        # Records n.. of `seg` from `slot`, up to slot `stop`, into actions:
        # (n after them, the slot after them, status).
        base = len(self._words)
        page = self._page
        t = _T8
        while n < limit and slot < stop:
            # _record()'s check of a whole record, inlined: the power-up reads
            # every record of the match, and four calls a record were most of
            # its time.  Anything else (erased, failing) takes _record().
            key = seg * 16 + 1 + slot // _PER_PAGE
            if key != self._at:
                self.dev.readblocks(self.blocks[seg], page, (1 + slot // _PER_PAGE) * PAGE)
                self._at = key
            at = (slot % _PER_PAGE) * _REC
            crc = ((pre & 0xFF) << 8) ^ t[(pre >> 8) ^ (n & 0xFF)]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((n >> 8) & 0xFF)]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((n >> 16) & 0xFF)]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ ((n >> 24) & 0xFF)]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ page[at + 4]]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ page[at + 5]]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ page[at + 6]]
            crc = ((crc & 0xFF) << 8) ^ t[(crc >> 8) ^ page[at + 7]]
            if (
                page[at] | (page[at + 1] << 8) == crc
                and page[at + 2] | (page[at + 3] << 8) == crc ^ 0xFFFF
            ):
                word = (
                    page[at + 4] | (page[at + 5] << 8) | (page[at + 6] << 16) | (page[at + 7] << 24)
                )
            else:
                word = self._record(seg, slot, pre, n)
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
            after = self._after_failure(seg, slot + 1, pre, n)
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
        if at < 0:
            at = _damage().mend(self, seg)
        self._header = bytes(page[at + 20 : at + 24])
        self._match = bytes(page[at + 20 : at + 44])
        words = []
        for k in range(page[at + 24]):
            words.append(get32(page, at + 28 + 4 * k))
        self._words = tuple(words)

    def _after_failure(self, seg, slot, pre, n):
        # After a failing record: the slot of the next one that checks as
        # number n (a cut-short record was passed over), else _ERASED if only
        # failing or erased records follow to the end, else _FAILS.
        while slot < RECORDS:
            word = self._record(seg, slot, pre, n)
            if word >= 0:
                return slot
            if word == _ERASED:
                return _ERASED
            if self._record(seg, slot, pre, n + 1) >= 0:
                return _FAILS
            slot += 1
        return _ERASED

    def _next_erased(self, seg, slot):
        while slot < RECORDS and self._record(seg, slot, 0, 0) != _ERASED:
            slot += 1
        return slot

    def _record(self, seg, slot, pre, n):
        # The word of record `slot` if it checks as number n of the generation
        # whose CRC is `pre`; _ERASED if it was never written; _FAILS otherwise.
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
        crc = _crc4(word, _crc4(n, pre))
        if (
            page[at] | (page[at + 1] << 8) != crc
            or page[at + 2] | (page[at + 3] << 8) != crc ^ 0xFFFF
        ):
            return _FAILS
        return word

    # -- writing ---------------------------------------------------------------

    def _blank(self):
        # self._out back to 0xFF.
        out = self._out
        for i in range(PAGE):
            out[i] = 0xFF
        self._soiled = False

    def _free(self):
        # The segment to erase next, or -1: none of the current match's, a
        # compaction's or the spare; one without a header first, else the
        # one written longest ago.
        best = -1
        idle = self._cur < 0 or self._cleared
        for i in range(len(self.blocks)):
            if i == self._spare or (self._cur >= 0 and i in self._segs) or i in self._new:
                continue
            if idle and (self._damage[i] == _UNREADABLE or self._damage[i] == _FOREIGN):
                continue  # kept as it is until a player starts a new match
            if best < 0 or self._seq[i] < self._seq[best]:
                best = i
        return best

    def _erase(self, seg):
        # Erase `seg`, then program its header's first 8 bytes: the spare.
        self._spare = -1
        self._hseg = -1
        self._seq[seg] = -1
        self._at = -1
        self.dev.ioctl(6, self.blocks[seg])
        if self._soiled:
            self._blank()
        out = self._out
        pack_into("<HBBI", out, 0, 0x4A44, VERSION, seg, self.area)
        self._soiled = True
        self.dev.writeblocks(self.blocks[seg], out, 0)
        pack_into("<q", out, 0, -1)
        self._soiled = False
        self._spare = seg

    def _ready(self, gen, first, need):
        # The spare with the header page for (the next seq, gen, first, need)
        # in self._head: as built ahead, or now (and the spare erased now if
        # there is none).
        seg = self._spare
        if (
            seg >= 0
            and self._hseg == seg
            and self._hseq == self._top + 1
            and self._hgen == gen
            and self._hfirst == first
        ):
            return seg
        if seg < 0:
            seg = self._free()
            if seg < 0:
                raise OSError(28, "no free journal segment")
            self._erase(seg)
        self._hseg = -1
        self._hseq = self._top + 1
        self._hgen = gen
        self._hfirst = first
        self._hneed = need
        self._hseg = seg
        self._build()
        return seg

    def _build(self):
        # The header page of (_hseg, _hseq, _hgen, _hfirst, _hneed) and the
        # match into self._head: both copies, one crc.
        h = self._head
        h[3] = self._hseg
        pack_into("<IIHH24s", h, 8, self._hseq, self._hgen, self._hfirst, self._hneed, self._match)
        pack_into("<H", h, _CRC_AT, crc16(h, 0, _CRC_AT, 0xFFFF))
        h[_COPY_B + 3] = self._hseg
        pack_into(
            "<IIHH24s",
            h,
            _COPY_B + 8,
            self._hseq,
            self._hgen,
            self._hfirst,
            self._hneed,
            self._match,
        )
        h[_COPY_B + _CRC_AT] = h[_CRC_AT]
        h[_COPY_B + _CRC_AT + 1] = h[_CRC_AT + 1]

    def _begin(self, seg, gen, first):
        # Program self._head, built for the spare `seg`: it is gen's now.
        self._at = -1
        self.dev.writeblocks(self.blocks[seg], self._head, 0)
        if seg == self._spare:
            self._spare = -1
        self._hseg = -1
        if self._hseq > self._top:
            self._top = self._hseq
        self._seq[seg] = self._hseq
        self._gen[seg] = gen
        self._first[seg] = first
        self._need[seg] = self._hneed
        self._mark[seg] = False

    def _extend(self):
        # The current segment is full (or follows damage): the next one.
        if len(self._segs) >= self._full:
            self._compact()
            if self._wslot < RECORDS:
                return
        seg = self._ready(self._cur, self._count, self._need_cur)
        self._begin(seg, self._cur, self._count)
        self._segs.append(seg)
        self._wseg = seg
        self._wslot = 0

    # -- compaction ------------------------------------------------------------

    def _due(self):
        # A compaction is worth planning: the match has its segments but two,
        # and its live actions would fit in two fewer.
        n = len(self._segs)
        return (
            self._phase == _IDLE
            and self._cur >= 0
            and not self._cleared
            and n >= self._full
            and self._live <= RECORDS * (n - 2)
        )

    def _compact(self):
        # At need: the whole compaction now, or the rest of one under way.
        if self._phase == _FAILED:
            self._phase = _IDLE  # try again
        while True:
            self._compact_step()
            if self._phase != _FOLD and self._phase != _COPY:
                return

    def _stop(self, phase):
        # No compaction under way (its lists let go): _IDLE, or _FAILED.
        if self._phase != _IDLE:
            self._new = []
            self._fold = []
            self._limits = []
        self._phase = phase

    def _compact_step(self):
        # One step: a page of the old generation read, a segment erased, a
        # page of records programmed, or the headers programmed.
        if self._phase != _FOLD and self._phase != _COPY:
            self._phase = _FOLD
            self._fold = list(self._words)
            self._limits = self._limits_of(self._segs)
            self._fj = self._fslot = self._fn = 0
            self._new = []
        if self._phase == _FOLD:
            self._fold_step()
            return
        self._known = False
        total = len(self._fold) - len(self._words) + self._count - self._from
        k = self._cn
        if not self._new or (k < total and k // RECORDS >= len(self._new)):
            if self._spare < 0:
                seg = self._free()
                if seg < 0:
                    self._stop(_FAILED)  # no room for the copy
                else:
                    self._erase(seg)
                self._known = True
                return
            self._new.append(self._spare)
            self._spare = -1
            self._hseg = -1
        if k < total:
            self._copy_page(k, total)
        # Caught up: the switch in the same step, or a commit between every
        # step would keep it one record behind.
        if self._phase == _COPY and self._cn == total:
            self._switch(total)
        self._known = True

    def _fold_step(self):
        # A page of the old generation's records read into self._fold (as
        # _read() reads them); after its last one, the new generation's id.
        segs = self._segs
        j = self._fj
        s = segs[j]
        limit = self._limits[j]
        last = j == len(segs) - 1
        n = self._fn
        slot = self._fslot
        if self._first[s] < limit:
            if slot == 0 and self._first[s] != n:
                self._stop(_FAILED)
                return
            stop = min(slot + _PER_PAGE, RECORDS)
            n, slot, status = self._read_segment(s, self._pre, n, limit, self._fold, slot, stop)
            self._fn = n
            self._fslot = slot
            if status == CORRUPT:
                self._stop(_FAILED)
                return
            if status == OK and n < limit:
                if slot >= stop and slot < RECORDS:
                    return  # more of this segment next time
                if not last:
                    self._stop(_FAILED)  # records missing before the next segment
                    return
        if not last:
            self._fj = j + 1
            self._fslot = 0
            return
        # The old generation read to its end: its records since come as they are.
        if self._fn != self._count or self._fslot != self._wslot:
            self._stop(_FAILED)
            return
        self._from = self._count
        self._fromslot = self._wslot
        self._cgen = self._top + 1
        self._top += len(self.blocks)  # seqs for every segment of it
        self._cn = 0
        self._phase = _COPY

    def _copy_page(self, k, total):
        # New records k.. to the end of their page (or `total`): the live
        # actions read, then the old records appended since, as they are.
        base = len(self._words)
        live = len(self._fold) - base
        pre = _crc4(self._cgen, 0xFFFF)
        old = self._pre
        seg = self._new[k // RECORDS]
        end = min(total, k - k % _PER_PAGE + _PER_PAGE)  # a page never spans two segments
        if self._soiled:
            self._blank()
        self._soiled = True
        for i in range(k, end):
            if i < live:
                word = self._fold[base + i]
            else:
                at = i - live
                word = self._record(self._wseg, self._fromslot + at, old, self._from + at)
                if word < 0:
                    self._stop(_FAILED)
                    self._blank()
                    return
            c = _crc4(word, _crc4(i, pre))
            pack_into("<HHI", self._out, (i % _PER_PAGE) * _REC, c, c ^ 0xFFFF, word)
        self._at = -1
        self.dev.writeblocks(self.blocks[seg], self._out, (1 + (k % RECORDS) // _PER_PAGE) * PAGE)
        self._blank()
        self._cn = end

    def _switch(self, total):
        # Every record copied: the headers, the first segment's last; the new
        # generation is the match from that page program on.
        new = self._new
        gen = self._cgen
        for i in range(len(new) - 1, -1, -1):
            self._hseg = -1
            self._hseq = gen + i
            self._hgen = gen
            self._hfirst = i * RECORDS
            self._hneed = total
            self._hseg = new[i]
            self._build()
            self._begin(new[i], gen, i * RECORDS)
        self._phase = _IDLE
        self._cur = gen
        self._segs = _room(new, len(self.blocks))
        self._pre = _crc4(gen, 0xFFFF)
        self._need_cur = total
        self._count = total
        self._wseg = new[-1]
        self._wslot = total - RECORDS * (len(new) - 1)
        self._stop(_IDLE)
