"""Pico time from MicroPython measurements made here (the WebAssembly build).

THE UNIT.  On a Raspberry Pi Pico (MicroPython rp2 port, RP2040 at 125 MHz)
one iteration of `for i in range(n): s += i` inside a function, with s a
small int, costs 574 cycles: 4.592 us (measured on a Pico for this project).
A piece of Python timed in the WebAssembly build is expressed in iterations
of that same loop, timed in the same run, and converted with that figure.
It is a model: it holds where the code is the interpreter's bytecode loop
(calls, attribute and subscript access, small-int arithmetic) as the unit
is, and says nothing about work in C (bus transfers, flash) or time spent
waiting on hardware, which the benchmarks add from datasheet figures.

TIMER is MicroPython source that defines pico_us(fn, calls): the Pico
microseconds one call of fn() costs, from `calls` calls (this build's
ticks_us() counts in whole milliseconds, so `calls` must make the run last
a few hundred of them).
"""

UNIT_CYCLES = 574
CPU_HZ = 125_000_000
UNIT_US = UNIT_CYCLES * 1_000_000 / CPU_HZ      # 4.592

TIMER = """
import time


def _unit_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def _unit_us():
    # One iteration of the unit loop here, in us (the best of three runs).
    best = None
    for _ in range(3):
        t = time.ticks_us()
        for _ in range(25):
            _unit_loop(40000)             # s stays a small int
        d = time.ticks_diff(time.ticks_us(), t) / 1000000
        best = d if best is None or d < best else best
    return best


def pico_us(fn, calls):
    # Pico us per call of fn(): its time here in unit iterations x %r us.
    unit = _unit_us()
    best = None
    for _ in range(3):
        t = time.ticks_us()
        for _ in range(calls):
            fn()
        d = time.ticks_diff(time.ticks_us(), t) / calls
        best = d if best is None or d < best else best
    return best / unit * %r
""" % (UNIT_US, UNIT_US)
