"""The table app's heap under real MicroPython with the Pico's heap.

A player's action must not cost the board more than a few KB of heap (the
collector runs in the middle of play otherwise, and a fragmented heap fails a
later allocation), the whole booted table must leave room, and the registry
must load in one pass however many tags the maker provisions.  Heap figures
are deterministic, so they are asserted (times are only printed by the
benches).  tools/bench/bench_heap.py plays the matches and prints the figures.
"""

import bench_heap
import mpy_wasm
import pytest

from dicetable.app import games
from dicetable.app.registry import RECORD, pack
from sim.hw import hands

PER_ACTION = 4096  # bytes an accepted action may allocate
LIVE_SHARE = mpy_wasm.PICO_GC_HEAP // 2  # the live heap stays under half the Pico's


@pytest.mark.slow
@pytest.mark.parametrize(
    "game", range(games.count()), ids=[games.title(g) for g in range(games.count())]
)
def test_a_match_allocates_little_per_action_and_stays_small(game):
    r = bench_heap.measure(game, bench_heap.PLAYERS[game])
    worst = max(r["spent"])
    assert worst[0] <= PER_ACTION, "%s took %d bytes" % (worst[1], worst[0])
    assert r["live_peak"] < LIVE_SHARE


# The registry holds at most one tag per item of each game: the full set.
REGISTRY_LOAD = """
from dicetable.app.registry import Registry
registry = Registry()
#: next run
records = bytearray(RECORDS[:HALF])
before = gc.mem_alloc()
registry.adopt(records)
half = gc.mem_alloc() - before
#: next run
registry = Registry()
records = bytearray(RECORDS)
#: next run
before = gc.mem_alloc()
bad = registry.adopt(records)
print(half, gc.mem_alloc() - before, bad, len(registry))
"""


def test_the_fullest_registry_loads_in_one_pass_in_place():
    entries = hands.full_registry()
    records = bytes(pack(entries))
    half = len(entries) // 2 * RECORD
    out = mpy_wasm.run("import gc\nRECORDS = %r\nHALF = %d\n" % (records, half) + REGISTRY_LOAD)
    at_half, full, bad, tags = (int(x) for x in out.split())
    assert (bad, tags) == (0, len(entries))
    # the records are the registry: nothing is built per tag
    assert full == at_half == 0
