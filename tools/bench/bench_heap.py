"""Heap figures for the table app on real MicroPython with the Pico's heap: `make bench`.

For each game, with the most players it takes up to five and a tag on every
item of every game (hands.full_registry()), a complete match is chosen in the
menu and played, the app driven as the hardware drives it (reader events,
button presses, ticks); the actions are drawn at random among those the app
offers, with an undo every UNDO_EVERY actions.  Printed per game:

- bytes allocated per accepted action: everything the app allocates from the
  tick before it to the frame pushed through the current limiter after it
  (every reader event or button press the action takes, the journal append,
  the match, the frame): median, the most an action took that ended no
  round and was no undo ("plain": 0 on the board's path, tests/test_app_heap.py),
  the maximum and the kind that took it;
- the board's live heap, gc.mem_alloc() after a collection: after boot and
  its peak during the match;
- the largest free block of the heap after boot and at the end, from the
  heap map micropython.mem_info(1) prints.

THE BOARD'S SHARE.  The run holds what the board holds (its modules, the
drivers, the table, the registry, the match) and what stands in for the
hardware: the virtual parts' modules, the virtual chips, buttons and flash
(whose NOR blocks and files sit in RAM here, on flash on the board) and this
script's own harness.  So the board's live heap is counted in two parts:

- its code: the firmware's modules, then the game's, imported as the board
  imports them (.mpy) in a run of their own with nothing else loaded
  (board_code()): the modules and the names they add to MicroPython's
  string pool (qstrs);
- its objects: in the match's run, gc.mem_alloc() less the string pool
  (micropython.qstr_info()'s bytes: the pool grows in blocks that double,
  and where a block is added depends on every name loaded, the virtual
  parts' too), less every module's code (each measured as it is imported,
  the pool left out), less the virtual parts and the harness, which are made
  first and measured and do not grow afterwards (the flash blocks the
  journal will use are made up front, and the harness calls the app
  directly, so the virtual chips stay as they are).

In board_code() the board's modules that import machine and rp2
(hal/board.py, ws2812.py, watchdog.py, maintenance.py) come in over
stand-ins, which are measured first and taken off; asyncio is frozen into
the rp2 firmware, so its code takes no heap there.

This WebAssembly build collects garbage only between the parts of a script
("#: next run", sim/mpy_wasm.mjs), so every action is played in a part of
its own, and what it allocated is gc.mem_alloc() after less before.
"""

import json
import re
import subprocess
import sys
import tempfile

import measured

import sim
from dicetable.app import games
from dicetable.games import GAMES
from sim import mpy_wasm
from sim.hw import hands

ROOT = sim.ROOT
# The table's set-up (its seats, config, LED chain) is compiled in the script
# as the rest of the harness is: imported as a module, it stays on the heap and
# moves the blocks left free at the match's end (DTwww's largest: 300-500 B less).
TABLE_SETUP = ROOT / "sim" / "hw" / "table_setup.py"

BLOCK = 16  # bytes per block of MicroPython's heap (on the Pico too)
LINE_BLOCKS = 64  # blocks per line of the heap map
SEGMENTS = 8  # the board's journal segments (hal/storage.py)

# The most players each game takes, up to the table's five seats.
PLAYERS = [min(5, games.players(g)[1]) for g in range(games.count())]
# Every so many steps an undo (a long - at the menu seat) instead of an action.
UNDO_EVERY = 41

SETUP = """
import gc
import micropython
#: next run
import pins
import table_config
from dicetable.app import (
    entry, events, frames, games, inputs, play, refusals, registry, render, rng, table)
from dicetable.match import actions, engine
from hal import (
    buttons, chipselect, console, journal, mainloop, mfrc522, mirror, pixels, readers, storage)
#: next run
print("code", gc.mem_alloc())
micropython.qstr_info()
#: next run
from dicetable.match.actions import KIND_NAMES, kind_of
from sim.hw import hands
from sim.hw.clock import Clock
from sim.hw.vbuttons import VButtons
from flashmodel.vflash import VFlash
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vspi import VSPI
#: next run
print("code", gc.mem_alloc())
micropython.qstr_info()
#: next run
# sim/hw/table_setup.py
clock = Clock()
bus = VSPI(clock, 4000000)
chips = [VMFRC522(clock) for _ in range(events.CENTRE + 1)]
vbuttons = VButtons(SEATS)
strip = Strip(frames.led_count(Config))
flash = VFlash()
storage.Storage(flash).save_registry(registry.pack(REGISTRY))
for b in range(SEGMENTS):
    flash.raw.block(b)          # the blocks the journal's segment files will take
draws = rng.Rng(SEED)
made = [0]
spent = [0]
t = None
pixels_ = None
mirror_ = None
shown = [-1]


def show():
    if t.frame_version != shown[0]:
        shown[0] = t.frame_version
        pixels_.show(t.frame)
        mirror_.leds()


class USB:
    # The USB console's stream: the board's write is C and keeps nothing.
    def write(self, buf, off=0, n=-1):
        return n


# A host that always reads: POLLOUT on this build's stdout, in C like the
# board's select.poll (hal/console.py asks it before each packet).
import select, sys
room = select.poll()
room.register(sys.stdout, select.POLLOUT)
usb = console.Console(USB(), room)


class Hands:
    # What the app allocates is counted around each call into it.
    def scan(self, reader, uid):
        before = gc.mem_alloc()
        t.reader_event(events.TAG_PLACED, reader, uid)
        show()
        t.reader_event(events.TAG_REMOVED, reader, None)
        show()
        spent[0] += gc.mem_alloc() - before

    def press(self, seat, code):
        before = gc.mem_alloc()
        t.button(seat, code)
        show()
        spent[0] += gc.mem_alloc() - before


surface = Hands()
now = [0]


def step():
    if t.mode != "play":
        return
    live = gc.mem_alloc()
    made[0] += 1
    undo = made[0] % UNDO_EVERY == 0
    acts = hands.player_actions(t)
    a = acts[draws.randrange(len(acts))]
    n = len(t.match.journal)
    rounds = len(t.match.history)
    acts = None
    spent[0] = 0
    now[0] += 10000
    before = gc.mem_alloc()
    t.tick(now[0])
    show()
    mirror_.tick(now[0])
    spent[0] += gc.mem_alloc() - before
    if undo:
        surface.press(t.lead, events.MINUS | events.LONG)
    else:
        hands.make(surface, t, a)
    assert len(t.match.journal) != n, "action not taken"
    # "scored": the action ended a round (its scores are kept) or the match
    scored = len(t.match.history) != rounds or t.mode != "play"
    print("step", spent[0], "undo" if undo else KIND_NAMES[kind_of(a)], int(scored), live)
    micropython.qstr_info()
#: next run
REGISTRY = None
#: next run
print("code", gc.mem_alloc())
micropython.qstr_info()
#: next run
rd = readers.Readers(bus, [bus.cs(c) for c in chips])
bt = buttons.Buttons(vbuttons.pins)
pixels_ = pixels.Pixels(strip, 2500)
st = storage.Storage(flash)
st.prepare()
t = table.Table(Config(), st, rng.Rng(1), usb.log)
mirror_ = mirror.Mirror(usb, strip.buf, t)
#: next run
before = gc.mem_alloc()
t.boot()
print("boot", gc.mem_alloc() - before)
#: next run
print("booted", gc.mem_alloc())
micropython.qstr_info()
micropython.mem_info(1)
print("end of map")
#: next run
print("code", gc.mem_alloc())
micropython.qstr_info()
#: next run
__import__("dicetable.games." + games.GAMES[GAME] + ".match")
#: next run
print("code", gc.mem_alloc())
micropython.qstr_info()
#: next run
def start(g, n):
    # The match chosen in the menu, whatever it kept of the last one.
    lead = t.lead
    while t.menu.game != g:
        surface.press(lead, events.PLUS)
    surface.press(lead, events.OK)
    for s in SEATS:
        if s != lead and (s in t.menu.joined) != (s < n):
            surface.press(s, events.OK)
    while t.mode == "menu":
        surface.press(lead, events.OK)

#: next run
before = gc.mem_alloc()
start(GAME, len(PLAYER_SEATS))
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


def table_setup():
    """sim/hw/table_setup.py's code without its docstring, which would make the
    part it goes in (the registry's literal's) outgrow the heap as it compiles."""
    return TABLE_SETUP.read_text().split('"""', 2)[2]


def script(game, players, seed, steps):
    """The MicroPython source playing one match of `steps` parts at most."""
    head = "SEED = %d\nUNDO_EVERY = %d\nGAME = %d\nPLAYER_SEATS = %r\nSEGMENTS = %d\n" % (
        seed,
        UNDO_EVERY,
        game,
        list(range(players)),
        SEGMENTS,
    )
    setup = SETUP.replace(
        "\nclock = Clock()", "\nREGISTRY = %r\nclock = Clock()" % (hands.full_registry(),)
    ).replace("# sim/hw/table_setup.py\n", table_setup())
    return head + setup + STEP * steps + END


BOARD_CODE = """
import gc
import micropython
import sys
#: next run
# machine and rp2 as the board's modules see them at import: stand-ins with
# as few names as will do (each name a stand-in adds to the string pool
# moves where its blocks land), measured first and taken off.
class _Stub:
    def __init__(self, *args, **kwargs):
        pass


class _Machine:
    Pin = SPI = I2C = WDT = Timer = _Stub
    mem32 = {}


class _PIO:
    OUT_LOW = SHIFT_LEFT = 0


class _RP2:
    PIO = _PIO
    StateMachine = DMA = _Stub

    def asm_pio(**settings):
        return _Stub


sys.modules["machine"] = _Machine
sys.modules["rp2"] = _RP2
import asyncio
import time
#: next run
print(gc.mem_alloc())
#: next run
import maintenance
from hal import board
# What Board() and run() import when they run (hal/board.py imports them
# there, after the first LED frame).
from dicetable.app import events, rng, table
from hal import buttons, chipselect, console, mainloop, mirror, readers, storage, watchdog
# The power-up's module and the menu are loaded at power-up (their names
# stay in the string pool) and forgotten after the boot and when the match
# begins (app/table.py).
table._module("resume")
table.forget_module("dicetable.app.resume")
table._module("menu")
table.forget_module("dicetable.app.menu")
#: next run
print(gc.mem_alloc())
#: next run
import dicetable.games.%s.match
#: next run
print(gc.mem_alloc())
"""


def board_code(game):
    """(the firmware's code, the game's code): heap bytes, imported with nothing else."""
    stand_ins, firmware, both = (int(x) for x in mpy_wasm.run(BOARD_CODE % GAMES[game]).split())
    return firmware - stand_ins, both - firmware


def frozen_saving(game):
    """What freezing the firmware would take off the heap, measured here.

    The firmware's modules, then the game's, are imported as in board_code()
    twice: from the filesystem as .mpy (the board today) and from a ROMFS
    image that this build imports in place (mpy_wasm.run(rom=True)), the
    bytecode and its constants left in the image as a frozen firmware leaves
    them in flash.  What an import in place still takes is what stays on the
    heap when frozen (module globals dicts, functions, classes, instances),
    but for the names it adds to the string pool (micropython.qstr_info()):
    a frozen module's names are in the firmware's own pool, in flash.

    Returns {"firmware"/"game": (from the filesystem, frozen, saved)} in bytes."""
    source = (BOARD_CODE % GAMES[game]).replace(
        "print(gc.mem_alloc())", "print(gc.mem_alloc())\nmicropython.qstr_info()"
    )

    def marks(rom):
        out = mpy_wasm.run(source, rom=rom).split("\n")
        return [
            (int(line), int(out[k + 1].rsplit("n_total_bytes=", 1)[1]))
            for k, line in enumerate(out)
            if line.strip().isdigit()
        ]

    fs, rom = marks(False), marks(True)
    figures = {}
    for name, a, b in (("firmware", 0, 1), ("game", 1, 2)):
        loaded = fs[b][0] - fs[a][0]
        frozen = (rom[b][0] - rom[a][0]) - (rom[b][1] - rom[a][1])
        figures[name] = (loaded, frozen, loaded - frozen)
    return figures


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


def measure(game, players, seed=1, steps=1500, heap_kb=None, why=None):
    """Play one match under MicroPython; its heap figures as a dict (in the
    Pico's heap, unless heap_kb says otherwise and `why`)."""
    firmware, game_code = board_code(game)
    source = script(game, players, seed, steps)
    out = mpy_wasm.run(source, heap_kb=heap_kb, why=why, timeout=1800).split("\n")
    # Each figure the script prints is followed by the string pool's line:
    # the figure without the pool.
    marks = []
    for k, line in enumerate(out):
        words = line.split()
        if words and words[0] in ("code", "booted", "step"):
            pool = int(out[k + 1].rsplit("n_total_bytes=", 1)[1])
            marks.append((words, int(words[-1]) - pool))
    code = [without for words, without in marks if words[0] == "code"]
    # The firmware, the virtual parts' code, their objects; then the game.
    sim = code[2] - code[0]
    game_here = code[4] - code[3]

    def board(without, with_game):
        # The board's code (its own run) and the objects here.
        return (
            firmware
            + (game_code if with_game else 0)
            + (without - code[0] - sim - (game_here if with_game else 0))
        )

    fields = {}
    spent = []
    live = []
    for words, without in marks:
        if words[0] == "step":
            spent.append((int(words[1]), words[2], words[3] == "1"))
            live.append(board(without, True))
        elif words[0] == "booted":
            fields["booted"] = board(without, False)
    for line in out:
        words = line.split()
        if words and words[0] in ("boot", "menu", "over"):
            fields[words[0]] = words[1:]
    assert fields["over"][0] == "over", "the match did not end in %d actions" % steps
    after_boot, at_end = (largest_free(m) for m in _heap_maps(out))
    by_size = sorted(spent)
    return {
        "actions": len(spent),
        "journal": int(fields["over"][1]),
        "boot": int(fields["boot"][0]),
        "booted": fields["booted"],
        "firmware_code": firmware,
        "game_code": game_code,
        "menu": int(fields["menu"][0]),
        "median": by_size[len(by_size) // 2][0],
        # the most an action took that ended no round and took nothing back
        "plain_max": max(n for n, kind, scored in spent if kind != "undo" and not scored),
        "max": by_size[-1][0],
        "max_kind": by_size[-1][1],
        "spent": spent,
        "live": live,
        "live_peak": max(live),
        "free_after_boot": after_boot,
        "free_at_end": at_end,
    }


def main():
    print(
        "table app heap on MicroPython (WebAssembly build) with the Pico's %d-byte heap;"
        " %d tags registered" % (mpy_wasm.PICO_GC_HEAP, len(hands.full_registry()))
    )
    print(
        "board's share: the run's heap less the virtual parts and the harness (see"
        " tools/bench/bench_heap.py); bytes"
    )
    print(
        "%-8s %7s %7s %8s %8s %8s %-9s %8s %8s %9s %9s %9s"
        % (
            "game",
            "players",
            "actions",
            "median",
            "plain",
            "max",
            "max kind",
            "code",
            "booted",
            "live peak",
            "free boot",
            "free end",
        )
    )
    for game, players in enumerate(PLAYERS):
        r = measure(game, players)
        print(
            "%-8s %7d %7d %8d %8d %8d %-9s %8d %8d %9d %9d %9d"
            % (
                games.title(game),
                players,
                r["actions"],
                r["median"],
                r["plain_max"],
                r["max"],
                r["max_kind"],
                r["firmware_code"],
                r["booted"],
                r["live_peak"],
                r["free_after_boot"],
                r["free_at_end"],
            )
        )
    print(
        "median/plain/max: allocated per accepted action (plain: ending no round, no undo);"
        " code: the firmware's modules before a game is chosen;"
    )
    print(
        "booted/live peak: the board's live heap after boot and at most during the match;"
        " free: the largest free block"
    )
    print()
    print(
        "Frozen firmware (firmware/manifest.py): heap the code takes, imported from the"
        " filesystem / frozen (imported in place from ROMFS, less the string pool); bytes"
    )
    print("%-20s %8s %8s %8s" % ("modules", "loaded", "frozen", "saved"))
    for game in range(len(PLAYERS)):
        figures = frozen_saving(game)
        if game == 0:
            print("%-20s %8d %8d %8d" % (("firmware, no game",) + figures["firmware"]))
        print("%-20s %8d %8d %8d" % ((games.title(game) + "'s modules",) + figures["game"]))


OLD_RUN = """
import json, sys
sys.path[:0] = ["tools/bench"]
import bench_heap
r = bench_heap.measure(4, 5)
f = bench_heap.frozen_saving(4)["firmware"]
out = {"live": r["live_peak"], "free": r["free_at_end"], "loaded": f[0], "frozen": f[1]}
print(json.dumps(out))
"""


def calibration():
    """The model of the firmware the board ran (measured.AT: its own
    bench_heap, a 5-player Nokosu match), beside the board's figures."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = measured.tree(tmp)
        (tree / "node_modules").symlink_to(ROOT / "node_modules")
        out = subprocess.run(
            [sys.executable, "-c", OLD_RUN], cwd=tree, capture_output=True, text=True, check=True
        ).stdout
    return json.loads(out.splitlines()[-1])


def print_calibration():
    model = calibration()
    board = measured.BOARD
    print("The model against the board, on the firmware measured there (%s), bytes" % measured.AT)
    print("%-58s %15s %9s" % ("", "board", "model"))
    live = "%d-%d" % (board["live_low"], board["live_high"])
    rows = (
        ("live heap over a 5-player Nokosu match, at most", live, model["live"]),
        ("largest free block at the match's end", board["largest_free"], model["free"]),
        (
            "the firmware's modules imported from .mpy files",
            board["import_loaded"],
            model["loaded"],
        ),
        ("... frozen", board["import_frozen"], model["frozen"]),
    )
    for what, b, m in rows:
        print("%-58s %15s %9d" % (what, b, m))
    print(
        "(the board's live heap is after collections, its match committed from a script; the"
        " model's is the board's share of the run, the virtual parts and harness taken off)"
    )
    print()


if __name__ == "__main__":
    if "--calibrate" in sys.argv:
        print_calibration()
    else:
        print_calibration()
        main()
