"""Virtual flash: the board's filesystem and the raw NOR flash under it, whose power
a test can cut.

VFlash is the `fs` that hal.storage.Storage uses (open with 'rb', 'wb' or
'ab', remove, rename, exists) and `raw`, the NorFlash (norflash.py)
under it.  Like LittleFS, data written to a file reaches flash when the
file is flushed or closed, rename and remove are atomic, and a file written
whole in one go as exactly one block (4096 bytes, what the journal's
segment files are) gets a NOR block of its own, erased then programmed,
with its data at offset 0; it is read back from that block, so raw page
programs to it show through the file, and removing it leaves its old bytes
in the block, as LittleFS does.  Other files are kept in a dict.

cut_after(n) cuts the power after n more units of work: a byte of a
small file reaching flash is one, the NOR model counts its own (a
programmed byte one, an erase two: see norflash.py).  The flush that would
write byte n + 1 of a small file writes the first n (a torn write, which is
worse than LittleFS ever does) and raises PowerLost, and so does everything
after it.  `written` is the units done.  reboot() returns a new VFlash
holding what survived; a new Storage over it is the board after the power
came back.  fill_after(n) makes the filesystem full instead (small files).
Portable: runs under MicroPython.

It is the project's one in-memory filesystem: the virtual board (sim/hw/rig.py),
the storage tests, and the host tools, which read and write registry.bin and
journal images with hal.storage's own code over it (host_tools/registry_csv.py,
backup.py, journal_image.py).
"""

from flashmodel.norflash import BLOCK, NorFlash, PowerLost

__all__ = ("PowerLost", "VFlash")

RAW_BLOCKS = 24  # room for the journal's segment files made afresh twice over (only
# the blocks written take memory)


class VFlash:
    """Files in memory (a dict of path -> bytearray) and the NOR flash under them."""

    def __init__(self, files=None, raw=None, placed=None):
        self.files = {} if files is None else files
        self.raw = NorFlash(RAW_BLOCKS) if raw is None else raw
        self.placed = {} if placed is None else placed  # path -> NOR block of a one-block file
        self._next = 0  # where the next one-block file goes
        self._space = -1  # bytes left before the flash is full; -1: no limit

    @property
    def written(self):
        """Units of work that reached flash, in all (see cut_after)."""
        return self.raw.used

    @property
    def dead(self):
        return self.raw.dead

    def cut_after(self, n):
        """Cut the power once n more units of work are done."""
        self.raw.cut_after(n)

    def fill_after(self, n):
        """The flash is full once n more bytes have reached it: a flush then
        writes what fits and raises OSError (ENOSPC).  None: room again."""
        self._space = -1 if n is None else n

    def reboot(self):
        """The same flash after a power cycle: a new VFlash with what survived."""
        files = {}
        for path in self.files:
            files[path] = bytearray(self.files[path])
        again = VFlash(files, self.raw.copy(), dict(self.placed))
        again._next = self._next
        return again

    def open(self, path, mode):
        """A file object: mode 'rb', 'wb' (truncates) or 'ab'."""
        self._alive()
        if mode == "rb":
            if path in self.placed:
                return _BlockReader(self.raw, self.placed[path])
            if path not in self.files:
                raise OSError(2, "ENOENT")
            return _Reader(self, bytes(self.files[path]))
        if mode == "wb":
            self.placed.pop(path, None)
            self.files[path] = bytearray()
        elif mode == "ab":
            if path in self.placed:
                raise OSError(1, "EPERM")  # the journal never appends to a segment file
            if path not in self.files:
                self.files[path] = bytearray()
        else:
            raise ValueError("mode must be 'rb', 'wb' or 'ab'")
        return _Writer(self, path)

    def remove(self, path):
        """Delete a file."""
        self._alive()
        if path in self.placed:
            del self.placed[path]
            return
        if path not in self.files:
            raise OSError(2, "ENOENT")
        del self.files[path]

    def rename(self, old, new):
        """Rename old to new, replacing new: atomic."""
        self._alive()
        if old in self.placed:
            self.files.pop(new, None)
            self.placed[new] = self.placed.pop(old)
            return
        if old not in self.files:
            raise OSError(2, "ENOENT")
        self.placed.pop(new, None)
        self.files[new] = self.files.pop(old)

    def exists(self, path):
        """True if the file exists."""
        self._alive()
        return path in self.files or path in self.placed

    def _alive(self):
        if self.raw.dead:
            raise PowerLost()

    def _place(self, path, chunk):
        # A whole one-block file: a free NOR block, erased, then programmed.
        used = self.placed.values()
        for k in range(RAW_BLOCKS):
            block = (self._next + k) % RAW_BLOCKS
            if block not in used:
                break
        else:
            raise OSError(28, "ENOSPC")
        self._next = (block + 1) % RAW_BLOCKS
        self.raw.erase(block)
        self.raw.program(block, chunk, 0)
        del self.files[path]
        self.placed[path] = block

    def _program(self, path, chunk):
        # Put chunk on flash at the end of the file, as far as the power lasts.
        self._alive()
        data = self.files[path]
        if not data and len(chunk) == BLOCK:
            self._place(path, chunk)
            return
        raw = self.raw
        n = len(chunk)
        budget = raw._budget
        if 0 <= budget < n:
            data.extend(chunk[:budget])
            raw.used += budget
            raw._budget = 0
            raw.dead = True
            raise PowerLost()
        if 0 <= self._space < n:
            data.extend(chunk[: self._space])
            raw.used += self._space
            if budget > 0:
                raw._budget -= self._space
            self._space = 0
            raise OSError(28, "ENOSPC")
        data.extend(chunk)
        raw.used += n
        if budget > 0:
            raw._budget -= n
        if self._space > 0:
            self._space -= n


class _Writer:
    # A file open for writing: bytes wait in RAM until flush() or close().
    def __init__(self, flash, path):
        self._flash = flash
        self._path = path
        self._pending = bytearray()
        self.closed = False

    def write(self, b):
        if self.closed:
            raise ValueError("file closed")
        if not self._pending and len(b) == BLOCK and not self._flash.files[self._path]:
            # A whole block: LittleFS programs it straight from the buffer.
            self._flash._program(self._path, b)
        else:
            self._pending.extend(b)
        return len(b)

    def flush(self):
        if self._pending:
            chunk = self._pending
            self._pending = bytearray()
            self._flash._program(self._path, chunk)

    def close(self):
        if not self.closed:
            self.closed = True
            self.flush()

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
        out = self._data[self._pos : end]
        self._pos = end
        return out

    def readinto(self, buf):
        self._flash._alive()
        n = min(len(buf), len(self._data) - self._pos)
        buf[:n] = self._data[self._pos : self._pos + n]
        self._pos += n
        return n

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _BlockReader:
    # A one-block file open for reading: straight from its NOR block, as
    # LittleFS reads a file's data block.
    def __init__(self, raw, block):
        self._raw = raw
        self._block = block
        self._pos = 0

    def read(self, n=-1):
        end = BLOCK if n is None or n < 0 else min(BLOCK, self._pos + n)
        out = bytearray(end - self._pos)
        self.readinto(out)
        return out

    def readinto(self, buf):
        n = min(len(buf), BLOCK - self._pos)
        if n == len(buf):
            self._raw.readblocks(self._block, buf, self._pos)
        else:
            self._raw.readblocks(self._block, memoryview(buf)[:n], self._pos)
        self._pos += n
        return n

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
