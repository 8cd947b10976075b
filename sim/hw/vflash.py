"""Virtual flash: an in-memory filesystem whose power a test can cut.

VFlash is the `fs` that hal.storage.Storage uses (open with 'rb', 'wb' or
'ab', remove, rename, exists).  Like LittleFS, data written to a file
reaches flash when the file is flushed or closed; rename and remove are
atomic.  cut_after(n) cuts the power after n more bytes reach flash: the
flush that would write byte n + 1 writes the first n (a torn write, which is
worse than LittleFS ever does) and raises PowerLost, and so does everything
after it.  reboot() returns a new VFlash holding the bytes that survived, and
a new Storage over it is the board after the power came back.  fill_after(n)
makes the flash full instead.  Portable: runs under MicroPython.
"""


class PowerLost(BaseException):
    """The power is gone: no code runs on after this (hence not an Exception)."""


class VFlash:
    """Files in memory: a dict of path -> bytearray of what reached flash."""

    def __init__(self, files=None):
        self.files = {} if files is None else files
        self.written = 0        # bytes that reached flash, in all
        self.dead = False
        self._budget = -1       # bytes left before the cut; -1: no cut planned
        self._space = -1        # bytes left before the flash is full; -1: no limit

    def cut_after(self, n):
        """Cut the power once n more bytes have reached flash."""
        self._budget = n

    def fill_after(self, n):
        """The flash is full once n more bytes have reached it: a flush then
        writes what fits and raises OSError (ENOSPC).  None: room again."""
        self._space = -1 if n is None else n

    def reboot(self):
        """The same flash after a power cycle: a new VFlash with the surviving files."""
        files = {}
        for path in self.files:
            files[path] = bytearray(self.files[path])
        return VFlash(files)

    def open(self, path, mode):
        """A file object: mode 'rb', 'wb' (truncates) or 'ab'."""
        self._alive()
        if mode == "rb":
            if path not in self.files:
                raise OSError(2, "ENOENT")
            return _Reader(self, bytes(self.files[path]))
        if mode == "wb":
            self.files[path] = bytearray()
        elif mode == "ab":
            if path not in self.files:
                self.files[path] = bytearray()
        else:
            raise ValueError("mode must be 'rb', 'wb' or 'ab'")
        return _Writer(self, self.files[path])

    def remove(self, path):
        """Delete a file."""
        self._alive()
        if path not in self.files:
            raise OSError(2, "ENOENT")
        del self.files[path]

    def rename(self, old, new):
        """Rename old to new, replacing new: atomic."""
        self._alive()
        if old not in self.files:
            raise OSError(2, "ENOENT")
        self.files[new] = self.files.pop(old)

    def exists(self, path):
        """True if the file exists."""
        self._alive()
        return path in self.files

    def _alive(self):
        if self.dead:
            raise PowerLost()

    def _program(self, data, chunk):
        # Put chunk on flash at the end of data, as far as the power lasts.
        self._alive()
        n = len(chunk)
        if 0 <= self._budget < n:
            data.extend(chunk[:self._budget])
            self.written += self._budget
            self._budget = 0
            self.dead = True
            raise PowerLost()
        if 0 <= self._space < n:
            data.extend(chunk[:self._space])
            self.written += self._space
            if self._budget > 0:
                self._budget -= self._space
            self._space = 0
            raise OSError(28, "ENOSPC")
        data.extend(chunk)
        self.written += n
        if self._budget > 0:
            self._budget -= n
        if self._space > 0:
            self._space -= n


class _Writer:
    # A file open for writing: bytes wait in RAM until flush() or close().
    def __init__(self, flash, data):
        self._flash = flash
        self._data = data
        self._pending = bytearray()
        self.closed = False

    def write(self, b):
        if self.closed:
            raise ValueError("file closed")
        self._pending.extend(b)
        return len(b)

    def flush(self):
        if self._pending:
            chunk = bytes(self._pending)
            self._pending = bytearray()
            self._flash._program(self._data, chunk)

    def close(self):
        if not self.closed:
            self.flush()
            self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Reader:
    # A file open for reading: a copy of what was on flash when it opened.
    def __init__(self, flash, data):
        self._flash = flash
        self._data = data
        self._pos = 0

    def read(self, n=-1):
        self._flash._alive()
        end = len(self._data) if n is None or n < 0 else min(len(self._data), self._pos + n)
        out = self._data[self._pos:end]
        self._pos = end
        return out

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
