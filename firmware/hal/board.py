"""The table on the board: the drivers built from pins.py and table_config.py,
and the main loop on asyncio.

Three tasks share the CPU: the readers are polled in turn (one reader per
pass, so a slow or faulty one never holds up the buttons), the buttons every
few milliseconds, and the LEDs (and the optional display) are pushed when
the app's frame changes.  The app itself is synchronous: every event is one
plain method call.
"""

import asyncio
import time

from machine import I2C, SPI, Pin
from neopixel import NeoPixel

import pins
import table_config
from dicetable.app.events import CENTRE
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from hal.buttons import Buttons, input_pins
from hal.display import Display
from hal.pixels import Pixels
from hal.readers import Readers
from hal.storage import FlashFS, Storage

BUTTON_POLL_MS = 5
FRAME_MS = 20


class DecoderSelect:
    """One reader's chip select through the 74HC138 (pins.CS_ADDRESS): low
    puts the reader's line on the address, high puts the idle line back."""

    def __init__(self, address_pins, line, idle):
        self._a = address_pins
        self._line = line
        self._idle = idle

    def value(self, v=None):
        a = self._a
        if v is None:
            on = (a[0].value() | a[1].value() << 1 | a[2].value() << 2) == self._line
            return 0 if on else 1
        line = self._idle if v else self._line
        for bit in range(3):
            a[bit].value((line >> bit) & 1)
        return None

    def __call__(self, v=None):
        return self.value(v)


def reader_selects():
    """Chip selects for the fitted seats and the centre (None where no reader)."""
    address = [Pin(n, Pin.OUT, value=0) for n in pins.CS_ADDRESS]
    fitted = list(table_config.seats) + [CENTRE]
    return [DecoderSelect(address, pins.CS_LINE[r], pins.CS_IDLE) if r in fitted else None
            for r in range(CENTRE + 1)]


def log(line):
    print(line)


class Board:
    """Every driver of the table, and the app they feed."""

    def __init__(self):
        spi = SPI(pins.SPI_ID, baudrate=table_config.SPI_BAUDRATE, sck=Pin(pins.SPI_SCK),
                  mosi=Pin(pins.SPI_MOSI), miso=Pin(pins.SPI_MISO))
        self.readers = Readers(spi, reader_selects(), Pin(pins.READER_RESET, Pin.OUT, value=1))
        fitted = [pins.BUTTONS[s] if s in table_config.seats else None
                  for s in range(len(pins.BUTTONS))]
        self.buttons = Buttons(input_pins(fitted))
        leds = (max(table_config.seats) + 1) * table_config.LEDS_PER_SEAT + table_config.RING_LEDS
        self.pixels = Pixels(NeoPixel(Pin(pins.NEOPIXEL, Pin.OUT), leds),
                             table_config.CURRENT_BUDGET_MA)
        self.display = Display(I2C(pins.I2C_ID, sda=Pin(pins.I2C_SDA), scl=Pin(pins.I2C_SCL)))
        self.table = Table(table_config, Storage(FlashFS()),
                           Rng(time.ticks_diff(time.ticks_us(), 0)), log)

    async def poll_readers(self):
        indices = list(table_config.seats) + [CENTRE]
        while True:
            for i in indices:
                self.readers.poll(i, self.table.reader_event)
                await asyncio.sleep_ms(0)

    async def poll_buttons(self):
        while True:
            self.buttons.poll(time.ticks_ms(), self.table.button)
            await asyncio.sleep_ms(BUTTON_POLL_MS)

    async def show(self):
        shown = -1
        while True:
            self.table.tick(time.ticks_ms())
            if self.table.frame_version != shown:
                shown = self.table.frame_version
                self.pixels.show(self.table.frame)
                if self.display.present:
                    self.display.show(self.table.text)
            await asyncio.sleep_ms(FRAME_MS)

    async def main(self):
        self.table.boot()
        await asyncio.gather(self.poll_readers(), self.poll_buttons(), self.show())


def run():
    asyncio.run(Board().main())
