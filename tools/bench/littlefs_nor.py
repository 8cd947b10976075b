"""Real LittleFS (the littlefs-python package, the C library) over the NOR
flash model, with the board's geometry as MicroPython's rp2 port mounts it
(352 blocks of 4096 bytes, read 32, prog 256, cache 1024, lookahead 32
bytes, block_cycles 100: _boot.py and extmod/vfs_lfsx.c).

bench_flash.py times the old journal design on it; tests/test_flash_littlefs.py
checks the journal's segment files beside it.
"""

import littlefs

from flashmodel.norflash import BLOCK

PICO_BLOCKS = 352


class NorContext(littlefs.UserContext):
    """littlefs-python's block device: the NOR model."""

    def __init__(self, nor):
        self.nor = nor
        self.buffer = bytearray()

    def read(self, cfg, block, off, size):
        buf = bytearray(size)
        self.nor.readblocks(block, buf, off)
        return buf

    def prog(self, cfg, block, off, data):
        self.nor.program(block, data, off)
        return 0

    def erase(self, cfg, block):
        self.nor.erase(block)
        return 0

    def sync(self, cfg):
        return 0


def mount(nor):
    """LittleFS on `nor` as the rp2 port mounts it (formatted if it will not mount)."""
    return littlefs.LittleFS(
        NorContext(nor),
        block_size=BLOCK,
        block_count=PICO_BLOCKS,
        read_size=32,
        prog_size=256,
        cache_size=1024,
        lookahead_size=32,
        block_cycles=100,
    )
