"""MFRC522 (NXP) driver: the UID of the one ISO/IEC 14443 A tag on a reader.

Several readers share one SPI bus (mode 0, MSB first, up to 10 Mbit/s), each
with its own chip-select; the driver only ever calls the bus's write,
readinto and write_readinto, and the chip-select as cs(0)/cs(1), so a decoder
or a virtual pin serves as well as a machine.Pin.

Everything that waits, waits on the chip: a frame's reply on the chip's own
timer (TimerIRq ends a wait for a tag that is not there), CRC_A on its CRC
coprocessor, a reset on its PowerDown bit.  The counts of register polls
(_GUARD_*) only catch a dead chip that never sets the bit waited for; they are
sized well past the real waits at the fastest bus.  Per read no memory is
allocated: the frames and buffers are made once.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

# Registers (datasheet section 9).
_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_DivIrqReg = const(0x05)
_ErrorReg = const(0x06)
_FIFODataReg = const(0x09)
_FIFOLevelReg = const(0x0A)
_ControlReg = const(0x0C)
_BitFramingReg = const(0x0D)
_ModeReg = const(0x11)
_TxModeReg = const(0x12)
_RxModeReg = const(0x13)
_TxControlReg = const(0x14)
_TxASKReg = const(0x15)
_CRCResultRegH = const(0x21)
_CRCResultRegL = const(0x22)
_TModeReg = const(0x2A)
_TPrescalerReg = const(0x2B)
_TReloadRegH = const(0x2C)
_TReloadRegL = const(0x2D)
_VersionReg = const(0x37)

# Commands.
_IDLE = const(0x00)
_CALC_CRC = const(0x03)
_TRANSMIT = const(0x04)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)      # CommandReg: reads 1 until the oscillator is up

# Interrupt and error bits.
_SET = const(0x80)             # Set1/Set2: write-only, so a read with it set is no chip
_TIMER_IRQ = const(0x01)
_IDLE_IRQ = const(0x10)
_RX_IRQ = const(0x20)
_CRC_IRQ = const(0x04)         # DivIrqReg
_COLL_ERR = const(0x08)
_BAD_FRAME = const(0x13)       # BufferOvfl, ParityErr, ProtocolErr

# Timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 25 us a tick; 40 ticks = 1 ms.
# A tag answers REQA, ANTICOLLISION and SELECT 91 us after the frame (FDT,
# ISO/IEC 14443-3), and TAuto stops the timer as the reply begins, so 1 ms is
# ample and is what an empty reader costs a poll.
TIMEOUT_US = const(1000)
_TMODE = const(0x80)           # TAuto: start when a frame is out; prescaler bits 11-8 = 0
_TPRESCALER = const(169)
_TRELOAD = const(39)

# Dead-chip guards, in register polls.  A 2-byte read at 10 Mbit/s takes
# 1.6 us.  The longest wait for a reply is a SELECT frame on the air (9 bytes,
# 0.8 ms at 106 kbit/s) and then the 1 ms timer: 1.8 ms, 1125 polls; HLTA takes
# 0.4 ms on the air; the oscillator's start-up after a reset depends on the
# crystal (well under 5 ms).  Each guard is about twice that.
_GUARD_RX = const(2500)
_GUARD_TX = const(500)
_GUARD_CRC = const(200)
_GUARD_RESET = const(6000)

# VersionReg of an MFRC522 1.0 / 2.0, and of the FM17522 and the clone (0x12)
# found on cheap modules: all behave alike for what is done here.
VERSIONS = (0x91, 0x92, 0x88, 0x12)

# read_uid() and transceive() results besides a length.
NO_TAG = const(0)              # no reply before the timer ran out
COLLISION = const(-1)          # tags answered at once (CollErr)
ERROR = const(-2)              # a garbled or inconsistent reply (the antenna's edge)
DEAD = const(-3)               # the chip does not answer

# ISO/IEC 14443-3 type A.
_REQA = const(0x26)
_WUPA = const(0x52)
_HLTA = const(0x50)
_SEL_CL1 = const(0x93)
_NVB_ANTICOLL = const(0x20)    # 2 bytes sent, no UID bits known
_NVB_SELECT = const(0x70)      # 7 bytes sent: the whole cascade level
_CASCADE_TAG = const(0x88)
_SAK_CASCADE = const(0x04)
_HLTA_CRC = const(0xCD57)      # CRC_A of 50 00, a check on the CRC coprocessor


class MFRC522:
    """One MFRC522 on a shared SPI bus, selected by its own chip-select."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        cs(1)
        self.version = 0
        self.rx = bytearray(8)         # the last reply (transceive)
        self._w = bytearray(2)
        self._r = bytearray(2)
        self._b = bytearray(1)
        self._req = bytearray(1)
        self._anticoll = bytearray(2)
        self._select = bytearray(9)
        self._hlta = bytearray(4)

    # --- registers ---------------------------------------------------------
    def read(self, reg):
        """Read one register."""
        w = self._w
        w[0] = ((reg << 1) & 0x7E) | 0x80
        w[1] = 0
        self.cs(0)
        self.spi.write_readinto(w, self._r)
        self.cs(1)
        return self._r[1]

    def write(self, reg, value):
        """Write one register."""
        w = self._w
        w[0] = (reg << 1) & 0x7E
        w[1] = value
        self.cs(0)
        self.spi.write(w)
        self.cs(1)

    def _fifo_write(self, buf, n):
        # One burst: every byte after the address byte goes into the FIFO.
        b = self._b
        b[0] = (_FIFODataReg << 1) & 0x7E
        self.cs(0)
        self.spi.write(b)
        for i in range(n):
            b[0] = buf[i]
            self.spi.write(b)
        self.cs(1)

    def _fifo_read(self, n):
        # One burst: each byte out names FIFODataReg again, the last one 00h.
        b = self._b
        rx = self.rx
        addr = ((_FIFODataReg << 1) & 0x7E) | 0x80
        b[0] = addr
        self.cs(0)
        self.spi.write(b)
        for i in range(n):
            self.spi.readinto(b, addr if i < n - 1 else 0)
            rx[i] = b[0]
        self.cs(1)

    # --- chip --------------------------------------------------------------
    def alive(self):
        """True if the chip answers with an MFRC522 version (0x00 or 0xFF: no chip)."""
        self.version = self.read(_VersionReg)
        return self.version in VERSIONS

    def _wait_ready(self):
        # After reset or power-up the PowerDown bit reads 1 until the oscillator runs.
        for _ in range(_GUARD_RESET):
            v = self.read(_CommandReg)
            if v == 0xFF:
                return False
            if not v & _POWER_DOWN:
                return True
        return False

    def init(self):
        """Reset and configure the chip, antenna on; False if it does not answer as an MFRC522."""
        # Waking from a hard reset or power-up, the chip takes no writes yet.
        if not self._wait_ready() or not self.alive():
            return False
        self.write(_CommandReg, _SOFT_RESET)
        if not self._wait_ready():
            return False
        self.write(_TModeReg, _TMODE)
        self.write(_TPrescalerReg, _TPRESCALER)
        self.write(_TReloadRegH, _TRELOAD >> 8)
        self.write(_TReloadRegL, _TRELOAD & 0xFF)
        self.write(_TxModeReg, 0x00)       # 106 kBd, no CRC appended: the driver adds it
        self.write(_RxModeReg, 0x00)       # 106 kBd, no CRC checked: ATQA and UIDs have none
        self.write(_TxASKReg, 0x40)        # Force100ASK: type A tags need 100 % ASK
        self.write(_ModeReg, 0x3D)         # CRC preset 6363h, the CRC_A of ISO/IEC 14443-3
        self.write(_TxControlReg, self.read(_TxControlReg) | 0x03)   # TX1, TX2: field on
        # HLTA is constant: its CRC_A, computed once here, also proves the coprocessor.
        h = self._hlta
        h[0] = _HLTA
        h[1] = 0
        crc = self.crc(h, 2)
        if crc != _HLTA_CRC:
            return False
        h[2] = crc & 0xFF
        h[3] = crc >> 8
        return True

    def ensure(self):
        """True if the chip answers and still holds its configuration.

        A chip that was reset behind the driver's back (a brown-out, a loose
        reset line) answers with its version but has lost its setup and its
        field: it is configured again here.
        """
        if not self.alive():
            return False
        if self.read(_TModeReg) == _TMODE:
            return True
        return self.init()

    def crc(self, buf, n):
        """CRC_A of buf[:n] from the chip's CRC coprocessor (LSB in bits 7-0), or DEAD."""
        self.write(_CommandReg, _IDLE)
        self.write(_DivIrqReg, _CRC_IRQ)   # Set2 = 0: clear CRCIRq
        self.write(_FIFOLevelReg, 0x80)    # flush
        self._fifo_write(buf, n)
        self.write(_CommandReg, _CALC_CRC)
        for _ in range(_GUARD_CRC):
            irq = self.read(_DivIrqReg)
            if irq & _SET:
                return DEAD
            if irq & _CRC_IRQ:
                self.write(_CommandReg, _IDLE)
                return self.read(_CRCResultRegL) | (self.read(_CRCResultRegH) << 8)
        return DEAD

    def transceive(self, frame, last_bits=0):
        """Send `frame` (last_bits valid bits in its last byte, 0 = all 8) and take the reply.

        Returns the number of bytes received into self.rx, or NO_TAG when the
        chip's timer ran out first, COLLISION, ERROR, or DEAD.
        """
        self.write(_CommandReg, _IDLE)
        self.write(_ComIrqReg, 0x7F)       # Set1 = 0: clear every request bit
        self.write(_FIFOLevelReg, 0x80)
        self._fifo_write(frame, len(frame))
        self.write(_BitFramingReg, last_bits)
        self.write(_CommandReg, _TRANSCEIVE)
        self.write(_BitFramingReg, 0x80 | last_bits)   # StartSend
        for _ in range(_GUARD_RX):
            irq = self.read(_ComIrqReg)
            if irq & _SET:
                return DEAD
            if irq & (_RX_IRQ | _IDLE_IRQ):
                break
            if irq & _TIMER_IRQ:
                return NO_TAG
        else:
            return DEAD
        err = self.read(_ErrorReg)
        if err & _COLL_ERR:
            return COLLISION
        if err & _BAD_FRAME:
            return ERROR
        n = self.read(_FIFOLevelReg) & 0x7F
        if n == 0 or n > len(self.rx) or self.read(_ControlReg) & 0x07:
            return ERROR                   # nothing, too much, or a partial byte
        self._fifo_read(n)
        return n

    def _transmit(self, frame):
        # A frame with no reply: Transmit ends by itself (IdleIRq) once it is out.
        self.write(_CommandReg, _IDLE)
        self.write(_ComIrqReg, 0x7F)
        self.write(_FIFOLevelReg, 0x80)
        self._fifo_write(frame, len(frame))
        self.write(_BitFramingReg, 0)
        self.write(_CommandReg, _TRANSMIT)
        for _ in range(_GUARD_TX):
            irq = self.read(_ComIrqReg)
            if irq & _SET:
                return DEAD
            if irq & _IDLE_IRQ:
                return 0
        return DEAD

    def halt(self):
        """Send HLTA: the selected tag goes to HALT and answers only WUPA from now on."""
        return self._transmit(self._hlta)

    def _abort(self, status):
        # Tags left READY or ACTIVE by an unfinished read ignore the next
        # REQA/WUPA; any frame they do not expect (HLTA will do) sends them back
        # to IDLE or HALT, where WUPA reaches them again.
        if status != DEAD and self.halt() == DEAD:
            return DEAD
        return status

    def read_uid(self, uid, wake=False):
        """Read the UID of the one tag in the field into uid (at least 7 bytes).

        REQA (wake False) reaches only IDLE tags, WUPA also HALTed ones; a tag
        read completely is sent to HALT.  Returns the UID's length (4 or 7),
        NO_TAG, COLLISION (two tags or more: not resolved, the table wants one
        item per reader), ERROR or DEAD.
        """
        req = self._req
        req[0] = _WUPA if wake else _REQA
        n = self.transceive(req, 7)        # a short frame: 7 bits
        if n == NO_TAG or n == DEAD:
            return n
        if n == ERROR:
            return self._abort(ERROR)
        # n > 0 or COLLISION: tags of two kinds give different ATQAs, which is
        # allowed; anticollision tells one tag from two.
        rx = self.rx
        sel = self._select
        size = 0
        for level in range(2):             # cascade levels 1 and 2: 4- or 7-byte UIDs
            code = _SEL_CL1 + 2 * level    # 93h, 95h
            a = self._anticoll
            a[0] = code
            a[1] = _NVB_ANTICOLL
            n = self.transceive(a)
            if n == COLLISION or n == DEAD:
                return self._abort(n)
            if n != 5 or rx[0] ^ rx[1] ^ rx[2] ^ rx[3] != rx[4]:
                return self._abort(ERROR)  # short, missing, or a wrong BCC
            sel[0] = code
            sel[1] = _NVB_SELECT
            for i in range(5):
                sel[2 + i] = rx[i]
            crc = self.crc(sel, 7)
            if crc < 0:
                return DEAD
            sel[7] = crc & 0xFF
            sel[8] = crc >> 8
            n = self.transceive(sel)
            if n == DEAD:
                return DEAD
            if n != 3:
                return self._abort(ERROR)
            sak = rx[0]
            check = rx[1] | (rx[2] << 8)
            crc = self.crc(rx, 1)
            if crc < 0:
                return DEAD
            if crc != check:
                return self._abort(ERROR)
            more = sak & _SAK_CASCADE
            if sel[2] == _CASCADE_TAG:
                # CT then 3 UID bytes: the SAK must say the UID goes on.
                if not more or level == 1:
                    return self._abort(ERROR)
                for i in range(3):
                    uid[size + i] = sel[3 + i]
                size += 3
            else:
                if more:
                    return self._abort(ERROR)
                for i in range(4):
                    uid[size + i] = sel[2 + i]
                size += 4
                if self.halt() == DEAD:
                    return DEAD
                return size
        return self._abort(ERROR)
