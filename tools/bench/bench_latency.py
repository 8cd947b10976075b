"""From a tag put down to the LEDs showing the answer, on the Pico: `make bench`.

Prints, in this order: the readers' costs (tools/bench/bench_readers.py), the
main loop at idle with its model checked against the board and today's
figures (tools/bench/bench_loop.py), the app's work per reader event, the
journal's work ahead, and the latency the main loop's schedule gives with
them.  Every Python figure is x K, the board's Python over the model's that
tools/bench/bench_loop.py fits on what the Pico's firmware measured at
74a722b.

THE APP'S WORK.  Under MicroPython (the WebAssembly build, the Pico's heap)
the table app of five seats with its storage on the virtual flash and
hal.pixels over the board's LED buffer, as sim/hw/rig.py wires them (its
readers and buttons, which the app does not call, left out: with them the
boot does not fit the Pico's heap today), and the mirror on the console
(hal/mirror.py, hal/console.py); a tag registered for every item of every
game, and a whole 5-player Nokosu Dice match (the longest journal of any
game) played from its first deal, every tag it takes measured: a round's
end, its deal and its tricks come as often as in a real match.  Each event
is timed as the readers pass runs it: Table.reader_event (the frame drawn,
the journal append) and pixels.show (the current limiter into the strip's
buffer; the board's WS2812 then sends it by DMA), converted to Pico time
with the unit of tools/bench/pico_cost.py; what the pass does after that
(the mirror's leds(), Table.awaited_readers()) is timed apart: the frame
is on its way meanwhile.  The journal's work ahead is done between the
events, untimed, as the readers passes after an input do it, so that no
commit erases (its steps are charged below).  An accepted play: a tag of
an action the app offers, on its seat's reader; a refused one: the same tag
on a reader where the app refuses it; each event's time is the fastest of
three runs of the same events, each in units of the unit loop timed just
before and after it.  The virtual NOR flash does in Python what the board
does in C: its page program and erase stand in as no-ops that count the
time the chip holds the CPU (0.4 ms a page program, 45 ms an erase, and
CALL_US of the SDK's flash call each: flashmodel/norflash.py), added to the
event; the console's C for the packets the mirror wrote
(tools/bench/bench_mirror.py's figure) is added to what comes after.

THE JOURNAL'S WORK AHEAD.  The readers pass that follows a commit with no
input does one step of Storage.work_ahead() (hal/mainloop.py): an erase of
the spare segment (45 ms with the CPU stopped, and its Python), a header
page built, or nothing.  Its steps over the same Nokosu match as the table
writes it, each priced as tools/bench/bench_flash.py prices it (one run of
its model), and the match's pace of play (bots on the virtual table,
sim/vboard/table_app.py: a tag lies 150 ms and is away 150 ms, two actions
a second, far faster than people, so the work ahead comes more often than
at a real table) give the chance that a tag comes while a step holds the
CPU: each trial draws it, and a tag that comes during a step waits for the
step's end before any look.

THE LATENCY.  The main loop (hal/mainloop.py) in a simulation of its passes
on one CPU, as MainLoop.run() runs them: each pass when it is due and the
CPU is free, the earliest due first, its next due its start tick plus the
wait it returned; every pass costs its modelled time and MainLoop.due()'s
dispatch, every wake the loop's turn and a share of asyncio's
(tools/bench/bench_loop.py).  The readers pass runs the calls recorded in
tools/bench/bench_readers.py with their costs, keeping the readers' two
grids as Readers.service() does: a look at every reader each period, and
between those, every AWAITED_MS, a look at the awaited reader alone.  An
accepted tag comes where the table awaits it: seat 0, awaited, a tag held
on every other reader; a refused one where it does not: seat 0, while seat
1 is awaited and seats 2 on hold a tag.  The 7-byte tag, put down at a
random moment, is found by the first look at its reader that begins after
it (the calls recorded from a look at that point of the period on), read,
read again (the confirming re-read), and its event runs the app (an app
time drawn from the measured ones); the answer is on the LEDs when the DMA
has sent the frame and the LEDs have latched it (hal/ws2812.py).  Buttons
(nothing pressed) every BUTTON_MS and frames every FRAME_MS at random
phases.  The collector: after an input, the readers pass after which no
look at every reader nor a re-read is due for GC_MS collects (a
gc.collect() took about 14 ms on a Pico with a fuller heap, issue 9),
holding up the awaited reader's looks; "during a collection" draws the
tag's moment within a collection that follows the look at every reader
before it, so the look that finds it comes when the collection is over if
that is later (recorded as a look GC_MS + 3 ms into the period).  At the
menu nothing is awaited and every reader is looked at every MENU_MS: a tag
put down there is found that much later (the app only logs it).  The tables
then weigh the awaited readers' period (and the period of the looks at
every reader, nothing awaited) against the CPU they take at idle.
"""

import random
import sys

import bench_loop
import bench_readers
import pico_cost
import table_config

import sim  # noqa: F401  (first: it puts the board's code, firmware/, on sys.path)
from dicetable.app.frames import led_count
from flashmodel.norflash import CALL_US, ERASE_US, PROGRAM_US
from hal.mainloop import BUTTON_MS, FRAME_MS, GC_MS, YIELD_MS
from hal.readers import AWAITED_MS, PERIOD_MS
from sim.hw import hands, vrp2

sys.modules.setdefault("rp2", vrp2.VRP2())  # hal.ws2812's timing constants only
from hal.ws2812 import LATCH_US, US_PER_LED  # noqa: E402

NOKOSU = 4
PARTS = 240  # parts of the app's measurement: a whole match ...
EVENTS = 3  # ... each with this many accepted and refused events
RUNS = 3  # runs of the same events: each event's fastest
TRIALS = 20000
GC_US = GC_MS * 1000
LEDS = led_count(table_config)
LED_WIRE_US = LEDS * US_PER_LED + LATCH_US
TARGET_MS = 50
PERIODS_MS = (10, 15, 20, 25, 30)
PERIOD_TRIALS = 4000  # per cell of the table of periods
NO_APP = [(0.0, 0)]

APP = (
    pico_cost.TIMER
    + """
#: next run
from dicetable.app import games, registry
from dicetable.app.events import CENTRE, TAG_PLACED, TAG_REMOVED
from dicetable.app.rng import Rng
from dicetable.app.table import SEATS_RECORD, SEED_RECORD, Table
from dicetable.match.actions import TABLE, kind_of, seat_of, value_of
from hal.console import Console
from hal.mirror import Mirror
from hal.pixels import Pixels
from hal.storage import Storage
from sim.hw import hands
from sim.hw.table_setup import Config, Strip
from flashmodel.vflash import VFlash
#: next run
flash = VFlash()
storage = Storage(flash, segments=4)
storage.save_registry(registry.pack(REGISTRY))
REGISTRY = None
#: next run
storage.new_match(bytes([%(game)d, 5, 0, 0]), [SEATS_RECORD | 0x1F, SEED_RECORD | 1])
"""
)

BOOT = """
#: next run


def log(line):
    pass


class Hands:
    # A player's hand on the app: what the readers and the buttons would call.
    def scan(self, reader, uid):
        t.reader_event(TAG_PLACED, reader, uid)
        t.reader_event(TAG_REMOVED, reader, None)

    def press(self, seat, code):
        t.button(seat, code)


t = Table(Config(), storage, Rng(1), log)
pixels = Pixels(Strip(%(leds)d), %(budget)d)
# The mirror on a console in C (its packets' C added from their count).
import io
import select
import sys

out = io.BytesIO()
out.write(bytearray(4096))
poll = select.poll()
poll.register(sys.stdout, select.POLLOUT)
mirror = Mirror(Console(out, poll), pixels.np.buf, t)
surface = Hands()
storage = None
#: next run
t.boot()
while t.storage.work_ahead():  # as the main loop's first readers passes do
    pass
held = [0]


def program(block, buf, offset):
    held[0] += %(program)d * (len(buf) // 256) + %(call)d


def erase(block):
    held[0] += %(erase)d + %(call)d


flash.raw.program = program
flash.raw.erase = erase
now = [100000]
tick = clock() - clock()
packets = [0]
after = [0.0]


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
    # In units of the unit loop timed just before and after: the readers
    # pass's part up to the frame on its way to the LEDs (hal/mainloop.py),
    # then what the pass does after it (the mirror's LED lines, the readers
    # awaited now), apart.
    held[0] = 0
    out.seek(0)
    u = unit_us()
    t0 = clock()
    t.reader_event(TAG_PLACED, reader, uid)
    pixels.show(t.frame)
    t1 = clock()
    mirror.leds()
    t.awaited_readers()
    t2 = clock()
    u = (u + unit_us()) / 2
    packets[0] = out.tell() // 64
    after[0] = (t2 - t1 - tick) / u
    t.reader_event(TAG_REMOVED, reader, None)
    # The journal's work ahead, untimed: the readers pass after an input does
    # it (bench_latency charges its steps apart), so no commit erases.
    while t.storage.work_ahead():
        pass
    return (t1 - t0 - tick) / u


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
        print("refused", refused, held[0], packets[0], after[0])
    now[0] += 10000
    t.tick(now[0])
    accepted = event(reader, uid)
    print("accepted", accepted, held[0], packets[0], after[0])
    if len(t.match.journal) == n:
        # The item could mean more than one action (a pick or a zero bid): the
        # answer was the choice on the seat's LEDs; the buttons make it.
        p = t.player[reader]
        assert t.entries[p] is not None and t.entries[p].choice, "not accepted"
        hands.choose(surface, t, p, a)
"""

PART = """
#: next run
for _ in range(%d):
    if t.mode == "play":
        both()
"""


def app_costs(packet_us):
    """{"accepted": [(Python us, other us)], "refused": [...]} in Pico time up to
    the frame on its way to the LEDs: each event the fastest of RUNS runs of
    the same events; other: the flash's time; and {"accepted": [(Python us,
    other us)], ...} of what the pass does after it (the mirror's leds() and
    awaited_readers(); other: the console's C for the packets, packet_us
    each)."""
    script = "REGISTRY = %r\n" % (hands.full_registry(),) + APP % {"game": NOKOSU}
    script += BOOT % {
        "game": NOKOSU,
        "program": PROGRAM_US,
        "erase": ERASE_US,
        "call": CALL_US,
        "leds": LEDS,
        "budget": table_config.CURRENT_BUDGET_MA,
    }
    script += PART % EVENTS * PARTS
    runs = []
    for _ in range(RUNS):
        got = {"accepted": [], "refused": [], "after accepted": [], "after refused": []}
        for line in pico_cost.run(script, timeout=900).splitlines():
            word, units, flash, packets, after = line.split()
            got[word].append((float(units) * pico_cost.UNIT_US, int(flash)))
            got["after " + word].append(
                (float(after) * pico_cost.UNIT_US, int(packets) * packet_us)
            )
        runs.append(got)
    # The first of each kind is this build compiling the paths (no Pico time): left out.
    return {k: [min(r[k][i] for r in runs) for i in range(1, len(runs[0][k]))] for k in runs[0]}


# --- the journal's work ahead ----------------------------------------------------------

PACE_MOVES = 150  # moves of the virtual table's match that give its pace


def work_ahead():
    """The journal's work ahead over a 5-player Nokosu match as the table writes
    it (tools/bench/bench_flash.py's model, one run): the Pico us of each call
    that did work (an erase, a header page), of each call with nothing to do
    and how many, and the match's actions."""
    import bench_flash

    bench_flash.RUNS = 1  # the erase's 45 ms is most of a step: one run is plenty
    header, journal = bench_flash.nokosu(5, 0)
    rows, nothing, _ = bench_flash.measure(header, bench_flash.as_table_writes(journal))
    ahead = [r for r in rows if r[0] == bench_flash.AHEAD]
    steps = [(bench_flash.cost(r), r[4]) for r in ahead if r[1]]
    return steps, nothing[0], sum(1 for r in ahead if not r[1]), len(journal)


def pace():
    """Actions a second of play: bots on the virtual table
    (sim/vboard/table_app.py), PACE_MOVES moves of a 5-player Nokosu match."""
    from dicetable.app.registry import pack
    from dicetable.games import GAMES
    from hal.console import Console
    from sim.hw.vconsole import VConsole
    from sim.vboard.table_app import TableApp

    vc = VConsole()
    console = Console(vc)
    app = TableApp(console, console.log, 3)
    vc.clock = app.clock
    app.provision(bytes(pack(hands.full_registry())))
    app.power_up()
    app.choose(GAMES.index("nokosu"), [0, 1, 2, 3, 4])
    t = app.table
    n, start = len(t.match.journal), app.clock.now_us
    for _ in range(PACE_MOVES):
        app.move()
    return (len(t.match.journal) - n) * 1e6 / (app.clock.now_us - start)


class Stalls:
    """The work ahead's steps as a tag meets them: over a match of `actions`
    at `per_second`, each step holds the CPU its time; draw() gives (the
    step's us, how far into it the tag came) or None."""

    def __init__(self, steps, nothing_us, nothing, actions, per_second):
        self.steps = [us for us, _ in steps]
        self.erases = [us for us, erased in steps if erased]
        self.nothing_us = nothing_us
        self.nothing = nothing
        self.match_us = actions / per_second * 1e6
        self.held_us = sum(self.steps) + nothing * nothing_us
        self.per_second = per_second

    def chance(self):
        """The chance that a tag comes during a step."""
        return self.held_us / self.match_us

    def draw(self, rng):
        r = rng.uniform(0, self.match_us)
        for us in self.steps:
            if r < us:
                return us, r
            r -= us
        if r < self.nothing * self.nothing_us:
            return self.nothing_us, r % self.nothing_us
        return None

    def erase(self, rng):
        """A step that erases, and where in it the tag came."""
        us = rng.choice(self.erases)
        return us, rng.uniform(0, us)


NO_STALLS = None


# --- the schedule ------------------------------------------------------------------


class Schedule:
    """The main loop's passes on one CPU (see the module docstring), Python x
    scale.  The tag goes on seat 0: awaited, looked at every `fast` ms besides
    the looks at every reader; or, with `aside`, not awaited while seat 1 is;
    with `fast` None, nothing is awaited (with `menu`, at the menu: every
    reader looked at every MENU_MS)."""

    def __init__(self, readers, loop, scale, fast=None, aside=False, menu=False):
        calls = readers["calls"]
        self.scale = scale
        dispatch = (loop["dispatch"] + loop["readers_pass"]) * scale
        # A wake's turn, and asyncio's switch every YIELD_MS shared out.
        self.turn = (loop["turn"] + loop["switch"] * BUTTON_MS / YIELD_MS) * scale
        if menu:
            steady, tags = calls["menu"], {0: calls["menu-tag"]}
            self.period = readers["ms"]["menu"] // bench_readers.PERIODS
        elif fast is None:
            steady, tags = calls["held"], {0: calls["tag"]}
        elif aside:
            steady, tags = calls["aside/%d" % fast], {0: calls["refused/%d" % fast]}
        else:
            steady = calls["awaited/%d" % fast]
            tags = {
                phase: calls["tag/%d+%d" % (fast, phase)]
                for phase in range(0, readers["period"], fast)
            }
            tags["late"] = calls["late/%d" % fast][1:]  # after the look at every reader
        if not menu:
            self.period = readers["period"]
        self.fast = fast or self.period
        self.aside = aside
        every = [c for c in steady if c.now % self.period == 0]
        alone = bench_readers.alone_calls(steady, self.period)
        self.look = bench_readers.total(every).us(scale) / len(every) + dispatch
        self.alone = bench_readers.total(alone).us(scale) / len(alone) + dispatch if alone else 0
        # By the phase of the look that finds the tag: its calls until TAG_PLACED.
        self.chains = {}
        for phase, tag in tags.items():
            placed = next(k for k, c in enumerate(tag) if c.events)
            self.chains[phase] = [(c.cost.us(scale) + dispatch, c.wait) for c in tag[: placed + 1]]
        self.buttons = (loop["buttons"] + loop["dispatch"]) * scale
        frames = loop["frames_menu" if menu else "frames_match"]
        self.frames = (frames + loop["dispatch"]) * scale

    def _moment(self, rng, collecting, stall):
        # When the tag comes (ms), and when a step of the work ahead holds the CPU.
        t0 = 4 * self.period
        if collecting:
            # A collection follows the look before the tag's; the tag comes during it.
            gc_start = t0 + self.look / 1000
            place = rng.uniform(gc_start, gc_start + GC_US / 1000)
        else:
            place = rng.uniform(t0, t0 + self.period)
        if stall is None:
            return place, (-1.0, -1.0)
        return place, (place - stall[1] / 1000, place + (stall[0] - stall[1]) / 1000)

    def latency(self, app_us, rng, collecting, stall=None):
        """ms from the tag put down to the LEDs showing the answer, one trial;
        stall: (us, how far into it the tag came) of a step of the work ahead
        that holds the CPU when the tag comes."""
        p = self.period
        f = self.fast
        t0 = 4 * p  # the look before the tag's
        due = [0, 0, 0]
        every = 0  # the next look at every reader
        place, held = self._moment(rng, collecting, stall)
        t = rng.uniform(0, 1)  # where in its ms the loop starts
        chain = None  # the tag's calls, once found
        while True:
            i = 0 if due[0] <= due[1] else 1  # the earliest, readers first
            if due[2] < due[i]:
                i = 2
            if due[i] > t:
                t = due[i] + self.turn / 1000  # asleep until then, then a turn
            if held[0] <= t < held[1]:
                t = held[1]  # the work ahead's step holds the CPU
            tick = int(t)
            if i == 1:
                t += self.buttons / 1000
                due[1] = tick + BUTTON_MS - tick % BUTTON_MS
                continue
            if i == 2:
                t += self.frames / 1000
                due[2] = tick + FRAME_MS - tick % FRAME_MS
                continue
            if chain is None:
                whole = tick >= every  # else the awaited reader alone
                if whole:
                    every = tick + p - tick % p
                if t >= place and (whole or not self.aside):
                    late = collecting and not whole and "late" in self.chains
                    chain = self.chains["late" if late else 0 if whole else tick % p // f * f]
                else:
                    t += (self.look if whole else self.alone) / 1000
                    if collecting and tick == t0:
                        t += GC_US / 1000
                    due[0] = min(every, tick + f - tick % f)
                    continue
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


def latencies(schedule, apps, collecting, stalls=NO_STALLS, seed=1, trials=TRIALS, erase=False):
    """Percentiles of `trials` trials; each draws an app time and, with
    stalls, whether a step of the work ahead holds the CPU when the tag
    comes (with erase, always an erase)."""
    rng = random.Random(seed)
    out = []
    for _ in range(trials):
        python, other = rng.choice(apps)
        stall = None
        if stalls is not None:
            stall = stalls.erase(rng) if erase else stalls.draw(rng)
        out.append(schedule.latency(python * schedule.scale + other, rng, collecting, stall))
    return percentiles(out)


def print_app(apps, k):
    print(
        "The app's work per reader event on the Pico (tools/bench/bench_latency.py): reader_event"
        " with the frame"
    )
    print(
        "drawn and the journal append, and pixels.show, up to the frame on its way to the LEDs;"
        " then, after"
    )
    print(
        "it, the mirror's leds() and awaited_readers().  %d events of each kind, a whole"
        " 5-player Nokosu" % len(apps["accepted"])
    )
    print(
        "Dice match, %d tags registered, the journal's work ahead done between them; other:"
        " the flash's" % len(hands.full_registry())
    )
    print("time (the chip's and the SDK call's), and the console's C for the mirror's packets.")
    print()
    print("| event | Python p50 ms | p90 | max | other ms, max | x K = %.2f: p50 | p99 | max |" % k)
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("accepted", "refused", "after accepted", "after refused"):
        py = percentiles([p for p, _ in apps[kind]])
        other = max(f for _, f in apps[kind])
        whole = percentiles([p * k + f for p, f in apps[kind]])
        print(
            "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
            % (
                kind if kind in ("accepted", "refused") else "... then, " + kind,
                py[50] / 1000,
                py[90] / 1000,
                py["max"] / 1000,
                other / 1000,
                whole[50] / 1000,
                whole[99] / 1000,
                whole["max"] / 1000,
            )
        )
    print()


def print_work_ahead(stalls):
    print(
        "The journal's work ahead (tools/bench/bench_latency.py, priced by"
        " tools/bench/bench_flash.py's model):"
    )
    print(
        "  a 5-player Nokosu match as the table writes it: %d steps that did work (%s ms),"
        % (len(stalls.steps), ", ".join("%.1f" % (us / 1000) for us in stalls.steps))
    )
    print(
        "  %d calls with nothing to do (%.2f ms each); the pace of play on the virtual table:"
        " %.2f actions a second," % (stalls.nothing, stalls.nothing_us / 1000, stalls.per_second)
    )
    print(
        "  so the work ahead holds the CPU %.3f %% of a match: the chance a tag comes during it."
        % (100 * stalls.chance())
    )
    print()


def print_parts(readers, loop, apps, k):
    """Where a tag's time goes, as the schedule adds it up."""
    f = AWAITED_MS
    mine = Schedule(readers, loop, k, f)
    other = Schedule(readers, loop, k, f, aside=True)
    alone, whole = mine.chains[f], other.chains[0]
    print("Where the time goes (tools/bench/bench_latency.py), ms, Python x K = %.2f:" % k)
    print()
    print("| part | ms |")
    print("|---|---|")
    rows = [
        ("waiting for the next look at an awaited reader (mean; at most %d)" % f, f / 2),
        ("... at another reader (mean; at most %d)" % other.period, other.period / 2),
        (
            "the look at the awaited reader alone that finds it: REQA, the first read",
            alone[0][0] / 1000,
        ),
        ("the look at every reader that finds it: REQA, the first read", whole[0][0] / 1000),
        (
            "the confirming re-read (WUPA, the UID again), TAG_PLACED, after the first",
            sum(c for c, _ in alone[1:]) / 1000,
        ),
        (
            "... after the second (another reader's look between)",
            sum(c for c, _ in whole[1:]) / 1000,
        ),
    ]
    for kind in ("accepted", "refused"):
        app = percentiles([p * k + fl for p, fl in apps[kind]])
        rows.append(("the app, %s (p50; p99 %.1f)" % (kind, app[99] / 1000), app[50] / 1000))
    rows.append(("the frame on the wire to the LEDs, and their latch", LED_WIRE_US / 1000))
    for name, ms in rows:
        print("| %s | %.1f |" % (name, ms))
    print()


def kinds(apps):
    """(name, app costs, on the awaited reader) of each latency row."""
    return (
        ("accepted", apps["accepted"], True),
        ("refused", apps["refused"], False),
        ("no app, awaited reader", NO_APP, True),
        ("no app, another reader", NO_APP, False),
    )


def print_latency(readers, loop, apps, k, stalls, packet_us):
    period = readers["period"]
    print(
        "From a tag put down to the LEDs showing the answer (tools/bench/bench_latency.py): a"
        " 7-byte tag on"
    )
    print(
        "seat 0.  Accepted: seat 0 awaited (a look at it every %d ms), a tag held on every"
        " other reader;" % AWAITED_MS
    )
    print(
        "refused: seat 1 awaited, a tag held on seats 2 on; every reader looked at every %d ms."
        % period
    )
    print(
        '%d trials each; + the LEDs\' %.1f ms on the wire; "no app": the reader path alone;'
        % (TRIALS, LED_WIRE_US / 1000)
    )
    print(
        "Python x K = %.2f; the work ahead charged at its rate (%.3f %% of the time), and a"
        " tag that" % (k, 100 * stalls.chance())
    )
    print("comes during one of its erases apart.  Target: p99 <= %d ms." % TARGET_MS)
    print()
    print("| event | when the tag comes | p50 ms | p90 | p99 | max |")
    print("|---|---|---|---|---|---|")
    done = {}

    def lat(fast, kind, app, awaited, collecting, erase=False, trials=TRIALS):
        # Each figure once: the table of periods repeats AWAITED_MS's.
        key = (fast, kind, collecting, erase)
        if key not in done:
            schedule = Schedule(readers, loop, k, fast, aside=not awaited and fast is not None)
            done[key] = latencies(schedule, app, collecting, stalls, erase=erase, trials=trials)
        return done[key]

    for kind, app, awaited in kinds(apps):
        for when, collecting, erase in (
            ("any moment", False, False),
            ("during a collection", True, False),
            ("during an erase ahead", False, True),
        ):
            if erase and kind.startswith("no app"):
                continue
            got = lat(AWAITED_MS, kind, app, awaited, collecting, erase)
            print(
                "| %s | %s | %.1f | %.1f | %.1f | %.1f |"
                % (kind, when, got[50], got[90], got[99], got["max"])
            )
    menu = latencies(Schedule(readers, loop, k, menu=True), NO_APP, False, stalls)
    print(
        "| at the menu, a tag found (the app logs it) | any moment | %.1f | %.1f | %.1f | %.1f |"
        % (menu[50], menu[90], menu[99], menu["max"])
    )
    print()
    print(
        "The awaited readers' period: idle busy (tools/bench/bench_loop.py, x K) at the menu"
        " (nothing awaited),"
    )
    print(
        "in a match (seat 0 awaited, a tag on every other reader) and in provisioning (every"
        " reader awaited,"
    )
    print(
        "none holding a tag), and the p99 latency, any moment / during a collection (%d trials"
        " each)." % TRIALS
    )
    print()
    print(
        "| awaited readers | busy, menu | busy, match | busy, provisioning | p99 no app, awaited"
        " | p99 accepted | p99 refused |"
    )
    print("|---|---|---|---|---|---|---|")
    for fast in (None,) + tuple(sorted(readers["awaited"], reverse=True)):
        cycles = (
            ("menu", "held", "idle")
            if fast is None
            else ("menu", "awaited/%d" % fast, "every/%d" % fast)
        )
        busy = [
            bench_loop.state_busy(
                loop, readers, c, "frames_menu" if i != 1 else "frames_match", packet_us
            ).at(k)
            for i, c in enumerate(cycles)
        ]
        p99 = {}
        for kind, app, awaited in kinds(apps):
            p99[kind] = "%.1f / %.1f" % tuple(
                lat(fast, kind, app, awaited, c)[99] for c in (False, True)
            )
        print(
            "| %s | %.1f %% | %.1f %% | %.1f %% | %s | %s | %s |"
            % (
                "every %d ms%s" % (fast, " (AWAITED_MS)" if fast == AWAITED_MS else "")
                if fast
                else "as the others",
                100 * busy[0],
                100 * busy[1],
                100 * busy[2],
                p99["no app, awaited reader"],
                p99["accepted"],
                p99["refused"],
            )
        )
    print()
    print(
        "The period of the looks at every reader in a match, nothing awaited: idle busy (x K)"
        " and the p99"
    )
    print("latency, any moment or during a collection, whichever is worse.")
    print()
    print(
        "| period | busy, nothing held | busy, 5 tags held | p99 no app | p99 accepted"
        " | p99 refused |"
    )
    print("|---|---|---|---|---|---|")
    for p in PERIODS_MS:
        busy = [
            bench_loop.state_busy(loop, readers, c, "frames_match", packet_us, period=p).at(k)
            for c in ("idle", "held")
        ]
        schedule = Schedule(readers, loop, k)
        schedule.period = schedule.fast = p
        worst = [
            max(
                latencies(schedule, app, c, stalls, trials=PERIOD_TRIALS)[99] for c in (False, True)
            )
            for app in (NO_APP, apps["accepted"], apps["refused"])
        ]
        print(
            "| %d ms%s | %.1f %% | %.1f %% | %.1f | %.1f | %.1f |"
            % (
                p,
                " (PERIOD_MS)" if p == PERIOD_MS else "",
                100 * busy[0],
                100 * busy[1],
                worst[0],
                worst[1],
                worst[2],
            )
        )
    print()


def main():
    readers = bench_readers.main()
    k, loop, readers, packet_us = bench_loop.main(readers)
    apps = app_costs(packet_us)
    print_app(apps, k)
    steps, nothing_us, nothing, actions = work_ahead()
    stalls = Stalls(steps, nothing_us, nothing, actions, pace())
    print_work_ahead(stalls)
    print_parts(readers, loop, apps, k)
    print_latency(readers, loop, apps, k, stalls, packet_us)


if __name__ == "__main__":
    main()
