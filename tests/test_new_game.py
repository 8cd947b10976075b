"""make new-game: a designer's new game, made in a copy of this checkout, plays
at once and passes every per-game test; bad names are refused in one line
with nothing written."""

import os
import pathlib
import shutil
import subprocess
import sys
from xml.etree import ElementTree

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
KEY = "scaffold"  # a word no other test's name holds: -k picks the new game's tests
LEFT_OUT = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    ".typings",
    "build",
    "__pycache__",
    ".pytest_cache",
    "*.egg-info",
)


def checkout(tmp_path):
    """A copy of this checkout, with this one's node_modules (MicroPython)."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    return copy


def run(copy, *argv, timeout=600):
    # The copy's own packages, not the ones the venv is installed from.
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, *argv], cwd=copy, env=env, capture_output=True, text=True, timeout=timeout
    )


def tree(copy):
    return sorted(
        (p.relative_to(copy).as_posix(), p.read_bytes())
        for p in copy.rglob("*")
        if p.is_file() and "node_modules" not in p.parts
    )


@pytest.mark.slow
def test_a_new_game_plays_and_passes_every_per_game_test(tmp_path):
    copy = checkout(tmp_path)
    made = run(copy, "tools/new_game.py", KEY, "--title", "Scaffold")
    assert made.returncode == 0, made.stderr
    assert "wrote sim/games/%s.py" % KEY in made.stdout
    for path in ("firmware/dicetable/games/%s/match.py" % KEY, "tests/golden/%s.txt" % KEY):
        assert (copy / path).exists(), path
    # It is played by the simulator at once, by its key and title.
    played = run(copy, "-m", "sim", "--game", KEY, "--players", "3", "--seed", "2")
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("Scaffold, 3 players")
    assert "wins the trick" in played.stdout
    # Every per-game test runs on it (its key in the test's id), and the tests
    # over the whole registry and the rules pages pass with it.
    report = tmp_path / "report.xml"
    tests = run(
        copy,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-n",
        "2",
        "-q",
        "--junitxml",
        str(report),
        "-k",
        "%s or test_games_registry or test_rules_docs or test_refusals_doc" % KEY,
        "tests/",
        timeout=1500,
    )
    assert tests.returncode == 0, tests.stdout[-3000:]
    ran = [case.get("name") for case in ElementTree.parse(report).iter("testcase")]
    assert len([name for name in ran if KEY in name]) >= 20, ran
    # Made once: a second time is refused, and nothing is overwritten.
    before = tree(copy)
    again = run(copy, "tools/new_game.py", KEY)
    assert (again.returncode, again.stderr) == (
        2,
        "make new-game: error: %s: a game of that key exists already\n" % KEY,
    )
    assert tree(copy) == before


@pytest.mark.parametrize(
    "argv, line",
    [
        (["Bad"], "'Bad': a key is 2 to 12 lowercase letters or digits, a letter first"),
        (["x"], "'x': a key is 2 to 12 lowercase letters or digits, a letter first"),
        (["class"], "'class': a key is 2 to 12 lowercase letters or digits, a letter first"),
        (["dtt"], "dtt: a game of that key exists already"),
        (["highcard"], "highcard: a game of that key exists already"),
        (["fine", "--title", "Ünïcode"], "'Ünïcode': a title is 1 to 16 letters, digits, spaces"),
        (["fine", "--title", ""], "'': a title is 1 to 16 letters, digits, spaces"),
    ],
)
def test_a_name_that_cannot_be_a_game_is_one_line_and_nothing_is_written(argv, line):
    shared = [ROOT / "firmware/dicetable/games/__init__.py", ROOT / "docs/rules/README.md"]
    before = [p.read_bytes() for p in shared]
    out = subprocess.run(
        [sys.executable, "tools/new_game.py", *argv], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("make new-game: error: " + line)
    assert out.stderr.count("\n") == 1
    assert [p.read_bytes() for p in shared] == before
    assert not (ROOT / "sim" / "games" / (argv[0] + ".py")).exists() or argv[0] == "dtt"
