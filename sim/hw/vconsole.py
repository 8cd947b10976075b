"""The board's USB serial console, virtual: VConsole().write(buf, off, n)
takes what a MicroPython stream's write takes (hal/mirror.py writes its
lines so), and keeps the bytes in `data`; lines() splits them.  Portable."""


class VConsole:
    """Bytes written to the console, kept."""

    def __init__(self):
        self.data = bytearray()

    def write(self, buf, off=0, n=-1):
        end = len(buf) if n < 0 else off + n
        self.data.extend(buf[off:end])
        return end - off

    def lines(self):
        """The complete lines written so far, as text."""
        return [line.decode() for line in bytes(self.data).split(b"\n")[:-1]]
