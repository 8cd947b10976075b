"""Dicefull's challenge set read from a file (issue 13): the format is the
built-in set's, the board's own reader checks it (one line for any problem,
nothing changed), and a match keeps the set it was played with through the
journal, the simulator, the lab, the table and the host tools."""

import io
import json
import pathlib
import re
import sys

import pytest
from test_app import DICEFULL, Driver, FakeStorage, reboot
from test_portable_subset import PORTABLE_IMPORTS, float_or_division, imported_modules

from dicetable.app.play import SET_RECORD
from dicetable.games import header
from dicetable.games.dicefull import challenges as ch
from dicetable.games.dicefull import data
from dicetable.games.dicefull import match as engine
from dicetable.games.dicefull import table as df_table
from flashmodel.vflash import VFlash
from host_tools.__main__ import main as tools_main
from sim import mpy_wasm
from sim.__main__ import main as sim_main
from sim.play import play, replay

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "dicefull-challenges.txt"
BUILT_IN = list(data.CHALLENGES)
MODULE = ROOT / "firmware" / "dicetable" / "games" / "dicefull" / "challenges.py"

# A set of its own: the built-in rows, then every row worth 9 VP more.
OWN_ROWS = [row[:4] + (row[4] + 9,) for row in BUILT_IN[:12]]
VALUE_NAMES = {v: n.decode() for v, n in zip(ch.FACES, ch.FACE_NAMES, strict=True)}


def text_of(rows):
    """Rows in the file's words, as a designer writes them."""
    lines = []
    for family, test, k, v, vp in rows:
        v_word = VALUE_NAMES.get(v, str(v)) if test >= data.COUNT_AT_LEAST else str(v)
        names = ch.FAMILIES[family].decode(), ch.TESTS[test].decode()
        lines.append("%s, %s, %d, %s, %d" % (names + (k, v_word, vp)))
    return "\n".join(lines) + "\n"


OWN = text_of(OWN_ROWS).encode()


# Every test starts and ends with the built-in set in use (conftest.py).
pytestmark = pytest.mark.usefixtures("built_in_challenges")


def read_bytes(raw, name="set.txt"):
    return ch.read(io.BytesIO(raw), name)


# --- the format ----------------------------------------------------------------------


def test_the_built_in_set_written_out_reads_back_identical():
    assert read_bytes(text_of(BUILT_IN).encode()) == BUILT_IN


def test_the_example_file_is_the_built_in_set():
    with open(EXAMPLE, "rb") as f:
        assert ch.read(f, str(EXAMPLE)) == BUILT_IN


def test_rows_pasted_from_data_py_read_too():
    source = (ROOT / "firmware/dicetable/games/dicefull/data.py").read_text()
    rows = source.split("CHALLENGES = [\n")[1].split("\n]")[0]
    assert "(COMPARE, MOST_TOTAL, 0, 0, 2),  # highest total" in rows
    assert read_bytes(rows.encode()) == BUILT_IN


def test_comments_blank_lines_crlf_and_a_last_line_without_its_end():
    text = "# my set\r\n\r\n" + text_of(OWN_ROWS).replace("\n", "  # why\r\n").rstrip("\r\n")
    assert read_bytes(text.encode()) == OWN_ROWS
    # a comment is never decoded: any bytes (latin-1, UTF-8 Japanese) are fine there
    raw = b"# caf\xe9\n" + "# お題カード\n".encode() + OWN
    assert read_bytes(raw) == OWN_ROWS


def test_the_words_name_the_constants_of_data_py():
    assert [getattr(data, n.decode()) for n in ch.FAMILIES] == list(range(data.FAMILY_COUNT))
    assert [getattr(data, n.decode()) for n in ch.TESTS] == list(range(data.TEST_COUNT))
    assert [getattr(data, n.decode()) for n in ch.FACE_NAMES] == list(ch.FACES)
    assert len(ch._K_RULE) == len(ch._V_RULE) == data.TEST_COUNT


def test_the_set_word_tells_sets_apart_and_is_never_zero():
    assert ch.word(BUILT_IN) == 0x5DBA9
    assert ch.word(OWN_ROWS) != ch.word(BUILT_IN)
    assert ch.word(BUILT_IN[::-1]) != ch.word(BUILT_IN)  # the order is the REVEAL numbers
    assert 0 < ch.word([]) <= 0xFFFFF


# --- what a bad file is told ------------------------------------------------------------


def distinct(n, first=301):
    """n rows, no two the same challenge: a total of 30.1 or more, 30.2, ..."""
    return "".join("TOTALS, TOTAL_AT_LEAST, %d, 0, 2\n" % k for k in range(first, first + n))


GOOD = distinct(11)  # a twelfth row makes a set
FORTY_FOUR = distinct(44)

BAD = [
    ("COMPARE, MOST_TOTAL, 0, 0\n", "set.txt:1: 4 fields, not 5"),
    ("COMPARE\n", "set.txt:1: 1 field, not 5"),
    ("CHESS, MOST_TOTAL, 0, 0, 2\n", "set.txt:1: unknown family 'CHESS' (one of COMPARE"),
    ("compare, MOST_TOTAL, 0, 0, 2\n", "set.txt:1: unknown family 'compare'"),
    ("COMPARE, MOST_DICE, 0, 0, 2\n", "set.txt:1: unknown test 'MOST_DICE' (one of MOST_TOTAL"),
    ("COMPARE, MOST_TOTAL, 5, 0, 2\n", "set.txt:1: k '5' for MOST_TOTAL: it takes 0"),
    ("COMPARE, CLOSEST_TOTAL, 21.0, 0, 2\n", "set.txt:1: k '21.0' for CLOSEST_TOTAL: it takes a"),
    ("COMPARE, CLOSEST_TOTAL, 100000, 0, 2\n", "-99999 to 99999"),
    ("TOTALS, TOTAL_MULTIPLE, 0, 0, 2\n", "set.txt:1: k '0' for TOTAL_MULTIPLE: it takes a"),
    ("FACES, SAME_AT_LEAST, 17, 0, 2\n", "a roll holds at most 16 results"),
    ("FACES, ALL_DIFFERENT, 0, 0, 2\n", "k '0' for ALL_DIFFERENT: it takes a count, 1 to 16"),
    ("HIGH_LOW, ALL_AT_LEAST, 40, 17, 2\n", "v '17' for ALL_AT_LEAST: it takes a count, 0 to 16"),
    ("FACES, COUNT_AT_LEAST, 1, PURPLE, 2\n", "v 'PURPLE' for COUNT_AT_LEAST: it takes a number"),
    ("FACES, COUNT_AT_LEAST, 1, 10100, 2\n", "v '10100' for COUNT_AT_LEAST"),
    ("FACES, COUNT_EXACTLY, 17, RED, 2\n", "k '17' for COUNT_EXACTLY"),
    ("TOTALS, TOTAL_AT_LEAST, 300, RED, 2\n", "v 'RED' for TOTAL_AT_LEAST: it takes 0"),
    ("TOTALS, TOTAL_AT_LEAST, 300, 0, 0\n", "set.txt:1: vp '0': a whole number of victory"),
    ("TOTALS, TOTAL_AT_LEAST, 300, 0, 100\n", "vp '100'"),
    ("TOTALS, TOTAL_AT_LEAST, 300, 0, two\n", "vp 'two'"),
    ("TOTALS, TOTAL_AT_LEAST, ３00, 0, 2\n", "k '３00'"),
    ("x" * 121 + "\n", "set.txt:1: a line over 120 bytes"),
    (b"TOTALS, TOTAL_AT_L\xc9AST, 300, 0, 2\n", "unknown test b'TOTAL_AT_L\\xc9AST'"),
    ("TOTALS, TOTAL_AT_LÉAST, 300, 0, 2\n", "unknown test 'TOTAL_AT_LÉAST'"),
    ("", "set.txt: 0 challenges, too few (at least 12"),
    ("# only a comment\n", "set.txt: 0 challenges, too few"),
    (GOOD, "set.txt: 11 challenges, too few"),
    (FORTY_FOUR, "set.txt:41: a challenge over the 40 a set may hold"),
]


def raw_of(text):
    """A bad case's bytes: the problem on line 1, a whole set after it."""
    raw = text if isinstance(text, bytes) else text.encode()
    if text not in ("", GOOD, FORTY_FOUR) and not raw.startswith(b"#"):
        raw = raw + GOOD.encode()
    return raw


@pytest.mark.parametrize("text, said", BAD, ids=[b[1][:40] for b in BAD])
def test_a_bad_file_is_one_line_and_changes_nothing(text, said):
    with pytest.raises(ValueError) as e:
        read_bytes(raw_of(text))
    message = str(e.value)
    assert "\n" not in message and said in message
    assert data.CHALLENGES == BUILT_IN and data.SET_WORD == 0


# Every rule, each message whole: the problem on line 3 (after a comment and a
# good row), a whole set after it.  What each field takes:
ZERO = "0 (the test does not read it)"
NUMBER = "a whole number of tenths, -99999 to 99999 (15 is 1.5)"
POSITIVE = "a whole number of tenths, 1 to 99999 (15 is 1.5; a multiple of 0 is none)"
COUNT = "a count, 1 to 16 (a roll holds at most 16 results)"
COUNT0 = "a count, 0 to 16 (a roll holds at most 16 results)"
FACE = (
    "a number of tenths below 10000 or a face: "
    "BLANK, PLUS, MINUS, RED, BLACK, ANY_NUMBER, ANY_COLOUR, NO_VALUE"
)
VP = "a whole number of victory points, 1 to 99"
HEAD = "# my set\nCOMPARE, MOST_TOTAL, 0, 0, 2\n"

OUT_OF_RANGE = [
    ("k-unread", "COMPARE, LEAST_TOTAL, 1, 0, 2", "k '1' for LEAST_TOTAL: it takes " + ZERO),
    ("k-over", "COMPARE, CLOSEST_TOTAL, 100000, 0, 2", "k '100000' for CLOSEST_TOTAL: it takes "),
    (
        "k-under",
        "HIGH_LOW, HIGH_AT_LEAST, -100000, 0, 1",
        "k '-100000' for HIGH_AT_LEAST: it takes ",
    ),
    (
        "k-7-digits",
        "TOTALS, TOTAL_AT_MOST, 1000000, 0, 1",
        "k '1000000' for TOTAL_AT_MOST: it takes ",
    ),
    ("multiple-0", "TOTALS, TOTAL_MULTIPLE, 0, 0, 2", "k '0' for TOTAL_MULTIPLE: it takes "),
    ("multiple-neg", "TOTALS, TOTAL_MULTIPLE, -5, 0, 2", "k '-5' for TOTAL_MULTIPLE: it takes "),
    (
        "multiple-over",
        "TOTALS, TOTAL_MULTIPLE, 100000, 0, 2",
        "k '100000' for TOTAL_MULTIPLE: it takes ",
    ),
    ("same-0", "FACES, SAME_AT_LEAST, 0, 0, 1", "k '0' for SAME_AT_LEAST: it takes " + COUNT),
    ("same-17", "FACES, SAME_AT_LEAST, 17, 0, 1", "k '17' for SAME_AT_LEAST: it takes " + COUNT),
    ("different-0", "FACES, ALL_DIFFERENT, 0, 0, 2", "k '0' for ALL_DIFFERENT: it takes " + COUNT),
    ("different-17", "FACES, ALL_DIFFERENT, 17, 0, 2", "k '17' for ALL_DIFFERENT: it takes "),
    ("count-0", "FACES, COUNT_AT_LEAST, 0, RED, 1", "k '0' for COUNT_AT_LEAST: it takes " + COUNT),
    ("count-17", "FACES, COUNT_AT_LEAST, 17, RED, 1", "k '17' for COUNT_AT_LEAST: it takes "),
    ("exactly-neg", "SPECIAL, COUNT_EXACTLY, -1, RED, 1", "k '-1' for COUNT_EXACTLY: it takes "),
    ("exactly-17", "SPECIAL, COUNT_EXACTLY, 17, RED, 1", "k '17' for COUNT_EXACTLY: it takes "),
    ("all-v-neg", "HIGH_LOW, ALL_AT_LEAST, 40, -1, 2", "v '-1' for ALL_AT_LEAST: it takes "),
    ("all-v-17", "HIGH_LOW, ALL_AT_MOST, 20, 17, 2", "v '17' for ALL_AT_MOST: it takes "),
    ("v-unread", "TOTALS, TOTAL_AT_LEAST, 300, 1, 2", "v '1' for TOTAL_AT_LEAST: it takes " + ZERO),
    (
        "face-symbol",
        "FACES, COUNT_AT_LEAST, 1, 10000, 1",
        "v '10000' for COUNT_AT_LEAST: it takes ",
    ),
    (
        "face-under",
        "FACES, COUNT_AT_LEAST, 1, -100000, 1",
        "v '-100000' for COUNT_AT_LEAST: it takes ",
    ),
    ("face-name", "FACES, COUNT_EXACTLY, 1, GREEN, 1", "v 'GREEN' for COUNT_EXACTLY: it takes "),
    ("vp-0", "TOTALS, TOTAL_AT_LEAST, 300, 0, 0", "vp '0': " + VP),
    ("vp-100", "TOTALS, TOTAL_AT_LEAST, 300, 0, 100", "vp '100': " + VP),
    ("vp-neg", "TOTALS, TOTAL_AT_LEAST, 300, 0, -1", "vp '-1': " + VP),
    ("vp-empty", "TOTALS, TOTAL_AT_LEAST, 300, 0, ,", "vp '': " + VP),
]
# The rest of each message: what the field takes.
TAKES = {
    "k-over": NUMBER,
    "k-under": NUMBER,
    "k-7-digits": NUMBER,
    "multiple-0": POSITIVE,
    "multiple-neg": POSITIVE,
    "multiple-over": POSITIVE,
    "different-17": COUNT,
    "count-17": COUNT,
    "exactly-neg": COUNT0,
    "exactly-17": COUNT0,
    "all-v-neg": COUNT0,
    "all-v-17": COUNT0,
    "face-symbol": FACE,
    "face-under": FACE,
    "face-name": FACE,
}

# No challenge twice: the same test, k and v, however the row is written, its
# family and vp aside.  (text, the line of the second, the line of the first)
TWICE = [
    ("same-row", HEAD + "COMPARE, MOST_TOTAL, 0, 0, 2\n", 3, 2),
    ("spacing", HEAD + "\tCOMPARE ,MOST_TOTAL,0 ,  0,2   \n", 3, 2),
    ("brackets-comma", HEAD + "(COMPARE, MOST_TOTAL, 0, 0, 2),  # again\n", 3, 2),
    ("crlf", HEAD.replace("\n", "\r\n") + "COMPARE, MOST_TOTAL, 0, 0, 2\r\n", 3, 2),
    (
        "leading-zeros",
        HEAD + "TOTALS, TOTAL_AT_LEAST, 0300, 0, 2\nTOTALS, TOTAL_AT_LEAST, 300, 000, 02\n",
        4,
        3,
    ),
    (
        "minus-zero",
        HEAD + "SPECIAL, TOTAL_EXACTLY, 0, 0, 2\nSPECIAL, TOTAL_EXACTLY, -0, -0, 2\n",
        4,
        3,
    ),
    ("another-family", HEAD + "TOTALS, MOST_TOTAL, 0, 0, 2\n", 3, 2),
    ("another-vp", HEAD + "COMPARE, MOST_TOTAL, 0, 0, 3\n", 3, 2),
    (
        "face-word",
        HEAD + "FACES, COUNT_AT_LEAST, 1, RED, 1\n\n# again:\nFACES, COUNT_AT_LEAST, 01, RED, 1\n",
        6,
        3,
    ),
    (
        "all-v-0-is-1",
        HEAD + "HIGH_LOW, ALL_AT_LEAST, 40, 0, 2\nHIGH_LOW, ALL_AT_LEAST, 40, 1, 2\n",
        4,
        3,
    ),
    (
        "all-v-1-is-0",
        HEAD + "HIGH_LOW, ALL_AT_MOST, 20, 1, 2\nHIGH_LOW, ALL_AT_MOST, 20, 0, 2\n",
        4,
        3,
    ),
    ("last-of-40", distinct(39) + "TOTALS, TOTAL_AT_LEAST, 301, 0, 9\n", 40, 1),
    ("copies-of-one-row", "TOTALS, TOTAL_AT_LEAST, 300, 0, 2\n" * 20, 2, 1),
]
TWICE_SAID = (
    "set.txt:%d: the same challenge as line %d: the same test, k and v"
    " (a set holds each challenge once, whatever its family and vp)"
)
# Rows that are alike but not the same challenge.
NOT_TWICE = [
    "COMPARE, MOST_TOTAL, 0, 0, 2\nCOMPARE, LEAST_TOTAL, 0, 0, 2\n",
    "HIGH_LOW, ALL_AT_LEAST, 40, 1, 2\nHIGH_LOW, ALL_AT_LEAST, 40, 2, 2\n",
    "HIGH_LOW, ALL_AT_LEAST, 40, 3, 2\nHIGH_LOW, ALL_AT_MOST, 40, 3, 2\n",
    "FACES, COUNT_AT_LEAST, 1, RED, 1\nFACES, COUNT_EXACTLY, 1, RED, 1\n",
    "FACES, COUNT_AT_LEAST, 1, RED, 1\nFACES, COUNT_AT_LEAST, 1, BLACK, 1\n",
    "FACES, COUNT_AT_LEAST, 1, 10, 1\nFACES, COUNT_AT_LEAST, 1, -10, 1\n",
    "SPECIAL, COUNT_EXACTLY, 0, ANY_NUMBER, 2\nSPECIAL, COUNT_EXACTLY, 0, 0, 2\n",
]
# Each bound, just in range.
AT_THE_BOUNDS = [
    "COMPARE, CLOSEST_TOTAL, 99999, 0, 1",
    "COMPARE, CLOSEST_TOTAL, -99999, 0, 1",
    "TOTALS, TOTAL_MULTIPLE, 1, 0, 99",
    "TOTALS, TOTAL_MULTIPLE, 99999, 0, 1",
    "FACES, SAME_AT_LEAST, 16, 0, 1",
    "FACES, ALL_DIFFERENT, 1, 0, 1",
    "SPECIAL, COUNT_EXACTLY, 16, 9999, 1",
    "SPECIAL, COUNT_EXACTLY, 0, -99999, 1",
    "HIGH_LOW, ALL_AT_MOST, 20, 16, 1",
    "FACES, COUNT_AT_LEAST, 16, NO_VALUE, 1",
]


def refused_on_line_3(row):
    return (HEAD + row + "\n" + GOOD).encode()


def assert_refused_and_nothing_changed(raw, said):
    """read() refuses `raw` with exactly `said`; the board's load() says so in
    one line and the set in use (a file's, OWN_ROWS) stays."""
    with pytest.raises(ValueError) as e:
        read_bytes(raw)
    assert str(e.value) == said
    ch.use(OWN_ROWS)

    class FS:
        def open(self, path, mode):
            return io.BytesIO(raw)

    lines = []
    ch.load(FS(), "set.txt", lines.append)
    assert lines == ["challenges not read: %s; the set in use stays" % said]
    assert data.CHALLENGES == OWN_ROWS and data.SET_WORD == ch.word(OWN_ROWS)


@pytest.mark.parametrize("case, row, said", OUT_OF_RANGE, ids=[c[0] for c in OUT_OF_RANGE])
def test_every_field_out_of_range_is_its_line_and_changes_nothing(case, row, said):
    said = "set.txt:3: " + said + TAKES.get(case, "")
    assert_refused_and_nothing_changed(refused_on_line_3(row), said)


@pytest.mark.parametrize("text, line, first", [c[1:] for c in TWICE], ids=[c[0] for c in TWICE])
def test_a_challenge_twice_is_refused_at_its_second_line(text, line, first):
    raw = text.encode() + GOOD.encode()
    assert_refused_and_nothing_changed(raw, TWICE_SAID % (line, first))


@pytest.mark.parametrize(
    "case, text, said",
    [
        (
            "line-over-120",
            HEAD + "#" * 121 + "\n" + GOOD,
            "set.txt:3: a line over 120 bytes (one challenge a line)",
        ),
        ("a-41st", FORTY_FOUR, "set.txt:41: a challenge over the 40 a set may hold"),
        (
            "too-few",
            HEAD + distinct(10),
            "set.txt: 11 challenges, too few (at least 12: the longest game takes 12, none twice)",
        ),
        (
            "fields",
            HEAD + "COMPARE, MOST_TOTAL, 0, 0\n" + GOOD,
            "set.txt:3: 4 fields, not 5 (family, test, k, v, vp, e.g."
            " TOTALS, TOTAL_AT_LEAST, 300, 0, 2)",
        ),
    ],
)
def test_the_file_as_a_whole_is_checked_and_changes_nothing(case, text, said):
    assert_refused_and_nothing_changed(text.encode(), said)


@pytest.mark.parametrize("text", NOT_TWICE)
def test_alike_rows_that_are_not_the_same_challenge_are_taken(text):
    rows = read_bytes((text + GOOD[: -len(GOOD) // 11]).encode())
    assert len(rows) == 12


def test_every_bound_just_in_range_is_taken():
    raw = ("\n".join(AT_THE_BOUNDS) + "\n" + distinct(2)).encode()
    assert len(read_bytes(raw)) == 12


def test_use_puts_the_rows_in_the_lists_every_part_reads():
    from dicetable.games.dicefull import rules

    ch.use(OWN_ROWS)
    assert rules.CHALLENGES is data.CHALLENGES and rules.CHALLENGES == OWN_ROWS
    assert data.SET_WORD == ch.word(OWN_ROWS)
    m = engine.new(3)
    assert m.set_word == ch.word(OWN_ROWS) and len(m.used) == len(OWN_ROWS)


# --- the board's interpreter ----------------------------------------------------------------

MPY_SCRIPT = """
import io
from dicetable.games.dicefull import challenges as ch, data
for raw in %r:
    try:
        rows = ch.read(io.BytesIO(raw), "set.txt")
        print(len(rows), ch.word(rows), rows == data.CHALLENGES)
    except ValueError as e:
        print(e)
"""


@pytest.mark.slow
def test_the_reader_gives_the_same_on_micropython():
    cases = [EXAMPLE.read_bytes(), OWN] + [raw_of(t) for t, _ in BAD]
    cases += [refused_on_line_3(row) for _, row, _ in OUT_OF_RANGE]
    cases += [(text + GOOD).encode() for _, text, _, _ in TWICE]
    expected = []
    for raw in cases:
        try:
            rows = read_bytes(raw)
            expected.append("%d %d %s" % (len(rows), ch.word(rows), rows == BUILT_IN))
        except ValueError as e:
            expected.append(str(e))
    assert mpy_wasm.run(MPY_SCRIPT % (cases,)).splitlines() == expected


def test_the_reader_stays_in_the_portable_subset():
    import ast

    tree = ast.parse(MODULE.read_text())
    assert list(float_or_division(tree)) == []
    # sys: load() forgets the module, as the app forgets its menu (MicroPython has it)
    allowed = PORTABLE_IMPORTS | {"sys"}
    assert [n for _, n in imported_modules(tree) if n.split(".")[0] not in allowed] == []


# --- the simulator and the lab ----------------------------------------------------------------


def own_file(tmp_path, raw=OWN):
    path = tmp_path / "own.txt"
    path.write_bytes(raw)
    return str(path)


def test_sim_plays_a_file_set_and_names_it(tmp_path, capsys):
    path = own_file(tmp_path)
    assert sim_main(["--game", "dicefull", "--players", "3", "--challenges", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "challenges: 12 from %s (set %05x)" % (path, ch.word(OWN_ROWS))
    assert re.search(r", 1[0-2] VP\)", "\n".join(out))  # the file's challenges are revealed


def test_a_file_set_changes_the_match_and_the_built_in_plays_as_before():
    before = play("dicefull", 3, 0, ["heuristic"] * 3, 7)
    ch.use(OWN_ROWS)
    own = play("dicefull", 3, 0, ["heuristic"] * 3, 7)
    assert sum(own.totals) > sum(before.totals)  # every challenge 9 VP more
    data.CHALLENGES[:] = BUILT_IN
    assert play("dicefull", 3, 0, ["heuristic"] * 3, 7).totals == before.totals


@pytest.mark.slow
def test_a_batch_with_a_file_set_is_the_same_on_any_number_of_jobs(tmp_path, capsys):
    path = own_file(tmp_path)
    args = ["--game", "dicefull", "--challenges", path, "--matches", "12"]
    assert sim_main(args + ["--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert sim_main(args + ["--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
    assert "challenges: 12 from %s" % path in one


@pytest.mark.parametrize(
    "args, said",
    [
        (
            ["--game", "walzer", "--challenges", "F"],
            "argument --challenges: only with --game dicefull",
        ),
        (["--game", "dicefull", "--challenges", " "], "argument --challenges: an empty file name"),
        (["--replay", "x.match", "--challenges", ""], "argument --challenges: an empty file name"),
    ],
)
def test_sim_refuses_challenges_where_they_mean_nothing(tmp_path, capsys, args, said):
    path = own_file(tmp_path)
    assert sim_main([path if a == "F" else a for a in args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


FILE_CASES = (
    BAD[:3] + BAD[-3:-1] + [(TWICE[0][1] + GOOD, "set.txt:3: the same challenge as line 2")]
)


@pytest.mark.parametrize("text, said", FILE_CASES, ids=[b[1][:30] for b in FILE_CASES])
def test_sim_and_balance_refuse_a_bad_file_before_anything(tmp_path, capsys, text, said):
    path = own_file(tmp_path, text.encode())
    out = tmp_path / "report"
    for args in (
        ["--game", "dicefull", "--challenges", path],
        ["--game", "dicefull", "--challenges", path, "--matches", "3"],
        [
            "balance",
            "--game",
            "dicefull",
            "--matches",
            "2",
            "--challenges",
            path,
            "--out",
            str(out),
        ],
    ):
        assert sim_main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said.replace("set.txt", "own.txt") in err
    assert not out.exists()
    assert sim_main(["--game", "dicefull", "--challenges", str(tmp_path / "none.txt")]) == 1
    assert "none.txt: no such file" in capsys.readouterr().err
    assert sim_main(["--game", "dicefull", "--challenges", str(tmp_path)]) == 1
    assert "a folder, not a challenge set" in capsys.readouterr().err


def test_the_balance_report_says_which_set(tmp_path, capsys):
    path = own_file(tmp_path)
    out = tmp_path / "report"
    args = ["balance", "--game", "dicefull", "--players", "3", "--matches", "4"]
    assert sim_main(args + ["--challenges", path, "--out", str(out), "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["challenges"] == "12 from %s (set %05x)" % (path, ch.word(OWN_ROWS))
    assert "--challenges %s" % path in summary["command"]
    assert capsys.readouterr().out.startswith("challenges: 12 from")


# --- the table -------------------------------------------------------------------------


class FlashStorage(FakeStorage):
    """The fake journal, with a filesystem beside it holding the set file."""

    def __init__(self, raw=None):
        super().__init__()
        self.fs = VFlash({} if raw is None else {df_table.SET_FILE: bytearray(raw)})


def started(raw, steps=20):
    storage = FlashStorage(raw)
    d = Driver(storage=storage)
    storage.registry = list(__import__("test_app").REGISTRY)
    d.start(DICEFULL, [0, 1, 2])
    for _ in range(steps):
        d.step()
    return d


def test_the_table_plays_the_set_on_its_flash_and_journals_which():
    d = started(OWN)
    word = ch.word(OWN_ROWS)
    assert "challenges: 12 from dicefull.txt (set %05x)" % word in d.lines
    assert d.storage.words[2] == SET_RECORD | word
    assert data.CHALLENGES == OWN_ROWS and d.match.set_word == word
    assert "dicetable.games.dicefull.challenges" not in sys.modules  # read, then forgotten
    t, lines = reboot(d)
    assert t.mode == "play" and len(t.match.journal) == len(d.match.journal)


def test_the_table_without_a_file_journals_no_set_record():
    d = started(None)
    assert d.storage.words[2] >> 20 not in (SET_RECORD >> 20,)
    assert not any(line.startswith("challenges") for line in d.lines)


def test_a_bad_file_on_the_table_is_one_line_and_the_built_in_set_plays():
    d = started(b"COMPARE, MOST_TOTAL, 0, 0\n")
    said = [line for line in d.lines if line.startswith("challenges")]
    assert said == [
        "challenges not read: dicefull.txt:1: 4 fields, not 5 (family, test, k, v, vp, e.g."
        " TOTALS, TOTAL_AT_LEAST, 300, 0, 2); the set in use stays"
    ]
    assert data.CHALLENGES == BUILT_IN and d.match.set_word == 0
    assert "dicetable.games.dicefull.challenges" not in sys.modules


@pytest.mark.parametrize("then", ["another", "none"])
def test_a_match_never_resumes_with_another_set(then):
    d = started(OWN)
    word = ch.word(OWN_ROWS)
    data.CHALLENGES[:] = BUILT_IN  # a power cut: the modules load afresh
    data.SET_WORD = 0
    if then == "none":
        del d.storage.fs.files[df_table.SET_FILE]
        here = "the built-in set"
    else:
        d.storage.fs.files[df_table.SET_FILE] = bytearray(text_of(BUILT_IN[:13]).encode())
        here = "set %05x from a file" % ch.word(BUILT_IN[:13])
    kept = list(d.storage.words)
    t, lines = reboot(d)
    assert (
        "journal not resumed: played with set %05x from a file, the table has %s;"
        " choose a new match" % (word, here) in lines
    )
    assert t.mode == "menu" and t.match is None and d.storage.words == kept


def test_a_journal_without_the_record_resumes_only_with_the_built_in_set():
    d = started(None)
    d.storage.fs.files[df_table.SET_FILE] = bytearray(OWN)
    t, lines = reboot(d)
    assert (
        "journal not resumed: played with the built-in set, the table has set %05x from a file;"
        " choose a new match" % ch.word(OWN_ROWS) in lines
    )
    del d.storage.fs.files[df_table.SET_FILE]
    data.CHALLENGES[:] = BUILT_IN
    data.SET_WORD = 0
    t, lines = reboot(d)
    assert t.mode == "play" and len(t.match.journal) == len(d.match.journal)


# --- the host tools ---------------------------------------------------------------------


def test_host_tools_check_says_the_set_or_its_first_problem(tmp_path, capsys):
    assert tools_main(["challenges", "check", own_file(tmp_path)]) == 0
    assert "12 from" in capsys.readouterr().out
    bad = own_file(tmp_path, b"COMPARE\n")
    assert tools_main(["challenges", "check", bad]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "own.txt:1: 1 field, not 5" in err


def test_host_tools_replay_names_a_journal_of_another_set(tmp_path, capsys):
    from host_tools.backup import check_journal, encode

    ch.use(OWN_ROWS)
    m = play("dicefull", 3, 0, ["heuristic"] * 3, 5)
    words = [0xF00007, 0xE00001, SET_RECORD | ch.word(OWN_ROWS)] + list(m.journal)
    image = encode(header(m), words)
    data.CHALLENGES[:] = BUILT_IN
    data.SET_WORD = 0
    journal = tmp_path / "journal.bin"
    journal.write_bytes(image)
    assert tools_main(["replay", str(journal)]) == 1
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and (
            "journal.bin: played with challenge set %05x from a file, and the set here is the"
            " built-in challenge set (give its file with --challenges)" % ch.word(OWN_ROWS)
        )
        in err
    )
    assert "3 players, %d actions" % len(m.journal) in check_journal(image)  # backup, restore
    assert tools_main(["replay", str(journal), "--challenges", own_file(tmp_path)]) == 0
    expected = []
    replay("dicefull", 3, 0, list(m.journal), expected)  # the set is OWN_ROWS again
    assert capsys.readouterr().out == "".join(line + "\n" for line in expected)


@pytest.fixture
def vboard(tmp_path):
    vb = pytest.importorskip("sim.vboard")
    flash = tmp_path / "flash"
    flash.mkdir()
    with vb.VirtualBoard(flash) as board:
        yield board


@pytest.mark.slow
def test_host_tools_put_and_remove_on_the_virtual_board(vboard, tmp_path, capsys):
    from host_tools.board import Board

    url = vboard.url
    good = own_file(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"COMPARE\n")
    assert tools_main(["challenges", "put", str(bad), "--port", "socket://127.0.0.1:9"]) == 1
    assert "bad.txt:1: 1 field, not 5" in capsys.readouterr().err  # before any board
    assert tools_main(["challenges", "put", good, "--port", url, "--no-reset"]) == 0
    assert "is now 12 from" in capsys.readouterr().err
    with Board(url) as b:
        assert b.read(df_table.SET_FILE) == OWN
    assert tools_main(["challenges", "put", good, "--port", url, "--no-reset"]) == 0
    assert "nothing was written" in capsys.readouterr().err
    other = own_file(tmp_path, EXAMPLE.read_bytes())
    assert tools_main(["challenges", "put", other, "--port", url, "--no-reset"]) == 1
    assert "give --replace" in capsys.readouterr().err
    with Board(url) as b:
        assert b.read(df_table.SET_FILE) == OWN  # not overwritten unasked
    real_read = Board.read
    try:  # a flash that keeps other bytes than it was given
        Board.read = lambda self, path: b"#" + real_read(self, path)
        assert tools_main(["challenges", "put", good, "--port", url, "--replace"]) == 1
        assert "read back from the board differs" in capsys.readouterr().err
    finally:
        Board.read = real_read
    assert tools_main(["challenges", "put", other, "--port", url, "--replace", "--no-reset"]) == 0
    assert tools_main(["challenges", "remove", "--port", url, "--no-reset"]) == 0
    with Board(url) as b:
        assert not b.exists(df_table.SET_FILE)
    capsys.readouterr()


# --- the web table ---------------------------------------------------------------------------


def test_the_web_table_takes_a_set_and_refuses_a_bad_one(tmp_path, capsys):
    from sim.web.__main__ import main as web_main
    from sim.web.__main__ import parse_args, start

    bad = own_file(tmp_path, b"COMPARE\n")
    assert web_main(["--challenges", bad, "--http-port", "0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "own.txt:1: 1 field, not 5" in err
    assert data.CHALLENGES == BUILT_IN
    server, thread = start(parse_args(["--challenges", own_file(tmp_path), "--http-port", "0"]))
    try:
        assert data.CHALLENGES == OWN_ROWS and data.SET_WORD == ch.word(OWN_ROWS)
    finally:
        server.shutdown()
        thread.join(5)


# --- the heap -------------------------------------------------------------------------------

READ_ALLOCATION = """
import gc, io
import dicetable.match.engine
import dicetable.games.dicefull.data as d
#: next run
f = io.BytesIO(RAW)
before = gc.mem_alloc()
import dicetable.games.dicefull.challenges as ch
imported = gc.mem_alloc()
rows = ch.read(f, "dicefull.txt")
print(imported - before, gc.mem_alloc() - imported, len(rows))
"""


@pytest.mark.slow
def test_reading_the_example_allocates_little_on_micropython(capsys):
    script = READ_ALLOCATION.replace("RAW", repr(EXAMPLE.read_bytes()))
    module, reading, rows = (int(x) for x in mpy_wasm.run(script).split())
    with capsys.disabled():
        print("\nreader module %d B, reading the example %d B (%d rows)" % (module, reading, rows))
    assert rows == len(BUILT_IN) and reading < 8192  # a line allocates nothing but its row


SET_IN_PLACE = """
import gc, io, sys, micropython
import dicetable.match.engine
import dicetable.games.dicefull.rules
import dicetable.games.dicefull.data as d
from dicetable.app.table import forget_module
DATA = bytes(bytearray(RAW))
#: next run
print(gc.mem_alloc())
micropython.qstr_info()
#: next run
class FS:
    def open(self, path, mode):
        return io.BytesIO(DATA)
def say(line):
    print(line)
# As dicefull/table.py's prepare() reads a set: load(), then the reader forgotten.
__import__("dicetable.games.dicefull.challenges", None, None, ("x",)).load(FS(), "f", say)
forget_module("dicetable.games.dicefull.challenges")
FS = say = None
#: next run
print(gc.mem_alloc())
micropython.qstr_info()
print("dicetable.games.dicefull.challenges" in sys.modules)
"""


@pytest.mark.slow
def test_a_file_set_takes_the_built_in_rows_place_on_micropython(capsys):
    # The live heap after a file set is used, less the string pool (the
    # reader's names grow it by a block that later names fill): the built-in
    # rows are freed, so a set of as many rows costs next to nothing.
    raw = EXAMPLE.read_bytes().replace(b", 2  #", b", 3  #")  # 22 rows, some new
    out = mpy_wasm.run(SET_IN_PLACE.replace("RAW", repr(raw))).splitlines()
    pools = [int(line.rsplit("n_total_bytes=", 1)[1]) for line in out if "n_total_bytes" in line]
    before, after = int(out[0]) - pools[0], int(out[3]) - pools[1]
    with capsys.disabled():
        print(
            "\nlive heap less the string pool: %d B before a set of 22 rows, %d after"
            % (before, after)
        )
    assert out[2].startswith("challenges: 22 from f") and out[-1] == "False"
    # Rows kept beside the built-in ones would cost their ~5.7 KB
    # (test_reading_the_example_allocates_little_on_micropython prints it);
    # what is left is where a dict's growth falls: 76-204 B, as a module
    # attribute or a sys.modules entry added before the set moves it.
    assert after - before < 512


MENU = "before = gc.mem_alloc()\nstart(GAME"


@pytest.mark.slow
def test_a_match_with_the_example_file_stays_within_the_heap_limit(monkeypatch, capsys):
    """tools/bench/bench_heap.py's Dicefull match with the example file on the
    virtual flash: the set is read (prepare) in a part of its own before the
    menu starts the match (this build collects garbage only between parts),
    then the file is taken away so the menu does not read it again; the set
    stays in use, as on the board, and the journal has its SET record."""
    import bench_heap
    from test_app_heap import LIVE_SHARE

    plain = bench_heap.script
    raw = EXAMPLE.read_bytes()

    def with_file(*a, **k):
        # The file is put on the flash and taken away in the part that reads
        # it: the virtual parts, measured once before, stay as they were.
        text = plain(*a, **k)
        assert text.count(MENU) == 1
        return text.replace(
            MENU,
            "flash.files['dicefull.txt'] = bytearray(%r)\n"
            "from dicetable.app import games as G\nG.prepare(GAME, t)\n"
            "del flash.files['dicefull.txt']\n"
            "import sys\nassert 'dicetable.games.dicefull.challenges' not in sys.modules\n"
            "assert sys.modules['dicetable.games.dicefull.data'].SET_WORD == %d\n#: next run\n"
            % (raw, ch.word(BUILT_IN))
            + MENU,
        )

    monkeypatch.setattr(bench_heap, "script", with_file)
    # The run's own virtual parts and harness share this build's heap with
    # the board's code: with the file's reader beside them they need more than
    # the Pico's.  The board's share is what is held to the limit.
    why = "the harness beside the board's code and the file's reader"
    r = bench_heap.measure(2, bench_heap.PLAYERS[2], heap_kb=320, why=why)
    with capsys.disabled():
        print(
            "\nDicefull with the example file: live peak %d B, largest free block at the end %d B"
            % (r["live_peak"], r["free_at_end"])
        )
    assert r["live_peak"] < LIVE_SHARE


def test_the_boards_mirror_keeps_the_set_or_says_it_differs():
    from sim.web.mirror_lines import match
    from sim.web.mirror_view import replica

    d = started(OWN)
    header, words, _ = d.storage.load()
    payload = (bytes(header) + b"".join(w.to_bytes(3, "big") for w in words)).hex()
    parsed = match(payload)  # the set here is the board's (started() used it)
    assert parsed[3] == list(d.match.journal)
    vt = replica(*parsed)
    assert vt.table.match.set_word == ch.word(OWN_ROWS)
    assert list(vt.table.match.journal) == list(d.match.journal)
    data.CHALLENGES[:] = BUILT_IN
    data.SET_WORD = 0
    with pytest.raises(ValueError) as e:
        match(payload)
    assert str(e.value) == (
        "the board plays challenge set %05x from a file, the mirror the built-in challenge set"
        " (give the board's dicefull.txt with --challenges)" % ch.word(OWN_ROWS)
    )
