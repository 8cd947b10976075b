"""The balance report's fixed cost beside the matches it reports: `make bench`, or

    .venv/bin/python tools/bench/bench_report.py [--runs 3]

Issue 25: the report of a 400-match run (python -m sim balance --game dtt --bots
random --matches 400) is to cost under 10 % of the run, and the plots nothing
unless asked for (--plots). Each run is that command with --jobs 1 (so every
part of it is in one process), in a process of its own, without and with
--plots in turn; the figures printed are CPU seconds (user + system), the
median of --runs runs of each:

- the whole process, from the interpreter's start to its exit, as the bench
  reads it from getrusage(RUSAGE_CHILDREN);
- its parts, timed inside it with time.process_time(): the interpreter's start
  and the imports (sim's modules; matplotlib, with --plots, when the first plot
  is drawn) and the arguments; the matches; the report: results.csv's rows and
  the tallies as each match ends, then the figures (intervals, distributions),
  then summary.json, summary.md and summary.html and the move into place; and
  with --plots, the plots, and of them matplotlib's and numpy's import.

Printed, not asserted: the machine is shared, and its cores change speed.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MATCHES = 400
COMMAND = ["balance", "--game", "dtt", "--bots", "random", "--matches", str(MATCHES)]
SHOWN = "python -m sim " + " ".join(COMMAND)


def child(plots):
    """One run of the command in this process; its parts' CPU seconds as JSON on stdout."""
    start = time.process_time()  # the interpreter's start, up to here
    import sim  # noqa: F401  (first: it puts the board's code, firmware/, on sys.path)
    from sim import balance, report
    from sim.__main__ import main

    parts = dict.fromkeys(("per_match", "figures", "files", "plots", "plots_import"), 0.0)
    marks = {}

    def timed(owner, name, part):
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            t = time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                parts[part] += time.process_time() - t

        setattr(owner, name, wrapper)

    def marked(owner, name):
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            marks[name] = time.process_time()
            result = real(*args, **kwargs)
            marks[name + "_end"] = time.process_time()
            return result

        setattr(owner, name, wrapper)

    timed(report.Rows, "add", "per_match")
    timed(balance.Tally, "add", "per_match")
    timed(balance, "figures", "figures")
    timed(report, "write_json", "files")
    timed(report, "write_pages", "files")
    draw = report.write_plots

    def imported_first(*args):
        # what the plots import, timed on its own (inside the plots' time)
        t = time.process_time()
        import matplotlib
        import numpy  # noqa: F401

        matplotlib.use("Agg")
        from matplotlib.figure import Figure  # noqa: F401

        parts["plots_import"] += time.process_time() - t
        return draw(*args)

    report.write_plots = imported_first
    timed(report, "write_plots", "plots")
    marked(balance, "run")
    out = tempfile.mkdtemp(prefix="bench-report-")
    try:
        with open(os.devnull, "w") as quiet:
            saved, sys.stdout = sys.stdout, quiet
            try:
                status = main(COMMAND + ["--jobs", "1", "--out", out] + ["--plots"] * plots)
                end = time.process_time()
            finally:
                sys.stdout = saved
        files = sorted(os.listdir(out))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if status != 0:
        raise SystemExit("the command exited %d" % status)
    played = marks["run_end"] - marks["run"] - parts["per_match"]
    after = end - marks["run_end"]  # the figures, the files, the plots, the move into place
    parts["files"] += after - parts["figures"] - parts["files"] - parts["plots"]
    times = {**parts, "start": start, "before": marks["run"], "matches": played}
    print(json.dumps({"files_written": files, **times}))


def run_child(plots):
    """The figures of one child: its parts, and its whole CPU from getrusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, __file__, "--child"] + ["--plots"] * plots,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    parts = json.loads(done.stdout)
    parts["total"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return parts


def median(runs, key):
    return statistics.median(r[key] for r in runs)


def main():
    p = argparse.ArgumentParser(description="The balance report's cost: " + SHOWN)
    p.add_argument("--runs", type=int, default=3, help="runs of each, without and with --plots")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--plots", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.plots)
        return
    runs = {False: [], True: []}
    for _ in range(args.runs):  # in turn, so that a slow spell of the machine hits both
        for plots in (False, True):
            runs[plots].append(run_child(plots))
    bare, drawn = runs[False], runs[True]
    total = median(bare, "total")
    before = median(bare, "before")
    matches = median(bare, "matches")
    per_match = median(bare, "per_match")
    figures = median(bare, "figures")
    files = median(bare, "files")
    fixed = figures + files
    report = per_match + fixed
    print("The balance report's cost: %s --jobs 1" % SHOWN)
    print("CPU seconds, median of %d runs each, without and with --plots in turn" % args.runs)
    print()
    print("without --plots (%s):" % ", ".join(bare[0]["files_written"]))
    line("the whole process", total)
    line("  the interpreter's start", median(bare, "start"))
    line("  sim's imports, the arguments", before - median(bare, "start"))
    line("  the %d matches" % MATCHES, matches)
    line("  the report", report, total)
    line("    results.csv's rows and the tallies, per match", per_match, total)
    line("    the figures", figures)
    line("    summary.json, .md, .html, moved into place", files)
    line("  the interpreter's exit, the rest", total - before - matches - report)
    line("the report's fixed cost (after the last match)", fixed, total)
    plots = median(drawn, "plots")
    with_total = median(drawn, "total")
    print()
    print("with --plots (%s):" % ", ".join(drawn[0]["files_written"]))
    line("the whole process", with_total)
    line("  the plots, matplotlib's import included", plots, with_total)
    line("    importing matplotlib and numpy", median(drawn, "plots_import"), with_total)
    line("--plots adds to the whole process", with_total - total, total)
    print()
    rest = total - matches
    for speed in (5, 10):
        faster = rest + matches / speed
        print(
            "matches %2dx faster: the report %4.1f %% of the run without --plots;"
            " the plots %4.1f %% with them"
            % (speed, 100 * report / faster, 100 * plots / (faster + plots))
        )


def line(label, seconds, whole=None):
    share = "" if whole is None else "  %5.1f %% of the run" % (100 * seconds / whole)
    print("  %-50s %6.3f s%s" % (label, seconds, share))


if __name__ == "__main__":
    main()
