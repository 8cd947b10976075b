"""The table's main loop: three tasks share the CPU, each a pass that says
how long until it wants to run again.

    loop = MainLoop(table, readers, buttons, pixels, display, dog)
    loop.readers_pass(now_ms)   the readers that are due (hal/readers.py)
    loop.buttons_pass(now_ms)   every button, every BUTTON_MS
    loop.frames_pass(now_ms)    the app's clock (blinks, results that show a
                                while), and the optional text display
    await loop.run()            the three on asyncio (the board)

A pass's wait counts from the moment the pass began, so a task keeps its
rhythm whatever its pass cost; between passes the CPU sleeps (asyncio's
sleep_ms, a WFE on the rp2 port).

AN ANSWER GOES OUT AT ONCE.  The pass that hands the app an input (a reader
event, a button press) pushes the frame it changed to the LEDs before it
ends; the frames pass pushes what the clock changes.  The display, slow on
I2C, follows in the frames pass.

THE COLLECTOR RUNS WHEN NOTHING WAITS.  After an input the app has left
garbage; it is collected in the readers pass, once the answer is out and
the readers will not need the CPU for GC_MS (a gc.collect() took about
14 ms on a Pico with a fuller heap, issue 9): between two looks at the
readers, never during input handling, so MicroPython never collects in the
middle of one on its own (the heap has room for many inputs' garbage).

A pass with nothing to do allocates nothing: the app's event handlers are
bound once here, not looked up per pass (tests/test_main_loop.py).  Each
pass beats the watchdog with its task number, so a task that stops stops
the feeding (hal/watchdog.py).  The simulator runs the same passes in
virtual time (sim/hw/vloop.py); what they cost the Pico is printed by
`make bench` (tests/bench_loop.py, tests/bench_latency.py).
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

import gc

BUTTON_MS = const(5)     # a press is 20 ms of debounce: four reads at least
FRAME_MS = const(20)     # the app's animations (blinks, chases) step at 50 Hz
GC_MS = const(14)        # a gc.collect() on the Pico (issue 9)

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
        self.displayed = -1             # the frame_version on the display
        self.garbage = False            # an input was handled since the last collection
        # Bound once: a bound method looked up per pass is an allocation per pass.
        self._on_reader = self._reader_event
        self._on_button = self._button

    def _reader_event(self, event, reader, uid):
        self.garbage = True
        self.table.reader_event(event, reader, uid)

    def _button(self, seat, code):
        self.garbage = True
        self.table.button(seat, code)

    def readers_pass(self, now_ms):
        """Serve the readers; the answer to what they saw; garbage if there is
        time for it.  ms until the readers want the CPU again."""
        wait = self.readers.service(now_ms, self._on_reader)
        if self.table.frame_version != self.shown:
            self._push()
        if self.garbage and wait >= GC_MS:
            self.garbage = False
            gc.collect()
        self._beat(READERS)
        return wait

    def buttons_pass(self, now_ms):
        """Read every button, and answer a press; BUTTON_MS."""
        self.buttons.poll(now_ms, self._on_button)
        if self.table.frame_version != self.shown:
            self._push()
        self._beat(BUTTONS)
        return BUTTON_MS

    def frames_pass(self, now_ms):
        """The app's clock, the frame if it changed, the display; FRAME_MS."""
        t = self.table
        t.tick(now_ms)
        if t.frame_version != self.shown:
            self._push()
        d = self.display
        if d is not None and self.displayed != self.shown and d.present:
            self.displayed = self.shown
            d.show(t.text)
        self._beat(FRAMES)
        return FRAME_MS

    def _push(self):
        t = self.table
        self.shown = t.frame_version
        self.pixels.show(t.frame)

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
    ticks_diff = time.ticks_diff   # pyright: ignore[reportAttributeAccessIssue]
    sleep_ms = asyncio.sleep_ms   # pyright: ignore[reportAttributeAccessIssue]
    while True:
        t = ticks_ms()
        wait = step(t)
        await sleep_ms(wait - ticks_diff(ticks_ms(), t))
