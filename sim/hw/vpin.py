"""A virtual machine.Pin, and a virtual 74HC138 chip-select decoder.

VPin is an input a test drives (press() pulls it low, release() lets the
pull-up take it high: the default level is 1) or an output it watches
(value(v) or pin(v) sets it; `writes` counts the calls).  It has the
machine.Pin methods the drivers use.  Portable: runs under MicroPython.

VDecoder models the board's 74HC138 (see firmware/pins.py): the board code
drives its three address pins, and it drives the one output pin the address
selects low and every other one high (VSPI's chip-select pins, say).  As on
the real chip, changing the address one bit at a time briefly selects the
lines in between.
"""


class PinLike:
    """The machine.Pin calls every virtual pin answers, from its own value()."""

    def value(self, v=None):
        raise NotImplementedError

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        """Drive high."""
        self.value(1)

    def off(self):
        """Drive low."""
        self.value(0)


class VPin(PinLike):
    """A virtual GPIO pin: level 1 (pulled up) unless driven or pressed."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4

    def __init__(self, value=1, name=None):
        self._level = 1 if value else 0
        self.name = name
        self.writes = 0
        self._on_fall = None

    def value(self, v=None):
        """The level (0 or 1); value(v) sets it."""
        if v is None:
            return self._level
        self._set(1 if v else 0)
        self.writes += 1
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING, hard=False):
        """Call handler(pin) on every falling edge (the only trigger modelled)."""
        if trigger != self.IRQ_FALLING:
            raise ValueError("only IRQ_FALLING is modelled")
        self._on_fall = handler

    def _set(self, level):
        fell = self._level and not level
        self._level = level
        if fell and self._on_fall is not None:
            self._on_fall(self)

    def high(self):
        """Drive high."""
        self.value(1)

    def low(self):
        """Drive low."""
        self.value(0)

    def init(self, *args, **kwargs):
        """Accepted and ignored (mode and pull are a test's business)."""

    def press(self):
        """A button to ground closes: the pin reads 0."""
        self._set(0)

    def release(self):
        """The button opens: the pull-up makes the pin read 1."""
        self._set(1)

    def __repr__(self):
        return "VPin(%s=%d)" % (self.name, self._level)


class _AddressPin(PinLike):
    # One address input of the decoder, driven by the board code like a Pin.
    def __init__(self, decoder, bit):
        self._decoder = decoder
        self._bit = bit

    def value(self, v=None):
        if v is None:
            return (self._decoder.address >> self._bit) & 1
        self._decoder._set_bit(self._bit, 1 if v else 0)
        return None


class VDecoder:
    """A virtual 74HC138.  `outputs`: up to 8 chip-select pins (e.g. VSPI's,
    None where nothing is wired); `pins` are the address inputs A0, A1, A2."""

    def __init__(self, outputs):
        self.outputs = list(outputs) + [None] * (8 - len(outputs))
        self.address = 0
        self.pins = (_AddressPin(self, 0), _AddressPin(self, 1), _AddressPin(self, 2))
        self.selects = 0  # how often an output went low
        self._drive(self.outputs[0], 0)

    def line(self):
        """The output that is low now (0-7)."""
        return self.address

    def _set_bit(self, bit, v):
        new = (self.address & ~(1 << bit)) | (v << bit)
        if new != self.address:
            # The old output rises before the new one falls: never two low.
            self._drive(self.outputs[self.address], 1)
            self.address = new
            self._drive(self.outputs[new], 0)

    def _drive(self, out, v):
        if out is not None:
            out.value(v)
            self.selects += 1 - v
