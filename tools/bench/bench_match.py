"""Figures for the match engine: `make bench` (after the rules core's).

- Peak live heap on real MicroPython while folding a complete 5-player Nokosu
  Dice match and a complete 4-player DTwww match: after every action the
  collector runs and gc.mem_alloc() is read; the peak is above the baseline
  taken before the match is made (the journal itself already loaded; the
  modules already imported).
- Undo at the end of each game's longest match (largest player count,
  heuristic bots, the longest of seeds 1-8): the bytes one undo allocates on
  real MicroPython, before (BEFORE: every reset made its buffers afresh) and
  now, and the Pico time of one refold (reset and apply of every action) by
  the unit of tools/bench/pico_cost.py.
- Random complete d-TT deals per CPU-second through the match engine on CPython.
"""

import contextlib
import io
import pathlib
import random
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
import pico_cost  # noqa: E402
from match_helpers import new_match, play_random  # noqa: E402

from sim.play import play  # noqa: E402

# Each action runs in its own part of the script ("#: next run", see
# mpy_wasm.mjs), so that the collection before the reading frees everything
# the previous actions left behind.
PEAK_SETUP = """
import gc
from dicetable.games.%s.match import new
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
    script = (
        PEAK_SETUP % (game, list(match.journal), players)
        + PEAK_STEP * len(match.journal)
        + PEAK_END
    )
    out = mpy_wasm.run(script)
    peak, end, actions = (int(x) for x in out.split())
    return peak, end, actions


BEFORE = "496a2e2"  # the last commit whose resets made every buffer afresh
LARGEST = (("dtwww", 4), ("walzer", 4), ("dicefull", 5), ("dtt", 3), ("nokosu", 5))
CHUNK = 40  # actions per part: the list literal is compiled on the heap

UNDO_END = """
#: next run
before = gc.mem_alloc()
m.undo()
print(gc.mem_alloc() - before)
"""
REFOLD = """
#: next run
def refold():
    m.reset()
    for a in m.journal:
        m.apply(a)


# One refold per batch: each leaves its scoring lists behind, and this
# build collects garbage only between the parts of a script.
print(pico_us(refold, 1))
"""


def longest_journal(game, players):
    return max(
        (
            list(play(game, players, 0, ["heuristic"] * players, seed).journal)
            for seed in range(1, 9)
        ),
        key=len,
    )


def folded(game, players, journal, engine="dicetable.games.%s.match"):
    """A script that makes the match `m` and folds `journal` into it (`engine`:
    where the game's engine module is, dicetable.match.<game> before issue 11)."""
    parts = ["import gc\nfrom %s import new\nm = new(%d, 0)" % (engine % game, players)]
    parts += [
        "for a in %r:\n    m.submit(a)" % (journal[i : i + CHUNK],)
        for i in range(0, len(journal), CHUNK)
    ]
    return mpy_wasm.parts(parts)


@contextlib.contextmanager
def firmware_at(rev):
    """MicroPython runs load the firmware as it was at commit `rev`."""
    data = subprocess.run(
        ["git", "archive", rev, "firmware", "sim/hw", "tests/cases"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        tarfile.open(fileobj=io.BytesIO(data)).extractall(tmp, filter="data")
        here = mpy_wasm.ROOT
        mpy_wasm.ROOT = pathlib.Path(tmp)
        try:
            yield
        finally:
            mpy_wasm.ROOT = here


def undo_figures(game, players):
    """(actions, bytes one undo allocates before, now, Pico us of one refold)."""
    journal = longest_journal(game, players)
    with firmware_at(BEFORE):
        before = int(mpy_wasm.run(folded(game, players, journal, "dicetable.match.%s") + UNDO_END))
    now, pico = mpy_wasm.run(
        folded(game, players, journal) + UNDO_END + mpy_wasm.PART + pico_cost.TIMER + REFOLD
    ).split()
    return len(journal), before, int(now), float(pico)


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
        print(
            "  %-7s %d players: peak live heap %6d B above baseline while folding %d actions"
            " (%d B held at the end)" % (game, players, peak, actions, end)
        )
    print(
        "  undo at the end of the longest match: bytes one undo allocates (before %s, now),"
        " Pico time of one refold" % BEFORE
    )
    for game, players in LARGEST:
        actions, before, now, pico = undo_figures(game, players)
        print(
            "  %-8s %d players, %3d actions: %5d B -> %4d B, refold %5.0f ms"
            % (game, players, actions, before, now, pico / 1000)
        )
    print(
        "  d-TT: %.0f random complete deals per CPU-second (CPython, random bots)"
        % dtt_deals_per_cpu_second()
    )


if __name__ == "__main__":
    main()
