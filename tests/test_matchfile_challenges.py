"""A match file keeps the Dicefull challenge set it was played with: a
`challenges` header line (its word; none for the built-in set), written by
python -m sim --save, read by sim/matchfile.py, and checked against the set
on hand by every door that replays one (python -m sim --replay, python -m
sim.web --open and its page's open, python -m host_tools replay), so that a
match is never narrated with another set's challenges."""

import pytest
from test_dicefull_challenge_file import BUILT_IN, EXAMPLE, OWN, OWN_ROWS

from dicetable.games.dicefull import challenges as ch
from dicetable.games.dicefull import data
from host_tools.__main__ import main as tools_main
from sim import matchfile
from sim.__main__ import main as sim_main
from sim.web.__main__ import main as web_main
from sim.web.__main__ import parse_args, start

OWN_WORD = ch.word(OWN_ROWS)
OTHER_WORD = ch.word(ch.read(open(EXAMPLE, "rb"), "example"))  # the built-in rows, from a file
OWN_SET = "challenge set %05x from a file" % OWN_WORD
OTHER_SET = "challenge set %05x from a file" % OTHER_WORD
BUILT_IN_SET = "the built-in challenge set"
GIVE = "give its file with --challenges"
LEAVE = "leave out --challenges"


# Every test starts and ends with the built-in set in use (conftest.py).
pytestmark = pytest.mark.usefixtures("built_in_challenges")


@pytest.fixture
def files(tmp_path, capsys):
    """The set files and three saved matches: Dicefull with the own set and with
    the built-in one, and Walzer."""
    own = tmp_path / "own.txt"
    own.write_bytes(OWN)
    other = tmp_path / "other.txt"
    other.write_bytes(EXAMPLE.read_bytes())
    play = ["--players", "3", "--seed", "4", "--save"]
    f = {"own": str(own), "other": str(other)}
    for name, args in (
        ("own.match", ["--game", "dicefull", "--challenges", str(own)]),
        ("built-in.match", ["--game", "dicefull"]),
        ("walzer.match", ["--game", "walzer"]),
    ):
        f[name] = str(tmp_path / name)
        assert sim_main(args + play + [f[name]]) == 0
        data.CHALLENGES[:] = BUILT_IN
        data.SET_WORD = 0
    capsys.readouterr()
    return f


def test_a_file_set_is_one_header_line_and_the_built_in_set_none(files):
    with open(files["own.match"]) as f:
        own = f.read().splitlines()
    assert own[2:6] == ["game dicefull", "players 3", "options 0", "challenges %05x" % OWN_WORD]
    assert matchfile.read(files["own.match"])[4] == OWN_WORD
    with open(files["built-in.match"]) as f:
        assert "challenges" not in f.read()  # every file saved before sets reads the same
    assert matchfile.read(files["built-in.match"])[4] == 0


def test_a_match_saved_with_a_set_replays_to_the_same_transcript(files, capsys):
    args = ["--game", "dicefull", "--players", "3", "--seed", "4", "--challenges", files["own"]]
    assert sim_main(args) == 0
    played = capsys.readouterr().out.splitlines()
    assert sim_main(["--replay", files["own.match"], "--challenges", files["own"]]) == 0
    replayed = capsys.readouterr().out.splitlines()
    # The played match's header names its bots; the replay's says "replayed".
    assert (
        replayed[1]
        == played[1]
        == "challenges: 12 from %s (set %05x)"
        % (
            files["own"],
            OWN_WORD,
        )
    )
    assert replayed[2:] == played[3:]
    assert tools_main(["replay", files["own.match"], "--challenges", files["own"]]) == 0
    assert capsys.readouterr().out.splitlines() == replayed[:1] + replayed[2:]


def test_the_web_table_opens_a_match_saved_with_its_set(files):
    server, thread = start(
        parse_args(["--open", files["own.match"], "--challenges", files["own"], "--http-port", "0"])
    )
    try:
        session = server.session
        session.scrub({"to": 20})
        t = session.vt.table
        assert t.mode == "play" and len(t.match.journal) >= 20
        assert t.match.set_word == OWN_WORD  # resumed with the set, not refused
    finally:
        server.shutdown()
        thread.join(5)


# Each door's refusal of a match file played with another set than the one on
# hand: (file, set given, what the one line says after 'FILE: ').
MISMATCHES = [
    (
        "own.match",
        None,
        "played with %s, and the set here is %s (%s)" % (OWN_SET, BUILT_IN_SET, GIVE),
    ),
    (
        "own.match",
        "other",
        "played with %s, and the set here is %s (%s)" % (OWN_SET, OTHER_SET, GIVE),
    ),
    (
        "built-in.match",
        "own",
        "played with %s, and the set here is %s (%s)" % (BUILT_IN_SET, OWN_SET, LEAVE),
    ),
]
DOORS = {
    "sim": (sim_main, ["--replay", "M"], "python -m sim: error: "),
    "web": (web_main, ["--open", "M", "--http-port", "0"], "python -m sim.web: error: "),
    "host_tools": (tools_main, ["replay", "M"], "error: "),
}


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("name, given, said", MISMATCHES, ids=["none", "another", "built-in"])
def test_a_match_file_of_another_set_is_one_line_and_nothing_more(
    files, capsys, door, name, given, said
):
    main, args, prefix = DOORS[door]
    args = [files[name] if a == "M" else a for a in args]
    if given is not None:
        args += ["--challenges", files[given]]
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""  # no transcript, no page served
    assert err == "%s%s: %s\n" % (prefix, files[name], said)


def test_the_pages_open_refuses_a_match_of_another_set(files):
    from sim.web.requests import ActError
    from sim.web.session import Session

    with open(files["own.match"]) as f:
        text = f.read()
    session = Session()
    with pytest.raises(ActError) as e:
        session.open({"do": "open", "text": text, "name": "own.match"})
    assert str(e.value) == "own.match: played with %s, and the set here is %s (%s)" % (
        OWN_SET,
        BUILT_IN_SET,
        GIVE,
    )
    assert session.file is None


def test_another_games_match_file_with_a_set(files, capsys):
    """sim refuses --challenges with a Walzer file as it does with --game walzer;
    the web table and host_tools replay it (the set is for their Dicefull)."""
    walzer = files["walzer.match"]
    assert sim_main(["--replay", walzer, "--challenges", files["own"]]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "python -m sim: error: %s: a walzer match, and --challenges is a set of Dicefull's"
        " (leave it out)\n" % walzer
    )
    assert tools_main(["replay", walzer, "--challenges", files["own"]]) == 0
    assert capsys.readouterr().out.startswith("Walzer")


HEADER = "game dicefull\nplayers 3\noptions 0\n"
RIGHT = (
    "the challenge set's word, 1 to fffff in hex as the transcript names it, e.g. challenges 1a2b3"
)

# A bad `challenges` line: (text, 'LINE:COLUMN: message').
BAD_LINES = {
    "twice": (
        HEADER + "challenges 18ac6\nchallenges 18ac6\n",
        "5:1: a second 'challenges' line (line 4 gave it; the header names each once)",
    ),
    "after-an-action": (
        HEADER + "pick 0 448\nchallenges 18ac6\n",
        "5:1: a 'challenges' line after the actions (the header comes before them)",
    ),
    "in-a-walzer-file": (
        "game walzer\nplayers 4\noptions 0\nchallenges 18ac6\n",
        "4:1: a 'challenges' line in a walzer match file (only dicefull plays a challenge set)",
    ),
    "before-a-walzer-game-line": (
        "challenges 18ac6\ngame walzer\nplayers 4\noptions 0\n",
        "1:1: a 'challenges' line in a walzer match file (only dicefull plays a challenge set)",
    ),
    "not-a-number": (HEADER + "challenges set1\n", "4:12: 'set1' is not a number (%s)" % RIGHT),
    "0x": (HEADER + "challenges 0x18ac6\n", "4:12: '0x18ac6' is not a number (%s)" % RIGHT),
    "zero": (
        HEADER + "challenges 00000\n",
        "4:12: '00000' is out of range (%s; the built-in set writes no such line)" % RIGHT,
    ),
    "over-20-bits": (HEADER + "challenges 100000\n", "4:12: '100000' is out of range (%s)" % RIGHT),
    "no-value": (
        HEADER + "challenges\n",
        "4:11: 'challenges' needs a value (e.g. challenges 1a2b3)",
    ),
    "two-values": (
        HEADER + "challenges 18ac6 18ac6\n",
        "4:18: an extra word '18ac6' (a header line is 'challenges' and one value)",
    ),
    "capitals": (
        HEADER + "Challenges 18ac6\n",
        "4:1: 'Challenges' is not an action (words are lower case: 'challenges')",
    ),
}


@pytest.mark.parametrize("text, said", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_a_bad_challenges_line_is_refused_at_its_line_and_column(tmp_path, capsys, text, said):
    path = tmp_path / "x.match"
    path.write_text(text)
    assert sim_main(["--replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "python -m sim: error: %s:%s\n" % (path, said)


@pytest.mark.parametrize(
    "line", ["challenges 18AC6", "challenges 018ac6", "challenges\t18ac6  # the own set"]
)
def test_a_challenges_line_reads_as_it_means(line):
    """Capitals, leading zeros and a comment change nothing; nor does the line's
    place in the header."""
    m = matchfile.parse((HEADER + line + "\n").encode())
    assert m.challenges == 0x18AC6
    first = matchfile.parse((line + "\n" + HEADER).encode())
    assert first == m
