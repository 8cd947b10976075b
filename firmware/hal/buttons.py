"""The seat buttons: debounced, short and long presses reported at release.

Every seat has three buttons, minus, plus and ok, each a GPIO input with a
pull-up and the button to ground: pressed reads 0.  The main loop calls
poll(now_ms, emit) every few milliseconds; it reads every pin once and calls
emit(seat, code) for each press that ended since the last poll, with code
events.MINUS, PLUS or OK, plus events.LONG if the button was held 600 ms or
more.  A press is reported when it ends so that a long press never reports
a short one first.

Debounce: a contact bounces for a few milliseconds after each edge, so a
level counts only once the pin has read it for 20 ms without a change.  The
press is timed from the last bounce of the press to the last bounce of the
release, which does not depend on how often poll() runs.

poll() allocates nothing: the state is in preallocated byte arrays and lists
of small ints, and each button's step is its own small method so every frame
stays on the C stack of the RP2040 port.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

try:
    from time import ticks_diff  # pyright: ignore[reportAssignmentType]
except ImportError:
    # CPython (tests, simulator): MicroPython's ms ticks wrap at 2**30.
    def ticks_diff(ticks1, ticks2):
        """ticks1 - ticks2 with MicroPython's wrap-around at 2**30."""
        return ((ticks1 - ticks2 + 0x20000000) & 0x3FFFFFFF) - 0x20000000

from dicetable.app.events import LONG

DEBOUNCE_MS = const(20)
LONG_MS = const(600)


class Buttons:
    """Debounced buttons of every seat.

    pins_by_seat: one (minus, plus, ok) tuple of input pins per seat index,
    or None for a seat that is not wired.  Pins need value() only.
    """

    def __init__(self, pins_by_seat, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
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
        self._raw = bytearray(n)       # 1 = the pin read pressed at the last poll
        self._level = bytearray(n)     # 1 = pressed, after debouncing
        self._since = [0] * n          # ticks of the raw level's last change
        self._down = [0] * n           # ticks the current press started

    def poll(self, now_ms, emit):
        """Read every button once; emit(seat, code) for each press that ended."""
        for k in range(self._n):
            self._step(k, now_ms, emit)

    def _step(self, k, now, emit):
        raw = 0 if self._pins[k].value() else 1
        if raw != self._raw[k]:
            self._raw[k] = raw
            self._since[k] = now
        elif raw != self._level[k] and ticks_diff(now, self._since[k]) >= self._debounce:
            self._level[k] = raw
            if raw:
                self._down[k] = self._since[k]
            else:
                self._release(k, emit)

    def _release(self, k, emit):
        code = k - self._first[self._seat[k]]
        if ticks_diff(self._since[k], self._down[k]) >= self._long:
            code += LONG
        emit(self._seat[k], code)

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
            seats.append((Pin(trio[0], Pin.IN, Pin.PULL_UP), Pin(trio[1], Pin.IN, Pin.PULL_UP),
                          Pin(trio[2], Pin.IN, Pin.PULL_UP)))
    return seats
