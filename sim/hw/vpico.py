"""A Pico running the table's own boot.py and main.py, under CPython, on
virtual parts in virtual time: the board's firmware exactly as it starts on
the board, from power-up to the main loop, for as long as the players (a
`world` function) have something to do.

    pico = VirtualPico(firmware_dir)          the parts; the flash keeps
                                              what is written across power-ups
    pico.power_up(world, maintenance=False)   boot.py, then main.py (unless the
                                              maintenance button is held), until
                                              world(pico) returns

The world runs in a thread of its own, handed the CPU whenever the firmware
sleeps (time.sleep_ms, or asyncio waiting for its next task) and the world's
time has come, and only then: the firmware's thread and the world's never
run at once, and virtual time moves only when the firmware sleeps or the
parts work (the SPI bus per byte on the wire).  In its turn the world puts
tags on readers and takes them off, presses buttons, reads the table
(`pico.table`, found on the firmware's own stack) and waits (`pico.wait`):

    pico.place(reader, uid), pico.remove(reader), pico.press(seat, code, ms)
    pico.wait(ms), pico.lines(), pico.interrupt() (the maker's Ctrl-C)

The watchdog (machine.WDT) is watched in virtual time: `fired` counts the
times it would have reset the board, `feeds` its feeds.

It stands in for what main.py imports from MicroPython: machine (Pin, SPI
to a register-level MFRC522 per reader behind the 74HC138, I2C with no
display, mem32 with the SIO's registers and the watchdog's, WDT, Timer),
rp2 (sim/hw/vrp2.py: the LEDs' state machine and DMA), time and asyncio's
clock (virtual), the board's filesystem (flashmodel/vflash.py) and the USB
console (sim/hw/vconsole.py, hal.console).  Every firmware module is
imported afresh at each power-up, as on the board, and the process's own
copies are put back after.  sim/cstack.py meters the C stack of such a run.
"""

import asyncio
import contextlib
import importlib
import os
import selectors
import sys
import threading
import time
from typing import Any

from flashmodel.vflash import VFlash
from sim.hw.clock import Clock
from sim.hw.vconsole import VConsole
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vpin import VDecoder, VPin
from sim.hw.vrp2 import VRP2
from sim.hw.vspi import VSIO, VSPI
from sim.hw.vtag import VTag

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.normpath(os.path.join(HERE, "..", "..", "firmware"))
TAP_MS = 40  # a short press (over the 20 ms debounce)
HOLD_MS = 800  # a long press (over the 600 ms threshold)
WATCHDOG_CTRL = 0x40058000  # maintenance.py reads whether the watchdog runs
WATCHDOG_ENABLE = 0x40000000
SIO_GPIO_IN = 0xD0000004
_OUT_REGISTERS = (0xD0000014, 0xD0000018, 0xD000001C)  # SIO GPIO_OUT_SET, _CLR, _XOR
_TICKS_MASK = 0x3FFFFFFF


class PowerOff(BaseException):
    """The world is done: the power goes off (raised where the firmware sleeps)."""


def _quiet(method):
    # A virtual part's method run with no profile hook (sim/cstack.py's): it
    # stands for the board's C, and its own Python calls, by the million at
    # the SPI bus's byte level, would only slow a metered run down.  The
    # call itself is still seen, as a call into C.
    getprofile = sys.getprofile
    setprofile = sys.setprofile

    def call(*args):
        hook = getprofile()
        if hook is None:
            return method(*args)
        setprofile(None)
        try:
            return method(*args)
        finally:
            setprofile(hook)

    return call


class _Bus:
    # machine.SPI: the virtual bus's transfers, quiet.
    def __init__(self, bus):
        for name in ("write", "readinto", "write_readinto", "read", "init", "deinit"):
            setattr(self, name, _quiet(getattr(bus, name)))


class _Gc:
    # The board's gc module: collect() is the firmware's to call, and costs the
    # board its time (a model's business, not CPython's: a full collection of
    # the host's heap would only slow the run down).
    collects = 0

    def collect(self):
        _Gc.collects += 1

    def mem_alloc(self):
        return 0

    def mem_free(self):
        return 0

    def threshold(self, *args):
        return -1


class _Pin(VPin):
    # machine.Pin: a VPin per GPIO number, the maintenance button held if so.
    pico: "VirtualPico"  # set by machine(): a subclass per board

    def __init__(self, number, mode=VPin.IN, pull=None, value=1):
        pico = self.pico
        old = pico.pins.get(number)
        super().__init__(value if old is None else old.value())
        pico.pins[number] = self
        if number in pico.held:
            self.press()


class _Mem32:
    # machine.mem32: the SIO's output registers (the decoder's address lines),
    # the GPIO input register, the watchdog's control register.
    def __init__(self, pico):
        self.pico = pico
        self._set = _quiet(self._store)

    def __setitem__(self, address, bits):
        self._set(address, bits)

    def _store(self, address, bits):
        if address not in _OUT_REGISTERS:
            raise ValueError("mem32[0x%08x] is not modelled" % address)
        self.pico.sio[address] = bits

    def __getitem__(self, address):
        if address == SIO_GPIO_IN:
            return self.pico.gpio_in()
        if address == WATCHDOG_CTRL:
            return WATCHDOG_ENABLE if self.pico.wdt_ms else 0
        raise ValueError("mem32[0x%08x] is not modelled" % address)


class _NoI2C:
    # machine.I2C with nothing on the bus: no display fitted.
    def __init__(self, *args, **kwargs):
        pass

    def scan(self):
        return []


class _WDT:
    # machine.WDT: started, fed; VirtualPico watches it.
    pico: "VirtualPico"  # set by machine(): a subclass per board

    def __init__(self, id=0, timeout=5000):
        self.pico.wdt_ms = timeout
        self.pico.fed_us = self.pico.clock.now_us

    def feed(self):
        self.pico.fed_us = self.pico.clock.now_us
        self.pico.feeds += 1


class _Timer:
    # machine.Timer: a periodic soft timer, run where the firmware sleeps.
    pico: "VirtualPico"  # set by machine(): a subclass per board

    def __init__(self, id=-1, period=1000, mode=None, callback=None):
        now = self.pico.clock.now_us
        self.pico.timers.append([period * 1000, now + period * 1000, callback])

    def deinit(self):
        pass


def machine(pico):
    """The machine module on `pico`'s parts."""
    ns = type(sys)("machine")
    ns.Pin = type("Pin", (_Pin,), {"pico": pico})
    bus = _Bus(pico.bus)
    ns.SPI = lambda *a, **k: bus
    ns.I2C = _NoI2C
    ns.mem32 = _Mem32(pico)
    ns.WDT = type("WDT", (_WDT,), {"pico": pico})
    ns.Timer = type("Timer", (_Timer,), {"pico": pico})
    return ns


class _Selector(selectors.SelectSelector):
    # asyncio's wait for its next task: virtual time passes instead.
    def __init__(self, pico):
        super().__init__()
        self.pico = pico

    def select(self, timeout=None):
        if timeout is None:
            raise RuntimeError("the firmware waits for nothing: it would sleep for ever")
        # Rounded up: a wait shorter than a microsecond must still end.
        self.pico._sleep_us(-int(-timeout * 1_000_000 // 1))
        return []


class _Loop(asyncio.SelectorEventLoop):
    def __init__(self, pico):
        super().__init__(_Selector(pico))
        self._pico = pico
        self.set_exception_handler(_power_gone)

    def time(self):
        return self._pico.clock.now_us / 1_000_000


def _power_gone(loop, context):
    # The tasks the power cut (PowerOff, Ctrl-C) are dropped with the loop: on
    # the board nothing reports them, and CPython's asyncio need not either.
    if isinstance(context.get("exception"), (PowerOff, KeyboardInterrupt)):
        return
    if "was destroyed but it is pending" in context.get("message", ""):
        return
    loop.default_exception_handler(context)


def u_names():
    """{u-name: CPython's module of the name}: the names firmware/main.py
    imports the rp2 port's extensible built-ins by."""
    return {
        "u" + n: importlib.import_module(n)
        for n in ("array", "os", "random", "select", "struct", "time")
    }


class VirtualPico:
    """The board's parts, the flash across power-ups, and the firmware's runs."""

    def __init__(self, firmware, flash=None, seed=1):
        self.firmware = os.path.realpath(str(firmware))
        self.clock = Clock()
        self.bus = VSPI(self.clock, 4000000)
        self.flash = VFlash() if flash is None else flash
        self.console = VConsole()
        self.rp2 = VRP2()
        self.seed = seed
        self.pins = {}
        self.held = set()  # GPIOs held low from power-up (the maintenance button)
        self.chips = []
        self.sio = VSIO()
        self.wdt_ms = 0  # the watchdog's timeout once started
        self.fed_us = 0
        self.feeds = 0
        self.fired = 0  # times the watchdog would have reset the board
        self.timers = []
        self._world_at = 0  # virtual us at which the world wants its turn
        self._done = True
        self._go = threading.Semaphore(0)
        self._back = threading.Semaphore(0)
        self._error = None
        self._table = None
        self._ctrl_c = False
        self.interrupted = False  # the last power-up's app was ended by Ctrl-C

    # -- the parts -------------------------------------------------------------------

    def _wire(self, pins):
        # The readers behind the 74HC138 whose address lines are GPIOs.
        from dicetable.app.events import CENTRE

        if not self.chips:
            self.chips = [VMFRC522(self.clock, name=str(r)) for r in range(CENTRE + 1)]
        outputs: list[Any] = [None] * 8
        for r in range(CENTRE + 1):
            outputs[pins.CS_LINE[r]] = self.bus.cs(self.chips[r])
        decoder = VDecoder(outputs)
        self.sio = VSIO()
        for k in range(3):
            self.sio.attach(pins.CS_ADDRESS[k], decoder.pins[k])

    def gpio_in(self):
        """The GPIO input register: bit n is GPIO n's level."""
        word = 0
        for number, pin in self.pins.items():
            if pin.value():
                word |= 1 << number
        return word

    # -- a run -----------------------------------------------------------------------

    def power_up(self, world, maintenance=False):
        """boot.py, then main.py, on these parts until world(self) returns."""
        self.pins = {}
        self.timers = []
        self.wdt_ms = 0
        self.held = set()
        self.interrupted = False
        with self.firmware_modules():
            pins = importlib.import_module("pins")
            if maintenance:
                self.held.add(pins.MAINTENANCE)
            self._wire(pins)
            self._install()
            self._start_world(world)
            try:
                self._run("boot.py")
                try:
                    self._run("main.py")
                except KeyboardInterrupt:
                    self.interrupted = True  # the maker's Ctrl-C ended the app
                # main.py is over: maintenance mode, or the board at its REPL.
                while not self._done:
                    self._sleep_us(10_000)
            except PowerOff:
                pass
            finally:
                self._stop_world()
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    @contextlib.contextmanager
    def firmware_modules(self):
        """This firmware's modules imported afresh for the block (a maker's
        tool writing the flash, a power-up), the process's own put back after."""
        saved = _Saved(self.firmware)
        saved.forget()
        try:
            yield
        finally:
            saved.restore()

    def _run(self, name):
        path = self.firmware + "/" + name
        with open(path) as f:
            code = compile(f.read(), path, "exec")
        exec(code, {"__name__": "__main__", "__file__": path})

    def _install(self):
        # MicroPython's modules and functions, where CPython has none of them.
        modules: dict[str, Any] = sys.modules
        modules["machine"] = machine(self)
        modules["rp2"] = self.rp2
        modules["gc"] = _Gc()
        modules.update(u_names())
        storage: Any = importlib.import_module("hal.storage")
        storage.FlashFS = lambda: self.flash
        clock = self.clock
        utime: Any = time
        utime.ticks_ms = lambda: (clock.now_us // 1000) & _TICKS_MASK
        utime.ticks_us = lambda: self._read_us()
        utime.ticks_diff = lambda a, b: ((a - b + 0x20000000) & _TICKS_MASK) - 0x20000000
        utime.sleep_ms = lambda ms: self._sleep_us(ms * 1000)
        uasyncio: Any = asyncio
        uasyncio.sleep_ms = lambda ms: asyncio.sleep(ms / 1000)
        self._policy = asyncio.get_event_loop_policy()
        pico = self

        class Policy(asyncio.DefaultEventLoopPolicy):
            def new_event_loop(self):
                return _Loop(pico)

        asyncio.set_event_loop_policy(Policy())
        sys.stdout = _Stdout(self.console)  # print() goes to the USB console

    # -- time passes -------------------------------------------------------------------

    def _read_us(self):
        # A read of the microsecond clock takes about a microsecond on the
        # Pico: a loop that waits on it (hal/ws2812.py's latch) ends.
        self.clock.now_us += 1
        return self.clock.now_us & _TICKS_MASK

    def _sleep_us(self, us):
        # The firmware sleeps: the world has its turns meanwhile, the timers
        # run, the watchdog is watched; the world done, the power goes.
        until = self.clock.now_us + us
        while not self._done and self._world_at <= until and not self._ctrl_c:
            self._tick(self._world_at)
            self._go.release()
            self._back.acquire()
        if self._done:
            raise PowerOff()
        if self._ctrl_c:
            self._ctrl_c = False
            raise KeyboardInterrupt
        self._tick(until)

    def _tick(self, us):
        for timer in self.timers:
            while timer[1] <= us:
                self.clock.now_us = max(self.clock.now_us, timer[1])
                timer[1] += timer[0]
                if timer[2] is not None:
                    timer[2](timer)
        self.clock.now_us = max(self.clock.now_us, us)
        if self.wdt_ms and self.clock.now_us - self.fed_us > self.wdt_ms * 1000:
            self.fired += 1
            self.fed_us = self.clock.now_us

    # -- the world's side ----------------------------------------------------------------

    def _start_world(self, world):
        self._table = None
        self._done = False
        self._world_at = self.clock.now_us

        def run():
            self._go.acquire()
            try:
                world(self)
            except BaseException as e:  # noqa: BLE001 - handed to the firmware's thread
                self._error = e
            self._done = True
            self._back.release()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def _stop_world(self):
        if not self._done:
            self._done = True
            self._error = self._error or RuntimeError("the firmware ended before the world")
            self._go.release()
        self._thread.join()

    def wait(self, ms):
        """The world waits `ms` of virtual time while the firmware runs."""
        self._world_at = self.clock.now_us + ms * 1000
        self._back.release()
        self._go.acquire()
        if self._done:
            raise PowerOff()

    def interrupt(self):
        """Ctrl-C from the host (as mpremote sends it): it lands where the
        firmware sleeps next."""
        self._ctrl_c = True

    def place(self, reader, uid):
        """Put a tag with `uid` on a reader (taking off what lay there)."""
        chip = self.chips[reader]
        for tag in chip.tags():
            chip.remove(tag)
        chip.place(VTag(uid))

    def remove(self, reader):
        chip = self.chips[reader]
        for tag in chip.tags():
            chip.remove(tag)

    def press(self, seat, code, ms=TAP_MS):
        """Hold a seat's button (events.MINUS, PLUS or OK) for `ms`, then let go
        and wait for the debounce."""
        pin = self.pins[sys.modules["pins"].BUTTONS[seat][code]]
        pin.press()
        self.wait(ms)
        pin.release()
        self.wait(60)

    def lines(self):
        """The console's lines so far, log and mirror."""
        return self.console.lines()

    @property
    def table(self):
        """The table app, read off the firmware's stack (its main loop's
        `table`); None before the main loop runs.  The world's side only."""
        for _ in range(100):
            frame = sys._current_frames().get(threading.main_thread().ident or 0)
            while frame is not None:
                owner = frame.f_locals.get("self")
                t = None if owner is self else getattr(owner, "table", None)
                if t is not None and hasattr(t, "inputs"):
                    self._table = t
                    return t
                frame = frame.f_back
            if self._table is not None:
                return self._table
            self.wait(1)  # asyncio between tasks: the main loop is not on the stack
        return None


class _Stdout:
    # sys.stdout on the board: print() writes to the USB console, and
    # sys.stdout.buffer is the console's stream (hal/console.py writes to it).
    def __init__(self, console):
        self.console = console
        self.buffer = console

    def write(self, text):
        self.console.write(text.encode())
        return len(text)

    def flush(self):
        pass


class _Saved:
    """The process's own copies of what a power-up replaces: the firmware's
    modules, machine and rp2, time's and asyncio's names, asyncio's policy."""

    def __init__(self, firmware):
        self.root = firmware.rstrip("/") + "/"
        # The firmware's top-level modules and packages, wherever a copy was
        # imported from: each is the board's own at a power-up.
        self.names = {"machine", "rp2", "gc"}
        for entry in os.listdir(firmware):
            if entry.endswith(".py"):
                self.names.add(entry[:-3])
            elif os.path.exists(os.path.join(firmware, entry, "__init__.py")):
                self.names.add(entry)
        self.modules = {}
        self.time = {
            k: getattr(time, k, None) for k in ("ticks_ms", "ticks_us", "ticks_diff", "sleep_ms")
        }
        self.sleep_ms = getattr(asyncio, "sleep_ms", None)
        self.policy = asyncio.get_event_loop_policy()
        self.path = list(sys.path)
        self.stdout = sys.stdout

    def _ours(self, name, module):
        return name.split(".")[0] in self.names

    def forget(self):
        for name, module in list(sys.modules.items()):
            if self._ours(name, module):
                self.modules[name] = module
                del sys.modules[name]
        # This firmware's modules first, before any other copy on the path.
        sys.path.insert(0, self.root.rstrip("/"))

    def restore(self):
        for name, module in list(sys.modules.items()):
            if self._ours(name, module):
                del sys.modules[name]
        sys.modules.update(self.modules)
        for k, v in self.time.items():
            if v is None:
                if hasattr(time, k):
                    delattr(time, k)
            else:
                setattr(time, k, v)
        if self.sleep_ms is None:
            if hasattr(asyncio, "sleep_ms"):
                delattr(asyncio, "sleep_ms")
        else:
            setattr(asyncio, "sleep_ms", self.sleep_ms)  # noqa: B010 - not CPython's
        asyncio.set_event_loop_policy(self.policy)
        sys.path[:] = self.path
        sys.stdout = self.stdout
