"""MicroPython's framebuf for CPython, as far as the firmware uses it:
one-row frame buffers of 8-bit (GS8) and 4-bit greyscale, high half of a
byte first (GS4_HMSB), pixel() and blit() with a key and a palette
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

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if self.format == GS4_HMSB:
            if c is not None:
                raise ValueError("this stand-in reads GS4_HMSB only")
            return (self.buf[x >> 1] >> (0 if x & 1 else 4)) & 15
        if c is None:
            return self.buf[x]
        self.buf[x] = c & 0xFF
        return None

    def blit(self, source, x, y, key=-1, palette=None):
        for sy in range(source.height):
            for sx in range(source.width):
                c = source.pixel(sx, sy)
                if palette is not None:
                    c = palette.pixel(c, 0)
                if c != key:
                    self.pixel(x + sx, y + sy, c)
