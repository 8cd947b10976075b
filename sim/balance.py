"""Many matches on every core, and the figures a designer reads from them.

A run is a list of plans, one per configuration (game, players, options):
how match i of it is seeded and who sits where.  Every match depends on its
plan and its index alone, so the matches can be played in any order on any
number of processes or Dask workers (sim/balance_dask.py); run() hands them
to take() in plan and match order all the same, those an interrupted run kept
too (sim/balance_partial.py), and every figure is summed in exact integers, so
the rows and the figures are the same whatever --jobs or --scheduler is.

`python -m sim --matches N` plays one plan seeded seed, seed + 1, ... (as it
always has); `python -m sim balance` plays one plan per configuration, match
i seeded from (batch seed, configuration, i) by a hash, so that adding a
configuration to a sweep changes none of the others.
"""

import contextlib
import hashlib
import math
import multiprocessing
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass

from dicetable import games as registry
from dicetable.match.actions import DEAL, PLAY, ROLL, TABLE, kind_of, seat_of
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: two-sided 95 %

# The options a sweep may vary, in the order a configuration names them, and
# the flag bit of each (length is the count field instead).
OPTION_NAMES = ("length", "variant", "open_play", "table_rolls")
FLAG_BITS = {"variant": VARIANT, "open_play": OPEN_PLAY, "table_rolls": TABLE_ROLLS}

# A chunk is the matches of one plan a worker plays in one go.  Below this
# many, handing a chunk to another process costs about what it saves (a fast
# match takes 3 ms); a run of one chunk is played in this process.
CHUNK_MIN = 32
CHUNK_MAX = 100
CHUNKS_PER_JOB = 8  # enough to keep every worker busy to the end


# --- What a designer may vary ----------------------------------------------------------


def game_options(game):
    """The options `game` takes, from its registry entry: {name: largest value}
    (length: its longest; a flag: 1)."""
    g = registry.number(game)
    bits = registry.fact(g, registry.OPTIONS)
    taken = {}
    if bits & registry.COUNT:
        taken["length"] = registry.fact(g, registry.LONGEST)
    for name in OPTION_NAMES[1:]:
        if bits & FLAG_BITS[name]:
            taken[name] = 1
    return taken


@dataclass(frozen=True)
class Config:
    """One configuration: a player count and a value for every option the game
    takes (`values`: (name, value) pairs in OPTION_NAMES order); `swept` names
    the options the sweep varied, which its label shows."""

    players: int
    values: tuple
    swept: tuple = ()

    def word(self):
        """The options word of the match header (engine.options)."""
        flags = 0
        length = 0
        for name, value in self.values:
            if name == "length":
                length = value
            elif value:
                flags |= FLAG_BITS[name]
        return options(flags, length)

    def key(self):
        """A short name, unique in a run: '3p', '3p length=2 variant=1'."""
        parts = ["%dp" % self.players]
        parts += ["%s=%d" % (n, v) for n, v in self.values if n in self.swept]
        return " ".join(parts)

    def others(self):
        """The swept values but the player count's and the variant's: the
        configurations a plot panel or a variant comparison groups."""
        return tuple((n, v) for n, v in self.values if n in self.swept and n != "variant")

    def value(self, name):
        return dict(self.values).get(name, 0)


def configurations(players, sweeps, taken):
    """Every configuration of the player counts and swept values: player counts
    first, then each option in OPTION_NAMES order, values ascending; the options
    not swept are 0 (the game's own length, the flag off)."""
    swept = tuple(n for n in OPTION_NAMES if n in sweeps)
    combos = [()]
    for name in OPTION_NAMES:
        if name in taken:
            values = sorted(sweeps.get(name, [0]))
            combos = [c + ((name, v),) for c in combos for v in values]
    return [Config(n, c, swept) for n in players for c in combos]


# --- Plans and matches -----------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How match i of one configuration is seeded and seated."""

    game: str
    players: int
    options: int
    bots: tuple  # one name per seat
    matches: int
    seed: int
    hashed: bool = False  # seeds hashed from (seed, configuration, i); else seed + i
    rotate: bool = False  # match i seats bots[i % players] at seat 0, and so on round
    challenges: tuple = ()  # Dicefull's set from a file (its rows); () the one in use
    seeding: int = 2  # how a seed becomes a match: sim.play's SEEDINGS

    def seed_of(self, i):
        if not self.hashed:
            return self.seed + i
        text = "%d:%s:%d:%d:%d" % (self.seed, self.game, self.players, self.options, i)
        # 32 bits, as the table's generator takes: `python -m sim --seed` replays a row
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big")

    def bots_of(self, i):
        if not self.rotate:
            return self.bots
        k = i % self.players
        return self.bots[k:] + self.bots[:k]


def first_lead(journal):
    """The seat that leads the first trick (its first PLAY).  A game without
    tricks (Dicefull): the first seat to make a choice; a scanned item (DEAL)
    or an entered roll (ROLL) is no choice, and seats scan in any order."""
    choice = None
    for a in journal:
        seat = seat_of(a)
        if seat == TABLE:
            continue
        kind = kind_of(a)
        if kind == PLAY:
            return seat
        if choice is None and kind != DEAL and kind != ROLL:
            choice = seat
    return choice


def play_one(plan, i, play):
    """Match i of `plan` as a row: (index, seed, bots, scores, places, actions,
    rounds, first lead)."""
    seed = plan.seed_of(i)
    bots = plan.bots_of(i)
    match = play(plan.game, plan.players, plan.options, list(bots), seed, seeding=plan.seeding)
    return (
        i,
        seed,
        bots,
        tuple(match.totals),
        tuple(match.standings()),
        len(match.journal),
        len(match.history),
        first_lead(match.journal),
    )


def _ignore_sigint():
    # Ctrl-C reaches the whole process group: only the parent answers it (it
    # ends the pool), so a worker says nothing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(task):
    from sim.play import play, use_challenges

    k, plan, start, stop = task
    if plan.challenges:  # a worker need not be a fork of the process that read the file
        use_challenges(plan.challenges)
    return k, [play_one(plan, i, play) for i in range(start, stop)]


def missing_runs(plans, done):
    """(plan index, start, stop) of every run of consecutive matches not in
    `done` ({plan index: {match index: row}}), in order."""
    runs = []
    for p, plan in enumerate(plans):
        have = done.get(p)
        if not have:
            runs.append((p, 0, plan.matches))
            continue
        start = None
        for i in range(plan.matches + 1):
            if i < plan.matches and i not in have:
                if start is None:
                    start = i
            elif start is not None:
                runs.append((p, start, i))
                start = None
    return runs


def chunks(plans, jobs, done=None, most=CHUNK_MAX):
    """(plan index, start, stop) for every chunk of the matches not yet played
    (`done`, as missing_runs() reads it), in order, of at most `most` matches."""
    runs = missing_runs(plans, done or {})
    total = sum(stop - start for _, start, stop in runs)
    size = max(CHUNK_MIN, min(most, math.ceil(total / (jobs * CHUNKS_PER_JOB))))
    return [
        (p, first, min(first + size, stop))
        for p, start, stop in runs
        for first in range(start, stop, size)
    ]


class InOrder:
    """Rows in whatever order they are played, handed to take(plan index, row)
    in plan then match order: those already on hand (`done`) and each new one
    as soon as every row before it has come."""

    def __init__(self, plans, done, take):
        self.sizes = [plan.matches for plan in plans]
        self.waiting = {(p, i): row for p, rows in done.items() for i, row in rows.items()}
        self.take = take
        self.p = 0
        self.i = 0
        self.hand_on()

    def add(self, p, rows):
        for row in rows:
            self.waiting[(p, row[0])] = row
        self.hand_on()

    def hand_on(self):
        while self.p < len(self.sizes):
            if self.i == self.sizes[self.p]:
                self.p += 1
                self.i = 0
                continue
            row = self.waiting.pop((self.p, self.i), None)
            if row is None:
                return
            self.take(self.p, row)
            self.i += 1


@contextlib.contextmanager
def _local_pool(tasks, jobs):
    """(k, rows) of every task as it ends, played on `jobs` local processes."""
    pool = multiprocessing.get_context().Pool(min(jobs, len(tasks)), _ignore_sigint)
    try:
        yield pool.imap_unordered(_play_chunk, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run(plans, jobs, progress, take, play=None, done=None, record=None, cluster=None):
    """Play every match of every plan not in `done` ({plan index: {match index:
    row}}, the rows of an interrupted run) on `jobs` processes, or on a Dask
    `cluster` (sim/balance_dask.py), calling record(plan index, rows) with
    the rows as they are played (in any order), progress.advance(n) as matches
    end, and take(plan index, row) for every row, those of `done` too, in plan
    then match order.  One job (or one chunk) plays here, with `play` if given
    (the tests substitute it), else sim.play.play; workers always use
    sim.play.play."""
    done = done or {}
    order = InOrder(plans, done, take)
    if cluster is None:
        work = chunks(plans, jobs, done)
    else:
        work = chunks(plans, cluster.threads(), done, cluster.CHUNK_MAX)
    if cluster is None and (jobs == 1 or len(work) < 2):
        if play is None:
            from sim.play import play
        for p, start, stop in work:
            for i in range(start, stop):
                row = play_one(plans[p], i, play)
                if record is not None:
                    record(p, [row])
                progress.advance(1)
                order.add(p, [row])
        return
    tasks = [(k, plans[p], start, stop) for k, (p, start, stop) in enumerate(work)]
    played = _local_pool(tasks, jobs) if cluster is None else cluster.results(tasks)
    with played as results:
        for k, rows in results:
            p = work[k][0]
            if record is not None:
                record(p, rows)
            progress.advance(len(rows))
            order.add(p, rows)


# --- Progress --------------------------------------------------------------------------


def duration(seconds):
    """'37 s', '4 min 5 s', '2 h 3 min'."""
    s = int(math.ceil(seconds))
    if s < 120:
        return "%d s" % s
    if s < 7200:
        return "%d min %d s" % (s // 60, s % 60)
    return "%d h %d min" % (s // 3600, s % 3600 // 60)


class Progress:
    """Matches played so far, on stderr: a tqdm bar with rate and ETA on a
    terminal; in a log, a line every tenth ('12000/100000 matches, 2400/s,
    ETA 37 s') and one at the end."""

    def __init__(self, total, stream=None, initial=0):
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.done = self.initial = initial  # initial: played before (an interrupted run's)
        self.started = time.monotonic()
        self.step = max(1, math.ceil(total / 10))
        self.next_line = (initial // self.step + 1) * self.step
        self.bar = None
        if self.stream is not None and self.stream.isatty():
            import tqdm

            tqdm.tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
            self.bar = tqdm.tqdm(
                total=total,
                initial=initial,
                unit=" matches",
                file=self.stream,
                dynamic_ncols=True,
                smoothing=0.05,
            )

    def advance(self, n):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.stream is not None and (self.done >= self.next_line or self.done == self.total):
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.next_line = (self.done // self.step + 1) * self.step

    def line(self):
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = (self.done - self.initial) / elapsed  # this run's matches
        shown = "%d/s" % rate if rate >= 10 else "%.1f/s" % rate
        if self.done >= self.total:
            return "%d/%d matches, %s, in %s" % (self.done, self.total, shown, duration(elapsed))
        eta = (self.total - self.done) / rate if rate else 0
        return "%d/%d matches, %s, ETA %s" % (self.done, self.total, shown, duration(eta))

    def close(self):
        """End the bar's line (before a message, or at the end)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


# --- Intervals -------------------------------------------------------------------------


def wilson(wins, n, z=Z95):
    """The Wilson score interval of a proportion wins/n, (low, high); None for n = 0."""
    if n == 0:
        return None
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total, squares, n, z=Z95):
    """(mean, sample standard deviation, (low, high)) of n values from their sum
    and sum of squares (exact integers where they are integers); the normal
    approximation mean ± z·sd/√n.  sd and the interval are None below n = 2."""
    if n == 0:
        return None, None, None
    mean = total / n
    if n < 2:
        return mean, None, None
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    sd = math.sqrt(variance)
    half = z * sd / math.sqrt(n)
    return mean, sd, (mean - half, mean + half)


def newcombe(wins1, n1, wins2, n2, z=Z95):
    """Newcombe's hybrid score interval of p2 - p1 for two independent
    proportions (method 10 of Newcombe 1998, from the two Wilson intervals)."""
    a, b = wilson(wins1, n1, z), wilson(wins2, n2, z)
    if a is None or b is None:
        return None
    p1, p2 = wins1 / n1, wins2 / n2
    d = p2 - p1
    low = d - math.sqrt((p2 - b[0]) ** 2 + (a[1] - p1) ** 2)
    high = d + math.sqrt((b[1] - p2) ** 2 + (p1 - a[0]) ** 2)
    return (low, high)


def welch(m1, sd1, n1, m2, sd2, n2, z=Z95):
    """The normal-approximation interval of mean2 - mean1 for two independent samples."""
    if sd1 is None or sd2 is None:
        return None
    d = m2 - m1
    half = z * math.sqrt(sd1 * sd1 / n1 + sd2 * sd2 / n2)
    return (d - half, d + half)


def quantile(counts, q):
    """The nearest-rank q-quantile of a distribution {value: count}."""
    n = sum(counts.values())
    rank = max(1, math.ceil(q * n))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return value
    return None


# --- Figures of one configuration ------------------------------------------------------


class Sums:
    """Count, wins, sum and sum of squares of scores: one seat, one bot."""

    def __init__(self):
        self.n = 0
        self.wins = 0
        self.total = 0
        self.squares = 0

    def add(self, won, score):
        self.n += 1
        self.wins += won
        self.total += score
        self.squares += score * score

    def figures(self):
        mean, sd, ci = mean_interval(self.total, self.squares, self.n)
        return {
            "n": self.n,
            "wins": self.wins,
            "win_rate": self.wins / self.n if self.n else None,
            "win_rate_ci": wilson(self.wins, self.n),
            "mean_score": mean,
            "mean_score_ci": ci,
            "score_sd": sd,
        }


class Tally:
    """Every figure of one configuration, summed from its rows in exact
    integers (so the order they come in changes nothing)."""

    def __init__(self, players):
        self.players = players
        self.matches = 0
        self.seats = [Sums() for _ in range(players)]
        self.scores = [Counter() for _ in range(players)]
        self.bots = {}
        self.actions = Counter()
        self.rounds = Counter()
        self.leads = Counter()
        self.lead = Sums()  # the first lead's wins
        self.others = Sums()  # every other seat's wins
        # Per match, (players - 1)·(lead won) - (others who won): a whole number
        # that is (players - 1) times the lead's edge over the others' mean.
        self.edge = Sums()

    def add(self, row):
        _, _, bots, scores, places, actions, rounds, lead = row
        self.matches += 1
        for seat in range(self.players):
            won = places[seat] == 1
            self.seats[seat].add(won, scores[seat])
            self.scores[seat][scores[seat]] += 1
            self.bots.setdefault(bots[seat], Sums()).add(won, scores[seat])
        self.actions[actions] += 1
        self.rounds[rounds] += 1
        if lead is None:
            return
        self.leads[lead] += 1
        others_won = 0
        for seat in range(self.players):
            if seat != lead:
                self.others.add(places[seat] == 1, 0)
                others_won += places[seat] == 1
        lead_won = places[lead] == 1
        self.lead.add(lead_won, 0)
        self.edge.add(0, (self.players - 1) * lead_won - others_won)

    def first_lead(self):
        n = self.lead.n
        k = self.players - 1
        mean, _, ci = mean_interval(self.edge.total, self.edge.squares, n)
        return {
            "matches": n,
            "seats": [[seat, self.leads[seat]] for seat in sorted(self.leads)],
            "lead_wins": self.lead.wins,
            "lead_win_rate": self.lead.wins / n if n else None,
            "lead_win_rate_ci": wilson(self.lead.wins, n),
            "others_wins": self.others.wins,
            "others_win_rate": self.others.wins / self.others.n if self.others.n else None,
            "others_win_rate_ci": wilson(self.others.wins, self.others.n),
            "advantage": None if mean is None else mean / k,
            "advantage_ci": None if ci is None else (ci[0] / k, ci[1] / k),
        }


def spread(counts):
    """Mean with its interval, extremes, deciles and the distribution of {value: count}."""
    n = sum(counts.values())
    total = sum(v * c for v, c in counts.items())
    squares = sum(v * v * c for v, c in counts.items())
    mean, sd, ci = mean_interval(total, squares, n)
    return {
        "mean": mean,
        "mean_ci": ci,
        "sd": sd,
        "min": min(counts) if counts else None,
        "p10": quantile(counts, 0.1),
        "median": quantile(counts, 0.5),
        "p90": quantile(counts, 0.9),
        "max": max(counts) if counts else None,
        "distribution": [[v, counts[v]] for v in sorted(counts)],
    }


def figures(config, tally, plan):
    """The figures of one configuration, as summary.json holds them."""
    seats = []
    for seat in range(tally.players):
        f = tally.seats[seat].figures()
        f["seat"] = seat
        if not plan.rotate:
            f["bot"] = plan.bots[seat]
        f["scores"] = spread(tally.scores[seat])
        seats.append(f)
    out = {
        "key": config.key(),
        "players": config.players,
        "options": dict(config.values),
        "options_word": config.word(),
        "matches": tally.matches,
        "fair_share": 1 / config.players,
        # What every seat would win in a seat-fair game: above the fair share
        # when first places are shared.
        "even_win_rate": sum(s.wins for s in tally.seats) / (tally.matches * tally.players)
        if tally.matches
        else None,
        "seats": seats,
        "actions": spread(tally.actions),
        "rounds": spread(tally.rounds),
        "first_lead": tally.first_lead(),
    }
    if plan.rotate:
        out["bots"] = {name: sums.figures() for name, sums in sorted(tally.bots.items())}
    return out


def variant_pairs(configs, results):
    """Variant against standard: each pair of configurations alike but for the
    variant, per seat the differences (variant - standard) with intervals."""
    by_key = {}
    for config, f in zip(configs, results, strict=True):
        if "variant" in config.swept:
            by_key.setdefault((config.players, config.others()), {})[config.value("variant")] = f
    pairs = []
    for (players, others), pair in sorted(by_key.items()):
        if 0 not in pair or 1 not in pair:
            continue
        std, var = pair[0], pair[1]
        seats = []
        for a, b in zip(std["seats"], var["seats"], strict=True):
            seats.append(
                {
                    "seat": a["seat"],
                    "win_rate_diff": b["win_rate"] - a["win_rate"],
                    "win_rate_diff_ci": newcombe(a["wins"], a["n"], b["wins"], b["n"]),
                    "mean_score_diff": b["mean_score"] - a["mean_score"],
                    "mean_score_diff_ci": welch(
                        a["mean_score"],
                        a["score_sd"],
                        a["n"],
                        b["mean_score"],
                        b["score_sd"],
                        b["n"],
                    ),
                }
            )
        sa, sb = std["actions"], var["actions"]
        pairs.append(
            {
                "players": players,
                "options": dict(others),
                "standard": std["key"],
                "variant": var["key"],
                "seats": seats,
                "actions_diff": sb["mean"] - sa["mean"],
                "actions_diff_ci": welch(
                    sa["mean"], sa["sd"], std["matches"], sb["mean"], sb["sd"], var["matches"]
                ),
            }
        )
    return pairs
