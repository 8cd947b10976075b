"""MicroPython's framebuf for CPython, as far as the firmware uses it:
one-row frame buffers of 8-bit (GS8) and 4-bit greyscale, high half of a
byte first (GS4_HMSB), and blit() onto a GS8 row with a key and a palette
(hal/mirror.py writes hex digits so).  tests/test_mirror.py checks the
mirror's lines under MicroPython and in CPython alike."""

GS4_HMSB = 2  # the C module's numbers for the formats
GS8 = 6


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in (GS8, GS4_HMSB) or height != 1:
            raise ValueError("this stand-in has one-row GS8 and GS4_HMSB only")
        self.format = format
        self.buf = buf
        self.width = width
        self.height = height

    def _row(self):
        # Every pixel's value, in order.
        if self.format == GS8:
            return list(self.buf[: self.width])
        values = []
        for b in self.buf[: (self.width + 1) // 2]:
            values += (b >> 4, b & 15)
        return values[: self.width]

    def blit(self, source, x, y, key=-1, palette=None):
        if y != 0 or self.format != GS8:
            raise ValueError("this stand-in blits onto the row of a GS8 buffer only")
        values = source._row()
        if palette is not None:
            colours = palette._row()
            values = [colours[v] for v in values]
        for sx, c in enumerate(values):
            if c != key and 0 <= x + sx < self.width:
                self.buf[x + sx] = c & 0xFF
