"""A NOR flash chip (the Pico's W25Q16) as the raw journal sees it through rp2.Flash().

NorFlash(blocks) answers what rp2.Flash() answers: readblocks(block, buf,
offset), writeblocks(block, buf, offset) (a program: no erase),
writeblocks(block, buf) (erase, then program) and ioctl(4|5|6, arg) (block
count, block size, erase one block).  Like the chip:

- an erase sets a 4096-byte block to 0xFF; a program can only clear bits
  (each byte becomes old AND new), so writing over written bytes gives
  their AND, never the new value;
- a program must cover whole 256-byte pages at page offsets, as the SDK's
  flash_range_program() requires (a ValueError here instead of the
  board's undefined behaviour);
- busy time at the datasheet's typical figures: ERASE_US per erase,
  PROGRAM_US per page programmed; counts of erases and page programs per
  block (wear), and of calls (an erase or a program each).

CALL_US is the CPU time a flash call takes on the board beyond the chip's
busy time (the SDK leaves and re-enters execute-in-place around it, and the
boot ROM sends a page's bytes itself, interrupts off): the commits timed on
the board at 74a722b were that much above the model's Python and busy time
per call (tools/bench/bench_flash.py fits it and prints the check).

POWER CUTS.  cut_after(n) lets n more units of work happen, then the power
goes: the operation under way stops and PowerLost is raised, by it and by
every call after it.  A programmed byte is one unit (only bytes that are not
0xFF in the buffer: a 0xFF byte leaves its cell alone, so a cut there is the
cut after the byte before it); an erase is two units: with one unit left
the erase is cut half-way, which leaves the block in an undefined state,
modelled as all bytes pseudo-random (the worst a reader can meet: nothing
of the old block can be trusted and nothing reads as erased).  Bytes of a
page are programmed in order.  `used` counts the units done.

Portable: runs under MicroPython (the journal's tests run it there).
"""

BLOCK = 4096
PAGE = 256
ERASE_US = 45000  # W25Q16 4 KiB sector erase, typical
PROGRAM_US = 400  # W25Q16 256-byte page program, typical
CALL_US = 270  # CPU per flash call beyond the busy time, fitted to the board at 74a722b


class PowerLost(BaseException):
    """The power is gone: no code runs on after this (hence not an Exception)."""


class NorFlash:
    """`blocks` blocks of 4096 bytes, all erased at first."""

    def __init__(self, blocks, data=None):
        self.blocks = blocks
        # Only blocks ever erased or programmed take memory; the rest read 0xFF.
        self.data = {} if data is None else data
        self.erases = [0] * blocks  # erases per block
        self.programs = [0] * blocks  # page programs per block
        self.busy_us = 0  # time the chip was busy, in all
        self.calls = 0  # erases and programs asked
        self.used = 0  # units of work done (see cut_after)
        self.dead = False
        self._budget = -1  # units left before the cut; -1: none planned
        self._noise = 0x2545F491  # state of the garbage a cut erase leaves

    def copy(self):
        """The same chip after a power cycle: its bytes and its wear, alive again."""
        c = NorFlash(self.blocks, {b: bytearray(d) for b, d in self.data.items()})
        c.erases = list(self.erases)
        c.programs = list(self.programs)
        c.busy_us = self.busy_us
        c.calls = self.calls
        c._noise = self._noise
        return c

    def cut_after(self, n):
        """Cut the power once n more units of work are done (None: no cut)."""
        self._budget = -1 if n is None else n

    def block(self, block):
        """The bytes of one block (a test may damage them)."""
        data = self.data.get(block)
        if data is None:
            data = self.data[block] = bytearray(BLOCK)
            for i in range(BLOCK):
                data[i] = 0xFF
        return data

    def readblocks(self, block, buf, offset=0):
        self._alive()
        if block < 0 or offset < 0 or offset + len(buf) > BLOCK or block >= self.blocks:
            raise ValueError("read outside one block")
        data = self.data.get(block)
        if data is None:
            for i in range(len(buf)):
                buf[i] = 0xFF
        else:
            buf[:] = memoryview(data)[offset : offset + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            for b in range(block, block + (len(buf) + BLOCK - 1) // BLOCK):
                self.erase(b)
            offset = 0
        self.program(block, buf, offset)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self.erase(arg)
            return 0
        return None

    def erase(self, block):
        """Erase one block (a cut half-way leaves it pseudo-random)."""
        self._alive()
        if not 0 <= block < self.blocks:
            raise ValueError("no such block")
        if self._budget == 0:
            self._die()
        data = self.block(block)
        self.erases[block] += 1
        self.calls += 1
        if self._budget == 1:
            self._budget = 0
            self.used += 1
            x = self._noise
            for i in range(BLOCK):
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                data[i] = x & 0xFF
            self._noise = x
            self._die()
        for i in range(BLOCK):
            data[i] = 0xFF
        self.busy_us += ERASE_US
        self.used += 2
        if self._budget > 0:
            self._budget -= 2

    def program(self, block, buf, offset):
        """Program whole pages at a page offset: every byte becomes old AND new."""
        self._alive()
        n = len(buf)
        if (
            offset % PAGE
            or n % PAGE
            or n == 0
            or block < 0
            or offset + n > BLOCK
            or block >= self.blocks
        ):
            raise ValueError("a program covers whole pages inside one block")
        start = offset
        self.calls += 1
        self.programs[block] += n // PAGE
        self.busy_us += PROGRAM_US * (n // PAGE)
        data = self.block(block)
        for i in range(n):
            b = buf[i]
            if b == 0xFF:
                continue
            if self._budget == 0:
                self._die()
            data[start + i] &= b
            self.used += 1
            if self._budget > 0:
                self._budget -= 1

    def _alive(self):
        if self.dead:
            raise PowerLost()

    def _die(self):
        self.dead = True
        raise PowerLost()
