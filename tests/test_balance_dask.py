"""python -m sim balance on a Dask cluster (--scheduler, sim/balance_dask.py) and
the resumption of an interrupted run (--resume, sim/balance_partial.py).

Pinned: a LocalCluster of two worker processes gives the files of --jobs 1,
byte for byte, with the progress counted across the workers; a worker with
other code is refused in one line; an unreachable scheduler is one line naming
it, within seconds, with nothing written; a plain run never imports dask; a
run stopped at any point (Ctrl-C in the middle of a chunk, after the rows came
out of order, a killed process, a last line cut short) keeps its matches, and
--resume plays only the others and writes the files of an uninterrupted run;
--resume of another command, a damaged row file, a partial run without
--resume are refused in one line.  The runs are small (Walzer, 3 players).
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from test_balance import PREFIX, ROOT, files_in, one_line, run_main

import sim.play
from sim import balance, balance_dask, report

REAL_PLAY = sim.play.play
WALZER = ["balance", "--game", "walzer", "--players", "3", "--bots", "heuristic,random"]


@pytest.fixture
def no_plots(monkeypatch):
    """The report without its plots (they cost a second; the slow tests draw them)."""
    monkeypatch.setattr(report, "write_plots", lambda folder, configs, summary: [])


def walzer(capsys, tmp_path, out, *extra, matches="8"):
    argv = WALZER + ["--matches", matches, "--out", str(out), *extra]
    return run_main(capsys, argv, tmp_path)


def rows_of(out):
    path = out / "balance-partial" / "rows.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def counted_play(monkeypatch, stop_after=None):
    """sim.play.play counting its matches; KeyboardInterrupt once `stop_after` are played."""
    played = []

    def play(*args, **kwargs):
        if stop_after is not None and len(played) == stop_after:
            raise KeyboardInterrupt
        played.append(args[4])  # the seed
        return REAL_PLAY(*args, **kwargs)

    monkeypatch.setattr(sim.play, "play", play)
    return played


# --- The cluster ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # the HTTP server too: this machine, any port
        worker_dashboard_address="127.0.0.1:0",  # and each worker's
    ) as c:
        yield c


@pytest.mark.slow
def test_a_local_cluster_of_two_workers_gives_the_files_of_one_job(capsys, tmp_path, cluster):
    sweep = ["--sweep", "open_play=0,1", "--plots"]  # 2 configurations of 40: four chunks
    status, _, err = walzer(capsys, tmp_path, tmp_path / "one", *sweep, "--jobs", "1", matches="40")
    assert status == 0, err
    status, out, err = walzer(
        capsys,
        tmp_path,
        tmp_path / "dask",
        *sweep,
        "--scheduler",
        cluster.scheduler_address,
        matches="40",
    )
    assert status == 0, err
    assert out.splitlines()[0].startswith("report in %s: " % (tmp_path / "dask"))
    one = files_in(tmp_path / "one")
    assert files_in(tmp_path / "dask") == one
    assert {"results.csv", "summary.json", "winrate.png"} <= set(one)
    # the progress counts the matches of every worker's chunks as they come back
    counts = [int(line.split("/")[0]) for line in err.splitlines()]
    assert len(counts) >= 2 and counts == sorted(set(counts)) and counts[-1] == 80
    assert err.splitlines()[-1].startswith("80/80 matches, ")


@pytest.mark.slow
def test_a_run_stopped_locally_is_resumed_on_the_cluster(
    capsys, tmp_path, cluster, monkeypatch, no_plots
):
    assert walzer(capsys, tmp_path, tmp_path / "whole", "--jobs", "1")[0] == 0
    counted_play(monkeypatch, stop_after=5)
    assert walzer(capsys, tmp_path, tmp_path / "rep", "--jobs", "1")[0] == 130
    monkeypatch.setattr(sim.play, "play", REAL_PLAY)
    status, _, err = walzer(
        capsys, tmp_path, tmp_path / "rep", "--resume", "--scheduler", cluster.scheduler_address
    )
    assert status == 0, err
    assert err.splitlines()[0].startswith("8/8 matches, ")  # one chunk: the 3 left
    assert files_in(tmp_path / "rep") == files_in(tmp_path / "whole")


@pytest.mark.slow
def test_a_worker_with_other_code_is_refused_in_one_line(
    capsys, tmp_path, cluster, monkeypatch, no_plots
):
    monkeypatch.setattr(balance_dask, "_version", "0123456789ab")  # the client's files differ
    status, out, err = walzer(
        capsys, tmp_path, tmp_path / "rep", "--scheduler", cluster.scheduler_address
    )
    assert status == 1 and out == ""
    assert err.splitlines()[-1].startswith(
        PREFIX + "a worker on %s runs other code (" % socket.gethostname()
    )
    assert ", here 0123456789ab: give every worker machine this checkout and venv" in err
    assert err.splitlines()[-1].endswith(
        "after 0 of 8 matches (kept in %s: the same command with --resume plays the rest)"
        % (tmp_path / "rep" / "balance-partial")
    )


@pytest.mark.slow  # a second's wait
def test_an_unreachable_scheduler_is_one_line_naming_it(capsys, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(balance_dask, "CONNECT_TIMEOUT", 1.0)
    address = "tcp://127.0.0.1:%d" % port
    started = time.monotonic()
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--scheduler", address)
    assert time.monotonic() - started < 15
    assert status == 1 and out == ""
    line = one_line(err)
    assert line.startswith(PREFIX + "no Dask scheduler answers at %s (" % address)
    assert line.endswith("(check the address, or leave out --scheduler)")
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_scheduler_without_workers_is_one_line(capsys, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(balance_dask, "CONNECT_TIMEOUT", 1.0)
    with distributed.LocalCluster(
        n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as empty:
        address = empty.scheduler_address
        status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--scheduler", address)
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "the Dask scheduler at %s has no worker after 1 s (start some: dask worker %s)"
        " (check the address, or leave out --scheduler)" % (address, address)
    )
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_plain_run_never_imports_dask(tmp_path):
    code = (
        "import sys; from sim.__main__ import main;"
        "status = main(%r);"
        "names = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')];"
        "print(status, sorted(names))"
        % (WALZER + ["--matches", "2", "--jobs", "1", "--out", str(tmp_path / "rep")])
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.splitlines()[-1] == "0 []", done.stderr


# --- Resume --------------------------------------------------------------------------------


def test_resume_after_ctrl_c_plays_only_the_rest_and_gives_the_same_files(
    capsys, tmp_path, monkeypatch, no_plots
):
    assert walzer(capsys, tmp_path, tmp_path / "whole", "--jobs", "1")[0] == 0
    counted_play(monkeypatch, stop_after=3)
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", "--jobs", "1")
    assert status == 130
    assert err.splitlines()[-1] == (
        "python -m sim: interrupted after 3 of 8 matches (kept in %s: the same command with"
        " --resume plays the rest)" % (tmp_path / "rep" / "balance-partial")
    )
    seeds = [row[2] for row in rows_of(tmp_path / "rep")]
    played = counted_play(monkeypatch)
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", "--jobs", "1", "--resume")
    assert status == 0, err
    assert len(played) == 5 and not set(played) & set(seeds)  # nothing played twice
    assert err.splitlines()[0].startswith("4/8 matches, ")  # the progress starts at 3
    assert files_in(tmp_path / "rep") == files_in(tmp_path / "whole")


@pytest.mark.slow  # a pool and 160 matches: a second
def test_rows_kept_out_of_order_on_two_jobs_are_resumed_on_one(
    capsys, tmp_path, monkeypatch, no_plots
):
    """Ctrl-C while the rows are handed on in order: every chunk that ended is
    kept, those ahead of the order too, and --resume plays none of them again."""
    sweep = ["--sweep", "open_play=0,1"]
    assert walzer(capsys, tmp_path, tmp_path / "whole", *sweep, matches="40")[0] == 0
    real = report.Rows.add
    taken = []

    def add_then_stop(self, config, row):
        if len(taken) == 40:
            raise KeyboardInterrupt
        taken.append(row)
        real(self, config, row)

    monkeypatch.setattr(report.Rows, "add", add_then_stop)
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", *sweep, "--jobs", "2", matches="40")
    assert status == 130, err
    kept = rows_of(tmp_path / "rep")
    assert len(kept) >= 40 and len({(r[0], r[1]) for r in kept}) == len(kept)
    monkeypatch.setattr(report.Rows, "add", real)
    played = counted_play(monkeypatch)
    status, _, err = walzer(
        capsys, tmp_path, tmp_path / "rep", *sweep, "--jobs", "1", "--resume", matches="40"
    )
    assert status == 0, err
    assert len(played) == 80 - len(kept)
    assert files_in(tmp_path / "rep") == files_in(tmp_path / "whole")


def test_run_hands_on_the_rows_on_hand_and_the_new_ones_in_order():
    plans = [balance.Plan("walzer", 3, 0, ("heuristic",) * 3, 6, 4, True)] * 2
    done = {0: {}, 1: {}}
    whole = []
    balance.run(plans, 1, balance.Progress(12, None), lambda p, row: whole.append((p, row)))
    for p, row in whole[1:5] + whole[9:]:
        done[p][row[0]] = row
    again, recorded = [], []
    balance.run(
        plans,
        1,
        balance.Progress(12, None, initial=7),
        lambda p, row: again.append((p, row)),
        done=done,
        record=lambda p, rows: recorded.extend((p, row[0]) for row in rows),
    )
    assert again == whole
    assert recorded == [(0, 0), (0, 5), (1, 0), (1, 1), (1, 2)]
    assert balance.chunks(plans, 1, done) == [(0, 0, 1), (0, 5, 6), (1, 0, 3)]


def test_a_last_line_cut_short_is_dropped_with_one_line_and_played_again(
    capsys, tmp_path, monkeypatch, no_plots
):
    assert walzer(capsys, tmp_path, tmp_path / "whole")[0] == 0
    counted_play(monkeypatch, stop_after=4)
    assert walzer(capsys, tmp_path, tmp_path / "rep")[0] == 130
    path = tmp_path / "rep" / "balance-partial" / "rows.jsonl"
    text = path.read_text()
    path.write_text(text[: text.rfind("\n", 0, len(text) - 1) + 1] + text.splitlines()[-1][:25])
    played = counted_play(monkeypatch)
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", "--resume")
    assert status == 0, err
    assert err.splitlines()[0] == (
        "%s: its last line was cut short when the run stopped: dropped (that match is played"
        " again)" % path
    )
    assert len(played) == 5
    assert files_in(tmp_path / "rep") == files_in(tmp_path / "whole")


@pytest.mark.slow
def test_a_killed_run_is_resumed_to_the_same_files(capsys, tmp_path, no_plots):
    argv = WALZER + ["--matches", "200", "--jobs", "1"]
    rows = tmp_path / "rep" / "balance-partial" / "rows.jsonl"
    p = subprocess.Popen(
        [sys.executable, "-m", "sim", *argv[:], "--out", str(tmp_path / "rep")],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (rows.exists() and rows.stat().st_size > 3000):
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    kept = len(rows.read_text().splitlines())
    assert 0 < kept < 200
    assert run_main(capsys, argv + ["--out", str(tmp_path / "rep"), "--resume"], tmp_path)[0] == 0
    assert run_main(capsys, argv + ["--out", str(tmp_path / "whole")], tmp_path)[0] == 0
    assert files_in(tmp_path / "rep") == files_in(tmp_path / "whole")


def stopped_run(capsys, tmp_path, monkeypatch, stop_after=3):
    counted_play(monkeypatch, stop_after=stop_after)
    assert walzer(capsys, tmp_path, tmp_path / "rep")[0] == 130
    monkeypatch.setattr(sim.play, "play", REAL_PLAY)
    monkeypatch.setattr(report, "write_plots", lambda folder, configs, summary: [])
    return files_in(tmp_path)


def test_resume_of_another_command_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    before = stopped_run(capsys, tmp_path, monkeypatch)
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--seed", "2", "--resume")
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "%s holds an unfinished run of another command (python -m sim balance --game walzer"
        " --players 3 --matches 8 --bots heuristic,random --seed 1): resume it with that"
        " command, or add --force instead of --resume to start this one" % (tmp_path / "rep")
    )
    assert files_in(tmp_path) == before


def test_a_partial_run_without_resume_is_refused_and_force_starts_again(
    capsys, tmp_path, monkeypatch
):
    before = stopped_run(capsys, tmp_path, monkeypatch)
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep")
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "%s holds an unfinished run (3 matches played; add --resume to play the rest, or"
        " --force to start again)" % (tmp_path / "rep")
    )
    assert files_in(tmp_path) == before
    played = counted_play(monkeypatch)
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", "--seed", "2", "--force")
    assert status == 0, err
    assert len(played) == 8 and not (tmp_path / "rep" / "balance-partial").exists()


def test_a_damaged_row_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    stopped_run(capsys, tmp_path, monkeypatch)
    path = tmp_path / "rep" / "balance-partial" / "rows.jsonl"
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace("[0,1,", "[0,7,", 1)  # match 7's place, match 1's seed
    path.write_text("\n".join(lines) + "\n")
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--resume")
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "%s: rows.jsonl line 2 is not a match of this run (not match 7 of configuration 0)"
        " (the unfinished run cannot be resumed: add --force instead of --resume to start"
        " again)" % (tmp_path / "rep" / "balance-partial")
    )


def test_resume_where_there_is_no_partial_run(capsys, tmp_path, no_plots):
    # a new folder: the whole run
    status, _, err = walzer(capsys, tmp_path, tmp_path / "rep", "--resume")
    assert status == 0, err
    # a finished report: nothing to resume
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--resume")
    assert status == 1 and out == ""
    assert one_line(err) == PREFIX + (
        "%s holds no unfinished run to resume (leave out --resume, and add --force to replace"
        " its report or give a new folder)" % (tmp_path / "rep")
    )


@pytest.mark.parametrize(
    "extra, message",
    [
        (
            ["--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"],
            "argument --jobs: not with --scheduler (the cluster's workers play: give each"
            " dask worker its --nworkers)",
        ),
        (["--scheduler", " "], "argument --scheduler: an empty address (e.g. tcp://HOST:8786)"),
        (
            ["--resume", "--force"],
            "argument --force: not with --resume (--force starts again, --resume goes on)",
        ),
    ],
    ids=["scheduler-and-jobs", "scheduler-empty", "resume-and-force"],
)
def test_a_bad_cluster_or_resume_argument_is_one_line(capsys, tmp_path, extra, message):
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", *extra)
    assert status == 2 and out == ""
    assert one_line(err) == PREFIX + message
    assert os.listdir(tmp_path) == []


def test_without_dask_the_scheduler_option_says_what_to_install(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", "--scheduler", "tcp://h:8786")
    assert status == 1 and out == ""
    line = one_line(err)
    assert line.startswith(PREFIX + "--scheduler needs dask and distributed (")
    assert line.endswith(": .venv/bin/pip install -r requirements.txt)")
    assert os.listdir(tmp_path) == []


class FailingCluster:
    """A cluster whose scheduler is lost after the first chunk came back."""

    CHUNK_MAX = balance.CHUNK_MAX

    def __init__(self, address):
        self.closed = False

    def threads(self):
        return 2

    @contextlib.contextmanager
    def results(self, tasks):
        def chunks():
            yield balance._play_chunk(tasks[1])  # ahead of the order: kept all the same
            raise ConnectionResetError("the scheduler went away")

        yield chunks()

    def close(self):
        self.closed = True


def test_a_cluster_that_fails_keeps_the_rows_that_came_back(
    capsys, tmp_path, monkeypatch, no_plots
):
    monkeypatch.setattr(balance_dask, "Cluster", FailingCluster)
    argv = ["--sweep", "open_play=0,1", "--scheduler", "tcp://h:8786"]
    status, out, err = walzer(capsys, tmp_path, tmp_path / "rep", *argv, matches="40")
    assert status == 1 and out == ""
    assert err.splitlines()[-1] == PREFIX + (
        "the Dask cluster at tcp://h:8786 failed (ConnectionResetError: the scheduler went away)"
        " after 8 of 80 matches (kept in %s: the same command with --resume plays the rest)"
        % (tmp_path / "rep" / "balance-partial")
    )
    assert [row[:2] for row in rows_of(tmp_path / "rep")] == [[0, i] for i in range(32, 40)]


@pytest.mark.slow  # a second: python -m sim and its imports
def test_a_scheduler_address_without_a_port_is_one_line_at_once(capsys, tmp_path):
    # Run as a command: the failed client's traceback came at the interpreter's exit.
    pytest.importorskip("distributed")
    argv = [sys.executable, "-m", "sim", "balance", "--game", "walzer", "--players", "3"]
    argv += ["--matches", "4", "--scheduler", "nonsense", "--out", str(tmp_path / "rep")]
    started = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 8
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == (
        "python -m sim: error: no Dask scheduler answers at nonsense (missing port number in"
        " address 'nonsense') (check the address, or leave out --scheduler)\n"
    )
    assert os.listdir(tmp_path) == []
