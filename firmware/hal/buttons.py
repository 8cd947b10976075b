"""The seat buttons: debounced, short and long presses reported at release.

Every seat has three buttons, minus, plus and ok, each a GPIO input with a
pull-up and the button to ground: pressed reads 0.  The main loop calls
poll(now_ms) every few milliseconds; it reads every pin once and records
each press that ended since the last poll: `presses` of them, press k at
seat press_seat[k] with code press_code[k] (events.MINUS, PLUS or OK, plus
events.LONG if the button was held 600 ms or more).  The caller takes them
and sets `presses` to 0: the driver never calls into the app (one press a
button a poll at most, so the slots never run out).  A press is reported
when it ends so that a long press never reports a short one first.

Debounce: a contact bounces for a few milliseconds after each edge, so a
level counts only once the pin has read it for 20 ms without a change.  The
press is timed from the last bounce of the press to the last bounce of the
release, which does not depend on how often poll() runs.

Reading: with `levels` (on the board, one read of the RP2040's GPIO input
register: every pin at once) a poll reads one word; `bits` says which bit is
which button.  Without it each pin's value() is read into that word.  A poll
in which no level changed and no button is mid-debounce does nothing more.

A press the polls never saw: while the flash is erased or programmed the
CPU runs nothing, for up to ~45 ms (a W25Q16 sector erase), long enough for
a short press to begin and end between two polls.  Every button pin has a
falling-edge interrupt (Pin.irq, hard) that only sets a flag; the RP2040
latches the edge while interrupts are off and runs the handler after.  A
flag with the pin read released on both sides of a gap of at least the
debounce time is a whole press inside the gap: reported as a short press.
(A flag from a release's bounce comes within a normal 5 ms gap: ignored.)
Likewise a button read pressed, not yet for the debounce time, just before
such a gap and released after it was pressed for at least the gap's length:
a short press too.

poll() allocates nothing: the state is in preallocated byte arrays and lists
of small ints, and each button's step is its own small method so every frame
stays on the C stack of the RP2040 port.
"""

from micropython import const

try:
    from time import ticks_diff  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython (the tests, the simulator): the table app's, the same wrap at 2**30
    from dicetable.app.render import ticks_diff

from dicetable.app.events import LONG

DEBOUNCE_MS = const(20)
LONG_MS = const(600)


class Buttons:
    """Debounced buttons of every seat.

    pins_by_seat: one (minus, plus, ok) tuple of input pins per seat index,
    or None for a seat that is not wired.  Pins need value(); a pin with
    irq() gets the falling-edge flag.  levels() -> int and bits (the bit of
    each button in that word, in pins_by_seat order) read them all at once.
    """

    def __init__(
        self, pins_by_seat, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS, levels=None, bits=None
    ):
        pins = []
        seats = []
        first = bytearray(len(pins_by_seat))
        for seat in range(len(pins_by_seat)):
            trio = pins_by_seat[seat]
            first[seat] = 0xFF if trio is None else len(pins)
            if trio is not None:
                for code in range(3):
                    pins.append(trio[code])
                    seats.append(seat)
        n = len(pins)
        self._pins = pins
        self._seat = bytes(seats)
        self._first = first
        self._n = n
        self._debounce = debounce_ms
        self._long = long_ms
        self._levels = self._pin_levels if levels is None else levels
        self._bit = bytes(range(n)) if bits is None else bytes(bits)
        self._word = -1  # the last word read: -1, nothing yet
        self._busy = 0  # buttons whose raw level is not yet debounced
        self._last = 0  # ticks of the last poll
        self._gap = 0  # ms between the last two polls
        self._raw = bytearray(n)  # 1 = the pin read pressed at the last poll
        self._level = bytearray(n)  # 1 = pressed, after debouncing
        self._since = [0] * n  # ticks of the raw level's last change
        self._down = [0] * n  # ticks the current press started
        self._fell = bytearray(n)  # set by the falling-edge interrupt
        self._flag = bytearray(1)  # some _fell is set
        self.presses = 0  # the presses poll() found (the module docstring)
        self.press_seat = bytearray(n)
        self.press_code = bytearray(n)
        for k in range(n):
            p = pins[k]
            if hasattr(p, "irq"):
                p.irq(self._edge_handler(k), p.IRQ_FALLING, hard=True)

    def _edge_handler(self, k):
        # Made once per pin: the interrupt itself allocates nothing.
        fell = self._fell
        flag = self._flag

        def handler(pin):
            fell[k] = 1
            flag[0] = 1

        return handler

    def _pin_levels(self):
        word = 0
        for k in range(self._n):
            if self._pins[k].value():
                word |= 1 << k
        return word

    def poll(self, now_ms):
        """Read every button once; each press that ended is added to `presses`."""
        word = self._levels()
        self._gap = ticks_diff(now_ms, self._last)
        self._last = now_ms
        # Nothing changed and nothing waits (nearly every poll): over, with no
        # call more (the buttons pass runs 200 times a second).
        if word == self._word and not self._busy and not self._flag[0]:
            return
        self._word = word
        self._flag[0] = 0
        self._busy = 0
        for k in range(self._n):
            self._step(k, now_ms)

    def _step(self, k, now):
        raw = 0 if (self._word >> self._bit[k]) & 1 else 1
        if self._fell[k]:
            self._unseen(k, raw)
        elif self._raw[k] and not raw and not self._level[k] and self._gap >= self._debounce:
            # Pressed when the gap began, released after it: a press that the
            # stall hid before its debounce was over.
            self._pressed(k, 0)
        if raw != self._raw[k]:
            self._raw[k] = raw
            self._since[k] = now
        elif raw != self._level[k] and ticks_diff(now, self._since[k]) >= self._debounce:
            self._level[k] = raw
            if raw:
                self._down[k] = self._since[k]
            else:
                self._pressed(
                    k, LONG if ticks_diff(self._since[k], self._down[k]) >= self._long else 0
                )
        if raw != self._level[k]:
            self._busy += 1

    def _unseen(self, k, raw):
        # A falling edge with the button released at this poll and the last:
        # a whole press inside the gap, if the gap could hold one.
        self._fell[k] = 0
        if not raw and not self._raw[k] and not self._level[k] and self._gap >= self._debounce:
            self._pressed(k, 0)

    def _pressed(self, k, long):
        # Button k's press, kept for the main loop (long: 0 or LONG).
        seat = self._seat[k]
        p = self.presses
        self.press_seat[p] = seat
        self.press_code[p] = k - self._first[seat] + long
        self.presses = p + 1

    def pressed(self, seat, code):
        """True while the button is held down (debounced); False for a seat not wired."""
        k = self._first[seat] if seat < len(self._first) else 0xFF
        return k != 0xFF and self._level[k + code] == 1


def input_pins(numbers_by_seat):
    """The pins for Buttons on the board: inputs with pull-ups, from a
    pin-map table of (minus, plus, ok) GPIO numbers per seat (None = not wired)."""
    from machine import Pin

    seats = []
    for trio in numbers_by_seat:
        if trio is None:
            seats.append(None)
        else:
            seats.append(
                (
                    Pin(trio[0], Pin.IN, Pin.PULL_UP),
                    Pin(trio[1], Pin.IN, Pin.PULL_UP),
                    Pin(trio[2], Pin.IN, Pin.PULL_UP),
                )
            )
    return seats


SIO_GPIO_IN = const(0xD0000004)  # RP2040 SIO: the level of every GPIO, bit n = GPIO n


def gpio_levels():
    """levels() for Buttons on the board: one read of the GPIO input register
    (bits 0-29 only, so the int is a small one and nothing is allocated)."""
    from machine import mem32

    def levels():
        return mem32[SIO_GPIO_IN]

    return levels
