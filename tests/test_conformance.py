"""Every conformance case of the rules core, on CPython."""

import pytest
from cases import GAMES, game_module


@pytest.mark.parametrize("game", GAMES)
def test_cases(game, subtests):
    cases = game_module(game).CASES
    assert cases
    for name, fn, args, expected in cases:
        with subtests.test(msg=name):
            assert fn(*args) == expected


@pytest.mark.parametrize("game", GAMES)
def test_case_names_are_unique(game):
    names = [case[0] for case in game_module(game).CASES]
    assert len(names) == len(set(names))
