"""Heap figures for the table app on real MicroPython with the Pico's heap: `make bench`.

For each game, with the most players it takes up to five and a tag on every
item of every game (hands.full_registry()), a complete match is chosen in the
menu and played on the virtual table, the app driven as the hardware drives
it (reader events, button presses, ticks); the actions are drawn at random
among those the app offers.  Printed per game:

- bytes allocated per accepted action: everything the app allocates from the
  tick before it to the frame pushed through the current limiter after it
  (reader event or button presses, journal append, match, table draws,
  frame): median, maximum and the kind of action that took the maximum;
- the live heap: gc.mem_alloc() after the collection before every action,
  less the journal and registry files the virtual flash holds in RAM (the
  board keeps them on flash): its peak, and where it stands after boot;
- the largest free block of the heap after boot and at the end, from the
  heap map micropython.mem_info(1) prints.

This WebAssembly build collects garbage only between the parts of a script
("#: next run", tests/mpy_wasm.mjs), so every action is played in a part of
its own: gc.mem_alloc() after it less before it is exactly what it allocated.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
from dicetable.app import games  # noqa: E402
from sim.hw import hands  # noqa: E402

BLOCK = 16          # bytes per block of MicroPython's heap (on the Pico too)
LINE_BLOCKS = 64    # blocks per line of the heap map

# The most players each game takes, up to the table's five seats.
PLAYERS = [min(5, most) for _, most in games.PLAYERS]
# Every so many steps an undo (a long - at the menu seat) instead of an action.
UNDO_EVERY = 41

SETUP = """
import gc
import micropython
from dicetable.match.actions import KIND_NAMES, kind_of
from hal.storage import Storage
from sim.hw import hands
from sim.hw.rig import VirtualTable
from sim.hw.vflash import VFlash
from dicetable.app.events import LONG, MINUS, TAG_PLACED, TAG_REMOVED
from dicetable.app.rng import Rng
#: next run
flash = VFlash()
Storage(flash).save_registry(REGISTRY)
REGISTRY = None
#: next run
vt = VirtualTable(seats=(0, 1, 2, 3, 4), flash=flash)
t = vt.table
shown = [-1]
draws = Rng(SEED)
made = [0]


def on_flash():
    n = 0
    for path in flash.files:
        n += len(flash.files[path])
    return n


def show():
    if t.frame_version != shown[0]:
        shown[0] = t.frame_version
        vt.pixels.show(t.frame)


class Hands:
    def scan(self, reader, uid):
        t.reader_event(TAG_PLACED, reader, uid)
        show()
        t.reader_event(TAG_REMOVED, reader, None)
        show()

    def press(self, seat, code):
        t.button(seat, code)
        show()


surface = Hands()


def step():
    if t.mode != "play":
        return
    # what the virtual parts record (the log, every frame) is not the board's
    vt.lines = []
    vt.strip.frames = []
    live = gc.mem_alloc() - on_flash()
    made[0] += 1
    undo = made[0] % UNDO_EVERY == 0
    acts = hands.player_actions(t)
    a = acts[draws.randrange(len(acts))]
    n = len(t.match.journal)
    acts = None
    before = gc.mem_alloc()
    vt.now += 10000
    t.tick(vt.now)
    show()
    if undo:
        surface.press(t.lead, MINUS | LONG)
    else:
        hands.make(surface, t, a)
    spent = gc.mem_alloc() - before
    assert len(t.match.journal) != n, "action not taken"
    print("step", spent, "undo" if undo else KIND_NAMES[kind_of(a)], live)
#: next run
before = gc.mem_alloc()
vt.boot()
print("boot", gc.mem_alloc() - before)
#: next run
print("booted", gc.mem_alloc() - on_flash())
micropython.mem_info(1)
print("end of map")
#: next run
before = gc.mem_alloc()
hands.choose_in_menu(surface, t, GAME, PLAYER_SEATS)
print("menu", gc.mem_alloc() - before, t.mode)
"""
STEP = """
#: next run
step()
"""
END = """
#: next run
print("over", t.mode, len(t.match.journal))
micropython.mem_info(1)
print("end of map")
"""


def script(game, players, seed, steps):
    """The MicroPython source playing one match of `steps` parts at most."""
    head = "REGISTRY = %r\nSEED = %d\nUNDO_EVERY = %d\nGAME = %d\nPLAYER_SEATS = %r\n" % (
        hands.full_registry(), seed, UNDO_EVERY, game, list(range(players)))
    return head + SETUP + STEP * steps + END


def largest_free(lines):
    """The longest run of free blocks in a heap map (micropython.mem_info(1)), in bytes.

    Each map line is an address, then one character per block ('.' free);
    '(N lines all free)' stands for N lines of free blocks."""
    best = run = 0
    for line in lines:
        all_free = re.match(r"\s*\((\d+) lines all free\)", line)
        if all_free:
            run += int(all_free.group(1)) * LINE_BLOCKS
            best = max(best, run)
            continue
        blocks = re.match(r"[0-9a-f]{8}: (\S+)", line)
        if blocks is None:
            continue
        for c in blocks.group(1):
            run = run + 1 if c == "." else 0
            best = max(best, run)
    return best * BLOCK


def _heap_maps(out):
    maps = []
    current = None
    for line in out:
        if line.startswith("GC memory layout"):
            current = []
        elif line == "end of map":
            maps.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return maps


def measure(game, players, seed=1, steps=1500):
    """Play one match under MicroPython; its heap figures as a dict."""
    out = mpy_wasm.run(script(game, players, seed, steps), timeout=1800).split("\n")
    fields = {}
    spent = []
    live = []
    for line in out:
        words = line.split()
        if not words:
            continue
        if words[0] == "step":
            spent.append((int(words[1]), words[2]))
            live.append(int(words[3]))
        elif words[0] in ("boot", "booted", "menu", "over"):
            fields[words[0]] = words[1:]
    assert fields["over"][0] == "over", "the match did not end in %d actions" % steps
    after_boot, at_end = (largest_free(m) for m in _heap_maps(out))
    by_size = sorted(spent)
    return {
        "actions": len(spent),
        "journal": int(fields["over"][1]),
        "boot": int(fields["boot"][0]),
        "booted": int(fields["booted"][0]),
        "menu": int(fields["menu"][0]),
        "median": by_size[len(by_size) // 2][0],
        "max": by_size[-1][0],
        "max_kind": by_size[-1][1],
        "spent": spent,
        "live": live,
        "live_peak": max(live),
        "free_after_boot": after_boot,
        "free_at_end": at_end,
    }


def main():
    print("table app heap (MicroPython WebAssembly build, the Pico's heap; virtual table"
          " of 5 seats, %d tags registered)" % len(hands.full_registry()))
    print("%-8s %7s %7s %9s %9s %-10s %9s %9s %9s" % (
        "game", "players", "actions", "median B", "max B", "max kind", "live peak",
        "free boot", "free end"))
    for game, players in enumerate(PLAYERS):
        r = measure(game, players)
        print("%-8s %7d %7d %9d %9d %-10s %9d %9d %9d" % (
            games.TITLES[game], players, r["actions"], r["median"], r["max"], r["max_kind"],
            r["live_peak"], r["free_after_boot"], r["free_at_end"]))


if __name__ == "__main__":
    main()
