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
driver the board was timed with (tests/bench_readers.py: the calibration).

TIMER is MicroPython source for a benchmark script:

    clock()            this build's time in us, to a fraction of a us
                       (JavaScript's performance.now(); the port's
                       ticks_us() counts whole milliseconds)
    wasm_us(fn, calls, batches=40)
                       us of this build per call of fn(): the fastest of
                       `batches` batches of `calls` calls
    unit_us()          one iteration of the unit loop here, the same way
    pico_us(fn, calls) Pico us per call of fn(): wasm_us / unit_us x UNIT_US

Every figure is the fastest of many short batches (a few ms each, shorter
than the time slice the machine's other work takes): whatever else the
machine does only ever adds time.  The script first runs the unit loop for about a second:
the first timings of a run come out up to 1.8x slower (the unit loop: 0.47
us an iteration, then 0.25, on the development machine) until V8 has
optimised the interpreter, with or without NODE_ARGS (its optimising
compiler from the start), which run(source) passes to node.
"""

import mpy_wasm

UNIT_CYCLES = 574
CPU_HZ = 125_000_000
UNIT_US = UNIT_CYCLES * 1_000_000 / CPU_HZ      # 4.592
NODE_ARGS = ("--no-liftoff",)

TIMER = """
import js

clock_ms = js.performance.now


def clock():
    return clock_ms() * 1000


def _unit_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def wasm_us(fn, calls, batches=40):
    best = None
    for _ in range(batches):
        t = clock()
        for _ in range(calls):
            fn()
        d = (clock() - t) / calls
        best = d if best is None or d < best else best
    return best


def unit_us():
    # s stays a small int (no heap), as on the Pico.
    return wasm_us(lambda: _unit_loop(4000), 1, 60) / 4000


def pico_us(fn, calls):
    return wasm_us(fn, calls) / unit_us() * %r


_t = clock()
while clock() - _t < 1000000:
    _unit_loop(20000)
""" % UNIT_US


def run(source, **kw):
    """mpy_wasm.run with V8's optimising compiler from the start (NODE_ARGS)."""
    return mpy_wasm.run(source, node_args=NODE_ARGS, **kw)
