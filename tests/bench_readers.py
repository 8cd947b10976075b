"""The readers' cost on the Pico, from a model run here: `make bench`.

1. Counts per operation, with the driver on its register-level twins wired as
   on the board (the 74HC138 behind a virtual SIO for the new driver, three
   address pins for the git HEAD driver): SPI calls and transactions, bytes on
   the wire, register accesses, chip-select stores (pin writes for HEAD).
   A wait on a chip is counted as one status read; its time is radio time (c).
2. Pico time = (a) + (b) + (c):
   (a) the Python work, timed under the MicroPython WebAssembly build: the
       same driver calls against a bus that replays the recorded replies
       (writes are a C builtin, reads one Python shim whose own cost is timed
       and taken off) and chip selects that are C stores or C pin calls,
       expressed in units of `for i in range(n): s += i` timed in the same
       run, times 4.6 us (574 cycles at 125 MHz, that loop on the Pico);
   (b) the wire: bytes x 8 / table_config.SPI_BAUDRATE;
   (c) the radio, for frames the CPU waits for: ISO/IEC 14443-3 frames at
       106 kbit/s, FDT 91 us, the chip's timer when nothing answers.
   The HEAD driver's figures check the model against the measured ones.
3. Idle load of the reader task and the latency from placing a tag to its
   TAG_PLACED reaching the app, by simulating the main loop's schedule.
"""

import ast
import pathlib
import random
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
import pins  # noqa: E402
import table_config  # noqa: E402
from hal import mfrc522 as new_driver  # noqa: E402
from hal.chipselect import decoder_selects  # noqa: E402
from hal.readers import Readers  # noqa: E402
from sim.hw import vmfrc522 as vm  # noqa: E402
from sim.hw.clock import Clock  # noqa: E402
from sim.hw.vpin import VDecoder  # noqa: E402
from sim.hw.vspi import VSIO, VSPI  # noqa: E402
from sim.hw.vtag import VTag  # noqa: E402

PICO_UNIT_US = 4.6           # `for i in range(n): s += i`, one iteration on the Pico
BUTTONS_MS, BUTTON_COST_MS = 5, 0.63
UID4 = bytes.fromhex("5A1B2C3D")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
FIRST = "new tag: first look, 7-byte UID"
AGAIN = "new tag: confirming re-read"
REPS = 1000
PERIODS_MS = (10, 20, 40)
TRIALS = 20000
CONFIRM_MS = 4               # hal.readers._CONFIRM_MS


def app_after_event_ms():
    """App + journal append + LED push after TAG_PLACED: a placeholder until measured."""
    return 10.0


# --- 1. counts and recordings ----------------------------------------------------

def _ignore(event, reader, uid):
    """The app's reader_event, not wanted here."""


class RadioChip(vm.VMFRC522):
    """The model, noting every frame sent: (bytes, last bits, reply length, transmit only)."""

    def __init__(self, clock):
        super().__init__(clock)
        self.sent = []

    def _air(self, frame, last_bits):
        reply = super()._air(frame, last_bits)
        transmit = (self.regs[vm.CommandReg] & 0x0F) == vm.TRANSMIT
        self.sent.append((len(frame), last_bits, None if reply is None else len(reply[0]),
                          transmit))
        return reply


class RecordingBus(VSPI):
    """A bus so slow that every wait on the chip ends at its first status read,
    keeping the replies of every read call (what the replay gives back)."""

    def __init__(self, clock):
        super().__init__(clock, 1000)
        self.miso = bytearray()
        self.reads = 0

    def readinto(self, buf, write_byte=0):
        super().readinto(buf, write_byte)
        self.miso += buf
        self.reads += 1

    def write_readinto(self, wbuf, rbuf):
        super().write_readinto(wbuf, rbuf)
        self.miso += rbuf
        self.reads += 1


def radio_us(sent, timeout_us, overlapped):
    """Air time the CPU waits for; `overlapped` short frames (REQA/WUPA of a look)
    run while the reader task sleeps."""
    total = 0
    for n, bits, reply, transmit in sent:
        short = n == 1 and bits == 7
        if short and overlapped:
            continue
        total += vm.air_us(2 + bits if short else 2 + 9 * n)
        if transmit:
            continue
        total += (vm.FDT_US + vm.air_us(2 + 9 * reply)) if reply else timeout_us
    return total


class Kit:
    """One or more chips behind the decoder, as on the board."""

    def __init__(self, n=1, old=None):
        self.clock = Clock()
        self.bus = RecordingBus(self.clock)
        self.chips = [RadioChip(self.clock) for _ in range(n)]
        self.decoder = VDecoder([None] + [self.bus.cs(c) for c in self.chips])
        self.sio = VSIO()
        self.pin_writes = 0
        if old is None:
            for k in range(3):
                self.sio.attach(pins.CS_ADDRESS[k], self.decoder.pins[k])
            self.selects = decoder_selects(self.sio, pins.CS_ADDRESS, pins.CS_LINE,
                                           pins.CS_IDLE, range(n))[:n]
        else:
            address = [CountingPin(self, p) for p in self.decoder.pins]
            self.selects = [old["DecoderSelect"](address, pins.CS_LINE[r], pins.CS_IDLE)
                            for r in range(n)]

    def snapshot(self):
        c = self.chips
        return [self.bus.calls, self.bus.transactions, self.bus.transferred,
                sum(x.reg_reads + x.reg_writes for x in c), self.sio.stores + self.pin_writes,
                self.bus.reads, len(self.bus.miso), sum(len(x.sent) for x in c)]

    def measure(self, op, timeout_us, overlapped=False):
        before = self.snapshot()
        op()
        after = self.snapshot()
        d = [b - a for a, b in zip(before, after)]
        sent = [s for x in self.chips for s in x.sent]
        frames = sent[len(sent) - d[7]:]
        return {"calls": d[0], "transactions": d[1], "bytes": d[2], "registers": d[3],
                "cs": d[4], "reads": d[5], "miso": bytes(self.bus.miso[before[6]:after[6]]),
                "radio_us": radio_us(frames, timeout_us, overlapped)}


class CountingPin:
    def __init__(self, kit, pin):
        self.kit = kit
        self.pin = pin

    def value(self, v=None):
        if v is not None:
            self.kit.pin_writes += 1
        return self.pin.value(v)


def head_source(path):
    return subprocess.run(["git", "show", "HEAD:" + path], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def head_decoder_select():
    src = head_source("firmware/hal/board.py")
    node = next(n for n in ast.parse(src).body
                if isinstance(n, ast.ClassDef) and n.name == "DecoderSelect")
    return ast.get_source_segment(src, node)


def old_namespace():
    ns = {"__name__": "old_mfrc522"}
    exec(head_source("firmware/hal/mfrc522.py"), ns)
    exec(head_decoder_select(), ns)
    return ns


def new_ops():
    """{name: (counts, replay code)}: the new driver's operations."""
    out = {}
    # One look at an empty reader and at a held one, through Readers.service().
    for name, uid in (("empty reader, one look", None), ("held tag, one look", UID7)):
        kit = Kit()
        readers = Readers(kit.bus, kit.selects)
        t = [0]

        def serve(ms, readers=readers, kit=kit, t=t):
            end = t[0] + ms
            while t[0] < end:
                t[0] = max(t[0], kit.clock.now_us // 1000) + readers.service(t[0], _ignore)
                kit.clock.advance(max(0, t[0] * 1000 - kit.clock.now_us))
        if uid:
            kit.chips[0].place(VTag(uid))
        kit.bus.baudrate = 4000000          # settled at a real clock, recorded slowly
        serve(200)
        while readers._due[0] > t[0]:       # up to the next look
            serve(1)
        t[0] = readers._due[0]
        kit.bus.baudrate = 1000
        calls = 3 if uid else 2

        def look(readers=readers, kit=kit, t=t, calls=calls):
            for _ in range(calls):
                readers.service(t[0], _ignore)
                t[0] += 1
                kit.clock.advance(max(0, t[0] * 1000 - kit.clock.now_us))
        out[name] = (kit.measure(look, new_driver.TIMEOUT_US, overlapped=True),
                     "for c in range(%d):\n    readers.service(t, print)\n    t += 1\n"
                     "t += PERIOD - %d\n" % (calls, calls), uid is not None)
    for name, uid in (("full read, 4-byte UID", UID4), ("full read, 7-byte UID", UID7)):
        kit = Kit()
        chip = new_driver.MFRC522(kit.bus, kit.selects[0])
        chip.init()
        kit.chips[0].place(VTag(uid))
        buf = bytearray(10)
        out[name] = (kit.measure(lambda chip=chip, buf=buf: chip.read_uid(buf, True),
                                 new_driver.TIMEOUT_US), "chip.read_uid(buf, True)\n", None)
    kit = Kit()
    chip = new_driver.MFRC522(kit.bus, kit.selects[0])
    chip.init()
    kit.chips[0].place(VTag(UID7))
    buf, last = bytearray(10), bytearray(UID7 + b"\0\0\0")
    # The first look (REQA answered, a full read), then the confirming re-read
    # (WUPA, the UID again, no last SELECT).
    first = "chip.request(False)\nchip.result()\nchip.identify(buf, buf, 0)\n"
    again = "chip.request(True)\nchip.result()\nchip.identify(buf, last, 7)\n"
    scope = {"chip": chip, "buf": buf, "last": last}
    for name, code in ((FIRST, first), (AGAIN, again)):
        out[name] = (kit.measure(lambda code=code: exec(code, scope), new_driver.TIMEOUT_US,
                                 overlapped=True), code, None)
    return out


def old_ops(old):
    """The git HEAD driver's operations: a poll is ensure() + read_uid()."""
    out = {}
    cases = (("empty reader, one look", None, "chip.ensure()\nchip.read_uid(buf, False)\n", 1),
             ("held tag, one look", UID7, "chip.ensure()\nchip.read_uid(buf, True)\n", 1),
             ("full read, 4-byte UID", UID4, "chip.read_uid(buf, True)\n", 1),
             ("full read, 7-byte UID", UID7, "chip.read_uid(buf, True)\n", 1),
             (FIRST, UID7, "chip.ensure()\nchip.read_uid(buf, False)\n", 1),
             (AGAIN, UID7, "chip.ensure()\nchip.read_uid(buf, True)\n", 1))
    kit = scope = None
    for name, uid, code, _ in cases:
        if name != AGAIN:                  # the re-read goes on from the first look
            kit = Kit(old=old)
            chip = old["MFRC522"](kit.bus, kit.selects[0])
            chip.init()
            if uid:
                kit.chips[0].place(VTag(uid))
            scope = {"chip": chip, "buf": bytearray(10)}
        out[name] = (kit.measure(lambda code=code, scope=scope: exec(code, scope),
                                 old["TIMEOUT_US"]), code, None)
    return out


# --- 2a. Python time under MicroPython ----------------------------------------

WASM = r"""
import io, time
from hal.mfrc522 import MFRC522
from hal.chipselect import ChipSelect
from hal.readers import Readers

def unit(n):
    s = 0
    for i in range(n):
        s += i
    return s

def ms_of(f, *a):
    t0 = time.ticks_ms()
    f(*a)
    return time.ticks_diff(time.ticks_ms(), t0)

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

def units(reps):
    # 40000 keeps s a small int (no heap), as on the Pico.
    for k in range(reps):
        unit(40000)

PERIOD = 20
print('unit', ms_of(units, 10), 400000)

def shim_cost(n):
    w = bytearray(7)
    stream.seek(0)
    for i in range(n):
        shim(w, w)
        stream.seek(0)

def builtin_cost(n):
    w = bytearray(7)
    for i in range(n):
        min(w, w)
        stream.seek(0)

print('shim', ms_of(shim_cost, 20000) - ms_of(builtin_cost, 20000), 20000)
"""

OP = r"""
#: next run
%(setup)s
stream = io.BytesIO(%(miso)r)
def op(reps):
    global t
    for k in range(reps):
        stream.seek(0)
%(body)s
t = 0
print('op', %(name)r, ms_of(op, %(reps)d), %(reps)d)
"""

NEW_SETUP = r"""
buf = bytearray(10)
last = bytearray(b'\x04\xa1\xb2\xc3\xd4\xe5\xf6\x00\x00\x00')
chip = MFRC522(bus(), ChipSelect({}, 0, 1, 0, 2))
chip._crc = False
"""

OLD_SETUP = r"""
%(old)s
%(select)s
ns = {}
buf = bytearray(10)
pins3 = [Pin(), Pin(), Pin()]
for p in pins3:
    p.value = abs
chip = MFRC522(bus(), DecoderSelect(pins3, 1, 0))
"""


def readers_setup(uid):
    # A Readers replaying a steady look: empty, or holding UID7 (its state set as
    # the look recorded left it).
    held = ""
    if uid:
        held = ("readers._state[0] = 1\nreaders._seen[0] = 1\n"
                "for k in range(7):\n"
                "    readers._held[0][k] = readers._last[0][k] = %r[k]\n"
                "readers._held_n[0] = readers._last_n[0] = 7\n" % uid)
    return ("readers = Readers(bus(), [ChipSelect({}, 0, 1, 0, 2)])\n"
            "readers._state[0] = 0\n" + held)


def indent(code, n):
    return "".join(" " * n + line + "\n" for line in code.splitlines())


def python_us(ops, old):
    """{(which, name): Pico us of Python work} from one WebAssembly run."""
    script = WASM
    order = []
    for which, table in (("new", ops[0]), ("old", ops[1])):
        for name, (counts, code, held) in table.items():
            if which == "new" and held is not None:
                setup = readers_setup(UID7 if held else None)
            elif which == "new":
                setup = NEW_SETUP
            else:
                setup = OLD_SETUP % {"old": old_source(), "select": head_decoder_select()}
            script += OP % {"setup": setup, "miso": counts["miso"], "body": indent(code, 8),
                            "name": which + ":" + name, "reps": REPS}
            order.append((which, name))
    out = {}
    unit_ms = shim_ms = None
    for line in mpy_wasm.run(script, timeout=900).splitlines():
        words = line.split()
        if words[0] == "unit":
            unit_ms = int(words[1]) / int(words[2])
        elif words[0] == "shim":
            shim_ms = int(words[1]) / int(words[2])
        elif words[0] == "op":
            reps = int(words[-1])
            which, name = " ".join(words[1:-2]).split(":", 1)
            counts = (ops[0] if which == "new" else ops[1])[name][0]
            per = int(words[-2]) / reps - counts["reads"] * shim_ms
            out[(which, name)] = per / unit_ms * PICO_UNIT_US
    return out, unit_ms, shim_ms


def old_source():
    # Without its docstring and const fallback: exec'd into the script as is.
    return head_source("firmware/hal/mfrc522.py")


# --- 3. the schedule -------------------------------------------------------------

class Loop:
    """The main loop's time line: the reader task's calls, the buttons' polls
    (BUTTON_COST_MS every BUTTONS_MS) running between them when due."""

    def __init__(self):
        self.t = 0.0
        self.buttons = 0.0

    def call(self, cost):
        while self.buttons <= self.t:
            self.t = max(self.t, self.buttons) + BUTTON_COST_MS
            self.buttons += BUTTONS_MS
        self.t += cost

    def sleep(self, ms):
        self.t += ms


def simulate(period, costs, rng):
    """Time from a tag put on seat 0 at a random moment to TAG_PLACED, in ms.

    Six readers (five seats and the centre), a tag held on every other one.
    Every `period` ms the reader task's service() starts a look at each reader
    (REQA; a held tag's REQA, then its WUPA at the next call), sleeps 1 ms,
    collects.  costs: CPU ms of one call's part for an empty reader and for a
    held one, of the first read after an answered REQA, of the re-read that
    confirms it (started _CONFIRM_MS after the first look began)."""
    look, held, first, confirm = costs
    place = rng.uniform(period, 2 * period)
    loop = Loop()
    start = 0.0
    while True:
        loop.t = max(loop.t, start)
        found = start >= place
        loop.call(3 * look + 3 * held)               # REQAs out
        loop.sleep(1)
        loop.call(3 * look + 3 * held)               # collected; held tags' WUPA out
        if found:
            loop.call(first)
            loop.sleep(1)
            loop.call(3 * held)                      # the held tags' WUPA collected
            loop.t = max(loop.t, start + CONFIRM_MS)
            loop.call(look)                          # the re-read's WUPA out
            loop.sleep(1)
            loop.call(confirm)
            return loop.t - place
        loop.sleep(1)
        loop.call(3 * held)
        start += period


def percentiles(values):
    v = sorted(values)
    n = len(v)
    return {p: v[min(n - 1, int(p / 100 * n))] for p in (50, 90, 99)} | {"max": v[-1]}


def main():
    old = old_namespace()
    ops = (new_ops(), old_ops(old))
    pyus, unit_ms, shim_ms = python_us(ops, old)
    wire_us_per_byte = 8 * 1000000 / table_config.SPI_BAUDRATE
    print("Reader costs on the Pico, modelled (tests/bench_readers.py):")
    print("  unit loop in the WebAssembly build %.2f us an iteration; read shim %.2f us a call"
          % (unit_ms * 1000, shim_ms * 1000))
    print("  Pico time = Python (WebAssembly time / unit x %.1f us) + wire (%d bit/s) + radio"
          % (PICO_UNIT_US, table_config.SPI_BAUDRATE))
    print()
    head = ("operation", "driver", "SPI calls", "transactions", "bytes", "registers",
            "CS writes", "Python ms", "wire ms", "radio ms", "Pico ms")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    total = {}
    for name in ops[0]:
        for which, table in (("HEAD", ops[1]), ("new", ops[0])):
            c = table[name][0]
            py = pyus[("old" if which == "HEAD" else "new", name)] / 1000
            wire = c["bytes"] * wire_us_per_byte / 1000
            radio = c["radio_us"] / 1000
            total[(which, name)] = (py, wire, radio)
            print("| %s | %s | %d | %d | %d | %d | %d | %.2f | %.2f | %.2f | %.2f |" % (
                name, which, c["calls"], c["transactions"], c["bytes"], c["registers"],
                c["cs"], py, wire, radio, py + wire + radio))
    print()
    print("Calibration against the board (HEAD driver, measured on a Pico at 125 MHz):")
    for name, measured in (("empty reader, one look", "3.4-4.2"),
                           ("full read, 4-byte UID", "13.0"),
                           ("full read, 7-byte UID", "23.2")):
        print("  %-24s model %.1f ms, measured %s ms" % (
            name, sum(total[("HEAD", name)]), measured))
    # The Python part the board took on the two reads, over the model's.
    measured_python = sum(m - total[("HEAD", name)][1] - total[("HEAD", name)][2]
                          for name, m in (("full read, 4-byte UID", 13.0),
                                          ("full read, 7-byte UID", 23.2)))
    scale = measured_python / sum(total[("HEAD", name)][0]
                                  for name in ("full read, 4-byte UID", "full read, 7-byte UID"))
    print("  the board's Python part of the two reads is %.2f x the model's: the figures"
          % scale)
    print("  below are given as modelled and with Python x %.2f (calibrated)" % scale)
    print()
    for which in ("HEAD", "new"):
        print("  confirmed new tag (first look + re-read), %s: %.1f ms (calibrated %.1f)" % (
            which, sum(total[(which, FIRST)]) + sum(total[(which, AGAIN)]),
            sum(total[(which, FIRST)]) + sum(total[(which, AGAIN)])
            + (scale - 1) * (total[(which, FIRST)][0] + total[(which, AGAIN)][0])))
    print()
    for k, label in ((1.0, "as modelled"), (scale, "calibrated, Python x %.2f" % scale)):
        schedule(total, k, label)


def schedule(total, k, label):
    """The busy fraction and latency table, Python time scaled by k."""
    def cpu_ms(name):
        py, wire, radio = total[("new", name)]
        return k * py + wire + radio       # radio here: waits inside the call
    costs = (cpu_ms("empty reader, one look") / 2, cpu_ms("held tag, one look") / 3,
             cpu_ms(FIRST), cpu_ms(AGAIN))
    print("Reader task (new driver), %s: busy = looks per second x CPU per look / 1000 ms."
          % label)
    print("Latency: a 7-byte tag put on seat 0 at a random moment, to its TAG_PLACED")
    print("reaching the app; a tag held on every other reader, buttons %.2f ms every %d ms"
          % (BUTTON_COST_MS, BUTTONS_MS))
    print("(%d trials, seed 1); + app: with app_after_event_ms() = %.0f ms, a PLACEHOLDER."
          % (TRIALS, app_after_event_ms()))
    print()
    print("| period | busy, table empty | busy, 3 tags held | p50 | p90 | p99 | max "
          "| p50 + app | p99 + app | max + app |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for period in PERIODS_MS:
        per_s = 1000 / period
        idle = 6 * cpu_ms("empty reader, one look") * per_s / 1000
        busy = (3 * cpu_ms("empty reader, one look") + 3 * cpu_ms("held tag, one look")) \
            * per_s / 1000
        rng = random.Random(1)
        lat = percentiles([simulate(period, costs, rng) for _ in range(TRIALS)])
        app = app_after_event_ms()
        print("| %d ms | %.1f %% | %.1f %% | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |" % (
            period, 100 * idle, 100 * busy, lat[50], lat[90], lat[99], lat["max"],
            lat[50] + app, lat[99] + app, lat["max"] + app))
    print()


if __name__ == "__main__":
    main()
