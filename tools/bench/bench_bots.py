"""The bots' strength: `make bench-bots`, or on its own

    .venv/bin/python tools/bench/bench_bots.py [--matches N] [--bot ismcts:200]
        [--games dtwww,nokosu] [--players 3] [--jobs 2] [--seed 1] [--set reward=rank]
        [--decisions K]

For every game at its fewest and its most players (--players names others),
the share of matches one seat of the bot under test wins against heuristic
opponents and against random ones (--bot heuristic: against random ones),
with a 95 % Wilson interval and the fair share (1/players).  The tested seat
is rotated over the seats (match i: seat i mod players), match i is seeded
`seed + i`, so the seeds are fixed before the run and a run is the same
whatever the number of jobs (with a budget in playouts).  A match is played
as sim/play.py plays it in seeding 2: the table, else the lowest seat waited
on, acts; the table and random seats draw with the engine's random_action.
A first place shared by k seats counts 1/k.  Also printed: the budget, the
mean time of one decision of the tested bot (its choices with more than one
legal action that are not a roll or a scan), and the wall time of each row.
With --decisions K, no matches: the CPU time of K ismcts decisions per game
and player count (positions from a heuristic match), the budget's cost per game.
"""

import argparse
import math
import multiprocessing
import random
import sys
import time

import sim  # noqa: F401  (first: it puts the board's code, firmware/, on sys.path)
from dicetable.games import GAMES, new_match
from dicetable.match.actions import TABLE
from sim import gamehost, ismcts
from sim.draws import drawer
from sim.play import acting, choose, parse_bot, player_range, waiting_seats

OPPONENTS = ("heuristic", "random")
TESTED = ("ismcts", "heuristic")  # the bots a run can test
MATCHES = 200  # per game, player count and opponent (issue 25)
Z = 1.959964  # the normal quantile of a 95 % two-sided interval


def wilson(wins, n, z=Z):
    """The Wilson score interval (low, high) of a share `wins`/`n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (centre - spread) / scale, (centre + spread) / scale


def one_match(task):
    """(credit of the tested seat, its decisions, their seconds) of one match."""
    game, players, opponent, bot, options, seed, index = task
    seat = index % players
    bots = [opponent] * players
    bots[seat] = bot
    name, playouts, ms = parse_bot(bot)
    rng = random.Random(seed + index)
    draw = drawer(rng)
    match = new_match(game, players, 0)
    heuristic = gamehost.host(game).heuristic
    decisions, seconds = 0, 0.0
    while True:
        w = match.waiting()
        if not w:
            break
        who = acting(w)
        if who == TABLE or bots[who] == "random":
            match.take(match.random_action(who, draw))
            continue
        if who != seat:
            a = choose(match, who, bots, rng)
        else:
            legal = match.legal_actions(who)
            start = time.perf_counter()
            if name == "ismcts":
                a = ismcts.choose(match, who, rng, playouts, ms, **options)
            else:
                a = heuristic(match, who, legal, rng)
            if len(legal) > 1 and not ismcts.is_chance(who, legal):
                decisions += 1
                seconds += time.perf_counter() - start
        if match.submit(a):
            raise RuntimeError("%s refused %#x from seat %d" % (game, a, who))
    places = match.standings()
    credit = 1.0 / places.count(1) if places[seat] == 1 else 0.0
    return credit, decisions, seconds


def configurations(games, players):
    """(game, players): each game at its fewest and most, or at the counts asked."""
    for game in games:
        low, high = player_range(game)
        for n in range(low, high + 1):
            if n in (players or (low, high)):
                yield game, n


def row(pool, game, n, opponent, args, options):
    tasks = [(game, n, opponent, args.bot, options, args.seed, i) for i in range(args.matches)]
    start = time.perf_counter()
    results = []
    for r in pool.imap(one_match, tasks, chunksize=1) if pool else map(one_match, tasks):
        results.append(r)
        # On stderr, so a long row shows it is moving without changing the table.
        print(
            "  %s %d %s: %d/%d matches, %.0f s"
            % (game, n, opponent, len(results), len(tasks), time.perf_counter() - start),
            file=sys.stderr,
            flush=True,
        )
    wall = time.perf_counter() - start
    wins = sum(r[0] for r in results)
    decisions = sum(r[1] for r in results)
    seconds = sum(r[2] for r in results)
    low, high = wilson(wins, args.matches)
    fair = 1.0 / n
    verdict = "above" if low > fair else ("below" if high < fair else "inside")
    per = 1000.0 * seconds / decisions if decisions else 0.0
    return "%-9s %d  %-9s  %5.3f  [%5.3f, %5.3f]  %5.3f  %-6s  %4d  %7.2f  %6.0f" % (
        game,
        n,
        opponent,
        wins / args.matches,
        low,
        high,
        fair,
        verdict,
        args.matches,
        per,
        wall,
    )


def positions(game, n, seed, count):
    """`count` decisions of a heuristic match (seeded `seed`): copies of the
    match at every 5th decision a seat makes (more than one legal action, not
    a roll or a scan), with that seat."""
    rng = random.Random(seed)
    match = new_match(game, n, 0)
    host = gamehost.host_of(match)
    out, seen = [], 0
    while not match.over() and len(out) < count:
        who = rng.choice(waiting_seats(match))
        legal = match.legal_actions(who)
        if who != TABLE and len(legal) > 1 and not ismcts.is_chance(who, legal):
            seen += 1
            if seen % 5 == 0:
                out.append((ismcts.clone(match), who))
        a = rng.choice(legal) if who == TABLE else host.heuristic(match, who, legal, rng)
        match.take(a)
    return out


def timing_row(game, n, args, options):
    """The CPU time of one decision at the budget: the process's own time, so
    other work on the machine slows it less than it does the wall clock."""
    _, playouts, ms = parse_bot(args.bot)
    cases = positions(game, n, args.seed, args.decisions)
    cpu = time.process_time()
    for match, seat in cases:
        ismcts.choose(match, seat, random.Random(args.seed), playouts, ms, **options)
    per = 1000.0 * (time.process_time() - cpu) / len(cases)
    return "%-9s %d  %4d  %8.0f" % (game, n, len(cases), per)


def _horizon(value):
    ismcts.rounds_of(value)  # ValueError unless round, match or a number of rounds
    return value


def parse_options(pairs):
    """--set key=value pairs for ismcts.Search: policy, reward, horizon, c,
    bias, completions, worlds, paired (0 or 1).  A bad pair: one line saying
    what the option takes, exit."""
    # Each option: how its value is read, and what it takes, for the refusal.
    reads = {
        "policy": ({p: p for p in ismcts.POLICIES}.__getitem__, " or ".join(ismcts.POLICIES)),
        "reward": ({r: r for r in ismcts.REWARDS}.__getitem__, ", ".join(ismcts.REWARDS)),
        "horizon": (_horizon, "round, match or a number of rounds"),
        "c": (float, "a number"),
        "bias": (float, "a number"),
        "completions": (int, "a whole number"),
        "worlds": (int, "a whole number"),
        "paired": ({"0": False, "1": True}.__getitem__, "0 or 1"),
    }
    options = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in reads:
            raise SystemExit("--set: no option %r (%s)" % (key, ", ".join(reads)))
        convert, takes = reads[key]
        try:
            options[key] = convert(value)
        except (KeyError, ValueError):
            raise SystemExit(
                "--set: %s=%r is not a value it takes (%s)" % (key, value, takes)
            ) from None
    return options


def check_args(args):
    """The player counts asked (None: all), or one line and exit for the
    first argument that is wrong, before anything is played."""
    try:
        bot = parse_bot(args.bot)[0]
    except ValueError as e:
        raise SystemExit("--bot: %s" % e) from None
    if bot not in TESTED:
        raise SystemExit("--bot: %r is not ismcts or heuristic (ismcts:300, ismcts:50ms)" % bot)
    if args.opponents is None:
        args.opponents = "random" if bot == "heuristic" else ",".join(OPPONENTS)
    if bot == "heuristic" and (args.decisions or args.opponents != "random"):
        raise SystemExit("--bot heuristic: against random opponents only, and no --decisions")
    for flag, known in (("games", GAMES), ("opponents", OPPONENTS)):
        for name in getattr(args, flag).split(","):
            if name not in known:
                raise SystemExit("--%s: no %r (%s)" % (flag, name, ", ".join(known)))
    for flag, least in (("matches", 1), ("jobs", 1), ("decisions", 0)):
        if getattr(args, flag) < least:
            raise SystemExit("--%s: %d, not %d or more" % (flag, getattr(args, flag), least))
    return None if args.players is None else player_counts(args.players, args.games.split(","))


def player_counts(text, games):
    """--players as a list of counts that at least one of `games` takes."""
    counts = text.split(",")
    if not all(c.isdigit() for c in counts):
        raise SystemExit("--players: %r, not player counts such as 3 or 3,4" % text)
    players = [int(c) for c in counts]
    if not list(configurations(games, players)):
        ranges = ", ".join("%s %d-%d" % ((g,) + player_range(g)) for g in games)
        raise SystemExit("--players: %s, which none of the games takes (%s)" % (text, ranges))
    return players


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument(
        "--bot",
        "--budget",
        dest="bot",
        default="ismcts",
        help="the bot under test: ismcts (its game's budget), ismcts:300, ismcts:50ms, heuristic",
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", default=None, help="player counts, e.g. 3 or 3,4")
    parser.add_argument(
        "--opponents", default=None, help="heuristic,random (default; random for --bot heuristic)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--decisions",
        type=int,
        default=0,
        help="instead of matches: the CPU ms of this many decisions per game and player count",
    )
    args = parser.parse_args(argv)
    players = check_args(args)
    options = parse_options(args.set)
    what = (
        "the CPU time of %d decisions a row, positions from a heuristic match seeded %d"
        % (args.decisions, args.seed)
        if args.decisions
        else "against other bots: %d matches a row, the tested seat rotated, seeds %d to %d"
        % (args.matches, args.seed, args.seed + args.matches - 1)
    )
    print(
        "%s (%s%s) %s"
        % (
            "ISMCTS" if args.bot.startswith("ismcts") else "The heuristic",
            args.bot,
            "".join(", %s=%s" % kv for kv in sorted(options.items())),
            what,
        )
    )
    if args.bot == "ismcts":
        print(
            "ismcts's own budget per game (each game's ismcts_playouts, sim/games/<key>.py): %s"
            % ", ".join("%s %d playouts" % (g, ismcts.game_playouts(g)) for g in GAMES)
        )
    if args.bot.startswith("ismcts"):
        print(
            "ismcts's own options (each game's ismcts_options, under --set): %s"
            % ", ".join(
                "%s %s" % (game, " ".join("%s=%s" % kv for kv in ismcts.game_options(game).items()))
                for game in GAMES
                if ismcts.game_options(game)
            )
        )
    if args.decisions:
        print("game      n  decisions  CPU ms a decision (one process)")
        for game, n in configurations(args.games.split(","), players):
            print(timing_row(game, n, args, options), flush=True)
        return
    print("game      n  opponents  wins   95% Wilson      fair   vs fair  games  ms/dec   wall s")
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for game, n in configurations(args.games.split(","), players):
            for opponent in args.opponents.split(","):
                print(row(pool, game, n, opponent, args, options), flush=True)
    finally:
        if pool:
            pool.close()


if __name__ == "__main__":
    main()
