"""The readers' cost on the Pico, from a model run here: `make bench`
(tools/bench/bench_latency.py prints it; run alone, this file prints its part).

1. Counts.  The driver talks to its register-level twins (sim/hw/vmfrc522.py)
   wired as on the board: six readers (the five seats and the centre) behind
   the 74HC138, its address lines on a virtual SIO (sim/hw/vspi.VSIO) that
   the chip selects store to; the 1bfedd1 driver, the one the board was
   timed with, drives them through three address pins instead.  Counted:
   SPI calls and transactions, bytes on the wire, register accesses,
   chip-select stores (pin writes for 1bfedd1).
2. Pico time = Python + wire + radio.
   Python: the same calls, replayed under MicroPython (the WebAssembly build,
   tools/bench/pico_cost.py) against a bus that gives back the replies recorded in
   step 1: a write is a C builtin, a read one Python shim whose own cost is
   timed and taken off, a chip select a C store (a pin call for 1bfedd1);
   expressed in units of `for i in range(n): s += i` timed in the same run,
   times 4.592 us (574 cycles at 125 MHz, that loop on the Pico).
   Wire: bytes x 8 / table_config.SPI_BAUDRATE.
   Radio: the time the CPU waits on a chip for a frame to end, as the chip
   model keeps it (ISO/IEC 14443-3 frames at 106 kbit/s, the tag's reply
   91 us after, the chip's timer when nothing answers).  The driver's
   operations are timed by a CPU that takes no time (the most it waits);
   the table's cycles (4.) are recorded again by one that takes its Python
   (x scale) between the SPI transactions, spread evenly over them
   (retimed(), RecordingBus.python_us): a look at every reader starts five
   more REQAs while the first runs, so it waits for little of its 0.4 ms,
   and a look at one reader alone for nearly all of it.
3. Calibration.  The 1bfedd1 driver, measured on a Pico (issue 9): one read
   of a 4-byte UID 13.0 ms, of a 7-byte UID 23.2 ms.  Less the model's wire
   and radio, the board's Python took `scale` times the model's Python;
   every figure is given as modelled and calibrated (Python x scale).
4. The table as the main loop's readers pass runs it (Readers.service(), its
   events taken after the call: serve()), call by call (specs()): a period
   with every reader empty; the same at the menu's period (MENU_MS), and a
   tag put down there; a period with a tag held on every reader but seat
   0; and a 7-byte tag put on seat 0 just before a look, confirmed
   (TAG_PLACED), and taken off four periods later: its calls are what
   tools/bench/bench_latency.py schedules.  The same with readers awaited
   (Readers.awaited), for each awaited period weighed (AWAITED_PERIODS):
   seat 0 awaited and nothing on the others (a match waiting for a seat),
   seat 0 awaited and a tag on every other reader, the new tag put down just
   before each of the looks of a period (the look at every reader, and each
   look at seat 0 alone), and during a collection after the look at every
   reader (the look at seat 0 that finds it held up until the collection
   is over); seat 1 awaited, a tag on seats 2 on, the new tag on seat 0,
   which is not awaited; and every reader awaited, none holding a tag
   (provisioning).  Each recorded cycle is replayed until about 3000 calls
   were timed, 100 times at least; a call's Python time is its median, each
   replay in units of the unit loop timed just before and after it.  The
   same code records and replays 74a722b's readers (their events given to
   a callback then) in that commit's tree (tools/bench/bench_loop.py).
"""

import ast
import pathlib
import statistics
import subprocess

import pico_cost
import pins
import table_config

import sim  # noqa: F401  (first: it puts the board's code, firmware/, on sys.path)
from dicetable.app.events import CENTRE
from hal import mfrc522 as new_driver
from hal import readers as readers_module
from hal.chipselect import decoder_selects
from hal.mainloop import GC_MS
from hal.readers import AWAITED_MS, PERIOD_MS, Readers
from sim.hw import vmfrc522 as vm
from sim.hw.clock import Clock
from sim.hw.vpin import VDecoder
from sim.hw.vspi import VSIO, VSPI
from sim.hw.vtag import VTag

# The tree this file is in: it also runs copied into 74a722b's tree (bench_loop's
# old_tree), whose code measure_old puts first on that run's sys.path.
ROOT = pathlib.Path(__file__).resolve().parents[2]

OLD = "1bfedd1"  # the driver the board was timed with (issue 9)
MEASURED_MS = {"full read, 4-byte UID": 13.0, "full read, 7-byte UID": 23.2}
MEASURED_EMPTY = "3.4-4.2"
UID4 = bytes.fromhex("5A1B2C3D")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
FITTED = tuple(table_config.seats) + (CENTRE,)
SEAT = 0  # where the new tag goes
ASIDE = 1  # the reader awaited when the new tag's is not
AWAITED_PERIODS = (10, 5)  # the awaited readers' periods weighed
MENU_MS = getattr(readers_module, "MENU_MS", PERIOD_MS)  # 74a722b: as any other
LATE = GC_MS + 3  # the look after a collection that followed the look at
# every reader (3 ms, a tag on five readers)
PERIODS = 8  # a cycle: the WUPA sweep of an empty reader repeats every 8
REPLAYED = 3000  # calls timed per recorded cycle, in whole replays of it ...
REPS = 100  # ... at least this many
PART_CALLS = 500  # service() calls replayed per part of the script: the
# build collects between parts, and a timed call leaves floats
OP_REPS = 4  # replays of one driver operation, per batch
WIRE_US_PER_BYTE = 8 * 1_000_000 / table_config.SPI_BAUDRATE
POLLS = (b"\x88\x00", b"\x88\x8c\x94\x98\xd4\xee\x00")  # ComIrqReg alone, the status burst


def _ignore(event, reader, uid):
    """The app's reader_event, not wanted here."""


# --- 1. counts and recordings ----------------------------------------------------


class RecordingBus(VSPI):
    """Keeps every byte the chips answer (what the replay gives back), and
    counts the transactions that carried bytes (a 74HC138 selects the lines
    between two addresses for an instant, without a clock edge).  A wait on
    a chip ends at its first poll: the clock moves to the end of the frame,
    and the time it moved is the CPU's wait (`waited_us`).  The CPU takes
    `python_us` before each transaction (0: no time, the most it waits; on
    the Pico the Python between a frame's start and its collect overlaps
    part of the frame)."""

    def __init__(self, clock, python_us=0.0):
        super().__init__(clock, table_config.SPI_BAUDRATE)
        self.miso = bytearray()
        self.reads = 0
        self.carried = 0
        self.waited_us = 0
        self.python_us = python_us  # the CPU's Python before each transaction
        self._python = 0.0
        self._fresh = False

    def _select(self, pin):
        super()._select(pin)
        self._fresh = True

    def _byte(self, mosi):
        if self._fresh:
            self._fresh = False
            self.carried += 1
            if self.python_us:
                # The Python before this transaction: a frame started earlier
                # runs on meanwhile, and the wait for it is that much shorter.
                self._python += self.python_us
                whole = int(self._python)
                self._python -= whole
                self.clock.advance(whole)
        return super()._byte(mosi)

    def _finish(self, chip):
        # The chip's next milestones (the frame out, the reply in, the timer) until none.
        start = self.clock.now_us
        while True:
            chip._update()
            ahead = [t for t in (chip._tx_end, chip._rx_end, chip._timer_at) if t is not None]
            if not ahead:
                self.waited_us += self.clock.now_us - start
                return
            self.clock.now_us = max(self.clock.now_us, min(ahead))

    def readinto(self, buf, write_byte=0):
        super().readinto(buf, write_byte)
        self.miso += buf
        self.reads += 1

    def write_readinto(self, wbuf, rbuf):
        if bytes(wbuf) in POLLS and self._sel is not None:
            self._finish(self._sel.chip)
        super().write_readinto(wbuf, rbuf)
        self.miso += rbuf
        self.reads += 1


class CountingPin:
    """An address pin of the 1bfedd1 wiring, counting its writes."""

    def __init__(self, kit, pin):
        self.kit = kit
        self.pin = pin

    def value(self, v=None):
        if v is not None:
            self.kit.pin_writes += 1
        return self.pin.value(v)

    def __call__(self, v=None):
        return self.value(v)


class Kit:
    """The readers `fitted` behind the decoder, as on the board."""

    def __init__(self, fitted=FITTED, old=None, python_us=0.0):
        self.clock = Clock()
        self.bus = RecordingBus(self.clock, python_us)
        self.chips = [vm.VMFRC522(self.clock) if r in fitted else None for r in range(CENTRE + 1)]
        outputs = [None] * 8
        for r in fitted:
            outputs[pins.CS_LINE[r]] = self.bus.cs(self.chips[r])
        self.decoder = VDecoder(outputs)
        self.sio = VSIO()
        self.pin_writes = 0
        if old is None:
            for k in range(3):
                self.sio.attach(pins.CS_ADDRESS[k], self.decoder.pins[k])
            self.selects = decoder_selects(
                self.sio, pins.CS_ADDRESS, pins.CS_LINE, pins.CS_IDLE, fitted
            )
        else:
            address = [CountingPin(self, p) for p in self.decoder.pins]
            self.selects = [
                old["DecoderSelect"](address, pins.CS_LINE[r], pins.CS_IDLE)
                if r in fitted
                else None
                for r in range(CENTRE + 1)
            ]

    def _snapshot(self):
        c = [x for x in self.chips if x is not None]
        return (
            self.bus.calls,
            self.bus.carried,
            self.bus.transferred,
            sum(x.reg_reads + x.reg_writes for x in c),
            self.sio.stores + self.pin_writes,
            self.bus.reads,
            len(self.bus.miso),
            self.bus.waited_us,
        )

    def measure(self, op):
        """Run op(); its counts, its replies and the radio time the CPU waited."""
        a = self._snapshot()
        op()
        b = self._snapshot()
        return {
            "calls": b[0] - a[0],
            "transactions": b[1] - a[1],
            "bytes": b[2] - a[2],
            "registers": b[3] - a[3],
            "cs": b[4] - a[4],
            "reads": b[5] - a[5],
            "miso": bytes(self.bus.miso[a[6] : b[6]]),
            "radio_us": b[7] - a[7],
        }


def old_source(path):
    return subprocess.run(
        ["git", "show", "%s:%s" % (OLD, path)], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def old_decoder_select():
    src = old_source("firmware/hal/board.py")
    node = next(
        n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "DecoderSelect"
    )
    return ast.get_source_segment(src, node)


def old_namespace():
    ns = {"__name__": "old_mfrc522"}
    exec(old_source("firmware/hal/mfrc522.py"), ns)
    exec(old_decoder_select(), ns)
    return ns


EMPTY = "empty reader, one look"
HELD = "held tag, one look"
READ4 = "full read, 4-byte UID"
READ7 = "full read, 7-byte UID"
FIRST = "new tag, 7-byte UID: the look that finds it"
AGAIN = "new tag, 7-byte UID: the confirming re-read"
ALONE = "awaited empty reader, a look at it alone"


def old_ops(old):
    """{row: (counts, replay code)} for the 1bfedd1 driver: a look is ensure() +
    read_uid(); a new tag is confirmed by its first look and a second one."""
    out = {}
    cases = (
        (EMPTY, None, "chip.ensure()\nchip.read_uid(buf, False)\n"),
        (HELD, UID7, "chip.ensure()\nchip.read_uid(buf, True)\n"),
        (READ4, UID4, "chip.read_uid(buf, True)\n"),
        (READ7, UID7, "chip.read_uid(buf, True)\n"),
        (FIRST, UID7, "chip.ensure()\nchip.read_uid(buf, False)\n"),
        (AGAIN, UID7, "chip.ensure()\nchip.read_uid(buf, True)\n"),
    )
    kit = scope = None
    for name, uid, code in cases:
        if name != AGAIN:  # the re-read goes on from the first look
            kit = Kit((SEAT,), old)
            chip = old["MFRC522"](kit.bus, kit.selects[SEAT])
            chip.init()
            if uid:
                kit.chips[SEAT].place(VTag(uid))
            scope = {"chip": chip, "buf": bytearray(10)}
        out[name] = (kit.measure(lambda code=code, scope=scope: exec(code, scope)), code)
    return out


def new_reads():
    """{row: (counts, replay code)}: the new driver's whole reads of one tag."""
    out = {}
    for name, uid in ((READ4, UID4), (READ7, UID7)):
        kit = Kit((SEAT,))
        chip = new_driver.MFRC522(kit.bus, kit.selects[SEAT])
        chip.init()
        kit.chips[SEAT].place(VTag(uid))
        buf = bytearray(10)
        code = "chip.read_uid(buf, True)\n"
        out[name] = (kit.measure(lambda chip=chip, buf=buf: chip.read_uid(buf, True)), code)
    return out


def serve(readers, now, emit):
    """readers.service(now): the events it found to emit(event, reader, uid),
    as the main loop's readers pass takes them (hal/mainloop.py); the wait.
    A driver of before the events were kept (74a722b) is given emit."""
    if not hasattr(readers, "found"):
        return readers.service(now, emit)
    wait = readers.service(now)
    for k in range(readers.found):
        emit(readers.found_kind[k], readers.found_reader[k], readers.uid(k))
    readers.found = 0
    return wait


class Cycle:
    """The service() calls of one cycle of PERIODS looks at the whole table,
    recorded with those before it (the replay runs those first, untimed):
    `held` readers hold a 7-byte tag; the readers in the mask `awaited` are
    looked at every `fast` ms; with `new_tag`, a 7-byte tag is put on SEAT
    just before the cycle's first look, `phase` ms into a period, and taken
    off half-way.  With `late`, the cycle's first call is the look at every
    reader, and the next comes `late` ms into the period, the tag put down
    between: a look held up by the collector.  `period`: the looks at every
    reader (Readers.period_ms); `python_us`: the CPU's Python before each
    SPI transaction (RecordingBus), 0 for a CPU that takes no time."""

    def __init__(
        self,
        name,
        held,
        new_tag,
        awaited=0,
        fast=5,
        phase=0,
        late=0,
        period=PERIOD_MS,
        python_us=0.0,
    ):
        self.name = name
        self.spec = (held, new_tag, awaited, fast, phase, late, period)
        self.late = late
        self.kit = kit = Kit()
        self.readers = Readers(kit.bus, kit.selects, period_ms=period, awaited_ms=fast)
        self.readers.awaited = awaited
        self.phase = phase
        self.events = []
        self.now = 0
        for r in held:
            kit.chips[r].place(VTag(bytes((0x04, 0x10 + r, 2, 3, 4, 5, 6))))
        self.new_tag = VTag(UID7) if new_tag else None
        self.period = self.readers.period_ms
        self.ms = PERIODS * self.period
        self.warm = []
        self._to_look(4)
        if new_tag:  # once through, so that the cycle starts as it ends
            self._cycle()
            self._to_look(0)
        self.warm_miso = len(kit.bus.miso)
        recording, self.warm = self.warm, None
        # The CPU's time from here on only: the cycle starts where it would.
        kit.bus.python_us = python_us
        self.calls = self._cycle()
        self.miso = bytes(kit.bus.miso)
        # The cycle repeats exactly: the replay runs it again and again.
        again = self._cycle()
        self.warm = recording
        assert [(c["now"] + self.ms, c["miso"]) for c in self.calls] == [
            (c["now"], c["miso"]) for c in again
        ], "%s: a cycle does not repeat" % name

    def emit(self, event, reader, uid):
        self.events.append((event, reader))

    def _call(self):
        before = len(self.events)
        t = self.now
        if self.warm is not None:
            self.warm.append(t)
        waits = []
        counts = self.kit.measure(lambda: waits.append(serve(self.readers, t, self.emit)))
        self._sleep(waits[0])
        counts["now"] = t
        counts["wait"] = waits[0]
        counts["events"] = self.events[before:]
        return counts

    def _sleep(self, wait):
        # The task runs again `wait` ms after the call began (hal/mainloop.py),
        # or at once if the call took longer.
        self.now = max(self.now + wait, self.kit.clock.now_us // 1000)
        self.kit.clock.advance(max(0, self.now * 1000 - self.kit.clock.now_us))

    def _to_look(self, periods):
        # Up to (not into) the look `phase` ms into a period.
        end = self.now + periods * self.period
        while self.now < end or self.now % self.period != self.phase:
            self._call()

    def _cycle(self):
        calls = []
        end = self.now + self.ms
        chip = self.kit.chips[SEAT]
        if self.late:
            calls.append(self._call())
            self.now = end - self.ms + self.late
            self.kit.clock.advance(max(0, self.now * 1000 - self.kit.clock.now_us))
        if self.new_tag is not None:
            chip.place(self.new_tag)
        while self.now < end:
            if self.new_tag in chip.tags() and self.now >= end - self.ms // 2:
                chip.remove(self.new_tag)
            calls.append(self._call())
        assert self.now == end, "%s: the looks drifted" % self.name
        return calls


# --- 2. Python time under MicroPython ----------------------------------------

HEAD = (
    pico_cost.TIMER
    + r"""
import io
from array import array
from hal.mfrc522 import MFRC522
from hal.chipselect import ChipSelect
from hal.readers import Readers

stream = io.BytesIO(b'')


def shim(w, r):
    stream.readinto(r)


def shim_read(b, wb=0):
    stream.readinto(b)


class Bus:
    pass


class Pin:
    pass


def bus():
    b = Bus()
    b.write = len
    b.write_readinto = shim
    b.readinto = shim_read
    return b


def ignore(event, reader, uid):
    pass


w7 = bytearray(7)


def shim_call():
    stream.seek(0)
    shim(w7, w7)


def builtin_call():
    stream.seek(0)
    min(w7, w7)


def no_call():
    stream.seek(0)


print('shim', pico_us(shim_call, 500) - pico_us(builtin_call, 500))
print('clock', min(-clock() + clock() for _ in range(200)) / unit_us())
"""
)

OP = r"""
#: next run
%(setup)s
stream = io.BytesIO(%(miso)r)


def op():
    stream.seek(0)
%(body)s

print('op', %(name)r, pico_us(op, %(reps)d))
"""

NEW_SETUP = r"""
from hal.mfrc522 import MFRC522
buf = bytearray(10)
chip = MFRC522(bus(), ChipSelect({}, 0, 1, 0, 2))
"""

OLD_SETUP = r"""
%(old)s
%(select)s
buf = bytearray(10)
pins3 = [Pin(), Pin(), Pin()]
for p in pins3:
    p.value = abs
chip = MFRC522(bus(), DecoderSelect(pins3, 1, 0))
"""

CYCLE = r"""
#: next run
stream = io.BytesIO(%(miso)r)
readers = Readers(bus(), %(selects)s, period_ms=%(period)d, awaited_ms=%(fast)d)
readers.awaited = %(awaited)d
for t in %(warm)r:
    %(serve)s
start = %(start)d
nows = %(nows)r
took = array('f', [0.0] * len(nows))
rep = 0
"""

CYCLE_REPS = r"""
#: next run
for _ in range(%(reps)d):
    stream.seek(start)
    base = rep * %(ms)d             # the first at the times recorded, as the warm-up left it
    rep += 1
    u = unit_us()
    for c in range(len(nows)):
        t = clock()
        %(serve)s
        took[c] = clock() - t
        %(after)s
    u = (u + unit_us()) / 2
    print('cycle', %(name)r, stream.tell(), ' '.join('%%.3f' %% (x / u) for x in took))
"""


def indent(code, n):
    return "".join(" " * n + line + "\n" for line in code.splitlines())


def python_us(old_table, new_table, cycles):
    """Pico us of Python work: {(driver, row): us} for the driver operations and
    {cycle name: [us per call]} for the table's cycles, from one MicroPython run;
    and the read shim's, taken off each."""
    script = HEAD
    for which, table in (("old", old_table), ("new", new_table)):
        for name, (counts, code) in table.items():
            if which == "new":
                setup = NEW_SETUP
            else:
                setup = OLD_SETUP % {
                    "old": old_source("firmware/hal/mfrc522.py"),
                    "select": old_decoder_select(),
                }
            script += OP % {
                "setup": setup,
                "miso": counts["miso"],
                "body": indent(code, 4),
                "name": which + ":" + name,
                "reps": OP_REPS,
            }
    selects = "[%s]" % ", ".join(
        "ChipSelect({}, 0, 1, 0, 2)" if r in FITTED else "None" for r in range(CENTRE + 1)
    )
    for cycle in cycles:
        # As the main loop calls it: the events are taken after the call.
        kept = hasattr(cycle.readers, "found")
        script += CYCLE % {
            "miso": cycle.miso,
            "selects": selects,
            "warm": cycle.warm,
            "period": cycle.period,
            "fast": cycle.readers.awaited_ms,
            "awaited": cycle.readers.awaited,
            "start": cycle.warm_miso,
            "nows": [c["now"] for c in cycle.calls],
            "serve": "readers.service(t)\n    readers.found = 0"
            if kept
            else "readers.service(t, ignore)",
        }
        per = PART_CALLS // len(cycle.calls)
        serve = "readers.service(nows[c] + base%s)" % ("" if kept else ", ignore")
        for _ in range(max(REPS, REPLAYED // len(cycle.calls)) // per):
            script += CYCLE_REPS % {
                "reps": per,
                "ms": cycle.ms,
                "name": cycle.name,
                "serve": serve,
                "after": "readers.found = 0" if kept else "pass",
            }
    ops = {}
    samples = {c.name: [] for c in cycles}
    miso = {c.name: c.miso for c in cycles}
    got = {}
    for line in pico_cost.run(script, timeout=1800).splitlines():
        word, rest = line.split(" ", 1)
        if word in ("shim", "clock"):
            got[word] = float(rest)
        elif word == "op":
            name, us = rest.rsplit(" ", 1)
            ops[tuple(name.split(":", 1))] = float(us)
        elif word == "cycle":
            name, read, values = rest.split(" ", 2)
            # A replay that read other replies than the recording's made other calls.
            assert int(read) == len(miso[name]), "%s: the replay went astray" % name
            samples[name].append([float(v) for v in values.split()])
    shim, clock = got["shim"], got["clock"] * pico_cost.UNIT_US
    out = {}
    for (which, name), us in ops.items():
        table = old_table if which == "old" else new_table
        out[(which, name)] = us - table[name][0]["reads"] * shim
    per_call = {}
    for cycle in cycles:
        runs = samples[cycle.name]
        per_call[cycle.name] = [
            max(
                0.0,
                statistics.median(r[k] for r in runs) * pico_cost.UNIT_US
                - clock
                - cycle.calls[k]["reads"] * shim,
            )
            for k in range(len(cycle.calls))
        ]
    return out, per_call, shim


# --- 3. what it comes to ------------------------------------------------------

KEYS = ("calls", "transactions", "bytes", "registers", "cs")


class Cost:
    """Counts and Pico time of an operation: Python (modelled), wire and radio, in us."""

    def __init__(self, counts, python_us, wire_us, radio_us):
        self.counts = counts
        self.python_us = python_us
        self.wire_us = wire_us
        self.radio_us = radio_us

    @classmethod
    def of(cls, recorded, python_us):
        """From Kit.measure()'s counts and the replay's Python us."""
        return cls(
            {k: recorded[k] for k in KEYS},
            python_us,
            recorded["bytes"] * WIRE_US_PER_BYTE,
            recorded["radio_us"],
        )

    def us(self, scale=1.0):
        """Pico us, with Python x scale."""
        return self.python_us * scale + self.wire_us + self.radio_us

    def _with(self, other, sign, div=1):
        return Cost(
            {k: (self.counts[k] + sign * other.counts[k]) / div for k in KEYS},
            (self.python_us + sign * other.python_us) / div,
            (self.wire_us + sign * other.wire_us) / div,
            (self.radio_us + sign * other.radio_us) / div,
        )

    def plus(self, other):
        return self._with(other, 1)

    def minus(self, other):
        return self._with(other, -1)

    def per(self, n):
        return self._with(NOTHING, 0, n)


NOTHING = Cost({k: 0 for k in KEYS}, 0.0, 0.0, 0.0)


def total(calls):
    """The Cost of a list of Calls."""
    out = NOTHING
    for c in calls:
        out = out.plus(c.cost)
    return out


class Call:
    """One recorded service() call: when, the wait it returned, its Cost and events."""

    def __init__(self, recorded, python_us, radio_us=None):
        self.now = recorded["now"]
        self.wait = recorded["wait"]
        self.events = recorded["events"]
        self.cost = Cost.of(recorded, python_us)
        self.radio_before = self.cost.radio_us  # waited for as if the CPU took no time
        if radio_us is not None:
            self.cost.radio_us = radio_us

    def as_json(self):
        c = self.cost
        return [
            self.now,
            self.wait,
            self.events,
            c.counts,
            c.python_us,
            c.wire_us,
            c.radio_us,
            self.radio_before,
        ]

    @classmethod
    def from_json(cls, row):
        call = cls.__new__(cls)
        call.now, call.wait, events, counts, python, wire, radio, call.radio_before = row
        call.events = [tuple(e) for e in events]
        call.cost = Cost(counts, python, wire, radio)
        return call


def specs(period=PERIOD_MS):
    """{name: Cycle's arguments} of every cycle recorded (see the module docstring)."""
    others = tuple(r for r in FITTED if r != SEAT)
    aside = tuple(r for r in others if r != ASIDE)
    out = {
        "idle": {"held": (), "new_tag": False},
        # The menu: nothing awaited, every reader looked at every MENU_MS.
        "menu": {"held": (), "new_tag": False, "period": MENU_MS},
        "menu-tag": {"held": (), "new_tag": True, "period": MENU_MS},
        "held": {"held": others, "new_tag": False},
        "tag": {"held": others, "new_tag": True},
    }
    for f in AWAITED_PERIODS:
        mine = {"held": others, "awaited": 1 << SEAT, "fast": f}
        out["awaited/%d" % f] = dict(mine, new_tag=False)
        out["waiting/%d" % f] = {"held": (), "new_tag": False, "awaited": 1 << SEAT, "fast": f}
        for phase in range(0, period, f):
            out["tag/%d+%d" % (f, phase)] = dict(mine, new_tag=True, phase=phase)
        out["late/%d" % f] = dict(mine, new_tag=True, late=LATE)
        other = {"held": aside, "awaited": 1 << ASIDE, "fast": f}
        out["aside/%d" % f] = dict(other, new_tag=False)
        out["refused/%d" % f] = dict(other, new_tag=True)
        out["every/%d" % f] = {"held": (), "new_tag": False, "awaited": -1, "fast": f}
    return out


def retimed(cycle, spec, python, scale):
    """The radio waits of `cycle`'s calls with the CPU's own time in them: the
    cycle recorded again by a CPU that takes its Python (x scale), spread over
    its SPI transactions, before each transaction; None if the calls then
    did other work (a call that runs past the next one's time only moves it)."""
    transactions = sum(c["transactions"] for c in cycle.calls)
    if not transactions:
        return [0.0] * len(cycle.calls)
    per = scale * sum(python) / transactions
    try:
        again = Cycle(cycle.name, python_us=per, **spec)
    except AssertionError:
        return None
    if [c["miso"] for c in again.calls] != [c["miso"] for c in cycle.calls]:
        return None
    return [c["radio_us"] for c in again.calls]


def measure(names=None, scale=None):
    """Everything the model needs, measured (see main() and tools/bench/bench_latency.py):
    the cycles named (all by default), each call's radio retimed; with names,
    the driver's operations and the calibration are left out and `scale` is
    the Python's calibration."""
    every = specs()
    chosen = list(every) if names is None else list(names)
    if names is None:
        old_table = old_ops(old_namespace())
        new_table = new_reads()
    else:
        old_table = new_table = {}
    cycles = [Cycle(name, **every[name]) for name in chosen]
    py, per_call, shim = python_us(old_table, new_table, cycles)
    olds = {name: Cost.of(c, py[("old", name)]) for name, (c, _) in old_table.items()}
    if names is None:
        # The board's Python over the model's, on the two reads timed on the Pico.
        board = sum(MEASURED_MS[n] * 1000 - olds[n].wire_us - olds[n].radio_us for n in MEASURED_MS)
        scale = board / sum(olds[n].python_us for n in MEASURED_MS)
    calls = {}
    untimed = []
    for c in cycles:
        radio = retimed(c, every[c.name], per_call[c.name], scale)
        if radio is None:
            untimed.append(c.name)
        calls[c.name] = [
            Call(r, us, None if radio is None else radio[k])
            for k, (r, us) in enumerate(zip(c.calls, per_call[c.name], strict=True))
        ]
    out = {
        "scale": scale,
        "shim": shim,
        "calls": calls,
        "period": cycles[0].period,
        "ms": {c.name: c.ms for c in cycles},
        "awaited": AWAITED_PERIODS,
        "untimed": untimed,
    }
    if names is not None:
        return out
    empty = total(calls["idle"]).per(PERIODS * len(FITTED))
    others = len(FITTED) - 1
    new = {
        EMPTY: empty,
        HELD: total(calls["held"]).per(PERIODS).minus(empty).per(others),
        READ4: Cost.of(new_table[READ4][0], py[("new", READ4)]),
        READ7: Cost.of(new_table[READ7][0], py[("new", READ7)]),
    }
    # The new tag's calls until its event, over a look without it.
    tag = calls["tag"]
    placed = next(k for k, c in enumerate(tag) if c.events)
    steady = total(calls["held"]).per(PERIODS)
    new[FIRST] = tag[0].cost.minus(steady)
    new[AGAIN] = total(tag[1 : placed + 1])
    alone = alone_calls(calls["awaited/%d" % AWAITED_MS], out["period"])
    new[ALONE] = total(alone).per(len(alone))
    out["old"] = olds
    out["new"] = new
    return out


def alone_calls(calls, period):
    """The calls that looked at the awaited readers alone (not on the period's grid)."""
    return [c for c in calls if c.now % period]


def print_costs(m):
    """The table of driver operations, modelled and calibrated."""
    scale = m["scale"]
    print(
        "Reader costs on the Pico (tools/bench/bench_readers.py): Python modelled in the"
        " WebAssembly build"
    )
    print(
        "(less the replay's read shim, %.1f us a call), wire at %d bit/s,"
        % (m["shim"], table_config.SPI_BAUDRATE)
    )
    print(
        "radio at 106 kbit/s; calibrated = Python x %.2f (see below).  Six readers, the"
        " 74HC138 behind" % scale
    )
    print(
        "the SIO (1bfedd1: three address pins); a look at an empty or held reader is its share of a"
    )
    print(
        "period of the whole table; the look that finds a new tag is that period's"
        " call over a period"
    )
    print("without it, the re-read every call after it until TAG_PLACED (%s: two looks);" % OLD)
    print(
        "an awaited reader's look alone (every %d ms, between the looks at every reader)"
        " is a call" % AWAITED_MS
    )
    print("that made one, seat 0 awaited and a tag held on every other reader.")
    print()
    head = (
        "operation",
        "driver",
        "SPI calls",
        "transactions",
        "bytes",
        "registers",
        "CS writes",
        "Python ms",
        "wire ms",
        "radio ms",
        "Pico ms",
        "calibrated ms",
    )
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in (EMPTY, HELD, READ4, READ7, FIRST, AGAIN, ALONE):
        for which in ("old", "new") if name in m["old"] else ("new",):
            c = m[which][name]
            print(
                "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f"
                " | %.2f |"
                % (
                    name,
                    OLD if which == "old" else "new",
                    c.counts["calls"],
                    c.counts["transactions"],
                    c.counts["bytes"],
                    c.counts["registers"],
                    c.counts["cs"],
                    c.python_us / 1000,
                    c.wire_us / 1000,
                    c.radio_us / 1000,
                    c.us() / 1000,
                    c.us(scale) / 1000,
                )
            )
    print()
    print(
        "Calibration against the board (the %s driver timed on a Pico at 125 MHz, issue 9):" % OLD
    )
    print(
        "  %-24s model %.1f ms, measured %s ms"
        % (EMPTY, m["old"][EMPTY].us() / 1000, MEASURED_EMPTY)
    )
    for name, ms in MEASURED_MS.items():
        print("  %-24s model %.1f ms, measured %.1f ms" % (name, m["old"][name].us() / 1000, ms))
    print(
        "  less wire and radio, the board's Python took %.2f x the model's: every"
        " calibrated figure" % scale
    )
    print("  is Python x %.2f + wire + radio" % scale)
    print()


def main():
    m = measure()
    print_costs(m)
    return m


if __name__ == "__main__":
    main()
