"""The board drivers on virtual hardware: the pin map, the buttons, the
NeoPixel current limiter and the optional display (hal/*, sim/hw/*)."""

import ast
import pathlib
import re
import sys
import types

import pins
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.app.events import LONG, MINUS, OK, PLUS
from dicetable.app.frames import ORDER as FRAME_ORDER
from hal.buttons import Buttons, input_pins
from hal.display import Display
from hal.pixels import Pixels, estimate_ma
from hardware.rp2040 import PICO_GPIOS
from sim import mpy_wasm
from sim.hw.rig import take_presses
from sim.hw.vbuttons import VButtons
from sim.hw.vpin import VDecoder, VPin
from sim.hw.vpixels import VNeoPixel, VStrip
from sim.hw.vpixels_portable import RecordingNeoPixel, decode
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"

# -- the pin map ------------------------------------------------------------

# The RP2040's function tables live in hardware/rp2040.py; the SPI and I2C
# signals are checked against them by tests/test_hardware_docs.py (pinmap.problems).


def gpios():
    """Every GPIO the pin map uses, with its name."""
    used = [
        ("MAINTENANCE", pins.MAINTENANCE),
        ("SPI_SCK", pins.SPI_SCK),
        ("SPI_MOSI", pins.SPI_MOSI),
        ("SPI_MISO", pins.SPI_MISO),
        ("READER_RESET", pins.READER_RESET),
        ("I2C_SDA", pins.I2C_SDA),
        ("I2C_SCL", pins.I2C_SCL),
        ("NEOPIXEL", pins.NEOPIXEL),
    ]
    used += [("CS_ADDRESS", p) for p in pins.CS_ADDRESS]
    used += [("BUTTONS", p) for trio in pins.BUTTONS for p in trio]
    return used


def test_the_pin_map_is_constants_only():
    tree = ast.parse((FIRMWARE / "pins.py").read_text())
    assert ast.get_docstring(tree)
    for node in tree.body[1:]:
        assert isinstance(node, ast.Assign), ast.dump(node)
        values = [node.value]
        while values:
            v = values.pop()
            if isinstance(v, ast.Tuple):
                values.extend(v.elts)
            else:
                assert isinstance(v, ast.Constant) and isinstance(v.value, int), ast.dump(v)


def docstring_table():
    """{gpio: description} from the pin table in pins.py's docstring."""
    table = {}
    doc = ast.get_docstring(ast.parse((FIRMWARE / "pins.py").read_text()))
    for line in doc.splitlines():
        m = re.match(r"\s+GP(\d+)(?:-GP(\d+))?\s+(.+)$", line)
        if m:
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            for n in range(first, last + 1):
                table[n] = m.group(3)
    return table


KEYWORDS = {
    "MAINTENANCE": "maintenance",
    "SPI_SCK": "SCK",
    "SPI_MOSI": "MOSI",
    "SPI_MISO": "MISO",
    "READER_RESET": "reset",
    "I2C_SDA": "SDA",
    "I2C_SCL": "SCL",
    "NEOPIXEL": "NeoPixel",
    "CS_ADDRESS": "decoder A",
    "BUTTONS": "buttons",
}


def test_every_gpio_is_a_pico_pin_and_used_once():
    used = gpios()
    numbers = [n for _, n in used]
    assert set(numbers) <= PICO_GPIOS
    assert len(numbers) == len(set(numbers))
    # Five seats and the centre take every free GPIO.
    assert set(numbers) == PICO_GPIOS


def test_the_docstring_table_matches_the_map():
    table = docstring_table()
    assert set(table) == {n for _, n in gpios()}
    for name, n in gpios():
        assert KEYWORDS[name] in table[n], (name, n, table[n])
    for bit, n in enumerate(pins.CS_ADDRESS):
        assert table[n] == "decoder A%d" % bit


def test_the_chip_select_decoder_covers_every_reader():
    assert len(pins.CS_ADDRESS) == 3
    assert len(pins.CS_LINE) == 7  # seats 0-5, then the centre (6)
    assert len(set(pins.CS_LINE)) == 7
    assert pins.CS_IDLE not in pins.CS_LINE
    assert set(pins.CS_LINE) | {pins.CS_IDLE} == set(range(8))
    assert pins.CS_IDLE == 0  # what reset pull-downs give
    assert len(pins.BUTTONS) == 5 and all(len(t) == 3 for t in pins.BUTTONS)


def test_the_virtual_decoder_drives_one_line_low_at_a_time():
    outs = [None] + [VPin(1, "cs%d" % k) for k in range(1, 8)]
    dec = VDecoder(outs)
    assert dec.line() == 0 and all(p.value() == 1 for p in outs[1:])
    for address in (5, 7, 1, 6, 0, 3):
        for bit in range(3):
            dec.pins[bit].value((address >> bit) & 1)
            assert sum(1 for p in outs[1:] if p.value() == 0) <= 1
        assert dec.line() == address
        assert [p.value() for p in outs[1:]] == [0 if k == address else 1 for k in range(1, 8)]
        assert [dec.pins[b]() for b in range(3)] == [(address >> b) & 1 for b in range(3)]


def pin_calls_with_numbers(source):
    """Lines of Pin(<int>, ...) calls: a GPIO number outside pins.py."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            if name == "Pin" and node.args and isinstance(node.args[0], ast.Constant):
                yield node.lineno


def test_no_gpio_number_outside_the_pin_map():
    found = {
        str(p.relative_to(ROOT)): list(pin_calls_with_numbers(p.read_text()))
        for p in FIRMWARE.rglob("*.py")
        if p.name != "pins.py"
    }
    assert {k: v for k, v in found.items() if v} == {}
    sample = "Pin(25, Pin.OUT)\nmachine.Pin(3)\nPin(pins.NEOPIXEL)\nPin(n, Pin.IN)\n"
    assert list(pin_calls_with_numbers(sample)) == [1, 2]


def test_input_pins_makes_pulled_up_inputs():
    made = []

    class FakePin:
        IN, OUT, PULL_UP = 0, 1, 1

        def __init__(self, n, mode, pull):
            made.append((n, mode, pull))

    sys.modules["machine"] = types.SimpleNamespace(Pin=FakePin)
    try:
        trios = input_pins(pins.BUTTONS + (None,))
    finally:
        del sys.modules["machine"]
    assert trios[5] is None and all(len(t) == 3 for t in trios[:5])
    assert made == [(n, FakePin.IN, FakePin.PULL_UP) for t in pins.BUTTONS for n in t]


# -- buttons ----------------------------------------------------------------


def press_run(vb, until, step=5, start=None):
    """Poll Buttons over the VButtons until `until`; the events with their times."""
    buttons = Buttons(vb.pins)
    events = []
    vb.run(buttons, until, lambda seat, code: events.append((vb.now, seat, code)), step)
    return buttons, events


def test_a_short_press_is_reported_once_at_release():
    vb = VButtons(5)
    vb.press(2, OK, 100, 150)
    _, events = press_run(vb, 400)
    assert [(s, c) for _, s, c in events] == [(2, OK)]
    assert 250 + 20 <= events[0][0] <= 250 + 20 + 5  # after the release, debounced


def test_a_long_press_is_reported_at_release_not_before():
    vb = VButtons(5)
    vb.press(0, MINUS, 100, 1500)
    buttons = Buttons(vb.pins)
    events = []
    vb.run(buttons, 1500, lambda s, c: events.append((s, c)))
    assert events == [] and buttons.pressed(0, MINUS)
    vb.run(buttons, 1700, lambda s, c: events.append((s, c)))
    assert events == [(0, MINUS + LONG)] and not buttons.pressed(0, MINUS)


@pytest.mark.parametrize(
    "hold, code",
    [(40, PLUS), (599, PLUS), (600, PLUS + LONG), (601, PLUS + LONG), (5000, PLUS + LONG)],
)
def test_the_long_press_threshold(hold, code):
    vb = VButtons(5)
    vb.press(1, PLUS, 10, hold)
    _, events = press_run(vb, hold + 100, step=1)
    assert [(s, c) for _, s, c in events] == [(1, code)]


def test_the_press_is_timed_independently_of_the_poll_rate():
    for step in (1, 3, 7, 15):
        vb = VButtons(5)
        vb.press(1, OK, 10, 610)
        vb.press(1, MINUS, 1000, 590)
        _, events = press_run(vb, 2000, step=step)
        assert [(s, c) for _, s, c in events] == [(1, OK + LONG), (1, MINUS)], step


def test_contact_bounce_gives_one_press():
    vb = VButtons(5)
    vb.press(3, OK, 100, 200, bounce_ms=6)
    vb.press(3, OK, 500, 900, bounce_ms=9)
    vb.press(3, PLUS, 2000, 60, bounce_ms=5)
    _, events = press_run(vb, 3000, step=1)
    assert [(s, c) for _, s, c in events] == [(3, OK), (3, OK + LONG), (3, PLUS)]


def test_a_glitch_shorter_than_the_debounce_is_ignored():
    vb = VButtons(5)
    vb.press(4, MINUS, 100, 12)
    vb.press(4, PLUS, 200, 19)
    _, events = press_run(vb, 500, step=1)
    assert events == []


def test_two_buttons_held_together_are_two_presses():
    vb = VButtons(5)
    vb.press(0, MINUS, 100, 900)  # minus held (undo) ...
    vb.press(0, OK, 300, 100)  # ... while ok is tapped
    _, events = press_run(vb, 1500)
    assert [(s, c) for _, s, c in events] == [(0, OK), (0, MINUS + LONG)]


def test_several_seats_at_once_and_seats_not_wired():
    vb = VButtons([0, 2, 4])
    assert vb.pins[1] is None and vb.pins[3] is None
    for seat, code, at in ((0, PLUS, 100), (2, OK, 105), (4, MINUS, 110), (2, PLUS, 700)):
        vb.press(seat, code, at, 200 + seat)
    vb.hold(4, OK, 120)
    buttons, events = press_run(vb, 1500)
    assert sorted((s, c) for _, s, c in events) == sorted(
        [(0, PLUS), (2, OK), (4, MINUS), (2, PLUS), (4, OK + LONG)]
    )
    assert not buttons.pressed(1, OK) and not buttons.pressed(9, OK)
    with pytest.raises(ValueError):
        vb.pin(1, OK)


def test_presses_across_the_ticks_wrap():
    period = 1 << 30
    start = period - 300
    pin = VPin()
    buttons = Buttons([(VPin(), VPin(), pin)])
    events = []
    for t in range(start, start + 1400, 5):
        if t == start + 100:
            pin.press()
        if t == start + 800:
            pin.release()
        buttons.poll(t % period)
        take_presses(buttons, lambda s, c: events.append((s, c)))
    assert events == [(0, OK + LONG)]


def polls_with_a_gap(vb, buttons, until, gap_at, gap_ms, step=5):
    """Poll every `step` ms, except for one stretch of gap_ms from gap_at in
    which the CPU runs nothing (a flash erase): the levels still change."""
    events = []
    t = 0
    while t <= until:
        vb.advance(t)
        buttons.poll(t)
        take_presses(buttons, lambda s, c, t=t: events.append((t, s, c)))
        if gap_at <= t < gap_at + step:
            for u in range(t + 1, t + gap_ms):  # the pins move, nobody polls
                vb.advance(u)
            t += gap_ms
        else:
            t += step
    return events


def test_a_press_that_begins_and_ends_while_the_cpu_is_stalled_is_not_lost():
    # A 30 ms tap inside a 45 ms stall (a sector erase with interrupts off):
    # no poll sees the button down, the falling-edge flag does.
    vb = VButtons(5)
    vb.press(1, OK, 107, 30)
    events = polls_with_a_gap(vb, Buttons(vb.pins), 400, 100, 45)
    assert [(s, c) for _, s, c in events] == [(1, OK)]


def test_bounces_after_a_release_are_not_presses():
    vb = VButtons(5)
    vb.press(2, PLUS, 100, 200, bounce_ms=9)  # chatter after both edges
    events = polls_with_a_gap(vb, Buttons(vb.pins), 1000, 2000, 0)
    assert [(s, c) for _, s, c in events] == [(2, PLUS)]


def test_a_press_seen_by_the_polls_is_reported_once_even_across_a_stall():
    vb = VButtons(5)
    vb.press(0, MINUS, 90, 100)  # down before the stall, up after it
    events = polls_with_a_gap(vb, Buttons(vb.pins), 400, 100, 45)
    assert [(s, c) for _, s, c in events] == [(0, MINUS)]


def test_one_read_of_every_level_gives_the_same_presses():
    # The board reads the GPIO input register once per poll: bits by GPIO number.
    vb = VButtons(5)
    flat = [p for trio in vb.pins for p in trio]
    gpios = [n for trio in pins.BUTTONS for n in trio]

    def levels():
        word = 0
        for pin, n in zip(flat, gpios, strict=True):
            word |= pin.value() << n
        return word

    for seat, code, at in ((0, PLUS, 100), (3, OK, 110), (4, MINUS, 400)):
        vb.press(seat, code, at, 150 + 600 * (seat == 3))
    one_read = Buttons(vb.pins, levels=levels, bits=gpios)
    events = []
    vb.run(one_read, 1500, lambda s, c: events.append((s, c)))
    assert events == [(0, PLUS), (4, MINUS), (3, OK + LONG)]


def test_vpin_behaves_like_a_machine_pin():
    p = VPin()
    assert p.value() == 1 and p() == 1
    p.press()
    assert p.value() == 0
    p.release()
    p(0)
    assert p.value() == 0 and p.writes == 1
    p.on()
    assert p() == 1
    p.low()
    assert p() == 0
    p.high()
    p.off()
    assert p.value() == 0 and p.writes == 5
    p.init(VPin.IN, VPin.PULL_UP)


# -- per-poll frames stay on the C stack (no heap per call on the RP2040) ---


@pytest.mark.parametrize(
    "module, names",
    [
        ("buttons", {"poll", "_step", "_unseen", "_pressed", "_pin_levels"}),
        ("pixels", {"show", "_fill_channel", "scale_for"}),
        # A commit's path (storage, journal): tests/test_hw_storage.py.
    ],
)
def test_per_poll_frames_fit_on_the_c_stack(module, names):
    frames = {
        name: frame_words(s, e)
        for name, s, e in function_frames(FIRMWARE / "hal" / (module + ".py"))
    }
    assert names <= set(frames)
    assert {n: frames[n] for n in names if frames[n] > C_STACK_FRAME_WORDS} == {}


# -- pixels -----------------------------------------------------------------


def test_the_estimate():
    assert estimate_ma(bytearray(30)) == 10  # 10 dark LEDs
    assert estimate_ma(bytes((255, 255, 255)) + bytes(27)) == 60 + 10
    assert estimate_ma(bytes((255, 0, 0, 1, 0, 0))) == 20 + 1 + 2  # rounded up


def frame_of(colours):
    """A frame of (r, g, b) colours, each LED's bytes in the app's order (frames.ORDER)."""
    frame = bytearray(3 * len(colours))
    for i, c in enumerate(colours):
        for channel in range(3):
            frame[3 * i + FRAME_ORDER[channel]] = c[channel]
    return frame


def test_under_budget_the_frame_is_shown_unchanged():
    frame = frame_of([(10, 20, 30), (255, 0, 0), (0, 0, 0), (1, 2, 3)])
    for np in (RecordingNeoPixel(4), VNeoPixel(VStrip(4))):
        px = Pixels(np, 500)
        px.show(frame)
        assert px.last_scale == 256
        assert [tuple(np[i]) for i in range(4)] == [(10, 20, 30), (255, 0, 0), (0, 0, 0), (1, 2, 3)]


def test_over_budget_the_frame_is_dimmed_to_the_budget():
    frame = bytearray([255] * 3 * 60)  # 60 LEDs full white: 3660 mA
    assert estimate_ma(frame) == 3660
    np = RecordingNeoPixel(60)
    px = Pixels(np, 1000)
    px.show(frame)
    shown = bytes(b for i in range(60) for b in np[i])
    assert px.last_scale < 256
    assert 950 <= estimate_ma(shown) <= 1000
    assert set(shown) == {(255 * px.last_scale) >> 8}


def test_a_budget_below_the_idle_draw_shows_dark():
    np = RecordingNeoPixel(10)
    px = Pixels(np, 5)
    px.show(bytearray([200] * 30))
    assert px.last_scale == 0 and set(np.buf) == {0}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=40), st.integers(0, 3000)
)
def test_the_limiter_keeps_any_frame_within_the_budget(colours, budget):
    frame = frame_of(colours)
    n = len(colours)
    np = RecordingNeoPixel(n)
    px = Pixels(np, budget)
    px.show(frame)
    scale = px.last_scale
    shown = frame_of([np[i] for i in range(n)])
    assert shown == bytes((v * scale) >> 8 for v in frame)
    if budget >= n:  # the dark LEDs fit
        assert estimate_ma(shown) <= budget
    assert (scale == 256) == (estimate_ma(frame) <= budget)


def test_frames_are_recorded_by_the_pixelbuf_strip():
    strip = VStrip(3)
    px = Pixels(VNeoPixel(strip), 1000)
    px.show(frame_of([(1, 2, 3), (40, 50, 60), (255, 0, 128)]))
    px.show(frame_of([(0, 0, 0), (9, 8, 7), (0, 255, 0)]))
    assert len(strip.frames) == 2
    assert strip.frames[0] == bytes((2, 1, 3, 50, 40, 60, 0, 255, 128))  # GRB on the wire
    assert strip.rgb(1) == [(0, 0, 0), (9, 8, 7), (0, 255, 0)]
    px.off()
    assert strip.rgb() == [(0, 0, 0)] * 3


def test_both_strips_see_the_same_wire_bytes():
    frame = frame_of([(200, 100, 50)] * 20 + [(255, 255, 255)] * 12)
    strip, rec = VStrip(32), RecordingNeoPixel(32)
    for np in (VNeoPixel(strip), rec):
        Pixels(np, 800).show(frame)
    assert strip.frames == rec.frames
    assert decode(rec.frames[0]) == rec.rgb()


def test_a_frame_shorter_or_longer_than_the_chain():
    np = RecordingNeoPixel(3)
    px = Pixels(np, 1000)
    px.show(frame_of([(1, 1, 1)] * 5))
    assert np.rgb() == [(1, 1, 1)] * 3
    px.show(frame_of([(2, 2, 2)]))
    assert np.rgb() == [(2, 2, 2), (1, 1, 1), (1, 1, 1)]


# -- the display ------------------------------------------------------------


class FakeI2C:
    def __init__(self, devices):
        self.devices = devices
        self.writes = []

    def scan(self):
        return list(self.devices)

    def writeto(self, address, data):
        self.writes.append((address, bytes(data)))


def test_no_display_is_a_no_op_on_cpython():
    for i2c in (None, FakeI2C([0x20])):
        d = Display(i2c)
        assert not d.present
        d.show(["hello"])
        d.off()
        assert i2c is None or i2c.writes == []


# -- under real MicroPython --------------------------------------------------

MPY_SCRIPT = r"""
import gc
from hal.buttons import Buttons
from hal.pixels import Pixels
from hal.display import Display
from sim.hw.vbuttons import VButtons
from sim.hw.vpixels_portable import RecordingNeoPixel

# The same presses as on CPython give the same events.
vb = VButtons([0, 2, 4])
for seat, code, at, hold, bounce in %r:
    vb.press(seat, code, at, hold, bounce)
events = []
vb.run(Buttons(vb.pins), 3000, lambda s, c: events.append((vb.now, s, c)), 1)
print(events)

# poll() allocates nothing, nor does taking its presses (counted into a
# preallocated array).
vb = VButtons(5)
buttons = Buttons(vb.pins)
counts = bytearray(16)
pin = vb.pin(3, 2)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for t in range(1000):
    if t == 100:
        pin.press()
    if t == 800:
        pin.release()
    buttons.poll(t)
    for k in range(buttons.presses):
        counts[buttons.press_code[k]] += 1
    buttons.presses = 0
after = gc.mem_alloc()
gc.enable()
print("buttons heap", after - before, list(counts[:8]))

# Pixels.show() on a neopixel.NeoPixel-like strip allocates nothing.
class Quiet(RecordingNeoPixel):
    def write(self):
        pass
np = Quiet(40)
px = Pixels(np, 700)
frame = bytearray(range(120))
for i in range(120):
    frame[i] = (i * 37) & 0xFF
px.show(frame)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for i in range(100):
    px.show(frame)
after = gc.mem_alloc()
gc.enable()
print("pixels heap", after - before, px.last_scale, list(np.buf[:6]))
dim = bytearray(120)
for i in range(120):
    dim[i] = i & 0x0F
px.show(dim)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for i in range(100):
    px.show(dim)
after = gc.mem_alloc()
gc.enable()
print("dim heap", after - before, px.last_scale, list(np.buf[:6]))

# The display over a fake I2C: framebuf is real here.
class FakeI2C:
    def __init__(self, devices):
        self.devices = devices
        self.writes = []
        self.fail = False
    def scan(self):
        return self.devices
    def writeto(self, address, data):
        if self.fail:
            raise OSError(19)
        self.writes.append((address, bytes(data)))

absent = FakeI2C([])
d = Display(absent)
d.show(["x"])
print("absent", d.present, len(absent.writes))
i2c = FakeI2C([0x3C])
d = Display(i2c)
init = i2c.writes[0][1]
print("init", d.present, init[0], init[1], init[-1], len(i2c.writes))
d.show(["SEAT 1  walzer", "score 12"])
d.show(["SEAT 1  walzer", "score 12"])
picture = i2c.writes[-1][1]
print("picture", len(i2c.writes), len(picture), picture[0], sum(1 for b in picture[1:] if b))
d.off()
d.show(["other"])
print("again", len(i2c.writes), i2c.writes[-3][1])
i2c.fail = True
d.show(["more"])
print("gone", d.present)
"""

PRESSES = [
    (0, 2, 100, 150, 0),
    (2, 0, 105, 700, 4),
    (4, 1, 300, 12, 0),
    (4, 2, 1000, 599, 3),
    (0, 1, 1200, 601, 2),
]


def test_buttons_pixels_and_display_under_micropython():
    out = mpy_wasm.run(MPY_SCRIPT % (PRESSES,)).splitlines()
    vb = VButtons([0, 2, 4])
    for p in PRESSES:
        vb.press(*p)
    events = []
    vb.run(Buttons(vb.pins), 3000, lambda s, c: events.append((vb.now, s, c)), 1)
    assert [(s, c) for _, s, c in events] == [(0, OK), (2, MINUS + LONG), (4, OK), (0, PLUS + LONG)]
    assert out[0] == repr(events)
    assert out[1] == "buttons heap 0 [0, 0, 0, 0, 0, 0, 1, 0]"
    words = out[2].split()
    assert words[:3] == ["pixels", "heap", "0"] and 0 < int(words[3]) < 256
    # within the budget, the frame in the strip's order (GRB): copied as it is, nothing allocated
    assert out[3] == "dim heap 0 256 [0, 1, 2, 3, 4, 5]"
    assert out[4] == "absent False 0"
    assert out[5] == "init True 0 174 175 1"
    assert out[6].startswith("picture 3 1025 64 ")  # one redraw, 0x40 first
    assert int(out[6].split()[-1]) > 50  # the text is drawn
    assert out[7] == "again 7 %r" % b"\x00\xaf"  # woken up, then drawn
    assert out[8] == "gone False"
