"""The table's log line, written into one buffer made once: saying what a
play did costs the board no heap (tools/bench/bench_heap.py).

    line = Line()
    line.start()                 an empty line
    line.add("seat ")            text (a str); line.num(-3), line.hex(uid)
    line.buf[:line.n]            the line's UTF-8 bytes (hal/console.py sends them)
    line.text()                  the line as a str (host tools, the text display)

A line holds TEXT bytes at most (the console's longest line); what goes
past them is cut off.  Each piece is copied by struct.pack_into, which on
MicroPython takes a str as it is and pads with NULs up to TEXT bytes after
it: the buffer is twice TEXT, and the NULs after the piece find its end in
bytes whatever its characters.
"""

from struct import pack_into

from micropython import const

TEXT = const(254)  # bytes of a line: the console's longest (hal/console.py)
_FORMAT = const("254s")
_HEX = b"0123456789abcdef"

try:
    pack_into("1s", bytearray(1), 0, "")
    _STR = True
except Exception:  # CPython's struct packs bytes only (struct.error)
    _STR = False


class Line:
    """One log line being written; see the module docstring."""

    def __init__(self):
        self.buf = bytearray(2 * TEXT)
        self.n = 0

    def start(self):
        """Empty the line."""
        self.n = 0
        self.buf[0] = 0

    def add(self, s):
        """Append the str `s`."""
        n = self.n
        if n >= TEXT:
            return
        b = self.buf
        pack_into(_FORMAT, b, n, s if _STR else s.encode())
        n += len(s)
        while n < TEXT and b[n]:  # a character of several bytes
            n += 1
        self.n = n if n < TEXT else TEXT

    def num(self, v):
        """Append the int `v` in decimal."""
        b = self.buf
        n = self.n
        if v < 0:
            if n < TEXT:
                b[n] = 45  # '-'
                n += 1
            v = -v
        d = 1
        while d * 10 <= v:
            d *= 10
        while d and n < TEXT:
            b[n] = 48 + v // d % 10
            n += 1
            d //= 10
        b[n] = 0
        self.n = n

    def hex(self, data):
        """Append the bytes `data` in lower-case hex ('04a1b2c3')."""
        b = self.buf
        n = self.n
        for x in data:
            if n + 2 > TEXT:
                break
            b[n] = _HEX[x >> 4]
            b[n + 1] = _HEX[x & 15]
            n += 2
        b[n] = 0
        self.n = n

    def text(self):
        """The line as a str (allocates: for the host and the text display)."""
        return bytes(self.buf[: self.n]).decode()


def words(write, *args):
    """What write(line, *args) writes, as a str: a game's item_words or an
    action's words for the host's tools and the tests (allocates)."""
    line = Line()
    write(line, *args)
    return line.text()
