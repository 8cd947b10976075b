"""The table on the board: the drivers built from pins.py and table_config.py,
the app they feed, and the main loop (hal/mainloop.py) under the watchdog
(hal/watchdog.py).

    run()                 main.py: the table, for ever
    Board()               every driver, and the app
    await board.main(dog) boot the app, then the main loop and the watchdog's guard
    reader_selects()      the readers' chip selects (the host tools' scan uses them)

The readers' chip selects are single stores to the RP2040's SIO output
registers (machine.mem32) that set the 74HC138's three address lines at once
(hal/chipselect.py); the buttons are read in one load of the GPIO input
register; the LEDs go out by PIO and DMA (hal/ws2812.py) behind the current
limiter (hal/pixels.py); the journal and the registry are on flash
(hal.storage.board_storage()); the mirror's lines (hal/mirror.py) go out
on the USB serial console with the log's.
"""

import asyncio
import sys
import time

import pins
import table_config
from machine import I2C, SPI, Pin, mem32

import hal
from dicetable.app.events import CENTRE
from dicetable.app.frames import led_count
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from hal import watchdog
from hal.buttons import Buttons, gpio_levels, input_pins
from hal.chipselect import decoder_selects
from hal.mainloop import TASKS, MainLoop
from hal.mirror import Mirror
from hal.pixels import Pixels
from hal.readers import Readers
from hal.storage import board_storage
from hal.ws2812 import WS2812


def reader_selects():
    """Chip selects for the fitted seats and the centre (None where no reader):
    the decoder's address lines driven as outputs, at the idle address."""
    for bit in range(len(pins.CS_ADDRESS)):
        Pin(pins.CS_ADDRESS[bit], Pin.OUT, value=(pins.CS_IDLE >> bit) & 1)
    fitted = list(table_config.seats) + [CENTRE]
    return decoder_selects(mem32, pins.CS_ADDRESS, pins.CS_LINE, pins.CS_IDLE, fitted)


def fitted_display():
    """The optional text display (hal/display.py) if one answers on I2C, else
    None: only a fitted display costs the heap its code and its 1 KB picture."""
    i2c = I2C(pins.I2C_ID, sda=Pin(pins.I2C_SDA), scl=Pin(pins.I2C_SCL))
    try:
        if pins.DISPLAY_ADDRESS not in i2c.scan():
            return None
    except OSError:
        return None
    from hal.display import Display

    return Display(i2c)


def log(line):
    """The table's log line, on the USB serial console."""
    print(line)


class Board:
    """Every driver of the table, and the app they feed."""

    def __init__(self):
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
        self.pixels = Pixels(
            WS2812(Pin(pins.NEOPIXEL, Pin.OUT), led_count(table_config)),
            table_config.CURRENT_BUDGET_MA,
        )
        self.display = fitted_display()
        self.table = Table(
            table_config, board_storage(), Rng(time.ticks_diff(time.ticks_us(), 0)), log
        )

    async def main(self, dog):
        """Boot the app (its journal folded before the watchdog starts), then the
        main loop and the watchdog's guard, for ever."""
        self.table.boot()
        t = self.table
        # The USB serial console as a stream, write(buf, off, n); hal.console
        # instead where set (the tests' virtual console: CPython's takes one
        # argument, and pytest replaces sys.stdout).
        console = getattr(hal, "console", None) or sys.stdout.buffer
        mirror = Mirror(console.write, self.pixels.np.buf, t)
        loop = MainLoop(t, self.readers, self.buttons, self.pixels, self.display, dog, mirror)
        await asyncio.gather(loop.run(), dog.guard())


def run():
    """The table under the watchdog; Ctrl-C leaves the board to the maker."""
    watchdog.run(lambda dog: Board().main(dog), TASKS)
