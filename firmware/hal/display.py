"""An optional SSD1306 128x64 OLED on I2C that mirrors the table's text.

Display(i2c).show(lines) draws up to 8 lines of 16 characters (MicroPython's
built-in 8x8 font, through framebuf) and sends the picture only when the
lines changed.  The display is optional: when no device answers at 0x3C (or
i2c is None) the object is a no-op with `present` False, and if the display
stops answering later it turns into one, so the table never stops for it.
"""

from micropython import const
from pins import DISPLAY_ADDRESS as ADDRESS

LINES = const(8)
COLUMNS = const(16)
_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)  # 8 rows of pixels per byte: 64 rows are 8 pages

# Power-up sequence for a 128x64 panel with its internal charge pump (the
# common modules).  Sent in one transfer after the control byte 0x00.
_INIT = const(
    b"\x00"
    b"\xae"  # display off while it is set up
    b"\x20\x00"  # horizontal addressing: the buffer goes out in one go
    b"\x40"  # start line 0
    b"\xa1\xc8"  # column and row order for a module mounted upright
    b"\xa8\x3f"  # multiplex: 64 rows
    b"\xd3\x00"  # no vertical offset
    b"\xda\x12"  # COM pins: alternate, for 64 rows
    b"\xd5\x80"  # clock divide, oscillator
    b"\xd9\xf1"  # pre-charge for the internal supply
    b"\xdb\x30"  # VCOMH deselect level
    b"\x81\xcf"  # contrast
    b"\xa4\xa6"  # show the RAM, not inverted
    b"\x8d\x14"  # charge pump on (no external VCC on these modules)
    b"\xaf"  # display on
)
# Draw into the whole panel: columns 0-127, pages 0-7.
_WINDOW = const(b"\x00\x21\x00\x7f\x22\x00\x07")
_OFF = const(b"\x00\xae")
_ON = const(b"\x00\xaf")


class Display:
    """The text mirror; `present` is False when there is no display."""

    def __init__(self, i2c, address=ADDRESS):
        self.present = False
        self._i2c = i2c
        self._address = address
        self._shown = None
        self._dark = False
        # 0x40 (the data control byte) then the picture, sent in one transfer.
        self._buf = bytearray(1 + _WIDTH * _PAGES)
        self._buf[0] = 0x40
        self._fb = None
        if i2c is None:
            return
        try:
            if address not in i2c.scan():
                return
            import framebuf

            self._fb = framebuf.FrameBuffer(
                memoryview(self._buf)[1:], _WIDTH, _HEIGHT, framebuf.MONO_VLSB
            )
            i2c.writeto(address, _INIT)
            self.present = True
        except OSError:
            self.present = False

    def show(self, lines):
        """Show `lines` (up to LINES strings, each cut to COLUMNS characters) if they changed."""
        fb = self._fb
        if not self.present or fb is None or lines == self._shown:
            return
        fb.fill(0)
        for row in range(min(len(lines), LINES)):
            fb.text(lines[row][:COLUMNS], 0, 8 * row, 1)
        try:
            if self._dark:
                self._i2c.writeto(self._address, _ON)
                self._dark = False
            self._i2c.writeto(self._address, _WINDOW)
            self._i2c.writeto(self._address, self._buf)
        except OSError:
            self.present = False  # unplugged or dead: the table goes on without it
            return
        self._shown = list(lines)

    def off(self):
        """Blank the panel until the next show()."""
        if self.present:
            try:
                self._i2c.writeto(self._address, _OFF)
            except OSError:
                self.present = False
            self._dark = True
            self._shown = None
