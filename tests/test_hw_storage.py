"""The journal and the registry on flash (hal/storage.py and hal/journal.py over
flashmodel/vflash.py and the NOR flash model flashmodel/norflash.py).

The heart of it: a real match's journal is written with the power cut at
every programmed byte and inside every erase; after the reboot load()
returns exactly the actions whose append had returned, never raises, and
the match goes on from there.
"""

import ast
import pathlib
import random
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.app.registry import MAX_TAGS, RECORD, Registry, pack, unpack
from dicetable.games import GAMES
from dicetable.games import header as header_of
from dicetable.match.engine import options
from flashmodel.norflash import BLOCK, ERASE_US, NorFlash
from flashmodel.norflash import PowerLost as NorPowerLost
from flashmodel.vflash import PowerLost, VFlash
from hal.journal_segments import PAGE, RECORDS
from hal.storage import CORRUPT, NONE, OK, TORN, UNDO, FlashFS, Storage, crc16
from sim import mpy_wasm
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames
from sim.play import play

WORDS = (0xF00003, 0xE12345)  # the table's SEATS and SEED records


def real_match():
    """A short real match: DTwww, 2 players, one game (63 actions)."""
    m = play("dtwww", 2, options(0, 1), ["heuristic", "random"], 1)
    return header_of(m), list(m.journal)


HEADER, ACTIONS = real_match()


def script(actions=ACTIONS, undo_at=(5, 40)):
    """The operations as the app writes them, with undos (a player takes a move
    back and makes it again), and what load() must give after each one."""
    ops = [("new", None)]
    for i, a in enumerate(actions):
        ops.append(("append", a))
        if i in undo_at:
            ops.append(("undo", None))
            ops.append(("append", a))
    committed = [list(WORDS)]
    held = []
    for kind, arg in ops[1:]:
        if kind == "append":
            held.append(arg)
        else:
            held.pop()
        committed.append(list(WORDS) + held)
    return ops, committed


OPS, COMMITTED = script()


def run(storage, ops, header=HEADER):
    """Carry out ops; return how many returned before the power went."""
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
    except PowerLost:
        pass
    return done


def segments(storage):
    """{segment index: its NOR block} of a storage's journal."""
    j = storage._open()
    return dict(enumerate(j.blocks))


@pytest.mark.parametrize(
    ("contents", "expected"),
    [
        (b"5a17e\n", 0x5A17E),  # as make flash writes it
        (None, 0),  # no file: a board not flashed by make flash
        (b"", 0),
        (b"not hex\n", 0),
        (b"\xff\xfe\n", 0),  # not text
    ],
)
def test_the_firmware_id_is_what_make_flash_wrote_or_none(contents, expected):
    flash = VFlash()
    if contents is not None:
        with flash.open("firmware.id", "wb") as f:
            f.write(contents)
    assert Storage(flash).firmware_id() == expected


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789", 0, 9, 0xFFFF) == 0x29B1


def test_round_trip_of_a_real_match_costs_a_page_program_per_action():
    flash = VFlash()
    storage = Storage(flash)
    assert storage.load() == (None, [], NONE)
    storage.prepare()
    erases, programs = sum(flash.raw.erases), sum(flash.raw.programs)
    assert run(storage, OPS) == len(OPS)
    assert HEADER == bytes((GAMES.index("dtwww"), 2, 0, 1))
    assert Storage(flash.reboot()).load() == (HEADER, COMMITTED[-1], OK)
    # No work ahead had its chance: the match's segment erased at need,
    # its first bytes, its header page, 1 page per record.
    assert sum(flash.raw.erases) - erases == 1
    assert sum(flash.raw.programs) - programs == 1 + len(OPS)


def test_with_the_work_ahead_a_match_is_a_page_program_per_commit_and_no_erase():
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    storage.load()
    assert storage.work_ahead()  # the spare erased, after the power-up
    assert not storage.work_ahead()  # no match: no header page to build
    erases, programs = sum(flash.raw.erases), sum(flash.raw.programs)
    assert run(storage, OPS) == len(OPS)
    assert Storage(flash.reboot()).load() == (HEADER, COMMITTED[-1], OK)
    assert sum(flash.raw.erases) == erases
    assert sum(flash.raw.programs) - programs == len(OPS)


@pytest.mark.slow
def test_power_cut_at_every_byte_and_erase_keeps_exactly_the_committed_actions():
    # The same area number every run, so that every run programs the same
    # bytes (a byte of it that is 0xFF takes no unit of work).
    random.seed(9)
    dry = VFlash()
    run(Storage(dry), OPS)
    total = dry.written
    for cut in range(total + 1):
        random.seed(9)
        flash = VFlash()
        flash.cut_after(cut)
        done = run(Storage(flash), OPS)
        assert done < len(OPS) or cut == total
        after = flash.reboot()
        storage = Storage(after)
        header, actions, status = storage.load()
        if done == 0:
            # new_match never returned: no match, or the match with its words
            # (its header page was programmed, the return was not reached).
            assert (header, actions) in ((None, []), (HEADER, list(WORDS))), cut
            assert status in (NONE, OK)
        else:
            assert (header, actions) == (HEADER, COMMITTED[done - 1]), cut
            assert status in (OK, TORN)
        # The match goes on: the rest of the journal after the reboot.
        run(storage, OPS[max(done, 1) :] if header is not None else OPS)
        assert Storage(after.reboot()).load() == (HEADER, COMMITTED[-1], OK), cut


def long_script():
    """A 5-player Nokosu match with an undo every 40 actions: past one segment."""
    m = play("nokosu", 5, 2, ["heuristic"] * 5, 1)
    h = header_of(m)
    ops, committed = script(m.journal, range(10, len(m.journal), 40))
    return h, ops, committed


@pytest.mark.slow
def test_a_cut_while_the_next_segment_starts_loses_nothing_committed():
    h, ops, committed = long_script()
    # The 480th record fills the first segment: cut all around the next one's start.
    dry = VFlash()
    storage = Storage(dry)
    storage.prepare()
    start = dry.written
    run(storage, ops[: RECORDS + 1], h)
    around = dry.written
    for cut in range(around - start - 40, around - start + 300):
        flash = VFlash()
        storage = Storage(flash)
        storage.prepare()
        flash.cut_after(cut)
        done = run(storage, ops, h)
        storage = Storage(flash.reboot())
        header, actions, status = storage.load()
        assert (header, actions) == (h, committed[done - 1]), cut
        run(storage, ops[done:], h)
        assert Storage(storage.fs.reboot()).load() == (h, committed[-1], OK)


@pytest.mark.slow
def test_many_undos_are_compacted_and_a_cut_during_it_keeps_the_match():
    m = play("nokosu", 3, 1, ["heuristic"] * 3, 1)
    h = header_of(m)
    ops = [("new", None)]
    for a in m.journal[:200]:
        ops += [("append", a)] + [("undo", None), ("append", a)] * 7
    want = list(WORDS) + m.journal[:200]
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    assert run(storage, ops, h) == len(ops)  # 3 000 records: six segments, then a copy
    assert Storage(flash.reboot()).load() == (h, want, OK)
    j = storage._open()
    assert len(j._segs) <= 2  # the live 200 actions, copied
    # Cut inside the copy: the old generation stays whole.
    before = VFlash()
    s = Storage(before)
    s.prepare()
    run(s, ops[: 6 * RECORDS - 5], h)
    base = before.written
    run(s, ops[6 * RECORDS - 5 :], h)
    for cut in range(0, before.written - base, 7):
        flash = VFlash()
        s = Storage(flash)
        s.prepare()
        run(s, ops[: 6 * RECORDS - 5], h)
        flash.cut_after(cut)
        done = 6 * RECORDS - 5 + run(s, ops[6 * RECORDS - 5 :], h)
        s = Storage(flash.reboot())
        header, actions, _ = s.load()
        held = list(WORDS)
        for kind, arg in ops[1:done]:
            if kind == "append":
                held.append(arg)
            else:
                held.pop()
        assert (header, actions) == (h, held), cut


def test_a_cut_during_new_match_leaves_the_old_match():
    flash = VFlash()
    run(Storage(flash), OPS[:10])
    old = COMMITTED[9]
    dry = flash.reboot()
    start = dry.written
    Storage(dry).new_match(b"\x04\x03\x00\x00", (7,))
    for cut in range(dry.written - start):
        again = flash.reboot()
        again.cut_after(cut)
        with pytest.raises(PowerLost):
            Storage(again).new_match(b"\x04\x03\x00\x00", (7,))
        got = Storage(again.reboot()).load()
        assert got in ((HEADER, old, OK), (b"\x04\x03\x00\x00", [7], OK)), cut


def test_new_match_replaces_the_old_one_and_clear_ends_it():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:10])
    storage.new_match(b"\x04\x03\x00\x00", (5, 6))
    storage.append(0x100001)
    assert Storage(flash.reboot()).load() == (b"\x04\x03\x00\x00", [5, 6, 0x100001], OK)
    erases = sum(flash.raw.erases)
    storage.clear()
    assert sum(flash.raw.erases) == erases  # a mark programmed, nothing erased
    assert Storage(flash.reboot()).load() == (None, [], NONE)
    with pytest.raises(ValueError):
        storage.append(ACTIONS[0])


def written_journal(n=12):
    """A journal of the match's first n actions, no undo: (flash, its first block)."""
    flash = VFlash()
    storage = Storage(flash)
    run(storage, [("new", None)] + [("append", a) for a in ACTIONS[:n]])
    j = storage._open()
    return flash, j.blocks[j._segs[0]]


def test_one_flipped_bit_loses_at_most_the_records_from_it_on():
    flash, block = written_journal()
    for pos in list(range(0, 48)) + list(range(128, 176)) + list(range(PAGE, PAGE + 8 * 12)):
        for bit in (0, 5):
            bad = flash.reboot()
            bad.raw.block(block)[pos] ^= 1 << bit
            header, actions, status = Storage(bad).load()
            if pos < PAGE:
                # Either header copy alone holds the match.
                assert (header, actions, status) == (HEADER, list(WORDS) + ACTIONS[:12], OK)
                continue
            k = (pos - PAGE) // 8
            assert (header, actions) == (HEADER, list(WORDS) + ACTIONS[:k]), pos
            assert status == (TORN if k == 11 else CORRUPT), pos


def test_both_header_copies_damaged_in_different_bytes_mend_never_garbage():
    # Every damage class: tests/test_journal_damage.py.
    flash, block = written_journal()
    bad = flash.reboot()
    bad.raw.block(block)[10] ^= 4
    bad.raw.block(block)[128 + 20] ^= 1
    assert Storage(bad).load() == (HEADER, list(WORDS) + ACTIONS[:12], OK)
    bad.raw.block(block)[128 + 10] ^= 4  # now alike in both: nothing to mend from
    assert Storage(bad).load() == (None, [], CORRUPT)


def test_the_next_append_after_damage_starts_a_new_segment():
    flash, block = written_journal()
    bad = flash.reboot()
    bad.raw.block(block)[PAGE + 3 * 8 + 5] ^= 0x01  # the 4th action record
    storage = Storage(bad)
    header, actions, status = storage.load()
    assert (actions, status) == (list(WORDS) + ACTIONS[:3], CORRUPT)
    storage.append(ACTIONS[3])
    assert Storage(bad.reboot()).load() == (HEADER, list(WORDS) + ACTIONS[:4], OK)


def test_a_torn_record_is_passed_over_without_an_erase():
    flash, block = written_journal()
    for torn in range(1, 8):
        again = flash.reboot()
        storage = Storage(again)
        erases = sum(again.raw.erases)
        again.cut_after(torn)
        with pytest.raises(PowerLost):
            storage.append(ACTIONS[12])
        again = again.reboot()
        storage = Storage(again)
        assert storage.load() == (HEADER, list(WORDS) + ACTIONS[:12], TORN)
        storage.append(ACTIONS[12])
        storage.append(ACTIONS[13])
        assert Storage(again.reboot()).load() == (HEADER, list(WORDS) + ACTIONS[:14], OK)
        assert sum(again.raw.erases) == erases


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=BLOCK - 1), st.binary(min_size=1, max_size=300))
def test_garbage_anywhere_loads_without_raising(at, garbage):
    flash, block = written_journal(4)
    bad = flash.reboot()
    data = bad.raw.block(block)
    for i, b in enumerate(garbage[: BLOCK - at]):
        data[at + i] = b
    header, actions, status = Storage(bad).load()
    assert status in (OK, TORN, CORRUPT, NONE)
    assert header in (None, HEADER)
    assert actions == (list(WORDS) + ACTIONS[:4])[: len(actions)]


def test_an_undo_with_nothing_to_undo_is_bad_data():
    flash = VFlash()
    storage = Storage(flash)
    storage.new_match(HEADER, WORDS)
    storage.undo()
    storage.append(ACTIONS[0])
    assert Storage(flash.reboot()).load() == (HEADER, list(WORDS), CORRUPT)


def test_appends_are_refused_without_a_match_or_out_of_range():
    storage = Storage(VFlash())
    with pytest.raises(ValueError):
        storage.append(ACTIONS[0])
    storage.new_match(HEADER)
    for bad in (-1, UNDO, 1 << 30):
        with pytest.raises(ValueError):
            storage.append(bad)
    with pytest.raises(ValueError):
        storage.new_match(HEADER, (1, 2, 3, 4, 5))


def test_segments_written_again_through_the_filesystem_are_found_by_the_scan():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:20])
    # A restore: the same match written afresh elsewhere (a new area number),
    # its segment files copied over the board's through the filesystem, which
    # puts them in other blocks; the old map is removed first.
    fresh = VFlash()
    run(Storage(fresh), OPS[:20])
    board = flash.reboot()
    board.remove("journal.map")
    for i in range(8):
        path = storage.segment_path(i)
        f = board.open(path, "wb")
        f.write(fresh.open(path, "rb").read())
        f.close()
    s = Storage(board)
    assert s.load() == (HEADER, COMMITTED[19], OK)
    assert sorted(segments(s).values()) != sorted(segments(storage).values())
    s.append(ACTIONS[30])
    assert Storage(board.reboot()).load() == (HEADER, COMMITTED[19] + [ACTIONS[30]], OK)


def test_a_segment_that_cannot_be_told_apart_is_never_written():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:5])
    blocks = segments(storage)
    twin = flash.reboot()
    spare = [b for b in range(twin.raw.blocks) if b not in twin.placed.values()][0]
    twin.raw.block(spare)[:] = twin.raw.block(blocks[0])  # a stale copy of segment 0
    twin.remove("journal.map")
    assert Storage(twin).load() == (None, [], CORRUPT)
    s = Storage(twin)
    s.new_match(HEADER, WORDS)  # made afresh
    assert Storage(twin.reboot()).load() == (HEADER, list(WORDS), OK)


HAL = pathlib.Path(__file__).resolve().parent.parent / "firmware" / "hal"
# A commit's path, the work ahead given its chances: everything append,
# undo and new_match reach but what the power-up has done (the journal
# opened and loaded, its segment files made: Storage.prepare()) and a
# compaction at need (the work ahead does it beforehand; its module,
# journal_compaction.py, is imported only then).  The journal's path runs
# through its class's base too (journal_segments.py).
COMMITS = {
    "storage.py": (("storage.py",), ("append", "undo", "new_match")),
    "journal.py": (("journal.py", "journal_segments.py"), ("append", "new_match")),
}
AT_NEED = {"load", "_open", "_make_area"}


def frames_by_name(path, names):
    """{name: frame words} of the module's functions `names` as mpy-cross
    compiles them (a name MicroPython holds as a static qstr, such as append,
    is told by compiling a function of that name alone)."""
    labels = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            probe = pathlib.Path(tmp) / "probe.py"
            probe.write_text("def %s():\n    pass\n" % name)
            labels[function_frames(probe)[1][0]] = name
    return {
        labels[label]: frame_words(n_state, n_exc)
        for label, n_state, n_exc in function_frames(path)
        if label in labels
    }


def commit_path(trees, roots):
    """The modules' functions a commit reaches (calls of module functions and
    of self's methods), not through AT_NEED."""
    bodies = {n.name: n for t in trees for n in ast.walk(t) if isinstance(n, ast.FunctionDef)}
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name in AT_NEED or name not in bodies:
            continue
        seen.add(name)
        for node in ast.walk(bodies[name]):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Name):
                    todo.append(f.id)
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                    if f.value.id == "self":
                        todo.append(f.attr)
    return seen


@pytest.mark.parametrize("module", sorted(COMMITS))
def test_every_function_on_a_commits_path_keeps_its_frame_on_the_c_stack(module):
    files, roots = COMMITS[module]
    trees = {f: ast.parse((HAL / f).read_text()) for f in files}
    names = commit_path(trees.values(), roots)
    if module == "journal.py":
        assert {"append", "new_match", "_extend", "_ready", "_build", "crc16", "_begin"} <= names
    sizes = {}
    for f, tree in trees.items():
        here = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        sizes.update(frames_by_name(HAL / f, names & here))
    assert set(sizes) == names
    assert {n: w for n, w in sizes.items() if w > C_STACK_FRAME_WORDS} == {}


def test_busy_time_of_an_action_is_one_page_program():
    flash, _ = written_journal()
    storage = Storage(flash)
    storage.load()
    busy = flash.raw.busy_us
    storage.append(ACTIONS[12])
    assert flash.raw.busy_us - busy == 400
    assert ERASE_US == 45000


def test_the_nor_model_only_clears_bits_and_wants_whole_pages():
    nor = NorFlash(2)
    page = bytearray(b"\xff" * PAGE)
    page[0] = 0x0F
    nor.writeblocks(1, page, 0)
    page[0] = 0xF0
    nor.writeblocks(1, page, 0)
    buf = bytearray(1)
    nor.readblocks(1, buf, 0)
    assert buf[0] == 0x00
    with pytest.raises(ValueError):
        nor.writeblocks(1, bytearray(8), 0)
    with pytest.raises(ValueError):
        nor.writeblocks(1, page, 8)
    nor.cut_after(1)
    with pytest.raises(NorPowerLost):
        nor.ioctl(6, 1)  # cut half-way: neither old nor erased
    after = nor.copy()
    assert nor.dead and not after.dead
    assert after.block(1)[:PAGE] not in (bytes(PAGE), b"\xff" * PAGE, bytes(page))


# -- the registry -------------------------------------------------------

ENTRIES = [
    (b"\x04\x11\x22\x33", 0, 5),
    (bytes(range(1, 8)), 4, 0x1234),
    (bytes(range(10, 20)), 2, 0),
    (b"\x04\x11\x22\x34", 1, 7),
]
REGISTRY = pack(ENTRIES)


def loaded(storage):
    """load_registry() with the records as entries."""
    records, status = storage.load_registry()
    return unpack(records), status


def test_registry_round_trip():
    flash = VFlash()
    storage = Storage(flash)
    assert storage.load_registry() == (bytearray(), NONE)
    storage.save_registry(REGISTRY)
    assert Storage(flash.reboot()).load_registry() == (REGISTRY, OK)
    assert loaded(Storage(flash.reboot())) == (sorted(ENTRIES, key=lambda e: e[1:]), OK)
    storage.save_registry(bytearray())
    assert Storage(flash.reboot()).load_registry() == (bytearray(), OK)
    assert "registry.tmp" not in flash.files


def test_a_damaged_registry_loads_empty_and_says_so():
    flash = VFlash()
    Storage(flash).save_registry(REGISTRY)
    data = bytes(flash.files["registry.bin"])
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] ^= 0x81
        assert Storage(VFlash({"registry.bin": bad})).load_registry() == (bytearray(), CORRUPT)
    for cut in (0, 1, 7, len(data) - 1):
        torn = VFlash({"registry.bin": bytearray(data[:cut])})
        assert Storage(torn).load_registry() == (bytearray(), CORRUPT)
    longer = VFlash({"registry.bin": bytearray(data + b"\x00")})
    assert Storage(longer).load_registry() == (bytearray(), CORRUPT)


def registry_bytes(entries, count=None):
    """A registry file with a correct check code, whatever the entries are."""
    n = len(entries) if count is None else count
    out = bytearray(b"DR\x01") + bytes((n & 0xFF, n >> 8))
    for uid, game, item, pad in entries:
        out += bytes((len(uid),)) + uid + pad + bytes((game, item & 0xFF, item >> 8))
    crc = crc16(out, 0, len(out), 0xFFFF)
    return out + bytes((crc & 0xFF, crc >> 8))


def test_registry_records_are_validated_on_load():
    good = (b"\x01\x02\x03\x04", 0, 3, bytes(6))
    assert loaded(Storage(VFlash({"registry.bin": registry_bytes([good])}))) == (
        [(b"\x01\x02\x03\x04", 0, 3)],
        OK,
    )
    for bad in (
        [(b"\x01\x02\x03\x04\x05", 0, 3, bytes(5))],  # a 5-byte UID
        [(b"\x01\x02\x03\x04", len(GAMES), 3, bytes(6))],  # no such game
        [(b"\x01\x02\x03\x04", 0, 3, b"\x00\x00\x09\x00\x00\x00")],
    ):  # padding
        flash = VFlash({"registry.bin": registry_bytes(bad)})
        assert Storage(flash).load_registry() == (bytearray(), CORRUPT)


def test_a_count_beyond_the_most_tags_is_refused_before_any_buffer_is_made():
    # A count field saying 60000 tags (with a check code that fits) never asks
    # the board for a 840 KB buffer.
    data = registry_bytes([], count=MAX_TAGS + 1)
    assert Storage(VFlash({"registry.bin": bytearray(data)})).load_registry() == (
        bytearray(),
        CORRUPT,
    )


def test_a_tag_given_twice_keeps_its_first_item_and_counts_the_other():
    good = (b"\x01\x02\x03\x04", 0, 3, bytes(6))
    again = (b"\x01\x02\x03\x04", 1, 9, bytes(6))
    records, status = Storage(
        VFlash({"registry.bin": registry_bytes([again, good])})
    ).load_registry()
    assert status == OK and len(records) == 2 * RECORD
    registry = Registry()
    assert registry.adopt(records) == 1
    assert registry.entries() == [(b"\x01\x02\x03\x04", 0, 3)]


def test_records_out_of_order_are_sorted_on_load():
    # registry.bin written before the records were kept in UID order (sorted
    # by game and item) loads the same.
    old_order = [
        (uid, g, i, bytes(10 - len(uid)))
        for uid, g, i in sorted(ENTRIES, key=lambda e: (e[1], e[2]))
    ]
    records, status = Storage(VFlash({"registry.bin": registry_bytes(old_order)})).load_registry()
    registry = Registry()
    assert status == OK and registry.adopt(records) == 0
    assert registry.records == REGISTRY
    for uid, g, item in ENTRIES:
        assert registry.lookup(uid) == (g, item)


def test_bad_records_are_refused_and_leave_the_old_registry():
    flash = VFlash()
    storage = Storage(flash)
    storage.save_registry(REGISTRY)
    for bad in (REGISTRY[:-1], bytes(RECORD), REGISTRY[: RECORD - 3] + b"\x09\x00\x00"):
        with pytest.raises(ValueError):
            storage.save_registry(bad)
    assert Storage(flash.reboot()).load_registry() == (REGISTRY, OK)


def test_a_cut_while_saving_leaves_the_old_registry_or_the_new_one():
    flash = VFlash()
    old = pack(ENTRIES[:2])
    Storage(flash).save_registry(old)
    new = pack(ENTRIES[1:])
    for cut in range(5 + len(new) + 2 + 1):
        again = flash.reboot()
        again.cut_after(cut)
        try:
            Storage(again).save_registry(new)
            saved = True
        except PowerLost:
            saved = False
        assert Storage(again.reboot()).load_registry() == ((new if saved else old), OK)


def test_a_complete_temporary_file_counts_only_without_a_registry():
    flash = VFlash()
    Storage(flash).save_registry(pack(ENTRIES[:1]))
    flash.files["registry.tmp"] = registry_bytes([(b"\x01\x02\x03\x04", 0, 3, bytes(6))])
    assert loaded(Storage(flash)) == (ENTRIES[:1], OK)
    del flash.files["registry.bin"]
    assert loaded(Storage(flash)) == ([(b"\x01\x02\x03\x04", 0, 3)], OK)
    flash.files["registry.tmp"] = flash.files["registry.tmp"][:-1]
    assert Storage(flash).load_registry() == (bytearray(), NONE)


def test_the_board_filesystem_adapter_keeps_the_registry(tmp_path):
    storage = Storage(FlashFS(), prefix=str(tmp_path) + "/")
    storage.save_registry(REGISTRY)
    again = Storage(FlashFS(), prefix=str(tmp_path) + "/")
    assert again.load_registry() == (REGISTRY, OK)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["registry.bin"]


# -- under MicroPython, with the Pico's heap -------------------------------


def longest_journal():
    """A 5-player Nokosu match one action before its end."""
    m = play("nokosu", 5, 0, ["heuristic"] * 5, 1)
    return header_of(m), m.journal[:-1]


@pytest.mark.slow
def test_the_longest_journal_loads_under_micropython_with_the_picos_heap():
    header, journal = longest_journal()
    chunks = [journal[i : i + 40] for i in range(0, len(journal), 40)]
    parts = [
        "from hal.storage import Storage, OK\nfrom flashmodel.vflash import VFlash\n"
        "flash = VFlash()\ns = Storage(flash)\ns.prepare()",
        "s.new_match(%r, %r)" % (header, WORDS),
    ]
    parts += ["for a in %r:\n    s.append(a)" % (c,) for c in chunks]
    parts += [
        "flash = flash.reboot()\ns = None",
        "h, actions, status = Storage(flash).load()\n"
        "print(h == %r, status == OK, len(actions), sum(actions) %% 1000003)" % (header,),
        # Loading writes nothing; a cut during the next session's first
        # append, then the board boots again.
        "actions = None\ns = Storage(flash)\ns.load()\nflash.cut_after(5)\n"
        "try:\n    s.append(%d)\nexcept BaseException:\n    pass" % journal[0],
        "flash = flash.reboot()\nh, actions, status = Storage(flash).load()\n"
        "print(len(actions), status)",
    ]
    out = mpy_wasm.run(mpy_wasm.parts(parts)).split("\n")
    total = (sum(WORDS) + sum(journal)) % 1000003
    assert out[0] == "True True %d %d" % (len(journal) + 2, total)
    assert out[1] == "%d %d" % (len(journal) + 2, TORN)
