"""A virtual SPI bus with virtual chip-select lines.

VSPI offers the machine.SPI methods the drivers use (write, readinto,
write_readinto, read) and routes every byte to the chip whose chip-select is
low; the chip answers with the MISO byte.  Each byte advances the shared
virtual clock by its time on the wire at the bus's baud rate, so a driver
that polls a register really lets chip time pass.  Two chip-selects low at
once is a wiring or driver fault the real bus would garble silently: here it
raises.  A chip is any object with spi_begin(), spi_byte(mosi) -> miso and
spi_end().

What a driver costs is counted: `calls` (SPI method calls), `transactions`
(chip-select low periods), `transferred` (bytes), and `cs_writes` (chip-select
pin writes); VSIO counts its `stores`.

The driver selects a chip with hal.chipselect.ChipSelect stores to a port:
select(chip) gives one on the bus's own port (one line per chip), and VSIO is
the RP2040's SIO output registers (GPIO_OUT_SET/CLR/XOR, as machine.mem32 has
them) driving pin-like inputs by GPIO number, such as a VDecoder's address
pins.  Portable: runs under MicroPython as well as CPython.
"""

from hal.chipselect import GPIO_OUT_CLR, GPIO_OUT_SET, GPIO_OUT_XOR, ChipSelect
from sim.hw.vpin import PinLike

_IDLE_MISO = 0xFF  # no chip selected: MISO floats, the pull-up wins


class BusError(Exception):
    """Two chips selected at once on one bus."""


class VCSPin(PinLike):
    """A chip-select output (Pin-like: value(), pin(v), on(), off()); low selects the chip."""

    def __init__(self, bus, chip):
        self._bus = bus
        self.chip = chip
        self._v = 1

    def value(self, v=None):
        """Read the line, or drive it: 0 selects the chip, 1 ends its transfer."""
        if v is None:
            return self._v
        v = 1 if v else 0
        self._bus.cs_writes += 1
        if v != self._v:
            if v:
                self._v = 1
                self._bus._release(self)
                self.chip.spi_end()
            else:
                self._bus._select(self)
                self._v = 0
                self._bus.transactions += 1
                self.chip.spi_begin()
        return None


class _LinePort:
    # The bus's chip-select lines as a port: port[k] = level drives line k.
    def __init__(self, bus):
        self._bus = bus
        self.stores = 0

    def __setitem__(self, k, level):
        self.stores += 1
        self._bus._pins[k].value(level)


class VSIO:
    """The RP2040's SIO GPIO output registers, as machine.mem32 offers them:
    mem32[GPIO_OUT_SET] = bits sets those outputs, _CLR clears, _XOR toggles.
    attach(gpio, pin) wires an output to a pin-like input; a store that
    changes several outputs changes them in GPIO order."""

    def __init__(self):
        self.out = 0
        self.stores = 0
        self._pins = []

    def attach(self, gpio, pin):
        """Drive `pin` (pin-like) from GPIO `gpio`."""
        self._pins.append((gpio, pin))
        pin.value((self.out >> gpio) & 1)

    def __setitem__(self, address, bits):
        self.stores += 1
        if address == GPIO_OUT_SET:
            new = self.out | bits
        elif address == GPIO_OUT_CLR:
            new = self.out & ~bits
        elif address == GPIO_OUT_XOR:
            new = self.out ^ bits
        else:
            raise ValueError("not a SIO GPIO output register: 0x%08x" % address)
        changed = self.out ^ new
        self.out = new
        for gpio, pin in self._pins:
            if (changed >> gpio) & 1:
                pin.value((new >> gpio) & 1)

    def __getitem__(self, address):
        return self.out


class VSPI:
    """A virtual SPI bus (mode 0, MSB first) at `baudrate`, driving the virtual clock."""

    def __init__(self, clock, baudrate=1000000):
        self.clock = clock
        self.baudrate = baudrate
        self._pins = []
        self._sel = None  # the pin that is low, if any
        self._carry = 0  # sub-microsecond remainder of wire time, in 1/baud us
        self.transferred = 0  # bytes clocked so far
        self.calls = 0  # write, readinto, write_readinto and read calls
        self.transactions = 0  # chip-select low periods
        self.cs_writes = 0  # chip-select pin writes
        self.port = _LinePort(self)
        self.trace = None  # set to a list to record (cs index, mosi, miso) per byte

    def cs(self, chip):
        """Attach `chip` to the bus and return its chip-select pin (idle high)."""
        pin = VCSPin(self, chip)
        self._pins.append(pin)
        return pin

    def select(self, chip):
        """Attach `chip` to the bus and return its ChipSelect (a line of the bus's port)."""
        k = len(self._pins)
        self.cs(chip)
        return ChipSelect(self.port, k, 0, k, 1)

    def _select(self, pin):
        if self._sel is not None:
            raise BusError("two chip-selects low at once on one SPI bus")
        self._sel = pin

    def _release(self, pin):
        if self._sel is pin:
            self._sel = None

    def _byte(self, mosi):
        # The byte's 8 clocks pass before the chip's answer is complete.
        self._carry += 8000000
        self.clock.advance(self._carry // self.baudrate)
        self._carry %= self.baudrate
        self.transferred += 1
        pin = self._sel
        miso = _IDLE_MISO if pin is None else pin.chip.spi_byte(mosi)
        if self.trace is not None:
            self.trace.append((-1 if pin is None else self._pins.index(pin), mosi, miso))
        return miso

    def write(self, buf):
        """Clock out buf; what comes back is dropped."""
        self.calls += 1
        for b in buf:
            self._byte(b)

    def readinto(self, buf, write_byte=0):
        """Fill buf with what comes back while clocking out write_byte each time."""
        self.calls += 1
        for i in range(len(buf)):
            buf[i] = self._byte(write_byte)

    def write_readinto(self, wbuf, rbuf):
        """Clock out wbuf and store what comes back in rbuf (same length)."""
        self.calls += 1
        if len(wbuf) != len(rbuf):
            raise ValueError("write_readinto needs buffers of one length")
        for i in range(len(wbuf)):
            rbuf[i] = self._byte(wbuf[i])

    def read(self, n, write_byte=0):
        """Return n bytes read while clocking out write_byte."""
        buf = bytearray(n)
        self.readinto(buf, write_byte)
        return bytes(buf)

    def init(self, *args, **kwargs):
        """Accepted and ignored (the virtual bus has no modes to set)."""

    def deinit(self):
        """Accepted and ignored."""
