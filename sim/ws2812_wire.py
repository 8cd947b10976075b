"""The WS2812 chain's wire as the LEDs see it: hal/ws2812.py's PIO program run
cycle by cycle in a PIO emulator (rp2040-pio-emulator), and a clock for the
driver's waits.  tests/test_ws2812.py checks the wire against the datasheet
with these; tools/bench/bench_ws2812.py times a frame with them.
"""

from collections import deque
from dataclasses import replace
from typing import Any

from pioemu import State, emulate


def emulator_settings(program) -> dict[str, Any]:
    """The emulator's settings from what asm_pio gives StateMachine: the
    EXECCTRL and SHIFTCTRL fields and the side-set pins (RP2040 datasheet 3.7)."""
    execctrl, shiftctrl, sideset_init = program[3], program[4], program[7]
    side_pins = (
        0 if sideset_init is None else (1 if isinstance(sideset_init, int) else len(sideset_init))
    )
    return dict(
        wrap_target=(execctrl >> 7) & 0x1F,
        wrap_top=(execctrl >> 12) & 0x1F,
        side_set_count=side_pins + ((execctrl >> 30) & 1),
        side_set_base=0,
        auto_pull=bool((shiftctrl >> 17) & 1),
        pull_threshold=((shiftctrl >> 25) & 0x1F) or 32,
        shift_osr_right=bool((shiftctrl >> 19) & 1),
    )


def wire_levels(program, feeds, end_cycle):
    """The side-set pin's level at every cycle from the start until end_cycle.

    feeds: (cycle, words) pairs, in order: the words reach the TX FIFO at that
    cycle all at once, as when DMA keeps the FIFO topped up."""
    opcodes = list(program[0])
    settings = emulator_settings(program)
    state, levels = State(), []

    def run_until(state, cycle):
        for before, after in emulate(
            opcodes, stop_when=lambda _, s: s.clock >= cycle, initial_state=state, **settings
        ):
            levels.extend([after.pin_values & 1] * (after.clock - before.clock))
            state = after
        return state

    for cycle, words in feeds:
        state = run_until(state, cycle)
        state = replace(state, transmit_fifo=deque(state.transmit_fifo) + deque(words))
    run_until(state, end_cycle)
    return levels


def runs(levels):
    """The levels as [level, cycles] runs."""
    out = []
    for level in levels:
        if out and out[-1][0] == level:
            out[-1][1] += 1
        else:
            out.append([level, 1])
    return out


class Clock:
    """time.ticks_us as MicroPython has it (wrapping at 2**30), moving on by
    one microsecond per reading so that a wait loop ends; a loop that would
    not end fails instead."""

    PERIOD = 1 << 30
    MOST_READINGS = 100_000

    def __init__(self, now=0):
        self.now = now
        self.readings = 0

    def ticks_us(self):
        self.readings += 1
        assert self.readings <= self.MOST_READINGS, "waiting for ever"
        self.now += 1
        return self.now % self.PERIOD

    @staticmethod
    def ticks_diff(a, b):
        return ((a - b + (Clock.PERIOD >> 1)) % Clock.PERIOD) - (Clock.PERIOD >> 1)
