"""A virtual NeoPixel strip that records every frame: the portable one.

RecordingNeoPixel(n) has the interface and the memory layout of
MicroPython's neopixel.NeoPixel (buf in GRB wire order, ORDER, bpp,
np[i] = (r, g, b), write()), so hal.pixels drives it exactly as it drives
the board's strip.  Every write() appends the wire bytes to `frames`.
Runs under MicroPython and CPython; sim/hw/vpixels.py is the CPython strip
built on adafruit_pixelbuf.
"""


class RecordingNeoPixel:
    """n RGB LEDs; `frames` holds the bytes sent by each write()."""

    ORDER = (1, 0, 2, 3)  # R, G, B, W positions within an LED: WS2812B is GRB

    def __init__(self, n, bpp=3):
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.frames = []

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for c in range(self.bpp):
            self.buf[offset + self.ORDER[c]] = v[c]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[c]] for c in range(self.bpp))

    def fill(self, v):
        """Set every LED to v."""
        for i in range(self.n):
            self[i] = v

    def write(self):
        """Send the buffer to the LEDs: here, record it."""
        self.frames.append(bytes(self.buf))

    def rgb(self, k=-1):
        """Frame k (default: the last) as a list of (r, g, b) per LED."""
        return decode(self.frames[k], self.ORDER)


def decode(wire, order=RecordingNeoPixel.ORDER):
    """Wire bytes of a 3-byte-per-LED strip as a list of (r, g, b)."""
    out = []
    for offset in range(0, len(wire) - 2, 3):
        out.append((wire[offset + order[0]], wire[offset + order[1]], wire[offset + order[2]]))
    return out
