"""The board is the maker's: the maintenance button, and the watchdog kept fed
while the board is at the REPL.

Held at power-up, the maintenance button keeps the table app from starting,
so the board stays at the REPL for mpremote (flashing, backups) even if the
app or its data were broken.

The watchdog (hal/watchdog.py) cannot be stopped once the app has started
it, and a soft reset leaves it running.  Whenever the app is not the one
feeding it, because the maker interrupted the app (Ctrl-C, as mpremote does)
or soft-reset the board, keep_watchdog_fed() feeds it from a timer, so a
flash, a backup or a REPL session is never cut by a reset.  The timer ends at
the next soft reset (machine.Timer is stopped by it), where boot.py starts a
new one, and when the app takes the watchdog back (stop_feeding()).

Only pins and machine are imported: boot.py runs this on a half-flashed board.
"""

import pins
from machine import WDT, Pin, Timer, mem32
from micropython import const

# The RP2040's WATCHDOG CTRL register and its ENABLE bit (datasheet 4.7.6):
# set from the moment machine.WDT starts the watchdog until the chip resets.
WATCHDOG_CTRL = const(0x40058000)
WATCHDOG_ENABLE = const(0x40000000)

# The app's watchdog timeout, near the RP2040's longest (8388 ms).
WATCHDOG_MS = const(8000)

_feeder = None


def requested():
    """True while the maintenance button is held."""
    return Pin(pins.MAINTENANCE, Pin.IN, Pin.PULL_UP).value() == 0


def watchdog_running():
    """True once the watchdog has been started (it cannot be stopped)."""
    return mem32[WATCHDOG_CTRL] & WATCHDOG_ENABLE != 0


def keep_watchdog_fed(wdt=None):
    """Feed the watchdog from a timer until the next soft reset or stop_feeding().

    wdt: the app's machine.WDT; without it, a running watchdog is taken over
    (nothing is started when none runs).  A timer already feeding is kept."""
    global _feeder
    if _feeder is not None:
        return
    if wdt is None:
        if not watchdog_running():
            return
        wdt = WDT(timeout=WATCHDOG_MS)
    wdt.feed()
    _feeder = Timer(-1, period=WATCHDOG_MS // 4, callback=lambda t: wdt.feed())


def stop_feeding():
    """The app feeds the watchdog from now on."""
    global _feeder
    if _feeder is not None:
        _feeder.deinit()
        _feeder = None
