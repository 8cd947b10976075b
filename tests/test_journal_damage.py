"""Every damage the journal can meet ends in one power-up line that says what
was found and what was kept, and the table keeps every action it can still
read (hal/journal.py "DAMAGED HEADERS", app/resume.py).

The journal is written by the board's own storage on the virtual flash
(flashmodel/vflash.py over the NOR model), damaged in place, then a fresh
Storage and Table power up over it:

- both header copies damaged, for every pair of byte classes of a header
  (its start, version, seq, generation, first, need, match header, words,
  crc): two different bytes mend from the two copies; the same byte damaged
  in both leaves the segment unreadable, said, and kept until a player
  starts a new match;
- every other format version byte, checksums right: refused, naming both
  versions, the journal untouched by the work ahead until a new match;
- a later segment's header unreadable: its records check themselves and are
  read; with its first record damaged too, the line counts what was lost;
- damage in a segment's records: resumed before it, the count said;
- a sample of each under MicroPython with the Pico's heap.
"""

import sys

import pytest
from test_hw_storage import ACTIONS, HEADER, WORDS

from dicetable.app.rng import Rng
from dicetable.app.table import Table
from flashmodel.vflash import VFlash
from hal.journal_damage import BY_RECORDS, COPY, FOREIGN, LOST, MENDED, UNREADABLE
from hal.journal_segments import RECORDS, VERSION, crc16
from hal.storage import CORRUPT, NONE, OK, Storage
from sim import mpy_wasm
from sim.hw.rig import Config

COPY_B = 128
PAGE = 256
# A byte of each part of a header copy (hal/journal.py's layout).
CLASSES = {
    "magic": 0,
    "version": 2,
    "segment": 3,
    "area": 5,
    "seq": 9,
    "generation": 13,
    "first": 16,
    "need": 19,
    "game": 20,
    "players": 21,
    "options": 22,
    "nwords": 24,
    "padding": 26,
    "word": 30,
    "crc": 45,
}
TITLE = "DTwww"


def journal(actions=ACTIONS, header=HEADER, flash=None):
    """(flash, storage) with a match of `actions` written by the board's storage."""
    flash = VFlash() if flash is None else flash
    storage = Storage(flash)
    storage.new_match(header, WORDS)
    for a in actions:
        storage.append(a)
    return flash, storage


def blocks(storage):
    """The NOR blocks of the match's segments, in the match's order."""
    j = storage._open()
    return [j.blocks[s] for s in j._segs], j


def boot(flash):
    """Power up a table over `flash`: (table, its log lines, its storage)."""
    lines = []
    storage = Storage(flash)
    table = Table(Config([0, 1, 2, 3], 8, 16), storage, Rng(7), lambda ln: lines.append(ln.text()))
    table.boot()
    return table, lines, storage


@pytest.fixture(scope="module")
def written():
    flash, storage = journal()
    (block,), j = blocks(storage)
    return flash, block, j.blocks.index(block)


def damaged(written, changes):
    """A power-cycled copy of the written flash with bytes of the first
    segment's header page xored: {offset: mask}."""
    flash, block, _ = written
    bad = flash.reboot()
    data = bad.raw.block(block)
    for at, mask in changes.items():
        data[at] ^= mask
    return bad


PAIRS = [(a, b) for a in CLASSES for b in CLASSES]


def test_the_journals_parts_name_its_constants_as_it_has_them():
    # The parts loaded at need copy the constants they read as private ones
    # (compiled away on the board, and no import back of what imports them):
    # a format change in hal/journal.py or journal_segments.py must reach them.
    from hal import journal, journal_compaction, journal_damage, journal_segments

    assert (journal_damage._RECORDS, journal_damage._VERSION) == (RECORDS, VERSION)
    assert (journal_damage.UNREADABLE, journal_damage.FOREIGN) == (
        journal_segments._UNREADABLE,
        journal_segments._FOREIGN,
    )
    c = journal_compaction
    assert (c._IDLE, c._FOLD, c._COPY, c._PER_PAGE, c._REC) == (
        journal._IDLE,
        journal._FOLD,
        journal._COPY,
        journal._PER_PAGE,
        journal._REC,
    )
    assert (c._OK, c._CORRUPT) == (journal.OK, journal.CORRUPT)


@pytest.mark.parametrize("copy", [0, COPY_B])
@pytest.mark.parametrize("where", sorted(CLASSES))
def test_one_header_copy_damaged_the_other_is_read_and_said(written, copy, where):
    seg = written[2]
    bad = damaged(written, {copy + CLASSES[where]: 0x20})
    table, lines, storage = boot(bad)
    assert storage.found == [(COPY, seg, 0, 0)]
    assert table.match.journal == ACTIONS
    assert "journal: segment %d's header copy damaged, the other read" % seg in lines


@pytest.mark.parametrize(("in_a", "in_b"), PAIRS, ids=["%s-%s" % p for p in PAIRS])
def test_both_header_copies_damaged(written, in_a, in_b):
    seg = written[2]
    a, b = CLASSES[in_a], CLASSES[in_b]
    bad = damaged(written, {a: 0x10, COPY_B + b: 0x10})
    table, lines, storage = boot(bad)
    if a != b:
        # One byte of each copy: the other copy's byte mends it.
        assert storage.found == [(MENDED, seg, 0, 0)]
        assert "journal: segment %d's header damaged in both copies, mended" % seg in lines
        assert "resumed %s at action %d" % (TITLE, len(ACTIONS)) in lines
        assert table.match.journal == ACTIONS
        return
    # The same byte damaged alike in both: nothing to mend from.
    assert table.mode == "menu" and table.match is None
    if in_a == "version":
        v = VERSION ^ 0x10
        assert storage.found == [(FOREIGN, seg, v, VERSION)]
        said = "journal not resumed: written in format version %d, this firmware" % v
        said += " reads version %d; choose a new match" % VERSION
    else:
        assert storage.found == [(UNREADABLE, seg, 0, 0)]
        said = "journal corrupt: segment %d unreadable, no match to resume;" % seg
        said += " choose a new match"
    assert said in lines
    assert lines[-1].startswith("menu:")


@pytest.mark.parametrize("where", sorted(CLASSES))
def test_one_byte_damaged_two_ways_is_unreadable_and_kept(written, where):
    at = CLASSES[where]
    bad = damaged(written, {at: 0x01, COPY_B + at: 0x02})
    before = bytes(bad.raw.block(written[1]))
    table, lines, storage = boot(bad)
    assert table.mode == "menu"
    kind = FOREIGN if where == "version" else UNREADABLE
    assert storage.found[0][:2] == (kind, written[2])
    # The menu's work ahead erases spares, never the damaged segment.
    for _ in range(20):
        storage.work_ahead()
    assert bytes(bad.raw.block(written[1])) == before


def rewrite_version(written, version):
    """The written flash with both header copies of another format version,
    their checksums right."""
    bad = damaged(written, {})
    data = bad.raw.block(written[1])
    for at in (0, COPY_B):
        data[at + 2] = version
        crc = crc16(data, at, at + 44, 0xFFFF)
        data[at + 44] = crc & 0xFF
        data[at + 45] = crc >> 8
    return bad


@pytest.mark.parametrize("version", [v for v in range(256) if v != VERSION])
def test_another_format_version_is_refused_naming_both_and_kept(written, version):
    bad = rewrite_version(written, version)
    before = bytes(bad.raw.block(written[1]))
    table, lines, storage = boot(bad)
    assert table.mode == "menu" and table.match is None
    assert lines[-2] == (
        "journal not resumed: written in format version %d, this firmware reads version %d;"
        " choose a new match" % (version, VERSION)
    )
    for _ in range(20):
        storage.work_ahead()
    assert bytes(bad.raw.block(written[1])) == before
    assert storage.load()[2] == CORRUPT  # still there, still refused


def test_another_format_version_without_the_map_is_refused_too(written):
    bad = rewrite_version(written, 3)
    del bad.files["journal.map"]  # the segments must be found by their first bytes
    table, lines, _ = boot(bad)
    assert table.mode == "menu"
    assert "journal not resumed: written in format version 3" in lines[-2]


def test_a_new_match_then_replaces_a_refused_journal(written):
    bad = rewrite_version(written, 1)
    table, lines, storage = boot(bad)
    storage.new_match(HEADER, WORDS)  # what the menu does when a player starts one
    storage.append(ACTIONS[0])
    for _ in range(20):
        storage.work_ahead()
    table, lines, storage = boot(bad.reboot())
    assert table.match.journal == ACTIONS[:1]
    assert not [ln for ln in lines if "version" in ln or "corrupt" in ln], lines


# -- a match of several segments ---------------------------------------------------------


def long_actions(n):
    """n actions of the written match's kind, for the journal alone (it never
    asks the engine): the match's own actions over and over."""
    return [ACTIONS[i % len(ACTIONS)] for i in range(n)]


@pytest.fixture(scope="module")
def three_segments():
    actions = long_actions(2 * RECORDS + 100)
    flash, storage = journal(actions)
    segs, j = blocks(storage)
    assert len(segs) == 3
    return flash, segs, [j.blocks.index(b) for b in segs], actions


def test_a_later_segments_header_unreadable_its_records_are_read(three_segments):
    flash, segs, numbers, actions = three_segments
    bad = flash.reboot()
    data = bad.raw.block(segs[2])
    for at in (9, 13, 20):  # three bytes alike in both copies: no mending
        data[at] ^= 0x40
        data[COPY_B + at] ^= 0x40
    storage = Storage(bad)
    assert storage.load() == (HEADER, list(WORDS) + actions, OK)
    assert storage.found == [(BY_RECORDS, numbers[2], 0, 0)]
    # The match goes on after it, and a power-up reads it all again.
    storage.append(ACTIONS[0])
    again = Storage(bad.reboot())
    assert again.load() == (HEADER, list(WORDS) + actions + ACTIONS[:1], OK)


def test_the_first_segments_header_unreadable_its_records_are_read(three_segments):
    flash, segs, numbers, actions = three_segments
    bad = flash.reboot()
    data = bad.raw.block(segs[0])
    for at in (0, COPY_B):
        data[at + CLASSES["seq"]] ^= 0x40  # alike in both copies: no mending
    storage = Storage(bad)
    assert storage.load() == (HEADER, list(WORDS) + actions, OK)
    assert storage.found == [(BY_RECORDS, numbers[0], 0, 0)]


def test_a_later_segments_header_and_first_record_damaged_says_what_is_lost(three_segments):
    flash, segs, numbers, actions = three_segments
    bad = flash.reboot()
    data = bad.raw.block(segs[2])
    for at in (9, 13, 20):
        data[at] ^= 0x40
        data[COPY_B + at] ^= 0x40
    data[PAGE + 5] ^= 0x01  # its first record
    storage = Storage(bad)
    header, got, status = storage.load()
    kept = 2 * RECORDS
    assert (header, got, status) == (HEADER, list(WORDS) + actions[:kept], CORRUPT)
    assert storage.found == [(BY_RECORDS, numbers[2], 0, 0), (LOST, numbers[2], 100, 0)]


@pytest.mark.parametrize("record", [0, 7, 200, RECORDS - 1])
def test_damage_in_a_segments_records_resumes_before_it_and_counts_the_rest(three_segments, record):
    flash, segs, numbers, actions = three_segments
    bad = flash.reboot()
    bad.raw.block(segs[1])[PAGE + record * 8 + 5] ^= 0x04
    storage = Storage(bad)
    header, got, status = storage.load()
    kept = RECORDS + record
    assert (got, status) == (list(WORDS) + actions[:kept], CORRUPT)
    lost = len(actions) - kept
    assert storage.found == [(LOST, numbers[1], lost, 0)]
    # What follows starts a segment of its own: the damage is passed for good.
    storage.append(actions[kept])
    again = Storage(bad.reboot())
    assert again.load() == (HEADER, list(WORDS) + actions[: kept + 1], OK)
    assert not again.found


def test_a_real_match_damaged_in_its_records_resumes_and_says_so(written):
    flash, block, seg = written
    bad = flash.reboot()
    bad.raw.block(block)[PAGE + 40 * 8 + 2] ^= 0x80  # the 41st action's record
    table, lines, _ = boot(bad)
    assert table.mode == "play" and table.match.journal == ACTIONS[:40]
    lost = len(ACTIONS) - 40
    assert (
        "journal corrupt at segment %d: resumed at action 40 of %d, %d lost"
        % (seg, len(ACTIONS), lost)
        in lines
    )
    assert "resumed %s at action 40" % TITLE in lines
    # The lines' module is on the heap only while the power-up says them.
    assert "dicetable.app.journal_lines" not in sys.modules


def test_a_flash_with_no_journal_is_the_only_silent_case():
    table, lines, storage = boot(VFlash())
    assert storage.load() == (None, [], NONE) and not storage.found
    assert [ln for ln in lines if ln.startswith("journal")] == []


# -- under MicroPython, with the Pico's heap ----------------------------------------------

MPY_CASES = {
    # name: (segment index in the match, {offset in its block: xor mask})
    "mended": (0, {CLASSES["seq"]: 0x04, COPY_B + CLASSES["game"]: 0x01}),
    "first by records": (0, {CLASSES["generation"]: 8, COPY_B + CLASSES["generation"]: 8}),
    "lost": (2, {9: 0x40, 13: 0x40, COPY_B + 9: 0x40, COPY_B + 13: 0x40, PAGE + 4: 1}),
    "records": (1, {PAGE + 33 * 8 + 4: 0x02}),
}


@pytest.mark.slow
def test_a_sample_of_the_damage_under_micropython_with_the_picos_heap(three_segments):
    flash, segs, numbers, actions = three_segments
    parts = [
        "from hal.storage import Storage\nfrom flashmodel.vflash import VFlash\n"
        "flash = VFlash()\ns = Storage(flash)\ns.prepare()\ns.new_match(%r, %r)" % (HEADER, WORDS)
    ]
    parts += [
        "for a in %r:\n    s.append(a)" % (actions[i : i + 60],) for i in range(0, len(actions), 60)
    ]
    parts.append("j = s._open()\nsegs = [j.blocks[k] for k in j._segs]\ns = None")
    expected = []
    for name, (k, changes) in MPY_CASES.items():
        parts.append(
            "bad = flash.reboot()\ndata = bad.raw.block(segs[%d])\n"
            "for at, mask in %r:\n    data[at] ^= mask\n"
            "st = Storage(bad)\nh, got, status = st.load()\n"
            "print(%r, len(got), status, st.found)" % (k, sorted(changes.items()), name)
        )
    # What reads the damage is on the heap only during the load.
    parts.append("import sys\nprint('hal.journal_damage' in sys.modules)")
    out = mpy_wasm.run(mpy_wasm.parts(parts)).strip().split("\n")
    n = len(actions) + len(WORDS)
    expected = [
        "mended %d %d [(%d, %d, 0, 0)]" % (n, OK, MENDED, numbers[0]),
        "first by records %d %d [(%d, %d, 0, 0)]" % (n, OK, BY_RECORDS, numbers[0]),
        "lost %d %d [(%d, %d, 0, 0), (%d, %d, 100, 0)]"
        % (n - 100, CORRUPT, BY_RECORDS, numbers[2], LOST, numbers[2]),
        "records %d %d [(%d, %d, %d, 0)]"
        % (RECORDS + 33 + len(WORDS), CORRUPT, LOST, numbers[1], len(actions) - RECORDS - 33),
        "False",
    ]
    assert out == expected
