"""MFRC522 (NXP) driver: the UID of the one ISO/IEC 14443 A tag on a reader.

Several readers share one SPI bus (mode 0, MSB first, up to 10 Mbit/s), each
with its own chip select (hal.chipselect.ChipSelect: one store to select, one
to release).  Every SPI transfer is one whole transaction with the chip and
carries as much as the chip allows (datasheet 8.1.2): a write sends one
register its value (8.1.2.2: every data byte of a write goes to the one
address), a FIFO write is one burst, and the status after a frame
(ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, TModeReg, VersionReg) is read
in one burst of addresses (8.1.2.1: a read session answers each address on
the byte after it), as is the reply in the FIFO.  The frames' fixed bytes
are constants and the transfers that start a frame one prebuilt sequence,
sent by one loop: a frame costs its transactions and little else.

A frame is started (start(), request()) and its outcome collected later
(result()), so a caller can start a frame on every reader and collect them
all while the tags answer; finish() waits for it on the chip, reading the
status burst until the frame is over (the last read is the outcome), and
transceive() does both.
Everything that waits, waits on the chip: a reply on its own timer (TimerIRq
ends a wait for a tag that is not there).  The guard counts (_GUARD_*) only
catch a dead chip that never sets the bit waited for.  CRC_A of SELECT and
of its answer are appended and checked by the chip (TxModeReg, RxModeReg),
switched on only for SELECT.  Per read no memory is allocated.

A UID already read is confirmed without anticollision (reselect()): a
SELECT carries a cascade level's whole CLn and BCC (NVB 70h, ISO/IEC
14443-3 6.5.3), and only a READY tag whose UID has exactly those bytes
answers it with a SAK; the others stay silent.  So after a WUPA
a tag that answers the SELECTs of every level is the tag read before, and
a tag swapped for it, gone, or misread the first time answers none.
"""

from micropython import const

# Registers (datasheet section 9).
_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_FIFOLevelReg = const(0x0A)
_ModeReg = const(0x11)
_TxModeReg = const(0x12)
_RxModeReg = const(0x13)
_TxControlReg = const(0x14)
_TxASKReg = const(0x15)
_TModeReg = const(0x2A)
_TPrescalerReg = const(0x2B)
_TReloadRegH = const(0x2C)
_TReloadRegL = const(0x2D)
_VersionReg = const(0x37)

# Commands.
_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)  # CommandReg: reads 1 until the oscillator is up

# Interrupt and error bits.
_SET = const(0x80)  # Set1: write-only, so a read with it set is no chip
_TIMER_IRQ = const(0x01)
_IDLE_IRQ = const(0x10)
_RX_IRQ = const(0x20)
_COLL_ERR = const(0x08)
_BAD_FRAME = const(0x17)  # BufferOvfl, CRCErr, ParityErr, ProtocolErr
_OVER = const(0xB1)  # Set1, RxIRq, IdleIRq, TimerIRq: what ends a frame

# Timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 25 us a tick; 12 ticks = 300 us.
# A tag answers REQA, WUPA, ANTICOLLISION and SELECT 86 or 91 us after the
# frame (FDT = 1172 or 1236 carrier cycles, ISO/IEC 14443-3 6.2.1.1) and
# TAuto stops the timer as the reply begins (datasheet 9.3.3.10), so 300 us
# is three times what a tag takes; the sooner an empty reader's REQA is
# over, the sooner the look that started it can collect it.
TIMEOUT_US = const(300)
_TMODE = const(0x80)  # TAuto: start when a frame is out; prescaler bits 11-8 = 0
_TPRESCALER = const(169)
_TRELOAD = const(11)

# Dead-chip guards, in reads of the chip (a status burst, 7 bytes, 5.6 us at
# 10 MHz; ComIrqReg alone, 2 bytes, 1.6 us).  The longest wait is a SELECT
# (9 bytes on the air, 0.8 ms at 106 kbit/s) and its reply or the timer:
# 1.2 ms, 750 reads of ComIrqReg at 10 MHz; HLTA takes 0.4 ms on the air; the
# oscillator's start-up after a reset depends on the crystal (well under
# 5 ms).  Each guard is about twice that.
_GUARD_RX = const(2000)
_GUARD_RESET = const(6000)

# VersionReg of an MFRC522 1.0 / 2.0, and of the FM17522 and the clone (0x12)
# found on cheap modules: all behave alike for what is done here.
_VERSIONS = const((0x91, 0x92, 0x88, 0x12))

# result(), transceive() and read_uid() outcomes besides a length.
NO_TAG = const(0)  # no reply before the timer ran out
COLLISION = const(-1)  # tags answered at once (CollErr)
ERROR = const(-2)  # a garbled or inconsistent reply (the antenna's edge)
DEAD = const(-3)  # the chip does not answer
BUSY = const(-4)  # result(): the frame is not over yet

# ISO/IEC 14443-3 type A.
_CASCADE_TAG = const(0x88)
_SAK_CASCADE = const(0x04)

# Fixed transfers: the address byte ((reg << 1) & 0x7E, | 0x80 to read), then data.
_BITS_7 = const(b"\x1a\x07")  # BitFramingReg: 7 bits in the last byte, StartSend 0
_BITS_8 = const(b"\x1a\x00")
_SEND_7 = const(b"\x1a\x87")  # ... StartSend
_SEND_8 = const(b"\x1a\x80")
_TRANSCEIVE = const(b"\x02\x0c")  # CommandReg: Transceive (restarts it, ends a receiver's wait)
_TRANSMIT = const(b"\x02\x04")
_CLEAR_IRQ = const(b"\x08\x7f")  # ComIrqReg, Set1 = 0: clear every request bit
_FLUSH = const(b"\x14\x80")  # FIFOLevelReg: FlushBuffer
_CRC_ON = const((b"\x24\x80", b"\x26\x80"))  # TxModeReg, RxModeReg: 106 kBd, CRC on
_CRC_OFF = const((b"\x24\x00", b"\x26\x00"))
_REQA = const(b"\x12\x26")  # FIFODataReg burst: the frame
_WUPA = const(b"\x12\x52")
_ANTICOLL = const((b"\x12\x93\x20", b"\x12\x95\x20"))  # SEL CL1/CL2, NVB: no UID bit known
_HLTA = const(b"\x12\x50\x00\x57\xcd")  # HLTA and its CRC_A (CRC off)
_HLTA_CRC_ON = const(b"\x12\x50\x00")
# Status: ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, TModeReg, VersionReg.
_STATUS = const(b"\x88\x8c\x94\x98\xd4\xee\x00")
_IRQ_ONLY = const(b"\x88\x00")
_FIFO_5 = const(b"\x92\x92\x92\x92\x92\x00")
_FIFO_1 = const(b"\x92\x00")

# The transfers that start REQA and WUPA.  StartSend is written 0 before the
# Transceive command and 1 last (datasheet 9.3.1.14: it starts the sending,
# and the chip does not clear it), and the command is written anew every
# frame: after a frame nobody answered the receiver still waits (10.3.1.8),
# and a new command ends that wait.  The FIFO is flushed only when the last
# frame may have left bytes in it (a reply); a frame nobody answered took
# its bytes out to send them.
_REQ_CLEAN = const((_BITS_7, _TRANSCEIVE, _CLEAR_IRQ, _REQA, _SEND_7))
_REQ_FLUSH = const((_BITS_7, _TRANSCEIVE, _CLEAR_IRQ, _FLUSH, _REQA, _SEND_7))
_WAKE_CLEAN = const((_BITS_7, _TRANSCEIVE, _CLEAR_IRQ, _WUPA, _SEND_7))
_WAKE_FLUSH = const((_BITS_7, _TRANSCEIVE, _CLEAR_IRQ, _FLUSH, _WUPA, _SEND_7))
_HALT_SEQ = const((_CLEAR_IRQ, _FLUSH, _HLTA, _TRANSMIT))
_HALT_SEQ_CRC_ON = const((_CLEAR_IRQ, _FLUSH, _HLTA_CRC_ON, _TRANSMIT))


def _status(s):
    # The outcome of a Transceive from a status burst (s[1:7] as in _STATUS).
    irq = s[1]
    if irq & _SET or s[6] not in _VERSIONS:
        return DEAD
    if not irq & (_RX_IRQ | _IDLE_IRQ):
        return NO_TAG if irq & _TIMER_IRQ else BUSY
    if s[2] & _COLL_ERR:
        return COLLISION
    n = s[3] & 0x7F
    if s[2] & _BAD_FRAME or n == 0 or s[4] & 0x07:
        return ERROR  # garbled, nothing, or a partial byte
    return n


class MFRC522:
    """One MFRC522 on a shared SPI bus, selected by its own ChipSelect."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        # Bound once: a method looked up per transfer would be an allocation each.
        self._write = spi.write
        self._xfer = spi.write_readinto
        self._port = cs.port
        self._on_at = cs.select_at
        self._on = cs.select_bits
        self._off_at = cs.release_at
        self._off = cs.release_bits
        self.version = 0
        self._crc = False
        self.rx = bytearray(6)  # the last reply, from rx[1] (FIFO burst)
        self._rx1 = bytearray(2)
        self._s = bytearray(7)  # the last status burst
        self._irq = bytearray(2)
        self._w = bytearray(2)
        self._sel = bytearray(8)  # FIFO burst of a SELECT: 12h, SEL, 70h, CLn, BCC
        self._sel[0] = 0x12
        self._sel[2] = 0x70  # NVB: 7 bytes, the whole cascade level
        self._uid = self._sel  # identify(): where the UID goes, what is expected
        self._expect = self._sel
        self._expect_n = 0
        self._clean = False  # the FIFO is known to be empty
        # A frame's start: BitFramingReg, Transceive, clear, flush, the frame, StartSend.
        self._frame = [_BITS_8, _TRANSCEIVE, _CLEAR_IRQ, _FLUSH, _FLUSH, _SEND_8]

    # --- transfers ---------------------------------------------------------
    def _put(self, buf):
        port = self._port
        port[self._on_at] = self._on
        self._write(buf)
        port[self._off_at] = self._off

    def _get(self, req, buf):
        port = self._port
        port[self._on_at] = self._on
        self._xfer(req, buf)
        port[self._off_at] = self._off

    def _send(self, seq):
        # Each buffer of seq (4 to 6 of them) in a transaction of its own.
        # Unrolled, with the chip select in locals: starting a frame is most
        # of a look at an empty reader, and a loop with attribute loads in it
        # would add Python to every transfer.
        port = self._port
        write = self._write
        on_at = self._on_at
        on = self._on
        off_at = self._off_at
        off = self._off
        port[on_at] = on
        write(seq[0])
        port[off_at] = off
        port[on_at] = on
        write(seq[1])
        port[off_at] = off
        port[on_at] = on
        write(seq[2])
        port[off_at] = off
        port[on_at] = on
        write(seq[3])
        port[off_at] = off
        if len(seq) > 4:
            port[on_at] = on
            write(seq[4])
            port[off_at] = off
            if len(seq) > 5:
                port[on_at] = on
                write(seq[5])
                port[off_at] = off

    def read(self, reg):
        """Read one register."""
        w = self._w
        w[0] = ((reg << 1) & 0x7E) | 0x80
        w[1] = 0
        self._get(w, self._irq)
        return self._irq[1]

    def write(self, reg, value):
        """Write one register."""
        w = self._w
        w[0] = (reg << 1) & 0x7E
        w[1] = value
        self._put(w)

    # --- chip --------------------------------------------------------------
    def alive(self):
        """True if the chip answers with an MFRC522 version (0x00 or 0xFF: no chip)."""
        self.version = self.read(_VersionReg)
        return self.version in _VERSIONS

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
        self.write(_TxModeReg, 0x00)  # 106 kBd, CRC off until a SELECT
        self.write(_RxModeReg, 0x00)
        self._crc = False
        self.write(_TxASKReg, 0x40)  # Force100ASK: type A tags need 100 % ASK
        self.write(_ModeReg, 0x3D)  # CRC preset 6363h, the CRC_A of ISO/IEC 14443-3
        self.write(_TxControlReg, self.read(_TxControlReg) | 0x03)  # TX1, TX2: field on
        return True

    def _crc_mode(self, on):
        if self._crc != on:
            modes = _CRC_ON if on else _CRC_OFF
            self._put(modes[0])
            self._put(modes[1])
            self._crc = on

    # --- frames ------------------------------------------------------------
    def start(self, burst):
        """Send a frame of whole bytes: `burst` is its FIFODataReg burst (address byte
        first).  The chip then waits for the reply on its timer."""
        frame = self._frame
        frame[4] = burst
        self._clean = False
        self._send(frame)

    def request(self, wake):
        """Start REQA (IDLE tags answer) or, with wake, WUPA (HALTed ones too)."""
        if self._crc:
            self._crc_mode(False)
        if wake:
            self._send(_WAKE_CLEAN if self._clean else _WAKE_FLUSH)
        else:
            self._send(_REQ_CLEAN if self._clean else _REQ_FLUSH)
        self._clean = False

    def result(self):
        """The outcome of the frame started last, without waiting: the reply's length,
        NO_TAG, COLLISION, ERROR, DEAD or BUSY.  A chip found reset behind the driver's
        back (a brown-out: its timer set-up is gone) is configured again: ERROR."""
        s = self._s
        port = self._port
        port[self._on_at] = self._on
        self._xfer(_STATUS, s)
        port[self._off_at] = self._off
        if s[5] == _TMODE and s[1] & _OVER == _TIMER_IRQ:
            self._clean = True  # nobody answered (an empty reader's look)
            return NO_TAG
        return self._outcome(s)

    def _outcome(self, s):
        if s[5] != _TMODE and s[6] in _VERSIONS and not s[1] & _SET:
            return ERROR if self.init() else DEAD
        n = _status(s)
        self._clean = n == NO_TAG
        return n

    def finish(self):
        """Wait for the frame started last to end, on the chip: its outcome as
        result(), DEAD if it never ends."""
        for _ in range(_GUARD_RX):
            n = self.result()
            if n != BUSY:
                return n
        return DEAD

    def wait(self):
        """Wait for the frame started last to end (the reply or the timer), on the chip."""
        irq = self._irq
        for _ in range(_GUARD_RX):
            self._get(_IRQ_ONLY, irq)
            if irq[1] & (_SET | _RX_IRQ | _IDLE_IRQ | _TIMER_IRQ):
                return

    def transceive(self, burst, expect):
        """Send a frame, wait for the reply and read it into rx[1:] if it has `expect`
        bytes: the length, NO_TAG, COLLISION, ERROR or DEAD."""
        self.start(burst)
        n = self.finish()
        if n <= 0:
            return n
        if n != expect:
            return ERROR
        if expect == 5:
            self._get(_FIFO_5, self.rx)
        else:
            self._get(_FIFO_1, self._rx1)
            self.rx[1] = self._rx1[1]
        return n

    def halt(self):
        """Send HLTA and wait until it is out: an ACTIVE tag goes to HALT, a READY one
        (an unfinished read) to HALT or IDLE; either answers only WUPA or REQA again."""
        self._send(_HALT_SEQ_CRC_ON if self._crc else _HALT_SEQ)
        self.wait()
        self._clean = True  # sent: the FIFO gave its bytes to the air

    def _abort(self, status):
        # Tags left READY or ACTIVE by an unfinished read ignore the next
        # REQA/WUPA; any frame they do not expect (HLTA will do) sends them back
        # to IDLE or HALT, where WUPA reaches them again.
        if status != DEAD:
            self.halt()
        return status

    def read_uid(self, uid, wake=False):
        """Read the UID of the one tag in the field into uid (at least 7 bytes).

        REQA (wake False) reaches only IDLE tags, WUPA also HALTed ones; a tag
        read completely is sent to HALT.  Returns the UID's length (4 or 7),
        NO_TAG, COLLISION (two tags or more: not resolved, the table wants one
        item per reader), ERROR or DEAD.
        """
        self.request(wake)
        n = self.finish()
        if n == NO_TAG or n == DEAD:
            return n
        if n == ERROR:
            return self._abort(ERROR)
        return self.identify(uid, uid, 0)

    def identify(self, uid, expect, expect_n):
        """After an answered REQA/WUPA: anticollision and select through cascade levels
        1 and 2 (4- or 7-byte UIDs) into uid, then HLTA; as read_uid.

        If the UID read so far equals expect[:expect_n] when its last cascade level
        has been answered, that level is not selected: the tag has given its whole
        UID, and HLTA sends it back from READY."""
        # Tags of two kinds answer REQA with different ATQAs, which is allowed:
        # anticollision tells one tag from two.
        self._uid = uid
        self._expect = expect
        self._expect_n = expect_n
        size = self._cascade_level(0, 0)
        if size == 3:
            size = self._cascade_level(1, 3)
        if size == 4 or size == 7:
            self.halt()
            return size
        return self._abort(size if size < 0 else ERROR)

    def reselect(self, uid, n):
        """After an answered WUPA/REQA: SELECT the tag by the UID uid[:n] (4 or 7 bytes)
        read before, cascade level by level, then HLTA (not waited for).  Returns n
        if a tag answered every level with the SAK that level calls for; ERROR if
        none did (that UID is not there: another tag, or a misread), or DEAD."""
        # A tag that answers WUPA but not a SELECT is left READY, or went to IDLE
        # or HALT on the SELECT it did not match; _abort's HLTA settles it.
        level = 0
        if n == 7:
            sak = self._select_uid(uid, -1, 0)
            if sak < 0 or not sak & _SAK_CASCADE:
                return self._abort(sak if sak < 0 else ERROR)
            level = 1
        sak = self._select_uid(uid, n - 4, level)
        if sak < 0 or sak & _SAK_CASCADE:
            return self._abort(sak if sak < 0 else ERROR)
        # The HLTA is not waited for: the caller reports the tag while it goes
        # out, and this chip's next frame is a look later.  A frame sooner
        # would cut it short and leave the tag ACTIVE*, which any frame but
        # HLTA sends to HALT all the same (ISO/IEC 14443-3 6.3; to IDLE if it
        # lost the field since its read, and the look after reads it again),
        # and might leave bytes in the FIFO: the next frame flushes it.
        self._send(_HALT_SEQ_CRC_ON)
        self._clean = False
        return n

    def _select_uid(self, uid, at, level):
        # This level's CLn: uid[at:at + 4], or (at < 0) the cascade tag and
        # uid[0:3].  The BCC is the tag's check of the CLn (ISO/IEC 14443-3
        # 6.5.3): one computed from a UID read before is what the tag sent then.
        sel = self._sel
        if at < 0:
            sel[3] = _CASCADE_TAG
            _move(uid, 0, sel, 4, 3)
        else:
            _move(uid, at, sel, 3, 4)
        sel[7] = sel[3] ^ sel[4] ^ sel[5] ^ sel[6]
        return self._select(level)

    def _cascade_level(self, level, size):
        # One cascade level: the UID's size after it, or COLLISION, ERROR, DEAD (0: nonsense).
        n = self._anticollision(level)
        if n != 5:
            return n
        if self._known(size):
            return self._expect_n
        _move(self.rx, 1, self._sel, 3, 5)
        sak = self._select(level)
        if sak < 0:
            return sak
        return self._take(level, size, sak)

    def _anticollision(self, level):
        # ANTICOLLISION: the 5 bytes of this cascade level, with a good BCC.
        if self._crc:
            self._crc_mode(False)
        n = self.transceive(_ANTICOLL[level], 5)
        if n != 5:
            return n if n == COLLISION or n == DEAD else ERROR
        rx = self.rx
        if rx[1] ^ rx[2] ^ rx[3] ^ rx[4] != rx[5]:
            return ERROR
        return 5

    def _known(self, size):
        # This level completes the UID, and it is the one expected.
        rx = self.rx
        if self._expect_n != size + 4 or (size == 0 and rx[1] == _CASCADE_TAG):
            return False
        uid = self._uid
        if not _equal(uid, 0, self._expect, 0, size):
            return False
        if not _equal(rx, 1, self._expect, size, 4):
            return False
        _move(rx, 1, uid, size, 4)
        return True

    def _select(self, level):
        # SELECT the CLn and BCC in sel[3:8]; the chip adds CRC_A and checks the SAK's
        # (datasheet 9.3.2.3, 9.3.2.4): the SAK.
        sel = self._sel
        sel[1] = _ANTICOLL[level][1]
        self._crc_mode(True)
        n = self.transceive(sel, 1)
        if n != 1:
            return DEAD if n == DEAD else ERROR
        return self.rx[1]

    def _take(self, level, size, sak):
        # Append this level's UID bytes (after a cascade tag, 3): the new size, or 0
        # when the SAK or the level contradicts them.
        n = 3 if self._sel[3] == _CASCADE_TAG else 4
        if (n == 3) != (sak & _SAK_CASCADE != 0) or (n == 3 and level == 1):
            return 0
        _move(self._sel, 7 - n, self._uid, size, n)
        return size + n


def _equal(a, ai, b, bi, n):
    while n:
        if a[ai] != b[bi]:
            return False
        ai += 1
        bi += 1
        n -= 1
    return True


def _move(src, si, dst, di, n):
    while n:
        dst[di] = src[si]
        si += 1
        di += 1
        n -= 1
