"""The journal beside real LittleFS: the littlefs-python package (the C library)
with the board's geometry (rp2: 352 blocks of 4096 bytes, read 32, prog 256,
cache 1024, lookahead 32 bytes, block_cycles 100: _boot.py and
extmod/vfs_lfsx.c) over the NOR flash model, as MicroPython mounts it.

- the old design (append + flush of a 6-byte record through LittleFS) costs
  about one sector erase per action: the "before" figure;
- the segment files, made through LittleFS, are found on the raw flash by the
  scan, each a whole block with its data at offset 0;
- files written through LittleFS afterwards (registry saves, a firmware's
  worth of modules) never touch the segments, and a remount keeps them;
- a segment erased ahead of need (Storage.work_ahead) under LittleFS's feet
  still reads through LittleFS as its block, and the segments are found by
  their first bytes when the map is lost.
"""

import pytest

littlefs = pytest.importorskip("littlefs")

from littlefs_nor import PICO_BLOCKS, mount  # noqa: E402

from dicetable.app.registry import pack  # noqa: E402
from dicetable.games import header  # noqa: E402
from flashmodel.norflash import BLOCK, NorFlash  # noqa: E402
from hal.storage import OK, Storage  # noqa: E402
from sim.play import play  # noqa: E402


class LfsFS:
    """Storage's `fs` over a LittleFS object, with the NOR under it as `raw`."""

    def __init__(self, lfs, nor):
        self.lfs = lfs
        self.raw = nor

    def open(self, path, mode):
        return self.lfs.open(path, mode)

    def remove(self, path):
        self.lfs.remove(path)

    def rename(self, old, new):
        self.lfs.rename(old, new)

    def exists(self, path):
        try:
            self.lfs.stat(path)
            return True
        except littlefs.errors.LittleFSError:
            return False


def nokosu():
    m = play("nokosu", 5, 1, ["heuristic"] * 5, 1)
    return header(m), m.journal


def old_design_cost(actions):
    """(erases, page programs) per action of append + flush through LittleFS."""
    nor = NorFlash(PICO_BLOCKS)
    fs = mount(nor)
    f = fs.open("journal.bin", "wb")
    f.write(b"DJ\x01" + bytes(6))
    f.close()
    f = fs.open("journal.bin", "ab", buffering=0)  # flush() is lfs_file_sync(), as on the board
    erases, programs = sum(nor.erases), sum(nor.programs)
    for a in actions:
        f.write(a.to_bytes(4, "little") + b"\x00\x00")
        f.flush()
    f.close()
    n = len(actions)
    return (sum(nor.erases) - erases) / n, (sum(nor.programs) - programs) / n


@pytest.mark.slow
def test_the_old_append_and_flush_erases_a_sector_per_action():
    _, journal = nokosu()
    erases, _ = old_design_cost(journal)
    assert erases > 0.9  # the first ~170 ride inline in LittleFS's metadata


def test_segment_files_are_found_on_the_raw_flash_and_never_moved():
    header, journal = nokosu()
    nor = NorFlash(PICO_BLOCKS)
    fs = LfsFS(mount(nor), nor)
    for i in range(30):  # a board with its firmware on it
        with fs.open("mod%d.mpy" % i, "wb") as f:
            f.write(bytes([i]) * (700 + 97 * i))
    storage = Storage(fs)
    storage.save_registry(pack([(b"\x01\x02\x03\x04", 0, 5)]))
    storage.prepare()
    storage.load()
    assert storage.work_ahead()  # a segment erased ahead, its first bytes programmed
    blocks = storage._open().blocks
    for i, b in enumerate(blocks):
        # The file is that block, its data from offset 0.
        with fs.open(storage.segment_path(i), "rb") as f:
            through_fs = f.read()
        raw = bytearray(BLOCK)
        nor.readblocks(b, raw, 0)
        assert through_fs == raw and len(through_fs) == BLOCK
    storage.new_match(header, (0xF0001F, 0xE00001))
    erases = sum(nor.erases)
    for a in journal[:300]:
        storage.append(a)
    assert sum(nor.erases) == erases  # page programs only
    # The filesystem busy afterwards: registry saves, modules replaced.
    snapshot = {b: bytes(nor.block(b)) for b in blocks}
    wear = {b: (nor.erases[b], nor.programs[b]) for b in blocks}
    for k in range(40):
        storage.save_registry(pack([(bytes((4, k, 5, 6)), 1, k)]))
        with fs.open("mod%d.mpy" % (k % 30), "wb") as f:
            f.write(bytes([k]) * (900 + 53 * k))
    fs.lfs.remove("mod3.mpy")
    assert {b: bytes(nor.block(b)) for b in blocks} == snapshot
    assert {b: (nor.erases[b], nor.programs[b]) for b in blocks} == wear
    # Remounted (the board restarted): the same blocks, the match resumes.
    again = LfsFS(mount(nor), nor)
    s = Storage(again)
    got = s.load()
    assert got == (header, [0xF0001F, 0xE00001] + journal[:300], OK)
    assert s._open().blocks == blocks
    s.work_ahead()
    for a in journal[300:]:
        s.append(a)
        s.work_ahead()
    assert Storage(LfsFS(mount(nor), nor)).load()[1][2:] == journal
    # The map lost: the segments, the one erased ahead among them, found again.
    lost = LfsFS(mount(nor), nor)
    lost.remove("journal.map")
    s = Storage(lost)
    assert s.load()[1][2:] == journal
    assert s._open().blocks == blocks
