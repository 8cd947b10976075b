"""The rules documentation stays true to the tests: every ruling R1-R12 is
written down in its game's page and in the index, every ruling is pinned by a
conformance case or a test named after it, and every case or test a page
cites exists."""

import pathlib
import re

import pytest
from cases import GAMES, game_module

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
RULINGS = ["R%d" % i for i in range(1, 13)]


def page(name):
    return " ".join((DOCS / name).read_text().split())


def bold_rulings(text):
    return set(re.findall(r"\*\*(R\d+)\*\*", text))


def test_every_ruling_is_in_the_index_and_in_a_game_page():
    assert bold_rulings(page("README.md")) == set(RULINGS)
    in_pages = set().union(*(bold_rulings(page(game + ".md")) for game in GAMES))
    assert in_pages == set(RULINGS)


def all_test_names():
    """Every test function name in tests/."""
    names = []
    for path in (ROOT / "tests").glob("test_*.py"):
        names += re.findall(r"^def (test_\w+)\(", path.read_text(), re.MULTILINE)
    return names


@pytest.mark.parametrize("ruling", RULINGS)
def test_every_ruling_is_pinned_by_a_named_case_or_test(ruling):
    cases = [
        case[0]
        for game in GAMES
        for case in game_module(game).CASES
        if re.search(r"\b%s\b" % ruling, case[0])
    ]
    tests = [
        name
        for name in all_test_names()
        if re.search(r"(^|_)%s(_|$)" % ruling, name, re.IGNORECASE)
    ]
    assert cases or tests


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
    names = all_test_names()
    missing += [t for t in tests if t not in names]
    assert missing == []
