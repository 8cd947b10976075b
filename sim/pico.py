"""The Raspberry Pi Pico's heap, as every MicroPython (WebAssembly) run of the
project gets it: the tests and benches (tests/mpy_wasm.py) and the virtual
board (sim/vboard).  The one place both numbers are pinned.

GC_HEAP is what gc.mem_free() + gc.mem_alloc() gives on the rp2 port (v1.28,
Raspberry Pi Pico).  HEAPSIZE is the WebAssembly loader's `heapsize` that
gives the same GC heap in the official build pinned in package.json
(@micropython/micropython-webassembly-pyscript 1.29.0-6): the loader's area
includes the collector's own tables, so the figure belongs to that build
(1.27.0 needed 251664).  It is the smallest heapsize that gives GC_HEAP
(253583 gives 245824, 253660 gives 245952).  Each run checks the pair at start.
"""

GC_HEAP = 245888
HEAPSIZE = 253584
