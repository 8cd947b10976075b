"""The journal's compaction: a match with many undos copied to a new
generation of fewer segments, a step at a time.  Every function takes the
Journal `j` (hal/journal.py) and works on its segments and records.

When a match with many undos uses every segment but two and its live actions
would fit in two segments fewer, they are copied to a new generation in free
segments, in steps of work_ahead(): the old generation is read a page at a
time and folded; then the live actions, then the records appended since (as
they are, undos as undos), are programmed a page at a time into segments that
have no header yet, so load() passes over them; last the headers are
programmed (need = every record copied), the first segment's last: until that
page program is whole the old generation is the match, after it the new one.
A commit whose match needs a segment more than that (the work ahead had no
chance) compacts it, or ends the compaction under way, itself.

hal/journal.py imports this module at the first need of a compaction and
keeps it; whether one is due, and its end at a load or a new match, are
hal/journal.py's.
"""

from struct import pack_into

from micropython import const

from hal.journal_segments import PAGE, RECORDS, crc_word, with_room

# hal/journal.py's (a private constant is compiled away, an imported one is
# looked up at every use): a compaction's phases (Journal._phase), its
# statuses and its records' layout.
_IDLE = const(0)
_FOLD = const(1)
_COPY = const(2)
_OK = const(0)
_CORRUPT = const(3)
_PER_PAGE = const(32)
_REC = const(8)

_FAILED = const(3)  # the phase of one given up until the next load() or new_match()


def compact_at_need(j):
    """At need: the whole compaction now, or the rest of one under way."""
    if j._phase == _FAILED:
        j._phase = _IDLE  # try again
    while True:
        compact_step(j)
        if j._phase != _FOLD and j._phase != _COPY:
            return


def compact_step(j):
    """One step: a page of the old generation read, a segment erased, a
    page of records programmed, or the headers programmed."""
    if j._phase != _FOLD and j._phase != _COPY:
        j._phase = _FOLD
        j._fold = list(j._words)
        j._limits = j._limits_of(j._segs)
        j._fj = j._fslot = j._fn = 0
        j._new = []
    if j._phase == _FOLD:
        _fold_step(j)
        return
    j._known = False
    total = len(j._fold) - len(j._words) + j._count - j._from
    k = j._cn
    if not j._new or (k < total and k // RECORDS >= len(j._new)):
        if j._spare < 0:
            seg = j._free()
            if seg < 0:
                j.stop_compaction(_FAILED)  # no room for the copy
            else:
                j._erase(seg)
            j._known = True
            return
        j._new.append(j._spare)
        j._spare = -1
        j._hseg = -1
    if k < total:
        _copy_page(j, k, total)
    # Caught up: the switch in the same step, or a commit between every
    # step would keep it one record behind.
    if j._phase == _COPY and j._cn == total:
        _switch(j, total)
    j._known = True


def _fold_step(j):
    # A page of the old generation's records read into j._fold (as
    # _read() reads them); after its last one, the new generation's id.
    segs = j._segs
    i = j._fj
    s = segs[i]
    limit = j._limits[i]
    last = i == len(segs) - 1
    n = j._fn
    slot = j._fslot
    if j._first[s] < limit:
        if slot == 0 and j._first[s] != n:
            j.stop_compaction(_FAILED)
            return
        stop = min(slot + _PER_PAGE, RECORDS)
        n, slot, status = j._read_segment(s, j._pre, n, limit, j._fold, slot, stop)
        j._fn = n
        j._fslot = slot
        if status == _CORRUPT:
            j.stop_compaction(_FAILED)
            return
        if status == _OK and n < limit:
            if slot >= stop and slot < RECORDS:
                return  # more of this segment next time
            if not last:
                j.stop_compaction(_FAILED)  # records missing before the next segment
                return
    if not last:
        j._fj = i + 1
        j._fslot = 0
        return
    # The old generation read to its end: its records since come as they are.
    if j._fn != j._count or j._fslot != j._wslot:
        j.stop_compaction(_FAILED)
        return
    j._from = j._count
    j._fromslot = j._wslot
    j._cgen = j._top + 1
    j._top += len(j.blocks)  # seqs for every segment of it
    j._cn = 0
    j._phase = _COPY


def _copy_page(j, k, total):
    # New records k.. to the end of their page (or `total`): the live
    # actions read, then the old records appended since, as they are.
    base = len(j._words)
    live = len(j._fold) - base
    pre = crc_word(j._cgen, 0xFFFF)
    old = j._pre
    seg = j._new[k // RECORDS]
    end = min(total, k - k % _PER_PAGE + _PER_PAGE)  # a page never spans two segments
    if j._soiled:
        j._blank()
    j._soiled = True
    for i in range(k, end):
        if i < live:
            word = j._fold[base + i]
        else:
            at = i - live
            word = j._record(j._wseg, j._fromslot + at, old, j._from + at)
            if word < 0:
                j.stop_compaction(_FAILED)
                j._blank()
                return
        c = crc_word(word, crc_word(i, pre))
        pack_into("<HHI", j._out, (i % _PER_PAGE) * _REC, c, c ^ 0xFFFF, word)
    j._at = -1
    j.dev.writeblocks(j.blocks[seg], j._out, (1 + (k % RECORDS) // _PER_PAGE) * PAGE)
    j._blank()
    j._cn = end


def _switch(j, total):
    # Every record copied: the headers, the first segment's last; the new
    # generation is the match from that page program on.
    new = j._new
    gen = j._cgen
    for i in range(len(new) - 1, -1, -1):
        j._hseg = -1
        j._hseq = gen + i
        j._hgen = gen
        j._hfirst = i * RECORDS
        j._hneed = total
        j._hseg = new[i]
        j._build()
        j._begin(new[i], gen, i * RECORDS)
    j._phase = _IDLE
    j._cur = gen
    j._segs = with_room(new, len(j.blocks))
    j._pre = crc_word(gen, 0xFFFF)
    j._need_cur = total
    j._count = total
    j._wseg = new[-1]
    j._wslot = total - RECORDS * (len(new) - 1)
    j.stop_compaction(_IDLE)
