"""Heap measurement on MicroPython (gc.mem_alloc exists only there)."""

import gc


def bytes_allocated(fn, calls):
    """Heap bytes allocated by `calls` calls of fn(), with the collector held off."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(calls):
        fn()
    after = gc.mem_alloc()
    gc.enable()
    return after - before
