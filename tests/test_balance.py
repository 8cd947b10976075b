"""python -m sim balance and the batches' --jobs (sim/balance.py, sim/report.py).

Pinned: the interval arithmetic against published values; every match seeded
from (batch seed, configuration, index), so that the rows and every figure are
the same whatever --jobs is (and a batch's are what they were before --jobs);
the report's files (the CSV parses, the JSON holds the figures, the pages name
every configuration), sweeps and --rotate; the plots, PNGs, only with --plots
(without it matplotlib is not even imported, and the pages say how to get them); every bad
argument refused in one line with nothing written; --out never written over
without --force; Ctrl-C leaving the matches played and no report (resuming them:
tests/test_balance_dask.py); the progress lines in a log.
Tests that draw the plots or play by the hundred are marked slow.
"""

import csv
import io
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

import sim.play
from sim import balance, report
from sim.__main__ import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
PREFIX = "python -m sim: error: "


def files_in(folder):
    """{relative path: bytes} of everything under `folder`, hidden files too."""
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
        for p in sorted(folder.rglob("*"))
    }


def run_main(capsys, argv, tmp_path):
    status = main([a.replace("{dir}", str(tmp_path)) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def one_line(err):
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --- Intervals against published values ---------------------------------------------------

# Wilson score intervals, Newcombe (1998a), "Two-sided confidence intervals for the
# single proportion", Table I, method 3.
WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
]


@pytest.mark.parametrize("wins, n, low, high", WILSON)
def test_wilson_interval_matches_published_values(wins, n, low, high):
    got = balance.wilson(wins, n)
    assert got is not None
    assert got == pytest.approx((low, high), abs=5e-5)


# Differences of independent proportions, Newcombe (1998b), "Interval estimation for
# the difference between independent proportions", Table II, method 10:
# (wins2, n2) minus (wins1, n1).
NEWCOMBE = [
    (48, 80, 56, 70, 0.0524, 0.3339),
    (3, 10, 9, 10, 0.1705, 0.8090),
    (2, 7, 6, 7, 0.0582, 0.8062),
    (0, 29, 5, 56, -0.0381, 0.1926),
    (0, 20, 0, 10, -0.1611, 0.2775),
    (0, 10, 0, 10, -0.2775, 0.2775),
    (0, 20, 10, 10, 0.6791, 1.0),
]


@pytest.mark.parametrize("w1, n1, w2, n2, low, high", NEWCOMBE)
def test_newcombe_difference_matches_published_values(w1, n1, w2, n2, low, high):
    got = balance.newcombe(w1, n1, w2, n2)
    assert got is not None
    assert got == pytest.approx((low, high), abs=5e-5)


def test_mean_interval_is_the_normal_approximation_with_the_sample_sd():
    # 1, 2, 3, 4, 5: mean 3, sample sd sqrt(2.5), half-width 1.96 * sd / sqrt(5)
    mean, sd, ci = balance.mean_interval(15, 55, 5)
    assert (mean, sd) == pytest.approx((3.0, 2.5**0.5))
    assert ci == pytest.approx((3 - 1.385904, 3 + 1.385904), abs=1e-6)
    assert balance.mean_interval(7, 49, 1) == (7.0, None, None)
    assert balance.mean_interval(0, 0, 0) == (None, None, None)
    assert balance.wilson(0, 0) is None


def test_quantiles_are_nearest_rank():
    counts = {1: 1, 2: 1, 3: 1, 4: 1, 10: 6}
    assert [balance.quantile(counts, q) for q in (0.1, 0.4, 0.5, 0.9)] == [1, 4, 10, 10]


# --- Seeds, seats, the first lead -------------------------------------------------------


def test_seeds_come_from_the_batch_seed_the_configuration_and_the_index():
    plan = balance.Plan("nokosu", 3, 0, ("heuristic",) * 3, 10, 7, hashed=True)
    seeds = [plan.seed_of(i) for i in range(10)]
    assert seeds == [plan.seed_of(i) for i in range(10)]  # a function of them alone
    assert len(set(seeds)) == 10 and all(0 <= s <= 0xFFFFFFFF for s in seeds)
    other = balance.Plan("nokosu", 4, 0, ("heuristic",) * 4, 10, 7, hashed=True)
    assert other.seed_of(0) != plan.seed_of(0)
    batch = balance.Plan("nokosu", 3, 0, ("heuristic",) * 3, 10, 7)
    assert [batch.seed_of(i) for i in range(3)] == [7, 8, 9]  # python -m sim --matches


def test_rotate_seats_every_bot_in_every_seat_equally_often():
    plan = balance.Plan("nokosu", 3, 0, ("ismcts", "heuristic", "random"), 6, 1, rotate=True)
    seatings = [plan.bots_of(i) for i in range(6)]
    for seat in range(3):
        assert sorted(s[seat] for s in seatings) == sorted(["ismcts", "heuristic", "random"] * 2)
    assert balance.Plan("nokosu", 3, 0, ("a", "b", "c"), 6, 1).bots_of(4) == ("a", "b", "c")


FIRST_LEAD = [
    ("the first play", [(1, 7, 5), (1, 2, 1), (5, 0, 3), (2, 1, 9), (2, 2, 4)], 1),
    ("no tricks: the first choice", [(3, 0, 4), (1, 2, 1), (7, 3, 2), (8, 0, 0)], 3),
    ("nothing but scans", [(1, 0, 1), (3, 1, 4)], None),
]


@pytest.mark.parametrize(
    "journal, lead", [c[1:] for c in FIRST_LEAD], ids=[c[0] for c in FIRST_LEAD]
)
def test_the_first_lead_is_the_first_play_or_else_the_first_choice(journal, lead):
    from dicetable.match.actions import action

    assert balance.first_lead([action(*a) for a in journal]) == lead


def test_configurations_cover_every_player_count_and_swept_value_in_order():
    taken = balance.game_options("dicefull")
    assert taken == {"length": 12, "variant": 1, "table_rolls": 1}
    configs = balance.configurations([2, 3], {"variant": [1, 0], "length": [3]}, taken)
    assert [c.key() for c in configs] == [
        "2p length=3 variant=0",
        "2p length=3 variant=1",
        "3p length=3 variant=0",
        "3p length=3 variant=1",
    ]
    assert configs[1].word() == 4 | 3 << 8  # VARIANT, length 3
    assert balance.configurations([3], {}, balance.game_options("dtt"))[0].key() == "3p"


# --- The same rows and figures whatever --jobs is ----------------------------------------


def tallied(plans, jobs):
    rows = []

    def take(p, row):
        rows.append((p, row))

    balance.run(plans, jobs, balance.Progress(sum(p.matches for p in plans), io.StringIO()), take)
    return rows


def test_two_jobs_give_the_rows_of_one_in_the_same_order():
    bots = ("heuristic", "random")
    plans = [balance.Plan("dtwww", 2, word, bots, 40, 3, True, True) for word in (0, 4)]
    assert len(balance.chunks(plans, 2)) == 4  # the pool is used
    one = tallied(plans, 1)
    assert [(p, row[0]) for p, row in one] == [(p, i) for p in (0, 1) for i in range(40)]
    assert tallied(plans, 2) == one


# python -m sim --matches in seeding 1, from the code before --jobs existed.
BATCH = """70 matches of dtwww, 2 players, seeds 5-74
seat  bot        wins  win rate  mean score
   0  heuristic    54     77.1%        3.44
   1  random       16     22.9%        2.56
(a shared first place counts as a win for each)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_gives_what_it_gave_before_jobs_on_any_number_of_jobs(capsys, tmp_path, jobs):
    argv = "--game dtwww --players 2 --matches 70 --seed 5 --bots heuristic,random --seeding 1"
    argv += " --jobs"
    status, out, err = run_main(capsys, argv.split() + [jobs], tmp_path)
    assert status == 0 and out == BATCH
    assert err.splitlines()[-1].startswith("70/70 matches, ")


# --- The report ---------------------------------------------------------------------------


def balance_run(capsys, tmp_path, out, *extra, jobs="1", players="2", matches="32"):
    """A DTwww report of two configurations at least (the variant swept), so that
    two jobs play it in a pool."""
    argv = ["balance", "--game", "dtwww", "--players", players, "--matches", matches]
    argv += ["--seed", "9", "--bots", "heuristic,random", "--sweep", "variant=0,1"]
    argv += ["--jobs", jobs, "--out", str(out), *extra]
    return run_main(capsys, argv, tmp_path)


def test_a_report_without_plots_writes_its_files_and_nothing_else(capsys, tmp_path):
    status, out, err = balance_run(capsys, tmp_path, tmp_path / "rep")
    assert status == 0, err
    assert sorted(os.listdir(tmp_path)) == ["rep"]  # no temporary folder left
    assert sorted(os.listdir(tmp_path / "rep")) == [
        "results.csv",
        "summary.html",
        "summary.json",
        "summary.md",
    ]
    assert out.splitlines()[0] == "report in %s: %s" % (
        tmp_path / "rep",
        "results.csv, summary.html, summary.json, summary.md",
    )
    assert err.splitlines()[-1].startswith("64/64 matches, ")


# Every module python -X importtime names: "import time: self | cumulative | name".
IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)
PLOTS = ["bots.png", "lengths.png", "scores.png", "variant.png", "winrate.png"]


@pytest.mark.parametrize(
    "plots", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["without", "with"]
)
def test_plots_and_matplotlib_only_with_plots(tmp_path, plots):
    """The real command in a process of its own: without --plots no PNG, matplotlib
    never imported, and pages without an image that say how to get them; with it,
    every plot this report has (a variant swept, seats rotated) drawn, listed and linked."""
    rep = tmp_path / "rep"
    argv = [sys.executable, "-X", "importtime", "-m", "sim", "balance", "--game", "dtwww"]
    argv += ["--players", "2", "--matches", "8", "--bots", "random", "--rotate"]
    argv += ["--sweep", "variant=0,1", "--jobs", "1", "--out", str(rep)]
    done = subprocess.run(
        argv + ["--plots"] * plots, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    imported = set(IMPORTED.findall(done.stderr))
    assert {"sim.report", "sim.balance_command"} <= imported  # the trace is read
    assert ("matplotlib" in imported) is plots
    summary = json.loads((rep / "summary.json").read_text())
    names = sorted(os.listdir(rep))
    assert names == summary["files"]
    assert [n for n in names if n.endswith(".png")] == (PLOTS if plots else [])
    assert summary["command"].endswith("--rotate%s --sweep variant=0,1" % (" --plots" * plots))
    md = (rep / "summary.md").read_text()
    page = (rep / "summary.html").read_text()
    how = "rerun the command above with %s and an %s folder to draw them beside these pages: "
    listed = ", ".join("`%s`" % n for n in report.plot_names(summary)) + "."
    if plots:
        for name in PLOTS:
            assert "](%s)" % name in md and 'src="%s"' % name in page
        assert "rerun the command" not in md + page
    else:
        assert "![" not in md and "<img" not in page
        assert how % ("`--plots`", "`--out`") + listed in md
        assert how % ("<code>--plots</code>", "<code>--out</code>") in page
        assert sorted(report.plot_names(summary)) == PLOTS


def test_a_report_is_the_same_on_one_job_and_two(capsys, tmp_path):
    assert balance_run(capsys, tmp_path, tmp_path / "one", "--rotate")[0] == 0
    assert balance_run(capsys, tmp_path, tmp_path / "two", "--rotate", jobs="2")[0] == 0
    assert files_in(tmp_path / "one") == files_in(tmp_path / "two")


@pytest.mark.slow
def test_every_file_of_a_sweep_is_the_same_on_one_job_and_two_plots_included(capsys, tmp_path):
    assert balance_run(capsys, tmp_path, tmp_path / "one", "--rotate", "--plots")[0] == 0
    assert balance_run(capsys, tmp_path, tmp_path / "two", "--rotate", "--plots", jobs="2")[0] == 0
    one = files_in(tmp_path / "one")
    assert one == files_in(tmp_path / "two")
    assert {"variant.png", "bots.png", "winrate.png", "scores.png", "lengths.png"} <= set(one)


@pytest.mark.slow
def test_a_small_real_report_has_every_file_and_figure(capsys, tmp_path):
    rep = tmp_path / "rep"
    status, out, err = balance_run(
        capsys, tmp_path, rep, "--rotate", "--plots", players="2-3", matches="40"
    )
    assert status == 0, err
    summary = json.loads((rep / "summary.json").read_text())
    names = sorted(os.listdir(rep))
    assert names == summary["files"] == sorted(report.FILES)
    keys = ["2p variant=0", "2p variant=1", "3p variant=0", "3p variant=1"]
    assert [f["key"] for f in summary["configurations"]] == keys
    assert summary["command"] == (
        "python -m sim balance --game dtwww --players 2-3 --matches 40 --bots heuristic,random"
        " --seed 9 --rotate --plots --sweep variant=0,1"
    )
    for f in summary["configurations"]:
        assert f["matches"] == 40
        for seat in f["seats"]:
            low, high = seat["win_rate_ci"]
            assert low <= seat["win_rate"] <= high
            assert seat["mean_score_ci"][0] <= seat["mean_score"] <= seat["mean_score_ci"][1]
            assert sum(c for _, c in seat["scores"]["distribution"]) == 40
        assert sum(c for _, c in f["actions"]["distribution"]) == 40
        assert f["rounds"]["mean"] == f["players"]  # DTwww: one game per player
        assert set(f["bots"]) == {"heuristic", "random"}
        lead = f["first_lead"]
        assert lead["matches"] == 40 and lead["advantage_ci"][0] <= lead["advantage"]
    pairs = summary["variant_vs_standard"]
    assert [(p["standard"], p["variant"]) for p in pairs] == [
        (keys[0], keys[1]),
        (keys[2], keys[3]),
    ]
    for name in names:
        if name.endswith(".png"):
            assert (rep / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (rep / "summary.md").read_text()
    page = (rep / "summary.html").read_text()
    for key in keys:
        assert "### %s" % key in md and "<h3>%s</h3>" % key in page
    for name in names:
        if name.endswith(".png"):
            assert "](%s)" % name in md and 'src="%s"' % name in page
    with open(rep / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 160
    assert [r["config"] for r in rows[::40]] == keys
    # a row is a match python -m sim plays again from its seed
    row = rows[45]
    bots = [row["bot_%d" % s] for s in range(2)]
    match = sim.play.play("dtwww", 2, 4, bots, int(row["seed"]))
    assert [str(t) for t in match.totals] == [row["score_0"], row["score_1"]]
    assert row["bot_2"] == row["score_2"] == "" and row["variant"] == "1"


# --- --out: never over a report without --force --------------------------------------


def test_a_folder_that_is_not_empty_is_refused_without_force(capsys, tmp_path):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "notes.txt").write_text("mine\n")
    before = files_in(tmp_path)
    status, out, err = balance_run(capsys, tmp_path, rep)
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "%s is not empty (add --force to replace its report, or give a new folder)" % rep
    )
    assert files_in(tmp_path) == before


def test_force_replaces_the_report_and_leaves_other_files(capsys, tmp_path):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "notes.txt").write_text("mine\n")
    (rep / "summary.md").write_text("an old report\n")
    (rep / "variant.png").write_bytes(b"an old plot")  # this report draws none
    status, _, err = balance_run(capsys, tmp_path, rep, "--force")
    assert status == 0, err
    assert sorted(os.listdir(rep)) == [
        "notes.txt",
        "results.csv",
        "summary.html",
        "summary.json",
        "summary.md",
    ]
    assert (rep / "notes.txt").read_text() == "mine\n"
    assert (rep / "summary.md").read_text().startswith("# Balance report: DTwww, 2 players")


def test_an_empty_folder_is_filled(capsys, tmp_path):
    (tmp_path / "rep").mkdir()
    assert balance_run(capsys, tmp_path, tmp_path / "rep")[0] == 0
    assert "summary.json" in os.listdir(tmp_path / "rep")
    assert sorted(os.listdir(tmp_path)) == ["rep"]


def test_a_report_that_cannot_be_written_says_so(capsys, tmp_path, monkeypatch):
    def full(path, summary):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "write_json", full)
    status, out, err = balance_run(capsys, tmp_path, tmp_path / "rep")
    assert status == 1 and out == ""
    work = tmp_path / "rep" / "balance-partial"
    assert err.splitlines()[-1] == PREFIX + (
        "cannot write %s/rep: no space left on device (write the report somewhere you may write;"
        " the 64 matches played are kept in %s: --resume goes on from them)" % (tmp_path, work)
    )
    # every match played is kept, and --resume writes the report without playing one again
    assert os.listdir(tmp_path / "rep") == ["balance-partial"]
    assert len((work / "rows.jsonl").read_text().splitlines()) == 64
    monkeypatch.undo()
    monkeypatch.setattr(report, "write_plots", lambda folder, configs, summary: [])
    monkeypatch.setattr(sim.play, "play", None)  # a match played again would fail
    status, _, err = balance_run(capsys, tmp_path, tmp_path / "rep", "--resume")
    assert status == 0, err
    assert err.splitlines()[-1].startswith("64/64 matches, 0.0/s, in ")  # none played
    assert "summary.json" in os.listdir(tmp_path / "rep") and not work.exists()


# --- Every bad argument: one line, exit 2 (1 for --out's folder), nothing written ----------

BASE = ["balance", "--game", "nokosu", "--out", "{dir}/rep"]
REFUSED = [
    (
        "no-game-no-out",
        ["balance"],
        2,
        "the following arguments are required: --game, --out "
        "(python -m sim balance --help lists the options)",
    ),
    ("game-unknown", ["balance", "--game", "chess", "--out", "{dir}/r"], 2, "argument --game: "),
    ("players-word", BASE + ["--players", "abc"], 2, "argument --players: 'abc' is not a"),
    ("players-open", BASE + ["--players", "3-"], 2, "argument --players: '3-' is not a"),
    ("players-down", BASE + ["--players", "5-3"], 2, "argument --players: '5-3' goes down"),
    (
        "players-outside",
        BASE + ["--players", "2-4"],
        2,
        "argument --players: nokosu is for 3 to 5 players, not 2",
    ),
    (
        "sweep-not-taken",
        BASE + ["--sweep", "variant=0,1"],
        2,
        "argument --sweep: nokosu has no variant (it takes length, open_play, table_rolls)",
    ),
    (
        "sweep-unknown",
        BASE + ["--sweep", "speed=1"],
        2,
        "argument --sweep: no option 'speed' (the options are length, variant, open_play,"
        " table_rolls)",
    ),
    (
        "sweep-no-values",
        BASE + ["--sweep", "length"],
        2,
        "argument --sweep: 'length' is not OPTION=VALUES (e.g. --sweep length=1,2,3)",
    ),
    (
        "sweep-past-longest",
        BASE + ["--sweep", "length=1,9"],
        2,
        "argument --sweep: '9' is out of range (length takes 0, the game's own, to 5)",
    ),
    (
        "sweep-flag-2",
        BASE + ["--sweep", "open-play=0,2"],
        2,
        "argument --sweep: '2' is out of range (open_play takes 0 or 1)",
    ),
    (
        "sweep-word",
        BASE + ["--sweep", "length=1,x"],
        2,
        "argument --sweep: 'x' is not a value of length (length takes 0, the game's own, to 5,"
        " comma-separated)",
    ),
    (
        "sweep-value-twice",
        BASE + ["--sweep", "length=1,1"],
        2,
        "argument --sweep: length=1,1 gives 1 twice (give each value once)",
    ),
    (
        "sweep-option-twice",
        BASE + ["--sweep", "length=1", "--sweep", "length=2"],
        2,
        "argument --sweep: length swept twice (give all its values in one)",
    ),
    ("bots-unknown", BASE + ["--bots", "foo"], 2, "argument --bots: no bot 'foo'"),
    ("bots-bad-budget", BASE + ["--bots", "ismcts:0"], 2, "argument --bots: bad budget in"),
    (
        "bots-too-many",
        BASE + ["--bots", "random,random,random,random"],
        2,
        "argument --bots: 4 bots for 3 players (one a seat at most, repeated to fill)",
    ),
    (
        "matches-0",
        BASE + ["--matches", "0"],
        2,
        "argument --matches: '0' is out of range (1 to 1000000 per configuration)",
    ),
    (
        "too-many-matches",
        BASE + ["--matches", "1000000", "--sweep", "length=0,1,2,3,4,5"],
        2,
        "argument --matches: 18 configurations of 1000000 matches is 18000000, more than"
        " 10000000 (fewer --matches, player counts or swept values)",
    ),
    ("jobs-0", BASE + ["--jobs", "0"], 2, "argument --jobs: '0' is out of range (1 to 256"),
    ("seed-negative", BASE + ["--seed", "-1"], 2, "argument --seed: '-1' is out of range"),
    (
        "out-empty",
        ["balance", "--game", "nokosu", "--out", " "],
        2,
        "argument --out: an empty folder name (give the folder to write the report in)",
    ),
    (
        "unknown-option",
        BASE + ["--frob"],
        2,
        "unrecognized arguments: --frob (python -m sim balance --help lists the options)",
    ),
    (
        "out-a-file",
        ["balance", "--game", "nokosu", "--out", "{dir}/f"],
        1,
        "{dir}/f is not a folder (give --out a folder for the report)",
    ),
    (
        "out-no-parent",
        ["balance", "--game", "nokosu", "--out", "{dir}/no/rep"],
        1,
        "no folder {dir}/no to make rep in (make it first, or write elsewhere)",
    ),
    # the batches' --jobs
    (
        "jobs-one-match",
        ["--jobs", "2"],
        2,
        "argument --jobs: only with --matches 2 or more (one match plays on one core)",
    ),
    ("jobs-table", ["--table", "--jobs", "2"], 2, "argument --jobs: not with --table"),
    (
        "jobs-replay",
        ["--replay", "{dir}/f", "--jobs", "2"],
        2,
        "argument --jobs: not with --replay",
    ),
]


@pytest.mark.parametrize(
    "argv, status, message", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_bad_balance_argument_is_one_line_and_nothing_is_written(
    capsys, tmp_path, argv, status, message
):
    (tmp_path / "f").write_text("a file\n")
    before = files_in(tmp_path)
    got, out, err = run_main(capsys, argv, tmp_path)
    assert got == status and out == ""
    assert one_line(err).startswith(PREFIX + message.replace("{dir}", str(tmp_path)))
    assert files_in(tmp_path) == before


def test_balance_help_lists_its_options(capsys):
    assert main(["balance", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--sweep", "--rotate", "--jobs", "--out", "--force", "--plots"):
        assert option in text
    plots = " ".join(text[text.index("\n  --plots") :].split())
    assert plots.startswith("--plots also draw the plots beside the pages, as PNGs")
    for name in report.FILES[4:]:
        assert name in plots


# --- Ctrl-C: one line, 130, the matches played kept ----------------------------------------


def test_ctrl_c_during_a_report_says_how_far_it_got_and_keeps_what_was_played(
    capsys, tmp_path, monkeypatch
):
    real = sim.play.play
    played = []

    def play_then_stop(*args, **kw):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(sim.play, "play", play_then_stop)
    status, out, err = balance_run(capsys, tmp_path, tmp_path / "rep")
    assert status == 130 and out == ""
    work = tmp_path / "rep" / "balance-partial"
    assert err.splitlines()[-1] == (
        "python -m sim: interrupted after 3 of 64 matches (kept in %s: the same command with"
        " --resume plays the rest)" % work
    )
    assert os.listdir(tmp_path / "rep") == ["balance-partial"]
    lines = (work / "rows.jsonl").read_text().splitlines()
    assert [json.loads(line)[:2] for line in lines] == [[0, 0], [0, 1], [0, 2]]


@pytest.mark.parametrize(
    "extra, stopped, doing",
    [(["--plots"], "write_plots", "drawing the plots"), ([], "write_pages", "writing the report")],
    ids=["plots", "pages"],
)
def test_ctrl_c_while_drawing_keeps_the_matches(
    capsys, tmp_path, monkeypatch, extra, stopped, doing
):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, stopped, interrupted)
    status, _, err = balance_run(capsys, tmp_path, tmp_path / "rep", *extra)
    assert status == 130
    work = tmp_path / "rep" / "balance-partial"
    assert err.splitlines()[-1] == (
        "python -m sim: interrupted after all 64 matches, %s (kept in %s: the same command"
        " with --resume writes the report)" % (doing, work)
    )
    assert len((work / "rows.jsonl").read_text().splitlines()) == 64
    assert not (tmp_path / "rep" / "summary.json").exists()


@pytest.mark.slow
def test_ctrl_c_stops_the_real_command_on_two_jobs_and_keeps_the_matches(tmp_path):
    p = subprocess.Popen(
        [sys.executable, "-m", "sim", "balance", "--game", "dtt", "--matches", "100000"]
        + ["--jobs", "2", "--out", str(tmp_path / "rep")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    # matches are being played once the partial folder's rows.jsonl has rows
    rows = tmp_path / "rep" / "balance-partial" / "rows.jsonl"
    while time.monotonic() < deadline:
        if rows.exists() and rows.stat().st_size > 2000:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == b""
    assert b"Traceback" not in err
    said = re.fullmatch(
        r"python -m sim: interrupted after (\d+) of 100000 matches \(kept in \S+: the same"
        r" command with --resume plays the rest\)",
        err.decode().splitlines()[-1],
    )
    assert said, err.decode()
    # every match the line counts is on disk, whole: the workers' chunks as they ended (a
    # chunk more if Ctrl-C came between its writing and its counting)
    lines = rows.read_text().splitlines()
    kept = int(said.group(1))
    assert kept <= len(lines) <= kept + balance.CHUNK_MAX
    assert all(json.loads(line) for line in lines)


# --- Progress ----------------------------------------------------------------------------


def test_progress_in_a_log_is_a_line_every_tenth_with_rate_and_eta():
    stream = io.StringIO()
    progress = balance.Progress(1000, stream)
    for _ in range(40):
        progress.advance(25)
    lines = stream.getvalue().splitlines()
    assert [line.split(" ")[0] for line in lines] == ["%d/1000" % (100 * k) for k in range(1, 11)]
    for line in lines[:-1]:
        assert re.fullmatch(r"\d+/1000 matches, [\d.]+/s, ETA \d+ s", line), line
    assert re.fullmatch(r"1000/1000 matches, [\d.]+/s, in \d+ s", lines[-1])


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_is_a_tqdm_bar():
    stream = Terminal()
    progress = balance.Progress(200, stream)
    progress.advance(100)
    progress.advance(100)
    progress.close()
    text = stream.getvalue()
    assert "\r" in text and "200/200" in text and "matches/s" in text
    assert text.count("\n") == 1  # the bar's line, ended once


@pytest.mark.parametrize(
    "seconds, words", [(0.2, "1 s"), (37, "37 s"), (245, "4 min 5 s"), (7380, "2 h 3 min")]
)
def test_durations_read_as_a_person_says_them(seconds, words):
    assert balance.duration(seconds) == words


def test_the_designers_page_replays_the_row_it_quotes():
    """docs/designers.md: row 3 of '4p length=1' in the worked example, seed and scores."""
    from dicetable.match.engine import options

    text = (ROOT / "docs" / "designers.md").read_text()
    quoted = "--players 4 --seed 3836738444 --bots heuristic --length 1 --seeding 1"
    assert quoted in " ".join(text.split())
    plan = balance.Plan("nokosu", 4, options(0, 1), ("heuristic",) * 4, 2000, 1, hashed=True)
    assert plan.seed_of(3) == 3836738444
    match = sim.play.play("nokosu", 4, options(0, 1), ["heuristic"] * 4, plan.seed_of(3), seeding=1)
    assert list(match.totals) == [22, 23, 5, 4]


def test_a_rate_of_all_or_nothing_draws_error_bars_of_no_negative_length():
    # 30 wins of 30: the Wilson interval's top rounds to 1 - 1.1e-16, and
    # matplotlib refused the report's plots with a traceback.
    from sim import report

    rates = [1.0, 0.0, 0.5]
    cis = [balance.wilson(30, 30), balance.wilson(0, 30), balance.wilson(15, 30)]
    low, high = report.bar_lengths(rates, cis)
    assert min(low + high) >= 0
    assert high[0] == 0 and low[1] == 0
    assert low[0] == pytest.approx(1 - cis[0][0]) and high[1] == pytest.approx(cis[1][1])
    assert report.bar_lengths([0.5], [None]) == [[0], [0]]
