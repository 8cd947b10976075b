"""Figures for the PIO LED driver (hal/ws2812.py): `make bench`.

- The wire, from the driver's own program run in the PIO emulator at the
  state machine frequency the driver sets, for the table's 56 LEDs: the
  high and low time of a 0 and a 1, and how long the wire is busy (first
  rising edge to the end of the last bit).
- What a blocking StateMachine.put(buf, 24) would have held the CPU for
  instead of DMA: until the 4-word TX FIFO takes the last byte, read from
  the emulator's FIFO level.
- The CPU time write() takes: timed under MicroPython (WebAssembly build)
  against one iteration of `for i in range(n): s += i` in a function, which
  takes 4.6 us on the Pico, and converted with it.  The DMA channel there
  is a stand-in written in Python, where the board's config() is C: its
  share is timed apart.
"""

import importlib
import sys
import time
from collections import deque

from pioemu import State, emulate

from sim import mpy_wasm
from sim.hw.vrp2 import VRP2
from sim.ws2812_wire import Clock, emulator_settings, runs, wire_levels


def chain_leds():
    """The standard build's LED chain (firmware/table_config.py), imported once
    sim (above) has put firmware/ on sys.path."""
    import table_config

    from dicetable.app.frames import led_count

    return led_count(table_config)


LEDS = chain_leds()
PICO_US_PER_UNIT = 4.6
FIFO_DEPTH = 4

SCRIPT = """
import sys
import time
from sim.hw.vrp2 import VRP2, VDMA

class Quiet(VDMA):
    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if trigger:
            self.transfers += 1

rp2 = VRP2()
channel = Quiet(0)
rp2.DMA = lambda: channel
sys.modules["rp2"] = rp2
from hal.ws2812 import WS2812
strip = WS2812(None, %(leds)d)
# Frames far enough apart that write() never waits: the board's case.
strip._busy_us = 0

def unit(n):
    s = 0
    for i in range(n):
        s += i
    return s

def writes(n):
    for i in range(n):
        strip.write()

def configs(n):
    buf = strip.buf
    for i in range(n):
        channel.config(read=buf, trigger=True)

def clocks(n):
    # write()'s clock readings when it need not wait.
    started = time.ticks_us()
    for i in range(n):
        0 <= time.ticks_diff(time.ticks_us(), started) < 0
        time.ticks_us()

def empty(n):
    for i in range(n):
        pass

def ms(f, n):
    t = time.ticks_ms()
    for k in range(%(reps)d):
        f(n)
    return time.ticks_diff(time.ticks_ms(), t)
#: next run
# The least of several tries, taken in turn: the machine is shared.
best = [10 ** 6] * 5
for attempt in range(5):
    for k, (f, n) in enumerate(((unit, %(units)d), (writes, %(writes)d), (configs, %(writes)d),
                                (clocks, %(writes)d), (empty, %(writes)d))):
        best[k] = min(best[k], ms(f, n))
print(*best)
"""


def driver():
    """hal.ws2812 over a stand-in rp2 and a fake clock, and the stand-in."""
    rp2, clock = VRP2(), Clock()
    sys.modules["rp2"] = rp2
    time.ticks_us, time.ticks_diff = clock.ticks_us, clock.ticks_diff
    return importlib.import_module("hal.ws2812"), rp2


def wire_figures():
    ws2812, rp2 = driver()
    strip = ws2812.WS2812("pin", LEDS)
    strip.buf[:] = bytes([0x5A]) * (3 * LEDS)  # zeros and ones alike
    strip.write()
    sm = rp2.machines[0]
    words = sm.puts[-1]
    ns_per_cycle = 1e9 / sm.freq
    end = (LEDS * 30 + 400) * sm.freq // 1_000_000
    levels = wire_levels(sm.program, [(0, words)], end)
    pulses = runs(levels)[1:-1]
    shapes = sorted({(pulses[i][1], pulses[i + 1][1]) for i in range(0, len(pulses) - 1, 2)})
    for high, low in shapes:
        print(
            "bit %d: high %.1f ns, low %.1f ns (%d + %d cycles at %d Hz)"
            % (high > low, high * ns_per_cycle, low * ns_per_cycle, high, low, sm.freq)
        )
    rises = [i for i in range(1, len(levels)) if levels[i] and not levels[i - 1]]
    bit_cycles = rises[1] - rises[0]
    print(
        "wire busy for %d LEDs: %.1f us (%d bits)"
        % (LEDS, (rises[-1] + bit_cycles - rises[0]) * ns_per_cycle / 1000, len(rises))
    )
    # put() returns once the last word is in the FIFO: when at most
    # FIFO_DEPTH - 1 words wait there before it.
    settings = emulator_settings(sm.program)
    steps = emulate(
        list(sm.program[0]),
        initial_state=State(transmit_fifo=deque(words)),
        stop_when=lambda _, s: len(s.transmit_fifo) < FIFO_DEPTH,
        **settings,
    )
    _, state = deque(steps, maxlen=1)[0]  # the state when put() would return
    print(
        "a blocking put(buf, 24) instead of DMA: the CPU held %.0f us of the %.0f"
        % (
            (state.clock - rises[0]) * ns_per_cycle / 1000,
            (rises[-1] + bit_cycles - rises[0]) * ns_per_cycle / 1000,
        )
    )


def cpu_figure():
    # n stays small enough for s to remain a small int (no heap).
    units, n_writes, reps = 40_000, 20_000, 5
    out = mpy_wasm.run(SCRIPT % dict(leds=LEDS, units=units, writes=n_writes, reps=reps))
    t_unit, t_writes, t_configs, t_clocks, t_empty = (int(v) for v in out.split())
    unit_ms = t_unit / (reps * units)

    def units_per(total_ms):
        return (total_ms - t_empty) / (reps * n_writes) / unit_ms

    print(
        "write(): %.1f units = %.0f us on the Pico by the unit, of which the stand-in's "
        "config() %.1f units (one C call on the board) and the clock readings %.1f units "
        "(calls out to JavaScript in this build)"
        % (
            units_per(t_writes),
            units_per(t_writes) * PICO_US_PER_UNIT,
            units_per(t_configs),
            units_per(t_clocks),
        )
    )
    print(
        "  (WebAssembly build, least of 5 tries: %d writes %d ms, as many config() %d ms, "
        "clock readings %d ms, empty loop %d ms; %d units %d ms)"
        % (reps * n_writes, t_writes, t_configs, t_clocks, t_empty, reps * units, t_unit)
    )


if __name__ == "__main__":
    wire_figures()
    cpu_figure()
