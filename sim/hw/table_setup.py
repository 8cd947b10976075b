"""The table the virtual board's app (sim/vboard/table_app.py) and the heap
and latency benches (tools/bench/bench_heap.py, bench_latency.py) set up:
five seats, 8 LEDs a seat and a ring of 16, as table_config.py has them, and
the LED chain as a bare buffer.  Portable.  The app takes SEATS and Strip
(its config is sim/hw/rig.py's, with these figures); bench_heap compiles the
code below into its script instead of importing the module (see there):
comments, not docstrings, so that it compiles there as the harness's own did.
"""

SEATS = (0, 1, 2, 3, 4)


class Strip:
    # The LED chain as hal.pixels writes it (neopixel.NeoPixel's layout, what
    # hal/ws2812.py's DMA sends), keeping nothing but its bytes: the mirror
    # reads them.
    ORDER = (1, 0, 2)
    bpp = 3

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n

    def __len__(self):
        return self.n

    def write(self):
        pass


class Config:
    # table_config as the app reads it.
    seats = SEATS
    LEDS_PER_SEAT = 8
    RING_LEDS = 16
