"""The watchdog (hal/watchdog.py, maintenance.py, boot.py, main.py) in virtual time.

A virtual Pico stands in for machine: WDT, Timer, mem32 (the WATCHDOG CTRL
register) and the maintenance button.  Its clock moves only when the asyncio
loop waits or a stuck task spends time, and its watchdog resets it (Reset)
when not fed within the timeout, as the RP2040's does.  Power-up and soft
reset run the real boot.py and main.py; main.py's app is a stand-in for
hal.board: tasks that beat, and may stop, hang, crash or be interrupted;
or (the `real_pico` tests) the real hal.board, its drivers on the virtual
parts of tests/board_parts.py, in the chip's time.
"""

import asyncio
import importlib
import math
import selectors
import sys
import types
from pathlib import Path

import pins
import pytest
from board_parts import Parts
from forked import in_a_fork

from hal.readers import MENU_MS, Readers
from sim import mpy_wasm
from sim.hw.vpico import u_names
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
FRESH = ("maintenance", "hal.watchdog")  # the Python state a reset drops
WATCHDOG_CTRL = 0x40058000
WATCHDOG_ENABLE = 0x40000000
HOUR = 3600 * 1000


def forget():
    # The modules a reset drops, and the hal package's reference to watchdog.
    for name in FRESH:
        sys.modules.pop(name, None)
    hal = sys.modules.get("hal")
    if hal is not None and hasattr(hal, "watchdog"):
        del hal.watchdog


class Reset(BaseException):
    """The watchdog reset the chip."""


class Crash(Exception):
    """The app failed."""


class Chip:
    """The RP2040's clock, watchdog and soft timers, and the maintenance button."""

    def __init__(self):
        self.now = 0
        self.wdt_ms = None  # the running watchdog's timeout
        self.fed_at = 0
        self.timers = []
        self.resets = []
        self.button_held = False
        self.ctrl_c_at = None  # when the maker presses Ctrl-C

    def watchdog_running(self):
        return self.wdt_ms is not None

    def advance(self, ms):
        """Time passes: timers fire, Ctrl-C lands, an unfed watchdog resets the chip."""
        end = self.now + ms
        while True:
            timer = min(self.timers, key=lambda t: t.due, default=None)
            due = timer.due if timer is not None else math.inf
            expiry = self.fed_at + self.wdt_ms if self.wdt_ms is not None else math.inf
            ctrl_c = self.ctrl_c_at if self.ctrl_c_at is not None else math.inf
            at = min(due, expiry, ctrl_c)
            if at > end:
                self.now = end
                return
            self.now = at
            if timer is not None and at == due:
                timer.fire()
            elif at == expiry:
                self.wdt_ms = None
                self.timers.clear()
                self.resets.append(at)
                raise Reset(at)
            else:
                self.ctrl_c_at = None
                raise KeyboardInterrupt

    def machine(self):
        """The machine module as the rp2 port has it, on this chip."""
        chip = self

        class WDT:
            def __init__(self, id=0, timeout=5000):
                assert id == 0 and timeout <= 8388
                chip.wdt_ms = timeout  # started, or re-armed if running
                chip.fed_at = chip.now

            def feed(self):
                chip.fed_at = chip.now

        class Timer:
            PERIODIC = 1

            def __init__(self, id, mode=1, period=1000, callback=None):
                assert id == -1 and mode == Timer.PERIODIC and callback is not None
                self.period = period
                self.callback = callback
                self.due = chip.now + period
                chip.timers.append(self)

            def fire(self):
                self.due += self.period
                self.callback(self)

            def deinit(self):
                if self in chip.timers:
                    chip.timers.remove(self)

        class Pin:
            IN = 0
            PULL_UP = 1

            def __init__(self, number, mode=-1, pull=-1):
                self.number = number

            def value(self):
                return 0 if chip.button_held and self.number == pins.MAINTENANCE else 1

        class Mem32:
            def __getitem__(self, address):
                assert address == WATCHDOG_CTRL
                return WATCHDOG_ENABLE if chip.watchdog_running() else 0

        module = types.ModuleType("machine")
        module.WDT, module.Timer, module.Pin, module.mem32 = WDT, Timer, Pin, Mem32()
        return module


class _Selector(selectors.DefaultSelector):
    # The loop's waits are the chip's time.
    def __init__(self, chip):
        super().__init__()
        self.chip = chip

    def select(self, timeout=None):
        assert timeout is not None, "the app has nothing left to run"
        assert self.chip.now < 24 * HOUR, "a day went by and the test did not end"
        self.chip.advance(math.ceil(timeout * 1000))
        return super().select(0)


class _Loop(asyncio.SelectorEventLoop):
    def __init__(self, chip):
        super().__init__(_Selector(chip))
        self.chip = chip

    def time(self):
        return self.chip.now / 1000


class Pico:
    """The virtual board: power-up and soft reset run boot.py then main.py,
    whose app is `self.periods` tasks (ms between passes) and guard()."""

    def __init__(self, chip):
        self.chip = chip
        self.periods = (5, 20, 100)
        self.boot_ms = 0  # the table's boot (journal fold) before the tasks
        self.stops = None  # (task, at): that task stops beating at that time
        self.stuck = None  # (task, at): that task spins without yielding
        self.crash_at = None

    def power_up(self):
        self.chip.wdt_ms = None
        self.soft_reset()

    def soft_reset(self, raw=False):
        """Timers stop, the Python state is dropped; boot.py, then main.py
        unless in the raw REPL (mpremote's soft reset)."""
        self.chip.timers.clear()
        forget()
        self._exec("boot.py")
        if not raw:
            self._exec("main.py")

    def _exec(self, name):
        source = (FIRMWARE / name).read_text()
        exec(compile(source, name, "exec"), {"__name__": "__main__"})

    def run(self):
        """hal.board.run() as it wires the watchdog: the app's tasks under a
        Watchdog, Ctrl-C handing it over."""
        dog = importlib.import_module("hal.watchdog").Watchdog(len(self.periods))
        try:
            asyncio.run(self.main(dog))
        except KeyboardInterrupt:
            dog.hand_over()
            raise

    async def main(self, dog):
        self.chip.advance(self.boot_ms)
        tasks = [self._task(dog, i, p) for i, p in enumerate(self.periods)]
        if self.crash_at is not None:
            tasks.append(self._crash())
        await asyncio.gather(*tasks, dog.guard())

    async def _task(self, dog, i, period):
        while True:
            if self.stops and self.stops[0] == i and self.chip.now >= self.stops[1]:
                await asyncio.Event().wait()
            if self.stuck and self.stuck[0] == i and self.chip.now >= self.stuck[1]:
                while True:
                    self.chip.advance(1)
            dog.beat(i)
            await asyncio.sleep_ms(period)

    async def _crash(self):
        await asyncio.sleep_ms(self.crash_at)
        raise Crash


@pytest.fixture
def pico(monkeypatch):
    chip = Chip()
    board = Pico(chip)
    monkeypatch.setitem(sys.modules, "machine", chip.machine())
    for name, module in u_names().items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setitem(sys.modules, "hal.board", types.SimpleNamespace(run=board.run))
    monkeypatch.setattr(asyncio, "sleep_ms", lambda ms: asyncio.sleep(ms / 1000), raising=False)

    def run(coro):
        with asyncio.Runner(loop_factory=lambda: _Loop(chip)) as runner:
            return runner.run(coro)

    monkeypatch.setattr(asyncio, "run", run)
    try:
        yield board
    finally:
        forget()


class _Spinning:
    """time.ticks_us() on the chip: a CPU that spins on it sees time pass."""

    def __init__(self, chip):
        self.chip = chip
        self.us = 0

    def __call__(self):
        self.us = max(self.us + 1, self.chip.now * 1000)
        return self.us


@pytest.fixture
def real_pico(monkeypatch):
    """The Pico with the real hal.board: Pico(chip).power_up() runs main.py's run()."""
    chip = Chip()
    machine = chip.machine()
    parts = Parts(
        monkeypatch,
        wdt=machine.WDT,
        timer=machine.Timer,
        mem32_read=machine.mem32.__getitem__,
        ticks_ms=lambda: chip.now,
        ticks_us=_Spinning(chip),
        sleep_ms=chip.advance,
    )
    monkeypatch.setattr(asyncio, "sleep_ms", lambda ms: asyncio.sleep(ms / 1000), raising=False)

    def loop():
        # Ctrl-C lands in the main loop's time.sleep_ms, inside its task: the
        # task ends with it, which CPython's asyncio would report again when
        # the task is dropped (MicroPython's does not).
        def report(loop, context):
            if not isinstance(context.get("exception"), KeyboardInterrupt):
                loop.default_exception_handler(context)

        new = _Loop(chip)
        new.set_exception_handler(report)
        return new

    def run(coro):
        with asyncio.Runner(loop_factory=loop) as runner:
            return runner.run(coro)

    monkeypatch.setattr(asyncio, "run", run)
    pico = Pico(chip)
    pico.parts = parts
    try:
        yield pico
    finally:
        forget()


def timeout_ms():
    import maintenance

    return maintenance.WATCHDOG_MS


@pytest.mark.slow
def test_fed_while_every_task_beats_and_a_crashed_app_restarts(pico):
    # The slowest task makes a pass just inside the allowance.
    allowance = timeout_ms() - timeout_ms() // 8
    pico.periods = (5, 20, allowance - 50)
    pico.crash_at = 10 * 60 * 1000
    with pytest.raises(Crash):
        pico.power_up()
    assert pico.chip.resets == [] and pico.chip.now == pico.crash_at
    assert pico.chip.wdt_ms == timeout_ms()
    # Nothing feeds a watchdog whose app has ended: the board restarts.
    with pytest.raises(Reset):
        pico.chip.advance(HOUR)
    [at] = pico.chip.resets
    assert pico.crash_at < at <= pico.crash_at + timeout_ms()


@pytest.mark.parametrize("task", [0, 1, 2])
def test_a_task_that_stops_beating_resets_the_board(pico, task):
    pico.stops = (task, 60 * 1000)
    with pytest.raises(Reset):
        pico.power_up()
    [at] = pico.chip.resets
    assert pico.stops[1] < at <= pico.stops[1] + timeout_ms() + timeout_ms() // 8


def test_a_task_stuck_in_a_loop_resets_the_board(pico):
    # A driver spinning in a while loop holds up the whole asyncio loop.
    pico.stuck = (1, 60 * 1000)
    with pytest.raises(Reset):
        pico.power_up()
    [at] = pico.chip.resets
    assert pico.stuck[1] < at <= pico.stuck[1] + timeout_ms() + timeout_ms() // 8


def test_a_long_boot_does_not_trip_the_watchdog(pico):
    # The watchdog starts with the tasks, after the journal is folded.
    pico.boot_ms = 5 * timeout_ms()
    pico.crash_at = 60 * 1000
    with pytest.raises(Crash):
        pico.power_up()
    assert pico.chip.resets == []


@in_a_fork
def test_ctrl_c_hands_the_watchdog_to_a_feeder_until_the_next_reset(pico):
    pico.chip.ctrl_c_at = 60 * 1000
    with pytest.raises(KeyboardInterrupt):
        pico.power_up()
    import maintenance

    assert maintenance.watchdog_running()  # it cannot be stopped
    pico.chip.advance(HOUR)  # the maker at the REPL
    assert pico.chip.resets == []


@pytest.mark.slow
@in_a_fork
def test_boot_keeps_a_running_watchdog_fed_and_the_app_takes_it_back(pico):
    pico.chip.ctrl_c_at = 60 * 1000
    with pytest.raises(KeyboardInterrupt):
        pico.power_up()
    pico.soft_reset(raw=True)  # mpremote: boot.py only
    pico.chip.advance(HOUR)
    pico.chip.button_held = True  # Ctrl-D at the REPL, button held
    pico.soft_reset()
    pico.chip.advance(HOUR)
    assert pico.chip.resets == [] and pico.chip.watchdog_running()
    # Ctrl-D with the button released: main.py starts the app, which now
    # feeds alone (boot.py's timer is gone), so a stopped task resets the board.
    pico.chip.button_held = False
    start = pico.chip.now
    pico.stops = (2, start + 60 * 1000)
    with pytest.raises(Reset):
        pico.soft_reset()
    [at] = pico.chip.resets
    assert pico.stops[1] < at <= pico.stops[1] + timeout_ms() + timeout_ms() // 8


@in_a_fork
def test_ctrl_c_while_the_table_boots_after_a_soft_reset_keeps_it_fed(pico):
    pico.chip.ctrl_c_at = 60 * 1000
    with pytest.raises(KeyboardInterrupt):
        pico.power_up()
    pico.boot_ms = 2 * timeout_ms()
    pico.chip.ctrl_c_at = pico.chip.now + timeout_ms()
    with pytest.raises(KeyboardInterrupt):
        pico.soft_reset()  # interrupted before guard() ran
    pico.chip.advance(HOUR)
    assert pico.chip.resets == []


def test_maintenance_mode_never_starts_the_watchdog(pico):
    pico.chip.button_held = True
    pico.power_up()
    pico.soft_reset()
    pico.chip.advance(HOUR)
    assert not pico.chip.watchdog_running() and pico.chip.timers == []
    import maintenance

    assert not maintenance.watchdog_running()


def test_beat_keeps_its_frame_on_the_c_stack():
    frames = {
        name: frame_words(s, e) for name, s, e in function_frames(FIRMWARE / "hal" / "watchdog.py")
    }
    assert frames["beat"] <= C_STACK_FRAME_WORDS


BEAT_HEAP = """
import sys
class machine:
    class WDT:
        def feed(self):
            pass
    Timer = Pin = WDT
    mem32 = {}
sys.modules['machine'] = machine
from hal.watchdog import Watchdog
dog = Watchdog(3)
dog.beat(0)
import gc
n = before = after = 0     # globals made now: a new one could grow the dict below
#: next run
before = gc.mem_alloc()
for n in range(1000):
    dog.beat(n % 3)
after = gc.mem_alloc()
print(after - before, dog.seen == dog.all)
"""


def test_beat_allocates_nothing_under_micropython():
    assert mpy_wasm.run(BEAT_HEAP).split() == ["0", "True"]


@pytest.mark.slow
@in_a_fork
def test_the_real_board_feeds_the_watchdog_until_ctrl_c_hands_it_over(real_pico):
    chip = real_pico.chip
    ctrl_c_at = chip.ctrl_c_at = 2 * timeout_ms() + 500
    with pytest.raises(KeyboardInterrupt):
        real_pico.power_up()
    assert chip.resets == [] and chip.watchdog_running()
    # The main loop looked at the readers all along (a look every period).
    looks = real_pico.parts.chips[0].reqa + real_pico.parts.chips[0].wupa
    assert looks >= ctrl_c_at // MENU_MS - 1  # the menu's pace
    chip.advance(HOUR)  # the maker at the REPL
    assert chip.resets == []


def test_the_real_board_resets_when_its_readers_pass_hangs(real_pico, monkeypatch):
    chip = real_pico.chip
    service = Readers.service
    stuck_at = timeout_ms() + 500

    def hanging(self, now_ms):
        while chip.now >= stuck_at:  # a driver that never returns
            chip.advance(1)
        return service(self, now_ms)

    monkeypatch.setattr(Readers, "service", hanging)
    with pytest.raises(Reset):
        real_pico.power_up()
    [at] = chip.resets
    assert stuck_at < at <= stuck_at + timeout_ms() + timeout_ms() // 8
