"""The table's main loop: three tasks share the CPU, each a pass that says
how long until it wants to run again.

    loop = MainLoop(table, readers, buttons, pixels, display, dog, mirror)
    loop.readers_pass(now_ms)   the readers that are due (hal/readers.py)
    loop.buttons_pass(now_ms)   every button, every BUTTON_MS
    loop.frames_pass(now_ms)    the app's clock (blinks, results that show a
                                while), and the optional text display
    loop.begin(now_ms)          every pass due now
    loop.due(now_ms)            run the pass that is due, or say when one is
    await loop.run()            begin(), then due() for ever (the board)

A pass's wait counts from the moment the pass began.  The buttons and the
frames keep to a grid of their period (a pass that ran late waits less), as
the readers' looks do (hal/readers.py), so the three share wakes.  Between
wakes the CPU sleeps in time.sleep_ms (a WFE on the rp2 port): a switch
between asyncio tasks costs the Pico about three buttons passes
(tools/bench/bench_loop.py prints both), so the passes are one task, which lets
asyncio run the others (the watchdog's guard) at least every YIELD_MS.

AN ANSWER GOES OUT AT ONCE.  The pass that hands the app an input (a reader
event, a button press) pushes the frame it changed to the LEDs before it
ends; the frames pass pushes what the clock changes.  The display, slow on
I2C, follows in the frames pass, and so does the mirror's @match line
(hal/mirror.py: its @leds line goes out with every frame pushed).  Then
the readers are told which of them the table now awaits an item on
(Table.awaited_readers(), which hal/readers.py looks at more often) and
whether it is at the menu, asked only after an input or a frame change,
with which alone they change; when either changed, the readers pass runs
next, so that the new cadence starts at once rather than a period later.

AT THE MENU THE READERS ARE LOOKED AT EVERY MENU_MS.  Nothing is awaited
there and a tag is only logged, so a look at every reader every PERIOD_MS,
half of the CPU the menu takes, buys nothing a player sees
(Readers.pace(); two tags or a faulty reader show a period later).  The
first answer of a match paces them back, and they look at once.

THE COLLECTOR RUNS WHEN NOTHING WAITS.  After an input the app has left
garbage; it is collected in the readers pass, once the answer is out and
no look at every reader and no re-read is due within GC_MS
(Readers.quiet_ms(); a gc.collect() took about 14 ms on a Pico with a
fuller heap, issue 9): between two looks at the readers, never during input
handling, and often enough that MicroPython, which collects on its own only
when an allocation finds the heap full, has no reason to in the middle of
one.  The awaited readers' own looks, never GC_MS apart, wait for it.

ONE TAG'S WAY READS TOP-DOWN HERE.  The drivers only record what they saw
(hal/readers.py: a tag placed or taken off, two tags, a reader's fault;
hal/buttons.py: a press, at its release); the pass that ran them hands each
event to the app itself, Table.reader_event or Table.button, and the app's
answer (the frame, the journal) is done before the pass goes on.  No driver
calls into the app, so none of the drivers' frames is on the Pico's C stack
while the app works (docs/firmware.md, "The C stack").

THE JOURNAL'S WORK AHEAD COMES WHEN NOTHING WAITS.  A new match and a full
segment would erase a flash sector (45 ms, interrupts off) while a player
waits; the storage does it ahead of need instead (Storage.work_ahead(),
hal/journal.py: one bounded step a call), in a readers pass that handled
no input, once the collector is done, whenever the journal was written
since it last had nothing to do (and once after the power-up).  A tag put
down during such an erase waits for it (tools/bench/bench_latency.py
charges it so).

A pass with nothing to do allocates nothing (tests/test_main_loop.py).  Each
pass beats the watchdog with its task number, so a task that stops stops
the feeding (hal/watchdog.py).  The passes run three hundred times a
second and each Python call in them costs the Pico some 10 us (more than
a line of arithmetic): the pass due next is worked out in due() itself and
the beat made in the pass, not through helpers.  The simulator runs the
same passes in virtual time (sim/hw/vloop.py); what they cost the Pico is
printed by `make bench` (tools/bench/bench_loop.py, tools/bench/bench_latency.py).
"""

import gc

from micropython import const

from dicetable.app.render import MENU
from hal.readers import MENU_MS, PERIOD_MS

BUTTON_MS = const(5)  # a press is 20 ms of debounce: four reads at least
FRAME_MS = const(20)  # the app's animations (blinks, chases) step at 50 Hz
GC_MS = const(14)  # a gc.collect() on the Pico (issue 9)
YIELD_MS = const(100)  # asyncio's other tasks run at least this often
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_TICKS_HALF = const(0x20000000)

READERS = const(0)  # task numbers, for the watchdog
BUTTONS = const(1)
FRAMES = const(2)
TASKS = const(3)


class MainLoop:
    """The passes of the main loop over the table app and its drivers."""

    def __init__(self, table, readers, buttons, pixels, display=None, dog=None, mirror=None):
        self.table = table
        self.readers = readers
        self.buttons = buttons
        self.pixels = pixels
        self.display = display
        self.dog = dog
        self.mirror = mirror
        self.shown = -1  # the frame_version on the LEDs
        self.displayed = -1  # the frame_version on the display
        self.garbage = False  # an input was handled since the last collection
        self.heard = False  # ... since the readers were told what is awaited
        self.at_menu = False  # the readers were told the table is at the menu
        self.ahead = -1  # storage.writes when its work ahead last had nothing to do
        self._due = [0, 0, 0]  # when each pass is due (ms ticks)
        self._soon = 0  # the pass due first

    def readers_pass(self, now_ms):
        """Serve the readers; the app gets what they saw, and its answer goes
        out; garbage if there is time for it.  ms until the readers want the
        CPU again."""
        r = self.readers
        wait = r.service(now_ms)
        k = 0
        while k < r.found:
            # One value at a time: the frame stays within the Pico's 11 words.
            uid = r.uid(k)
            self.table.reader_event(r.found_kind[k], r.found_reader[k], uid)
            k += 1
        if k:
            r.found = 0
            self.garbage = True
            self.heard = True
        if (self.heard or self.table.frame_version != self.shown) and self._answer(now_ms):
            wait = 0  # a new cadence: service() again, to say when
        if (self.garbage or self.ahead != self.table.storage.writes) and r.quiet_ms() >= GC_MS:
            if self.garbage:
                self.garbage = False
                gc.collect()
            elif not k:
                self._work_ahead()
        # The beat without a call of our own: every pass's Python counts, 300 a second.
        if self.dog is not None:
            self.dog.beat(READERS)
        return wait

    def _work_ahead(self):
        # One step of the journal's work ahead; none left: not asked again
        # until the journal is written.
        storage = self.table.storage
        if not storage.work_ahead():
            self.ahead = storage.writes

    def buttons_pass(self, now_ms):
        """Read every button, and the app gets the presses that ended; the
        answer goes out.  ms to the next multiple of BUTTON_MS."""
        b = self.buttons
        b.poll(now_ms)
        k = 0
        while k < b.presses:
            self.table.button(b.press_seat[k], b.press_code[k])
            k += 1
        if k:
            b.presses = 0
            self.garbage = True
            self.heard = True
        if self.heard or self.table.frame_version != self.shown:
            self._answer(now_ms)
        if self.dog is not None:
            self.dog.beat(BUTTONS)
        return BUTTON_MS - now_ms % BUTTON_MS

    def frames_pass(self, now_ms):
        """The app's clock, the frame if it changed, the display; ms to the
        next multiple of FRAME_MS."""
        t = self.table
        t.tick(now_ms)
        if self.heard or t.frame_version != self.shown:
            self._answer(now_ms)
        d = self.display
        if d is not None and self.displayed != self.shown and d.present:
            self.displayed = self.shown
            d.show(t.text)
        if self.mirror is not None:
            self.mirror.tick(now_ms)
        if self.dog is not None:
            self.dog.beat(FRAMES)
        return FRAME_MS - now_ms % FRAME_MS

    def _answer(self, now_ms):
        # The frame on the LEDs, if it changed; then what the table awaits,
        # and whether it is at the menu: True if either changed, and the
        # readers pass is due now.
        t = self.table
        self.heard = False
        if t.frame_version != self.shown:
            self.shown = t.frame_version
            self.pixels.show(t.frame)
            if self.mirror is not None:
                self.mirror.leds()
        mask = t.awaited_readers()
        menu = t.mode == MENU
        r = self.readers
        if mask == r.awaited and menu == self.at_menu:
            return False
        r.awaited = mask
        if menu != self.at_menu:
            self.at_menu = menu
            r.pace(MENU_MS if menu else PERIOD_MS)
        self._due[READERS] = now_ms
        return True

    def begin(self, now_ms):
        """Every pass due at now_ms: the loop starts."""
        for k in range(3):
            self._due[k] = now_ms
        self._soon = 0

    def due(self, now_ms):
        """Run the pass that is due soonest, if it is due at now_ms: 0 (look
        again); else the ms until it is."""
        k = self._soon
        d = (self._due[k] - now_ms) & _TICKS_MASK
        if 0 < d < _TICKS_HALF:
            return d
        # Each pass called by name: one through a tuple of bound methods
        # costs the Pico's C stack 80 B more (sim/pico.py).
        if k == READERS:
            wait = self.readers_pass(now_ms)
        elif k == BUTTONS:
            wait = self.buttons_pass(now_ms)
        else:
            wait = self.frames_pass(now_ms)
        due = self._due
        due[k] = (now_ms + wait) & _TICKS_MASK
        # The pass due first (readers, buttons, frames at a tie), worked out
        # here rather than by a function: its three Python calls were 24 us
        # of the Pico's at every pass (tools/bench/bench_loop.py).
        k = 0
        if (due[1] - due[0]) & _TICKS_MASK >= _TICKS_HALF:
            k = 1
        if (due[2] - due[k]) & _TICKS_MASK >= _TICKS_HALF:
            k = 2
        self._soon = k
        return 0

    async def run(self):
        """due() for ever, sleeping between wakes (the board)."""
        import asyncio
        import time

        ticks_ms = time.ticks_ms
        sleep_ms = time.sleep_ms  # pyright: ignore[reportAttributeAccessIssue]
        yielded = ticks_ms()
        self.begin(yielded)
        while True:
            now = ticks_ms()
            wait = self.due(now)
            if not wait:
                continue
            # The ticks since, in small ints: no call at every wake.
            if (now - yielded) & _TICKS_MASK >= YIELD_MS:  # pyright: ignore[reportOperatorIssue]
                yielded = now
                await asyncio.sleep_ms(wait)  # pyright: ignore[reportAttributeAccessIssue]
            else:
                sleep_ms(wait)
