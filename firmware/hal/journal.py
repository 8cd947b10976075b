"""The match journal in place on raw NOR flash: a page program per action, no erase.

Journal(dev, blocks, area) keeps the journal in the segments `blocks` of the
block device `dev`: hal/journal_segments.py has the device, the segments and
their header pages, hal/journal_compaction.py the compaction.  This module
has the records and the match they make.

A segment's pages 1-15 hold 480 records of 8 bytes.  Little-endian throughout.

    record, 8 bytes: crc(2) crc ^ 0xFFFF(2) word(4)

A GENERATION is one match's journal: its id is the seq of its first
segment, and every segment of it repeats the match header and the table's
words (the seats and seed records, committed with the header in one page
program).  `first` is the number of the segment's first record in the
generation: a later segment (higher seq) with first = k takes over from
record k on, so records after damage are never followed by new ones.
`need` is the number of records a generation must hold to count (0, but
for a compacted one: hal/journal_compaction.py).  A record's crc is
CRC-16/CCITT-FALSE over generation(4) number(4) word(4), so a record from
another match or another place fails; its second copy inverted makes random
bytes pass only 1 time in 2**32, and its last byte (the word's top byte, 0
or 1) is written last and is never 0xFF, so a record cut short never reads
as complete.  A word below 2**24 is an action; UNDO takes back the last
action.

WRITES.  An action programs the page that holds its record (0xFF in every
other byte): 1 page program.  A new match, or the next segment when one is
full, programs a header page into a free segment (hal/journal_segments.py).
clear() programs the cleared mark into the match's header pages.

AHEAD OF NEED.  work_ahead(), called when no input waits for its answer,
does one bounded step of what a commit would otherwise wait for, and says
whether it did one: the spare erased or the header page of the match's next
segment built (hal/journal_segments.py, "THE SPARE"), or a piece of a
compaction (hal/journal_compaction.py).  Without the chance (no call since),
the same work is done at need.

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

from struct import pack_into

from micropython import const

from hal.journal_segments import (
    CRC_TABLE,
    MARK_AT,
    MAX_WORDS,
    PAGE,
    RECORDS,
    Segments,
    crc_word,
    damage_reader,
    get32,
    with_room,
)

OK = const(0)
NONE = const(1)
TORN = const(2)
CORRUPT = const(3)

UNDO = const(0x01000000)
_ACTION_LIMIT = const(0x1000000)

_PER_PAGE = const(32)
_REC = const(8)
_ERASED = const(-2)
_FAILS = const(-1)
_NO_LIMIT = const(0x10000)

# A compaction's phases (Journal._phase; hal/journal_compaction.py).
_IDLE = const(0)
_FOLD = const(1)  # reading the old generation
_COPY = const(2)  # programming the new one's records


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


def _compaction():
    # The compaction's steps (hal/journal_compaction.py): imported at the first
    # need of one and kept, so that the journal always on the heap is only
    # what a match without many undos needs.
    from hal import journal_compaction

    return journal_compaction


def compaction_due(j):
    """A compaction is worth planning: the match has its segments but two,
    and its live actions would fit in two fewer."""
    n = len(j._segs)
    return (
        j._phase == _IDLE
        and j._cur >= 0
        and not j._cleared
        and n >= j._full
        and j._live <= RECORDS * (n - 2)
    )


class Journal(Segments):
    """The journal in the segments `blocks` of `dev`; see the module docstring."""

    def __init__(self, dev, blocks, area):
        Segments.__init__(self, dev, blocks, area)
        self._full = len(self.blocks) - 2  # segments of a match that call for a compaction
        self.found = ()  # what load() found: see DAMAGED HEADERS
        self._lost = None  # (segment, records) of the damage _read() met: where, how many lost
        self._known = False
        self._pre = 0  # the CRC after the generation's 4 bytes
        self._need_cur = 0
        self._count = 0  # its records (undos included)
        self._live = 0  # its live actions
        self._wseg = -1  # the segment and slot the next record goes to
        self._wslot = RECORDS
        self._short = False  # the generation _read() last read lacks records
        self._phase = _IDLE  # of a compaction (hal/journal_compaction.py); its state:
        self._fold = []  # the old generation's words and live actions, as read
        self._fj = 0  # where the reading is: index in _segs, slot, records read
        self._fslot = 0
        self._fn = 0
        self._limits = []
        self._cgen = -1  # the new generation
        self._cn = 0  # its records programmed
        self._from = 0  # the old records after the reading: from this number,
        self._fromslot = 0  # at this slot of _wseg on

    def stop_compaction(self, phase):
        """No compaction under way (its lists let go): _IDLE, or _FAILED (a
        method, so that hal/journal_compaction.py imports nothing of here)."""
        if self._phase != _IDLE:
            self._new = []
            self._fold = []
            self._limits = []
        self._phase = phase

    # -- the interface Storage uses ------------------------------------------

    def load(self):
        """(header4 or None, actions, status): the words first, then the live
        actions; `found` lists the damage met (module docstring)."""
        got = self._load()
        found = ()
        if self._hurt or got[2] == CORRUPT:
            found = damage_reader().found(self, got[0] is not None, got[2] == CORRUPT)
        self.found = found
        if got[0] is None and found:
            return None, [], CORRUPT  # no match read, but one may be in what is damaged
        return got

    def _load(self):
        self.stop_compaction(_IDLE)
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
        self.stop_compaction(_IDLE)
        self._undamage()  # a player asked: any segment may be erased
        self._match = match
        self._hseg = -1  # a page built ahead holds another match's header
        gen = self._top + 1
        seg = self._ready(gen, 0, 0)
        self._begin(seg, gen, 0)
        self._cur = gen
        self._segs = with_room([seg], len(self.blocks))
        self._header = bytes(header4)
        self._words = tuple(words)
        self._pre = crc_word(gen, 0xFFFF)
        self._need_cur = 0
        self._count = 0
        self._live = 0
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
        self._known = False
        if self._soiled:
            self._blank()
        # The record's crc, inline: generation (in _pre), number, word.
        n = self._count
        c = self._pre
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ (n & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ ((n >> 8) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ ((n >> 16) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ (n >> 24)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ (word & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ ((word >> 8) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ ((word >> 16) & 0xFF)]
        c = ((c & 0xFF) << 8) ^ CRC_TABLE[(c >> 8) ^ (word >> 24)]
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
        self.stop_compaction(_IDLE)
        if self._soiled:
            self._blank()
        pack_into("<i", self._out, MARK_AT, 0)
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
            or (len(self._segs) >= self._full and compaction_due(self))
        ):
            _compaction().compact_step(self)
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

    def _read(self, gen):
        # The match of generation `gen`; self._short tells if it lacks records.
        segs = self._segments_of(gen)
        self._read_header(segs[0])
        need = self._need[segs[0]]
        pre = crc_word(gen, 0xFFFF)
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
                    and damage_reader().adopt(
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
                and damage_reader().adopt(self, pre, n, segs, limits, j + 1, limits[j])
            ):
                j += 1
                continue
            if status == OK and n < limits[j] < _NO_LIMIT:
                status = CORRUPT  # records missing before the next segment
            if status != OK:
                break
            j += 1
        if status == CORRUPT:
            self._lost = (segs[j], damage_reader().lost_from(self, segs, limits, j, slot))
        elif self._damage[segs[-1]]:
            slot = RECORDS  # what follows goes to a segment with a header that checks
        self._short = n < need
        self._cur = gen
        self._segs = with_room(segs, len(self.blocks))
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
        t = CRC_TABLE
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
        crc = crc_word(word, crc_word(n, pre))
        if (
            page[at] | (page[at + 1] << 8) != crc
            or page[at + 2] | (page[at + 3] << 8) != crc ^ 0xFFFF
        ):
            return _FAILS
        return word

    # -- writing ---------------------------------------------------------------

    def _extend(self):
        # The current segment is full (or follows damage): the next one.
        if len(self._segs) >= self._full:
            _compaction().compact_at_need(self)
            if self._wslot < RECORDS:
                return
        seg = self._ready(self._cur, self._count, self._need_cur)
        self._begin(seg, self._cur, self._count)
        self._segs.append(seg)
        self._wseg = seg
        self._wslot = 0
