"""The USB serial console, the only writer to it: the table's log lines and
the mirror's (hal/mirror.py).  It never waits for the host.

    console = Console(sys.stdout.buffer)   a select.poll for POLLOUT made here
    console.line(text)      a log line: out now, whole, or dropped and counted
    console.log(line)       the same for the app's line (app/line.py)
    console.room()          True when one packet can go out now (the mirror)
    console.put(packet)     that packet: PACKET bytes ending in CR LF
    console.write           the stream's write(buf, off, n), for the same

WHY IT CANNOT WAIT.  A write to the console waits, in C, for room in
TinyUSB's CDC transmit FIFO while a host holds the port open (DTR high), up
to MICROPY_HW_USB_CDC_TX_TIMEOUT (500 ms) at a time
(shared/tinyusb/mp_usbd_cdc.c, mp_usbd_cdc_tx_strn): a host that opens the
port and stops reading would stop the table, and the watchdog would reset
it.  With the port closed (DTR low) the FIFO overwrites its oldest bytes
and nothing waits.

WHAT THE POLL SAYS.  select.poll's POLLOUT on sys.stdout.buffer is
tud_cdc_write_available() > 0 while the port is open, always while it is
closed (mp_usbd_cdc_poll_interfaces): one byte of room, not a line's.  So
every write is exactly PACKET bytes, a line padded with spaces before its
CR LF to whole packets.  The FIFO (CFG_TUD_CDC_TX_BUFSIZE, 256 bytes) gives
bytes to the USB controller PACKET at a time, or all it holds when that is
less (tud_cdc_n_write_flush: min(level, CFG_TUD_CDC_EP_BUFSIZE = 64)), so
while every write is a whole packet the FIFO holds whole packets: one byte
of room is a packet's, and a packet written when the poll says so never
waits.  Anything else written to the console (a traceback, the REPL) can
leave the FIFO holding part of a packet until it next empties; a host that
stops reading just then can hold one write up to 500 ms, once, after which
the FIFO is full and the poll says so (docs/firmware.md).

A LINE GOES OUT WHOLE OR NOT AT ALL.  line() writes a line only when the
poll says its first packet fits; a line of several packets (a log line
longer than PACKET - 2 characters) keeps its rest here and sends it before
anything else, so the host never gets half a line.  A line that
finds no room is dropped and counted; the first packet that finds room
again is the loss line, "@lost N", N lines dropped since the last one.

Nothing is allocated per line: the text is copied by struct.pack_into into
a buffer made once, its padding by a framebuf blit of spaces
(tests/test_console.py measures it under MicroPython with the Pico's heap).
"""

from struct import pack_into

import framebuf
from micropython import const

PACKET = const(64)  # a full-speed bulk packet: CFG_TUD_CDC_EP_BUFSIZE
_PACKETS = const(4)  # the longest log line, in packets: the FIFO's 256 bytes
_TEXT = const(254)  # its characters: _PACKETS * PACKET less CR LF
_FORMAT = const("254s")  # struct's copy of them, NUL after a shorter line
_LOSS = const(b"@lost ")
_DIGITS = const(6)  # where N starts in the loss line: len(_LOSS)

try:
    pack_into("1s", bytearray(1), 0, "")
    _STR = True
except Exception:  # CPython's struct packs bytes only (struct.error)
    _STR = False


class Console:
    """The console over `stream` (write(buf, off, n)); `poll` has ipoll(0),
    an iterator that yields when a packet fits: a select.poll made here for
    POLLOUT on `stream`, or the stream itself when it has one
    (sim/hw/vconsole.py)."""

    def __init__(self, stream, poll=None):
        if poll is None and hasattr(stream, "ipoll"):
            poll = stream
        if poll is None:
            import select

            poll = select.poll()
            poll.register(stream, select.POLLOUT)
        self._poll = poll
        self.write = stream.write
        self._line = bytearray(_PACKETS * PACKET)
        self._fill = framebuf.FrameBuffer(self._line, _PACKETS * PACKET, 1, framebuf.GS8)
        self._spaces = framebuf.FrameBuffer(bytearray(b" " * PACKET), PACKET, 1, framebuf.GS8)
        self._at = 0  # the next packet of the line still going out
        self._end = 0  # that line's end: it is out when _at == _end
        self.dropped = 0  # lines dropped since the last loss line
        self.lost = 0  # every line dropped

    def line(self, text):
        """The log line `text` (a str): out now, or dropped and counted."""
        if self._full():
            return
        b = self._line
        pack_into(_FORMAT, b, 0, text if _STR else text.encode())
        n = len(text)
        if n > _TEXT:
            n = _TEXT
        while n < _TEXT and b[n]:  # a character of several bytes
            n += 1
        self._send(n)

    def log(self, line):
        """The app's log line (app/line.py: its bytes in line.buf, line.n of
        them), as line() sends a str: the table's log callback."""
        if self._full():
            return
        pack_into(_FORMAT, self._line, 0, line.buf)
        self._send(line.n)

    def _full(self):
        # True when the line must be dropped (and it is counted): what is
        # owed does not all go out now, or the poll says no room.  The
        # poll's answer by next() in C: a line is often logged deep in the
        # app's calls, where a Python call more costs the C stack.
        if (
            (self._at < self._end or self.dropped)
            and not self._owed()
            or (next(self._poll.ipoll(0), None) is None)
        ):
            self.dropped += 1
            self.lost += 1
            return True
        return False

    def _send(self, n):
        # The line's first n bytes in the buffer, padded to whole packets.
        b = self._line
        end = (n + PACKET + 1) // PACKET * PACKET
        self._fill.blit(self._spaces, n, 0)
        b[end - 2] = 13
        b[end - 1] = 10
        self.write(b, 0, PACKET)
        self._at = PACKET
        self._end = end
        if end > PACKET:
            self._more()

    def room(self):
        """True when a packet can be written now without waiting.  What is
        owed goes first (the rest of a long line, then the loss line), a
        packet a call: the call that writes one says False, so that no
        caller's call writes more than it asked for."""
        for _ in self._poll.ipoll(0):
            if self._at < self._end:
                self.write(self._line, self._at, PACKET)
                self._at += PACKET
                return False
            if self.dropped:
                self._report()
                return False
            return True
        return False

    def put(self, packet):
        """One packet (PACKET bytes, a line ending in CR LF), right after
        room() said True."""
        self.write(packet, 0, PACKET)

    def _ready(self):
        for _ in self._poll.ipoll(0):
            return True
        return False

    def _more(self):
        # The rest of the line, a packet each time the poll says it fits.
        while self._at < self._end and self._ready():
            self.write(self._line, self._at, PACKET)
            self._at += PACKET

    def _owed(self):
        # What is owed, out while the poll says it fits: True when all is.
        self._more()
        if self._at < self._end:
            return False
        if self.dropped and self._ready():
            self._report()
        return not self.dropped

    def _report(self):
        # "@lost N": N's digits after the word, spaces after them, in the
        # line's buffer (free: what was owed of a line went first).
        n = self.dropped
        end = _DIGITS + 1
        v = n
        while v >= 10:
            v //= 10
            end += 1
        p = self._line
        pack_into("6s", p, 0, _LOSS)
        self._fill.blit(self._spaces, end, 0)
        p[PACKET - 2] = 13
        p[PACKET - 1] = 10
        while end > _DIGITS:
            end -= 1
            p[end] = 48 + n % 10
            n //= 10
        self.write(p, 0, PACKET)
        self.dropped = 0
