"""Pico time from MicroPython measurements made here (the WebAssembly build).

THE UNIT.  On a Raspberry Pi Pico (MicroPython rp2 port, RP2040 at 125 MHz)
one iteration of `for i in range(n): s += i` inside a function, with s a
small int, costs 574 cycles: 4.592 us (measured on a Pico for this project).
A piece of Python timed in the WebAssembly build is expressed in iterations
of that same loop, timed in the same run, and converted with that figure.
It is a model: it holds where the code is the interpreter's bytecode loop
(calls, attribute and subscript access, small-int arithmetic) as the unit
is, and says nothing about work in C (bus transfers, flash) or time spent
waiting on hardware, which the benchmarks add from datasheet figures.  How
far the board's Python is from the model is measured once, on the reader
driver the board was timed with (tools/bench/bench_readers.py: the calibration).

TIMER is MicroPython source for a benchmark script:

    clock()            this build's time in us, to a fraction of a us
                       (JavaScript's performance.now(); the port's
                       ticks_us() counts whole milliseconds)
    unit_us()          one iteration of the unit loop here, timed over 2000
    wasm_us(fn, calls, batches=40)
                       us of this build per call of fn(): the fastest of
                       `batches` batches of `calls` calls
    pico_us(fn, calls, batches=40)
                       Pico us per call of fn(): the median over `batches`
                       of a batch of `calls` calls in units of the unit
                       loop timed just before and just after it, x UNIT_US

Other work on the machine slows a batch and the unit loop beside it alike,
so a batch's ratio to its own unit loop holds, and the median of many
(each a few ms, shorter than a time slice) passes over the batches it
slowed unevenly.  The script first runs the unit loop for a second: the
timings of a run's first half second come out up to twice as slow, until
V8 has optimised the interpreter (`python tools/bench/pico_cost.py` prints the
unit loop's time over a run's first seconds).  run(source) passes NODE_ARGS
to node: V8's optimising compiler from the start, a few % faster after.
"""

from sim import mpy_wasm

UNIT_CYCLES = 574
CPU_HZ = 125_000_000
UNIT_US = UNIT_CYCLES * 1_000_000 / CPU_HZ  # 4.592
NODE_ARGS = ("--no-liftoff",)

TIMER = (
    """
import js

clock_ms = js.performance.now


def clock():
    return clock_ms() * 1000


def _unit_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def unit_us():
    # s stays a small int (no heap), as on the Pico.
    t = clock()
    _unit_loop(2000)
    return (clock() - t) / 2000


def wasm_us(fn, calls, batches=40):
    best = None
    for _ in range(batches):
        t = clock()
        for _ in range(calls):
            fn()
        d = (clock() - t) / calls
        best = d if best is None or d < best else best
    return best


def pico_us(fn, calls, batches=40):
    ratios = []
    for _ in range(batches):
        u = unit_us()
        t = clock()
        for _ in range(calls):
            fn()
        d = (clock() - t) / calls
        ratios.append(2 * d / (u + unit_us()))
    ratios.sort()
    return ratios[batches // 2] * %r
"""
    % UNIT_US
)
WARM_UP = """
_t = clock()
while clock() - _t < 1000000:
    _unit_loop(20000)
"""
TIMER = TIMER + WARM_UP


def run(source, **kw):
    """mpy_wasm.run with V8's optimising compiler from the start (NODE_ARGS)."""
    return mpy_wasm.run(source, node_args=NODE_ARGS, **kw)


COLD = """
from array import array
_at = array('f', [0.0] * 25)
_us = array('f', [0.0] * 25)
_t = clock()
for _k in range(25):
    _at[_k] = (clock() - _t) / 1000000
    _us[_k] = unit_us()
    while clock() - _t < (_k + 1) * 100000:
        _unit_loop(2000)
for _k in range(25):
    print("%.1f %.3f" % (_at[_k], _us[_k]))
"""


def main():
    for name, args in (("node " + " ".join(NODE_ARGS), NODE_ARGS), ("node", ())):
        out = mpy_wasm.run(TIMER[: -len(WARM_UP)] + COLD, node_args=args).split()
        print("%s: the unit loop, us an iteration, s into the run" % name)
        print("  " + "  ".join("%s s: %s" % (out[k], out[k + 1]) for k in range(0, len(out), 4)))


if __name__ == "__main__":
    main()
