"""Journals of every game, recorded on CPython, fold under real MicroPython
to the same scores, totals and standings."""

import importlib

import pytest

from dicetable.games import GAMES
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from sim import mpy_wasm
from sim.play import play, player_range

SAMPLES = 3

SCRIPT = """
from dicetable.games.%s.match import new
for players, options, journal in %r:
    match = new(players, options)
    refused = match.replay(journal)
    print(refused, match.history, match.totals, match.standings())
"""


def sample_matches(game):
    low, high = player_range(game)
    reads = importlib.import_module("dicetable.games.%s.match" % game).MATCH.OPTIONS
    flags = (0, TABLE_ROLLS | VARIANT, OPEN_PLAY)
    for i in range(SAMPLES):
        players = low + i % (high - low + 1)
        # the options the game reads (it refuses the others)
        yield play(game, players, flags[i] & reads, ["heuristic", "random"] * 3, 100 + i)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_journals_fold_to_the_same_results_on_micropython(game):
    matches = list(sample_matches(game))
    journals = [(m.players, m.options, list(m.journal)) for m in matches]
    lines = mpy_wasm.run(SCRIPT % (game, journals)).splitlines()
    expected = ["-1 %r %r %r" % (m.history, m.totals, m.standings()) for m in matches]
    assert lines == expected
