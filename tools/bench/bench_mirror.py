"""What the mirror's lines (firmware/hal/mirror.py) cost the Pico: `make bench`.

Under MicroPython (the WebAssembly build, the Pico's heap), a Mirror over a
56-LED strip and a table whose match holds a journal of 0 to 600 actions
(a 5-player Nokosu match journals about 400), written into an io.BytesIO
(a stream in C, as the USB console's is): Pico us per line with the unit of
tools/bench/pico_cost.py, and the heap one line allocates.  The USB
transfer itself is C and DMA on the board and is not in these figures.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import pico_cost  # noqa: E402

JOURNALS = (0, 100, 300, 600)

SCRIPT = """
import gc, io
from hal.mirror import Mirror


class Storage:
    writes = 0


class Match:
    players = 5
    options = 0x103
    journal = []


class Table:
    game = 4

    def _seat_mask(self):
        return 0x1F

    seed = 0xABCDE
    storage = Storage()
    match = Match()


out = io.BytesIO()
out.write(bytearray(8192))
mirror = Mirror(out.write, bytearray(3 * 56), Table())


def leds():
    out.seek(0)
    mirror.leds()


def match():
    out.seek(0)
    mirror.match()


def heap(fn):
    fn()
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(10):
        fn()
    return (gc.mem_alloc() - before) // 10


print("leds", pico_us(leds, 5, 20), heap(leds))
for n in JOURNALS:
    Match.journal = [(3 << 20) | (i % 5 << 16) | i for i in range(n)]
    gc.collect()
    print("match%d" % n, pico_us(match, 2, 20), heap(match))
"""


def measure():
    source = "JOURNALS = %r\n" % (JOURNALS,) + pico_cost.TIMER + SCRIPT
    out = {}
    for line in pico_cost.run(source).splitlines():
        name, us, spent = line.split()
        out[name] = (float(us), int(spent))
    return out


def main():
    r = measure()
    print("the mirror's lines on the Pico (modelled, tools/bench/pico_cost.py); heap per line")
    print("%-28s %10s %8s" % ("line", "Pico us", "heap B"))
    print("%-28s %10.0f %8d" % ("@leds, 56 LEDs", *r["leds"]))
    for n in JOURNALS:
        print("%-28s %10.0f %8d" % ("@match, %d actions" % n, *r["match%d" % n]))


if __name__ == "__main__":
    main()
