"""hal/board.py, the board's wiring and main loop, run on CPython with the
MicroPython-only modules it imports (machine, neopixel) stood in for by the
virtual parts, and asyncio's and time's MicroPython extras supplied: the
pins it claims come from pins.py, the readers, buttons and LEDs are wired
to the app, and the loop boots the table and pushes its frames."""

import asyncio
import importlib
import sys
import time
import types

import pytest

import pins
import table_config
from sim.hw.clock import Clock
from sim.hw.vpin import VPin
from sim.hw.vpixels_portable import RecordingNeoPixel
from sim.hw.vspi import VSPI

claimed = []


class Pin(VPin):
    def __init__(self, number, mode=VPin.IN, pull=None, value=1):
        super().__init__(value)
        claimed.append(number)


class NoI2C:
    def __init__(self, *args, **kwargs):
        pass

    def scan(self):
        return []


@pytest.fixture
def board_modules(monkeypatch):
    """machine and neopixel as the board has them, made of virtual parts."""
    claimed.clear()
    bus = VSPI(Clock(), table_config.SPI_BAUDRATE)
    strips = []
    machine = types.SimpleNamespace(Pin=Pin, SPI=lambda *a, **k: bus, I2C=NoI2C)

    def neopixel(pin, n):
        strips.append(RecordingNeoPixel(n))
        return strips[-1]

    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=neopixel))
    monkeypatch.setattr(asyncio, "sleep_ms", lambda ms: asyncio.sleep(ms / 1000), raising=False)
    start = time.monotonic_ns()
    monkeypatch.setattr(time, "ticks_ms", lambda: (time.monotonic_ns() - start) // 1000000,
                        raising=False)
    monkeypatch.setattr(time, "ticks_us", lambda: (time.monotonic_ns() - start) // 1000,
                        raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.delitem(sys.modules, "hal.board", raising=False)   # imported afresh, then forgotten
    return bus, strips


def test_the_board_boots_the_table_and_pushes_its_frames(board_modules):
    bus, strips = board_modules
    board = importlib.import_module("hal.board")   # not hal's attribute: a fresh import
    b = board.Board()
    # Every pin it claimed is in the pin map, once.
    expected = set(pins.CS_ADDRESS) | {pins.SPI_SCK, pins.SPI_MOSI, pins.SPI_MISO,
                                       pins.READER_RESET, pins.NEOPIXEL, pins.I2C_SDA,
                                       pins.I2C_SCL}
    for s in table_config.seats:
        expected |= set(pins.BUTTONS[s])
    assert sorted(claimed) == sorted(expected)
    assert not b.display.present                  # no display fitted: the table works on

    async def run_a_while():
        task = asyncio.ensure_future(b.main())
        await asyncio.sleep(0.3)
        task.cancel()

    asyncio.run(run_a_while())
    assert b.table.mode == "menu"
    assert strips[0].frames                        # the menu reached the LEDs
    assert strips[0].rgb() == [tuple(b.table.frame[3 * i:3 * i + 3])
                               for i in range(len(strips[0]))]
