"""How a seed becomes a match (sim/play.py, docs/designers.md "Seeds").

Seeding 2, the default: the table, else the lowest seat waited on, acts; the
table's chance and random bots draw with the engine's random_action, taken
unchecked; a match of random bots that nobody reads is the game's playout,
which must be the same match draw for draw, or a row of a report would not
play again under `python -m sim --seed`.  Seeding 1, the one before, still
plays what it played (the golden transcripts are in it: tests/test_golden.py).
"""

import csv
import json
import random

import every_game
import pytest
from match_helpers import new_match, take_to_the_end

import sim.play
from sim.__main__ import main
from sim.play import play

SEEDS = range(6)


def random_bots(players):
    return ["random"] * players


@pytest.mark.parametrize("game", every_game.KEYS)
def test_a_match_of_random_bots_is_the_same_read_or_not(game):
    # Read (a transcript): stepped action by action; not read: the playout.
    for players in every_game.players(game):
        for seed in SEEDS:
            quiet = play(game, players, 0, random_bots(players), seed)
            out = []
            read = play(game, players, 0, random_bots(players), seed, out)
            assert quiet.journal == read.journal, (players, seed)
            assert quiet.totals == read.totals and quiet.over()
            assert out[0].endswith(", seed %d" % seed)  # today's seeding is not named


@pytest.mark.parametrize("game", every_game.KEYS)
def test_seeding_2_is_random_action_and_take_with_the_seeds_draws(game):
    players = every_game.players(game)[-1]
    for seed in SEEDS:
        played = play(game, players, 0, random_bots(players), seed, [])
        match = new_match(game, players, 0)
        if hasattr(match, "random_action"):
            expected = take_to_the_end(match, random.Random(seed)._randbelow)
            assert played.journal == expected.journal, seed


def test_bots_that_think_still_play_their_own_seats():
    bots = ["heuristic", "random", "heuristic"]
    first = play("walzer", 3, 0, bots, 4, [])
    again = play("walzer", 3, 0, bots, 4)
    assert first.journal == again.journal and first.over()
    assert play("walzer", 3, 0, random_bots(3), 4).journal != first.journal


def test_seeding_1_plays_the_match_a_seed_played_before_and_says_so():
    out = []
    old = play("dtt", 3, 0, random_bots(3), 7, out, seeding=1)
    assert out[0] == "d-TT, 3 players, registered hands, seed 7, seeding 1"
    new = play("dtt", 3, 0, random_bots(3), 7)
    assert old.journal != new.journal
    assert sim.play.SEEDING == 2 and sim.play.SEEDINGS == (1, 2)


def test_the_command_line_takes_the_seeding(capsys):
    assert main(["--game", "walzer", "--players", "3", "--bots", "random", "--seed", "3"]) == 0
    today = capsys.readouterr().out
    argv = ["--game", "walzer", "--players", "3", "--bots", "random", "--seed", "3"]
    assert main(argv + ["--seeding", "1"]) == 0
    before = capsys.readouterr().out
    assert today.splitlines()[0] == "Walzer, 3 players, registered hands, seed 3"
    assert before.splitlines()[0] == today.splitlines()[0] + ", seeding 1"
    assert today != before


def report(tmp_path, name, *extra):
    out = tmp_path / name
    argv = ["balance", "--game", "walzer", "--players", "3", "--matches", "6"]
    argv += ["--bots", "random", "--jobs", "1", "--out", str(out), *extra]
    assert main(argv) == 0
    return out


def test_a_reports_rows_play_again_by_their_seed_in_its_seeding(tmp_path, capsys):
    for seeding, extra in ((2, ()), (1, ("--seeding", "1"))):
        out = report(tmp_path, "s%d" % seeding, *extra)
        summary = json.loads((out / "summary.json").read_text())
        assert summary["seeding"] == seeding
        assert ("--seeding 1" in summary["command"]) == (seeding == 1)
        with open(out / "results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 6
        for row in rows:
            match = play("walzer", 3, 0, random_bots(3), int(row["seed"]), seeding=seeding)
            assert match.totals == [int(row["score_%d" % s]) for s in range(3)], row
            assert len(match.journal) == int(row["actions"])
    capsys.readouterr()
