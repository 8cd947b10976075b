"""Flash figures of the journal (`make bench`): what a commit costs the Pico, on
the NOR flash model at the W25Q16's typical timings (sector erase 45 ms, page
program 0.4 ms), and the model checked against the board.

THE MODEL.  A commit's time = its Python, timed under MicroPython (the
WebAssembly build, the Pico's heap) in units of tools/bench/pico_cost.py's
unit loop timed just before and just after it (the faster of the two: a unit
loop slowed by other work on the machine would make the commit look fast),
each commit alone, the fastest of RUNS runs of the same commits
+ CALL_US of CPU per flash call (flashmodel/norflash.py: the SDK's flash calls,
interrupts off, beyond the chip's own busy time) + the chip's busy time.
The journal's flash is a stand-in for rp2.Flash() (a method in C on the
board): it logs what it is asked, which reaches the NOR model between
commits, untimed; what a call of the stand-in costs is timed apart and taken
off.

Every run first carries out the same operations untimed on another flash: the
first run of a path costs the WebAssembly build the compiling of its code,
which is no Pico time (the first new_match of a run took ten times the
second).

1. Calibration: the journal as it was at 74a722b (its hal/ taken from git,
   imported ahead of today's) appending a 5-player Nokosu match's actions
   in a row after its new_match, as the board was timed doing (MEASURED):
   the model's median and worst commit beside the board's, before and after
   CALL_US, and the CALL_US that would make the medians equal; what a load()
   of that journal takes (the resume at a power-up).
2. Today: the same match as the table writes it (the header with the seats
   and seed, then every action, an undo and its redo every 50), the work
   ahead (Storage.work_ahead) called once after the power-up and once after
   every commit: commit median / p99 / worst (new_match included), flash
   busy per commit, sector erases per 100 actions (in commits and in all),
   page programs per action, and the work ahead per 100 actions: the calls
   that did work, each one's Pico time; a call with nothing to do; a load();
   the CRC's byte table made at import.
3. Many undos: 200 actions of a 3-player Nokosu match, each taken back and
   made again 7 times (3,000 records: past six segments), the work ahead as
   above: the worst commit, and the compaction's steps.
4. The old design for comparison: each action appended to journal.bin and
   flushed through real LittleFS (littlefs-python, the board's geometry):
   flash busy per action.
5. Wear: matches in a row on one board until a sector of the journal reaches
   100 000 erases (the W25Q16's rated endurance), from the erases per segment
   that 50 matches give (the work ahead included).
"""

import pathlib
import subprocess
import tempfile

import pico_cost

import sim
from dicetable.games import header
from flashmodel.norflash import CALL_US, ERASE_US, PROGRAM_US, NorFlash
from flashmodel.vflash import VFlash
from hal.storage import Storage
from sim.play import play

ROOT = sim.ROOT

ENDURANCE = 100000
WORDS = (0xF0001F, 0xE00001)
OLD = "74a722b"
# The board at 74a722b (docs/performance.md, "Flash"): commit per accepted
# action, 759 in a row: median, worst, and the median's Python.
MEASURED = {"median": 1240, "worst": 50380, "python": 840}
RUNS = 5
CHUNK = 40  # operations per part of the script (the heap is collected between parts)
NEW, UNDO, AHEAD = -3, -1, -2  # operations besides an append (an action word)

SETUP = """
#: next run
import os
import sys

FILES = %(files)r
for d in ("/old", "/old/hal"):
    if FILES:
        os.mkdir(d)
for name in FILES:
    with open("/old/hal/" + name, "w") as f:
        f.write(FILES[name])
if FILES:
    sys.path.insert(0, "/old")  # the journal of that commit, ahead of today's
FILES = None
#: next run
from hal.storage import Storage
from flashmodel.vflash import VFlash

HEADER = %(header)r
WORDS = %(words)r


class Chip:
    # rp2.Flash() as the journal calls it: what it asks is logged, and done
    # to the NOR model between operations, untimed.
    def __init__(self, nor):
        self.nor = nor
        self.log = []
        self.writes = 0
        self.erases = 0
        self.reads = 0

    def readblocks(self, block, buf, offset=0):
        self.reads += 1
        self.nor.readblocks(block, buf, offset)

    def writeblocks(self, block, buf, offset=None):
        self.writes += 1
        self.log.append((block, bytes(buf), offset))

    def ioctl(self, op, arg):
        if op == 6:
            self.erases += 1
            self.log.append((arg, None, 0))
            return 0
        return self.nor.ioctl(op, arg)

    def flush(self):
        for block, data, offset in self.log:
            if data is None:
                self.nor.erase(block)
            else:
                self.nor.program(block, data, offset)
        self.log = []
        self.writes = self.erases = self.reads = 0


def fresh():
    global flash, storage, chip, ahead
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    storage.load()
    chip = Chip(flash.raw)
    storage._open().dev = chip
    ahead = getattr(storage, "work_ahead", None)


def op(x):
    if x >= 0:
        storage.append(x)
    elif x == %(undo)d:
        storage.undo()
    elif x == %(new)d:
        storage.new_match(HEADER, WORDS)
    else:
        return ahead()
    return True


def warm(ops):
    # Untimed: the first run of a path costs this build the compiling of its
    # C code (V8's), which is no Pico time.
    for x in ops:
        op(x)
        chip.flush()


def timed(ops):
    for x in ops:
        chip.flush()
        u = unit_us()
        t = clock()
        did = op(x)
        d = clock() - t
        print(x, 1 if did else 0, d, u, unit_us(), chip.writes, chip.erases, chip.reads)
"""

STAND_IN = """
#: next run
chip.flush()
page = bytearray(256)
ticks = []
for _ in range(200):
    u = unit_us()
    t = clock()
    d = clock() - t
    ticks.append(d / u)
ticks.sort()
ticks = ticks[100]


def write():
    chip.writeblocks(0, page, 256)


def erase():
    chip.ioctl(6, 0)


def read():
    chip.readblocks(0, page, 256)


read_us = pico_us(read, 5, 20)
print("stand-in", ticks, pico_us(write, 5, 20), pico_us(erase, 5, 20), read_us)
chip.log = []
"""

IDLE = """
#: next run
chip.flush()
from hal import journal_segments

print("nothing", pico_us(ahead, 20), pico_us(journal_segments._table, 1, 9))
"""

LOAD = """
#: next run
chip.flush()
storage._open().load()
reads = chip.reads




def unit_long():
    # The unit loop over about as long as a load: both meet the same other work
    # (in runs of 20 000, whose sum stays a small int).
    t = clock()
    for _ in range(3):
        _unit_loop(20000)
    return (clock() - t) / 60000


ratios = []
for _ in range(7):
    u = unit_long()
    t = clock()
    storage._open().load()
    d = clock() - t
    ratios.append(2 * d / (u + unit_long()))
ratios.sort()
print("load", ratios[3] * %r - reads * read_us, reads)
"""


def nokosu(players, seed):
    """(header4, actions) of a heuristic match."""
    m = play("nokosu", players, seed, ["heuristic"] * players, 1)
    return header(m), list(m.journal)


def as_table_writes(actions, ahead=True):
    """The operations of a match as the table writes it (an undo and its redo
    every 50 actions), a call of the work ahead after the power-up and after
    every commit."""
    ops = [AHEAD] if ahead else []
    for x in [NEW] + [y for i, a in enumerate(actions) for y in _redo(i, a)]:
        ops += [x, AHEAD] if ahead else [x]
    return ops


def _redo(i, a):
    return [a, UNDO, a] if i % 50 == 49 else [a]


def many_undos(actions):
    ops = [AHEAD]
    for x in [NEW] + [y for a in actions for y in [a] + [UNDO, a] * 7]:
        ops += [x, AHEAD]
    return ops


def old_files():
    """{name: source} of hal/ at OLD (journal.py, storage.py, __init__.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", OLD, "firmware/hal"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        hal = pathlib.Path(tmp) / "firmware" / "hal"
        return {n: (hal / n).read_text() for n in ("__init__.py", "journal.py", "storage.py")}


def script(header, ops, files=None):
    source = pico_cost.TIMER + SETUP % {
        "files": files or {},
        "header": header,
        "words": WORDS,
        "undo": UNDO,
        "new": NEW,
    }
    for run in ("warm", "timed"):
        source += "\n#: next run\nfresh()\n"
        if run == "timed":
            source += STAND_IN
        for k in range(0, len(ops), CHUNK):
            source += "\n#: next run\n%s(%r)\n" % (run, ops[k : k + CHUNK])
    if files is None:
        source += IDLE
    return source + LOAD % pico_cost.UNIT_US


def measure(header, ops, files=None):
    """[(op, did, Pico us of its Python, flash calls, erases)], each the fastest
    of RUNS runs (each with its own stand-in costs taken off), a call of the work
    ahead with nothing to do and the CRC table's making at import (us, or
    None), and a load() of the journal written (us: the median of the runs'
    medians of 7, each beside a unit loop about as long)."""
    runs = []
    for _ in range(RUNS):
        out = pico_cost.run(script(header, ops, files), timeout=1800).splitlines()
        tick, write_us, erase_us, read_us = (float(x) for x in out[0].split()[1:])
        rows = []
        for line in out[1 : 1 + len(ops)]:
            x, did, d, before, after, writes, erases, reads = line.split()
            writes, erases, reads = int(writes), int(erases), int(reads)
            units = float(d) / min(float(before), float(after))
            python = (units - tick) * pico_cost.UNIT_US
            python -= writes * write_us + erases * erase_us + reads * read_us
            rows.append((int(x), did == "1", python, writes, erases))
        runs.append((rows, out))
    first = runs[0][0]
    for rows, _ in runs:
        assert [(r[0], r[1], r[3], r[4]) for r in rows] == [
            (r[0], r[1], r[3], r[4]) for r in first
        ], "runs differ"
    rows = [
        (r[0], r[1], max(min(run[0][i][2] for run in runs), 0.0), r[3], r[4])
        for i, r in enumerate(first)
    ]
    nothing = None
    if files is None:
        nothing = [median([float(run[1][1 + len(ops)].split()[k]) for run in runs]) for k in (1, 2)]
    load = median([float(run[1][-1].split()[1]) for run in runs])
    return rows, nothing, load


def cost(row, call_us=CALL_US):
    """Pico us of one operation: Python + CPU per flash call + the chip's busy time."""
    _, _, python, writes, erases = row
    return python + call_us * (writes + erases) + PROGRAM_US * writes + ERASE_US * erases


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, int(p * len(s)))]


def median(xs):
    return pct(xs, 0.5)


def ms(us):
    return "%.2f ms" % (us / 1000)


def calibration(header, actions):
    ops = [NEW] + actions
    rows, _, load = measure(header, ops, old_files())
    appends = rows[1:]
    python = [r[2] for r in appends]
    flash_only = [cost(r, 0) - r[2] for r in appends]
    plain = [cost(r, 0) for r in appends]
    mended = [cost(r) for r in appends]
    worst = max(range(len(appends)), key=lambda i: mended[i])
    fit = MEASURED["median"] - median(plain)
    print(
        "calibration: the journal at %s, a 5-player Nokosu match's %d actions appended in a row"
        % (OLD, len(actions))
    )
    print(
        "  board (measured on the Pico's firmware at %s): median %s (Python %s), worst %s"
        % (OLD, ms(MEASURED["median"]), ms(MEASURED["python"]), ms(MEASURED["worst"]))
    )
    print(
        "  model, flash busy only (what the docs said): median %s, worst %s"
        % (ms(median(flash_only)), ms(max(flash_only)))
    )
    print(
        "  model, Python (unit loop) + flash busy: median %s (Python %s), worst %s"
        % (ms(median(plain)), ms(median(python)), ms(plain[worst]))
    )
    print(
        "  model, + %d us of CPU per flash call (CALL_US): median %s (%+.0f %%),"
        " worst %s (%+.0f %%) [the worst: %s of Python, %d flash calls]"
        % (
            CALL_US,
            ms(median(mended)),
            100 * (median(mended) / MEASURED["median"] - 1),
            ms(mended[worst]),
            100 * (mended[worst] / MEASURED["worst"] - 1),
            ms(appends[worst][2]),
            appends[worst][3] + appends[worst][4],
        )
    )
    print(
        "  why per call: the board's Python is %.2fx the model's at the median (1 flash call),"
        " %.2fx at the worst (3 calls): no one factor fits both, a cost per call does"
        % (
            MEASURED["python"] / median(python),
            (MEASURED["worst"] - cost(appends[worst], 0) + appends[worst][2]) / appends[worst][2],
        )
    )
    print(
        "  CALL_US that makes the medians equal in this run: %d us; with it the worst is %s"
        % (fit, ms(cost(appends[worst], fit)))
    )
    print(
        "  erases per 100 appends: %.2f; load() of this journal (a power-up's resume): %s"
        % (100 * sum(r[4] for r in appends) / len(appends), ms(load))
    )


def today(header, actions):
    ops = as_table_writes(actions)
    rows, nothing, load = measure(header, ops)
    commits = [r for r in rows if r[0] != AHEAD]
    work = [r for r in rows if r[0] == AHEAD and r[1]]
    times = [cost(r) for r in commits]
    busy = [cost(r, 0) - r[2] for r in commits]
    n = len(actions)
    erases_commits = sum(r[4] for r in commits)
    erases_all = sum(r[4] for r in rows)
    programs = sum(r[3] for r in commits)
    worst = max(range(len(commits)), key=lambda i: times[i])
    print(
        "today: the same match as the table writes it (%d actions, an undo and its redo every 50,"
        " %d commits), Storage.work_ahead() once after the power-up and after every commit"
        % (n, len(commits))
    )
    print(
        "  commit: median %s, p99 %s, worst %s (%s: %s of Python, %d flash calls); new_match %s"
        % (
            ms(median(times)),
            ms(pct(times, 0.99)),
            ms(times[worst]),
            "new_match" if commits[worst][0] == NEW else "a commit",
            ms(commits[worst][2]),
            commits[worst][3] + commits[worst][4],
            ms(times[0]),
        )
    )
    print(
        "  commit Python: median %s, worst %s; flash busy per commit: median %s, worst %s"
        % (
            ms(median([r[2] for r in commits])),
            ms(max(r[2] for r in commits)),
            ms(median(busy)),
            ms(max(busy)),
        )
    )
    print(
        "  sector erases per 100 actions: %.2f in commits, %.2f in all (the last one the spare"
        " left for the next match); page programs per commit: %.3f"
        % (100 * erases_commits / n, 100 * erases_all / n, programs / len(commits))
    )
    print(
        "  work ahead: %d calls in %d did work (%.2f per 100 actions), each: %s"
        % (
            len(work),
            len(rows) - len(commits),
            100 * len(work) / n,
            ", ".join("%s (%s)" % (ms(cost(r)), "erase" if r[4] else "header page") for r in work),
        )
    )
    print(
        "  a call of the work ahead with nothing to do: %.0f us; the CRC table made at"
        " import: %s" % (nothing[0], ms(nothing[1]))
    )
    print("  load() of this journal (a power-up's resume): %s" % ms(load))


def undos(header, actions):
    ops = many_undos(actions)
    rows, _, _ = measure(header, ops)
    commits = [r for r in rows if r[0] != AHEAD]
    work = [r for r in rows if r[0] == AHEAD and r[1]]
    times = [cost(r) for r in commits]
    kinds = {"with an erase": [], "page programs": [], "no flash write": []}
    for r in work:
        if r[4]:
            kinds["with an erase"].append(cost(r))
        elif r[3]:
            kinds["page programs"].append(cost(r))
        else:
            kinds["no flash write"].append(cost(r))
    print(
        "many undos: %d actions of a 3-player Nokosu match, each undone and made again 7 times"
        " (%d commits), the work ahead after every commit" % (len(actions), len(commits))
    )
    print(
        "  commit: median %s, worst %s; erases in commits: %d"
        % (ms(median(times)), ms(max(times)), sum(r[4] for r in commits))
    )
    print(
        "  work ahead: %d calls did work (the compaction's reading, copying and switch among"
        " them), the longest %s; by kind: %s"
        % (
            len(work),
            ms(max(cost(r) for r in work)),
            "; ".join(
                "%d %s (longest %s)" % (len(v), k, ms(max(v))) for k, v in kinds.items() if v
            ),
        )
    )


def play_match(storage, header, journal, ahead=True):
    """Carry out a match as the table writes it, the work ahead after every commit."""
    for x in as_table_writes(journal, ahead):
        if x == NEW:
            storage.new_match(header, WORDS)
        elif x == UNDO:
            storage.undo()
        elif x == AHEAD:
            storage.work_ahead()
        else:
            storage.append(x)


def wear(header, journal, matches=50):
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    storage.load()
    start = list(flash.raw.erases)
    for _ in range(matches):
        play_match(storage, header, journal)
        storage.clear()
    blocks = storage._open().blocks
    worst = max(flash.raw.erases[b] - start[b] for b in blocks)
    return ENDURANCE * matches // worst


def old_design(journal):
    import littlefs_nor

    nor = NorFlash(littlefs_nor.PICO_BLOCKS)
    fs = littlefs_nor.mount(nor)
    f = fs.open("journal.bin", "wb")
    f.write(b"DJ\x01" + bytes(6))
    f.close()
    f = fs.open("journal.bin", "ab", buffering=0)
    busy = []
    erases, programs = sum(nor.erases), sum(nor.programs)
    for a in journal:
        before = nor.busy_us
        f.write(a.to_bytes(4, "little") + b"\x00\x00")
        f.flush()
        busy.append(nor.busy_us - before)
    f.close()
    n = len(journal)
    return busy, 100 * (sum(nor.erases) - erases) / n, (sum(nor.programs) - programs) / n


def main():
    header, journal = nokosu(5, 0)
    print(
        "journal flash figures: NOR model at W25Q16 typicals (erase %d ms, page program %.1f ms),"
        " Python in Pico time (tools/bench/pico_cost.py), %d us of CPU per flash call"
        % (ERASE_US // 1000, PROGRAM_US / 1000, CALL_US)
    )
    calibration(header, journal)
    today(header, journal)
    h3, j3 = nokosu(3, 1)
    undos(h3, j3[:200])
    busy, erases, programs = old_design(journal)
    print(
        "before (append + flush through LittleFS): busy median %.1f ms, worst %.1f ms;"
        " %.1f erases per 100 actions; %.2f page programs per action"
        % (median(busy) / 1000, max(busy) / 1000, erases, programs)
    )
    print(
        "wear: %d full matches before a journal sector reaches %d erases"
        % (wear(header, journal), ENDURANCE)
    )


if __name__ == "__main__":
    main()
