"""The WS2812B LED chain, sent by a PIO state machine that DMA feeds: a frame
push never holds the CPU.

WS2812(pin, n, sm_id=0) has the memory layout of MicroPython's
neopixel.NeoPixel that hal.pixels writes straight into: buf (3 bytes per
LED in wire order, GRB), ORDER (where R, G, B go within an LED's bytes), bpp
and len().  write() sends buf and returns as soon as the transfer has
started: a DMA channel, paced by the state machine's TX FIFO, writes buf one
byte per FIFO word.  A byte written to a 32-bit FIFO arrives replicated in
all four byte lanes, so the byte is in the top 8 bits, which the program
shifts out MSB first (autopull every 8 bits).  A blocking
StateMachine.put() would have held the CPU for nearly the whole frame (for
56 LEDs, 1639 of the 1680 us: tools/bench/bench_ws2812.py).

The wire: 800 kbit/s, each bit a high pulse then a low one.  The state
machine runs 20 cycles per bit (16 MHz), which gives (WS2812B datasheet:
+-150 ns around each nominal time)

    bit 0: high 6 cycles = 375 ns (nominal 400), low 14 = 875 ns (850)
    bit 1: high 13 = 812.5 ns (nominal 800),     low 7 = 437.5 ns (450)

and 30 us per LED on the wire.  When the data runs out the program stalls
with the line low, and the LEDs latch the frame once the line has been low
280 us.  A write() sooner than that after the previous frame's end waits out
the rest first; the board pushes a frame at most every 20 ms, so it never
does.  tests/test_ws2812.py runs this program in a PIO emulator and checks
every pulse against the datasheet; tools/bench/bench_ws2812.py prints the times.

buf may be rewritten while a frame is on the wire: the LEDs the DMA has not
reached yet then show the new values a frame early, and the next write()
sends the whole new frame.
"""

import time

import rp2
from micropython import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    # The names of the PIO language, which rp2.asm_pio supplies to the
    # decorated function only.
    from rp2.asm_pio import jmp, label, nop, not_x, out, wrap, wrap_target, x

BIT_HZ = const(800_000)
CYCLES_PER_BIT = const(20)  # the program's t1 + t2 + t3
SM_FREQ = const(BIT_HZ * CYCLES_PER_BIT)
US_PER_LED = const(24 * 1_000_000 // BIT_HZ)
LATCH_US = const(300)  # datasheet: low for at least 280 us


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8
)
def ws2812_program():
    # Only the PIO names are visible here (the board's assembler swaps the
    # module's globals out), so the timings are locals, in cycles.
    t1 = 6  # high, every bit
    t2 = 7  # then high for a 1, low for a 0
    t3 = 7  # low, every bit; the line idles here when the FIFO is empty
    wrap_target()
    label("bit")
    out(x, 1).side(0)[t3 - 1]
    jmp(not_x, "zero").side(1)[t1 - 1]
    jmp("bit").side(1)[t2 - 1]
    label("zero")
    nop().side(0)[t2 - 1]
    wrap()


def tx_dreq(sm_id):
    """The DMA request line of state machine sm_id's TX FIFO (RP2040 DREQ
    table: PIO0 SM0-3 are 0-3, PIO1 SM0-3 are 8-11)."""
    return sm_id + (sm_id & 4)


class WS2812:
    """n WS2812B LEDs on `pin` (a machine.Pin), sent by state machine sm_id."""

    ORDER = (1, 0, 2)  # R, G, B positions within an LED's bytes: GRB
    bpp = 3

    def __init__(self, pin, n, sm_id=0):
        self.buf = bytearray(3 * n)
        self._n = n
        self._busy_us = n * US_PER_LED + LATCH_US
        sm = rp2.StateMachine(sm_id, ws2812_program, freq=SM_FREQ, sideset_base=pin)
        sm.active(1)
        self._dma = rp2.DMA()
        self._dma.config(
            read=self.buf,
            write=sm,
            count=len(self.buf),
            ctrl=self._dma.pack_ctrl(size=0, inc_write=False, treq_sel=tx_dreq(sm_id)),
        )
        # The line was not driven until now: the first frame, too, waits for
        # the LEDs to have seen a latch.
        self._started = time.ticks_us()

    def __len__(self):
        return self._n

    def write(self):
        """Send buf; returns once the transfer has started."""
        # A negative difference is a frame so long ago that the ticks wrapped.
        while 0 <= time.ticks_diff(time.ticks_us(), self._started) < self._busy_us:
            pass
        self._dma.config(read=self.buf, trigger=True)
        self._started = time.ticks_us()
