"""The table's RFID readers: MFRC522s on one SPI bus, turned into confirmed events.

Readers holds one MFRC522 per reader index (seat readers as their seats, the
centre reader as events.CENTRE).  A reader holds nothing, one tag (a UID),
two tags or more, or it is faulty.  Each look at a reader sees one of these
(or a garbled read); a change is reported only when two consecutive looks
agree on it, so a tag flickering at the antenna's edge reports nothing:

    -> one tag u          TAG_PLACED with u            (read, then SELECTed by u)
    -> two tags or more   TWO_TAGS                     (after two collisions)
    one tag or two -> *   TAG_REMOVED before the news  (after two looks agree)
    -> faulty             READER_FAULT, once           (at once)
    faulty -> answering   READER_OK; it holds nothing until a tag is read

So TAG_PLACED means "the reader now holds u", TAG_REMOVED "it now holds
nothing", TWO_TAGS "it holds more than one item".  A garbled read confirms
nothing.

What a look sends depends on what the reader holds:

- nothing, and the last look agreed: REQA, which only tags in IDLE answer
  (a tag just put down); every eighth such look WUPA instead, for a tag that
  was halted and then missed;
- a tag u, and the last look agreed: REQA, and every fourth look (a
  presence check) WUPA after it.  The held tag is halted (or READY* from
  the last check, which the REQA sends back to HALT), so REQA is answered
  only by a tag that arrived since (one swapped for u too), and WUPA by the
  held tag (or by nothing: it was taken away).  No reply's UID is read: a
  held tag costs a look what an empty reader costs, and its WUPA every
  fourth; its removal is seen within four looks;
- one tag u seen but not confirmed (the confirming re-read): WUPA, then
  SELECT by u, cascade level by level, and HLTA; no anticollision.  Only a
  tag whose UID is exactly u answers a SELECT of u (ISO/IEC 14443-3 6.5.3),
  so a tag that answers the WUPA but not the SELECT (one swapped for u, or
  u misread) confirms nothing, and the next look reads it afresh.  A
  collision in the WUPA's ATQA (tags of two kinds) goes on to a full read,
  which sees two tags.  A second tag of u's kind put down between the two
  looks does not answer u's SELECT: u is reported, and the second tag,
  back in IDLE, answers the next look's REQA (TAG_REMOVED, TWO_TAGS);
- any other change seen but not confirmed, or two tags: WUPA and a full
  read.  A read that gives the UID seen before stops before the last
  SELECT: the tag has said its whole UID again.

Every tag read is sent to HALT (HLTA).  An answered REQA is followed by a
full read, so a tag swapped for another between two looks is read.

service(now_ms) runs the readers from the main loop: it starts a frame
on every reader that is due, one after the other, so that the chips wait
for their tags in parallel, then collects them in the same order, each
waited for on its own chip (a REQA and its timeout take 0.4 ms; starting
the other five takes about as long: tools/bench/bench_readers.py), then makes the
full reads the answers call for, and returns the ms to wait.  Every reader
is looked at together on a grid of period_ms, in one call, so between two
looks the readers leave the CPU alone; a look that saw a change is read
again _CONFIRM_MS after it began (the re-read does not wait for the other
readers, and is far enough from the first read not to see the same instant
of a tag at the antenna's edge), then the reader rejoins the others.  A
look that finds what the reader holds is settled as it is collected, with
no further Python work.  poll(i) makes one whole look at one reader.

THE EVENTS ARE KEPT, NOT SENT.  A call records what it confirmed (at most
two events a reader: what it held taken off, then what it holds now) in
preallocated slots: `found` of them, event k being found_kind[k] at reader
found_reader[k] and uid(k) its UID (TAG_PLACED; None for the others).  The
caller takes them after the call and sets `found` to 0: the driver never
calls into the table app, so a tag's way to the app is the main loop's
own, one call deep (hal/mainloop.py), and the Pico's C stack holds none of
the driver's frames while the app works.

THE AWAITED READERS ARE LOOKED AT MORE OFTEN.  `awaited` is a bit mask of
the readers on which the table expects an item now (bit i: reader i; the
main loop sets it from Table.awaited_readers()).  Those are looked at on
a grid of awaited_ms as well, between the looks at every reader, alone: a
tag put down where the table waits for it is found within awaited_ms, a
tag anywhere else within period_ms (tools/bench/bench_latency.py weighs both
against the CPU they take).  quiet_ms() says how long nothing but such a
look is due: the main loop's collector fits in there, and holds up the
awaited readers' looks, which never leave it room of their own.
pace(period_ms) changes the period of the looks at every reader (the main
loop: MENU_MS at the menu, where nothing is awaited and a tag is only
logged); the next call looks at every reader and starts the new grid.

A reader that stops answering (no MFRC522 version, or a frame that never
ends) is reported once and tried again with a back-off in looks at every
reader (1, 2, 4 .. 32 periods, awaited or not: trying a stalled chip holds
the CPU for milliseconds), while the other readers go on.  The first look
at a reader initialises it.
"""

from micropython import const

from dicetable.app import events
from dicetable.app.render import ticks_diff
from hal.chipselect import ChipSelect, PinPort, pin_select
from hal.mfrc522 import BUSY, COLLISION, DEAD, ERROR, MFRC522, NO_TAG

# What a reader holds (and what one look saw).
_EMPTY = const(0)
_ONE = const(1)
_TWO = const(2)
_NOISE = const(3)  # seen only: a garbled read
_FAULT = const(4)  # held only
_NEW = const(5)  # held only: not initialised yet

# The frame a reader has in flight (0: none).
_FIND = const(1)  # REQA, then a full read if answered
_FIND_WUPA = const(2)  # WUPA, then a full read if answered
_CHECK = const(3)  # a presence check's REQA
_CHECK_WUPA = const(4)  # ... and its WUPA
_PEEK = const(5)  # a held reader's REQA: only a tag that arrived since answers
_CONFIRM = const(6)  # WUPA, then a SELECT of the UID seen if answered

# What a look left to do once every frame of the call has started.
_READ = const(1)  # a full read of what answered
_HALT = const(2)  # HLTA after a garbled answer
_REWAKE = const(3)  # a tag arrived on a held one: both woken, then read
_SELECT = const(4)  # the UID seen last selected: is that tag still there?

PERIOD_MS = 20  # a look at every reader this often: tools/bench/bench_latency.py weighs it
AWAITED_MS = 10  # ... and at the awaited readers this often: weighed there too
# (5 ms gains little and costs a match 10 % of the CPU); on the
# buttons' 5 ms grid and PERIOD_MS's, so no wake of its own
MENU_MS = 100  # ... at the menu (pace()): a multiple of PERIOD_MS, weighed there too
_CONFIRM_MS = const(4)  # a change seen is read again this long after the look began
_BACKOFF_MAX = const(32)  # looks between attempts to revive a faulty reader, at most
_SWEEP = const(8)  # every 8th quiet look at an empty reader uses WUPA
_PRESENCE = const(4)  # every 4th look at a held reader checks for it
_UID_BYTES = const(10)
_EVERY = const(-1)  # the mask of a look at every reader
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_TICKS_HALF = const(0x20000000)


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

    def __init__(self, spi, selects, reset_pin=None, period_ms=PERIOD_MS, awaited_ms=AWAITED_MS):
        """selects: a list by reader index (None where no reader) or a dict index ->
        select, each a hal.chipselect.ChipSelect or a chip-select pin (low selects)."""
        if isinstance(selects, dict):
            given = [None] * max(events.CENTRE + 1, max(selects) + 1 if selects else 0)
            for i in selects:
                given[i] = selects[i]
        else:
            given = list(selects)
        # Every chip select released before the first transfer, or two chips talk at once.
        port = PinPort()
        slots = []
        for s in given:
            if s is not None and not isinstance(s, ChipSelect):
                s = pin_select(port, s)
            if s is not None:
                s.release()
            slots.append(s)
        if reset_pin is not None:
            # A pulse on NRSTPD (>= 100 ns, a pin call is microseconds) resets
            # every reader; each one's init waits for its oscillator.
            reset_pin(0)
            reset_pin(1)
        n = len(slots)
        self.period_ms = period_ms
        self.awaited_ms = awaited_ms
        self.awaited = 0  # bit i: reader i awaited (the module docstring)
        self.chips = [None if s is None else MFRC522(spi, s) for s in slots]
        self.indices = [i for i in range(n) if slots[i] is not None]
        self._order = bytes(self.indices)
        self._fitted = [c for c in self.chips if c is not None]  # in _order's order
        self._state = bytearray(n)
        for i in range(n):
            self._state[i] = _NEW
        self._seen = bytearray(n)
        self._steady = bytearray(n)  # 1: the last look agreed with what is held
        self._held = [bytearray(_UID_BYTES) for _ in range(n)]
        self._held_n = bytearray(n)
        self._last = [bytearray(_UID_BYTES) for _ in range(n)]
        self._last_n = bytearray(n)
        # The UIDs handed to the app are copied out of these (no slice to allocate).
        self._view4 = [memoryview(h)[:4] for h in self._held]
        self._view7 = [memoryview(h)[:7] for h in self._held]
        self._wait = bytearray(n)
        self._backoff = bytearray(n)
        self._quiet = bytearray(n)
        self._flight = bytearray(n)
        self._since = [0] * n  # when the look began (ms)
        self._then = bytearray(n)  # _READ, _HALT or _REWAKE, due this call
        self._confirm = bytearray(n)  # 1: a confirming re-read is due at _due
        self._due = [0] * n
        self._uid = bytearray(_UID_BYTES)
        self._next = -1  # when the next look at every reader is due (ms)
        self._soon = 0  # the multiple of awaited_ms after the last call (ms)
        self._started = False  # a frame was started since the last collect
        self._confirming = 0  # readers with a re-read due
        self._pending = 0  # readers with _then set
        self._now = 0  # service()'s now_ms, for its helpers
        # The events a call confirmed (the module docstring): two a reader at most.
        self.found = 0
        self.found_kind = bytearray(2 * n)
        self.found_reader = bytearray(2 * n)

    def uid(self, k):
        """The UID of event k (bytes; TAG_PLACED), None for any other event."""
        if self.found_kind[k] != events.TAG_PLACED:
            return None
        i = self.found_reader[k]
        return bytes(self._view4[i] if self._held_n[i] == 4 else self._view7[i])

    def holding(self, i):
        """The UID reader i holds (confirmed), or None."""
        if self._state[i] != _ONE:
            return None
        return bytes(self._held[i][: self._held_n[i]])

    def faulty(self, i):
        """True while reader i is reported faulty."""
        return self._state[i] == _FAULT

    # --- the main loop's entry ---------------------------------------------
    def pace(self, period_ms):
        """Look at every reader every period_ms from the next call on, which
        looks at every reader and starts the new grid."""
        self.period_ms = period_ms
        self._next = -1

    def service(self, now_ms):
        """Start the looks that are due and collect them, make the reads they
        call for, and return how many ms to wait before the next call; the
        events confirmed are added to `found`."""
        # The ticks' differences worked out here, not by ticks_diff(): this
        # runs up to a hundred times a second, and each call costs.
        self._now = now_ms
        if self._next < 0 or (now_ms - self._next) & _TICKS_MASK < _TICKS_HALF:
            # The next multiple of the period: a look that came late does not
            # move the ones after it, which the main loop's other passes share.
            p = self.period_ms
            self._next = (now_ms + p - now_ms % p) & _TICKS_MASK
            self._look_at(_EVERY)
        elif self.awaited and (now_ms - self._soon) & _TICKS_MASK < _TICKS_HALF:
            self._look_at(self.awaited)
        # Kept up to date while nothing is awaited, for a mask set between calls.
        soon = self.awaited_ms - now_ms % self.awaited_ms
        self._soon = (now_ms + soon) & _TICKS_MASK
        if self._confirming:
            self._confirm_due()
        while self._started:
            self._started = False
            self._collect_all()
        if self._pending:
            self._finish_all()
        d = (self._next - now_ms) & _TICKS_MASK  # as quiet_ms()
        if self._confirming:
            d = self._sooner(d)
        if self.awaited and soon < d:
            d = soon
        return d if d > 0 else 0

    def quiet_ms(self):
        """After service(now_ms): ms from now_ms to the next look at every
        reader or re-read, whichever comes first (the awaited readers' looks
        alone not counted)."""
        d = ticks_diff(self._next, self._now)
        if self._confirming:
            d = self._sooner(d)
        return d

    def _collect_all(self):
        # In the order the frames were started: by the time the last one is
        # started the first are over, and each collect waits for its own.
        # A frame that is over is read once (result(), not finish()'s loop),
        # and one that found what the reader holds, as the last look did,
        # is settled here (as _collect would): most looks are, six readers
        # fifty times a second, and every Python call they save counts.
        for k in range(len(self._order)):
            i = self._order[k]
            f = self._flight[i]
            if f:
                n = self._fitted[k].result()
                if n == BUSY:
                    n = self._fitted[k].finish()
                if n == NO_TAG and (f == _FIND or f == _PEEK) or f == _CHECK_WUPA and n > 0:
                    self._flight[i] = 0
                else:
                    self._collect(i, n)

    def _look_at(self, mask):
        # The readers in mask, but one waiting for its re-read, which is left to
        # it, and a faulty one but at a look at every reader (its back-off).
        order = self._order
        for k in range(len(order)):
            i = order[k]
            if not mask >> i & 1 or self._flight[i] or self._confirm[i] or self._then[i]:
                continue
            if self._steady[i] and self._state[i] == _EMPTY and self._quiet[i] < _SWEEP - 1:
                self._quiet[i] += 1  # an empty reader's REQA, as _begin
                self._fitted[k].request(False)
                self._flight[i] = _FIND
                self._since[i] = self._now
                self._started = True
            elif mask == _EVERY or self._state[i] != _FAULT:
                self._begin(i)

    def _finish_all(self):
        # The reads come after every frame of the call has started: a frame
        # starts when the call began (_since), not after a read's milliseconds.
        order = self._order
        for k in range(len(order)):
            if self._then[order[k]]:
                self._finish(order[k])

    def _confirm_due(self):
        order = self._order
        for k in range(len(order)):
            i = order[k]
            if self._confirm[i] and ticks_diff(self._now, self._due[i]) >= 0:
                self._begin(i)

    def _sooner(self, d):
        order = self._order
        for k in range(len(order)):
            i = order[k]
            if self._confirm[i] and ticks_diff(self._due[i], self._now) < d:
                d = ticks_diff(self._due[i], self._now)
        return d

    # --- one look --------------------------------------------------------------
    def poll(self, i):
        """One whole look at reader i, waiting on its chip; the events it
        confirmed are added to `found`."""
        chip = self.chips[i]
        if chip is None:
            return
        self._begin(i)
        while self._flight[i]:
            self._collect(i, chip.finish())
        self._started = False
        if self._then[i]:
            self._finish(i)

    def _begin(self, i):
        if self._confirm[i]:
            self._confirm[i] = 0
            self._confirming -= 1
        state = self._state[i]
        if state == _FAULT:
            self._revive(i)
            return
        if state == _NEW:
            if not self.chips[i].init():
                self._fault(i)
                return
            self._state[i] = _EMPTY
            self._steady[i] = 1
        flight = self._kind(i)
        self.chips[i].request(flight == _FIND_WUPA or flight == _CONFIRM)
        self._flight[i] = flight
        self._since[i] = self._now
        self._started = True

    def _kind(self, i):
        # The frame a look at reader i starts with (see the module docstring).
        if not self._steady[i]:
            self._quiet[i] = 0
            return _CONFIRM if self._seen[i] == _ONE else _FIND_WUPA
        state = self._state[i]
        if state == _TWO:
            return _FIND_WUPA
        q = self._quiet[i] + 1
        if q >= (_PRESENCE if state == _ONE else _SWEEP):
            self._quiet[i] = 0
            return _CHECK if state == _ONE else _FIND_WUPA
        self._quiet[i] = q
        return _PEEK if state == _ONE else _FIND

    def _revive(self, i):
        chip = self.chips[i]
        if self._wait[i]:
            self._wait[i] -= 1
            return
        if chip.init():
            self._state[i] = _EMPTY
            self._seen[i] = _EMPTY
            self._steady[i] = 1
            self._found(events.READER_OK, i)
        else:
            b = min(2 * self._backoff[i], _BACKOFF_MAX)
            self._backoff[i] = b
            self._wait[i] = b

    def _fault(self, i):
        if self._state[i] == _ONE or self._state[i] == _TWO:
            self._found(events.TAG_REMOVED, i)
        self._state[i] = _FAULT
        self._seen[i] = _EMPTY
        self._steady[i] = 0
        if self._confirm[i]:
            self._confirm[i] = 0
            self._confirming -= 1
        self._flight[i] = 0
        self._backoff[i] = 1
        self._wait[i] = 1
        self._found(events.READER_FAULT, i)

    def _collect(self, i, n):
        # A frame's outcome n.
        flight = self._flight[i]
        self._flight[i] = 0
        if n == NO_TAG and flight != _CHECK and self._steady[i] and self._state[i] == _EMPTY:
            return  # nothing there, as before
        if flight == _CHECK_WUPA and n > 0 or flight == _PEEK and n == NO_TAG:
            return  # the held tag, nothing new
        if n == DEAD:
            self._fault(i)
        elif flight == _CHECK and n == NO_TAG:
            self.chips[i].request(True)  # nothing new: is the held tag there?
            self._flight[i] = _CHECK_WUPA
            self._started = True
        elif n == NO_TAG:
            self._look(i, _EMPTY, 0)
        elif flight == _CHECK or flight == _PEEK:
            self._then_do(i, _REWAKE)
        elif flight == _CONFIRM and n > 0:
            self._then_do(i, _SELECT)
        else:
            self._then_do(i, _HALT if n == ERROR else _READ)

    def _then_do(self, i, what):
        self._then[i] = what
        self._pending += 1

    def _finish(self, i):
        # The read a look called for, and what it says.
        what = self._then[i]
        self._then[i] = 0
        self._pending -= 1
        chip = self.chips[i]
        if what == _SELECT:
            n = chip.reselect(self._last[i], self._last_n[i])
            if n > 0:
                self._agreed(i, _ONE, n)  # only the UID seen answers: no compare
                return
        elif what == _HALT:
            chip.halt()
            n = ERROR
        else:
            n = self._rewake(chip) if what == _REWAKE else 1
            if n == ERROR:
                chip.halt()
            elif n != NO_TAG and n != DEAD:
                # A full read of what answered, expecting the UID seen last
                # (here, not in a method of its own: it is the driver's deepest
                # chain, anticollision, on the Pico's C stack).
                n = self._last_n[i] if self._seen[i] == _ONE else 0
                n = chip.identify(self._uid, self._last[i], n)
        if n == DEAD:
            self._fault(i)
        else:
            self._look(i, _what(n), n)

    def _rewake(self, chip):
        # A tag arrived on a held one: HLTA sends it back to IDLE, and WUPA wakes
        # it with the held tag, so the read that follows sees both.
        chip.halt()
        chip.request(True)
        return chip.finish()

    def _look(self, i, obs, n):
        # What one look saw (a UID in self._uid); a change two looks agree on is found.
        agree = self._agrees(i, obs, n)
        self._seen[i] = obs
        if obs == _ONE:
            _copy(self._uid, self._last[i], n)
            self._last_n[i] = n
        if not agree:
            # The confirming re-read: soon, but not in the same instant as this look.
            self._steady[i] = 0
            self._due[i] = (self._since[i] + _CONFIRM_MS) & _TICKS_MASK
            if not self._confirm[i]:
                self._confirm[i] = 1
                self._confirming += 1
            return
        self._agreed(i, obs, n)

    def _agreed(self, i, obs, n):
        # Two looks agree on obs (a UID in self._last).
        self._steady[i] = 0 if obs == _NOISE else 1
        if obs != _NOISE and not self._holds(i, obs, n):
            self._change(i, obs, n)

    def _agrees(self, i, obs, n):
        if obs != self._seen[i]:
            return False
        return obs != _ONE or _same(self._uid, n, self._last[i], self._last_n[i])

    def _holds(self, i, obs, n):
        if obs != self._state[i]:
            return False
        return obs != _ONE or _same(self._last[i], n, self._held[i], self._held_n[i])

    def _change(self, i, obs, n):
        state = self._state[i]
        if state == _ONE or state == _TWO:
            self._found(events.TAG_REMOVED, i)
        self._state[i] = obs
        if obs == _ONE:
            self._placed(i, n)
        elif obs == _TWO:
            self._found(events.TWO_TAGS, i)

    def _placed(self, i, n):
        _copy(self._last[i], self._held[i], n)
        self._held_n[i] = n
        self._found(events.TAG_PLACED, i)

    def _found(self, event, i):
        k = self.found
        self.found_kind[k] = event
        self.found_reader[k] = i
        self.found = k + 1


def _what(n):
    # What a read's outcome says the reader holds.
    if n > 0:
        return _ONE
    if n == NO_TAG:
        return _EMPTY
    if n == COLLISION:
        return _TWO
    return _NOISE


def read_one(readers, i, timeout_ms, sleep_ms):
    """Poll reader i alone until a tag is confirmed on it (the host tools'
    `provision scan`): its UID as bytes, b"two" when two tags answer, b""
    when nothing came within about timeout_ms, None when there is no reader i."""
    if i >= len(readers.chips) or readers.chips[i] is None:
        return None
    # Counted in 5 ms sleeps: at least timeout_ms, whatever the polls cost.
    for _ in range(timeout_ms // 5 + 1):
        readers.found = 0
        readers.poll(i)
        for k in range(readers.found):
            if readers.found_kind[k] == events.TAG_PLACED:
                return readers.uid(k)
            if readers.found_kind[k] == events.TWO_TAGS:
                return b"two"
        sleep_ms(5)
    return b""
