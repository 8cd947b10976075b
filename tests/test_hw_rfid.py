"""The MFRC522 driver (firmware/hal) against its register-level twin (sim/hw).

The real driver talks over the virtual SPI bus to virtual chips with virtual
tags on their antennas; nothing in between is mocked.  The same scenario also
runs under real MicroPython, with identical events, and a poll allocates no
heap there.
"""

import random

import pytest

import mpy_wasm
from dicetable.app import events
from hal import mfrc522 as drv
from hal.readers import Readers
from sim.hw import vmfrc522 as vm
from sim.hw.clock import Clock
from sim.hw.vmfrc522 import ResetLine, VMFRC522
from sim.hw.vspi import VSPI, BusError
from sim.hw.vtag import HALT, IDLE, VTag, crc_a

PLACED, REMOVED, TWO = events.TAG_PLACED, events.TAG_REMOVED, events.TWO_TAGS
FAULT, OK = events.READER_FAULT, events.READER_OK
CENTRE = events.CENTRE

UID4 = bytes.fromhex("5A1B2C3D")
UID4B = bytes.fromhex("71E2D3C4")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID7B = bytes.fromhex("04A1B2112233AA")   # same cascade level 1 as UID7
FAST = 10_000_000                           # the MFRC522's fastest SPI clock


class Bench:
    """Virtual chips on one virtual bus, the real Readers on top."""

    def __init__(self, n=1, baud=1_000_000, absent=(), as_dict=False, reset=False):
        self.clock = Clock()
        self.bus = VSPI(self.clock, baud)
        self.chips = [None if i in absent else VMFRC522(self.clock, name=str(i))
                      for i in range(n)]
        self.pins = [None if c is None else self.bus.cs(c) for c in self.chips]
        self.line = ResetLine([c for c in self.chips if c]) if reset else None
        cs = {i: p for i, p in enumerate(self.pins) if p} if as_dict else self.pins
        self.readers = Readers(self.bus, cs, self.line)
        self.events = []

    def emit(self, event, reader, uid):
        assert (uid is not None) == (event == PLACED)
        self.events.append((event, reader, uid))

    def poll(self, times=1, i=None):
        """Poll reader i (or every reader) `times` times; return and forget the events."""
        for _ in range(times):
            if i is None:
                self.readers.poll_all(self.emit)
            else:
                self.readers.poll(i, self.emit)
        got, self.events = self.events, []
        return got


def ready_chip(baud=1_000_000):
    clock = Clock()
    bus = VSPI(clock, baud)
    chip = VMFRC522(clock)
    driver = drv.MFRC522(bus, bus.cs(chip))
    assert driver.init()
    return clock, bus, chip, driver


# --- the SPI protocol and the set-up --------------------------------------------

def test_register_access_uses_the_datasheet_address_byte():
    clock, bus, chip, driver = ready_chip()
    bus.trace = []
    assert driver.read(vm.VersionReg) == 0x92
    assert [t[1] for t in bus.trace] == [((0x37 << 1) & 0x7E) | 0x80, 0x00]
    bus.trace = []
    driver.write(vm.TPrescalerReg, 0x5A)
    assert [t[1] for t in bus.trace] == [(0x2B << 1) & 0x7E, 0x5A]
    assert chip.regs[vm.TPrescalerReg] == 0x5A
    assert all(p.value() == 1 for p in bus._pins)   # chip-select released


def test_crc_a_comes_from_the_chips_coprocessor():
    clock, bus, chip, driver = ready_chip()
    runs = chip.crc_runs
    frame = bytes((0x93, 0x70)) + UID4 + bytes((UID4[0] ^ UID4[1] ^ UID4[2] ^ UID4[3],))
    assert driver.crc(frame, len(frame)) == crc_a(frame)
    assert driver.crc(b"\x50\x00", 2) == 0xCD57        # HLTA's CRC_A, ISO/IEC 14443-3
    assert chip.crc_runs == runs + 2


def test_init_resets_and_programs_the_timer_the_modulation_and_the_field():
    clock, bus, chip, driver = ready_chip()
    regs = chip.regs
    assert chip.soft_resets == 1
    assert regs[vm.TModeReg] & 0x80                      # TAuto
    prescaler = ((regs[vm.TModeReg] & 0x0F) << 8) | regs[vm.TPrescalerReg]
    reload = (regs[vm.TReloadRegH] << 8) | regs[vm.TReloadRegL]
    # t = (2 * TPrescaler + 1) * (TReload + 1) / 13.56 MHz
    assert (2 * prescaler + 1) * (reload + 1) * 100 // 1356 == drv.TIMEOUT_US == 1000
    assert regs[vm.TxASKReg] == 0x40                     # Force100ASK
    assert regs[vm.ModeReg] & 0x03 == 0x01               # CRC preset 6363h
    assert regs[vm.TxControlReg] & 0x03 == 0x03          # antenna on
    assert chip._field_on()


def test_the_model_takes_no_writes_until_its_oscillator_runs():
    clock = Clock()
    bus = VSPI(clock)
    chip = VMFRC522(clock)
    driver = drv.MFRC522(bus, bus.cs(chip))
    driver.write(vm.TReloadRegL, 77)                     # too early: ignored
    assert driver.read(vm.TReloadRegL) == 0
    assert driver.read(vm.CommandReg) & vm.POWER_DOWN
    clock.advance(vm.WAKE_US)
    assert not driver.read(vm.CommandReg) & vm.POWER_DOWN
    driver.write(vm.TReloadRegL, 77)
    assert driver.read(vm.TReloadRegL) == 77


def test_two_chip_selects_low_at_once_is_caught():
    clock = Clock()
    bus = VSPI(clock)
    a, b = bus.cs(VMFRC522(clock)), bus.cs(VMFRC522(clock))
    a(0)
    with pytest.raises(BusError):
        b(0)


# --- timeouts come from the chip's timer ----------------------------------------

@pytest.mark.parametrize("baud", [1_000_000, FAST])
def test_a_missing_tag_ends_on_the_chips_timer(baud):
    clock, bus, chip, driver = ready_chip(baud)
    irqs = chip.timer_irqs
    bus.trace = []
    t0 = clock.now_us
    assert driver.transceive(b"\x26", 7) == drv.NO_TAG
    elapsed = clock.now_us - t0
    assert chip.timer_irqs == irqs + 1
    irq = chip.peek(vm.ComIrqReg)
    assert irq & vm.TIMER_IRQ and not irq & vm.RX_IRQ
    tx = vm.air_us(9)                                    # REQA on the air
    assert drv.TIMEOUT_US + tx <= elapsed < drv.TIMEOUT_US + tx + 300
    polls = sum(1 for t in bus.trace if t[1] == ((vm.ComIrqReg << 1) | 0x80))
    assert polls < drv._GUARD_RX


def test_the_wait_follows_the_programmed_timer_not_a_count():
    clock, bus, chip, driver = ready_chip()
    driver.write(vm.TReloadRegL, 79)                     # 80 ticks of 25 us: 2 ms
    t0 = clock.now_us
    assert driver.transceive(b"\x26", 7) == drv.NO_TAG
    assert 2000 <= clock.now_us - t0 < 2300
    # Without TAuto the timer never starts: only the dead-chip guard ends the wait.
    driver.write(vm.TModeReg, 0x00)
    irqs = chip.timer_irqs
    bus.trace = []
    assert driver.transceive(b"\x26", 7) == drv.DEAD
    assert chip.timer_irqs == irqs
    polls = sum(1 for t in bus.trace if t[1] == ((vm.ComIrqReg << 1) | 0x80))
    assert polls == drv._GUARD_RX


# --- reading UIDs ------------------------------------------------------------------

@pytest.mark.parametrize("baud", [1_000_000, FAST])
@pytest.mark.parametrize("uid", [UID4, UID7], ids=["4-byte", "7-byte"])
def test_a_uid_is_read_and_reported_after_a_confirming_re_read(uid, baud):
    bench = Bench(baud=baud)
    chip = bench.chips[0]
    tag = VTag(uid)
    chip.place(tag)
    assert bench.poll() == []                            # one read: not yet
    assert tag.state == HALT                             # HLTA after the read
    assert bench.poll() == [(PLACED, 0, uid)]
    assert bench.poll(10) == []
    assert bench.readers.holding(0) == uid
    assert tag.selects == 12 and tag.halts == 12
    assert chip.reqa == 1 and chip.wupa == 11            # REQA finds it, WUPA re-reads
    chip.remove(tag)
    assert bench.poll() == []                            # one miss: not yet
    assert bench.poll() == [(REMOVED, 0, None)]
    assert bench.poll(3) == []


def test_read_uid_levels_and_sak():
    clock, bus, chip, driver = ready_chip()
    uid = bytearray(10)
    assert driver.read_uid(uid, wake=False) == drv.NO_TAG
    tag = VTag(UID7)
    chip.place(tag)
    assert driver.read_uid(uid) == 7 and bytes(uid[:7]) == UID7
    assert driver.read_uid(uid) == drv.NO_TAG             # halted: REQA does not reach it
    assert driver.read_uid(uid, wake=True) == 7           # WUPA does
    chip.remove(tag)
    chip.place(VTag(UID4))
    assert driver.read_uid(uid) == 4 and bytes(uid[:4]) == UID4


def test_select_needs_the_right_crc_preset():
    clock, bus, chip, driver = ready_chip()
    tag = VTag(UID4)
    chip.place(tag)
    driver.write(vm.ModeReg, 0x3C)                        # CRC preset 0000h: wrong CRC_A
    assert driver.read_uid(bytearray(10)) == drv.ERROR
    assert tag.selects == 0 and tag.state == IDLE


def test_a_garbled_uid_is_never_reported():
    class BadBcc(VTag):
        def cascade(self, level):
            cl = bytearray(VTag.cascade(self, level))
            cl[4] ^= 0x01
            return bytes(cl)

    bench = Bench()
    bench.chips[0].place(BadBcc(UID4))
    assert bench.poll(10) == []
    uid = bytearray(10)
    assert bench.readers.chips[0].read_uid(uid, wake=True) == drv.ERROR


# --- two tags ----------------------------------------------------------------------

@pytest.mark.parametrize("first, second", [(UID4, UID4B), (UID4, UID7), (UID7, UID7B)],
                         ids=["4+4", "4+7 (ATQAs differ)", "7+7 (same level 1)"])
def test_two_tags_report_two_tags_and_no_uid(first, second):
    bench = Bench()
    chip = bench.chips[0]
    a, b = VTag(first), VTag(second)
    chip.place(a)
    chip.place(b)
    assert bench.poll() == []
    assert chip.peek(vm.ErrorReg) & vm.COLL_ERR
    assert bench.poll() == [(TWO, 0, None)]
    assert bench.poll(5) == []
    assert a.selects == 0 or b.selects == 0 or first[:3] != second[:3]
    chip.remove(b)
    assert bench.poll(2) == [(REMOVED, 0, None), (PLACED, 0, first)]
    chip.remove(a)
    assert bench.poll(2) == [(REMOVED, 0, None)]


def test_a_second_tag_on_a_held_one():
    bench = Bench()
    chip = bench.chips[0]
    a, b = VTag(UID4), VTag(UID7)
    chip.place(a)
    assert bench.poll(2) == [(PLACED, 0, UID4)]
    chip.place(b)                                         # the held tag is halted: WUPA wakes it
    assert bench.poll(2) == [(REMOVED, 0, None), (TWO, 0, None)]
    chip.remove(a)
    assert bench.poll(2) == [(REMOVED, 0, None), (PLACED, 0, UID7)]


# --- flicker at the antenna's edge -----------------------------------------------

def expected_events(pattern, polls):
    """Reference: a state changes when two consecutive polls agree on it."""
    got, state, last = [], 0, None
    for k in range(polls):
        seen = 1 if pattern[k % len(pattern)] == "1" else 0
        if seen == last and seen != state:
            got.append((PLACED, 0, UID4) if seen else (REMOVED, 0, None))
            state = seen
        last = seen
    return got


@pytest.mark.parametrize("pattern, expected", [
    ("10", []),
    ("01", []),
    ("110", [(PLACED, 0, UID4)]),
    ("1101", [(PLACED, 0, UID4)]),
    ("1100", [(PLACED, 0, UID4), (REMOVED, 0, None)] * 5),
])
def test_flicker_produces_no_spurious_events(pattern, expected):
    bench = Bench()
    bench.chips[0].flicker(VTag(UID4), pattern)
    assert bench.poll(20) == expected
    assert expected == expected_events(pattern, 20)


def test_flicker_matches_the_two_poll_rule_on_random_patterns():
    rng = random.Random(20260522)
    for _ in range(12):
        pattern = "".join(rng.choice("0111") for _ in range(rng.randrange(2, 9)))
        bench = Bench()
        bench.chips[0].flicker(VTag(UID4), pattern)
        assert bench.poll(24) == expected_events(pattern, 24), pattern


def test_a_halted_tag_that_was_missed_is_found_by_the_wupa_sweep():
    bench = Bench()
    chip = bench.chips[0]
    assert bench.poll(3) == []                            # initialised, field on
    tag = VTag(UID4)
    chip.place(tag)
    tag.state = HALT                                      # halted, then lost by the reader
    assert bench.poll(4) == []                            # REQA does not reach it
    assert chip.wupa == 0
    assert bench.poll(8) == [(PLACED, 0, UID4)]           # the 8th quiet poll uses WUPA


# --- faults ------------------------------------------------------------------------

def counting_init(readers, i):
    chip = readers.chips[i]
    calls = []
    real = chip.init

    def init():
        calls.append(1)
        return real()
    chip.init = init
    return calls


@pytest.mark.parametrize("miso", [0x00, 0xFF], ids=["MISO low", "MISO stuck high"])
def test_a_silent_reader_faults_once_and_comes_back(miso):
    bench = Bench(3)
    tags = [VTag(UID4), VTag(UID7), VTag(UID4B)]
    for chip, tag in zip(bench.chips, tags):
        chip.place(tag)
    assert bench.poll(2) == [(PLACED, 0, UID4), (PLACED, 1, UID7), (PLACED, 2, UID4B)]
    bench.chips[1].silence(miso)
    assert bench.poll() == [(REMOVED, 1, None), (FAULT, 1, None)]
    attempts = counting_init(bench.readers, 1)
    # The others keep working while reader 1 stays quiet.
    bench.chips[0].remove(tags[0])
    bench.chips[0].place(VTag(UID7B))
    assert bench.poll(2) == [(REMOVED, 0, None), (PLACED, 0, UID7B)]
    assert bench.poll(60) == []
    assert bench.readers.faulty(1)
    assert 5 <= len(attempts) <= 7                        # back-off: 1, 2, 4 .. 32 polls
    bench.chips[1].revive()
    got = bench.poll(34)
    assert got == [(OK, 1, None), (PLACED, 1, UID7)]
    assert not bench.readers.faulty(1)


def test_a_reader_that_is_dead_from_the_start_is_reported_at_its_first_poll():
    bench = Bench(2)
    bench.chips[1].silence()
    assert bench.poll() == [(FAULT, 1, None)]
    assert bench.poll(40) == []


def test_a_stalled_chip_is_caught_by_the_guard():
    bench = Bench(2)
    bench.chips[0].place(VTag(UID4))
    bench.chips[1].place(VTag(UID4B))
    assert bench.poll(2) == [(PLACED, 0, UID4), (PLACED, 1, UID4B)]
    bench.chips[0].stall()                                # answers SPI, never finishes a frame
    assert bench.readers.chips[0].alive()
    assert bench.poll() == [(REMOVED, 0, None), (FAULT, 0, None)]
    assert bench.poll(3) == []
    bench.chips[0].revive()
    assert bench.poll(4) == [(OK, 0, None), (PLACED, 0, UID4)]


def test_a_brown_out_is_configured_again_without_events():
    bench = Bench()
    chip = bench.chips[0]
    chip.place(VTag(UID4))
    assert bench.poll(2) == [(PLACED, 0, UID4)]
    resets = chip.soft_resets
    chip.revive()                                         # power dipped: registers at reset values
    chip.clock.advance(vm.WAKE_US)
    assert bench.poll(5) == []
    assert chip.soft_resets == resets + 1
    assert bench.readers.holding(0) == UID4


# --- several readers on one bus --------------------------------------------------

@pytest.mark.parametrize("as_dict", [False, True], ids=["list", "dict"])
def test_placed_and_removed_on_several_readers_on_one_bus(as_dict):
    # Seats 0-5 and the centre; seat 3 has no reader.
    bench = Bench(CENTRE + 1, absent=(3,), as_dict=as_dict, reset=True)
    assert bench.line.pulses == 1
    assert bench.readers.indices == [0, 1, 2, 4, 5, CENTRE]
    chips = bench.chips
    a, b, c = VTag(UID4), VTag(UID7), VTag(UID4B)
    chips[0].place(a)
    chips[CENTRE].place(b)
    assert bench.poll() == []
    assert bench.poll() == [(PLACED, 0, UID4), (PLACED, CENTRE, UID7)]
    chips[0].remove(a)
    chips[5].place(a)
    chips[1].place(c)
    assert bench.poll(2) == [(REMOVED, 0, None), (PLACED, 1, UID4B), (PLACED, 5, UID4)]
    chips[CENTRE].remove(b)
    chips[1].remove(c)
    chips[4].place(b)
    assert bench.poll(2) == [(REMOVED, 1, None), (PLACED, 4, UID7), (REMOVED, CENTRE, None)]
    assert bench.poll(3, i=3) == []                       # no reader there: nothing happens
    assert bench.poll(4) == []
    assert all(p is None or p.value() == 1 for p in bench.pins)


# --- under real MicroPython ------------------------------------------------------

SCENARIO = r"""
from dicetable.app import events
from sim.hw.clock import Clock
from sim.hw.vspi import VSPI
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vtag import VTag
from hal.readers import Readers

def scenario():
    clock = Clock()
    bus = VSPI(clock, 4000000)
    chips = [VMFRC522(clock) for _ in range(3)]
    readers = Readers(bus, [bus.cs(c) for c in chips])
    log = []
    def emit(event, reader, uid):
        log.append((event, reader, uid))
    def step(note, times=2):
        for _ in range(times):
            readers.poll_all(emit)
        print(note, repr(log), clock.now_us)
        del log[:]
    a = VTag(b'\x5a\x1b\x2c\x3d')
    b = VTag(b'\x04\xa1\xb2\xc3\xd4\xe5\xf6')
    c = VTag(b'\x71\xe2\xd3\xc4')
    chips[0].place(a)
    chips[1].place(b)
    step('placed')
    chips[1].place(c)
    step('two')
    chips[1].remove(b)
    step('one left')
    chips[2].flicker(b, '1101')
    step('flicker', 8)
    chips[0].silence()
    step('silent', 4)
    chips[0].revive()
    step('revived', 36)
    chips[0].remove(a)
    step('removed')

scenario()
"""

HEAP = r"""
import gc
from sim.hw.clock import Clock
from sim.hw.vspi import VSPI
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vtag import VTag
from hal.readers import Readers

class Replay:
    # Plays back the MISO bytes of one recorded poll without allocating.
    def __init__(self, miso):
        self.miso = miso
        self.k = 0
    def _next(self):
        v = self.miso[self.k]
        self.k += 1
        if self.k == len(self.miso):
            self.k = 0
        return v
    def write(self, buf):
        for i in range(len(buf)):
            self._next()
    def readinto(self, buf, write_byte=0):
        for i in range(len(buf)):
            buf[i] = self._next()
    def write_readinto(self, wbuf, rbuf):
        for i in range(len(wbuf)):
            rbuf[i] = self._next()

class Pin:
    def __call__(self, v=None):
        return None

def measure(uid):
    clock = Clock()
    bus = VSPI(clock)
    chip = VMFRC522(clock)
    readers = Readers(bus, [bus.cs(chip)])
    log = []
    def emit(event, reader, u):
        log.append(event)
    if uid:
        chip.place(VTag(uid))
    for i in range(4):
        readers.poll(0, emit)
    bus.trace = []
    readers.poll(0, emit)
    readers.chips[0].spi = Replay(bytearray([t[2] for t in bus.trace]))
    readers.chips[0].cs = Pin()
    readers.poll(0, emit)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(50):
        readers.poll(0, emit)
    grown = gc.mem_alloc() - before
    gc.enable()
    print(len(log), grown, readers.holding(0))

for uid in (None, b'\x5a\x1b\x2c\x3d', b'\x04\xa1\xb2\xc3\xd4\xe5\xf6'):
    measure(uid)
"""


def run_on_cpython(source):
    lines = []

    def capture(*args):
        lines.append(" ".join(str(a) for a in args))
    exec(source, {"print": capture, "__name__": "scenario"})
    return lines


def test_driver_and_model_give_the_same_events_under_micropython():
    expected = run_on_cpython(SCENARIO)
    assert expected[0].startswith("placed [(1, 0, b'Z\\x1b,=')")
    assert any(line.startswith("revived [(5, 0, None), (1, 0,") for line in expected)
    assert mpy_wasm.run(SCENARIO).splitlines() == expected


def test_a_poll_allocates_no_heap_under_micropython():
    lines = mpy_wasm.run(HEAP).splitlines()
    # events seen while recording, heap bytes grown over 50 polls, what is held
    assert lines == ["0 0 None",
                     "1 0 b'Z\\x1b,='",
                     "1 0 b'\\x04\\xa1\\xb2\\xc3\\xd4\\xe5\\xf6'"]
