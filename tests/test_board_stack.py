"""The Pico's C stack: the table never comes near the end of it.

The board's own boot.py and main.py run on virtual parts in virtual time
(sim/hw/vpico.py), as the board runs them: the main loop, the drivers, the
table app, the mirror on the console.  sim/cstack.py costs the deepest
chain of Python calls at every moment by the rule measured on the Pico's
MicroPython firmware (sim/pico.py: each frame by its call kind and its
n_state from the code mpy-cross compiles), and each test fails above
pico.STACK_BUDGET (sim/hw/scenes.py's SCENES): every game from the menu to
its end at its fewest and most players, with refusals, undos and the next
match; provisioning; maintenance mode; the power-up and resume of the
longest journal.  The model itself is held to the points measured on the
board.  `make bench` prints the deepest chains frame by frame
(tools/bench/bench_stack.py).
"""

import bench_stack
import pytest

from sim import pico
from sim.hw import scenes


@pytest.mark.slow
@pytest.mark.parametrize("name", scenes.SCENES)
def test_the_table_stays_within_the_c_stack_budget(name):
    meter, board = scenes.scene(name)
    deepest = "\n".join(meter.chains[0].lines())
    assert meter.deepest <= pico.STACK_BUDGET, deepest
    assert board.fired == 0  # and the watchdog never bit
    if name == "maintenance":
        assert board.lines() == ["maintenance: the table app is not started"]
    elif name == "longest journal":
        assert any(line.startswith("final:") for line in board.lines())


@pytest.mark.slow
def test_the_model_reproduces_the_points_measured_on_the_board():
    # The model run on the firmware the board measured (bench_stack's
    # calibration): every point within 10 %, and the first play's chain the
    # one the board's traceback printed, down to the call that overflowed.
    points, model = bench_stack.calibration()
    off = {name: (figure - measured) / measured for name, (figure, measured, _) in points.items()}
    assert all(abs(x) <= 0.10 for x in off.values()), off
    chain = [(f[0], f[1]) for f in model["play_chain"]]
    assert chain[: len(bench_stack.CRASH_CHAIN)] == list(bench_stack.CRASH_CHAIN)
    assert points["play"][0] >= pico.C_STACK_LIMIT  # the board raised there: so does the model
