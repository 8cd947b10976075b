"""The rules documentation stays true to the tests: every ruling R1-R12 is
written down in its game's page and in the index, the core's rulings are
pinned by named conformance cases, and every case or test a page cites exists."""

import pathlib
import re

import pytest

from cases import GAMES, game_module

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
RULINGS = ["R%d" % i for i in range(1, 13)]
# R4 is about the match journal (rolls recorded so a match replays): the match
# engine pins it, the core has nothing of it to test.
ENGINE_RULINGS = {"R4"}


def page(name):
    return " ".join((DOCS / name).read_text().split())


def bold_rulings(text):
    return set(re.findall(r"\*\*(R\d+)\*\*", text))


def test_every_ruling_is_in_the_index_and_in_a_game_page():
    assert bold_rulings(page("README.md")) == set(RULINGS)
    in_pages = set().union(*(bold_rulings(page(game + ".md")) for game in GAMES))
    assert in_pages == set(RULINGS)


@pytest.mark.parametrize("ruling", sorted(set(RULINGS) - ENGINE_RULINGS))
def test_every_core_ruling_is_pinned_by_a_named_case(ruling):
    named = [case[0] for game in GAMES for case in game_module(game).CASES
             if re.search(r"\b%s\b" % ruling, case[0])]
    assert named


def cited(game):
    """(case names, test names) that the game's page cites in its _Tested: notes."""
    blocks = re.findall(r"_Tested:(.*?)_(?=\s|$)", page(game + ".md"))
    cases = [q for block in blocks for q in re.findall(r'"([^"]+)"', block)]
    tests = [t for block in blocks for t in re.findall(r"`(?:[\w/.]+::)?(test_\w+)`", block)]
    return cases, tests


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_case_and_test_exists(game):
    names = [case[0] for case in game_module(game).CASES]
    cases, tests = cited(game)
    assert cases and tests
    missing = []
    for quoted in cases:
        prefix = quoted.rstrip(".… ")
        if quoted != prefix:  # "R9 …" cites every case starting so
            found = any(name.startswith(prefix) for name in names)
        else:
            found = quoted in names
        if not found:
            missing.append(quoted)
    source = (ROOT / "tests" / ("test_%s_properties.py" % game)).read_text()
    missing += [t for t in tests if "def %s(" % t not in source]
    assert missing == []
