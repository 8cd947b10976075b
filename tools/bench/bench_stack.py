"""The Pico's C stack: the deepest chains of calls the firmware makes (`make bench`).

    python tools/bench/bench_stack.py               everything below
    python tools/bench/bench_stack.py --games       each game's own chains only
    python tools/bench/bench_stack.py --calibrate   the model against the board

Each figure is sim/cstack.py's model (the cost rule of sim/pico.py, measured
on the Pico's MicroPython firmware) over a run of the firmware under CPython.

- The calibration: the model run on the firmware the board was measured with
  (commit 74a722b, taken with git archive, the model's files laid over it:
  tools/bench/stack_points.py), each figure beside the board's measured one.
- The table's deepest chains: the board's boot.py and main.py on virtual
  parts (sim/hw/vpico.py) through every scene of sim/hw/scenes.py (every
  game from the menu to its end at its fewest and most players, the resume
  of the longest journal, maintenance mode), one process a scene: the five
  deepest frame by frame, then each scene's deepest.
- Each game's deepest chains below the table app's calls into it (its
  engine and table views, the rules core under them): every game at its
  fewest and most players, played to the end through the table app alone
  (no hardware) by random players, refusals and undos included.
"""

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import measured

import sim
from dicetable.app.registry import pack
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from dicetable.games import GAMES
from flashmodel.vflash import VFlash
from hal.storage import Storage
from sim import cstack, pico
from sim.cstack import StackMeter
from sim.hw import hands, scenes
from sim.hw.rig import Config
from sim.play import player_range

ROOT = sim.ROOT

FIRMWARE = ROOT / "firmware"
GAME_CODE = ("dicetable/games/", "dicetable/match/", "dicetable/rules/")

# The firmware the Pico's C stack was measured with, and what was measured
# there (MicroPython v1.28.0, board RPI_PICO, micropython.stack_use() and the
# lowest stack pointer on an instruction-level RP2040 emulator): each point's
# name in stack_points.py, its bytes, what it is.
MEASURED_AT = measured.AT
MEASURED = (
    ("idle", 4324, "empty table: power-up, 3 s at the menu (an SPI transfer)"),
    ("resume", 5736, "power-up resuming 759 Nokosu actions, 201 tags"),
    ("play", 8276, "first play of a resumed Nokosu match (board: crashed)"),
    ("app_entry", 4724, "Table.reader_event as the driver called it (+1 frame)"),
    ("flat_readers_pass", 2404, "app called by the readers pass: at the pass (+1 frame)"),
    ("flat_app_entry", 2676, "... at Table.reader_event (+1 frame)"),
    ("flat_play", 6312, "... the deepest moment of a play"),
)
# The chain of the first play that crashed the board, as its firmware printed
# it (MicroPython's traceback; asyncio's frames and Board.main's await left
# out: they are not on the C stack of the main loop's task): file, function.
CRASH_CHAIN = (
    ("main.py", "<module>"),
    ("hal/board.py", "run"),
    ("hal/watchdog.py", "run"),
    ("hal/mainloop.py", "MainLoop.run"),
    ("hal/mainloop.py", "MainLoop.due"),
    ("hal/mainloop.py", "MainLoop.readers_pass"),
    ("hal/readers.py", "Readers.service"),
    ("hal/readers.py", "Readers._finish_all"),
    ("hal/readers.py", "Readers._finish"),
    ("hal/readers.py", "Readers._agreed"),
    ("hal/readers.py", "Readers._change"),
    ("hal/readers.py", "Readers._placed"),
    ("hal/mainloop.py", "MainLoop._reader_event"),
    ("dicetable/app/table.py", "Table.reader_event"),
    ("dicetable/app/play.py", "scan"),
    ("dicetable/app/play.py", "commit"),
    ("dicetable/app/play.py", "settle"),
    ("dicetable/app/inputs.py", "Inputs.__init__"),
    ("dicetable/app/inputs.py", "Inputs.__init__.<locals>.<listcomp>"),
    ("dicetable/games/nokosu/match.py", "NokosuMatch.legal_actions"),
    ("dicetable/games/nokosu/match.py", "NokosuMatch._legal"),
    ("dicetable/games/nokosu/match.py", "NokosuMatch._legal_items"),
    ("dicetable/games/nokosu/rules.py", "legal_plays"),
    ("dicetable/games/nokosu/rules.py", "_legal_plays"),
    ("dicetable/games/nokosu/rules.py", "_copy_playable"),
    ("dicetable/games/nokosu/rules.py", "_kept_item"),
    ("dicetable/games/nokosu/rules.py", "kept_die"),
    ("dicetable/games/nokosu/rules.py", "is_black"),
)
# stack_use() read in a plain function called from the point: 224 B more
# than at the point itself (main.py's top level read 460, a plain function
# called from there 684).
READ_FRAME = 224
READ_A_FRAME_DEEPER = ("app_entry", "flat_readers_pass", "flat_app_entry")
# The model's files, laid over the measured tree.
MODEL = ("sim/pico.py", "sim/mpy_code.py", "sim/cstack.py", "sim/hw/vpico.py", "sim/hw/scenes.py")


def app_table():
    """The table app of five seats, no hardware, a tag on every item."""
    storage = Storage(VFlash(), segments=4)
    storage.prepare()
    storage.save_registry(pack(hands.full_registry()))
    t = Table(Config([0, 1, 2, 3, 4], 8, 16), storage, Rng(1), lambda line: None)
    t.boot()
    return t


def game_chains(keep=3, seed=1, keys=None, also=()):
    """{(game key, players): StackMeter} of each game of `keys` (default: every
    game registered) at its fewest and most players, measured below the app's
    calls into the game; `also`: code outside firmware/ costed as the board's
    (StackMeter's, for a game registered from elsewhere)."""
    out = {}
    for key in GAMES if keys is None else keys:
        g = GAMES.index(key)
        low, high = player_range(key)
        for n in sorted({low, min(high, 5)}):
            surface = scenes.AppHands(app_table())
            meter = StackMeter(FIRMWARE, base=0, keep=keep, top=GAME_CODE, also=also)
            with meter:
                scenes.choose(surface, g, n)
                scenes.to_the_end(surface, seed=seed)
            out[(key, n)] = meter
    return out


def print_games(keep=1):
    print("Each game's deepest chains below the table app's call into it (B of C stack)")
    for (key, n), meter in game_chains(keep=max(keep, 3)).items():
        print()
        print("%s, %d players: %d B" % (key, n, meter.deepest))
        for c in meter.chains[:keep]:
            print("\n".join(c.lines()[1:]))


def measured_tree(folder):
    """The firmware the board was measured with, in `folder`, the model's
    files laid over it."""
    measured.tree(folder)
    for f in MODEL:
        shutil.copy(ROOT / f, pathlib.Path(folder) / f)
    # The model's vpico imports VFlash from flashmodel/, which the tree predates:
    # the tree's own (sim/hw/vflash.py) is given that name.
    models = pathlib.Path(folder) / "flashmodel"
    models.mkdir()
    shutil.copy(pathlib.Path(folder) / "sim" / "hw" / "vflash.py", models / "vflash.py")
    return pathlib.Path(folder)


def recursion_levels(kind, n_state, n_exc=0):
    """How deep a function calling itself goes from the raw REPL on the
    model: levels entered while the caller's bytes are under the limit."""
    frame = pico.frame_bytes(kind, n_state, n_exc)
    levels = 0
    while pico.BASE_REPL + levels * frame < pico.C_STACK_LIMIT:
        levels += 1
    return levels, frame


def calibration():
    """{point: (model's bytes, measured bytes, what)}, and the model's chains
    ({point + "_chain": [[file, function, kind, bytes], ...]})."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = measured_tree(tmp)
        out = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "bench" / "stack_points.py"), str(tree)],
            capture_output=True,
            text=True,
            check=True,
            cwd=str(tree),
        ).stdout
    model = json.loads(out.splitlines()[-1])
    points = {}
    for name, board, what in MEASURED:
        figure = model[name] + (READ_FRAME if name in READ_A_FRAME_DEEPER else 0)
        points[name] = (figure, board, what)
    return points, model


def print_calibration():
    points, model = calibration()
    print("The model against the board, on the firmware measured there (%s)" % MEASURED_AT)
    print("%-58s %7s %7s %6s" % ("", "board", "model", "off"))
    for name, _, _ in MEASURED:
        figure, board, what = points[name]
        print("%-58s %7d %7d %+5.1f%%" % (what, board, figure, 100 * (figure - board) / board))
    print(
        "(the first row fits the model's one free figure, a C function's own stack below"
        " its caller: %d B; every other row is the measured rule alone)" % cstack.C_LEAF
    )
    print()
    print(
        "A one-argument recursion from the raw REPL: the board reached %d levels"
        % measured.BOARD["recursion_depth"]
    )
    for what, kind, n_state, n_exc in (
        ("def f(n): return f(n + 1)", pico.PLAIN, 4, 0),
        ("the same with a try around the call", pico.PLAIN, 7, 1),
        ("a method, self.f(n + 1), 10 value slots", pico.METHOD, 10, 0),
    ):
        levels, frame = recursion_levels(kind, n_state, n_exc)
        print("  model: %-42s %3d B a level, %2d levels" % (what, frame, levels))
    print("  (the board's recursion was not recorded: 27 levels are ~277 B a level)")
    print()
    print("The crash's chain in the model (the board raised at the call of its last frame):")
    total = 0
    for file, function, kind, size in model["play_chain"]:
        total += size
        print("  %5d  +%3d  %-24s %s %s" % (total, size, kind, file, function))


def _scene(name):
    meter, _ = scenes.scene(name)
    return name, meter.deepest, meter.chains


def print_table():
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor() as pool:
        runs = list(pool.map(_scene, scenes.SCENES))
    chains = []
    for name, _, found in runs:
        for c in found:
            c.label = name
            chains.append(c)
    chains.sort(key=lambda c: -c.bytes)
    seen = set()
    print(
        "The table's five deepest chains (budget %d B, limit %d B)"
        % (pico.STACK_BUDGET, pico.C_STACK_LIMIT)
    )
    shown = 0
    for c in chains:
        if c.key() in seen or shown == 5:
            continue
        seen.add(c.key())
        shown += 1
        print("\n".join(c.lines()))
    print()
    print("Each scene's deepest: " + ", ".join("%s %d B" % (n, d) for n, d, _ in runs))


def main(argv):
    if "--games" in argv:
        print_games(3)
        return
    if "--calibrate" in argv:
        print_calibration()
        return
    print_calibration()
    print()
    print_table()
    print()
    print_games()


if __name__ == "__main__":
    main(sys.argv[1:])
