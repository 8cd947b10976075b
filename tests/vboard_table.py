"""The table app playing itself on the virtual board (sim/vboard), for the
tests of the mirror: the board's firmware (compiled as `host_tools flash`
compiles it) and the virtual parts with sim/vboard/table_app.py on its
flash, started through its REPL as a maker would start a program, then
left to play while a mirror reads its console.

    install(folder)                       the files on the board's flash
    start(vb, seed, game, seats, pause_ms, moves)
                                          the table app built and booted in
                                          steps (each one call into the
                                          board, so that its garbage is
                                          collected between, as on a Pico),
                                          the match chosen, then played in
                                          the background; returns at once
    expected(seed, game, seats, moves)    the same table app in CPython:
                                          (its VConsole, log lines, app)
"""

import pathlib
import shutil

from dicetable.app.registry import pack
from hal.console import Console
from host_tools.board import Board
from sim import mpy_wasm
from sim.hw import hands
from sim.hw.vconsole import VConsole
from sim.vboard.table_app import TableApp

ROOT = pathlib.Path(__file__).resolve().parents[1]
APP = "sim/vboard/table_app.py"


def install(folder):
    """The firmware at the flash's root and the virtual parts under /sim."""
    folder = pathlib.Path(folder)
    files = [(dest, src) for dest, src in mpy_wasm.board_files() if not dest.startswith("/tests/")]
    files.append(("/sim/vboard/table_app.mpy", str(mpy_wasm._compiled(ROOT / APP, APP))))
    for dest, src in files:
        if dest.startswith("/firmware/"):
            dest = dest[len("/firmware") :]
        path = folder / dest.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, path)
    (folder / "sim" / "vboard" / "__init__.py").write_text("")


def records():
    return bytes(pack(hands.full_registry()))


def choose_steps(game, seats):
    """app.choose(game, seats) (hands.choose_in_menu) a press a step: the
    virtual board collects garbage only between calls into it, where the
    board's main loop collects after every input."""
    steps = ["from dicetable.app.events import MINUS, OK, PLUS\nlead = app.table.lead"]
    steps += ["app.press(lead, PLUS)"] * game + ["app.press(lead, OK)"]
    steps += ["if %d != lead: app.press(%d, OK)" % (s, s) for s in seats]
    steps.append("if lead not in %r: app.press(lead, MINUS)" % (tuple(seats),))
    return steps + ["if app.table.mode == 'menu': app.press(lead, OK)"] * 8


def start(vb, seed, game, seats, pause_ms, moves=-1):
    steps = (
        "import sys, vboard\nfrom hal.console import Console",
        "from sim.vboard.table_app import TableApp",
        "console = Console(sys.stdout.buffer)\napp = TableApp(console, console.log, %d)" % seed,
        "app.provision(%r)" % records(),
        "app.power_up()",
        *choose_steps(game, seats),
        "vboard.run(app.play(%d, %d), lambda: None)" % (pause_ms, moves),
    )
    with Board(vb.url) as board:
        for step in steps:
            board.exec(step)


def expected(seed, game, seats, moves=-1):
    """What the same table app does in CPython: (its VConsole, log lines, app)."""
    vc = VConsole()
    console = Console(vc)
    log = []

    def say(line):
        log.append(line.text())
        console.log(line)

    app = TableApp(console, say, seed)
    vc.clock = app.clock
    app.provision(records())
    app.power_up()
    app.choose(game, list(seats))
    while app.table.mode == "play" and moves != 0:
        app.move()
        moves -= 1
    return vc, log, app
