"""The table on the board: the drivers built from pins.py and table_config.py,
the app they feed, and the main loop (hal/mainloop.py) under the watchdog
(hal/watchdog.py).

    run()                 main.py: the table, for ever
    Board()               every driver, and the app
    board.boot()          the app's power-up: the registry read, the match resumed
    await board.main(dog) the main loop and the watchdog's guard
    reader_selects()      the readers' chip selects (the host tools' scan uses them)

The power-up runs before asyncio starts, and the main loop is the first of
asyncio's tasks: a task's frames stand 688 B deeper on the Pico's C stack
than the caller of asyncio.run, and the power-up's fold of the journal is
one of the deepest chains the table makes (docs/firmware.md, "The C stack").

The readers' chip selects are single stores to the RP2040's SIO output
registers (machine.mem32) that set the 74HC138's three address lines at once
(hal/chipselect.py); the buttons are read in one load of the GPIO input
register; the LEDs go out by PIO and DMA (hal/ws2812.py) behind the current
limiter (hal/pixels.py); the journal and the registry are on flash
(hal.storage.board_storage()); the log's lines and the mirror's
(hal/mirror.py) go out on the USB serial console, never waiting for the
host (hal/console.py).
"""

import pins
import table_config
from machine import Pin

from dicetable.app.frames import led_count, starting
from hal.pixels import Pixels
from hal.ws2812 import WS2812


def starting_pixels():
    """The LED chain, showing the power-up's frame (frames.starting): the
    first thing the table shows, before the app and the other drivers are
    imported (docs/firmware.md, "Power-up")."""
    pixels = Pixels(
        WS2812(Pin(pins.NEOPIXEL, Pin.OUT), led_count(table_config)),
        table_config.CURRENT_BUDGET_MA,
    )
    frame = bytearray(3 * len(pixels.np))
    starting(frame, table_config)
    pixels.show(frame)
    return pixels


def reader_selects():
    """Chip selects for the fitted seats and the centre (None where no reader):
    the decoder's address lines driven as outputs, at the idle address."""
    from machine import mem32

    from dicetable.app.events import CENTRE
    from hal.chipselect import decoder_selects

    for bit in range(len(pins.CS_ADDRESS)):
        Pin(pins.CS_ADDRESS[bit], Pin.OUT, value=(pins.CS_IDLE >> bit) & 1)
    fitted = list(table_config.seats) + [CENTRE]
    return decoder_selects(mem32, pins.CS_ADDRESS, pins.CS_LINE, pins.CS_IDLE, fitted)


def fitted_display():
    """The optional text display (hal/display.py) if one answers on I2C, else
    None: only a fitted display costs the heap its code and its 1 KB picture."""
    from machine import I2C

    i2c = I2C(pins.I2C_ID, sda=Pin(pins.I2C_SDA), scl=Pin(pins.I2C_SCL))
    try:
        if pins.DISPLAY_ADDRESS not in i2c.scan():
            return None
    except OSError:
        return None
    from hal.display import Display

    return Display(i2c)


class Board:
    """Every driver of the table, and the app they feed; `pixels` is the LED
    chain starting_pixels() lit.  The modules are imported here, not at the
    top, so that the power-up's frame is lit before they are loaded."""

    def __init__(self, pixels):
        import sys
        import time

        from machine import SPI

        from dicetable.app.rng import Rng
        from dicetable.app.table import Table
        from hal.buttons import Buttons, gpio_levels, input_pins
        from hal.console import Console
        from hal.mirror import Mirror
        from hal.readers import Readers
        from hal.storage import board_storage

        spi = SPI(
            pins.SPI_ID,
            baudrate=table_config.SPI_BAUDRATE,
            sck=Pin(pins.SPI_SCK),
            mosi=Pin(pins.SPI_MOSI),
            miso=Pin(pins.SPI_MISO),
        )
        self.readers = Readers(spi, reader_selects(), Pin(pins.READER_RESET, Pin.OUT, value=1))
        wired = [
            pins.BUTTONS[s] if s in table_config.seats else None for s in range(len(pins.BUTTONS))
        ]
        bits = [gpio for trio in wired if trio is not None for gpio in trio]
        self.buttons = Buttons(input_pins(wired), levels=gpio_levels(), bits=bits)
        self.pixels = pixels
        self.display = fitted_display()
        # The USB serial console: the log's lines and the mirror's, never
        # waiting for the host (hal/console.py).
        self.console = Console(sys.stdout.buffer)
        self.table = Table(
            table_config,
            board_storage(),
            Rng(time.ticks_diff(time.ticks_us(), 0)),
            self.console.log,
        )
        self.mirror = Mirror(self.console, pixels.np.buf, self.table)

    def boot(self):
        """The app's power-up (its journal folded before the watchdog starts);
        the garbage it left collected before the first play."""
        import gc

        self.table.boot()
        gc.collect()

    async def main(self, dog):
        """The main loop and the watchdog's guard, for ever."""
        # Both loaded by run() already, outside the task: found, not loaded, here.
        import asyncio

        from hal.mainloop import MainLoop

        t = self.table
        loop = MainLoop(t, self.readers, self.buttons, self.pixels, self.display, dog, self.mirror)
        await asyncio.gather(loop.run(), dog.guard())


def run():
    """The table under the watchdog; Ctrl-C (mpremote interrupting the app)
    leaves the board to the maker, the watchdog fed until the next soft reset.
    Any other way out leaves it unfed: the board restarts."""
    pixels = starting_pixels()
    board = Board(pixels)
    board.boot()
    import asyncio

    from hal.mainloop import TASKS
    from hal.watchdog import Watchdog

    dog = Watchdog(TASKS)
    try:
        asyncio.run(board.main(dog))
    except KeyboardInterrupt:
        dog.hand_over()
        raise
