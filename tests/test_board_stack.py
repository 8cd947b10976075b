"""The Pico's C stack: the table never comes near the end of it.

The board's own boot.py and main.py run on virtual parts in virtual time
(sim/hw/vpico.py), as the board runs them: the main loop, the drivers, the
table app, the mirror on the console.  sim/cstack.py costs the deepest
chain of Python calls at every moment by the rule measured on the Pico's
MicroPython firmware (sim/pico.py: each frame by its call kind and its
n_state from the code mpy-cross compiles), and each test fails above
pico.STACK_BUDGET: whole matches of every game at its fewest and most
players from the menu, with refusals, undos and the next match; provisioning;
maintenance mode; the power-up and resume of the longest journal.  The
model itself is held to the board's measured points
(test_the_model_reproduces_the_measured_points).  `make bench` prints the
deepest chains frame by frame (tools/bench/bench_stack.py).
"""

import bench_stack
import pytest

from dicetable.games import GAMES
from sim import pico
from sim.hw import scenes
from sim.play import play, player_range

NOKOSU = 4
SEATS_RECORD = 0xF00000
SEED_RECORD = 0xE00000


def within_budget(meter):
    """The deepest chain's frames when over the budget, for the failure's message."""
    if meter.deepest <= pico.STACK_BUDGET:
        return True
    return "\n".join(meter.chains[0].lines())


@pytest.mark.slow
@pytest.mark.parametrize("game", range(len(GAMES)), ids=list(GAMES))
def test_every_game_from_the_menu_to_its_end_within_the_budget(game):
    low, high = player_range(GAMES[game])

    def world(p):
        surface = scenes.Hands(p)
        scenes.logged(p, "menu:")
        if game == 0:
            scenes.provision(surface)
        scenes.matches(surface, [(game, low), (game, min(high, 5))], seed=game)

    meter, _ = scenes.metered(world)
    assert within_budget(meter) is True


@pytest.mark.slow
def test_the_power_up_and_resume_of_the_longest_journal_within_the_budget():
    # A 5-player Nokosu match one action before its end: the longest journal
    # of any game, on a table with a tag for every item.
    journal = play("nokosu", 5, 0, ["heuristic"] * 5, 1).journal[:-1]

    def world(p):
        scenes.logged(p, "resumed Nokosu at action %d" % len(journal))
        surface = scenes.Hands(p)
        scenes.to_the_end(surface, seed=2)

    meter, p = scenes.metered(
        world,
        journal=([NOKOSU, 5, 0, 0], [SEATS_RECORD | 0x1F, SEED_RECORD | 1], journal),
    )
    assert within_budget(meter) is True
    assert any(line.startswith("final:") for line in p.lines())


def test_maintenance_mode_within_the_budget():
    meter, p = scenes.metered(lambda p: p.wait(1000), maintenance=True)
    assert within_budget(meter) is True
    assert p.lines() == ["maintenance: the table app is not started"]


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
