"""From a tag put down to the LEDs showing the answer, on the Pico: `make bench`.

Prints, in this order: the readers' costs (tests/bench_readers.py), the main
loop at idle (tests/bench_loop.py), the app's work per reader event, and the
latency the main loop's schedule gives with them.

THE APP'S WORK.  Under MicroPython (the WebAssembly build, the Pico's heap)
the table app of five seats with its storage on the virtual flash and
hal.pixels over the board's LED buffer, as sim/hw/rig.py wires them (its
readers and buttons, which the app does not call, left out: with them the
boot does not fit the Pico's heap today), booted with a 5-player Nokosu
Dice match in progress (the second round, mid-trick) and a tag registered
for every item of every game; each event is timed as the readers pass runs it:
Table.reader_event (the frame drawn, the journal append) and pixels.show
(the current limiter into the strip's buffer; the board's WS2812 then sends
it by DMA), converted to Pico time with the unit of tests/pico_cost.py.  An
accepted play: a tag of an action the app offers, on its seat's reader; a
refused one: the same tag on a reader where the app refuses it; each
event's time is the fastest of three runs of the same events, each in
units of the unit loop timed just before and after it.  The virtual NOR flash
does in Python what the board does in C: its page program and erase stand
in as no-ops that count the time the chip holds the CPU (0.4 ms a page
program, 45 ms an erase, sim/hw/norflash.py), added to the event.

THE LATENCY.  The main loop (hal/mainloop.py) in a simulation of its passes
on one CPU, as MainLoop.run() runs them: each pass when it is due and the
CPU is free, the earliest due first, its next due its start tick plus the
wait it returned; every pass costs its modelled time and MainLoop.due()'s
dispatch, every wake the loop's turn (tests/bench_loop.py).  The readers
pass runs the calls recorded in tests/bench_readers.py with their costs: a look at every reader each
period, a tag held on every reader but seat 0; a 7-byte tag put on seat 0
at a random moment is found by the first look that begins after it, read,
read again (the confirming re-read), and its event runs the app (an app
time drawn from the measured ones); the answer is on the LEDs when the DMA
has sent the frame and the LEDs have latched it (hal/ws2812.py).  Buttons
(nothing pressed) every BUTTON_MS and frames every FRAME_MS at random
phases.  The collector: after an input, the readers pass whose readers will
not need the CPU for GC_MS collects (a gc.collect() took about 14 ms on a
Pico with a fuller heap, issue 9); "during a collection" draws the tag's
moment within a collection that follows the look before it, so the look
that finds it comes when the collection is over if that is later.
"""

import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import bench_loop  # noqa: E402
import bench_readers  # noqa: E402
import pico_cost  # noqa: E402
import table_config  # noqa: E402
from dicetable.match.actions import PLAY, kind_of  # noqa: E402
from hal.mainloop import BUTTON_MS, FRAME_MS, GC_MS  # noqa: E402
from sim.hw import hands, vrp2  # noqa: E402

sys.modules.setdefault("rp2", vrp2.VRP2())    # hal.ws2812's timing constants only
from hal.ws2812 import LATCH_US, US_PER_LED  # noqa: E402
from sim.hw.norflash import ERASE_US, PROGRAM_US  # noqa: E402
from sim.play import play  # noqa: E402

NOKOSU = 4
PARTS = 20                # parts of the app's measurement ...
EVENTS = 3                # ... each with this many accepted and refused events
RUNS = 3                  # runs of the same events: each event's fastest
TRIALS = 20000
GC_US = GC_MS * 1000
LEDS = (max(table_config.seats) + 1) * table_config.LEDS_PER_SEAT + table_config.RING_LEDS
LED_WIRE_US = LEDS * US_PER_LED + LATCH_US
TARGET_MS = 50
PERIODS_MS = (10, 15, 20, 25, 30)
PERIOD_TRIALS = 4000      # per cell of the table of periods

APP = pico_cost.TIMER + """
#: next run
from dicetable.app import games, registry
from dicetable.app.events import CENTRE, TAG_PLACED, TAG_REMOVED
from dicetable.app.rng import Rng
from dicetable.app.table import SEATS_RECORD, SEED_RECORD, Table
from dicetable.match.actions import TABLE, kind_of, seat_of, value_of
from hal.pixels import Pixels
from hal.storage import Storage
from sim.hw import hands
from sim.hw.rig import Config
from sim.hw.vflash import VFlash
#: next run
flash = VFlash()
storage = Storage(flash, segments=4)
storage.save_registry(registry.pack(REGISTRY))
REGISTRY = None
#: next run
storage.new_match(bytes([%(game)d, 5, 0, 0]), [SEATS_RECORD | 0x1F, SEED_RECORD | 1])
"""

APPEND = """
#: next run
for a in %r:
    storage.append(a)
"""

BOOT = """
#: next run


class Strip:
    # hal/ws2812.py as hal.pixels sees it: the buffer the DMA sends.
    ORDER = (1, 0, 2)
    bpp = 3

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n

    def __len__(self):
        return self.n

    def write(self):
        pass


def log(line):
    pass


class Hands:
    # A player's hand on the app: what the readers and the buttons would call.
    def scan(self, reader, uid):
        t.reader_event(TAG_PLACED, reader, uid)
        t.reader_event(TAG_REMOVED, reader, None)

    def press(self, seat, code):
        t.button(seat, code)


t = Table(Config([0, 1, 2, 3, 4], 8, 16), storage, Rng(1), log)
pixels = Pixels(Strip(%(leds)d), %(budget)d)
surface = Hands()
storage = None
#: next run
t.boot()
held = [0]


def program(block, buf, offset):
    held[0] += %(program)d * (len(buf) // 256)


def erase(block):
    held[0] += %(erase)d


flash.raw.program = program
flash.raw.erase = erase
now = [100000]
tick = clock() - clock()


def reader_of(a):
    return CENTRE if seat_of(a) == TABLE else t.phys[seat_of(a)]


def tag_action():
    # A tag the app would take now; other actions (a value entered with the
    # buttons, a draw of the table's) are made as the players would.
    while True:
        for a in hands.player_actions(t):
            if games.is_item_kind(%(game)d, kind_of(a)):
                return a
        hands.make(surface, t, hands.player_actions(t)[0])


def refusing(reader, a):
    # Another seat's reader, on which the app refuses the tag, if any.
    item = games.identity(%(game)d, value_of(a))
    for k in range(1, t.match.players):
        p = (t.player[reader] + k) %% t.match.players if reader != CENTRE else k
        if not t.inputs.scan(p, item):
            return t.phys[p]
    return -1


def event(reader, uid):
    # In units of the unit loop timed just before and after.
    held[0] = 0
    u = unit_us()
    t0 = clock()
    t.reader_event(TAG_PLACED, reader, uid)
    pixels.show(t.frame)
    took = clock() - t0 - tick
    u = (u + unit_us()) / 2
    t.reader_event(TAG_REMOVED, reader, None)
    return took / u


def both():
    now[0] += 10000
    t.tick(now[0])
    a = tag_action()
    reader = reader_of(a)
    uid = hands.uid_for(%(game)d, games.identity(%(game)d, value_of(a)))
    n = len(t.match.journal)
    wrong = refusing(reader, a)
    if wrong >= 0:
        refused = event(wrong, uid)
        assert len(t.match.journal) == n, "not refused"
        print("refused", refused, held[0])
    now[0] += 10000
    t.tick(now[0])
    accepted = event(reader, uid)
    assert len(t.match.journal) == n + 1, "not accepted"
    print("accepted", accepted, held[0])
"""

PART = """
#: next run
for _ in range(%d):
    both()
"""


def journal_in_second_round():
    """A 5-player Nokosu Dice journal: round 1's 11 tricks, then into round 2."""
    match = play("nokosu", 5, 0, ["heuristic"] * 5, 1)
    plays = 0
    for i, a in enumerate(match.journal):
        if kind_of(a) == PLAY:
            plays += 1
            if plays == 11 * 5 + 7:
                return match.journal[:i + 1]
    raise AssertionError("the match ended early")


def app_costs():
    """{"accepted": [(Python us, flash us)], "refused": [...]} in Pico time: each
    event the fastest of RUNS runs of the same events."""
    journal = journal_in_second_round()
    script = "REGISTRY = %r\n" % (hands.full_registry(),) + APP % {"game": NOKOSU}
    for k in range(0, len(journal), 40):
        script += APPEND % (journal[k:k + 40],)
    script += BOOT % {"game": NOKOSU, "program": PROGRAM_US, "erase": ERASE_US, "leds": LEDS,
                      "budget": table_config.CURRENT_BUDGET_MA}
    script += PART % EVENTS * PARTS
    runs = []
    for _ in range(RUNS):
        got = {"accepted": [], "refused": []}
        for line in pico_cost.run(script, timeout=900).splitlines():
            word, units, flash = line.split()
            got[word].append((float(units) * pico_cost.UNIT_US, int(flash)))
        runs.append(got)
    return {k: [min(r[k][i] for r in runs) for i in range(len(runs[0][k]))]
            for k in runs[0]}


# --- the schedule ------------------------------------------------------------------

class Schedule:
    """The main loop's passes on one CPU (see the module docstring)."""

    def __init__(self, readers, loop, scale, period=None):
        calls = readers["calls"]
        self.scale = scale
        self.period = period or readers["period"]
        dispatch = loop["dispatch"] * scale
        self.turn = loop["turn"] * scale
        steady = calls["held"]
        self.look = bench_readers.total(steady).us(scale) / len(steady) + dispatch
        tag = calls["tag"]
        placed = next(k for k, c in enumerate(tag) if c.events)
        self.chain = [(c.cost.us(scale) + dispatch, c.wait) for c in tag[:placed + 1]]
        self.buttons = loop["buttons"] * scale + dispatch
        self.frames = loop["frames"] * scale + dispatch

    def latency(self, app_us, rng, collecting):
        """ms from the tag put down to the LEDs showing the answer, one trial."""
        p = self.period
        t0 = 4 * p                                    # the look before the tag's
        due = [0, 0, 0]
        if collecting:
            # A collection follows the look before the tag's; the tag comes during it.
            gc_start = t0 + self.look / 1000
            place = rng.uniform(gc_start, gc_start + GC_US / 1000)
        else:
            place = rng.uniform(t0, t0 + p)
        t = rng.uniform(0, 1)                         # where in its ms the loop starts
        chain = None                                  # the tag's calls, once found
        while True:
            i = min(range(3), key=lambda k: due[k])
            if due[i] > t:
                t = due[i] + self.turn / 1000         # asleep until then, then a turn
            tick = int(t)
            if i == 1:
                t += self.buttons / 1000
                due[1] = tick + BUTTON_MS - tick % BUTTON_MS
            elif i == 2:
                t += self.frames / 1000
                due[2] = tick + FRAME_MS - tick % FRAME_MS
            elif chain is None and t < place:
                t += self.look / 1000
                if collecting and tick == t0:
                    t += GC_US / 1000
                due[0] = tick + p - tick % p
            else:
                chain = self.chain if chain is None else chain
                cost, wait = chain[0]
                chain = chain[1:]
                t += cost / 1000
                if not chain:
                    return t + (app_us + LED_WIRE_US) / 1000 - place
                due[0] = tick + wait


def percentiles(values):
    v = sorted(values)
    n = len(v)
    return {p: v[min(n - 1, int(p / 100 * n))] for p in (50, 90, 99)} | {"max": v[-1]}


def latencies(schedule, apps, collecting, seed=1, trials=TRIALS):
    rng = random.Random(seed)
    out = []
    for _ in range(trials):
        python, flash = rng.choice(apps)
        out.append(schedule.latency(python * schedule.scale + flash, rng, collecting))
    return percentiles(out)


def print_app(apps, scale):
    print("The app's work per reader event on the Pico (tests/bench_latency.py): reader_event"
          " with")
    print("the frame drawn and the journal append, and pixels.show; %d events of each kind,"
          % len(apps["accepted"]))
    print("5-player Nokosu Dice in progress, %d tags registered; flash: the time the chip"
          " holds the CPU."
          % len(hands.full_registry()))
    print()
    print("| event | Python p50 ms | p90 | max | flash ms, max | calibrated p50 | max |")
    print("|---|---|---|---|---|---|---|")
    for kind in ("accepted", "refused"):
        py = percentiles([p for p, _ in apps[kind]])
        flash = max(f for _, f in apps[kind])
        whole = percentiles([p * scale + f for p, f in apps[kind]])
        print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            kind, py[50] / 1000, py[90] / 1000, py["max"] / 1000, flash / 1000,
            whole[50] / 1000, whole["max"] / 1000))
    print()


def print_parts(readers, loop, apps):
    """Where a tag's time goes, as the schedule adds it up."""
    scale = readers["scale"]
    print("Where the time goes (tests/bench_latency.py), ms:")
    print()
    print("| part | modelled | calibrated |")
    print("|---|---|---|")
    for k in (1.0, scale):
        s = Schedule(readers, loop, k)
        rows = [("waiting for the next look (mean; at most the period)", s.period / 2),
                ("the look that finds it: REQA, then the first read", s.chain[0][0] / 1000),
                ("the confirming re-read (WUPA, the UID again), TAG_PLACED",
                 sum(c for c, _ in s.chain[1:]) / 1000)]
        for kind in ("accepted", "refused"):
            whole = percentiles([p * k + f for p, f in apps[kind]])
            rows.append(("the app, %s (p50; p99 %.1f)" % (kind, whole[99] / 1000),
                         whole[50] / 1000))
        rows.append(("the frame on the wire to the LEDs, and their latch", LED_WIRE_US / 1000))
        if k == 1.0:
            parts = rows
        else:
            for (name, m), (_, c) in zip(parts, rows):
                print("| %s | %.1f | %.1f |" % (name, m, c))
    print()


def print_latency(readers, loop, apps):
    scale = readers["scale"]
    period = readers["period"]
    print("From a tag put down to the LEDs showing the answer (tests/bench_latency.py):"
          " a 7-byte tag")
    print("on seat 0, a tag held on every other reader, readers every %d ms; %d trials each;"
          % (period, TRIALS))
    print("+ the LEDs' %.1f ms on the wire; \"no app\": the reader path alone.  Target:"
          " p99 <= %d ms." % (LED_WIRE_US / 1000, TARGET_MS))
    print()
    print("| model | event | when the tag comes | p50 ms | p90 | p99 | max |")
    print("|---|---|---|---|---|---|---|")
    kinds = (("accepted", apps["accepted"]), ("refused", apps["refused"]),
             ("no app", [(0.0, 0)]))
    for k, label in ((1.0, "modelled"), (scale, "calibrated x %.2f" % scale)):
        schedule = Schedule(readers, loop, k)
        for kind, app in kinds:
            for collecting in (False, True):
                lat = latencies(schedule, app, collecting)
                print("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f |" % (
                    label, kind, "during a collection" if collecting else "any moment",
                    lat[50], lat[90], lat[99], lat["max"]))
    print()
    print("The period, calibrated: idle busy (tests/bench_loop.py's passes, the readers'"
          " look per")
    print("period) and the p99 latency, any moment or during a collection, whichever is"
          " worse.")
    print()
    print("| period | busy, menu | busy, 5 tags held | p99 no app | p99 accepted | p99 refused |")
    print("|---|---|---|---|---|---|")
    for p in PERIODS_MS:
        busy = [bench_loop.busy(loop, readers, scale, held, p)[1] for held in (False, True)]
        schedule = Schedule(readers, loop, scale, p)
        worst = [max(latencies(schedule, app, c, trials=PERIOD_TRIALS)[99] for c in (False, True))
                 for _, app in kinds]
        print("| %d ms%s | %.1f %% | %.1f %% | %.1f | %.1f | %.1f |" % (
            p, " (PERIOD_MS)" if p == period else "", 100 * busy[0], 100 * busy[1],
            worst[2], worst[0], worst[1]))
    print()


def main():
    readers = bench_readers.main()
    loop = bench_loop.measure()
    bench_loop.print_busy(loop, readers)
    apps = app_costs()
    print_app(apps, readers["scale"])
    print_parts(readers, loop, apps)
    print_latency(readers, loop, apps)


if __name__ == "__main__":
    main()
