"""What the main loop costs the Pico when nothing happens: `make bench`.

Each pass of hal/mainloop.py with nothing to do is timed under MicroPython
(the WebAssembly build, the Pico's heap) on the virtual table of five seats
and converted to Pico time with the unit of tests/pico_cost.py; the share
of the CPU it keeps busy is its cost over its period.  The buttons are read
as on the board, with one read of every level (a Python call stands in for
the board's machine.mem32 read, which costs less).  The readers' share
comes from the reader cost model (tests/bench_readers.py).
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
import pico_cost  # noqa: E402
from hal.mainloop import BUTTON_MS, FRAME_MS  # noqa: E402

SCRIPT = pico_cost.TIMER + """
#: next run
from sim.hw.rig import VirtualTable
from sim.hw import hands
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
loop = MainLoop(vt.table, None, buttons, vt.pixels)
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
print("buttons", pico_us(button_pass, 20000))
#: next run
print("frames", pico_us(frame_pass, 20000))
"""


def main():
    out = dict(line.split() for line in mpy_wasm.run(SCRIPT).splitlines())
    buttons_us = float(out["buttons"])
    frames_us = float(out["frames"])
    print("main loop at idle, Pico time (MicroPython WebAssembly build, in units of"
          " %.3f us; tests/pico_cost.py)" % pico_cost.UNIT_US)
    print("  buttons pass, nothing pressed   %6.0f us every %2d ms  %5.2f %% of the CPU"
          % (buttons_us, BUTTON_MS, buttons_us / (BUTTON_MS * 10)))
    print("  frames pass, frame unchanged    %6.0f us every %2d ms  %5.2f %% of the CPU"
          % (frames_us, FRAME_MS, frames_us / (FRAME_MS * 10)))
    return buttons_us / (BUTTON_MS * 10) + frames_us / (FRAME_MS * 10)


if __name__ == "__main__":
    main()
