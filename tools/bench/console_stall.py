"""A USB host that holds the board's port open and stops reading, on the
model: how long the readers go without a look.  tools/bench/bench_mirror.py
prints it for the firmware the board was measured with and for today's.

    python console_stall.py TREE    one JSON object, for the firmware in TREE

THE TABLE is what the board held when it was measured (tools/bench/measured.py):
201 tags and a resumed 759-action 5-player Nokosu match, waiting for a seat
(the board could not play it: its first play overflowed the C stack).  It
runs on TREE's own virtual table (sim/vboard/table_app.py: its main loop,
mirror and readers on virtual parts, in virtual time), the journal played
by TREE's own bots.

THE PORT is today's model of the rp2's CDC transmit path (sim/hw/vconsole.py,
loaded from its file: 74a722b's knew nothing of USB).  74a722b wrote its log
with print() (a write of the line, one of its end) and the mirror's lines
with sys.stdout.buffer.write, straight into it, so a write that finds no
room waits up to 500 ms, the virtual clock running; today's firmware writes
through hal/console.py, which asks the poll first.

WHAT IS MEASURED.  The host reads until SETTLE_MS, then stops a phase after
a keyframe: 74a722b's keyframe (@leds and a 759-action @match, ~57 writes)
is what fills the FIFO, so the phase decides when the waits begin.  Over
the WINDOW_MS after the stop, the longest time one reader goes without a
look (a REQA or WUPA sent: its driver's request(), in either tree), the
window's ends counted as looks, as the board's "no reader was polled for
the 18.9 s left of a 20 s window" counts them.  The same table with the
port closed, where nothing waits, is the baseline.  Passes are not charged
CPU here (tools/bench/bench_loop.py does that), so a gap is a period at
the least.
"""

import importlib.util
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ACTIONS = 759  # the board's journal
SEED = 1
SETTLE_MS = 10_000  # the resume's @match and a keyframe out, the host reading
WINDOW_MS = 20_000  # the board's window
# The host stops this long after a keyframe: every second of the 5 s cycle,
# and its last frames pass (the keyframe next: the longest gap).
PHASES_MS = (0, 1000, 2000, 3000, 4000, 4980)
# Bounds on a run, so that nothing can hang the bench: virtual time (the
# settling, a phase, the window, and a pass held in writes past its end:
# 74a722b's keyframe waits 27 s) and passes (a match runs ~350 a second).
LIMIT_MS = SETTLE_MS + 5_000 + WINDOW_MS + 60_000
MAX_PASSES = LIMIT_MS  # a pass a millisecond: about three times a match's


def vconsole():
    """Today's sim/hw/vconsole.py, by its file: the tree on sys.path may be
    one whose own knew nothing of USB."""
    spec = importlib.util.spec_from_file_location("vconsole_today", ROOT / "sim/hw/vconsole.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wired(vc):
    """(what TableApp writes with, the table's log) as the firmware on
    sys.path wires the USB console."""
    try:
        from hal.console import Console
    except ImportError:  # 74a722b: print() and stdout's write, straight in

        def log(line):
            vc.write(line.encode())
            vc.write(b"\n")

        return vc.write, log
    console = Console(vc)
    return console, console.log


class Bound:
    """Called before every pass (VirtualLoop's hook: the virtual buttons'
    advance in either tree's TableApp): a run that spins, or whose virtual
    time runs away, stops here rather than hang the bench."""

    def __init__(self, clock, advance):
        self.clock = clock
        self.advance = advance
        self.passes = 0

    def __call__(self, now_ms):
        self.passes += 1
        if self.passes > MAX_PASSES or self.clock.now_us > LIMIT_MS * 1000:
            raise RuntimeError("a run past its bound: %d passes" % self.passes)
        self.advance(now_ms)


class Looks:
    """When each reader was looked at, on the virtual clock: a look begins
    with the REQA or WUPA its driver sends (MFRC522.request())."""

    def __init__(self, readers, clock):
        self.clock = clock
        self.times = [self._watch(chip) for chip in readers.chips if chip is not None]

    def _watch(self, chip):
        times = []
        request = chip.request

        def watched(wake):
            times.append(self.clock.now_us)
            return request(wake)

        chip.request = watched
        return times

    def longest_gap_us(self, start_us, end_us):
        """The longest time one reader went without a look from start_us to
        end_us, both counted as looks."""
        longest = 0
        for times in self.times:
            seen = [start_us] + [t for t in times if start_us < t < end_us] + [end_us]
            longest = max(longest, max(b - a for a, b in zip(seen, seen[1:], strict=False)))
        return longest


def nokosu():
    """ACTIONS actions of a 5-player Nokosu match, played by the tree's bots."""
    from sim.play import play

    return play("nokosu", 5, 0, ["heuristic"] * 5, SEED).journal[:ACTIONS]


def resumed(vc, journal, wire):
    """The table powered up with the registry and `journal` on its flash:
    the match resumed, its console `vc` wired by wire(vc) (wired())."""
    from dicetable.app.play import SEATS_RECORD, SEED_RECORD
    from dicetable.app.registry import pack
    from dicetable.games import GAMES
    from sim.hw import hands
    from sim.vboard.table_app import TableApp

    write, log = wire(vc)
    app = TableApp(write, log, SEED)
    vc.clock = app.clock
    app.provision(bytes(pack(hands.full_registry())))
    header = bytes([GAMES.index("nokosu"), 5, 0, 0])
    app.storage.new_match(header, [SEATS_RECORD | 0x1F, SEED_RECORD | SEED])
    for action in journal:
        app.storage.append(action)
    app.vbuttons.advance = Bound(app.clock, app.vbuttons.advance)
    app.power_up()
    assert app.table is not None and app.table.mode == "play"
    return app


def longest_gap_us(model, journal, phase_ms, host, wire=wired):
    """The longest a reader went unlooked-at in the WINDOW_MS after `host`
    stopped reading, phase_ms after a keyframe.  model: sim/hw/vconsole.py;
    wire: as resumed() takes it (a test's stand-in)."""
    vc = model.VConsole(host=host)
    app = resumed(vc, journal, wire)
    looks = Looks(app.readers, app.clock)
    app.run_for(SETTLE_MS - app.clock.ticks_ms())
    assert app.mirror is not None
    stop_ms = app.mirror._key + phase_ms  # when the last keyframe began, + the phase
    app.run_for(max(0, stop_ms - app.clock.ticks_ms()))
    host.stop()
    start_us = app.clock.now_us
    app.run_for(WINDOW_MS)
    return looks.longest_gap_us(start_us, start_us + WINDOW_MS * 1000)


def main():
    # A folder without the firmware would fall through to this checkout's
    # modules and measure them under another name: refused instead.
    if len(sys.argv) != 2 or not (pathlib.Path(sys.argv[1]) / "firmware" / "dicetable").is_dir():
        sys.exit(
            "usage: console_stall.py TREE, a folder holding the firmware (TREE/firmware/dicetable)"
        )
    tree = pathlib.Path(sys.argv[1]).resolve()
    sys.path[:0] = [str(tree / "cpython"), str(tree / "firmware"), str(tree)]
    model = vconsole()
    journal = nokosu()
    stopped = [[phase, longest_gap_us(model, journal, phase, model.Host())] for phase in PHASES_MS]
    no_host = longest_gap_us(model, journal, 0, model.Host(connected=False))
    print(json.dumps({"stopped_us": stopped, "no_host_us": no_host}))


if __name__ == "__main__":
    main()
