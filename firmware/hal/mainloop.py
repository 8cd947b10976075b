"""The table's main loop: three tasks share the CPU, each a pass that says
how long it may sleep.

    loop = MainLoop(table, readers, buttons, pixels, display, dog)
    loop.readers_pass(now_ms)   the readers that are due (hal/readers.py)
    loop.buttons_pass(now_ms)   every button, every BUTTON_MS
    loop.frames_pass(now_ms)    the app's clock; the LEDs (and the display)
                                when its frame changed; garbage collected
                                once the frame that followed an input is out
    await loop.run()            the three on asyncio (the board)

Each pass returns the milliseconds until it wants to run again; between
passes the CPU sleeps (asyncio's sleep_ms, WFE on the rp2 port).  A pass
with nothing to do allocates nothing: the app's event handlers are bound
once here, not looked up per pass.  Each pass beats the watchdog with its
task number, so a task that stops stops the feeding (hal/watchdog.py).

The simulator runs the same passes in virtual time (sim/hw/vloop.py), and
the figures of what a pass costs on the Pico come from there
(tests/bench_loop.py, `make bench`).
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

import gc

BUTTON_MS = const(5)     # a press is 20 ms of debounce: four reads at least
FRAME_MS = const(20)     # the app's animations (blinks, chases) step at 50 Hz

READERS = const(0)       # task numbers, for the watchdog
BUTTONS = const(1)
FRAMES = const(2)
TASKS = const(3)


class MainLoop:
    """The passes of the main loop over the table app and its drivers."""

    def __init__(self, table, readers, buttons, pixels, display=None, dog=None):
        self.table = table
        self.readers = readers
        self.buttons = buttons
        self.pixels = pixels
        self.display = display
        self.dog = dog
        self.shown = -1                 # the frame_version on the LEDs
        self.garbage = False            # an input was handled since the last collection
        # Bound once: a bound method looked up per pass is an allocation per pass.
        self._on_reader = table.reader_event
        self._on_button = table.button

    def readers_pass(self, now_ms):
        """Poll the readers that are due; ms until the next is."""
        wait = self.readers.service(now_ms, self._on_reader)
        self._beat(READERS)
        return wait

    def buttons_pass(self, now_ms):
        """Read every button; BUTTON_MS."""
        self.buttons.poll(now_ms, self._on_button)
        self._beat(BUTTONS)
        return BUTTON_MS

    def frames_pass(self, now_ms):
        """The app's clock, then the frame if it changed; FRAME_MS."""
        t = self.table
        t.tick(now_ms)
        if t.frame_version != self.shown:
            self.shown = t.frame_version
            self.pixels.show(t.frame)
            d = self.display
            if d is not None and d.present:
                d.show(t.text)
            self.garbage = True
        elif self.garbage:
            # The frame that answered an input is out and nothing new came:
            # collect now, so that the collector does not run in the middle
            # of the next input.
            self.garbage = False
            gc.collect()
        self._beat(FRAMES)
        return FRAME_MS

    def _beat(self, task):
        if self.dog is not None:
            self.dog.beat(task)

    async def run(self):
        """The three passes as asyncio tasks, for ever (the board)."""
        import asyncio
        await asyncio.gather(_task(self.readers_pass), _task(self.buttons_pass),
                             _task(self.frames_pass))


async def _task(step):
    import asyncio
    import time
    ticks_ms = time.ticks_ms
    sleep_ms = asyncio.sleep_ms   # pyright: ignore[reportAttributeAccessIssue]
    while True:
        await sleep_ms(step(ticks_ms()))
