"""hal/ws2812.py, the LED chain sent by PIO and DMA, checked on the wire.

The driver is imported on CPython with sim/hw/vrp2.py as its rp2 module, so
the very program it defines is assembled (by the stand-in, which encodes as
the board's assembler does: checked against pioasm's output) and its DMA
channel's transfers land in a recording state machine.  Those words are run
through a PIO emulator (rp2040-pio-emulator) cycle by cycle, and the pin's
level is read back as the LEDs would: every pulse against the WS2812B
datasheet's windows, the bits, their order and the latch between frames.
"""

import importlib
import pathlib
import sys
import time

import pytest

from hal.pixels import Pixels
from sim import mpy_wasm
from sim.hw.vrp2 import VRP2, unpack_ctrl
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames
from sim.ws2812_wire import Clock, emulator_settings, runs, wire_levels

# WS2812B datasheet: (nominal ns, tolerance ns) of each part of a bit, and the
# shortest low the LEDs take as the end of a frame (latch).
T0H, T1H, T0L, T1L, TOLERANCE_NS = 400, 800, 850, 450, 150
LATCH_NS = 280_000
BITS_PER_LED = 24
ROOT = pathlib.Path(__file__).resolve().parent.parent


# -- the emulated wire (sim/ws2812_wire.py runs it) ---------------------


def within(cycles, freq, nominal_ns):
    """Whether `cycles` at `freq` lasts nominal_ns +- the tolerance."""
    ns = cycles * 1_000_000_000
    return (nominal_ns - TOLERANCE_NS) * freq <= ns <= (nominal_ns + TOLERANCE_NS) * freq


def read_wire(levels, freq):
    """What the LEDs read from the line: the frames (bytes, MSB first) each
    ended by a latch, and every pulse outside the datasheet's windows."""
    frames, faults, bits = [], [], []
    pulses = runs(levels)
    if pulses and pulses[0][0] == 0:
        pulses = pulses[1:]
    for i in range(0, len(pulses), 2):
        high = pulses[i][1]
        low = pulses[i + 1][1] if i + 1 < len(pulses) else 0
        bit = 1 if within(high, freq, T1H) else 0 if within(high, freq, T0H) else None
        if bit is None:
            faults.append("bit %d: high %d cycles" % (len(bits), high))
        elif not within(low, freq, T1L if bit else T0L) and low * 1_000_000_000 < LATCH_NS * freq:
            faults.append("bit %d: low %d cycles" % (len(bits), low))
        bits.append(bit or 0)
        if low * 1_000_000_000 >= LATCH_NS * freq:
            if len(bits) % 8:
                faults.append("a frame of %d bits" % len(bits))
            frames.append(bits)
            bits = []
    if bits:
        faults.append("%d bits never latched" % len(bits))
    return [pack(f) for f in frames], faults


def pack(bits):
    """Bits, MSB first, as bytes (a partial last byte is dropped: a fault)."""
    return bytes(
        sum(bit << (7 - k) for k, bit in enumerate(bits[i : i + 8]))
        for i in range(0, len(bits) - 7, 8)
    )


def cycles_of(us, freq):
    return us * freq // 1_000_000


# -- the driver on the stand-in rp2 ----------------------------------------


@pytest.fixture
def board(monkeypatch):
    """hal.ws2812 imported afresh over a fresh stand-in rp2 and a fake clock."""
    rp2, clock = VRP2(), Clock()
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setattr(time, "ticks_us", clock.ticks_us, raising=False)
    monkeypatch.setattr(time, "ticks_diff", clock.ticks_diff, raising=False)
    monkeypatch.delitem(sys.modules, "hal.ws2812", raising=False)
    ws2812 = importlib.import_module("hal.ws2812")
    yield ws2812, rp2, clock
    sys.modules.pop("hal.ws2812", None)


def stamp_transfers(monkeypatch, sm, clock):
    """The clock reading at every transfer into `sm`."""
    times = []
    put = sm.put

    def stamped(value, shift=0):
        times.append(clock.now)
        put(value, shift)

    monkeypatch.setattr(sm, "put", stamped)
    return times


def grb(frame):
    """An RGB frame as the WS2812B wants it on the wire."""
    out = bytearray()
    for i in range(0, len(frame), 3):
        out += bytes((frame[i + 1], frame[i], frame[i + 2]))
    return bytes(out)


# Bit patterns that read differently MSB first and LSB first.
FRAME = bytes([0x80, 0x01, 0x12, 0xF0, 0x0E, 0xC4, 0x00, 0xFF, 0x35])


def test_the_stand_in_assembles_as_pioasm_does():
    """MicroPython's own WS2812 example program (examples/rp2/pio_ws2812.py)
    gives the words pioasm gives the same program in pico-examples (ws2812.pio)."""
    rp2 = VRP2()
    source = (
        "@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,\n"
        "             autopull=True, pull_thresh=24)\n"
        "def ws2812():\n"
        "    T1 = 2\n"
        "    T2 = 5\n"
        "    T3 = 3\n"
        "    wrap_target()\n"
        "    label('bitloop')\n"
        "    out(x, 1)               .side(0)    [T3 - 1]\n"
        "    jmp(not_x, 'do_zero')   .side(1)    [T1 - 1]\n"
        "    jmp('bitloop')          .side(1)    [T2 - 1]\n"
        "    label('do_zero')\n"
        "    nop()                   .side(0)    [T2 - 1]\n"
        "    wrap()\n"
    )
    namespace = {"rp2": rp2}
    exec(source, namespace)
    program = namespace["ws2812"]
    assert list(program[0]) == [0x6221, 0x1123, 0x1400, 0xA442]
    assert emulator_settings(program) == dict(
        wrap_target=0,
        wrap_top=3,
        side_set_count=1,
        side_set_base=0,
        auto_pull=True,
        pull_threshold=24,
        shift_osr_right=False,
    )
    assert namespace["rp2"] is rp2  # the globals are back


def test_the_wire_reader_catches_what_the_leds_would_misread():
    freq = 16_000_000  # 62.5 ns a cycle
    good_zero, good_one = [1] * 6 + [0] * 14, [1] * 13 + [0] * 7
    latch = [0] * cycles_of(300, freq)
    frames, faults = read_wire([0] * 5 + (good_one + good_zero * 7) + latch, freq)
    assert frames == [b"\x80"] and faults == []
    short_high = [1] * 3 + [0] * 14  # 187.5 ns: neither a 0 nor a 1
    long_low = [1] * 13 + [0] * 12  # a 1 whose low lasts 750 ns
    _, faults = read_wire(short_high + good_zero * 5 + long_low + good_zero + latch, freq)
    assert faults == ["bit 0: high 3 cycles", "bit 6: low 12 cycles"]
    _, faults = read_wire(good_zero * 9 + latch, freq)
    assert faults == ["a frame of 9 bits"]
    _, faults = read_wire(good_one * 8, freq)  # never latched
    assert faults == ["8 bits never latched"]


def test_a_frame_goes_out_grb_msb_first_within_the_datasheet_windows(board):
    ws2812, rp2, _ = board
    strip = ws2812.WS2812("pin 7", 3)
    strip.buf[:] = grb(FRAME)
    strip.write()
    sm = rp2.machines[0]
    levels = wire_levels(sm.program, [(0, sm.puts[-1])], cycles_of(3 * 30 + 300, sm.freq) + 40)
    frames, faults = read_wire(levels, sm.freq)
    assert faults == []
    assert frames == [grb(FRAME)]


def test_bits_go_at_800_kbit_s_then_the_line_stays_low(board):
    ws2812, rp2, _ = board
    n = 4
    strip = ws2812.WS2812("pin 7", n)
    strip.buf[:] = bytes(range(0xA0, 0xA0 + 3 * n))
    strip.write()
    sm = rp2.machines[0]
    levels = wire_levels(sm.program, [(0, sm.puts[-1])], cycles_of(n * 30 + 1000, sm.freq))
    rises = [i for i in range(1, len(levels)) if levels[i] and not levels[i - 1]]
    assert len(rises) == BITS_PER_LED * n
    # 1.25 us from each bit's start to the next: the wire is busy 30 us per LED.
    periods = {(b - a) * 1_000_000_000 for a, b in zip(rises, rises[1:], strict=False)}
    assert periods == {1250 * sm.freq}
    last_fall = max(i for i, level in enumerate(levels) if level) + 1
    assert not any(levels[last_fall:])


def test_pixels_write_the_limited_frame_through_the_state_machine(board):
    ws2812, rp2, _ = board
    n = 3
    px = Pixels(ws2812.WS2812("pin 7", n), budget_ma=40)
    frame = bytes([255, 200, 150, 0, 255, 10, 90, 90, 90])  # the app's order: G, R, B
    px.show(frame)
    assert 0 < px.last_scale < 256  # over budget: dimmed
    limited = bytes((v * px.last_scale) >> 8 for v in frame)
    sm = rp2.machines[0]
    assert sm.top_bytes() == limited
    levels = wire_levels(sm.program, [(0, sm.puts[-1])], cycles_of(n * 30 + 300, sm.freq) + 40)
    assert read_wire(levels, sm.freq) == ([limited], [])
    px.show(bytes(3 * n))
    assert sm.top_bytes() == bytes(3 * n)
    assert len(sm.puts) == 2  # one transfer per frame, no per-LED calls


@pytest.mark.parametrize("sm_id, dreq", [(0, 0), (3, 3), (4, 8), (7, 11)])
def test_the_dma_channel_feeds_the_state_machine_paced_by_its_fifo(board, sm_id, dreq):
    ws2812, rp2, _ = board
    strip = ws2812.WS2812("pin 7", 56, sm_id=sm_id)
    sm = rp2.machines[sm_id]
    assert sm.active() and sm.sideset_base == "pin 7"
    dma = rp2.channels[0]
    assert dma.write is sm and dma.read is strip.buf and dma.count == 3 * 56
    ctrl = unpack_ctrl(dma.ctrl)
    # One byte per FIFO word, from successive bytes of buf into the one FIFO
    # register, at the pace of the FIFO's DREQ (RP2040 datasheet 2.5.3.1).
    assert (ctrl["enable"], ctrl["size"], ctrl["inc_read"], ctrl["inc_write"]) == (1, 0, 1, 0)
    assert ctrl["treq_sel"] == dreq


def test_a_frame_waits_for_the_previous_one_to_latch(board, monkeypatch):
    ws2812, rp2, clock = board
    n = 56
    strip = ws2812.WS2812("pin 7", n)
    sm = rp2.machines[0]
    times = stamp_transfers(monkeypatch, sm, clock)
    clock.now += 10_000
    strip.buf[:] = bytes([0xFF]) * (3 * n)
    strip.write()
    strip.buf[:] = bytes([0x0F]) * (3 * n)
    strip.write()  # at once: must wait
    assert times[1] - times[0] >= n * 30 + LATCH_NS // 1000
    feeds = [
        (cycles_of(t - times[0], sm.freq), words) for t, words in zip(times, sm.puts, strict=True)
    ]
    end = feeds[-1][0] + cycles_of(n * 30 + 300, sm.freq) + 40
    frames, faults = read_wire(wire_levels(sm.program, feeds, end), sm.freq)
    assert faults == []
    assert frames == [bytes([0xFF]) * (3 * n), bytes([0x0F]) * (3 * n)]


def test_a_frame_long_after_the_last_goes_at_once(board, monkeypatch):
    ws2812, rp2, clock = board
    strip = ws2812.WS2812("pin 7", 56)
    times = stamp_transfers(monkeypatch, rp2.machines[0], clock)
    for idle_us in (20_000, (1 << 29) + 5):  # a 20 ms frame; half a ticks period
        clock.now += idle_us
        called = clock.now
        strip.write()
        assert times[-1] - called <= 2  # the clock read once, then sent


def test_write_keeps_its_frame_on_the_c_stack(tmp_path):
    """mpy-cross names write() by a static qstr number: learn it from probes."""
    with_write, without = tmp_path / "a.py", tmp_path / "b.py"
    with_write.write_text("class A:\n    def write(self):\n        pass\n")
    without.write_text("class A:\n    pass\n")
    (write,) = {name for name, _, _ in function_frames(with_write)} - {
        name for name, _, _ in function_frames(without)
    }
    frames = {
        name: frame_words(s, e)
        for name, s, e in function_frames(ROOT / "firmware" / "hal" / "ws2812.py")
    }
    assert frames[write] <= C_STACK_FRAME_WORDS


MPY_SCRIPT = r"""
import gc
import sys
from sim.hw.vrp2 import VRP2, VDMA

class Quiet(VDMA):
    # A channel that only counts its transfers: the recorder would allocate.
    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if trigger:
            self.transfers += 1

rp2 = VRP2()
channel = Quiet(0)
rp2.DMA = lambda: channel
sys.modules["rp2"] = rp2
from hal.ws2812 import WS2812, ws2812_program
print(list(ws2812_program[0]), ws2812_program[3], ws2812_program[4])
strip = WS2812(None, 56)
#: next run
gc.collect()
gc.disable()
before = gc.mem_alloc()
for i in range(50):
    strip.write()
after = gc.mem_alloc()
gc.enable()
print("write heap", after - before, channel.transfers)
"""


def test_write_allocates_nothing_under_micropython(board):
    ws2812, _, _ = board
    out = mpy_wasm.run(MPY_SCRIPT).splitlines()
    program = ws2812.ws2812_program
    assert out[0] == "%r %d %d" % (list(program[0]), program[3], program[4])
    assert out[1] == "write heap 0 50"
