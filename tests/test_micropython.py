"""The same conformance cases under real MicroPython give CPython's results,
and the per-play calls allocate no heap there."""

import pytest
from cases import game_module
from every_game import KEYS

from sim import mpy_wasm

CASES_SCRIPT = """
from cases import game_module
for name, fn, args, expected in game_module(%r).CASES:
    print(name + "\\t" + repr(fn(*args)))
"""

HEAP_SCRIPT = """
from cases import game_module
from cases.heap import bytes_allocated
for label, fn in game_module(%r).hot_calls():
    print(label + "\\t" + str(bytes_allocated(fn, 1000)))
"""


def results_table(output):
    return dict(line.split("\t", 1) for line in output.splitlines())


@pytest.mark.parametrize("game", KEYS)
def test_micropython_matches_cpython(game):
    on_micropython = results_table(mpy_wasm.run(CASES_SCRIPT % game))
    on_cpython = {name: repr(fn(*args)) for name, fn, args, _ in game_module(game).CASES}
    assert on_micropython == on_cpython


@pytest.mark.slow
@pytest.mark.parametrize("game", KEYS)
def test_per_play_calls_allocate_nothing_on_micropython(game):
    allocated = results_table(mpy_wasm.run(HEAP_SCRIPT % game))
    assert {"is_legal", "legal_plays", "resolve"} <= set(allocated)
    assert allocated == {label: "0" for label in allocated}
