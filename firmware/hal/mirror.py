"""The table as a mirror on the host sees it: two kinds of line on the USB
serial console, among the log's, that `python -m sim.web --port` reads to
draw the table as it is (docs/web.md, "A board's mirror").  The host only
reads them: nothing is asked of the board, so nothing disturbs play.

    @leds <hex>    the LEDs as the strip last got them: the strip's bytes,
                   3 per LED in chain order and wire order (G, R, B), after
                   the current limiter
    @match <hex>   the match the table holds, as its journal holds it: the
                   4-byte header (game, players, options low, high), then
                   3 bytes per word, big-endian: the SEATS word, the SEED
                   word, the SET word of a challenge set read from a file
                   (none for a built-in set), every action in order
                   (undone ones left out);
                   "@match -" when the table holds no match

@leds goes out with every frame the LEDs get, @match in the frames pass
after each write to the journal (a new match, an action, an undo, the match
cleared away: Storage.writes counts them), and both every KEYFRAME_MS,
so that a mirror started in the middle of a match has the whole table within
that time.  No log line starts with '@'.

Nothing is allocated per line (tests/test_mirror.py measures it under
MicroPython with the Pico's heap, and reads the frames' sizes).  The hex
digits are written in C, by a framebuf blit of the bytes read as 4-bit
pixels through a palette of the 16 digits: the strip's at once, the
journal's in chunks of 16 words (a loop puts their bytes in the chunk);
pieces of a line go out with the stream's write(buf, off, n) (MicroPython's
streams take an offset and a length).  What each line costs the Pico is
printed by tools/bench/bench_mirror.py (`make bench`).
"""

import framebuf
from micropython import const

from dicetable.app.play import SEATS_RECORD, SEED_RECORD, SET_RECORD

KEYFRAME_MS = const(5000)
_SPAN = const(96)  # hex digits per write: 16 journal words
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_HEX = b"0123456789abcdef"


class Mirror:
    """The mirror's lines for `table`, whose LEDs are the strip bytes `leds`,
    written with `write(buf, off, n)` (the board: sys.stdout.buffer.write)."""

    def __init__(self, write, leds, table):
        self._write = write
        self._t = table
        self._n = 2 * len(leds)  # the strip's hex digits
        # Bytes read as 4-bit pixels, high half first, are hex digits through
        # a 16-entry palette: a blit writes _SPAN digits at a time, in C (a
        # source blitted at -x gives its digits from x on).
        self._span = bytearray(_SPAN)
        self._digits = framebuf.FrameBuffer(self._span, _SPAN, 1, framebuf.GS8)
        self._strip = framebuf.FrameBuffer(leds, self._n, 1, framebuf.GS4_HMSB)
        self._chunk = bytearray(_SPAN // 2)  # journal words, 3 bytes each
        self._words = framebuf.FrameBuffer(self._chunk, _SPAN, 1, framebuf.GS4_HMSB)
        self._hex = framebuf.FrameBuffer(bytearray(_HEX), 16, 1, framebuf.GS8)
        self._writes = -1  # Storage.writes when @match last went out
        self._key = 0  # when the last keyframe went out (ms ticks)

    def leds(self):
        """An @leds line: the strip's bytes now."""
        self._write(b"@leds ")
        x = 0
        while x < self._n:
            self._out(self._strip, x, self._n - x)
            x += _SPAN
        self._write(b"\n")

    def match(self):
        """An @match line: the table's match now."""
        t = self._t
        m = t.match
        self._writes = t.storage.writes
        if m is None:
            self._write(b"@match -\n")
            return
        self._write(b"@match ")
        n = self._put(t.game << 8 | m.players, 4, 0)
        n = self._put((m.options & 0xFF) << 8 | m.options >> 8, 4, n)
        n = self._put(SEATS_RECORD | t._seat_mask(), 6, n)
        n = self._put(SEED_RECORD | t.seed, 6, n)
        if getattr(m, "set_word", 0):
            n = self._put(SET_RECORD | m.set_word, 6, n)
        self._write(self._span, 0, n)
        self._journal(m.journal)

    def tick(self, now_ms):
        """The frames pass: @match if the journal changed; every KEYFRAME_MS
        both lines, for a mirror that has just started."""
        if (now_ms - self._key) & _TICKS_MASK >= KEYFRAME_MS:
            self._key = now_ms
            self.leds()
            self.match()
        elif self._t.storage.writes != self._writes:
            self.match()

    def _put(self, v, digits, n):
        # The low `digits` hex digits of v at span[n:]; where the next goes.
        p = self._span
        while digits:
            digits -= 1
            p[n] = _HEX[(v >> 4 * digits) & 15]
            n += 1
        return n

    def _journal(self, journal):
        # Every word's 3 bytes into the chunk, then the chunk's digits by the
        # blit, 16 words at a time; then the line's end.
        c = self._chunk
        k = 0
        for i in range(len(journal)):
            c[k] = journal[i] >> 16
            c[k + 1] = journal[i] >> 8 & 0xFF
            c[k + 2] = journal[i] & 0xFF
            k += 3
            if k == _SPAN // 2:
                self._words_out(k)
                k = 0
        self._words_out(k)
        self._write(b"\n")

    def _words_out(self, k):
        # The chunk's first k bytes, as hex digits.
        self._out(self._words, 0, 2 * k)

    def _out(self, source, x, n):
        # n hex digits (at most _SPAN) of `source`'s bytes, from digit x on.
        self._digits.blit(source, -x, 0, -1, self._hex)
        self._write(self._span, 0, n if n < _SPAN else _SPAN)
