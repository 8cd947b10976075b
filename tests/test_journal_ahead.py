"""The journal's work ahead of need (Storage.work_ahead, hal/journal.py "AHEAD OF
NEED"): with it given its chances, as the main loop gives them (once after the
power-up and once after every commit), no commit waits for an erase, and a
power cut anywhere in it, or in a commit after it, loses nothing committed.
Figures (times) are printed by tools/bench/bench_flash.py, not asserted here.
"""

import random
import struct

import pytest
from test_hw_storage import COMMITTED, HEADER, OPS, WORDS, long_script

from dicetable.games import header
from flashmodel.vflash import PowerLost, VFlash
from hal import journal
from hal.journal_segments import PAGE, RECORDS, VERSION
from hal.storage import OK, TORN, Storage
from sim import mpy_wasm
from sim.play import play


def run(storage, ops, header=HEADER):
    """Carry out ops, the work ahead called once after each, as the main loop
    calls it after every input; how many ops returned before the power went."""
    done = 0
    try:
        for kind, arg in ops:
            if kind == "new":
                storage.new_match(header, WORDS)
            elif kind == "append":
                storage.append(arg)
            else:
                storage.undo()
            done += 1
            storage.work_ahead()
    except PowerLost:
        pass
    return done


def power_up(flash, segments=8):
    """A Storage after the power came (back): loaded, the work ahead given its
    first chance; the power may go during either."""
    storage = Storage(flash, segments=segments)
    try:
        storage.prepare()
        storage.load()
        storage.work_ahead()
    except PowerLost:
        pass
    return storage


def many_undos():
    """A 3-player Nokosu match's first 200 actions, each taken back and made
    again 3 times: (header, ops, what load() gives after each op)."""
    m = play("nokosu", 3, 1, ["heuristic"] * 3, 1)
    ops = [("new", None)]
    for a in m.journal[:200]:
        ops += [("append", a)] + [("undo", None), ("append", a)] * 3
    committed = []
    held = list(WORDS)
    for kind, arg in ops:
        if kind == "append":
            held.append(arg)
        elif kind == "undo":
            held.pop()
        committed.append(list(held))
    return header(m), ops, committed


def counted(storage, ops, header):
    """Carry out ops with the work ahead; per op the (erases, page programs)
    it made, and per call of the work ahead the same."""
    nor = storage.fs.raw
    commits, ahead = [], []
    for kind, arg in ops:
        e, p = sum(nor.erases), sum(nor.programs)
        if kind == "new":
            storage.new_match(header, WORDS)
        elif kind == "append":
            storage.append(arg)
        else:
            storage.undo()
        commits.append((sum(nor.erases) - e, sum(nor.programs) - p))
        e, p = sum(nor.erases), sum(nor.programs)
        storage.work_ahead()
        ahead.append((sum(nor.erases) - e, sum(nor.programs) - p))
    return commits, ahead


def test_no_append_undo_or_new_match_erases_and_each_step_is_bounded():
    h, ops, committed = long_script()  # past one segment: a segment change
    h3, undo_ops, undo_committed = many_undos()
    undo_ops = undo_ops + [("undo", None), ("append", 1)] * 600  # past six segments
    flash = VFlash()
    storage = power_up(flash)
    commits, ahead = counted(storage, ops, h)
    assert Storage(flash.reboot()).load() == (h, committed[-1], OK)
    storage.clear()
    assert storage.work_ahead() is False  # the spare is ready: nothing to do
    more, more_ahead = counted(storage, undo_ops, h3)
    assert Storage(flash.reboot()).load() == (h3, undo_committed[-1][:-1] + [1], OK)
    commits += more
    ahead += more_ahead
    assert [c for c in commits if c[0]] == []  # no commit erases
    assert max(p for _, p in commits) == 2  # a segment change: its header page and a record
    assert sum(1 for _, p in commits if p == 2) >= 2
    # One step a call: at most one erase (and the spare's first bytes), or a
    # page of records and the new generation's headers.
    assert max(e for e, _ in ahead) == 1
    assert max(p for _, p in ahead) <= 3
    j = storage._open()
    assert j._need_cur > 0 and len(j._segs) <= 2  # compacted ahead


def test_the_header_page_built_ahead_is_the_one_built_at_need():
    h, ops, committed = long_script()
    images = []
    for ahead in (False, True):
        random.seed(3)  # the same area number
        flash = VFlash()
        storage = Storage(flash)
        storage.prepare()
        storage.load()
        if ahead:
            storage.work_ahead()
            built = []
            for kind, arg in ops:
                if kind == "append":
                    storage.append(arg)
                elif kind == "undo":
                    storage.undo()
                else:
                    storage.new_match(h, WORDS)
                storage.work_ahead()
                j = storage._open()
                if j._hseg >= 0 and (not built or built[-1][0] != j._hseg):
                    built.append((j._hseg, bytes(j._head)))
        else:
            for kind, arg in ops:
                if kind == "append":
                    storage.append(arg)
                elif kind == "undo":
                    storage.undo()
                else:
                    storage.new_match(h, WORDS)
        j = storage._open()
        images.append({s: bytes(flash.raw.block(j.blocks[s])) for s in j._segs})
    # Every segment of the match is the same on flash, header pages included,
    # whether its header page was built ahead or at need.
    assert images[0] == images[1]
    built = [(seg, page) for seg, page in built if seg in images[1]]
    assert built and all(images[1][seg][:PAGE] == page for seg, page in built)


@pytest.mark.slow
def test_power_cut_at_every_byte_and_erase_of_the_work_ahead_keeps_the_committed_actions():
    random.seed(9)
    dry = VFlash()
    run(power_up(dry), OPS)
    total = dry.written
    for cut in range(total + 1):
        random.seed(9)
        flash = VFlash()
        flash.cut_after(cut)
        done = run(power_up(flash), OPS)
        assert done < len(OPS) or cut == total
        storage = power_up(flash.reboot())
        header, actions, status = storage.load()
        if done == 0:
            assert (header, actions) in ((None, []), (HEADER, list(WORDS))), cut
        else:
            assert (header, actions) == (HEADER, COMMITTED[done - 1]), cut
            assert status in (OK, TORN), cut  # a record cut short is dropped
        # After the power-up the work ahead starts again, and the match goes on.
        assert storage._open()._spare >= 0, cut
        run(storage, OPS[max(done, 1) :] if header is not None else OPS)
        assert Storage(storage.fs.reboot()).load() == (HEADER, COMMITTED[-1], OK), cut


@pytest.mark.slow
def test_a_cut_while_the_next_segment_starts_from_the_work_ahead_loses_nothing():
    h, ops, committed = long_script()
    random.seed(5)
    dry = VFlash()
    run(power_up(dry), ops[: RECORDS - 40], h)
    snapshot = dry.reboot()
    probe = power_up(snapshot.reboot())
    run(probe, ops[RECORDS - 40 : RECORDS + 1], h)  # the segment change
    around = probe.fs.written  # units from the power-up (a reboot counts from 0)
    for cut in range(0, around + 120):
        flash = snapshot.reboot()
        storage = power_up(flash)
        flash.cut_after(cut)
        done = RECORDS - 40 + run(storage, ops[RECORDS - 40 :], h)
        storage = power_up(flash.reboot())
        assert storage.load()[:2] == (h, committed[done - 1]), cut
        run(storage, ops[done:], h)
        assert Storage(storage.fs.reboot()).load() == (h, committed[-1], OK), cut


@pytest.mark.slow
def test_a_cut_anywhere_in_a_compaction_ahead_keeps_the_match():
    h, ops, committed = many_undos()
    # Five segments: the compaction starts once a match has three, as the
    # board's eight start it at six.  Snapshot the flash before it starts.
    random.seed(7)
    flash = VFlash()
    start = 2 * RECORDS - 40
    assert run(power_up(flash, 5), ops[:start], h) == start
    snapshot = flash.reboot()
    storage = power_up(snapshot.reboot(), 5)
    j = storage._open()
    phases = []
    switched = -1
    for k in range(start, len(ops)):
        run(storage, ops[k : k + 1], h)
        if j._phase == journal._COPY:
            switched = storage.fs.written
        phases.append(j._phase)
    assert journal._FOLD in phases and journal._COPY in phases and phases[-1] == journal._IDLE
    assert j._need_cur > 0 and len(j._segs) < 3  # compacted ahead
    span = storage.fs.written  # units from the power-up (a reboot counts from 0)
    # Every third unit of work from the power-up to the end of the match, and
    # every unit of the copy's last steps and the switch; each run powers up
    # from the snapshot, so the compaction also starts after a power-up.
    cuts = list(range(0, span, 3)) + list(range(switched - 300, switched + 400))
    for cut in sorted(set(cuts)):
        again = snapshot.reboot()
        again.cut_after(cut)
        s = power_up(again, 5)
        done = start + run(s, ops[start:], h)
        s = power_up(again.reboot(), 5)
        assert s.load()[:2] == (h, committed[done - 1]), cut
        run(s, ops[done:], h)
        assert Storage(s.fs.reboot(), segments=5).load() == (h, committed[-1], OK), cut


def test_after_a_power_up_the_spare_is_erased_again():
    flash = VFlash()
    storage = power_up(flash)
    assert run(storage, OPS[:10]) == 10
    spare = storage._open()._spare
    assert spare >= 0
    again = flash.reboot()
    erases = sum(again.raw.erases)
    storage = power_up(again)  # its first work ahead
    assert sum(again.raw.erases) == erases + 1
    assert storage._open()._spare == spare  # the one without a header, again
    assert storage.load() == (HEADER, COMMITTED[9], OK)


def test_a_half_erased_or_waiting_spare_is_no_segment_to_load():
    flash = VFlash()
    storage = power_up(flash)
    run(storage, OPS[:10])
    j = storage._open()
    block = j.blocks[j._spare]
    # Waiting: 0xFF but its first bytes, those of any header it will hold.
    assert flash.raw.block(block)[:8] == b"DJ" + bytes((VERSION, j._spare)) + struct.pack(
        "<I", j.area
    )
    assert flash.raw.block(block)[8:] == b"\xff" * (4096 - 8)
    assert Storage(flash.reboot()).load() == (HEADER, COMMITTED[9], OK)
    # The segment files stay findable by their first bytes: a lost map is rebuilt.
    lost = flash.reboot()
    lost.remove("journal.map")
    assert Storage(lost).load() == (HEADER, COMMITTED[9], OK)
    # Cut half-way through its erase: pseudo-random bytes, still no segment.
    again = flash.reboot()
    s = Storage(again)
    s.load()
    again.cut_after(1)
    with pytest.raises(PowerLost):
        s.work_ahead()
    cut = again.reboot()
    assert cut.raw.block(block)[:PAGE] not in (b"\xff" * PAGE, bytes(flash.raw.block(block)[:PAGE]))
    storage = power_up(cut)
    assert storage.load() == (HEADER, COMMITTED[9], OK)
    run(storage, OPS[10:])
    assert Storage(cut.reboot()).load() == (HEADER, COMMITTED[-1], OK)


def test_a_flash_error_in_the_work_ahead_is_not_raised_and_the_next_commit_reads_again():
    flash = VFlash()
    storage = power_up(flash)
    run(storage, OPS[:5])
    storage.clear()
    storage.load()
    nor = flash.raw
    erase = nor.erase

    def failing(block):
        raise OSError(5, "EIO")

    nor.erase = failing
    storage._open()._spare = -1  # as if the spare had been used
    assert storage.work_ahead() is True
    assert storage.work_ahead() is False  # nothing until the flash is read again
    nor.erase = erase
    storage.new_match(HEADER, WORDS)
    storage.append(OPS[1][1])
    assert Storage(flash.reboot()).load() == (HEADER, list(WORDS) + [OPS[1][1]], OK)


# -- under MicroPython, with the Pico's heap -------------------------------


@pytest.mark.slow
def test_the_work_ahead_with_nothing_to_do_and_every_commit_allocate_nothing():
    h, ops, _ = long_script()
    actions = [arg for kind, arg in ops if kind == "append"][: RECORDS + 40]
    chunks = [actions[i : i + 40] for i in range(0, len(actions), 40)]
    parts = [
        "import gc\nfrom hal.storage import Storage\nfrom flashmodel.vflash import VFlash\n"
        "flash = VFlash()\ns = Storage(flash)\ns.prepare()\ns.load()\ns.work_ahead()\n"
        "s.new_match(%r, %r)\nheld = []\n"
        "a = idle = w = _ = ws = 0  # names made now: a new global grows the dict" % (h, WORDS),
    ]
    # Each part: the work ahead given its chances, then, measured, 20 calls of
    # it with nothing to do, and 120 commits (each action appended, undone and
    # appended again): three segment changes in all, from pages built ahead.
    for c in chunks:
        parts.append(
            "ws = %r\n"
            "while s.work_ahead():\n    pass\n"
            "a = gc.mem_alloc()\n"
            "for _ in range(20):\n    s.work_ahead()\n"
            "idle = gc.mem_alloc() - a\n"
            "a = gc.mem_alloc()\n"
            "for w in ws:\n    s.append(w)\n    s.undo()\n    s.append(w)\n"
            "held.append((idle, gc.mem_alloc() - a))" % (c,)
        )
    parts.append("print(held)\nprint(Storage(flash.reboot()).load()[1][2:] == %r)" % (actions,))
    out = mpy_wasm.run(mpy_wasm.parts(parts)).split("\n")
    assert out[1] == "True"
    assert eval(out[0]) == [(0, 0)] * len(chunks)
