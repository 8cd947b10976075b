"""The board's main loop (hal/mainloop.py) in virtual time.

VirtualLoop(loop, clock, before=None) runs a MainLoop the way MainLoop.run()
does on the board, through its own MainLoop.due(): the pass that is due
soonest when its time has come, then again the wait it returned after it
began (at once if the pass took longer, or if another pass moved it, as a
new set of awaited readers moves the readers pass), sleeping between.
Time is the virtual clock of the virtual parts (sim/hw/clock.py), which the
parts advance as they work (the SPI bus per byte on the wire; a test may
stall it, as a flash erase does): a pass starts when it is due or when the
one before it ended, whichever is later.  before(now_ms), if given, runs
before every pass: the place to let scheduled button presses reach the
pins.  `passes` are the three passes it runs (a test may wrap them), `runs`
and `busy_us` what each ran.  Portable.
"""

TASKS = 3


class VirtualLoop:
    """Runs the passes of a MainLoop on a virtual clock; see the module docstring."""

    def __init__(self, loop, clock, before=None):
        self.loop = loop
        self.clock = clock
        self.passes = (loop.readers_pass, loop.buttons_pass, loop.frames_pass)
        self.runs = [0] * TASKS
        self.busy_us = [0] * TASKS  # virtual time spent inside each pass
        self._before = before
        # Timed in the loop's own place: MainLoop.due() calls each pass by name.
        loop.readers_pass = self._timed(0)
        loop.buttons_pass = self._timed(1)
        loop.frames_pass = self._timed(2)
        loop.begin(clock.ticks_ms())

    def _timed(self, k):
        def run(now_ms):
            start = self.clock.now_us
            wait = self.passes[k](now_ms)
            self.busy_us[k] += self.clock.now_us - start
            self.runs[k] += 1
            return wait

        return run

    def begin(self, now_ms):
        """Every pass due at now_ms."""
        self.loop.begin(now_ms)

    def run_until(self, t_ms):
        """Run every pass that comes due up to t_ms; the clock ends at t_ms or later."""
        clock = self.clock
        while True:
            now = clock.ticks_ms()
            if self._before is not None:
                self._before(now)
            wait = self.loop.due(now)
            if now + wait > t_ms:
                break
            if wait:
                clock.now_us = (now + wait) * 1000  # asleep until then
        if clock.now_us < t_ms * 1000:
            clock.now_us = t_ms * 1000
        if self._before is not None:
            self._before(clock.ticks_ms())

    def run_for(self, ms):
        """Run on for `ms` of virtual time."""
        self.run_until(self.clock.ticks_ms() + ms)
