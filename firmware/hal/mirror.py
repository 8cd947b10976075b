"""The table as a mirror on the host sees it: lines on the USB serial console,
among the log's, that `python -m sim.web --port` reads to draw the table as
it is (docs/web.md, "A board's mirror").  The host only reads them: nothing
is asked of the board, so nothing disturbs play.

Every line is one packet of the console (hal/console.py: PACKET bytes,
spaces before the CR LF), written only when the console has room for it,
so the table never waits for the host; what finds no room is still owed
and goes out at a later call.  I and M are 4 hex digits.

    @l K/N <48 hex>   LEDs 8K to 8K+7 as the strip last got them (its N
                      segments of 8: the seats to the last fitted, then the
                      ring's two): 3 bytes an LED, wire order (G, R, B),
                      after the current limiter
    @k M  <hex>       a keyframe: the match the table holds, from its start:
                      the 4-byte header (game, players, options low, high),
                      then 3 bytes a word, big-endian: the SEATS word, the
                      SEED word, the SET word of a challenge set read from a
                      file (none for a built-in set); its journal holds M
                      actions, which @j lines bring.  "@k -": no match
    @j I  <hex>       the journal's actions from the I-th on (up to WORDS,
                      3 bytes each)
    @u I              of the actions sent, only the first I still stand (an
                      undo, or more)

One line per journal change, whatever the journal's length.  It is found
without a word from the app: Storage.writes counts every append, undo, new
match and clearing, so when it moved by d since the last look, the first
(length then - d) actions are as they were; the ones after are compared
with the last MEMORY words sent, and an @u line cuts the host's copy where
they differ (an undo and new actions in one pass included), @j lines bring
the rest.  A new match (another object or seed), or a change reaching
further back than MEMORY words, is a keyframe.

Every KEYFRAME_MS, a keyframe and every LED segment again, so that a mirror
started in the middle of a match has the whole table within that time and
the catching up after it.  A call writes BUDGET packets at most (a 5-player
Nokosu journal of 759 actions is 109 @j lines: its keyframe takes some 40
passes of the frames); tools/bench/bench_mirror.py prints what each line
and the longest call cost the Pico.  Nothing is allocated per line
(tests/test_mirror.py measures it under MicroPython with the Pico's heap,
and reads the frames' sizes): a line's bytes are packed by struct.pack_into
into a chunk made once, and its hex digits written by a framebuf blit of the
chunk read as 4-bit pixels through a palette of the 16 digits, both in C.
"""

from struct import pack_into

import framebuf
from micropython import const

from dicetable.app.play import SEATS_RECORD, SEED_RECORD, SET_RECORD
from hal.console import PACKET

KEYFRAME_MS = const(5000)
MEMORY = const(32)  # journal words remembered as sent (a power of two)
BUDGET = const(3)  # packets a call writes at most (tools/bench/bench_mirror.py)
WORDS = const(7)  # actions an @j line carries
_SEGMENT = const(24)  # the bytes of 8 LEDs
_WIDTH = const(59)  # a line's characters after "@x ", before CR LF
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_UNKNOWN = const(-1)  # _id when what the host has is not known: a keyframe
_HEX = const(b"0123456789abcdef")


class Mirror:
    """The mirror's lines for `table`, whose LEDs are the strip bytes `leds`,
    on `console` (hal/console.py)."""

    def __init__(self, console, leds, table):
        self._c = console
        self._write = console.write  # a packet, once console.room() said so
        self._t = table
        segments = len(leds) // _SEGMENT
        view = memoryview(leds)
        self._was = bytearray(len(leds))  # the strip as the host has it
        was = memoryview(self._was)
        self._now = [view[k * _SEGMENT : (k + 1) * _SEGMENT] for k in range(segments)]
        self._sent = [was[k * _SEGMENT : (k + 1) * _SEGMENT] for k in range(segments)]
        self._all = (1 << segments) - 1
        self._owe = self._all  # the segments the host lacks, a bit each
        # Every line is made in one packet, "@x " and what follows it: a
        # blit writes its hex digits, bytes read as 4-bit pixels (high half
        # first) through a palette of the 16 digits (a source blitted at -x
        # gives its digits from x on); spaces are a blit too.  A chunk holds
        # a line's number (2 bytes), a zero byte whose digits become spaces,
        # then 3 bytes a word: each word is packed as 4 bytes, big-endian,
        # last word first, so that its zero high byte falls on the one before.
        self._p = bytearray(b"@?" + b" " * (PACKET - 4) + b"\r\n")
        self._f = framebuf.FrameBuffer(memoryview(self._p)[3 : PACKET - 2], _WIDTH, 1, framebuf.GS8)
        self._digits = framebuf.FrameBuffer(bytearray(_HEX), 16, 1, framebuf.GS8)
        self._spaces = framebuf.FrameBuffer(bytearray(b" " * _WIDTH), _WIDTH, 1, framebuf.GS8)
        self._strip = framebuf.FrameBuffer(leds, 2 * len(leds), 1, framebuf.GS4_HMSB)
        self._chunk = bytearray(3 + 3 * WORDS)
        self._hex = framebuf.FrameBuffer(self._chunk, 2 * len(self._chunk), 1, framebuf.GS4_HMSB)
        self._segments = segments
        self._mem = [0] * MEMORY  # word i sent, at i % MEMORY, for i in [_lo, _n)
        self._id = _UNKNOWN  # id() of the match the host follows; 0: no match
        self._seed = 0  # and its seed
        self._n = 0  # the actions the host has
        self._lo = 0
        self._cut = False  # an @u line owed: the host has actions no longer there
        self._len = 0  # the journal's length at the last look
        self._writes = 0  # Storage.writes then
        self._key = 0  # when the last keyframe began (ms ticks)
        self._left = 0  # packets this call may still write

    def leds(self):
        """After a frame is pushed: the LED segments it changed."""
        self._left = BUDGET
        now = self._now
        sent = self._sent
        for k in range(len(now)):
            if now[k] != sent[k]:
                self._owe |= 1 << k
        self._send()

    def tick(self, now_ms):
        """The frames pass: what the host lacks of the journal, then of the
        LEDs; every KEYFRAME_MS all of it again."""
        self._left = BUDGET
        if (now_ms - self._key) & _TICKS_MASK >= KEYFRAME_MS:
            self._key = now_ms
            self._id = _UNKNOWN
            self._owe = self._all
        self._follow()
        if self._owe:
            self._send()

    def _send(self):
        # The owed LED segments, as long as the budget and the console allow.
        k = 0
        while self._owe >> k and self._left:
            if self._owe >> k & 1:
                if not self._c.room():
                    return
                self._led(k)
                self._sent[k][:] = self._now[k]
                self._owe &= ~(1 << k)
                self._left -= 1
            k += 1

    def _led(self, k):
        # "@l K/N <48 hex>": segment K's digits from 4 on, then its name.
        p = self._p
        self._f.blit(self._strip, 4 - 2 * _SEGMENT * k, 0, -1, self._digits)
        self._f.blit(self._spaces, 4 + 2 * _SEGMENT, 0)
        p[1] = 108  # "l"
        p[3] = 48 + k
        p[4] = 47  # "/"
        p[5] = 48 + self._segments
        p[6] = 32
        self._write(p, 0, PACKET)

    def _follow(self):
        # The journal: a keyframe when the host's copy is not known, else
        # what changed since the last look, then what the host lacks.
        t = self._t
        m = t.match
        if m is None:
            if self._id and self._left and self._c.room():
                self._keyframe(None)
            return
        if self._id != id(m) or self._seed != t.seed:
            if not (self._left and self._c.room()):
                return
            self._keyframe(m)
        elif t.storage.writes != self._writes and not self._check(m.journal):
            return  # too far back: a keyframe at the next call
        journal = m.journal
        while self._left and (self._cut or self._n < len(journal)) and self._c.room():
            if self._cut:
                self._undo()
            else:
                self._more(journal)
            self._left -= 1

    def _keyframe(self, m):
        # "@k M  <header and words>" for match m, or "@k -" (room() said yes).
        t = self._t
        self._left -= 1
        if m is None:
            self._f.blit(self._spaces, 1, 0)
            self._p[1] = 107  # "k"
            self._p[3] = 45  # "-"
            self._write(self._p, 0, PACKET)
            self._id = 0
            return
        at = 26  # the digits' end: M, the zero byte, the header, SEATS, SEED
        if getattr(m, "set_word", 0):
            pack_into(">I", self._chunk, 12, SET_RECORD | m.set_word)
            at = 32
        pack_into(">I", self._chunk, 9, SEED_RECORD | t.seed)
        pack_into(">I", self._chunk, 6, SEATS_RECORD | t._seat_mask())
        pack_into(
            ">I",
            self._chunk,
            3,
            t.game << 24 | m.players << 16 | (m.options & 0xFF) << 8 | m.options >> 8,
        )
        pack_into(">HB", self._chunk, 0, len(m.journal), 0)
        self._line(107, at)  # "k"
        self._id = id(m)
        self._seed = t.seed
        self._n = 0
        self._lo = 0
        self._cut = False
        self._len = len(m.journal)
        self._writes = t.storage.writes

    def _line(self, kind, end):
        # "@x " and the chunk's first `end` digits (the zero byte's two, after
        # the number, as spaces).
        p = self._p
        self._f.blit(self._hex, 0, 0, -1, self._digits)
        self._f.blit(self._spaces, end, 0)
        p[1] = kind
        p[7] = 32
        p[8] = 32
        self._write(p, 0, PACKET)

    def _check(self, journal):
        # Writes since the last look took back at most that many actions:
        # the host keeps its actions up to the first that differs from the
        # journal now.  False when that may lie before the MEMORY words.
        w = self._t.storage.writes
        i = self._len - (w - self._writes)
        self._len = len(journal)
        self._writes = w
        top = self._n if self._n < self._len else self._len
        if i < 0:
            i = 0
        if i < top:
            if i < self._lo:
                self._id = _UNKNOWN
                return False
            while i < top and journal[i] == self._mem[i & (MEMORY - 1)]:
                i += 1
            top = i
        if top < self._n:
            self._n = top
            self._cut = True
        return True

    def _undo(self):
        # "@u I": the host keeps its first _n actions.
        pack_into(">H", self._chunk, 0, self._n)
        self._line(117, 4)  # "u"
        self._cut = False

    def _more(self, journal):
        # "@j I  <hex>": up to WORDS actions from the host's _n-th on.
        i = self._n + WORDS
        if i > len(journal):
            i = len(journal)
        w = i - self._n
        while i > self._n:
            i -= 1
            self._mem[i & (MEMORY - 1)] = journal[i]
            pack_into(">I", self._chunk, 2 + 3 * (i - self._n), journal[i])
        pack_into(">H", self._chunk, 0, i)
        self._line(106, 6 + 6 * w)  # "j"
        self._n += w
        if self._n - MEMORY > self._lo:
            self._lo = self._n - MEMORY
