"""What the main loop costs the Pico when nothing happens: `make bench`
(tools/bench/bench_latency.py prints it; run alone, this file prints its part).

The CPU is busy at idle for the passes of the main loop (hal/mainloop.py)
and for the loop's own turn between them; between wakes it sleeps
(time.sleep_ms, a WFE on the rp2 port).  The passes keep to grids of their
periods, which the buttons' every BUTTON_MS holds all of: a wake every
BUTTON_MS.  So

    busy = sum over passes of (pass + dispatch) x passes a second
           + turn x wakes a second

with, each timed under MicroPython (the WebAssembly build, the Pico's heap)
and converted to Pico time with the unit of tools/bench/pico_cost.py:

- buttons: a pass with nothing pressed, on the virtual table of five seats,
  every level read at once as on the board (a Python call stands in for
  the board's machine.mem32 read, which costs less), every BUTTON_MS;
- frames: a pass whose frame did not change, every FRAME_MS;
- readers: a look at every reader, every period (tools/bench/bench_readers.py:
  Python, wire and the 0.4 ms the CPU waits for the last REQA), and, in a
  match, a look at the awaited reader alone every AWAITED_MS between those
  (the whole 0.4 ms of its REQA waited for): the calls of a recorded cycle
  over its length;
- dispatch: MainLoop.due() finding the pass that is due;
- turn: MainLoop.due() finding none, and the rest of run()'s loop (the
  time, the check for asyncio's other tasks, the call to time.sleep_ms),
  once a wake;
- and, for what it would cost to run each pass as an asyncio task of its
  own, asyncio's switch to a task: one turn of MicroPython's asyncio run
  loop (extmod/asyncio/core.py: peek the task queue, the time, poll for I/O
  with no wait, pop, resume the task, and the task's sleep_ms pushing it
  back), rebuilt here over this build's own C task queue and select.poll,
  with one more look at the queue and poll: the one that sleeps.

Calibrated figures scale the Python by the readers' calibration
(tools/bench/bench_readers.py).
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import pico_cost  # noqa: E402

from hal.mainloop import BUTTON_MS, FRAME_MS  # noqa: E402
from hal.readers import AWAITED_MS  # noqa: E402

SCRIPT = (
    pico_cost.TIMER
    + """
#: next run
from sim.hw.rig import VirtualTable
from hal.buttons import Buttons
from hal.mainloop import MainLoop
#: next run
vt = VirtualTable(seats=(0, 1, 2, 3, 4))
#: next run
vt.boot()


class Levels:
    def read(self):
        return 0x7FFF                    # every button up


buttons = Buttons(vt.vbuttons.pins, levels=Levels().read, bits=range(15))
class Readers:
    awaited = 0


loop = MainLoop(vt.table, Readers(), buttons, vt.pixels)
now = [100000]


def button_pass():
    now[0] += 5
    loop.buttons_pass(now[0])


def frame_pass():
    now[0] += 20
    loop.frames_pass(now[0])


frame_pass()
frame_pass()
#: next run
print("buttons", pico_us(button_pass, 50))
#: next run
print("frames", pico_us(frame_pass, 50))
#: next run
import time
from hal.mainloop import YIELD_MS, _ms_diff


def nothing_due():
    loop.due(now[0])


yielded = now[0]


def turn():
    t = time.ticks_ms()
    wait = loop.due(now[0])
    if not wait:
        return
    if _ms_diff(t, yielded) >= YIELD_MS:
        pass
    else:
        time.sleep_ms(0)


loop._due = [now[0] + 10, now[0] + 10, now[0] + 10]
print("dispatch", pico_us(nothing_due, 50))
print("turn", pico_us(turn, 50))
#: next run
import select
from time import ticks_add, ticks_diff
from _asyncio import Task, TaskQueue

queue = TaskQueue()
poller = select.poll()
current = [None]


class CancelledError(BaseException):
    pass


class Singleton:
    def __init__(self):
        self.state = None
        self.exc = StopIteration()

    def __iter__(self):
        return self

    def __next__(self):
        if self.state is not None:
            queue.push(current[0], self.state)
            self.state = None
            return None
        self.exc.__traceback__ = None
        raise self.exc


def sleep_ms(t, sgen=Singleton()):
    assert sgen.state is None
    sgen.state = ticks_add(time.ticks_ms(), max(0, t))
    return sgen


def wait_io_event(dt):
    for s, ev in poller.ipoll(dt):
        pass


async def task():
    while True:
        t = time.ticks_ms()
        await sleep_ms(0 - ticks_diff(time.ticks_ms(), t))


def look():
    dt = -1
    t = queue.peek()
    if t:
        dt = max(0, ticks_diff(t.ph_key, time.ticks_ms()))
    wait_io_event(0)
    return dt


def switch():
    dt = 1
    while dt > 0:
        dt = look()
    t = queue.pop()
    current[0] = t
    try:
        exc = t.data
        if not exc:
            t.coro.send(None)
    except (CancelledError, Exception) as er:
        raise er


queue.push(Task(task(), globals()))
switch()
print("switch", pico_us(switch, 200) + pico_us(look, 200))
"""
)


def measure():
    """Pico us of Python: {"buttons", "frames", "dispatch", "turn", "switch"}."""
    out = {}
    for line in pico_cost.run(SCRIPT).splitlines():
        word, us = line.split()
        out[word] = float(us)
    return out


CYCLES = {
    "idle": "nothing on the table (the menu)",
    "held": "a tag held on every reader but one",
    "awaited/%d": "a match: one reader awaited, a tag held on every other",
    "every/%d": "every reader awaited, none holding a tag (provisioning)",
}


def busy(loop, readers, scale, cycle="idle", period=None):
    """[(what, us, times a second, busy fraction)] at idle and the total,
    Python x scale, the readers' calls those of a recorded `cycle` (its
    name in tools/bench/bench_readers.py's measure(), whose readers these are),
    or, with `period`, its look at every reader every `period` ms."""
    from bench_readers import PERIODS, total

    calls = readers["calls"][cycle]
    look = total(calls).us(scale) / len(calls)
    dispatch = loop["dispatch"] * scale
    rate = 1000 / period if period else len(calls) * 1000 / (PERIODS * readers["period"])
    rows = [
        (
            "readers: a look at every reader"
            if len(calls) == PERIODS or period
            else "readers: a look at every reader or the awaited alone (mean)",
            look + dispatch,
            rate,
        ),
        ("buttons: nothing pressed", loop["buttons"] * scale + dispatch, 1000 / BUTTON_MS),
        ("frames: frame unchanged", loop["frames"] * scale + dispatch, 1000 / FRAME_MS),
        ("the loop's turn, a wake", loop["turn"] * scale, 1000 / BUTTON_MS),
    ]
    out = [(name, us, rate, us * rate / 1_000_000) for name, us, rate in rows]
    return out, sum(r[3] for r in out)


def print_busy(loop, readers):
    scale = readers["scale"]
    print(
        "The main loop at idle (tools/bench/bench_loop.py): Pico us a pass (with MainLoop.due()"
        " finding it)"
    )
    print("and a wake; busy = us x times a second.")
    print()
    print("| what | times a second | modelled us | busy | calibrated us | busy |")
    print("|---|---|---|---|---|---|")
    for name, what in CYCLES.items():
        cycle = name % AWAITED_MS if "%" in name else name
        rows, whole = busy(loop, readers, 1.0, cycle)
        rows_c, whole_c = busy(loop, readers, scale, cycle)
        if "%" in name:
            what += ", every %d ms" % AWAITED_MS
        for (row, us, rate, b), (_, us_c, _, b_c) in zip(rows, rows_c, strict=True):
            print(
                "| %s | %.0f | %.0f | %.1f %% | %.0f | %.1f %% |"
                % (row, rate, us, 100 * b, us_c, 100 * b_c)
            )
        print(
            "| **all, %s** | | | **%.1f %%** | | **%.1f %%** |" % (what, 100 * whole, 100 * whole_c)
        )
    print()
    passes = 1000 / readers["period"] + 1000 / BUTTON_MS + 1000 / FRAME_MS
    print(
        "  asyncio's switch to a task: %.0f us modelled (%.1f buttons passes); a task per"
        " pass" % (loop["switch"], loop["switch"] / loop["buttons"])
    )
    print(
        "  would switch %.0f times a second: %.1f %% more busy than one task's turns."
        % (passes, 100 * (passes * loop["switch"] - 1000 / BUTTON_MS * loop["turn"]) / 1e6)
    )
    print()


def main():
    import bench_readers

    readers = bench_readers.measure()
    loop = measure()
    print_busy(loop, readers)
    return loop


if __name__ == "__main__":
    main()
