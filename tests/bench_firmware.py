"""Figures for the firmware on real MicroPython (the WebAssembly build): `make bench`.

- Heap in use after the firmware has booted, on the virtual table, with a
  5-player Nokosu Dice match in progress (the second round, mid-trick):
  gc.mem_alloc() after a collection, in all and above what was in use
  before boot (the modules already imported, the journal already on flash).
  The virtual flash keeps its files in RAM, where the board keeps them on
  flash: their size is taken off.
- Time for the app to turn one accepted play into the next LED frame: from
  the reader's TAG_PLACED event to the frame written to the strip through
  the current limiter, averaged over the next plays of that match.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
from dicetable.match.actions import PLAY, kind_of  # noqa: E402
from sim.play import play  # noqa: E402

PLAYS = 40

# Parts of the script ("#: next run", see mpy_wasm.mjs) end before each
# reading, so that the collection frees what the steps before left behind.
SCRIPT = """
import gc
import time
#: next run
gc.collect()
at_start = gc.mem_alloc()
from dicetable.app import games
from dicetable.app.events import TAG_PLACED, TAG_REMOVED
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.match import nokosu
from dicetable.match.actions import seat_of, value_of
from hal.storage import Storage
from sim.hw import hands
from sim.hw.rig import VirtualTable
from sim.hw.vflash import VFlash
#: next run
gc.collect()
code = gc.mem_alloc() - at_start
NOKOSU = 4
flash = VFlash()
storage = Storage(flash)
storage.save_registry(hands.full_registry())
storage.new_match(bytes([NOKOSU, 5, 0, 0]))
storage.append(SEATS_RECORD | 0x1F)
storage.append(SEED_RECORD | 1)
for a in JOURNAL:
    storage.append(a)
JOURNAL = None
#: next run
gc.collect()
before_parts = gc.mem_alloc()
vt = VirtualTable(seats=(0, 1, 2, 3, 4), flash=flash)
#: next run
gc.collect()
before_boot = gc.mem_alloc()
vt.boot()
#: next run
gc.collect()
after_boot = gc.mem_alloc()
print("boot", code, before_boot - before_parts, after_boot - before_boot,
      len(vt.table.match.journal), vt.table.mode)
t = vt.table
total = 0
for i in range(PLAYS):
    t.tick(vt.now + 10000)
    a = hands.player_actions(t)[0]
    seat = t.phys[seat_of(a)]
    uid = hands.uid_for(NOKOSU, games.identity(NOKOSU, value_of(a)))
    n = len(t.match.journal)
    start = time.ticks_us()
    t.reader_event(TAG_PLACED, seat, uid)
    vt.pixels.show(t.frame)
    total += time.ticks_diff(time.ticks_us(), start)
    assert len(t.match.journal) == n + 1
    t.reader_event(TAG_REMOVED, seat, None)
    vt.now += 10000
print("play", total // PLAYS)
"""


def journal_in_second_round():
    match = play("nokosu", 5, 0, ["heuristic"] * 5, 1)
    plays = 0
    for i, a in enumerate(match.journal):
        if kind_of(a) == PLAY:
            plays += 1
            if plays == 11 * 5 + 7:      # round 1's 11 tricks, then into round 2
                return match.journal[:i + 1]
    raise AssertionError("the match ended early")


def main():
    journal = journal_in_second_round()
    source = "JOURNAL = %r\nPLAYS = %d\n" % (journal, PLAYS) + SCRIPT
    out = mpy_wasm.run(source, heap_kb=2048).split("\n")
    _, code, parts, booted, actions, mode = out[0].split()
    play_us = int(out[1].split()[1])
    print("firmware figures (MicroPython WebAssembly build, virtual table of 5 seats)")
    print("  heap after boot with a 5-player Nokosu match in progress (%s actions, %s):"
          % (actions, mode))
    print("    %7s B  the modules, compiled from source at import" % code)
    print("    %7s B  the virtual hardware (the board has drivers instead)" % parts)
    print("    %7s B  the booted table: registry, match folded from the journal, frame" % booted)
    print("  one accepted play to the next LED frame: %d us (mean of %d plays; the port's"
          " clock ticks in ms)" % (play_us, PLAYS))


if __name__ == "__main__":
    main()
