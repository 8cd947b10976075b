"""The watchdog: a table whose main loop stops making progress restarts by
itself (and resumes the match, which is on flash), but a board the maker has
interrupted to work on is never restarted.

Every task of the main loop calls beat(i) once per pass.  guard(), a task of
its own, starts machine.WDT and feeds it only when every task has beaten
since the last feed, checking eight times per timeout.  So a task that stops
(stuck in a driver, waiting forever) leaves the watchdog unfed and the board
resets within the timeout plus one check; and a task that blocks the whole
loop stops guard() with it, which is just as right.  Every task must make a
pass at least every WATCHDOG_MS - WATCHDOG_MS // 8 ms.

The watchdog starts when the tasks start, after the table has folded its
journal, so a long match never makes the board reset while it boots.

Ctrl-C (mpremote interrupting the app) ends asyncio.run with
KeyboardInterrupt: hal/board.py's run() then hands the watchdog over
(hand_over()) to maintenance's timer, which feeds it whatever the maker
does at the REPL; after a soft reset boot.py does the same, and guard()
takes it back when main.py starts the app.  An app that ends any other way
(an exception) leaves the watchdog unfed, so the board restarts.

    dog = Watchdog(TASKS)                      # hal/board.py's run()
    try:
        asyncio.run(board.main(dog))           # gather(loop.run(), dog.guard())
    except KeyboardInterrupt:
        dog.hand_over()
        raise

    def buttons_pass(self, now_ms):            # every task, with its own index
        ...
        self.dog.beat(BUTTONS)
"""

import asyncio

import maintenance
from machine import WDT


class Watchdog:
    """The beats of `tasks` tasks (numbered from 0) and the machine.WDT they keep fed."""

    def __init__(self, tasks):
        self.all = (1 << tasks) - 1
        self.seen = 0
        self.wdt = None

    def beat(self, task):
        """Task number `task` made a pass (allocates nothing)."""
        self.seen |= 1 << task

    async def guard(self):
        """Start the watchdog, take it over from maintenance's timer, then check
        eight times per timeout."""
        wdt = self.wdt = WDT(timeout=maintenance.WATCHDOG_MS)
        maintenance.stop_feeding()
        self.seen = 0
        period = maintenance.WATCHDOG_MS // 8
        while True:
            await asyncio.sleep_ms(period)
            if self.seen == self.all:
                self.seen = 0
                wdt.feed()

    def hand_over(self):
        """The maker has the board: the watchdog is fed until the next soft reset."""
        maintenance.keep_watchdog_fed(self.wdt)
