"""A virtual NeoPixel strip on adafruit_pixelbuf (CPython only).

VStrip is a PixelBuf (the pure-Python adafruit_pixelbuf from the
adafruit-circuitpython-pixelbuf package) whose _transmit() records the bytes
it would send down the data line: `frames` holds one bytes object per
show(), in the strip's wire order (GRB for WS2812B).  VNeoPixel wraps it in
the interface of MicroPython's neopixel.NeoPixel (np[i] = (r, g, b),
np.write()) so hal.pixels.Pixels can drive it.  Under MicroPython use
sim/hw/vpixels_portable.py instead.
"""

from typing import cast

from adafruit_pixelbuf import PixelBuf


class VStrip(PixelBuf):
    """n virtual LEDs; `frames` records every transmitted buffer."""

    def __init__(self, n, byteorder="GRB"):
        super().__init__(n, byteorder=byteorder, auto_write=False)
        self.frames = []

    def _transmit(self, buffer):
        self.frames.append(bytes(buffer))

    def rgb(self, k=-1):
        """Frame k (default: the last) decoded to a list of (r, g, b) per LED."""
        wire = self.frames[k]
        # parse_byteorder() returns the order as a tuple of ints, though annotated str.
        _, parsed, _, _ = self.parse_byteorder(self.byteorder)
        order = cast("tuple[int, ...]", parsed)
        return [
            (wire[i + order[0]], wire[i + order[1]], wire[i + order[2]])
            for i in range(0, len(wire), self.bpp)
        ]


class VNeoPixel:
    """A neopixel.NeoPixel-like front for a VStrip (or any PixelBuf)."""

    def __init__(self, strip):
        self.strip = strip
        self.n = len(strip)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        self.strip[i] = rgb

    def __getitem__(self, i):
        return tuple(self.strip[i])

    def fill(self, rgb):
        """Set every LED to rgb."""
        self.strip.fill(rgb)

    def write(self):
        """Latch the colours: the strip transmits (and records) its buffer."""
        self.strip.show()
