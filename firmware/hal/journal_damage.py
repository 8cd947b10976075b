"""The journal's reading of damage (hal/journal.py, "DAMAGED HEADERS").

A power-up that meets no damage never imports this module; one that does
imports it for the load, and found(), the load's last call, forgets it on
the board: the journal's code on the heap is only what a match needs.  Every function
takes the Journal `j` and works on its page buffer and per-segment lists.
"""

from micropython import const

from dicetable.app.table import forget_module

# hal/journal_segments.py's, not imported: the segments import this module at
# need (tests/test_journal_damage.py checks they are the same).
_RECORDS = const(480)
_VERSION = const(2)

# What load() found: the first item of each of Journal.found's tuples
# (hal/journal.py, "DAMAGED HEADERS"; app/journal_lines.py says them).
MENDED = const(1)
BY_RECORDS = const(2)
UNREADABLE = const(3)  # hal/journal_segments.py's _UNREADABLE
FOREIGN = const(4)  # _FOREIGN
LOST = const(5)
COPY = const(6)  # _ONE_COPY

_VERSIONS = {}  # a FOREIGN segment's version, for found() at the same load's end

# hal/journal_segments.py's and hal/journal.py's (their private constants are
# compiled away on the board).
_COPY_B = const(128)
_CRC_AT = const(44)
_ERASED = const(-2)


def assess(j, seg):
    """A header page in j's page buffer whose copies both fail: 0 if it
    mends (the mended copy at 0), else -1, with j._damage[seg] saying which."""
    at = mend(j, seg)
    j._damage[seg] = MENDED if at >= 0 else _damaged(j, seg)
    return at


def mend(j, seg):
    """0 if copy A in j's page buffer checks with one byte taken from copy B,
    where they differ in just two bytes (then it does so); else -1."""
    page = j._page
    d1 = d2 = -1
    for p in range(_CRC_AT + 2):
        if page[p] != page[_COPY_B + p]:
            if d1 < 0:
                d1 = p
            elif d2 < 0:
                d2 = p
            else:
                return -1
    if d2 < 0:
        return -1
    for p in (d1, d2):
        mine = page[p]
        page[p] = page[_COPY_B + p]
        if j._copy(seg) == 0:
            return 0
        page[p] = mine
    return -1


def _damaged(j, seg):
    # UNREADABLE, FOREIGN (its version in _VERSIONS) or 0 for a header page
    # whose copies neither check nor mend.
    page = j._page
    area = j.area
    kind = 0
    for at in (0, _COPY_B):
        blank = True
        for p in range(at + 8, at + _CRC_AT + 2):
            if page[p] != 0xFF:
                blank = False
                break
        if blank:
            return 0  # a spare, or a header page cut short
        # This table's start but for at most one byte (random bytes match 7
        # of 8 once in 2**53): a cut erase leaves none.
        wrong = (
            (page[at] != 0x44)
            + (page[at + 1] != 0x4A)
            + (page[at + 3] != seg)
            + (page[at + 4] != area & 0xFF)
            + (page[at + 5] != (area >> 8) & 0xFF)
            + (page[at + 6] != (area >> 16) & 0xFF)
            + (page[at + 7] != area >> 24)
        )
        if wrong == 0 and page[at + 2] != _VERSION:
            if kind == 0:
                kind = FOREIGN
                _VERSIONS[seg] = page[at + 2]
        elif wrong + (page[at + 2] != _VERSION) <= 1:
            kind = UNREADABLE
    return kind


def adopt(j, pre, n, segs, limits, at, limit):
    """Put into segs at `at` (with `limit`) a segment whose header is past
    reading and whose records go on from number n of the generation whose
    CRC is `pre`: whether there was one."""
    for i in range(len(j.blocks)):
        damage = j._damage[i]
        if (damage == UNREADABLE or damage == FOREIGN) and i not in segs:
            slot = 0
            while slot < _RECORDS:
                word = j._record(i, slot, pre, n + slot)
                if word >= 0:
                    j._first[i] = n
                    segs.insert(at, i)
                    limits.insert(at, limit)
                    return True
                if word == _ERASED:
                    break
                slot += 1
    return False


def lost_from(j, segs, limits, k, slot):
    """The records written from slot `slot` of segs[k] on, that count."""
    lost = _written(j, segs[k], slot)
    for m in range(k + 1, len(segs)):
        if j._first[segs[m]] < limits[m]:
            lost += min(_written(j, segs[m], 0), limits[m] - j._first[segs[m]])
    return lost


def _written(j, seg, slot):
    # How many records of `seg` from `slot` on were ever written.
    n = 0
    while slot < _RECORDS:
        if j._record(seg, slot, 0, 0) != _ERASED:
            n += 1
        slot += 1
    return n


def found(j, ours, corrupt):
    """Journal.found after a load (`ours`: it read a match; `corrupt`: with damage)."""
    out = []
    for i in range(len(j.blocks)):
        damage = j._damage[i]
        mine = ours and i in j._segs
        if mine and (damage == MENDED or damage == COPY):
            out.append((damage, i, 0, 0))
        elif mine and (damage == UNREADABLE or damage == FOREIGN):
            out.append((BY_RECORDS, i, 0, 0))
        elif damage == UNREADABLE:
            out.append((UNREADABLE, i, 0, 0))
        elif damage == FOREIGN:
            out.append((FOREIGN, i, _VERSIONS[i], _VERSION))
    if corrupt and ours:
        if j._lost is not None:
            out.append((LOST, j._lost[0], j._lost[1], 0))
        else:  # a compacted generation short of records
            out.append((LOST, j._wseg, j._need_cur - j._count, 0))
    import sys

    if sys.implementation.name == "micropython":
        forget_module(__name__)
    return out
