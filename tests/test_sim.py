"""The simulator as a person uses it: play, save, replay, batch, bad files."""

import pytest

from dicetable.games import GAMES, header_refusal
from sim.__main__ import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_seed_gives_the_same_match(capsys):
    first = run(capsys, "--game", "nokosu", "--players", "3", "--seed", "5")
    again = run(capsys, "--game", "nokosu", "--players", "3", "--seed", "5")
    other = run(capsys, "--game", "nokosu", "--players", "3", "--seed", "6")
    assert first[0] == 0 and first == again
    assert first[1] != other[1]
    assert "final standings" in first[1]


# Each game with option flags it reads (a flag it does not read is refused).
FLAGS = {
    "dtwww": ["--table-rolls"],
    "walzer": ["--open-play"],
    "dicefull": ["--table-rolls", "--variant"],
    "dtt": ["--open-play"],
    "nokosu": ["--table-rolls"],
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_saved_match_replays_to_the_same_transcript(capsys, tmp_path, game):
    path = str(tmp_path / "m.match")
    flags = FLAGS.get(game, ())
    code, played, _ = run(capsys, "--game", game, "--seed", "2", *flags, "--save", path)
    assert code == 0
    code, replayed, _ = run(capsys, "--replay", path)
    assert code == 0
    # The played match's header names its bots; the replay's says "replayed".
    assert replayed.splitlines()[1:] == played.splitlines()[2:]


def test_a_match_file_with_an_illegal_action_stops_there(capsys, tmp_path):
    path = tmp_path / "m.match"
    run(capsys, "--game", "walzer", "--players", "3", "--seed", "4", "--save", str(path))
    lines = path.read_text().splitlines()
    first_play = next(i for i, line in enumerate(lines) if line.startswith("play "))
    lines[first_play] = "play 2 " + lines[first_play].split()[2]  # out of turn
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "--replay", str(path))
    assert code == 1
    assert "refused: out of turn" in err
    assert "the deal is complete" in out


def test_a_match_file_with_a_bad_line_names_it(capsys, tmp_path):
    path = tmp_path / "m.match"
    path.write_text("game walzer\nplayers 3\noptions 0\ndeal 0 19\nfoo 1 2\n")
    code, _, err = run(capsys, "--replay", str(path))
    assert code == 1
    assert "m.match:5:1: 'foo' is not an action" in err


def test_a_batch_summarises_every_seat(capsys):
    code, out, err = run(capsys, "--game", "dtt", "--matches", "30", "--bots", "heuristic,random")
    assert code == 0
    assert "30/30 matches" in err
    rows = [
        line.split()
        for line in out.splitlines()
        if line.split()[1:2] in (["heuristic"], ["random"])
    ]
    assert [row[:2] for row in rows] == [["0", "heuristic"], ["1", "random"], ["2", "heuristic"]]


def test_a_player_count_the_game_does_not_allow_is_refused(capsys):
    assert main(["--game", "dtt", "--players", "4"]) == 2
    assert capsys.readouterr().err == "python -m sim: error: argument --players: %s\n" % (
        header_refusal("dtt", 4, 0)
    )


def test_the_games_are_listed_as_each_declares_itself(capsys):
    # A designer's first look: every registered game with its players, what it
    # hides, its chance, the options it reads and the bots that can play it.
    code, out, err = run(capsys, "games")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert lines[0].split() == [
        "game",
        "title",
        "players",
        "hidden",
        "hands",
        "chance",
        "options",
        "bots",
    ]
    assert [line.split()[0] for line in lines[1:]] == list(GAMES)
    rows = dict((line.split()[0], line) for line in lines[1:])
    assert rows["dicefull"].split()[1:5] == ["Dicefull", "2-5", "no", "yes"]  # dice in view
    assert rows["dtt"].split()[1:5] == ["d-TT", "3", "yes", "yes"]
    assert "--open-play" not in rows["dicefull"] and "--variant (2d6 length)" in rows["dicefull"]
    assert all(line.endswith("random, heuristic, ismcts") for line in lines[1:])


def test_the_games_listing_refuses_an_argument(capsys):
    assert run(capsys, "games", "dtt") == (
        2,
        "",
        "python -m sim: error: games takes no arguments, not dtt\n",
    )


def test_a_match_does_not_load_the_balance_commands_modules():
    """A match's start-up skips what only `balance` and `games` need (the
    report, multiprocessing): a one-match run took 140 ms of CPU with them, 94 without."""
    import subprocess
    import sys

    script = (
        "import sys; from sim.__main__ import main; main(['--game', 'dtt', '--bots', 'random']);"
        "sys.stderr.write(' '.join(m for m in ('sim.balance', 'sim.report', 'multiprocessing',"
        " 'sim.games_command') if m in sys.modules))"
    )
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "final standings" in p.stdout
    assert p.stderr == ""
    p = subprocess.run(
        [sys.executable, "-c", script.replace("'--game', 'dtt', '--bots', 'random'", "'games'")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert p.stderr == "sim.games_command"
