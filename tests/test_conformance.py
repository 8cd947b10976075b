"""Every conformance case of the rules core, on CPython, for every registered
game (every_game.KEYS: the registry's and the toy game)."""

import pathlib

import pytest
from cases import game_module
from every_game import KEYS

CASES = pathlib.Path(__file__).resolve().parent / "cases"


@pytest.mark.parametrize("game", KEYS)
def test_every_registered_game_has_its_conformance_cases(game):
    assert (CASES / (game + ".py")).exists(), (
        "%s has no conformance cases: add tests/cases/%s.py (CASES and hot_calls(), "
        "as tests/cases/highcard.py)" % (game, game)
    )


@pytest.mark.parametrize("game", KEYS)
def test_cases(game, subtests):
    cases = game_module(game).CASES
    assert cases
    for name, fn, args, expected in cases:
        with subtests.test(msg=name):
            assert fn(*args) == expected


@pytest.mark.parametrize("game", KEYS)
def test_case_names_are_unique(game):
    names = [case[0] for case in game_module(game).CASES]
    assert len(names) == len(set(names))
