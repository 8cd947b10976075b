"""The NeoPixel chain with a current limiter.

The table app renders into a frame: a bytearray of 3 bytes (red, green,
blue) per LED, in chain order (the seats in order, then the centre ring).
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
scaled bytes straight into np.buf in the strip's byte order (np.ORDER).  Any
other NeoPixel-like object (np[i] = (r, g, b), np.write()) works too, at the
price of a tuple per LED.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

MA_PER_CHANNEL = const(20)   # mA at channel value 255
MA_IDLE = const(1)           # mA per LED, dark


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
            self._order = (order[0], order[1], order[2])   # a tuple unpacks without allocating
        else:
            self._direct = False
            self._buf = bytearray(0)
            self._order = (0, 1, 2)

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
        elif self.last_scale == 256:
            self._copy(frame)
        else:
            self._fill_channel(frame, 0)
            self._fill_channel(frame, 1)
            self._fill_channel(frame, 2)
        self.np.write()

    def _copy(self, frame):
        # A frame within the budget (the usual one) is only put in the
        # strip's byte order, an LED per turn.  Few locals: a frame of more
        # than 11 words would be taken from the heap on every call on the
        # RP2040 port.
        buf = self._buf
        r, g, b = self._order
        i = 0
        while i < self._end:
            buf[i + r] = frame[i]
            buf[i + g] = frame[i + 1]
            buf[i + b] = frame[i + 2]
            i += 3

    def _fill_channel(self, frame, c):
        # Dimmed: one channel at a time, with few locals (see _copy).
        shift = self._order[c] - c
        i = c
        while i < self._end:
            self._buf[i + shift] = (frame[i] * self.last_scale) >> 8
            i += 3

    def _set_each(self, frame):
        np = self.np
        scale = self.last_scale
        for i in range(0, self._end, 3):
            np[i // 3] = ((frame[i] * scale) >> 8, (frame[i + 1] * scale) >> 8,
                          (frame[i + 2] * scale) >> 8)

    def off(self):
        """All LEDs dark."""
        self.show(bytearray(3 * self._n))
