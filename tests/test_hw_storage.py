"""The journal and the registry on flash (hal/storage.py over sim/hw/vflash.py).

The heart of it: a real match's journal is written with the power cut at
every byte position; after the reboot load() returns exactly the actions
whose append had returned, never raises, and the match goes on from there.
"""

import pytest
from hypothesis import given, settings, strategies as st

import mpy_wasm
from dicetable.match.engine import GAMES, options
from hal.storage import (
    CORRUPT, NONE, OK, TORN, FlashFS, Storage, UNDO, crc16)
from sim.hw.vflash import PowerLost, VFlash
from sim.play import play

HEADER_SIZE = 9
RECORD_SIZE = 6


def real_match():
    """A short real match: DTwww, 2 players, one game (63 actions)."""
    m = play("dtwww", 2, options(0, 1), ["heuristic", "random"], 1)
    return bytes(m.journal_bytes()[:4]), list(m.journal)


HEADER, ACTIONS = real_match()


def script():
    """The operations of the match as the app writes them, with two undos
    (a player takes a move back and makes it again), and the actions the
    journal holds once each operation has returned."""
    ops = [("new", HEADER)]
    for i, a in enumerate(ACTIONS):
        ops.append(("append", a))
        if i in (5, 40):
            ops.append(("undo", None))
            ops.append(("append", a))
    committed = [None]
    held = []
    for kind, arg in ops[1:]:
        if kind == "append":
            held.append(arg)
        else:
            held.pop()
        committed.append(list(held))
    committed[0] = []
    return ops, committed


OPS, COMMITTED = script()


def run(storage, ops):
    """Carry out ops; return how many returned before the power went."""
    done = 0
    try:
        for kind, arg in ops:
            if kind == "new":
                storage.new_match(arg)
            elif kind == "append":
                storage.append(arg)
            else:
                storage.undo()
            done += 1
    except PowerLost:
        pass
    return done


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789", 0, 9, 0xFFFF) == 0x29B1


def test_round_trip_of_a_real_match():
    flash = VFlash()
    storage = Storage(flash)
    assert storage.load() == (None, [], NONE)
    assert run(storage, OPS) == len(OPS)
    assert HEADER == bytes((GAMES.index("dtwww"), 2, 0, 1))
    assert Storage(flash.reboot()).load() == (HEADER, ACTIONS, OK)
    size = len(flash.files["journal.bin"])
    assert size == HEADER_SIZE + RECORD_SIZE * (len(OPS) - 1)


def test_power_cut_at_every_byte_keeps_exactly_the_committed_actions():
    dry = VFlash()
    run(Storage(dry), OPS)
    total = dry.written
    assert total == HEADER_SIZE + RECORD_SIZE * (len(OPS) - 1)
    for cut in range(total + 1):
        flash = VFlash()
        storage = Storage(flash)
        flash.cut_after(cut)
        done = run(storage, OPS)
        assert done < len(OPS) or cut == total
        after = flash.reboot()
        storage = Storage(after)
        header, actions, status = storage.load()
        if done == 0:
            # new_match never returned: no match was started.
            assert (header, actions) == (None, [])
            assert status == NONE
            continue
        assert header == HEADER
        assert actions == COMMITTED[done - 1]
        partial = (len(after.files["journal.bin"]) - HEADER_SIZE) % RECORD_SIZE
        assert status == (TORN if partial else OK), cut
        # The match goes on: the rest of the journal after the reboot.
        for kind, arg in OPS[done:]:
            if kind == "append":
                storage.append(arg)
            else:
                storage.undo()
        assert Storage(after.reboot()).load() == (HEADER, ACTIONS, OK), cut


def test_a_cut_during_new_match_leaves_the_old_match():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:10])
    old = COMMITTED[9]
    for cut in range(HEADER_SIZE):
        again = flash.reboot()
        again.cut_after(cut)
        with pytest.raises(PowerLost):
            Storage(again).new_match(b"\x04\x03\x00\x00")
        assert Storage(again.reboot()).load() == (HEADER, old, OK)


def test_new_match_replaces_the_old_one():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:10])
    storage.new_match(b"\x04\x03\x00\x00")
    storage.append(0x100001)
    assert Storage(flash.reboot()).load() == (b"\x04\x03\x00\x00", [0x100001], OK)


def written_journal(n=12):
    """A journal of the match's first n actions, no undo: (flash, its bytes)."""
    flash = VFlash()
    run(Storage(flash), [("new", HEADER)] + [("append", a) for a in ACTIONS[:n]])
    return flash, bytes(flash.files["journal.bin"])


def test_a_damaged_byte_anywhere_never_raises_and_stops_at_the_last_good_record():
    flash, data = written_journal()
    records = (len(data) - HEADER_SIZE) // RECORD_SIZE
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] ^= 0x5A
        damaged = VFlash({"journal.bin": bad})
        header, actions, status = Storage(damaged).load()
        if pos < HEADER_SIZE:
            assert (header, actions, status) == (None, [], CORRUPT)
            continue
        k = (pos - HEADER_SIZE) // RECORD_SIZE
        assert header == HEADER
        assert actions == ACTIONS[:k]
        assert status == (TORN if k == records - 1 else CORRUPT)


def test_the_next_append_drops_a_damaged_tail_first():
    flash, data = written_journal()
    bad = bytearray(data)
    bad[HEADER_SIZE + 3 * RECORD_SIZE + 1] ^= 0x01      # the 4th action record
    storage = Storage(VFlash({"journal.bin": bad}))
    header, actions, status = storage.load()
    assert (actions, status) == (ACTIONS[:3], CORRUPT)
    storage.append(ACTIONS[3])
    assert Storage(storage.fs.reboot()).load() == (HEADER, ACTIONS[:4], OK)


def test_garbage_after_a_journal_is_a_torn_tail_or_corruption():
    flash, data = written_journal()
    for tail in (b"\x00", b"\xff" * 5, b"\x12" * 6, b"\x34" * 13):
        header, actions, status = Storage(VFlash({"journal.bin": bytearray(data + tail)})).load()
        assert actions == ACTIONS[:12]
        assert status == (CORRUPT if len(tail) > RECORD_SIZE else TORN)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80), st.integers(min_value=0, max_value=200))
def test_any_bytes_load_without_raising(garbage, keep):
    _, data = written_journal(4)
    for content in (garbage, data[:keep] + garbage):
        header, actions, status = Storage(VFlash({"journal.bin": bytearray(content)})).load()
        assert status in (OK, TORN, CORRUPT)
        assert header is None or header == HEADER or content == garbage
        assert all(0 <= a < UNDO for a in actions)


def test_an_undo_with_nothing_to_undo_is_bad_data():
    flash = VFlash()
    storage = Storage(flash)
    storage.new_match(HEADER)
    storage.undo()
    storage.append(ACTIONS[0])
    assert Storage(flash.reboot()).load() == (HEADER, [], CORRUPT)


def test_appends_are_refused_without_a_match_or_out_of_range():
    storage = Storage(VFlash())
    with pytest.raises(ValueError):
        storage.append(ACTIONS[0])
    storage.new_match(HEADER)
    for bad in (-1, UNDO, 1 << 30):
        with pytest.raises(ValueError):
            storage.append(bad)


def test_a_full_flash_fails_the_append_and_the_next_one_drops_its_remains():
    for room in range(RECORD_SIZE):
        flash = VFlash()
        storage = Storage(flash)
        run(storage, [("new", HEADER)] + [("append", a) for a in ACTIONS[:3]])
        flash.fill_after(room)
        with pytest.raises(OSError):
            storage.append(ACTIONS[3])
        flash.fill_after(None)
        storage.append(ACTIONS[4])
        assert Storage(flash.reboot()).load() == (HEADER, ACTIONS[:3] + [ACTIONS[4]], OK)


def test_clear_removes_the_match():
    flash = VFlash()
    storage = Storage(flash)
    run(storage, OPS[:5])
    storage.clear()
    assert Storage(flash.reboot()).load() == (None, [], NONE)
    with pytest.raises(ValueError):
        storage.append(ACTIONS[0])


def test_a_record_from_another_match_fails_its_check():
    _, first = written_journal(3)
    flash = VFlash()
    storage = Storage(flash)
    storage.new_match(b"\x02\x03\x00\x00")
    storage.append(ACTIONS[0])
    mixed = bytearray(flash.files["journal.bin"]) + first[HEADER_SIZE + RECORD_SIZE:]
    _, actions, status = Storage(VFlash({"journal.bin": mixed})).load()
    assert (actions, status) == ([ACTIONS[0]], CORRUPT)


# -- the registry -------------------------------------------------------

ENTRIES = [(b"\x04\x11\x22\x33", 0, 5), (bytes(range(1, 8)), 4, 0x1234),
           (bytes(range(10, 20)), 2, 0), (b"\x04\x11\x22\x33", 1, 7)]


def test_registry_round_trip():
    flash = VFlash()
    storage = Storage(flash)
    assert storage.load_registry() == ([], NONE)
    storage.save_registry(ENTRIES)
    assert Storage(flash.reboot()).load_registry() == (ENTRIES, OK)
    storage.save_registry([])
    assert Storage(flash.reboot()).load_registry() == ([], OK)
    assert "registry.tmp" not in flash.files


def test_a_damaged_registry_loads_empty_and_says_so():
    flash = VFlash()
    Storage(flash).save_registry(ENTRIES)
    data = bytes(flash.files["registry.bin"])
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] ^= 0x81
        assert Storage(VFlash({"registry.bin": bad})).load_registry() == ([], CORRUPT)
    for cut in (0, 1, 7, len(data) - 1):
        torn = VFlash({"registry.bin": bytearray(data[:cut])})
        assert Storage(torn).load_registry() == ([], CORRUPT)


def registry_bytes(entries):
    """A registry file with a correct check code, whatever the entries are."""
    out = bytearray(b"DR\x01") + bytes((len(entries) & 0xFF, len(entries) >> 8))
    for uid, game, item, pad in entries:
        out += bytes((len(uid),)) + uid + pad + bytes((game, item & 0xFF, item >> 8))
    crc = crc16(out, 0, len(out), 0xFFFF)
    return out + bytes((crc & 0xFF, crc >> 8))


def test_registry_entries_are_validated_on_load():
    good = (b"\x01\x02\x03\x04", 0, 3, bytes(6))
    assert Storage(VFlash({"registry.bin": registry_bytes([good])})).load_registry() == (
        [(b"\x01\x02\x03\x04", 0, 3)], OK)
    for bad in ([(b"\x01\x02\x03\x04\x05", 0, 3, bytes(5))],       # a 5-byte UID
                [(b"\x01\x02\x03\x04", len(GAMES), 3, bytes(6))],  # no such game
                [(b"\x01\x02\x03\x04", 0, 3, b"\x00\x00\x09\x00\x00\x00")],  # padding
                [good, good]):                                      # the same tag twice
        flash = VFlash({"registry.bin": registry_bytes(bad)})
        assert Storage(flash).load_registry() == ([], CORRUPT)


def test_bad_entries_are_refused_and_leave_the_old_registry():
    flash = VFlash()
    storage = Storage(flash)
    storage.save_registry(ENTRIES)
    for bad in ([(b"\x01\x02", 0, 1)], [(b"\x01\x02\x03\x04", 9, 1)],
                [(b"\x01\x02\x03\x04", 0, 0x10000)], [ENTRIES[0], ENTRIES[0]]):
        with pytest.raises(ValueError):
            storage.save_registry(bad)
    assert Storage(flash.reboot()).load_registry() == (ENTRIES, OK)


def test_a_cut_while_saving_leaves_the_old_registry_or_the_new_one():
    flash = VFlash()
    Storage(flash).save_registry(ENTRIES[:2])
    new = ENTRIES[1:]
    for cut in range(5 + 14 * len(new) + 2 + 1):
        again = flash.reboot()
        again.cut_after(cut)
        try:
            Storage(again).save_registry(new)
            saved = True
        except PowerLost:
            saved = False
        assert Storage(again.reboot()).load_registry() == ((new if saved else ENTRIES[:2]), OK)


def test_a_complete_temporary_file_counts_only_without_a_registry():
    flash = VFlash()
    Storage(flash).save_registry(ENTRIES[:1])
    flash.files["registry.tmp"] = registry_bytes([(b"\x01\x02\x03\x04", 0, 3, bytes(6))])
    assert Storage(flash).load_registry() == (ENTRIES[:1], OK)
    del flash.files["registry.bin"]
    assert Storage(flash).load_registry() == ([(b"\x01\x02\x03\x04", 0, 3)], OK)
    flash.files["registry.tmp"] = flash.files["registry.tmp"][:-1]
    assert Storage(flash).load_registry() == ([], NONE)


def test_the_board_filesystem_adapter(tmp_path):
    storage = Storage(FlashFS(), prefix=str(tmp_path) + "/")
    run(storage, OPS[:20])
    storage.save_registry(ENTRIES)
    storage.close()
    again = Storage(FlashFS(), prefix=str(tmp_path) + "/")
    assert again.load() == (HEADER, COMMITTED[19], OK)
    assert again.load_registry() == (ENTRIES, OK)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.bin", "registry.bin"]


MPY_SCRIPT = """
from hal.storage import Storage, OK, TORN, NONE
from sim.hw.vflash import VFlash, PowerLost
HEADER = %r
ACTIONS = %r
total = 9 + 6 * len(ACTIONS)
for cut in range(total + 1):
    flash = VFlash()
    s = Storage(flash)
    flash.cut_after(cut)
    done = 0
    try:
        s.new_match(HEADER)
        done = 1
        for a in ACTIONS:
            s.append(a)
            done += 1
    except PowerLost:
        pass
    header, actions, status = Storage(flash.reboot()).load()
    if done == 0:
        assert (header, actions, status) == (None, [], NONE), cut
    else:
        assert header == HEADER and actions == ACTIONS[:done - 1], cut
        assert status in (OK, TORN)
flash = VFlash()
s = Storage(flash)
s.save_registry([(b"\\x01\\x02\\x03\\x04", 1, 2)])
print(Storage(flash.reboot()).load_registry())
print("ok", total)
"""


def test_storage_and_vflash_run_under_micropython():
    out = mpy_wasm.run(MPY_SCRIPT % (HEADER, ACTIONS[:12])).split("\n")
    assert out[0] == "([(b'\\x01\\x02\\x03\\x04', 1, 2)], 0)"
    assert out[1] == "ok %d" % (HEADER_SIZE + RECORD_SIZE * 12)
