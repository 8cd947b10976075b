"""The tag registry: which physical item each RFID tag is.

An entry is (uid bytes, game index, item): the game in dicetable.games.GAMES order and
the item's identity in that game's rules-core encoding (games.identity: a die
without its rolled number, a card as printed).  A tag is one item, and an item
of a game has at most one tag.

The registry is held as storage keeps it (hal/storage.py): one bytearray of
14-byte records, sorted by UID, so that the file loads into RAM as it is: a
full table (every item of every game, 201 tags) is 2,814 bytes, where the two
dicts of bytes keys it replaces took 10 KB of MicroPython's heap (measured
under MicroPython at 496a2e2; tests/test_app_heap.py pins that loading it
allocates nothing).  A lookup is a binary search that allocates nothing but
its answer.

    record: uid length(1) uid(10, zero padded) game(1) item(2, little-endian)

Records sort by their first 11 bytes (length, then the UID).  adopt() takes
records from storage (sorting them if they are not in order: a file written
before they were) and drops a UID given twice; load() builds them from
entries, refusing an invalid entry, a second tag for an item or a second item
for a tag.  The host tools read the registry as CSV (export_csv).
"""

from micropython import const

from dicetable.games import GAMES

RECORD = const(14)
UID_MAX = const(10)
MAX_TAGS = const(256)  # a tag per item of every game is 201
_KEY = const(11)  # the sort key: uid length and uid
_GAME = const(11)
_ITEM = const(12)

_HEX = const("0123456789abcdef")


def uid_hex(uid):
    """A UID as lower-case hex ('04a1b2c3'); bytes.hex() is not on every port."""
    return "".join([_HEX[b >> 4] + _HEX[b & 15] for b in uid])


def valid_record(recs, at):
    """True when the record at `at` has a UID of 4, 7 or 10 bytes (zero after
    it) and a known game."""
    n = recs[at]
    if (n != 4 and n != 7 and n != 10) or recs[at + _GAME] >= len(GAMES):
        return False
    for i in range(at + 1 + n, at + 1 + UID_MAX):
        if recs[i]:
            return False
    return True


def _compare(recs, a, b):
    # The records at a and b by their keys: < 0, 0 or > 0.
    for i in range(_KEY):
        d = recs[a + i] - recs[b + i]
        if d:
            return d
    return 0


def _against(uid, recs, at):
    # uid against the key of the record at `at`: < 0, 0 or > 0.
    n = len(uid)
    d = n - recs[at]
    if d:
        return d
    for i in range(n):
        d = uid[i] - recs[at + 1 + i]
        if d:
            return d
    return 0


def _in_order(recs, n):
    # True when every record is valid and each key is above the one before:
    # the registry as storage writes it, which adopt() then takes as it is
    # (one pass, the keys compared in place: a call per record, not three).
    for at in range(0, n * RECORD, RECORD):
        if not valid_record(recs, at):
            return False
        if at:
            i = 0
            while i < _KEY and recs[at - RECORD + i] == recs[at + i]:
                i += 1
            if i == _KEY or recs[at - RECORD + i] > recs[at + i]:
                return False
    return True


def _swap(recs, a, b):
    for i in range(RECORD):
        recs[a + i], recs[b + i] = recs[b + i], recs[a + i]


def _sift(recs, root, n):
    # Heap sort's sift-down over records 0..n-1 (a max-heap by key).
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and _compare(recs, child * RECORD, (child + 1) * RECORD) < 0:
            child += 1
        if _compare(recs, root * RECORD, child * RECORD) >= 0:
            return
        _swap(recs, root * RECORD, child * RECORD)
        root = child


def _sort(recs, n):
    # In place and without allocating (heap sort): only a registry written
    # before records were kept in order needs it, once per boot.
    for root in range(n // 2 - 1, -1, -1):
        _sift(recs, root, n)
    for end in range(n - 1, 0, -1):
        _swap(recs, 0, end * RECORD)
        _sift(recs, 0, end)


def _record(uid, game, item):
    rec = bytearray(RECORD)
    rec[0] = len(uid)
    for i in range(len(uid)):
        rec[1 + i] = uid[i]
    rec[_GAME] = game
    rec[_ITEM] = item & 0xFF
    rec[_ITEM + 1] = item >> 8
    return rec


class Registry:
    """UID -> (game, item), at most one tag per item of a game."""

    def __init__(self):
        self.records = bytearray()

    def __len__(self):
        return len(self.records) // RECORD

    def adopt(self, records):
        """Take `records` (whole records, as storage loads them) as the registry,
        in place; returns how many were dropped (an invalid record, or a UID
        that another record already gives).  Linear when they are in order."""
        n = len(records) // RECORD
        if _in_order(records, n):
            self.records = records
            return 0
        for k in range(1, n):
            if _compare(records, (k - 1) * RECORD, k * RECORD) >= 0:
                _sort(records, n)
                break
        kept = 0
        for k in range(n):
            at = k * RECORD
            if not valid_record(records, at) or (
                kept and _compare(records, (kept - 1) * RECORD, at) == 0
            ):
                continue
            if kept != k:
                records[kept * RECORD : (kept + 1) * RECORD] = records[at : at + RECORD]
            kept += 1
        if kept != n:
            records = records[: kept * RECORD]
        self.records = records
        return n - kept

    def load(self, entries):
        """Replace the registry by `entries` [(uid, game, item)]; returns how many
        were invalid and skipped (a bad UID or game, a second tag for an item, a
        second item for a tag)."""
        recs = bytearray()
        items = set()
        bad = 0
        for entry in entries:
            try:
                uid, game, item = entry
                ok = (
                    len(uid) in (4, 7, UID_MAX)
                    and 0 <= game < len(GAMES)
                    and 0 <= item <= 0xFFFF
                    and (game << 16 | item) not in items
                )
            except (TypeError, ValueError):
                ok = False
            if not ok:
                bad += 1
                continue
            items.add(game << 16 | item)
            recs.extend(_record(uid, game, item))
        self.records = bytearray()
        return bad + self.adopt(recs)

    def _find(self, uid):
        # The record index of uid, or -(insertion point) - 1.
        recs = self.records
        lo = 0
        hi = len(recs) // RECORD
        while lo < hi:
            mid = (lo + hi) // 2
            d = _against(uid, recs, mid * RECORD)
            if d == 0:
                return mid
            if d < 0:
                hi = mid
            else:
                lo = mid + 1
        return -lo - 1

    def lookup(self, uid):
        """(game, item) of a tag, or None for a tag not registered."""
        found = self.find(uid)
        return None if found < 0 else (found >> 16, found & 0xFFFF)

    def find(self, uid):
        """game << 16 | item of a tag, or -1 for a tag not registered: one
        small int, where lookup()'s tuple would take the heap at every scan."""
        k = self._find(uid)
        if k < 0:
            return -1
        at = k * RECORD
        recs = self.records
        return (recs[at + _GAME] << 16) | recs[at + _ITEM] | (recs[at + _ITEM + 1] << 8)

    def _item_at(self, game, item):
        # The record index holding (game, item), or -1.
        recs = self.records
        for k in range(len(self)):
            at = k * RECORD
            if (
                recs[at + _GAME] == game
                and recs[at + _ITEM] == item & 0xFF
                and recs[at + _ITEM + 1] == item >> 8
            ):
                return k
        return -1

    def owner(self, game, item):
        """The UID registered for an item, or None."""
        k = self._item_at(game, item)
        if k < 0:
            return None
        at = k * RECORD
        return bytes(self.records[at + 1 : at + 1 + self.records[at]])

    def add(self, uid, game, item):
        """Register a tag as an item: replaces what the tag was, and takes the
        item from any other tag that had it."""
        recs = self.records
        k = self._item_at(game, item)
        if k >= 0:
            recs = recs[: k * RECORD] + recs[(k + 1) * RECORD :]
        self.records = recs
        k = self._find(uid)
        if k >= 0:
            recs = recs[: k * RECORD] + recs[(k + 1) * RECORD :]
        else:
            k = -k - 1
        self.records = recs[: k * RECORD] + _record(uid, game, item) + recs[k * RECORD :]

    def registered(self, game):
        """The items of a game that have a tag."""
        return [item for uid, g, item in self.entries() if g == game]

    def entries(self):
        """[(uid, game, item)] sorted by game, item."""
        recs = self.records
        out = []
        for k in range(len(self)):
            at = k * RECORD
            out.append(
                (
                    bytes(recs[at + 1 : at + 1 + recs[at]]),
                    recs[at + _GAME],
                    recs[at + _ITEM] | (recs[at + _ITEM + 1] << 8),
                )
            )
        out.sort(key=lambda e: (e[1], e[2], e[0]))
        return out

    def export_csv(self):
        """CSV lines for the host tools: a header, then uid_hex,game,item
        (game by name, item as a decimal int of the rules-core encoding)."""
        lines = ["uid_hex,game,item"]
        for uid, game, item in self.entries():
            lines.append("%s,%s,%d" % (uid_hex(uid), GAMES[game], item))
        return lines


def pack(entries):
    """The records of `entries` [(uid, game, item)] (host tools, tests);
    ValueError if any entry is invalid or clashes with another."""
    r = Registry()
    if r.load(entries):
        raise ValueError("invalid or clashing registry entries")
    return r.records


def unpack(records):
    """The entries [(uid, game, item)] of records, sorted by game, item."""
    r = Registry()
    r.adopt(bytearray(records))
    return r.entries()
