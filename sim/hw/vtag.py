"""A virtual ISO/IEC 14443 type A tag (the chip in a die or a card).

It answers the frames of ISO/IEC 14443-3 that a reader uses to find and
identify one tag: REQA/WUPA (short frames) with its ATQA, ANTICOLLISION with
its UID cascade level and BCC, SELECT (checked CRC_A) with its SAK, and HLTA.
It keeps the state the standard gives it: IDLE, READY, ACTIVE, HALT, plus
whether it was woken from HALT (the READY*/ACTIVE* states, which fall back to
HALT rather than IDLE on an unexpected frame).  Losing the field resets it to
IDLE.  Portable: runs under MicroPython as well as CPython.
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
