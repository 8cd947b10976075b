"""Virtual ISO/IEC 14443 type A tags (the chip in a die or a card), and the air
between them and a virtual MFRC522 (sim.hw.vmfrc522): the card side of the
reader, from the moment a frame has gone out until the reply is in the
chip's FIFO.

A tag answers the frames of ISO/IEC 14443-3 that a reader uses to find and
identify one tag: REQA/WUPA (short frames) with its ATQA, ANTICOLLISION with
its UID cascade level and BCC, SELECT (checked CRC_A) with its SAK, and HLTA.
It keeps the state the standard gives it: IDLE, READY, ACTIVE, HALT, plus
whether it was woken from HALT (the READY*/ACTIVE* states, which fall back to
HALT rather than IDLE on an unexpected frame).  Losing the field resets it to
IDLE.

The chip keeps its registers, SPI and commands, starts a frame (Transmit,
Transceive's StartSend) and brings itself up to the clock's time; when the
frame's air time is over it calls end_tx(), and when the reply's is over
end_rx().  A frame reaches the tags only on the field and as the 100 % ASK
at 106 kBd that type A tags understand; a tag's reply begins one frame
delay time after the frame.  Replies of several tags are combined bit by
bit: where they differ the chip sees a collision (CollErr, CollReg).  With
RxCRCEn (RxModeReg, datasheet 9.3.2.4) the chip checks and strips the
reply's CRC_A.

The tags near a chip's antenna are its list of entries [tag, steps, step,
present, since]: `steps` is None for a tag lying on it, else the tag is at
its edge, present at the looks (REQA/WUPAs) where steps has 1, used
cyclically; `step` counts the looks taken, `present` is what the last one
found, `since` when it was (virtual microseconds).  A step lasts
_FLICKER_HOLD_US: the looks sooner after it began see the same; a tag
absent at a step has lost power and is back to IDLE.  place(), remove(),
flicker() and tags() are the bench's hands on that list, and the chip's
methods (bound in its class).

All of it in this one module, as functions rather than a class, and the
chip's registers as private constants, because the virtual board runs it
under MicroPython on the heap of the firmware it runs: in a module of its
own the air cost that heap some 280 bytes more (a module object, its
globals, its table of names); private constants are folded into the code,
as the chip's own are, where a name imported from vmfrc522.py would be a
lookup at every use (and an import cycle).  tests/test_hw_rfid.py holds
them to the chip's.  Portable: runs under MicroPython as well as CPython.
"""

from micropython import const

IDLE = const(0)
READY = const(1)
ACTIVE = const(2)
HALT = const(3)
STATE_NAMES = ("idle", "ready", "active", "halt")

REQA = const(0x26)
WUPA = const(0x52)
HLTA = const(0x50)
SEL = (0x93, 0x95)  # ANTICOLLISION/SELECT at cascade levels 1 and 2
CASCADE_TAG = const(0x88)
SAK_CASCADE = const(0x04)  # SAK bit: the UID is not complete yet
_NVB_ANTICOLL = const(0x20)  # 2 bytes sent, no UID bits known
_NVB_SELECT = const(0x70)  # 7 bytes sent: the whole cascade level

# ISO/IEC 14443-3's frame delay time, 1236/fc, after which a tag's reply begins.
FDT_US = const(91)
# A tag at the antenna's edge is in or out for at least this long: the two
# short frames of one look (1 ms apart) see it alike, a confirming re-read
# (hal.readers: 4 ms after) may not.
_FLICKER_HOLD_US = const(2500)

# The chip's registers and bits used here (datasheet section 9, sim.hw.vmfrc522).
_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_ErrorReg = const(0x06)
_ControlReg = const(0x0C)
_CollReg = const(0x0E)
_TxModeReg = const(0x12)
_RxModeReg = const(0x13)
_TxASKReg = const(0x15)
_TModeReg = const(0x2A)
_TRANSMIT = const(0x4)
_RCV_OFF = const(0x20)
_ERR_IRQ = const(0x02)
_IDLE_IRQ = const(0x10)
_RX_IRQ = const(0x20)
_TX_IRQ = const(0x40)
_CRC_ERR = const(0x04)
_COLL_ERR = const(0x08)
_BUFFER_OVFL = const(0x10)
_RX_ERRORS = const(0x0F)  # cleared when the receiver starts up


def crc_a(data, n=-1, preset=0x6363):
    """CRC_A of ISO/IEC 14443-3 (x^16 + x^12 + x^5 + 1, LSB first) of data[:n]."""
    if n < 0:
        n = len(data)
    crc = preset
    for i in range(n):
        b = (data[i] ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return crc & 0xFFFF


def _crc_ok(frame, n):
    crc = crc_a(frame, n - 2)
    return frame[n - 2] == crc & 0xFF and frame[n - 1] == crc >> 8


class VTag:
    """A tag with a 4-byte (single size) or 7-byte (double size) UID."""

    def __init__(self, uid, atqa=None, sak=None, name=None):
        uid = bytes(uid)
        if len(uid) not in (4, 7):
            raise ValueError("a tag's UID has 4 or 7 bytes")
        if len(uid) == 4 and uid[0] == CASCADE_TAG:
            raise ValueError("a 4-byte UID cannot start with the cascade tag 0x88")
        self.uid = uid
        self.name = name
        # Bits 7-6 of ATQA give the UID size: 00 single, 01 double.
        self.atqa = bytes(atqa) if atqa else (b"\x04\x00" if len(uid) == 4 else b"\x44\x00")
        self.sak = (0x08 if len(uid) == 4 else 0x00) if sak is None else sak
        self.levels = 1 if len(uid) == 4 else 2
        self.state = IDLE
        self.level = 0  # cascade level being resolved (0 = level 1)
        self.starred = False  # woken from HALT by WUPA: errors send it back there
        self.halts = 0  # HLTA frames obeyed
        self.selects = 0  # SELECTs completed (ACTIVE reached)

    def __repr__(self):
        return "VTag(%s %s)" % (self.name or _hex(self.uid), STATE_NAMES[self.state])

    def cascade(self, level):
        """The 5 bytes the tag sends at ANTICOLLISION on `level`: CLn and BCC."""
        u = self.uid
        if self.levels == 1:
            cl = u
        elif level == 0:
            cl = bytes((CASCADE_TAG, u[0], u[1], u[2]))
        else:
            cl = u[3:7]
        return cl + bytes((cl[0] ^ cl[1] ^ cl[2] ^ cl[3],))

    def power_off(self):
        """The tag left the field (or the field went off): back to IDLE."""
        self.state = IDLE
        self.level = 0
        self.starred = False

    def _unexpected(self):
        # ISO/IEC 14443-3: READY and ACTIVE leave on any frame they do not expect.
        self.state = HALT if self.starred else IDLE
        self.level = 0

    def receive(self, frame, last_bits):
        """Hear one frame (`last_bits` valid bits in its last byte, 0 = 8); return the reply
        or None."""
        n = len(frame)
        if n == 1 and last_bits == 7:
            cmd = frame[0] & 0x7F
            if cmd == WUPA and (self.state == IDLE or self.state == HALT):
                self.starred = self.state == HALT
            elif cmd == REQA and self.state == IDLE:
                self.starred = False
            else:
                if self.state == READY or self.state == ACTIVE:
                    self._unexpected()
                return None
            self.state = READY
            self.level = 0
            return self.atqa
        if self.state == IDLE or self.state == HALT:
            return None
        if last_bits != 0:
            # Bit-oriented anticollision frames are not modelled: the table's
            # driver never resolves two tags, it reports them.
            self._unexpected()
            return None
        if self.state == READY and n >= 2 and frame[0] == SEL[self.level]:
            cl = self.cascade(self.level)
            if n == 2 and frame[1] == _NVB_ANTICOLL:
                return cl
            if n == 9 and frame[1] == _NVB_SELECT and _crc_ok(frame, 9) and frame[2:7] == cl:
                if self.level + 1 < self.levels:
                    self.level += 1
                    sak = SAK_CASCADE
                else:
                    self.state = ACTIVE
                    self.selects += 1
                    sak = self.sak
                crc = crc_a(bytes((sak,)))
                return bytes((sak, crc & 0xFF, crc >> 8))
        elif (
            self.state == ACTIVE
            and n == 4
            and frame[0] == HLTA
            and frame[1] == 0
            and _crc_ok(frame, 4)
        ):
            self.state = HALT
            self.level = 0
            self.halts += 1
            return None
        self._unexpected()
        return None


def _hex(b):
    return "".join("%02X" % x for x in b)


# --- the air ----------------------------------------------------------------


def air_us(bits):
    """Air time of `bits` at 106 kbit/s (128 carrier cycles of 13.56 MHz a bit)."""
    return bits * 12800 // 1356


def frame_us(nbytes, last_bits):
    """Air time of a frame of `nbytes` bytes, the last one of `last_bits` bits
    (0: all 8) if it is the only one."""
    # Start bit, 8 data bits + parity per byte, end of frame; a short frame has no parity.
    if nbytes == 1 and last_bits:
        return air_us(2 + last_bits)
    return air_us(2 + 9 * nbytes)


def place(chip, tag):
    """Put `tag` on the antenna (it arrives unpowered: IDLE)."""
    remove(chip, tag)
    tag.power_off()
    chip._tags.append([tag, None, 0, True, None])


def remove(chip, tag):
    """Take `tag` off the antenna."""
    field = chip._tags
    for i in range(len(field)):
        if field[i][0] is tag:
            del field[i]
            tag.power_off()
            return


def flicker(chip, tag, pattern):
    """Keep `tag` at the antenna's edge: present at the REQA/WUPAs where pattern has 1.

    `pattern` is a string of '0'/'1' or a sequence of truthy values, used
    cyclically, one step per REQA/WUPA this reader sends at least
    _FLICKER_HOLD_US (2.5 ms) after the step before began.
    """
    steps = bytearray(len(pattern))
    for i in range(len(pattern)):
        p = pattern[i]
        steps[i] = 0 if (p == "0" or not p) else 1
    remove(chip, tag)
    tag.power_off()
    chip._tags.append([tag, steps, 0, False, None])


def tags(chip):
    """The tags on the antenna (flickering ones included)."""
    return [e[0] for e in chip._tags]


def _superpose(replies, clear_after_coll):
    # Where tags send different bits the Manchester halves overlap: a collision.
    n = 0
    for rep in replies:
        n = max(n, len(rep))
    data = bytearray(n)
    coll = 0
    for k in range(n):
        o = 0
        a = 0xFF
        for rep in replies:
            if k < len(rep):
                o |= rep[k]
                a &= rep[k]
        diff = o ^ a
        if diff and not coll:
            bit = 0
            while not (diff >> bit) & 1:
                bit += 1
            coll = 8 * k + bit + 1
        data[k] = o
    if coll and clear_after_coll:
        # ValuesAfterColl = 0: the bits after the first collision are cleared.
        for q in range(coll, 8 * n):
            data[q >> 3] &= ~(1 << (q & 7)) & 0xFF
    return data, coll


def end_tx(chip):
    """The chip's frame is out: the tags hear it, and their reply, if any, is on its way."""
    r = chip.regs
    t = chip._tx_end
    assert t is not None  # called only while a frame is on the air
    chip._tx_end = None
    r[_ComIrqReg] |= _TX_IRQ
    reply = _air(chip, chip._tx_frame, chip._tx_last)
    if r[_TModeReg] & 0x80:
        chip._start_timer(t)  # TAuto: the timer starts when the frame is out
    if (r[_CommandReg] & 0x0F) == _TRANSMIT:
        r[_CommandReg] &= 0xF0
        r[_ComIrqReg] |= _IDLE_IRQ
        return
    r[_ErrorReg] &= ~_RX_ERRORS & 0xFF
    if reply is None or r[_CommandReg] & _RCV_OFF:
        return
    chip._rx_data, chip._rx_coll = reply
    chip._rx_start = t + FDT_US
    chip._rx_end = chip._rx_start + frame_us(len(chip._rx_data), 0)


def end_rx(chip, preset):
    """The reply is in: the chip's registers and FIFO say what its receiver made
    of it (`preset`: the CRC_A preset ModeReg chooses)."""
    r = chip.regs
    data = chip._rx_data
    assert data is not None  # called only while a reply is on the air
    coll = chip._rx_coll
    chip._rx_start = None
    chip._rx_end = None
    chip._rx_data = None
    err = 0
    if coll:
        err |= _COLL_ERR
        r[_CollReg] = (r[_CollReg] & 0x80) | ((coll & 0x1F) if coll <= 32 else 0x20)
    else:
        r[_CollReg] = (r[_CollReg] & 0x80) | 0x20
    if r[_RxModeReg] & 0x80:
        n = len(data)
        crc = crc_a(data, n - 2, preset) if n >= 3 else -1
        if n < 3 or data[n - 2] != crc & 0xFF or data[n - 1] != crc >> 8:
            err |= _CRC_ERR
        else:
            data = data[: n - 2]
    fifo = chip.fifo
    for b in data:
        if len(fifo) >= 64:
            err |= _BUFFER_OVFL
            break
        fifo.append(b)
    r[_ErrorReg] |= err
    r[_ControlReg] &= 0xF8  # RxLastBits: every reply here is whole bytes
    r[_ComIrqReg] |= _RX_IRQ | (_ERR_IRQ if r[_ErrorReg] else 0)


def _air(chip, frame, last_bits):
    # The frame reaches the tags in the field; their replies come back superposed.
    r = chip.regs
    if not chip._field_on() or not (r[_TxASKReg] & 0x40) or r[_TxModeReg] & 0x70:
        return None  # no field, or not the 100 % ASK at 106 kBd that type A tags understand
    short = len(frame) == 1 and last_bits == 7
    if short:
        code = frame[0] & 0x7F
        if code == REQA:
            chip.reqa += 1
        elif code == WUPA:
            chip.wupa += 1
    replies = None  # made for the first reply: a look at an empty reader makes nothing
    for e in chip._tags:
        steps = e[1]
        now = chip.clock.now_us
        if short and steps is not None and (e[4] is None or now - e[4] >= _FLICKER_HOLD_US):
            present = steps[e[2] % len(steps)]
            e[2] += 1
            e[4] = now
            if not present:
                e[0].power_off()
            e[3] = present
        if not e[3]:
            continue
        reply = e[0].receive(frame, last_bits)
        if reply is not None:
            if replies is None:
                replies = []
            replies.append(reply)
    if replies is None:
        return None
    return _superpose(replies, not (r[_CollReg] & 0x80))
