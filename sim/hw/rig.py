"""A whole table on virtual hardware: the board's own drivers and app, unchanged.

VirtualTable wires what hal/board.py wires on the board, but to virtual
parts: every reader is a register-level MFRC522 model on a virtual SPI bus
(the real hal.readers driver talks to it), the buttons are virtual pins read
by the real hal.buttons driver, the LEDs go through the real hal.pixels
current limiter into a strip that records every frame, and the journal and
registry live on virtual flash (hal.storage).  A scenario puts tags on
readers, presses buttons and lets time pass; the LED frames and the log are
what it observes.  Portable: it runs under MicroPython as well as CPython.
"""

from dicetable.app.events import CENTRE, LONG
from dicetable.app.frames import led_count
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from flashmodel.vflash import VFlash
from hal.buttons import Buttons
from hal.pixels import Pixels
from hal.readers import Readers
from hal.storage import Storage
from sim.hw.clock import Clock
from sim.hw.vbuttons import VButtons
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vpixels_portable import RecordingNeoPixel
from sim.hw.vspi import VSPI
from sim.hw.vtag import VTag

STEP_MS = 5  # one pass of the main loop
TAP_MS = 40  # a short press (over the 20 ms debounce)
HOLD_MS = 800  # a long press (over the 600 ms threshold)


class Config:
    def __init__(self, seats, leds_per_seat, ring_leds):
        self.seats = seats
        self.LEDS_PER_SEAT = leds_per_seat
        self.RING_LEDS = ring_leds


class VirtualTable:
    """A table of `seats` with the centre reader; `flash` carries the journal and
    registry over a reboot (VFlash.reboot())."""

    def __init__(
        self,
        seats=(0, 1, 2, 3, 4),
        leds_per_seat=8,
        ring_leds=16,
        seed=1,
        flash=None,
        budget_ma=2500,
        log=None,
    ):
        self.clock = Clock()
        self.bus = VSPI(self.clock, 4000000)
        fitted = list(seats) + [CENTRE]
        self.chips = [VMFRC522(self.clock) if r in fitted else None for r in range(CENTRE + 1)]
        self.readers = Readers(self.bus, [self.bus.cs(c) if c else None for c in self.chips])
        self.indices = fitted
        self.vbuttons = VButtons(seats)
        self.buttons = Buttons(self.vbuttons.pins)
        config = Config(list(seats), leds_per_seat, ring_leds)
        self.strip = RecordingNeoPixel(led_count(config))
        self.pixels = Pixels(self.strip, budget_ma)
        self.flash = VFlash() if flash is None else flash
        # Four journal segments (the board has eight) keep the virtual flash small
        # enough for the Pico's heap when the rig runs under MicroPython.
        self.storage = Storage(self.flash, segments=4)
        self.storage.prepare()
        self.lines = []
        self._log = log
        self.table = Table(config, self.storage, Rng(seed), self.say)
        self.now = 0
        self.on = [None] * (CENTRE + 1)  # type: list[VTag | None]  # the tag on each reader
        self._shown = -1

    def say(self, line):
        text = line.text()
        self.lines.append(text)
        if self._log is not None:
            self._log(text)

    def boot(self):
        self.table.boot()
        self.step()

    def step(self):
        """One pass of the main loop, as hal/board.py runs it: the buttons, the
        readers (the chips' clock brought up to now), the clock, the LEDs, and
        the readers told which of them the table awaits an item on."""
        self.now += STEP_MS
        self.vbuttons.advance(self.now)
        self.buttons.poll(self.now)
        take_presses(self.buttons, self.table.button)
        self.clock.advance(max(0, self.now * 1000 - self.clock.now_us))
        self.readers.service(self.now)
        take_events(self.readers, self.table.reader_event)
        self.table.tick(self.now)
        if self.table.frame_version != self._shown:
            self._shown = self.table.frame_version
            self.pixels.show(self.table.frame)
        self.readers.awaited = self.table.awaited_readers()

    def wait(self, ms):
        for _ in range(ms // STEP_MS):
            self.step()

    def place(self, reader, uid):
        """Put the tag with `uid` on a reader and let the driver confirm it."""
        self.remove(reader)
        tag = VTag(uid)
        self.chips[reader].place(tag)
        self.on[reader] = tag
        self._confirm()

    def remove(self, reader):
        tag = self.on[reader]
        if tag is not None:
            self.chips[reader].remove(tag)
            self.on[reader] = None
            self._confirm()

    def _confirm(self):
        # A look at every reader comes within its period, and the change it
        # sees is reported after a confirming re-read a few steps later.
        for _ in range(2 * len(self.indices) + 1):
            self.step()

    def scan(self, reader, uid):
        """A tag put down and taken away again."""
        self.place(reader, uid)
        self.remove(reader)

    def press(self, seat, code):
        """Press a seat button (code | LONG for a long press) and release it."""
        hold = HOLD_MS if code & LONG else TAP_MS
        self.vbuttons.press(seat, code & 3, self.now + STEP_MS, hold)
        self.wait(hold + 8 * STEP_MS)  # the release, then the debounce

    def leds(self, seat):
        """The (r, g, b) of a seat's LEDs (CENTRE: the ring) in the last frame
        the strip received, after the current limiter."""
        lay = self.table.layout
        first = lay.ring if seat == CENTRE else lay.first(seat)
        n = lay.ring_leds if seat == CENTRE else lay.width
        return self.strip.rgb()[first : first + n]


def take_events(readers, to):
    """Hand the events the readers found to to(event, reader, uid), as the main
    loop hands them to the app (hal/mainloop.py)."""
    for k in range(readers.found):
        to(readers.found_kind[k], readers.found_reader[k], readers.uid(k))
    readers.found = 0


def take_presses(buttons, to):
    """Hand the presses the buttons found to to(seat, code), likewise."""
    for k in range(buttons.presses):
        to(buttons.press_seat[k], buttons.press_code[k])
    buttons.presses = 0
