"""The journal's segments on raw NOR flash: their header pages, the choice of
the segment to erase next, and the spare erased ahead.  hal/journal.py's
Journal, a Segments, keeps a match's records in them.

Segments(dev, blocks, area) holds the flash blocks `blocks` (one segment
each; hal/storage.py finds them) of the block device `dev` (rp2.Flash() on
the board, flashmodel/norflash.py in tests): readblocks(block, buf, offset),
writeblocks(block, buf, offset) programs whole 256-byte pages WITHOUT erasing
(bits only go 1 -> 0), ioctl(6, block) erases one block.  `area` is a 32-bit
number the storage drew when it made the segments.

A SEGMENT is one 4096-byte block: page 0 holds its header, pages 1-15 hold
480 records of 8 bytes (hal/journal.py).  Little-endian throughout.

    header copy, 46 bytes, at offsets 0 and 128 of page 0:
      "D" "J" version(1) segment(1) area(4) seq(4) generation(4) first(2)
      need(2) game players opt_lo opt_hi (the match header) nwords(1) 0 0 0
      words(4 x 4) crc(2)
    cleared mark: bytes 252-255 of page 0 (0xFF: the match runs; programmed
      to 0: it was cleared)

`seq` numbers every header ever programmed (the newest is the highest);
generation, first and need say which match the segment holds and from which
record (hal/journal.py).  The crc is CRC-16/CCITT-FALSE over the copy's first
44 bytes; the CRC's table and its functions (crc16, crc_word) are here, for
the records' checks too.

WRITES.  A new match, or the next segment when one is full, takes a segment
the current match does not use (the one written longest ago: wear spreads
over all), erased, and programs its header page.

THE SPARE.  Ahead of need (Journal.work_ahead()):
  - a free segment erased (45 ms on the W25Q16), then its header's first 8
    bytes ("D" "J" version segment area: what any header of it will hold)
    programmed, so that the segment files stay findable by their first bytes
    (hal/storage.py) while it waits;
  - the header page of the match's next segment built into a buffer, for
    the spare, the seq and the first record it will have.
A new match then programs its header page into the spare, and a full
segment's successor is the spare with its page already built: page programs
only.  Without the chance (no call since), the same work is done at need.
The spare is known in RAM only: after a power-up it is erased again, since a
cut during its erase could leave cells that read 0xFF without being erased
through.  Waiting, it reads as no segment of any generation (its header
copies fail their checks), and so does one cut during its erase or its
first bytes.
"""

from array import array
from struct import pack_into

from micropython import const

BLOCK = const(4096)
PAGE = const(256)
RECORDS = const(480)  # records in a segment: pages 1-15, 32 a page
MAX_WORDS = const(4)  # table words a header holds
MARK_AT = const(252)  # the cleared mark's offset in the header page
VERSION = const(2)  # of the segment format
_COPY_B = const(128)  # offset of the second header copy
_CRC_AT = const(44)

# Of what load() found (hal/journal_damage.py numbers them all), what a
# segment's _damage may be that the segments themselves look at.
_UNREADABLE = const(3)
_FOREIGN = const(4)
_ONE_COPY = const(6)


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


CRC_TABLE = _table()


def crc16(data, start, end, crc):
    """CRC-16/CCITT-FALSE of data[start:end], continuing from `crc` (0xFFFF to begin)."""
    # A while loop: a for loop's iterator would take the frame past 11 words.
    while start < end:
        crc = ((crc & 0xFF) << 8) ^ CRC_TABLE[(crc >> 8) ^ data[start]]
        start += 1
    return crc


def crc_word(v, crc):
    """The CRC continued over the 4 little-endian bytes of v."""
    t = CRC_TABLE
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


def damage_reader():
    """The reading of damage (hal/journal_damage.py): loaded only when there
    is some, and forgotten by its found() at the load's end."""
    from hal import journal_damage

    return journal_damage


def with_room(segs, n):
    """segs as a list with room for n: appending to it allocates nothing."""
    out = [0] * n
    del out[len(segs) :]
    for k in range(len(segs)):
        out[k] = segs[k]
    return out


class Segments:
    """The segments `blocks` of `dev`: each one's header, the page buffers and
    the spare; see the module docstring."""

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
        self._damage = bytearray(n)  # MENDED, UNREADABLE, FOREIGN or 0, by _scan()
        self._hurt = False  # _scan() found a damaged header
        self._page = bytearray(PAGE)  # the page last read
        self._at = -1  # which: segment * 16 + page; -1 none
        self._out = bytearray(b"\xff" * PAGE)  # a page to program: 0xFF but what changes
        # A header page: "D" "J" version and the area never change.
        self._head = bytearray(b"\xff" * PAGE)
        pack_into("<HBBI", self._head, 0, 0x4A44, VERSION, 0, area)
        pack_into("<HBBI", self._head, _COPY_B, 0x4A44, VERSION, 0, area)
        self._top = 0  # the highest seq on flash (or reserved)
        self._cur = -1  # the current generation; -1: none
        self._segs = []  # its segments, in seq order
        self._header = None
        self._words = ()
        self._match = bytes(24)  # header bytes 20-43: the match header, nwords, words
        self._cleared = False
        self._soiled = False  # self._out holds bytes of a program that failed
        self._spare = -1  # a segment erased ahead, its first bytes programmed
        # What self._head holds the page of (segment -1: nothing).
        self._hseg = -1
        self._hseq = 0
        self._hgen = 0
        self._hfirst = 0
        self._hneed = 0
        self._new = []  # the segments a compaction fills (hal/journal_compaction.py)

    # -- the headers ---------------------------------------------------------

    def _undamage(self):
        # Every segment's _damage forgotten, in place (a new match allocates nothing here).
        for i in range(len(self.blocks)):
            self._damage[i] = 0

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
                at = damage_reader().assess(self, i)
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
                for j in range(MARK_AT, PAGE):
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

    def _read_header(self, seg):
        page = self._page
        self._at = -1
        self.dev.readblocks(self.blocks[seg], page, 0)
        at = self._copy(seg)
        if at < 0:
            at = damage_reader().mend(self, seg)
        self._header = bytes(page[at + 20 : at + 24])
        self._match = bytes(page[at + 20 : at + 44])
        words = []
        for k in range(page[at + 24]):
            words.append(get32(page, at + 28 + 4 * k))
        self._words = tuple(words)

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

    # -- erasing and programming headers --------------------------------------

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
