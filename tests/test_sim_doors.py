"""Every door of python -m sim refuses bad input with one clear line (issue 10).

Each case is what a careless user gives (arguments, a match file, typed lines)
and what must come back: the exit status (2 a bad argument, 1 a failed
operation, 130 Ctrl-C, 141 a closed pipe), exactly one line on stderr saying
what is wrong and what would be right, no traceback anywhere, and no file
left behind or changed.  docs/refusals.md lists the same refusals and names
these tests.  The bulk calls main() in-process; a representative set runs the
real `python -m sim` (Ctrl-C, a closed pipe, make's own line).  The match
file reader is fuzzed with hypothesis: random bytes and text, and mutations
of a real match file, never raise anything but MatchFileError, and what is
accepted is what a fresh parse and a write-then-read give.
"""

import io
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetable.games import header_refusal
from sim import matchfile, terminal
from sim.__main__ import main
from sim.play import play

ROOT = pathlib.Path(__file__).resolve().parent.parent
PREFIX = "python -m sim: error: "
MATCH = play("walzer", 3, 0, ["heuristic"] * 3, 4)
VALID = matchfile.text_of(MATCH, ["seed 4, bots heuristic heuristic heuristic"])
HEADER = "game walzer\nplayers 3\noptions 0\n"


def files_in(folder):
    """{relative path: bytes} of everything under `folder` (temporary files too)."""
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
        for p in sorted(folder.rglob("*"))
    }


def run_main(capsys, tmp_path, argv, files=None):
    """main(argv) with {dir} in argv as tmp_path and `files` written there first;
    (status, stdout, stderr), after checking that nothing under tmp_path changed."""
    for name, data in (files or {}).items():
        (tmp_path / name).write_bytes(data)
    before = files_in(tmp_path)
    status = main([a.replace("{dir}", str(tmp_path)) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert files_in(tmp_path) == before
    return status, out, err


def one_line(err):
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --- Bad arguments: exit 2, one line, nothing played -------------------------------------

USAGE = [
    (
        "length-negative",
        ["--length", "-1"],
        "argument --length: '-1' is out of range (0, the game's own, to 12)",
    ),
    ("length-256", ["--length", "256"], "argument --length: '256' is out of range"),
    ("length-1000", ["--length", "1000"], "argument --length: '1000' is out of range"),
    ("length-13", ["--length", "13"], "argument --length: '13' is out of range"),
    ("length-word", ["--length", "abc"], "argument --length: 'abc' is not a whole number"),
    ("matches-0", ["--matches", "0"], "argument --matches: '0' is out of range (1 to 1000000)"),
    ("matches-negative", ["--matches", "-5"], "argument --matches: '-5' is out of range"),
    (
        "matches-huge",
        ["--matches", "1" + "0" * 40],
        "argument --matches: '100000000000000000000000000000...' is out of range",
    ),
    ("seed-negative", ["--seed", "-7"], "argument --seed: '-7' is out of range (0 to 4294967295)"),
    ("seed-2-32", ["--seed", "4294967296"], "argument --seed: '4294967296' is out of range"),
    ("seed-unicode-digit", ["--seed", "３"], "argument --seed: '３' is not a whole number"),
    ("seed-superscript", ["--seed", "²"], "argument --seed: '²' is not a whole number"),
    ("seed-float", ["--seed", "1.5"], "argument --seed: '1.5' is not a whole number"),
    ("seeding-3", ["--seeding", "3"], "argument --seeding: '3' is out of range (1 or 2)"),
    ("seeding-0", ["--seeding", "0"], "argument --seeding: '0' is out of range (1 or 2)"),
    (
        "seed-missing",
        ["--seed"],
        "argument --seed: expected one argument (python -m sim --help lists the options)",
    ),
    (
        "seeds-past-the-end",
        ["--seed", "4294967295", "--matches", "2"],
        "argument --matches: the seeds 4294967295 to 4294967296 go past 4294967295",
    ),
    (
        "players-word",
        ["--players", "abc"],
        "argument --players: 'abc' is not a whole number (a player count, e.g. --players 4)",
    ),
    ("players-empty", ["--players", ""], "argument --players: '' is not a whole number"),
    ("players-arabic-digit", ["--players", "٣"], "argument --players: '٣' is not a whole number"),
    (
        "players-too-many",
        ["--game", "walzer", "--players", "9"],
        "argument --players: " + str(header_refusal("walzer", 9, 0)),
    ),
    (
        "players-negative",
        ["--game", "walzer", "--players", "-1"],
        "argument --players: " + str(header_refusal("walzer", -1, 0)),
    ),
    (
        "players-dtt-4",
        ["--game", "dtt", "--players", "4"],
        "argument --players: " + str(header_refusal("dtt", 4, 0)),
    ),
    ("game-unknown", ["--game", "chess"], "argument --game: " + str(header_refusal("chess", 0, 0))),
    ("game-empty", ["--game", ""], "argument --game: " + str(header_refusal("", 0, 0))),
    (
        "open-play-dicefull",
        ["--game", "dicefull", "--open-play"],
        "argument --open-play: dicefull has no open play (it takes --table-rolls, --variant)",
    ),
    (
        "variant-walzer",
        ["--game", "walzer", "--variant"],
        "argument --variant: walzer has no variant (it takes --open-play)",
    ),
    (
        "table-rolls-dtt",
        ["--game", "dtt", "--table-rolls"],
        "argument --table-rolls: dtt has no table rolls (it takes --open-play)",
    ),
    (
        "bots-unknown",
        ["--bots", "foo"],
        "argument --bots: no bot 'foo' (bots are random, heuristic or ismcts[:PLAYOUTS or"
        " :MSms], e.g. ismcts:300)",
    ),
    ("bots-empty", ["--bots", ""], "argument --bots: an empty name in ''"),
    (
        "bots-trailing-comma",
        ["--bots", "heuristic,"],
        "argument --bots: an empty name in 'heuristic,'",
    ),
    (
        "bots-too-many",
        ["--game", "dtt", "--bots", "random,random,random,random"],
        "argument --bots: 4 bots for 3 players (one a seat at most, repeated to fill)",
    ),
    ("human-without-table", ["--human", "0"], "argument --human: only with --table"),
    (
        "human-9",
        ["--table", "--game", "walzer", "--players", "3", "--human", "9"],
        "argument --human: no seat 9 in a 3-player match (seats 0 to 2, comma-separated",
    ),
    ("human-negative", ["--table", "--human", "-1"], "argument --human: '-1' is not a seat"),
    ("human-empty", ["--table", "--human", ""], "argument --human: no seat given"),
    ("human-word", ["--table", "--human", "abc"], "argument --human: 'abc' is not a seat"),
    (
        "human-empty-item",
        ["--table", "--human", "0,,1"],
        "argument --human: an empty seat in '0,,1'",
    ),
    ("human-twice", ["--table", "--human", "0,0"], "argument --human: seat 0 twice"),
    ("table-matches", ["--table", "--matches", "2"], "argument --matches: not with --table"),
    ("table-save", ["--table", "--save", "{dir}/x.match"], "argument --save: not with --table"),
    (
        "replay-with-game",
        ["--replay", "{dir}/x.match", "--game", "dtt"],
        "argument --game: not with --replay (the match file names game, players, options)",
    ),
    (
        "replay-with-seed",
        ["--replay", "{dir}/x.match", "--seed", "3"],
        "argument --seed: not with --replay",
    ),
    (
        "replay-with-seeding",
        ["--replay", "{dir}/x.match", "--seeding", "1"],
        "argument --seeding: not with --replay",
    ),
    ("replay-empty", ["--replay", ""], "argument --replay: an empty file name"),
    ("replay-missing", ["--replay"], "argument --replay: expected one argument"),
    ("save-empty", ["--save", ""], "argument --save: an empty file name"),
    (
        "save-matches",
        ["--matches", "3", "--save", "{dir}/x.match"],
        "argument --save: not with --matches (a file holds one match)",
    ),
    ("force-alone", ["--force"], "argument --force: only with --save"),
    (
        "positional",
        ["walzer"],
        "unrecognized arguments: walzer (python -m sim --help lists the options)",
    ),
    ("unknown-option", ["--speed", "3"], "unrecognized arguments: --speed 3"),
    ("ambiguous", ["--t"], "ambiguous option: --t could match --table-rolls, --table"),
]


@pytest.mark.parametrize("argv, message", [c[1:] for c in USAGE], ids=[c[0] for c in USAGE])
def test_a_bad_argument_is_refused_with_one_line_and_exit_2(capsys, tmp_path, argv, message):
    status, out, err = run_main(capsys, tmp_path, argv)
    assert status == 2
    assert out == ""
    assert one_line(err).startswith(PREFIX + message)


def test_help_still_works(capsys):
    assert main(["--help"]) == 0
    assert "--force" in capsys.readouterr().out


# --- Bad match files: exit 1, 'path:line:column: what (what would be right)' -------------


def refusal(game, players, options):
    return str(header_refusal(game, players, options))


BAD_FILES = [
    ("game-chess", b"game chess\nplayers 3\noptions 0\n", "1:6", refusal("chess", 3, 0)),
    ("game-engine", b"game engine\nplayers 3\noptions 0\n", "1:6", refusal("engine", 3, 0)),
    (
        "game-path",
        b"game ../rules/walzer\nplayers 3\noptions 0\n",
        "1:6",
        refusal("../rules/walzer", 3, 0),
    ),
    ("players-9", b"game walzer\nplayers 9\noptions 0\n", "2:9", refusal("walzer", 9, 0)),
    (
        "players-0-dicefull",
        b"game dicefull\nplayers 0\noptions 0\n",
        "2:9",
        refusal("dicefull", 0, 0),
    ),
    (
        "players-word",
        b"game walzer\nplayers abc\noptions 0\n",
        "2:9",
        "'abc' is not a number (players is a whole number, e.g. players 4)",
    ),
    (
        "players-huge",
        b"game walzer\nplayers 12345678901\noptions 0\n",
        "2:9",
        "'12345678901' is too large",
    ),
    (
        "options-word",
        b"game walzer\nplayers 3\noptions abc\n",
        "3:9",
        "'abc' is not a number (options is a whole number of option bits, e.g. options 0)",
    ),
    (
        "options-open-play-dicefull",
        b"game dicefull\nplayers 3\noptions 1\n",
        "3:9",
        refusal("dicefull", 3, 1),
    ),
    (
        "options-length-13",
        b"game walzer\nplayers 3\noptions 3328\n",
        "3:9",
        refusal("walzer", 3, 3328),
    ),
    (
        "options-17-bits",
        b"game walzer\nplayers 3\noptions 65536\n",
        "3:9",
        refusal("walzer", 3, 65536),
    ),
    ("first-problem-first", b"game chess\nfoo 1 2\nplayers 3\n", "1:6", refusal("chess", 3, 0)),
    (
        "game-twice",
        b"game walzer\ngame dtt\nplayers 3\noptions 0\n",
        "2:1",
        "a second 'game' line (line 1 gave it; the header names each once)",
    ),
    (
        "header-after-actions",
        (HEADER + "deal 0 19\nplayers 4\n").encode(),
        "5:1",
        "a 'players' line after the actions (the header comes before them)",
    ),
    ("header-value-missing", b"game\n", "1:5", "'game' needs a value (e.g. game walzer)"),
    (
        "header-extra-word",
        b"game walzer dtt\n",
        "1:13",
        "an extra word 'dtt' (a header line is 'game' and one value)",
    ),
    (
        "no-options",
        b"game walzer\nplayers 3\n",
        "2:10",
        "no 'options' line before the end (the header is game, players and options)",
    ),
    (
        "action-before-header",
        b"game walzer\nplayers 3\ndeal 0 1\n",
        "3:1",
        "no 'options' line before the first action (the header is game, players and options)",
    ),
    (
        "unknown-word",
        b"foo 1 2\n",
        "1:1",
        "'foo' is neither a header line nor an action (the "
        "header lines are game, players and options; the actions are deal, play, roll,",
    ),
    (
        "unknown-kind",
        (HEADER + "deal 0 19\nfoo 1 2\n").encode(),
        "5:1",
        "'foo' is not an action (the actions are deal, play,",
    ),
    (
        "upper-case",
        b"Game walzer\n",
        "1:1",
        "'Game' is neither a header line nor an action (words are lower case: 'game')",
    ),
    (
        "seat-out-of-range",
        (HEADER + "deal 3 1\n").encode(),
        "4:6",
        "no seat 3 in a 3-player match (seats are 0 to 2, or table)",
    ),
    ("seat-7", (HEADER + "deal 7 1\n").encode(), "4:6", "no seat 7 in a 3-player match"),
    (
        "seat-word",
        (HEADER + "deal abc 1\n").encode(),
        "4:6",
        "'abc' is not a number (seats are 0 to 2, or table)",
    ),
    ("seat-negative", (HEADER + "deal -1 1\n").encode(), "4:6", "'-1' is not a number"),
    (
        "value-too-large",
        (HEADER + "deal 0 70000\n").encode(),
        "4:8",
        "value 70000 is too large (values are 0 to 65535)",
    ),
    (
        "value-arabic-digit",
        (HEADER + "deal 0 ١\n").encode(),
        "4:8",
        "'١' is not a number (values are 0 to 65535)",
    ),
    (
        "value-missing",
        (HEADER + "deal 0\n").encode(),
        "4:7",
        "'deal' needs a value (an action is <kind> <seat|table> <value>, e.g. deal 0 19)",
    ),
    (
        "seat-and-value-missing",
        (HEADER + "deal\n").encode(),
        "4:5",
        "'deal' needs a seat and a value",
    ),
    (
        "extra-word",
        (HEADER + "deal 0 1 2\n").encode(),
        "4:10",
        "an extra word '2' (an action "
        "is <kind> <seat|table> <value>, e.g. deal 0 19; a comment starts with #)",
    ),
    (
        "latin-1",
        b"game walzer\n# caf\xe9\n",
        "2:6",
        "not UTF-8 text (byte 0xe9): another encoding? save the file as UTF-8",
    ),
    ("utf-16-bom", "game walzer\n".encode("utf-16"), "1:1", "UTF-16 text (save the file as UTF-8)"),
    ("utf-16-no-bom", "game walzer\n".encode("utf-16-le"), "1:1", "UTF-16 text"),
    (
        "binary",
        bytes(range(256)),
        "1:1",
        "binary data (byte 0x00): is this a journal.bin? use python -m host_tools replay",
    ),
    (
        "journal-bin",
        b"DJ\x01\x03" + b"\xff" * 4092,
        "1:5",
        "not UTF-8 text (byte 0xff): is this a journal.bin? use python -m host_tools replay",
    ),
    (
        "escape-code",
        b"game walzer\x1b[31m\n",
        "1:12",
        "a control character U+001B (a match file is plain text)",
    ),
]


@pytest.mark.parametrize(
    "data, place, message", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES]
)
def test_a_bad_match_file_is_refused_at_its_line_and_column(capsys, tmp_path, data, place, message):
    path = tmp_path / "x.match"
    status, out, err = run_main(capsys, tmp_path, ["--replay", str(path)], {"x.match": data})
    assert status == 1
    assert out == ""
    assert one_line(err).startswith("%s%s:%s: %s" % (PREFIX, path, place, message))


WHOLE_FILE = [
    ("empty", b"", "no match here (a match file starts with game, players and options)"),
    (
        "only-comments",
        b"# nothing\n\n   \n",
        "no match here (a match file starts with game, players and options)",
    ),
    (
        "too-large",
        b"#" * (matchfile.LARGEST + 1),
        "larger than any match file (at most 1048576 bytes)",
    ),
]


@pytest.mark.parametrize(
    "data, message", [c[1:] for c in WHOLE_FILE], ids=[c[0] for c in WHOLE_FILE]
)
def test_a_file_with_no_match_is_refused_as_a_whole(capsys, tmp_path, data, message):
    path = tmp_path / "x.match"
    status, out, err = run_main(capsys, tmp_path, ["--replay", str(path)], {"x.match": data})
    assert status == 1
    assert one_line(err) == "%s%s: %s" % (PREFIX, path, message)


def test_a_folder_a_missing_file_and_one_that_cannot_be_read_are_refused(
    capsys, tmp_path, monkeypatch
):
    status, _, err = run_main(capsys, tmp_path, ["--replay", str(tmp_path)])
    assert status == 1
    assert (
        one_line(err) == PREFIX + "%s: a folder, not a match file (python -m host_tools "
        "replay reads a backup folder)" % tmp_path
    )
    status, _, err = run_main(capsys, tmp_path, ["--replay", "{dir}/nope.match"])
    assert status == 1
    assert (
        one_line(err) == PREFIX + "%s/nope.match: no such file (give a match file, as "
        "python -m sim --save writes them)" % tmp_path
    )

    for error, message in [
        (
            PermissionError(13, "Permission denied"),  # root reads anything
            "not allowed to read it (permission denied)",
        ),
        (OSError(5, "Input/output error"), "cannot read it (Input/output error)"),
    ]:

        def failing(*args, error=error, **kwargs):
            raise error

        monkeypatch.setattr(matchfile, "open", failing, raising=False)
        status, _, err = run_main(capsys, tmp_path, ["--replay", "{dir}/x.match"], {"x.match": b""})
        assert status == 1
        assert one_line(err) == PREFIX + "%s/x.match: %s" % (tmp_path, message)


def test_a_tolerable_file_is_read_as_meant(tmp_path):
    """A byte-order mark, CRLF or CR line ends, tabs, spaces, blank lines and
    comments after an action change nothing."""
    plain = matchfile.parse(VALID.encode())
    lines = VALID.splitlines()
    odd = "\ufeff" + "\r\n".join(
        "  " + line.replace(" ", " \t ") + "   # ok" if not line.startswith("#") else line
        for line in lines
    )
    assert matchfile.parse(odd.encode()) == plain
    assert matchfile.parse("\r".join(lines).encode()) == plain
    assert (
        matchfile.parse(
            VALID.replace("game walzer\n", "")
            .replace("options 0\n", "options 0\ngame walzer\n\n")
            .encode()
        )[:4]
        == plain[:4]
    )


def test_an_action_the_rules_refuse_stops_the_replay_at_its_line(capsys, tmp_path):
    lines = VALID.splitlines()
    first_play = next(i for i, line in enumerate(lines) if line.startswith("play "))
    number = sum(
        1
        for line in lines[: first_play + 1]
        if line.split()[0] not in ("#", "game", "players", "options")
    )
    lines[first_play] = "play 2 " + lines[first_play].split()[2]
    path = tmp_path / "x.match"
    status, out, err = run_main(
        capsys, tmp_path, ["--replay", str(path)], {"x.match": ("\n".join(lines) + "\n").encode()}
    )
    assert status == 1
    assert one_line(
        err
    ) == PREFIX + "%s:%d: action %d, %r, refused: out of turn (the transcript stops before it)" % (
        path,
        first_play + 1,
        number,
        lines[first_play],
    )
    assert "the deal is complete" in out  # everything before it stands


# --- --save: never over a file unless --force, never half a file -------------------------


def test_save_refuses_an_existing_file_and_force_replaces_it(capsys, tmp_path):
    argv = ["--game", "walzer", "--players", "3", "--seed", "4", "--save", "{dir}/x.match"]
    status, out, err = run_main(capsys, tmp_path, argv, {"x.match": b"mine\n"})
    assert status == 1 and out == ""
    assert (
        one_line(err) == PREFIX + "%s/x.match exists (add --force to replace it, or save "
        "under another name)" % tmp_path
    )
    assert main(argv[:-1] + [str(tmp_path / "x.match"), "--force"]) == 0
    assert (tmp_path / "x.match").read_text() == VALID
    assert sorted(os.listdir(tmp_path)) == ["x.match"]


def test_save_refuses_a_folder_and_a_missing_folder(capsys, tmp_path):
    (tmp_path / "d").mkdir()
    status, _, err = run_main(capsys, tmp_path, ["--save", "{dir}/d"])
    assert status == 1
    assert one_line(err) == PREFIX + "%s/d is a folder (give --save a file name)" % tmp_path
    status, _, err = run_main(capsys, tmp_path, ["--save", "{dir}/no/x.match"])
    assert status == 1
    assert (
        one_line(err) == PREFIX + "no folder %s/no to save x.match in (make it first, or "
        "save elsewhere)" % tmp_path
    )


def test_a_file_that_appears_while_playing_is_not_overwritten(tmp_path):
    (tmp_path / "x.match").write_text("mine\n")
    with pytest.raises(FileExistsError):
        matchfile.write(str(tmp_path / "x.match"), MATCH)
    assert (tmp_path / "x.match").read_text() == "mine\n"
    assert os.listdir(tmp_path) == ["x.match"]


def test_a_write_that_fails_says_so(capsys, tmp_path, monkeypatch):
    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    status, _, err = run_main(capsys, tmp_path, ["--save", "{dir}/x.match"])
    assert status == 1
    assert (
        one_line(err) == PREFIX + "cannot write %s/x.match: no space left on device (save "
        "somewhere you may write)" % tmp_path
    )


@pytest.mark.parametrize("existing", [None, b"mine\n"], ids=["new", "forced-over-a-file"])
def test_ctrl_c_while_saving_leaves_the_old_file_or_none(capsys, tmp_path, monkeypatch, existing):
    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    files = {"x.match": existing} if existing else {}
    status, out, err = run_main(capsys, tmp_path, ["--save", "{dir}/x.match", "--force"], files)
    assert status == 130
    assert one_line(err) == "python -m sim: interrupted"
    assert out == ""


def test_ctrl_c_during_a_batch_says_how_far_it_got(capsys, tmp_path, monkeypatch):
    from sim import play_command

    played = []

    def play_then_stop(*args, **kw):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(args)
        return MATCH

    monkeypatch.setattr(play_command, "play", play_then_stop)
    status, out, err = run_main(
        capsys, tmp_path, ["--game", "walzer", "--players", "3", "--matches", "10"]
    )
    assert status == 130 and out == ""
    assert err.splitlines()[-1] == "python -m sim: interrupted after 3 of 10 matches (no summary)"


# --- The interactive table: one line per bad line, nothing changed ------------------------


def table(commands, humans=(0,)):
    out = io.StringIO()
    s = terminal.run("walzer", 3, list(humans), ["heuristic"], 3, {}, io.StringIO(commands), out)
    return s, terminal_text(out.getvalue())


def terminal_text(text):
    return text.replace("\x1b", "<ESC>")


TYPED = [
    ("seat-word", "seat abc", "'abc' is not a seat (you play seat 0)"),
    ("seat-superscript", "seat ²", "'²' is not a seat (you play seat 0)"),
    ("seat-not-yours", "seat 2", "seat 2 is not yours (you play seat 0)"),
    ("seat-alone", "seat", "seat takes one of your seats: 0"),
    ("seat-two-words", "seat 0 1", "seat takes one of your seats: 0"),
    ("unknown", "foo", "no command 'foo' (type help for the commands, ? for your actions)"),
    ("superscript", "²", "no command '²' (type help for the commands, ? for your actions)"),
    ("escape-code", "\x1b[31m", "no command '\\x1b[31m'"),
    ("action-out-of-range", "99", "no action '99': the list is 0 to 11 (type ? to see it)"),
    ("action-huge", "9" * 50, "no action '99999999999999999999...': the list is 0 to 11"),
    ("action-two-numbers", "3 4", "an action is one number, not '3 4' (type ? for the list)"),
    (
        "scan-alone",
        "scan",
        "scan takes an item number (items are 0 to 35: type items to list them)",
    ),
    ("scan-word", "scan abc", "no item 'abc' (items are 0 to 35: type items to list them)"),
    ("scan-out-of-range", "scan 99999", "no item '99999' (items are 0 to 35"),
    ("scan-two", "scan 1 2", "scan takes one item number, not '1 2'"),
    ("help-extra", "? x", "'?' takes nothing after it, not 'x'"),
    ("quit-extra", "quit now", "'quit' takes nothing after it, not 'now'"),
    ("button-extra", "ok ok", "'ok' takes nothing after it, not 'ok'"),
]


@pytest.mark.slow
@pytest.mark.parametrize("line, hint", [c[1:] for c in TYPED], ids=[c[0] for c in TYPED])
def test_a_bad_line_at_the_table_gets_one_hint_and_changes_nothing(line, hint):
    quiet, _ = table("quit\n")
    s, text = table(line + "\nquit\n")
    assert s.table.match.journal == quiet.table.match.journal
    parts = text.split("seat 0> ")
    assert len(parts) == 3  # the prompt before, the one after
    assert parts[1].startswith("  %s" % terminal_text(hint))
    assert parts[1].count("\n") == 1  # one line, and no redraw


@pytest.mark.parametrize(
    "line, hint",
    [
        ("auto", "nothing for you to do now (wait lets a second pass)"),
        ("?", "nothing for you to do now (wait lets a second pass)"),
        ("0", "no action '0': nothing for you to do now (wait lets a second pass)"),
    ],
    ids=["auto", "list", "number"],
)
def test_asking_for_an_action_when_there_is_none_says_so(line, hint):
    s, _ = table("quit\n")
    assert s.your_actions(2) == []  # seat 2's bot has scanned its hand
    journal = list(s.table.match.journal)
    out = io.StringIO()
    s.out = out
    assert s.command(2, line) is True
    assert out.getvalue() == "  %s\n" % hint
    assert s.table.match.journal == journal


def test_end_of_input_and_an_empty_line_end_or_do_nothing():
    quiet, _ = table("quit\n")
    s, text = table("\n\n")
    assert s.table.match.journal == quiet.table.match.journal
    assert text.endswith("seat 0> \n")  # Ctrl-D: a newline, and out


def test_ctrl_c_and_eof_at_the_table_end_cleanly(capsys, tmp_path, monkeypatch):
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupted())
    status, out, err = run_main(capsys, tmp_path, ["--table", "--game", "walzer", "--players", "3"])
    assert status == 130
    assert (
        one_line(err) == "python -m sim: interrupted (the match at the virtual table is not kept)"
    )
    assert out.endswith("seat 0> \n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("foo\n"))
    status, out, err = run_main(capsys, tmp_path, ["--table", "--game", "walzer", "--players", "3"])
    assert status == 0 and err == ""


# --- The real command: Ctrl-C, a closed pipe, make ----------------------------------------


def command(*argv, **kwargs):
    return subprocess.Popen(
        [sys.executable, "-m", "sim", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def test_the_command_refuses_with_one_line(tmp_path):
    p = command("--seed", "-7")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and out == b""
    assert err.decode() == PREFIX + "argument --seed: '-7' is out of range (0 to 4294967295)\n"
    (tmp_path / "j.bin").write_bytes(b"DJ\x01\x03" + b"\xff" * 4092)
    p = command("--replay", str(tmp_path / "j.bin"))
    out, err = p.communicate(timeout=60)
    assert p.returncode == 1 and out == b""
    assert err.decode().count("\n") == 1 and b"use python -m host_tools replay" in err


# Whatever is not a regular file is refused before it is opened: open() of a
# FIFO waits for a writer for ever, /dev/zero never ends.  Each door runs as
# the real command with a timeout, so that a door that opens one fails here
# instead of hanging.  A folder keeps the door's own words.
NOT_REGULAR_KINDS = {
    "fifo": "a FIFO",
    "dev-null": "a character device",
    "folder": None,
    "socket": "a socket",
    "link-to-fifo": "a FIFO",
}
GIVE_A_SET = "give a challenge set, e.g. docs/examples/dicefull-challenges.txt"
A_FOLDER_NOT_A_SET = "a folder, not a challenge set (give a text file)"
GIVE_A_MATCH = "give a match file, as python -m sim --save writes them"
A_FOLDER_NOT_A_MATCH = (
    "a folder, not a match file (python -m host_tools replay reads a backup folder)"
)
# door -> (argv, its prefix, what to give, what it says of a folder)
FILE_DOORS = {
    "challenges": (
        ["sim", "--game", "dicefull", "--challenges", "{path}"],
        PREFIX,
        GIVE_A_SET,
        A_FOLDER_NOT_A_SET,
    ),
    "balance-challenges": (
        ["sim", "balance", "--game", "dicefull", "--challenges", "{path}", "--out", "{dir}/r"],
        PREFIX,
        GIVE_A_SET,
        A_FOLDER_NOT_A_SET,
    ),
    "replay": (["sim", "--replay", "{path}"], PREFIX, GIVE_A_MATCH, A_FOLDER_NOT_A_MATCH),
    "web-open": (
        ["sim.web", "--open", "{path}", "--http-port", "0"],
        "python -m sim.web: error: ",
        GIVE_A_MATCH,
        A_FOLDER_NOT_A_MATCH,
    ),
    "web-challenges": (
        ["sim.web", "--challenges", "{path}", "--http-port", "0"],
        "python -m sim.web: error: ",
        GIVE_A_SET,
        A_FOLDER_NOT_A_SET,
    ),
}


def not_a_regular_file(kind, folder, monkeypatch):
    """A path in `folder` to what `kind` names (/dev/null as it is)."""
    if kind == "dev-null":
        return "/dev/null"
    path = folder / "x"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":  # bound by a short relative name: AF_UNIX paths are short
        monkeypatch.chdir(folder)
        with socket.socket(socket.AF_UNIX) as s:
            s.bind("x")
    else:
        os.mkfifo(folder / "real.fifo")
        path.symlink_to(folder / "real.fifo")
    return str(path)


@pytest.mark.parametrize("kind", sorted(NOT_REGULAR_KINDS))
@pytest.mark.parametrize("door", sorted(FILE_DOORS))
def test_what_is_not_a_regular_file_is_refused_before_it_is_opened(
    door, kind, tmp_path, monkeypatch
):
    argv, prefix, give, folder = FILE_DOORS[door]
    path = not_a_regular_file(kind, tmp_path, monkeypatch)
    argv = [a.replace("{path}", path).replace("{dir}", str(tmp_path)) for a in argv]
    before = sorted(os.listdir(tmp_path))
    p = subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, timeout=30, check=False
    )
    said = NOT_REGULAR_KINDS[kind]
    expected = "%s%s: %s" % (
        prefix,
        path,
        "not a regular file (%s); %s" % (said, give) if said else folder,
    )
    assert (p.returncode, p.stdout, p.stderr.decode()) == (1, b"", expected + "\n")
    assert sorted(os.listdir(tmp_path)) == before  # no report folder, nothing written


@pytest.mark.slow
def test_ctrl_c_stops_a_batch_with_130_and_one_line():
    p = command("--game", "dtt", "--matches", "1000000", "--seed", "0")
    time.sleep(1.5)  # imports done, matches being played
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == b""
    assert b"Traceback" not in err
    assert err.decode().splitlines()[-1].startswith("python -m sim: interrupted")


def test_a_closed_pipe_ends_quietly_with_141():
    p = command("--game", "dtwww", "--players", "4")
    p.stdout.close()  # as `| head` does when it has enough
    err = p.stderr.read()
    assert p.wait(timeout=60) == 141
    assert err == b""


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_sim_passes_the_line_on_and_a_closed_pipe_is_no_error():
    env = dict(os.environ, MAKEFLAGS="")
    make = ["make", "-s", "-o", "deps", "sim"]  # -o deps: no installing from a test
    p = subprocess.run(
        make + ["ARGS=--seed -7"], cwd=ROOT, capture_output=True, env=env, timeout=120
    )
    assert p.returncode == 2  # make's own status for a failed rule
    lines = p.stderr.decode().splitlines()
    assert lines[0] == PREFIX + "argument --seed: '-7' is out of range (0 to 4294967295)"
    assert re.match(r"make(\[\d+\])?: \*\*\* \[.*\] Error 2$", lines[1])  # make[1] under make test
    p = subprocess.Popen(
        make + ["ARGS=--game dtwww"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 0 and err == b""


# --- The reader fuzzed: only MatchFileError, and what it accepts is whole -----------------


def check_read(data):
    """parse(data): a MatchFileError or a result a fresh parse and a round trip agree on."""
    try:
        m = matchfile.parse(data, "f")
    except matchfile.MatchFileError as e:
        assert str(e).startswith("f:") and "\n" not in str(e)
        return None
    assert matchfile.parse(data, "f") == m
    again = matchfile.format_file(m.game, m.players, m.options, m.actions).encode()
    assert matchfile.parse(again, "f")[:4] == m[:4]
    assert len(m.lines) == len(m.actions)
    return m


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(st.binary(max_size=400))
def test_fuzz_random_bytes(data):
    check_read(data)


@FUZZ
@given(st.text(max_size=300))
def test_fuzz_random_text(text):
    check_read(text.encode("utf-8", "surrogatepass"))


WORDS = st.sampled_from(
    [
        "game",
        "players",
        "options",
        "deal",
        "play",
        "roll",
        "table",
        "walzer",
        "dicefull",
        "chess",
        "#",
        "0",
        "1",
        "2",
        "3",
        "7",
        "19",
        "65535",
        "65536",
        "-1",
        "²",
        "٣",
        "\t",
        "\x00",
        "\xff",
        "\r",
    ]
)


@st.composite
def mutated(draw):
    lines = VALID.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "word", "insert", "cut"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "word":
            words = lines[i].split(" ")
            words[draw(st.integers(0, len(words) - 1))] = draw(WORDS)
            lines[i] = " ".join(words)
        elif op == "insert":
            lines.insert(i, " ".join(draw(st.lists(WORDS, max_size=4))))
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        if not lines:
            lines = [""]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=3)) + data[cut:]
    return data


@pytest.mark.slow
@FUZZ
@given(mutated())
def test_fuzz_mutations_of_a_real_match_file(data):
    check_read(data)


def test_the_unmutated_file_is_accepted_and_read_leaves_the_folder_alone(tmp_path):
    path = tmp_path / "x.match"
    path.write_text(VALID)
    before = files_in(tmp_path)
    m = check_read(VALID.encode())
    assert m is not None and m.actions == list(MATCH.journal)
    assert matchfile.read(str(path)) == (m.game, m.players, m.options, m.actions, 0)
    assert files_in(tmp_path) == before


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_read_from_a_file(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fuzz", numbered=True)
    path = folder / "x.match"
    path.write_bytes(data)
    try:
        got = matchfile.read(str(path))
    except matchfile.MatchFileError:
        got = None
    if got is not None:
        m = matchfile.parse(data)
        assert got == (m.game, m.players, m.options, m.actions, m.challenges)
    assert files_in(folder) == {"x.match": data}
