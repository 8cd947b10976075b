"""Virtual seat buttons: presses scheduled over virtual time.

VButtons(seats) makes a (minus, plus, ok) trio of VPins for every seat
index in `seats` (a count or a list of indices; others are None), ready to
hand to hal.buttons.Buttons(vb.pins).  press(seat, code, at_ms, hold_ms)
schedules a press, with optional contact bounce; advance(now_ms) sets every
pin level whose time has come, and run() advances and polls a Buttons every
step_ms, the way the board's main loop does.  Portable: runs under
MicroPython.
"""

from sim.hw.vpin import VPin

SHORT_MS = 100  # a tap
LONG_MS = 800  # well past the 600 ms of a long press


class VButtons:
    """Virtual buttons for the seats in `seats`, on a virtual clock starting at 0."""

    def __init__(self, seats):
        if isinstance(seats, int):
            seats = range(seats)
        wired = list(seats)
        pins = [None] * (max(wired) + 1 if wired else 0)  # type: list[tuple[VPin, VPin, VPin] | None]
        for s in wired:
            pins[s] = (VPin(1, "s%d-" % s), VPin(1, "s%d+" % s), VPin(1, "s%dok" % s))
        self.pins = pins
        self.now = 0
        self._changes = []  # (time, order, pin, level), kept sorted
        self._order = 0

    def pin(self, seat, code):
        """The VPin of one button (code: events.MINUS, PLUS or OK)."""
        trio = self.pins[seat]
        if trio is None:
            raise ValueError("seat %d has no buttons" % seat)
        return trio[code]

    def press(self, seat, code, at_ms, hold_ms=SHORT_MS, bounce_ms=0):
        """Schedule a press from at_ms for hold_ms.  bounce_ms > 0: after each
        edge the contact chatters (the level flips every ms) for that long."""
        p = self.pin(seat, code)
        self._edge(p, at_ms, 0, bounce_ms)
        self._edge(p, at_ms + hold_ms, 1, bounce_ms)

    def tap(self, seat, code, at_ms):
        """Schedule a short press."""
        self.press(seat, code, at_ms, SHORT_MS)

    def hold(self, seat, code, at_ms):
        """Schedule a long press."""
        self.press(seat, code, at_ms, LONG_MS)

    def _edge(self, p, t, level, bounce_ms):
        for k in range(bounce_ms):
            self._at(t + k, p, level if k % 2 == 0 else 1 - level)
        self._at(t + bounce_ms, p, level)

    def _at(self, t, p, level):
        self._changes.append((t, self._order, p, level))
        self._order += 1
        self._changes.sort(key=lambda c: (c[0], c[1]))

    def advance(self, now_ms):
        """Set the levels of every change scheduled up to now_ms."""
        changes = self._changes
        i = 0
        while i < len(changes) and changes[i][0] <= now_ms:
            changes[i][2].value(changes[i][3])
            i += 1
        if i:
            del changes[:i]
        self.now = now_ms

    def pending(self):
        """How many level changes are still scheduled."""
        return len(self._changes)

    def run(self, buttons, until_ms, emit, step_ms=5):
        """Poll `buttons` every step_ms from now to until_ms (inclusive),
        applying the scheduled changes as their time comes; emit(seat, code)
        for each press they found."""
        t = self.now
        while t <= until_ms:
            self.advance(t)
            buttons.poll(t)
            for k in range(buttons.presses):
                emit(buttons.press_seat[k], buttons.press_code[k])
            buttons.presses = 0
            t += step_ms
        self.now = t
