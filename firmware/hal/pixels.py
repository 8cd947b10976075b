"""The NeoPixel chain with a current limiter.

The table app renders into a frame: a bytearray of 3 bytes per LED, in
chain order (the seats in order, then the centre ring), each LED's bytes in
the order dicetable.app.frames.ORDER gives (the WS2812B's: G, R, B).
Pixels(np, budget_ma).show(frame) writes it to a neopixel.NeoPixel-like
object, dimming the whole frame evenly when the LEDs would draw more than
the power supply can give them.

Current estimate (WS2812B): each colour channel draws up to about 20 mA at
255, roughly linearly, and every LED draws about 1 mA even when dark:

    estimate_ma = ceil(sum of all channel values * 20 / 255) + 1 * LEDs

When the estimate is over budget_ma every channel is scaled by
last_scale / 256, with last_scale the largest value for which the estimate
of the scaled frame stays within the budget (0 if the dark LEDs alone
exceed it); otherwise the frame is shown unchanged and last_scale is 256.
All of it is integer math, on small ints for any budget under 16 A.

On the board np is hal.ws2812.WS2812, which sends the chain by PIO and DMA
without holding the CPU.  show() allocates nothing when np has the memory
layout of MicroPython's neopixel.NeoPixel, as WS2812 has: it writes the
scaled bytes straight into np.buf in the strip's byte order (np.ORDER).  A
frame within the budget whose order is the strip's, the usual case, is one
copy in C.  Any other NeoPixel-like object (np[i] = (r, g, b), np.write())
works too, at the price of a tuple per LED.
"""

from micropython import const

from dicetable.app.frames import ORDER as FRAME_ORDER

MA_PER_CHANNEL = const(20)  # mA at channel value 255
MA_IDLE = const(1)  # mA per LED, dark


def estimate_ma(frame):
    """Estimated current of a frame in mA (see the module docstring)."""
    return (sum(frame) * MA_PER_CHANNEL + 254) // 255 + MA_IDLE * (len(frame) // 3)


class Pixels:
    """A NeoPixel chain that never draws more than budget_ma (by estimate)."""

    def __init__(self, np, budget_ma):
        self.np = np
        self.budget_ma = budget_ma
        self.last_scale = 256
        self._n = len(np)
        self._end = 0
        # np.ORDER[c] is where colour c (R, G, B) goes within an LED's bytes.
        order = getattr(np, "ORDER", None)
        buf = getattr(np, "buf", None)
        if order is not None and buf is not None and getattr(np, "bpp", 3) == 3:
            self._direct = True
            self._buf = buf
            # Per channel R, G, B: its place in the strip's bytes less its
            # place in the frame's (a tuple unpacks without allocating).
            self._shift = (
                order[0] - FRAME_ORDER[0],
                order[1] - FRAME_ORDER[1],
                order[2] - FRAME_ORDER[2],
            )
            self._same = self._shift == (0, 0, 0)
        else:
            self._direct = False
            self._buf = bytearray(0)
            self._shift = (0, 0, 0)
            self._same = False

    def estimate_ma(self, frame):
        """Estimated current of `frame` in mA, as shown without scaling."""
        return estimate_ma(frame)

    def scale_for(self, frame):
        """The scale (0-256, 256 = unchanged) that keeps `frame` within the budget."""
        total = sum(frame)
        leds = len(frame) // 3
        if (total * MA_PER_CHANNEL + 254) // 255 + MA_IDLE * leds <= self.budget_ma:
            return 256
        spare = self.budget_ma - MA_IDLE * leds
        if spare <= 0:
            return 0
        # sum(v * scale >> 8) <= total * scale / 256 <= spare * 255 / 20:
        # the scaled frame's estimate is within the budget.
        return (spare * 255 * 256) // (total * MA_PER_CHANNEL)

    def show(self, frame):
        """Write `frame` to the LEDs, dimmed if needed, and latch it (np.write())."""
        self.last_scale = self.scale_for(frame)
        self._end = 3 * min(len(frame) // 3, self._n)
        if not self._direct:
            self._set_each(frame)
        elif self.last_scale == 256 and self._same and len(frame) == len(self._buf):
            self._buf[:] = frame  # one copy in C
        else:
            self._fill_channel(frame, FRAME_ORDER[0], self._shift[0])
            self._fill_channel(frame, FRAME_ORDER[1], self._shift[1])
            self._fill_channel(frame, FRAME_ORDER[2], self._shift[2])
        self.np.write()

    def _fill_channel(self, frame, at, shift):
        # One channel, found at byte `at` of an LED in the frame and `shift`
        # bytes further in the strip's.  Few locals: a frame of more than 11
        # words would be taken from the heap on every call on the RP2040 port.
        i = at
        while i < self._end:
            self._buf[i + shift] = (frame[i] * self.last_scale) >> 8
            i += 3

    def _set_each(self, frame):
        np = self.np
        scale = self.last_scale
        r, g, b = FRAME_ORDER
        for i in range(0, self._end, 3):
            np[i // 3] = (
                (frame[i + r] * scale) >> 8,
                (frame[i + g] * scale) >> 8,
                (frame[i + b] * scale) >> 8,
            )

    def off(self):
        """All LEDs dark."""
        self.show(bytearray(3 * self._n))
