"""Figures for the match engine: `make bench` (after the rules core's).

- Peak live heap on real MicroPython while folding a complete 5-player Nokosu
  Dice match and a complete 4-player DTwww match: after every action the
  collector runs and gc.mem_alloc() is read; the peak is above the baseline
  taken before the match is made (the journal itself already loaded; the
  modules already imported).
- Random complete d-TT deals per CPU-second through the match engine on CPython.
"""

import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
from match_helpers import new_match, play_random  # noqa: E402
from sim.play import play  # noqa: E402

# Each action runs in its own part of the script ("#: next run", see
# mpy_wasm.mjs), so that the collection before the reading frees everything
# the previous actions left behind.
PEAK_SETUP = """
import gc
from dicetable.match.%s import new
journal = %r
#: next run
gc.collect()
base = gc.mem_alloc()
match = new(%d, 0)
peak = 0
k = 0
"""
PEAK_STEP = """
#: next run
gc.collect()
peak = max(peak, gc.mem_alloc() - base)
match.submit(journal[k])
k += 1
"""
PEAK_END = """
#: next run
gc.collect()
print(peak, gc.mem_alloc() - base, len(journal))
"""


def micropython_peak(game, players):
    match = play(game, players, 0, ["heuristic"] * players, 1)
    script = (PEAK_SETUP % (game, list(match.journal), players)
              + PEAK_STEP * len(match.journal) + PEAK_END)
    out = mpy_wasm.run(script)
    peak, end, actions = (int(x) for x in out.split())
    return peak, end, actions


def dtt_deals_per_cpu_second(seconds=3.0):
    rng = random.Random(7)
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = play_random(new_match("dtt", 3), rng)
        deals += len(match.history)
    return deals / (time.process_time() - start)


def main():
    print("match engine figures")
    for game, players in (("nokosu", 5), ("dtwww", 4)):
        peak, end, actions = micropython_peak(game, players)
        print("  %-7s %d players: peak live heap %6d B above baseline while folding %d actions"
              " (%d B held at the end)" % (game, players, peak, actions, end))
    print("  d-TT: %.0f random complete deals per CPU-second (CPython, random bots)"
          % dtt_deals_per_cpu_second())


if __name__ == "__main__":
    main()
