"""The table's RFID readers: MFRC522s on one SPI bus, turned into confirmed events.

Readers holds one MFRC522 per reader index (seat readers as their seats, the
centre reader as events.CENTRE) and polls one reader per call.  A reader
holds nothing, one tag (a UID), two tags or more, or it is faulty.  Each poll
looks once; a change is reported only when two consecutive polls agree on it,
so a tag flickering at the antenna's edge reports nothing:

    -> one tag u          TAG_PLACED with u            (after two equal reads)
    -> two tags or more   TWO_TAGS                     (after two collisions)
    one tag or two -> *   TAG_REMOVED before the news  (after two polls agree)
    -> faulty             READER_FAULT, once           (at once)
    faulty -> answering   READER_OK; it holds nothing until a tag is read

So TAG_PLACED means "the reader now holds u", TAG_REMOVED "it now holds
nothing", TWO_TAGS "it holds more than one item".  A garbled read confirms
nothing.

An empty reader looks with REQA, which only tags in IDLE answer; every tag
read is halted (HLTA), so a reader that holds or has just seen something
looks with WUPA, which wakes halted tags too: that is the confirming re-read,
and a second tag arriving then collides with the first.  Every few quiet
polls an empty reader looks with WUPA as well, for a tag that was halted and
then missed.

A reader that stops answering (no MFRC522 version, or a wait its timer never
ends) is reported once and tried again with a back-off in polls (1, 2, 4 ..
32), while the other readers go on.  The first poll of a reader initialises
it.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

from dicetable.app import events
from hal.mfrc522 import MFRC522, NO_TAG, COLLISION, DEAD

# What a reader holds (and what one poll saw).
_EMPTY = const(0)
_ONE = const(1)
_TWO = const(2)
_NOISE = const(3)      # seen only: a garbled read
_FAULT = const(4)      # held only
_NEW = const(5)        # held only: not initialised yet

_BACKOFF_MAX = const(32)   # polls between attempts to revive a faulty reader, at most
_SWEEP = const(8)          # every 8th quiet poll of an empty reader uses WUPA
_UID_BYTES = const(10)


def _same(a, na, b, nb):
    if na != nb:
        return False
    for k in range(na):
        if a[k] != b[k]:
            return False
    return True


def _copy(src, dst, n):
    for k in range(n):
        dst[k] = src[k]


class Readers:
    """The readers on one SPI bus, by reader index; see the module docstring."""

    def __init__(self, spi, cs_pins, reset_pin=None):
        """cs_pins: a list by reader index (None where no reader) or a dict index -> pin."""
        if isinstance(cs_pins, dict):
            slots = [None] * max(events.CENTRE + 1, max(cs_pins) + 1 if cs_pins else 0)
            for i in cs_pins:
                slots[i] = cs_pins[i]
        else:
            slots = list(cs_pins)
        # Every chip-select high before the first transfer, or two chips talk at once.
        for pin in slots:
            if pin is not None:
                pin(1)
        if reset_pin is not None:
            # A pulse on NRSTPD (>= 100 ns, a pin call is microseconds) resets
            # every reader; each one's init waits for its oscillator.
            reset_pin(0)
            reset_pin(1)
        n = len(slots)
        self.chips = [None if pin is None else MFRC522(spi, pin) for pin in slots]
        self.indices = [i for i in range(n) if slots[i] is not None]
        self._state = bytearray(n)
        for i in range(n):
            self._state[i] = _NEW
        self._seen = bytearray(n)
        self._held = [bytearray(_UID_BYTES) for _ in range(n)]
        self._held_n = bytearray(n)
        self._last = [bytearray(_UID_BYTES) for _ in range(n)]
        self._last_n = bytearray(n)
        self._wait = bytearray(n)
        self._backoff = bytearray(n)
        self._quiet = bytearray(n)
        self._uid = bytearray(_UID_BYTES)

    def poll_all(self, emit):
        """Poll every reader once."""
        for i in self.indices:
            self.poll(i, emit)

    def holding(self, i):
        """The UID reader i holds (confirmed), or None."""
        if self._state[i] != _ONE:
            return None
        return bytes(self._held[i][:self._held_n[i]])

    def faulty(self, i):
        """True while reader i is reported faulty."""
        return self._state[i] == _FAULT

    def _fault(self, i, emit):
        if self._state[i] == _ONE or self._state[i] == _TWO:
            emit(events.TAG_REMOVED, i, None)
        self._state[i] = _FAULT
        self._seen[i] = _EMPTY
        self._backoff[i] = 1
        self._wait[i] = 1
        emit(events.READER_FAULT, i, None)

    def poll(self, i, emit):
        """Poll reader i once; call emit(event, i, uid) for each confirmed change."""
        chip = self.chips[i]
        if chip is None:
            return
        state = self._state[i]
        if state == _FAULT:
            if self._wait[i]:
                self._wait[i] -= 1
                return
            if chip.init():
                self._state[i] = _EMPTY
                self._seen[i] = _EMPTY
                emit(events.READER_OK, i, None)
            else:
                b = min(2 * self._backoff[i], _BACKOFF_MAX)
                self._backoff[i] = b
                self._wait[i] = b
            return
        if state == _NEW:
            if not chip.init():
                self._fault(i, emit)
                return
            state = self._state[i] = _EMPTY
        elif not chip.ensure():
            self._fault(i, emit)
            return

        seen = self._seen[i]
        wake = state != _EMPTY or seen != _EMPTY
        if wake:
            self._quiet[i] = 0
        else:
            q = self._quiet[i] + 1
            if q >= _SWEEP:
                q = 0
                wake = True
            self._quiet[i] = q
        uid = self._uid
        n = chip.read_uid(uid, wake)
        if n == DEAD:
            self._fault(i, emit)
            return
        if n > 0:
            obs = _ONE
        elif n == NO_TAG:
            obs = _EMPTY
        elif n == COLLISION:
            obs = _TWO
        else:
            obs = _NOISE
        last = self._last[i]
        agree = obs == seen and (obs != _ONE or _same(uid, n, last, self._last_n[i]))
        self._seen[i] = obs
        if obs == _ONE:
            _copy(uid, last, n)
            self._last_n[i] = n
        if not agree or obs == _NOISE:
            return
        held = self._held[i]
        if obs == state and (obs != _ONE or _same(uid, n, held, self._held_n[i])):
            return
        if state == _ONE or state == _TWO:
            emit(events.TAG_REMOVED, i, None)
        self._state[i] = obs
        if obs == _ONE:
            _copy(uid, held, n)
            self._held_n[i] = n
            emit(events.TAG_PLACED, i, bytes(held[:n]))
        elif obs == _TWO:
            emit(events.TWO_TAGS, i, None)


def read_one(readers, i, timeout_ms, sleep_ms):
    """Poll reader i alone until a tag is confirmed on it (the host tools'
    `provision scan`): its UID as bytes, b"two" when two tags answer, b""
    when nothing came within about timeout_ms, None when there is no reader i."""
    if i >= len(readers.chips) or readers.chips[i] is None:
        return None
    found = []

    def emit(event, reader, uid):
        if event == events.TAG_PLACED:
            found.append(bytes(uid))
        elif event == events.TWO_TAGS:
            found.append(b"two")

    # Counted in 5 ms sleeps: at least timeout_ms, whatever the polls cost.
    for _ in range(timeout_ms // 5 + 1):
        readers.poll(i, emit)
        if found:
            return found[0]
        sleep_ms(5)
    return b""
