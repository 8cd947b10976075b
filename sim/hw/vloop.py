"""The board's main loop (hal/mainloop.py) in virtual time.

VirtualLoop(loop, clock, before=None) runs the MainLoop's three passes the
way asyncio runs them on the board: each pass when its time has come, the
earliest first, then again the wait it returned after it began (at once if
the pass took longer).  Time is the virtual
clock of the virtual parts (sim/hw/clock.py), which the parts advance as
they work (the SPI bus per byte on the wire; a test may stall it, as a flash
erase does): a pass starts when it is due or when the one before it ended,
whichever is later.  before(now_ms), if given, runs before every pass: the
place to let scheduled button presses reach the pins.  Portable.
"""

TASKS = 3


class VirtualLoop:
    """Runs the passes of a MainLoop on a virtual clock; see the module docstring."""

    def __init__(self, loop, clock, before=None):
        self.clock = clock
        self.passes = (loop.readers_pass, loop.buttons_pass, loop.frames_pass)
        self.due = [0] * TASKS          # ms at which each pass runs next
        self.runs = [0] * TASKS
        self.busy_us = [0] * TASKS      # virtual time spent inside each pass
        self._before = before

    def run_until(self, t_ms):
        """Run every pass that comes due up to t_ms; the clock ends at t_ms or later."""
        clock = self.clock
        while True:
            i = 0
            for k in range(1, TASKS):
                if self.due[k] < self.due[i]:
                    i = k
            if self.due[i] > t_ms:
                break
            if clock.now_us < self.due[i] * 1000:
                clock.now_us = self.due[i] * 1000
            if self._before is not None:
                self._before(clock.ticks_ms())
            start = clock.now_us
            began = clock.ticks_ms()
            wait = self.passes[i](began)
            self.busy_us[i] += clock.now_us - start
            self.runs[i] += 1
            self.due[i] = began + wait
        if clock.now_us < t_ms * 1000:
            clock.now_us = t_ms * 1000
        if self._before is not None:
            self._before(clock.ticks_ms())

    def run_for(self, ms):
        """Run on for `ms` of virtual time."""
        self.run_until(self.clock.ticks_ms() + ms)
