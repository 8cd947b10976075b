"""A virtual MFRC522 (NXP) modelled at register level, with the tags on its antenna.

The model speaks the chip's SPI protocol (address byte ((reg << 1) & 0x7E),
| 0x80 to read; a read session returns each register on the byte after its
address; a write session sends every data byte to the one register) and keeps
the registers a driver uses, with their side effects:

- CommandReg: Idle, CalcCRC, Transmit, Transceive, SoftReset (and NoCmdChange);
  the PowerDown bit reads 1 until the oscillator is up after a reset.
- ComIrqReg/DivIrqReg with their Set1/Set2 write semantics; ErrorReg, CollReg,
  Status1Reg (CRCReady, IRq, TRunning, FIFO alerts), Status2Reg (modem state).
- The 64-byte FIFO (FIFODataReg, FIFOLevelReg with FlushBuffer, BufferOvfl).
- BitFramingReg (TxLastBits, StartSend), ControlReg (RxLastBits, TStartNow,
  TStopNow), TxModeReg/RxModeReg (CRC on/off, 106 kBd), TxControlReg (the
  antenna drivers: the RF field), TxASKReg (Force100ASK), ModeReg (CRC preset).
- The timer: TModeReg (TAuto, prescaler high bits), TPrescalerReg,
  TReloadReg, TCounterValReg, DemodReg's TPrescalEven; with TAuto it starts
  when a frame has gone out and stops when a reply begins, else it sets
  TimerIRq when it runs out.  That is the only way a wait for a tag that is
  not there ends.
- CRC_A over the FIFO (CalcCRC, CRCResultReg, CRCIRq).

All timing is virtual (sim.hw.clock): SPI bytes advance the clock, a frame
takes its air time at 106 kbit/s, and the chip brings its state up to the
clock's time whenever it is spoken to.  What happens to a frame once it is
out, the tags' replies until the reply is in the FIFO, is sim.hw.vtag's.

Every frame reaches every tag in the field, and each answers it as ISO/IEC
14443-3 has it (sim.hw.vtag): a SELECT (NVB 70h: the whole CLn and its BCC,
with CRC_A, 6.5.3) is answered with a SAK by a READY tag whose cascade level
has exactly those bytes, whether an ANTICOLLISION came before it or not, so
a driver can SELECT a UID it read before; a tag it does not match stays
silent, and the wait for it ends on the timer.  With TxCRCEn (TxModeReg:
datasheet 9.3.2.3) the chip appends the frame's CRC_A.  A command written
while a frame is going out interrupts it (datasheet 10.2): the tags hear
none of it.

Tags (sim.hw.vtag) are put on the antenna with place(), taken off with
remove(); flicker(tag, pattern) keeps a tag at the antenna's edge, present at
some looks only (sim.hw.vtag).  silence() makes the chip stop answering
(MISO reads 0, or 0xFF for a line stuck high), stall() stops its oscillator
(registers answer, nothing progresses), revive() powers it up again.
ResetLine is the NRSTPD line shared by several chips.

Portable: runs under MicroPython as well as CPython.
"""

from micropython import const

from dicetable.match.engine import EVERY
from sim.hw import vtag
from sim.hw.vpin import PinLike

# Registers (datasheet section 9).
CommandReg = const(0x01)
ComIEnReg = const(0x02)
DivIEnReg = const(0x03)
ComIrqReg = const(0x04)
DivIrqReg = const(0x05)
ErrorReg = const(0x06)
Status1Reg = const(0x07)
Status2Reg = const(0x08)
FIFODataReg = const(0x09)
FIFOLevelReg = const(0x0A)
WaterLevelReg = const(0x0B)
ControlReg = const(0x0C)
BitFramingReg = const(0x0D)
CollReg = const(0x0E)
ModeReg = const(0x11)
TxModeReg = const(0x12)
RxModeReg = const(0x13)
TxControlReg = const(0x14)
TxASKReg = const(0x15)
TxSelReg = const(0x16)
RxSelReg = const(0x17)
RxThresholdReg = const(0x18)
DemodReg = const(0x19)
MfTxReg = const(0x1C)
MfRxReg = const(0x1D)
SerialSpeedReg = const(0x1F)
CRCResultRegH = const(0x21)
CRCResultRegL = const(0x22)
ModWidthReg = const(0x24)
RFCfgReg = const(0x26)
GsNReg = const(0x27)
CWGsPReg = const(0x28)
ModGsPReg = const(0x29)
TModeReg = const(0x2A)
TPrescalerReg = const(0x2B)
TReloadRegH = const(0x2C)
TReloadRegL = const(0x2D)
TCounterValRegH = const(0x2E)
TCounterValRegL = const(0x2F)
VersionReg = const(0x37)

# Commands (CommandReg bits 3-0).
IDLE = const(0x0)
MEM = const(0x1)
GENERATE_RANDOM_ID = const(0x2)
CALC_CRC = const(0x3)
TRANSMIT = const(0x4)
NO_CMD_CHANGE = const(0x7)
RECEIVE = const(0x8)
TRANSCEIVE = const(0xC)
MF_AUTHENT = const(0xE)
SOFT_RESET = const(0xF)
RCV_OFF = const(0x20)
POWER_DOWN = const(0x10)

# ComIrqReg bits (bit 7 is Set1, write only).
TIMER_IRQ = const(0x01)
ERR_IRQ = const(0x02)
LO_ALERT_IRQ = const(0x04)
HI_ALERT_IRQ = const(0x08)
IDLE_IRQ = const(0x10)
RX_IRQ = const(0x20)
TX_IRQ = const(0x40)
CRC_IRQ = const(0x04)  # DivIrqReg (bit 7 is Set2, write only)

# ErrorReg bits.
PROTOCOL_ERR = const(0x01)
PARITY_ERR = const(0x02)
CRC_ERR = const(0x04)
COLL_ERR = const(0x08)
BUFFER_OVFL = const(0x10)

# Values after power-up or SoftReset (datasheet table 20 onwards); others 00h.
_RESET_VALUES = (
    (CommandReg, 0x20),
    (ComIEnReg, 0x80),
    (ComIrqReg, 0x14),
    (WaterLevelReg, 0x08),
    (ControlReg, 0x10),
    (CollReg, 0xA0),
    (ModeReg, 0x3F),
    (TxControlReg, 0x80),
    (TxSelReg, 0x10),
    (RxSelReg, 0x84),
    (RxThresholdReg, 0x84),
    (DemodReg, 0x4D),
    (MfTxReg, 0x62),
    (SerialSpeedReg, 0xEB),
    (CRCResultRegH, 0xFF),
    (CRCResultRegL, 0xFF),
    (ModWidthReg, 0x26),
    (RFCfgReg, 0x48),
    (GsNReg, 0x88),
    (CWGsPReg, 0x20),
    (ModGsPReg, 0x20),
)
_READ_ONLY = (
    ErrorReg,
    Status1Reg,
    CRCResultRegH,
    CRCResultRegL,
    TCounterValRegH,
    TCounterValRegL,
    VersionReg,
)
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)
# The slice `:`, made once: `del fifo[:]` makes one on the heap at every call
# under MicroPython, where the virtual board shares the Pico's heap with the
# firmware it runs (dicetable.match.engine.EVERY, the same for the board).
_ALL = EVERY

# The oscillator's start-up, in microseconds: it stands for the crystal's
# (the datasheet leaves it to the crystal).
WAKE_US = const(200)


def _irq_write(old, v, bits):
    """An interrupt request register after a write of v: Set1 (bit 7) sets the
    marked bits, else they are cleared; only `bits` exist."""
    return (old | (v & bits)) if v & 0x80 else (old & ~v & bits)


class VMFRC522:
    """One virtual MFRC522 on a virtual SPI bus, sharing the bench's clock."""

    def __init__(self, clock, version=0x92, name=None):
        self.clock = clock
        self.version = version
        self.name = name
        self.regs = bytearray(64)
        self.writes = [0] * 64  # writes per register, so a test can see what was programmed
        self.fifo = []
        self._tags = []  # the tags near the antenna (sim.hw.vtag's entries)
        self.silent = False
        self._miso_when_silent = 0
        self.stalled = False
        self.held_in_reset = False
        self._first = True
        self._reading = 0
        self._addr = 0
        self._out = 0
        # What a test may want to count.
        self.soft_resets = 0
        self.power_ups = 0
        self.frames = 0  # frames sent to the air
        self.reqa = 0
        self.wupa = 0
        self.timer_irqs = 0  # times the timer ran out (TimerIRq set)
        self.crc_runs = 0
        self.reg_reads = 0  # register accesses over SPI (a FIFO byte is one)
        self.reg_writes = 0
        self._power_on()

    def __repr__(self):
        return "VMFRC522(%s)" % (self.name or "")

    # --- power -------------------------------------------------------------
    def _power_on(self):
        r = self.regs
        for i in range(64):
            r[i] = 0
        for reg, value in _RESET_VALUES:
            r[reg] = value
        del self.fifo[_ALL]
        self._wake_at = self.clock.now_us + WAKE_US
        self._tx_end = None
        self._tx_frame = b""
        self._tx_last = 0
        self._rx_start = None
        self._rx_end = None
        self._rx_data = None
        self._rx_coll = 0
        self._timer_at = None
        self._timer_t0 = 0
        self._timer_div = 1
        self._timer_reload = 0
        self._timer_stops_on_rx = False
        self._crc_at = None
        self._crc_value = 0xFFFF
        self._crc_ready = False
        self._field = False
        self._drop_field()

    def _field_on(self):
        r = self.regs
        return (
            bool(r[TxControlReg] & 0x03)
            and not (r[CommandReg] & POWER_DOWN)
            and self._wake_at is None
            and not self.silent
            and not self.held_in_reset
        )

    def _check_field(self):
        on = self._field_on()
        if self._field and not on:
            self._drop_field()
        self._field = on

    def _drop_field(self):
        # Without the field a passive tag has no power: it forgets its state.
        self._field = False
        for e in self._tags:
            e[0].power_off()

    def _hard_reset(self, level):
        if level:
            self.held_in_reset = False
            self.power_ups += 1
            self._power_on()
        else:
            self.held_in_reset = True
            self._drop_field()

    # --- test hooks --------------------------------------------------------
    # The tags near the antenna are sim.hw.vtag's business, the list of them
    # the chip's: vtag's functions bound as methods, one function object each
    # on the virtual board's heap rather than a method here calling one there.
    place = vtag.place
    remove = vtag.remove
    flicker = vtag.flicker
    tags = vtag.tags

    def silence(self, miso=0):
        """The chip stops answering: MISO reads `miso` (0, or 0xFF for a line stuck high)."""
        self.silent = True
        self._miso_when_silent = miso
        self._drop_field()

    def stall(self):
        """The oscillator stops: registers still answer, but no command, timer or reply
        progresses."""
        self.stalled = True

    def revive(self):
        """Power the chip up again: registers at their reset values once the oscillator runs."""
        self.silent = False
        self.stalled = False
        self.power_ups += 1
        self._power_on()

    # --- SPI ---------------------------------------------------------------
    def spi_begin(self):
        """Chip-select went low: the next byte is an address byte."""
        self._first = True
        self._out = 0

    def spi_end(self):
        """Chip-select went high: the transfer is over."""
        self._first = True

    def spi_byte(self, mosi):
        """Take one MOSI byte, return the MISO byte clocked out with it."""
        if self.silent:
            return self._miso_when_silent
        if self.held_in_reset:
            return 0
        self._update()
        out = self._out
        self._out = 0
        if self._first:
            self._first = False
            self._reading = mosi & 0x80
            self._addr = (mosi >> 1) & 0x3F
            if self._reading:
                self.reg_reads += 1
                self._out = self._read(self._addr)
        elif self._reading:
            # Each further byte of a read names the next register; 00h ends it.
            if mosi & 0x80:
                self.reg_reads += 1
                self._out = self._read((mosi >> 1) & 0x3F)
        else:
            self.reg_writes += 1
            self._write(self._addr, mosi)
        return out

    # --- registers ---------------------------------------------------------
    def peek(self, reg):
        """A register's value as the driver would read it, without SPI (FIFO not popped)."""
        self._update()
        if reg == FIFODataReg:
            return self.fifo[0] if self.fifo else 0
        return self._read(reg)

    def _read(self, reg):
        r = self.regs
        if reg == FIFODataReg:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFOLevelReg:
            return len(self.fifo)
        if reg == CommandReg:
            return r[CommandReg] | (POWER_DOWN if self._wake_at is not None else 0)
        if reg == ComIrqReg:
            return r[ComIrqReg] & 0x7F
        if reg == DivIrqReg:
            return r[DivIrqReg] & 0x14
        if reg == Status1Reg:
            return self._status1()
        if reg == Status2Reg:
            return (r[Status2Reg] & 0xC8) | self._modem_state()
        if reg == ControlReg:
            return r[ControlReg] & 0x3F
        if reg == TCounterValRegH:
            return self._counter() >> 8
        if reg == TCounterValRegL:
            return self._counter() & 0xFF
        if reg == VersionReg:
            return self.version
        return r[reg]

    def _write(self, reg, v):
        self.writes[reg] += 1
        if self._wake_at is not None:
            return  # the oscillator is not running yet: the chip takes nothing in
        r = self.regs
        if reg == CommandReg:
            self._command(v)
        elif reg == ComIrqReg:
            r[reg] = _irq_write(r[reg], v, 0x7F)
        elif reg == DivIrqReg:
            r[reg] = _irq_write(r[reg], v, 0x14)
        elif reg == FIFODataReg:
            self._fifo_in(v)
        elif reg == FIFOLevelReg:
            self._fifo_level(v)
        elif reg == ControlReg:
            self._control(v)
        elif reg == BitFramingReg:
            self._bit_framing(v)
        elif reg == Status2Reg:
            r[reg] = v & 0xC8
        elif reg in _READ_ONLY:
            pass
        else:
            r[reg] = v
            if reg == TxControlReg:
                self._check_field()

    def _fifo_level(self, v):
        # FlushBuffer (bit 7) empties the FIFO and clears BufferOvfl.
        if v & 0x80:
            del self.fifo[_ALL]
            self.regs[ErrorReg] &= ~BUFFER_OVFL & 0xFF

    def _control(self, v):
        # TStopNow (bit 7) stops the timer, TStartNow (bit 6) starts it.
        if v & 0x80:
            self._timer_at = None
        if v & 0x40:
            self._start_timer(self.clock.now_us)

    def _bit_framing(self, v):
        # StartSend (bit 7) starts a Transceive's transmission.
        r = self.regs
        r[BitFramingReg] = v
        if v & 0x80 and (r[CommandReg] & 0x0F) == TRANSCEIVE and self._tx_end is None:
            self._start_tx()

    def _fifo_in(self, v):
        r = self.regs
        if (r[CommandReg] & 0x0F) == CALC_CRC:
            # During CalcCRC a byte written to the FIFO goes on into the calculation.
            self._crc_value = vtag.crc_a((v,), 1, self._crc_value)
            self._crc_ready = False
            self._crc_at = self.clock.now_us + 1
        elif len(self.fifo) >= 64:
            r[ErrorReg] |= BUFFER_OVFL
            r[ComIrqReg] |= ERR_IRQ
        else:
            self.fifo.append(v)

    def _status1(self):
        r = self.regs
        v = 0
        if self._crc_ready:
            v |= 0x20 | (0x40 if self._crc_value == 0 else 0)
        if (r[ComIrqReg] & r[ComIEnReg] & 0x7F) or (r[DivIrqReg] & r[DivIEnReg] & 0x14):
            v |= 0x10
        if self._timer_at is not None:
            v |= 0x08
        n = len(self.fifo)
        level = r[WaterLevelReg] & 0x3F
        if 64 - n <= level:
            v |= 0x02
        if n <= level:
            v |= 0x01
        return v

    def _modem_state(self):
        if (self.regs[CommandReg] & 0x0F) != TRANSCEIVE:
            return 0
        if self._tx_end is not None:
            return 3  # transmitting
        if self._rx_start is not None and self.clock.now_us >= self._rx_start:
            return 6  # receiving
        if self._rx_end is not None or self._timer_at is not None:
            return 5  # waiting for data
        return 1  # waiting for StartSend

    def _counter(self):
        if self._timer_at is None:
            return 0
        ticks = (self.clock.now_us - self._timer_t0) * 1356 // (self._timer_div * 100)
        return max(0, self._timer_reload - ticks)

    # --- commands ----------------------------------------------------------
    def _command(self, v):
        r = self.regs
        cmd = v & 0x0F
        if cmd == SOFT_RESET:
            self.soft_resets += 1
            self._power_on()
            return
        was_down = r[CommandReg] & POWER_DOWN
        old = r[CommandReg] & 0x0F
        r[CommandReg] = (v & 0x30) | (old if cmd == NO_CMD_CHANGE else cmd)
        if was_down and not (v & POWER_DOWN):
            self._wake_at = self.clock.now_us + WAKE_US
        self._check_field()
        if cmd == NO_CMD_CHANGE:
            return
        # A new command cancels the one running (the timer runs on).
        self._tx_end = None
        self._rx_start = None
        self._rx_end = None
        self._crc_at = None
        if cmd == IDLE or cmd == RECEIVE:
            return
        if cmd == CALC_CRC:
            self.crc_runs += 1
            data = self.fifo
            self._crc_value = vtag.crc_a(data, len(data), _CRC_PRESETS[r[ModeReg] & 0x03])
            self._crc_ready = False
            self._crc_at = self.clock.now_us + 1 + (len(data) >> 1)
            del self.fifo[_ALL]
        elif cmd == TRANSMIT:
            self._start_tx()
        elif cmd == TRANSCEIVE:
            if r[BitFramingReg] & 0x80:
                self._start_tx()
        else:
            # Not modelled (Mem, GenerateRandomID, MFAuthent) or unknown: the
            # chip drops back to Idle and says so.
            r[CommandReg] &= 0xF0
            r[ComIrqReg] |= IDLE_IRQ

    def _start_tx(self):
        r = self.regs
        frame = bytes(self.fifo)
        del self.fifo[_ALL]
        last = r[BitFramingReg] & 0x07
        if r[TxModeReg] & 0x80 and frame:
            crc = vtag.crc_a(frame, len(frame), _CRC_PRESETS[r[ModeReg] & 0x03])
            frame = frame + bytes((crc & 0xFF, crc >> 8))
        self._tx_frame = frame
        self._tx_last = last
        self._tx_end = self.clock.now_us + vtag.frame_us(len(frame), last)
        self.frames += 1

    def _start_timer(self, t0):
        r = self.regs
        prescaler = ((r[TModeReg] & 0x0F) << 8) | r[TPrescalerReg]
        div = 2 * prescaler + (2 if r[DemodReg] & 0x10 else 1)
        reload = (r[TReloadRegH] << 8) | r[TReloadRegL]
        self._timer_t0 = t0
        self._timer_div = div
        self._timer_reload = reload
        # f_timer = 13.56 MHz / div; the timer counts reload + 1 ticks to zero.
        self._timer_at = t0 + div * (reload + 1) * 100 // 1356
        self._timer_stops_on_rx = bool(r[TModeReg] & 0x80) and not (r[RxModeReg] & 0x04)

    def _update(self):
        # Bring the chip up to the clock's time, milestone by milestone.
        if self.stalled:
            return
        now = self.clock.now_us
        r = self.regs
        if self._wake_at is not None and now >= self._wake_at:
            self._wake_at = None
            self._check_field()
        if self._crc_at is not None and now >= self._crc_at:
            self._crc_at = None
            self._crc_ready = True
            r[CRCResultRegH] = self._crc_value >> 8
            r[CRCResultRegL] = self._crc_value & 0xFF
            r[DivIrqReg] |= CRC_IRQ
        if self._tx_end is not None and now >= self._tx_end:
            vtag.end_tx(self)
        if self._timer_at is not None:
            rx = self._rx_start
            if rx is not None and self._timer_stops_on_rx and rx <= self._timer_at:
                if now >= rx:
                    self._timer_at = None  # TAuto: a reply has begun
            elif now >= self._timer_at:
                self._timer_at = None
                r[ComIrqReg] |= TIMER_IRQ
                self.timer_irqs += 1
        if self._rx_end is not None and now >= self._rx_end:
            vtag.end_rx(self, _CRC_PRESETS[r[ModeReg] & 0x03])


class ResetLine(PinLike):
    """The NRSTPD line shared by several chips (Pin-like): low holds them in hard
    power-down, high powers them up again (registers at reset values)."""

    def __init__(self, chips):
        self.chips = list(chips)
        self._v = 1
        self.pulses = 0

    def value(self, v=None):
        """Read the line or drive it."""
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            if v:
                self.pulses += 1
            for chip in self.chips:
                chip._hard_reset(v)
        return None
