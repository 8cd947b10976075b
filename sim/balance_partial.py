"""An unfinished balance run, kept in the report's folder so that `python -m sim
balance ... --resume` plays only the matches it lacks.

While a report is played, its folder holds `balance-partial/`:

- `command.json`: the command's parameters (its command line and every plan:
  game, players, options, bots, matches, seed, challenges), written whole
  before any match is played;
- `rows.jsonl`: one line per match played, in the order they were played
  (plan index, then the row play_one() gives), appended, flushed to the
  system at once and fsynced at most every second and at the end, so that a
  crash or Ctrl-C loses at most the line being written (a power cut: the last
  second's);
- the report's files while they are written, moved into the folder at the end,
  when `balance-partial/` is removed.

A resumed run reads rows.jsonl back (a last line cut short is dropped, and
played again), plays the rest and writes the same report, byte for byte, as an
uninterrupted run (sim/balance.py's run() hands the rows on in plan and match
order whatever order they were played in).
"""

import dataclasses
import json
import os
import time

FOLDER = "balance-partial"
COMMAND = "command.json"
ROWS = "rows.jsonl"
SYNC_EVERY = 1.0  # seconds between two fsyncs of rows.jsonl


class Damaged(Exception):
    """A file of the partial folder that is not what this module writes."""


def parameters(command, plans):
    """What makes a run this run: its command line and its plans, as JSON holds them."""
    return {
        "command": command,
        "plans": [json.loads(json.dumps(dataclasses.asdict(plan))) for plan in plans],
    }


def _fsync_folder(folder):
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def start(work, params):
    """A new partial folder holding the parameters and no rows yet."""
    os.mkdir(work)
    path = os.path.join(work, COMMAND)
    with open(path + ".new", "w", encoding="utf-8") as f:
        json.dump(params, f, sort_keys=True, indent=1)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(path + ".new", path)
    open(os.path.join(work, ROWS), "wb").close()
    _fsync_folder(work)
    _fsync_folder(os.path.dirname(os.path.abspath(work)))


def stored(work):
    """The parameters command.json holds (Damaged if it cannot be read)."""
    try:
        with open(os.path.join(work, COMMAND), encoding="utf-8") as f:
            params = json.load(f)
    except (OSError, ValueError) as e:
        raise Damaged("%s cannot be read (%s)" % (COMMAND, e)) from None
    if not isinstance(params, dict) or not isinstance(params.get("command"), str):
        raise Damaged("%s holds no command" % COMMAND)
    return params


def played(work):
    """How many whole lines rows.jsonl holds (0 if it cannot be read)."""
    try:
        with open(os.path.join(work, ROWS), "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return 0


def _row(line, plans):
    """(plan index, row) of one line; ValueError if it is not a match of `plans`."""
    p, i, seed, bots, scores, places, actions, rounds, lead = json.loads(line)
    numbers = [p, i, seed, actions, rounds, *scores, *places] + ([] if lead is None else [lead])
    if not all(type(n) is int for n in numbers):
        raise ValueError("not whole numbers")
    if not 0 <= p < len(plans):
        raise ValueError("no configuration %d" % p)
    plan = plans[p]
    if not 0 <= i < plan.matches or seed != plan.seed_of(i) or tuple(bots) != plan.bots_of(i):
        raise ValueError("not match %d of configuration %d" % (i, p))
    if len(scores) != plan.players or len(places) != plan.players:
        raise ValueError("not %d seats" % plan.players)
    return p, (i, seed, tuple(bots), tuple(scores), tuple(places), actions, rounds, lead)


def read(work, plans):
    """The rows already played, {plan index: {match index: row}}, and whether
    a last line cut short was dropped (rows.jsonl is cut back to its last
    whole line, so the rows played next follow it).  Damaged if a whole line
    is not a match of `plans`."""
    path = os.path.join(work, ROWS)
    with open(path, "rb") as f:
        data = f.read()
    whole = data.rfind(b"\n") + 1
    done = {}
    for n, line in enumerate(data[:whole].split(b"\n")[:-1], 1):
        try:
            p, row = _row(line, plans)
        except (ValueError, TypeError, IndexError, UnicodeDecodeError) as e:
            raise Damaged("%s line %d is not a match of this run (%s)" % (ROWS, n, e)) from None
        done.setdefault(p, {})[row[0]] = row
    cut = whole < len(data)
    if cut:
        with open(path, "r+b") as f:
            f.truncate(whole)
            os.fsync(f.fileno())
    return done, cut


class Journal:
    """rows.jsonl, appended as the rows come: record(p, rows)."""

    def __init__(self, work):
        self.file = open(os.path.join(work, ROWS), "a", encoding="utf-8", newline="\n")
        self.synced = time.monotonic()
        self.count = 0  # rows recorded by this run, flushed

    def record(self, p, rows):
        self.file.write(
            "".join(json.dumps([p, *row], separators=(",", ":")) + "\n" for row in rows)
        )
        self.file.flush()
        self.count += len(rows)
        if time.monotonic() - self.synced >= SYNC_EVERY:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def close(self):
        if not self.file.closed:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()


def finish(work):
    """The partial folder gone, once the report has moved out of it."""
    for name in (ROWS, COMMAND):
        path = os.path.join(work, name)
        if os.path.exists(path):
            os.remove(path)
    os.rmdir(work)
