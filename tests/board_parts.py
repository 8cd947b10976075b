"""The MicroPython-only modules hal/board.py imports, made of virtual parts, for
running the board's own wiring on CPython (tests/test_board_loop.py,
tests/test_watchdog.py).

Parts(monkeypatch, ...) puts in sys.modules:

- machine: Pin (a VPin per GPIO number, remembered in `pins`), SPI (the
  virtual bus of a register-level MFRC522 per reader, behind a 74HC138 whose
  address lines are GPIOs), I2C (nothing answers), mem32 (the SIO's output
  set/clear/xor registers driving those lines, the GPIO input register
  reading every pin, and whatever else the caller answers), WDT and Timer
  (the caller's, or ones that record);
- rp2: the virtual rp2 module (sim/hw/vrp2.py), whose state machines the
  LED driver feeds;
- hal.storage.FlashFS: the virtual flash (flashmodel/vflash.py) instead of the
  board's filesystem and rp2.Flash();
- the USB console hal/board.py writes the log's and the mirror's lines to
  (hal/console.py, over sys.stdout.buffer on the board): a VConsole
  (sim/hw/vconsole.py) keeping them, in `console`;
- time.ticks_ms, ticks_us, ticks_diff, sleep_ms and asyncio.sleep_ms: on the
  host's clock, or on the caller's `ticks_ms`, `ticks_us` and `sleep_ms`.
"""

import asyncio
import importlib
import sys
import time
import types

import pins

import hal
from dicetable.app.events import CENTRE
from flashmodel.vflash import VFlash
from hal import buttons as hal_buttons
from hal import storage as hal_storage
from hal.chipselect import GPIO_OUT_CLR, GPIO_OUT_SET, GPIO_OUT_XOR
from sim.hw.clock import Clock
from sim.hw.vconsole import VConsole
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vpico import u_names
from sim.hw.vpin import VDecoder, VPin
from sim.hw.vrp2 import VRP2
from sim.hw.vspi import VSIO, VSPI

FRESH = ("hal.board", "hal.ws2812", "hal.watchdog", "maintenance")


class Recorded:
    """A WDT or Timer that only records how it was used."""

    made = []

    def __init__(self, *args, **kwargs):
        self.args = (args, kwargs)
        self.feeds = 0
        Recorded.made.append(self)

    def feed(self):
        self.feeds += 1

    def deinit(self):
        pass


class Parts:
    """The virtual board (see the module docstring)."""

    def __init__(
        self,
        monkeypatch,
        wdt=Recorded,
        timer=Recorded,
        mem32_read=None,
        ticks_ms=None,
        ticks_us=None,
        sleep_ms=None,
        baudrate=4000000,
    ):
        self.clock = Clock()
        self.bus = VSPI(self.clock, baudrate)
        self.chips = [VMFRC522(self.clock, name=str(r)) for r in range(CENTRE + 1)]
        outputs = [None] * 8
        for r in range(CENTRE + 1):
            outputs[pins.CS_LINE[r]] = self.bus.cs(self.chips[r])
        self.decoder = VDecoder(outputs)
        self.sio = VSIO()
        for k in range(3):
            self.sio.attach(pins.CS_ADDRESS[k], self.decoder.pins[k])
        self.pins = {}
        self.rp2 = VRP2()
        self.flash = VFlash()
        self.console = VConsole()
        # pytest puts its own sys.stdout back for the test itself: the board's
        # console is handed the virtual one where hal/board.py makes it.
        console = importlib.import_module("hal.console")
        real = console.Console
        monkeypatch.setattr(console, "Console", lambda stream: real(self.console))
        self._mem32_read = mem32_read
        self.machine = self._machine(wdt, timer)
        monkeypatch.setitem(sys.modules, "machine", self.machine)
        monkeypatch.setitem(sys.modules, "rp2", self.rp2)
        for name, module in u_names().items():
            monkeypatch.setitem(sys.modules, name, module)
        monkeypatch.setattr(hal_storage, "FlashFS", lambda: self.flash)
        _patch_time(monkeypatch, ticks_ms, ticks_us, sleep_ms)
        # The modules that import machine or rp2 are imported afresh, then forgotten.
        for name in FRESH:
            monkeypatch.delattr(hal, name.split(".")[-1], raising=False)
            monkeypatch.setitem(sys.modules, name, None)
            del sys.modules[name]

    def _machine(self, wdt, timer):
        """The virtual `machine` module: Pin, SPI, I2C, mem32, WDT and Timer."""
        parts = self

        class Pin(VPin):
            def __init__(self, number, mode=VPin.IN, pull=None, value=1):
                super().__init__(value)
                parts.pins[number] = self

        class Mem32:
            def __setitem__(self, address, bits):
                assert address in (GPIO_OUT_SET, GPIO_OUT_CLR, GPIO_OUT_XOR)
                parts.sio[address] = bits

            def __getitem__(self, address):
                if address == hal_buttons.SIO_GPIO_IN:
                    return parts.gpio_in()
                assert parts._mem32_read is not None, "mem32[0x%08x]" % address
                return parts._mem32_read(address)

        class NoI2C:
            def __init__(self, *args, **kwargs):
                pass

            def scan(self):
                return []

        return types.SimpleNamespace(
            Pin=Pin, SPI=lambda *a, **k: self.bus, I2C=NoI2C, mem32=Mem32(), WDT=wdt, Timer=timer
        )

    def hal_board(self):
        """hal.board, imported on these parts."""
        return importlib.import_module("hal.board")

    def gpio_in(self):
        """The GPIO input register: bit n is GPIO n's level."""
        word = 0
        for number, pin in self.pins.items():
            if pin.value():
                word |= 1 << number
        return word

    def strip(self):
        """The LED driver's state machine (what its DMA fed it)."""
        return self.rp2.machines[0]


def _patch_time(monkeypatch, ticks_ms, ticks_us, sleep_ms):
    """time.ticks_ms, ticks_us, ticks_diff, sleep_ms and asyncio.sleep_ms: on the
    host's clock, or on the caller's `ticks_ms`, `ticks_us` and `sleep_ms`."""
    if ticks_ms is None:
        start = time.monotonic_ns()

        def ticks_ms():
            return (time.monotonic_ns() - start) // 1000000

        monkeypatch.setattr(
            time, "ticks_us", lambda: (time.monotonic_ns() - start) // 1000, raising=False
        )
        monkeypatch.setattr(asyncio, "sleep_ms", lambda ms: asyncio.sleep(ms / 1000), raising=False)
    else:
        monkeypatch.setattr(time, "ticks_us", ticks_us, raising=False)
    if sleep_ms is None:

        def sleep_ms(ms):
            time.sleep(ms / 1000)

    monkeypatch.setattr(time, "ticks_ms", ticks_ms, raising=False)
    monkeypatch.setattr(time, "sleep_ms", sleep_ms, raising=False)
    monkeypatch.setattr(
        time,
        "ticks_diff",
        lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000,
        raising=False,
    )
