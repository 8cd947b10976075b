"""Figures for the match engine: `make bench` (after the rules core's).

- Peak live heap on real MicroPython while folding a complete 5-player Nokosu
  Dice match and a complete 4-player DTwww match: after every action the
  collector runs and gc.mem_alloc() is read; the peak is above the baseline
  taken before the match is made (the journal itself already loaded; the
  modules already imported).
- Undo at the end of each game's longest match (largest player count,
  heuristic bots, the longest of seeds 1-8): the bytes one undo allocates on
  real MicroPython, before (BEFORE: every reset made its buffers afresh) and
  now, and the Pico time of one refold (reset and apply of every action) by
  the unit of tools/bench/pico_cost.py.
- Random complete d-TT deals per CPU-second through the match engine on CPython,
  three ways: the listing path (legal_actions, a random choice, submit: what
  sim/play.py's random bot did in seeding 1), random_action and take (issue 13: one legal
  action drawn without listing them, taken unchecked), and playout (the match
  played to its end in the engine's own loops: the game's playout.py); beside
  OpenSpiel 2.0.2's oh_hell with d-TT's deck and trick count (3 players, 4 suits
  of 10 ranks, 12 tricks), as a random rollout loop in Python (legal_actions(),
  random.choice, apply_action, its chance too) and in its C++ (evaluate_bots with
  uniform random bots), and the lab (sim/play.py's play(), matches of one deal),
  measured in the same run in interleaved slices of 0.05 s; printed as ratios. OpenSpiel
  is optional (requirements-bench.txt, installed by make bench): without it the
  ratios are not measured, and the bench says so.
- Per game (most players): CPU microseconds per action of random matches, in
  one run in interleaved slices of 0.02 s: the listing path as it was before issue 13
  (TODAY, timed in a subprocess on that commit's tree, extracted with git
  archive) against now: the listing path, random_action and take, and the
  game's playout where it has a playout.py; printed as speed-ups against
  TODAY, and whether the fastest reaches issue 13's 10x.
- Per game (most players): the lab's random matches, as `python -m sim` and
  `sim balance` play them with random bots at every seat (sim/play.py's play()),
  CPU ms a match in seeding 1 (every action chosen from the listed legal actions)
  and seeding 2 (the engine's random_action, the game's playout when every seat
  is random), beside the game's playout called alone; interleaved slices.

The speed figures are taken on one core (the worker too): this machine's
cores slow down and speed up by nearly 2x for a second or so at a time, so
contenders are timed in turn in slices far shorter than that, on the same
core, after one untimed match each (the first pays the imports).
"""

import contextlib
import inspect
import io
import os
import pathlib
import random
import subprocess
import sys
import tarfile
import tempfile
import time

import pico_cost

import sim
from dicetable.games import new_match
from dicetable.match.actions import TABLE, TABLE_BIT
from sim import mpy_wasm
from sim.play import play, playout_of

ROOT = sim.ROOT

# Each action runs in its own part of the script ("#: next run", see
# mpy_wasm.mjs), so that the collection before the reading frees everything
# the previous actions left behind.
PEAK_SETUP = """
import gc
from dicetable.games.%s.match import new
journal = %r
#: next run
gc.collect()
base = gc.mem_alloc()
match = new(%d, 0)
peak = 0
k = 0
"""
PEAK_STEP = """
#: next run
gc.collect()
peak = max(peak, gc.mem_alloc() - base)
match.submit(journal[k])
k += 1
"""
PEAK_END = """
#: next run
gc.collect()
print(peak, gc.mem_alloc() - base, len(journal))
"""


def micropython_peak(game, players):
    match = play(game, players, 0, ["heuristic"] * players, 1)
    script = (
        PEAK_SETUP % (game, list(match.journal), players)
        + PEAK_STEP * len(match.journal)
        + PEAK_END
    )
    out = mpy_wasm.run(script)
    peak, end, actions = (int(x) for x in out.split())
    return peak, end, actions


BEFORE = "496a2e2"  # the last commit whose resets made every buffer afresh
LARGEST = (("dtwww", 4), ("walzer", 4), ("dicefull", 5), ("dtt", 3), ("nokosu", 5))
CHUNK = 40  # actions per part: the list literal is compiled on the heap

UNDO_END = """
#: next run
before = gc.mem_alloc()
m.undo()
print(gc.mem_alloc() - before)
"""
REFOLD = """
#: next run
def refold():
    m.reset()
    for a in m.journal:
        m.apply(a)


# One refold per batch: each leaves its scoring lists behind, and this
# build collects garbage only between the parts of a script.
print(pico_us(refold, 1))
"""


def longest_journal(game, players):
    return max(
        (
            list(play(game, players, 0, ["heuristic"] * players, seed).journal)
            for seed in range(1, 9)
        ),
        key=len,
    )


def folded(game, players, journal, engine="dicetable.games.%s.match"):
    """A script that makes the match `m` and folds `journal` into it (`engine`:
    where the game's engine module is, dicetable.match.<game> before issue 11)."""
    parts = ["import gc\nfrom %s import new\nm = new(%d, 0)" % (engine % game, players)]
    parts += [
        "for a in %r:\n    m.submit(a)" % (journal[i : i + CHUNK],)
        for i in range(0, len(journal), CHUNK)
    ]
    return mpy_wasm.parts(parts)


@contextlib.contextmanager
def tree_at(rev, paths):
    """A temporary folder holding `paths` as they were at commit `rev`."""
    data = subprocess.run(
        ["git", "archive", rev, *paths],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        tarfile.open(fileobj=io.BytesIO(data)).extractall(tmp, filter="data")
        yield pathlib.Path(tmp)


@contextlib.contextmanager
def firmware_at(rev):
    """MicroPython runs load the firmware as it was at commit `rev`."""
    with tree_at(rev, ["firmware", "sim/hw", "tests/cases"]) as tmp:
        here = mpy_wasm.ROOT
        mpy_wasm.ROOT = tmp
        try:
            yield
        finally:
            mpy_wasm.ROOT = here


def undo_figures(game, players):
    """(actions, bytes one undo allocates before, now, Pico us of one refold)."""
    journal = longest_journal(game, players)
    with firmware_at(BEFORE):
        before = int(mpy_wasm.run(folded(game, players, journal, "dicetable.match.%s") + UNDO_END))
    now, pico = mpy_wasm.run(
        folded(game, players, journal) + UNDO_END + mpy_wasm.PART + pico_cost.TIMER + REFOLD
    ).split()
    return len(journal), before, int(now), float(pico)


# The seat acting: the table, else the lowest seat waited on (for every path
# alike, so that only the engine's work differs).
LOWEST = [TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1 for w in range(256)]


def listing_match(game, players, rng):
    """A random match through legal_actions and submit, as sim/play.py's
    random bot plays (rng.choice of the list)."""
    match = new_match(game, players)
    choice = rng.choice
    while True:
        w = match.waiting()
        if not w:
            return match
        match.submit(choice(match.legal_actions(LOWEST[w])))


def random_action_match(game, players, rng):
    """A random match through random_action and take."""
    match = new_match(game, players)
    draw = rng._randbelow  # the draw random.choice makes: no path pays randrange's checks
    while True:
        w = match.waiting()
        if not w:
            return match
        match.take(match.random_action(LOWEST[w], draw))


def playout_match(game, players, rng):
    match = new_match(game, players)
    playout_of(game)(match, rng._randbelow)
    return match


def oh_hell():
    """OpenSpiel's oh_hell with d-TT's deck and trick count, or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    params = {"players": 3, "num_suits": 4, "num_cards_per_suit": 10, "num_tricks_fixed": 12}
    return pyspiel, pyspiel.load_game("oh_hell", params)


def openspiel_python(spiel, rng):
    """One random deal of oh_hell, OpenSpiel's fastest ordinary loop in Python:
    legal_actions, random.choice, apply_action.  Its chance nodes (the deal, the
    trump card) have uniform outcomes, their legal_actions (7,800 chance nodes
    of 200 deals checked), so a choice among them is the game's chance; the
    loop through chance_outcomes() the bench used before is 1.3x slower."""
    _, game = spiel
    state = game.new_initial_state()
    choice = rng.choice
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
    return 1


def openspiel_cpp(spiel, bots, seed):
    """One random deal of oh_hell played in OpenSpiel's C++ (chance sampled there)."""
    pyspiel, game = spiel
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return 1


SLICE = 0.05  # CPU seconds per contender per round
ONE_DEAL = 1 << 8  # the option word of --length 1
ROUNDS = 48


def deals_per_second(spiel):
    """{contender: deals per CPU-second}, every contender timed in turn in
    each round (the machine's speed drifts: interleaved, they share it)."""
    rng = random.Random(7)
    contenders = {
        "listing": lambda: len(listing_match("dtt", 3, rng).history),
        "random_action": lambda: len(random_action_match("dtt", 3, rng).history),
        "playout": lambda: len(playout_match("dtt", 3, rng).history),
        # What a designer runs: sim/play.py's play(), matches of one deal (--length 1),
        # each made afresh, random bots at every seat.
        "lab": lambda: len(play("dtt", 3, ONE_DEAL, ["random"] * 3, rng.getrandbits(32)).history),
    }
    if spiel is not None:
        pyspiel = spiel[0]
        bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(3)]
        seeds = iter(range(1, 10**9))
        contenders["openspiel"] = lambda: openspiel_python(spiel, rng)
        contenders["openspiel_cpp"] = lambda: openspiel_cpp(spiel, bots, next(seeds))
    for one in contenders.values():
        one()  # untimed: the first deal pays the imports and the tables built then
    totals = {name: [0, 0.0] for name in contenders}
    for _ in range(ROUNDS):
        for name, one in contenders.items():
            deals = 0
            start = time.process_time()
            while time.process_time() - start < SLICE:
                deals += one()
            totals[name][0] += deals
            totals[name][1] += time.process_time() - start
    return {name: deals / seconds for name, (deals, seconds) in totals.items()}


TODAY = "3e6bba9"  # the last commit before issue 13: its "today"
TARGET = 10  # issue 13: every game at least 10x faster per action than TODAY
PER_GAME_SLICE = 0.02  # CPU seconds per contender per game per round
PER_GAME_ROUNDS = 50

# A process timing the listing path on another tree (sys.path set to it, so
# nothing of this one is loaded): it reads "game players seconds" lines and
# answers "actions cpu-seconds" for the random matches it played in that much
# CPU time, each contender's matches going on from its own generator.
WORKER = """
import random, sys, time
sys.path[:0] = [%(root)r + p for p in ("/cpython", "/firmware", "/tests", "")]
try:
    from dicetable.games import new_match
except ImportError:  # a tree whose match engine made the matches
    from dicetable.match.engine import new_match
from dicetable.match.actions import TABLE, TABLE_BIT
LOWEST = [TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1 for w in range(256)]
%(listing)s
rngs = {}
for line in sys.stdin:
    game, players, seconds = line.split()
    rng = rngs.setdefault(game, random.Random(11))
    actions = 0
    start = time.process_time()
    while time.process_time() - start < float(seconds):
        actions += len(listing_match(game, int(players), rng).journal)
    print(actions, time.process_time() - start, flush=True)
"""


class Listing:
    """The listing path at commit `rev`, timed in a worker process."""

    def __init__(self, tree):
        source = WORKER % {"root": str(tree), "listing": inspect.getsource(listing_match)}
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", source],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def slice(self, game, players, seconds):
        """(actions, CPU seconds) of `seconds` of random matches."""
        self.process.stdin.write("%s %d %r\n" % (game, players, seconds))
        self.process.stdin.flush()
        actions, cpu = self.process.stdout.readline().split()
        return int(actions), float(cpu)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def slice_here(game, players, play, rng, seconds):
    """(actions, CPU seconds) of `seconds` of random matches played by `play`."""
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += len(play(game, players, rng).journal)
    return actions, time.process_time() - start


def paths_now(game, players):
    """{name: play} of the paths this tree has for `game`."""
    paths = {"listing": listing_match}
    if hasattr(new_match(game, players), "random_action"):
        paths["random_action"] = random_action_match
    if playout_of(game) is not None:
        paths["playout"] = playout_match
    return paths


def us_per_action_now_and_today():
    """{(game, players): {path: CPU us per action}}: TODAY's listing path
    ("today") and this tree's paths, every one timed in turn in each round
    (the machine's speed drifts: interleaved, they share it)."""
    totals = {key: {} for key in LARGEST}
    rngs = {}
    with tree_at(TODAY, ["firmware", "cpython", "tests/match_helpers.py", "sim"]) as tree:
        today = Listing(tree)
        try:
            # One match of each path first, untimed: the first pays the imports
            # (a playout builds its tables then: DTwww's take 0.05 s).
            for game, players in LARGEST:
                today.slice(game, players, 1e-9)
                for play in paths_now(game, players).values():
                    play(game, players, random.Random(0))
            for game, players in LARGEST:
                for _ in range(PER_GAME_ROUNDS):
                    slices = {"today": today.slice(game, players, PER_GAME_SLICE)}
                    for name, play in paths_now(game, players).items():
                        rng = rngs.setdefault((game, name), random.Random(11))
                        slices[name] = slice_here(game, players, play, rng, PER_GAME_SLICE)
                    for name, (actions, cpu) in slices.items():
                        total = totals[game, players].setdefault(name, [0, 0.0])
                        total[0] += actions
                        total[1] += cpu
        finally:
            today.close()
    return {
        key: {name: cpu * 1e6 / actions for name, (actions, cpu) in paths.items()}
        for key, paths in totals.items()
    }


def print_speed():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # the worker inherits it
    spiel = oh_hell()
    rates = deals_per_second(spiel)
    print("  random complete d-TT deals per CPU-second (CPython, 3 players, in one run):")
    print("    listing path (legal_actions, choice, submit) %8.0f" % rates["listing"])
    print("    random_action + take                        %8.0f" % rates["random_action"])
    print("    playout                                     %8.0f" % rates["playout"])
    print("    the lab (python -m sim, one-deal matches)   %8.0f" % rates["lab"])
    if spiel is None:
        print("    OpenSpiel not installed: ratio not measured")
    else:
        python, cpp = rates["openspiel"], rates["openspiel_cpp"]
        print("    OpenSpiel 2.0.2 oh_hell, Python loop        %8.0f" % python)
        print("    OpenSpiel 2.0.2 oh_hell, C++                %8.0f" % cpp)
        print(
            "    ratio to OpenSpiel's Python loop: playout %.2fx, random_action + take %.2fx,"
            " the lab %.2fx; to its C++: playout %.2fx, the lab %.2fx"
            % (
                rates["playout"] / python,
                rates["random_action"] / python,
                rates["lab"] / python,
                rates["playout"] / cpp,
                rates["lab"] / cpp,
            )
        )
    print(
        "  CPU us per action of random matches (most players), in one run in interleaved slices:"
        " the listing path at %s (before issue 13) against now, and the speed-up" % TODAY
    )
    print(
        "    %-10s  %-15s  %-18s  %-18s  %-18s  %s"
        % ("game", TODAY + " listing", "listing", "random_action+take", "playout", "best")
    )
    for (game, players), us in us_per_action_now_and_today().items():
        today = us["today"]
        cells = [
            "%6.2f us (%4.1fx)" % (us[name], today / us[name]) if name in us else "-"
            for name in ("listing", "random_action", "playout")
        ]
        best = today / min(us[name] for name in us if name != "today")
        print(
            "    %-8s %d  %9.2f us     %-18s  %-18s  %-18s  %4.1fx: %s"
            % (
                game,
                players,
                today,
                *cells,
                best,
                "%dx reached" % TARGET if best >= TARGET else "short of %dx" % TARGET,
            )
        )


def lab_match(seeding):
    def one(game, players, rng):
        seed = rng.getrandbits(32)
        return play(game, players, 0, ["random"] * players, seed, seeding=seeding)

    return one


def print_lab():
    print(
        "  the lab's random matches (python -m sim, sim balance: every seat random), CPU ms a"
        " match, in one run in interleaved slices"
    )
    print("    %-10s  %-10s  %-18s  %s" % ("game", "seeding 1", "seeding 2", "playout alone"))
    paths = (("1", lab_match(1)), ("2", lab_match(2)), ("playout", playout_match))
    for game, players in LARGEST:
        totals = {name: [0, 0.0] for name, _ in paths}
        rngs = {name: random.Random(11) for name, _ in paths}
        for _, one in paths:
            one(game, players, random.Random(0))  # the imports, untimed
        for _ in range(PER_GAME_ROUNDS):
            for name, one in paths:
                rng = rngs[name]
                matches, start = 0, time.process_time()
                while time.process_time() - start < PER_GAME_SLICE:
                    one(game, players, rng)
                    matches += 1
                totals[name][0] += matches
                totals[name][1] += time.process_time() - start
        ms = {name: cpu * 1e3 / n for name, (n, cpu) in totals.items()}
        print(
            "    %-8s %d  %6.2f ms   %6.2f ms (%4.1fx)   %6.2f ms"
            % (game, players, ms["1"], ms["2"], ms["1"] / ms["2"], ms["playout"])
        )


def main():
    print("match engine figures")
    for game, players in (("nokosu", 5), ("dtwww", 4)):
        peak, end, actions = micropython_peak(game, players)
        print(
            "  %-7s %d players: peak live heap %6d B above baseline while folding %d actions"
            " (%d B held at the end)" % (game, players, peak, actions, end)
        )
    print(
        "  undo at the end of the longest match: bytes one undo allocates (before %s, now),"
        " Pico time of one refold" % BEFORE
    )
    for game, players in LARGEST:
        actions, before, now, pico = undo_figures(game, players)
        print(
            "  %-8s %d players, %3d actions: %5d B -> %4d B, refold %5.0f ms"
            % (game, players, actions, before, now, pico / 1000)
        )
    print_speed()
    print_lab()


if __name__ == "__main__":
    main()
