"""python -m sim balance: its arguments, the report's folder, and the matches of
every configuration played into it (sim/balance.py plays and tallies them,
sim/report.py writes the files)."""

import os
import re
import shutil
import signal

import sim.play
from dicetable.games import GAMES, header_refusal
from sim import balance, balance_partial, report
from sim.arguments import (
    BOTS_HELP,
    MATCHES_MAX,
    SEED_MAX,
    add_challenges,
    add_jobs,
    add_seeding,
    check_bots,
    check_challenges,
    check_game_bots,
    default_jobs,
    load_challenges,
)
from sim.cli import FAILED, INTERRUPTED, PROG, Exit, Parser, say, shown, usage, whole
from sim.play import player_range

REPORT_MAX = 10000000  # matches in one balance report, all configurations together
BALANCE_ABOUT = (
    "play many matches of one game per configuration (player counts, swept options) "
    "on every core and write a balance report: results.csv, summary.json, summary.md "
    "and summary.html (and PNG plots with --plots)"
)


def parse_balance(argv):
    p = Parser(prog=PROG + " balance", description=BALANCE_ABOUT)
    p.add_argument("--game", required=True, metavar="{%s}" % ",".join(GAMES))
    p.add_argument(
        "--players", metavar="N or N-M", help="player counts (default: all the game allows)"
    )
    p.add_argument(
        "--matches",
        type=whole(1, MATCHES_MAX, "1 to %d per configuration" % MATCHES_MAX),
        default=1000,
        help="per configuration (default: 1000)",
    )
    p.add_argument(
        "--bots",
        help=BOTS_HELP % ", ".join(sim.play.BOTS),
    )
    p.add_argument(
        "--rotate",
        action="store_true",
        help="seat the bots round by match index, and report per bot too",
    )
    p.add_argument(
        "--seed",
        type=whole(0, SEED_MAX, "0 to %d" % SEED_MAX),
        default=1,
        help="the batch seed; each match's comes from it, its configuration and its index "
        "(default: 1)",
    )
    add_jobs(p)
    add_seeding(p)
    p.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="OPTION=V1,V2,...",
        help="an option's values to play each (length, variant, open_play, table_rolls: "
        "those the game takes); repeat for more options",
    )
    p.add_argument("--out", required=True, metavar="FOLDER", help="the report's folder")
    p.add_argument(
        "--plots",
        action="store_true",
        help="also draw the plots beside the pages, as PNGs with matplotlib: winrate.png (win "
        "rate per seat), scores.png and lengths.png (the distributions), variant.png (with the "
        "variant swept), bots.png (with --rotate); they take longer than the rest of the report",
    )
    add_challenges(p)
    p.add_argument(
        "--force", action="store_true", help="replace the report in a folder that is not empty"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="play only the matches an interrupted run of the same command left in --out",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on the Dask cluster of this scheduler (tcp://HOST:8786) instead of "
        "local processes",
    )
    args = p.parse_args(argv)
    check_balance(args)
    return args


def check_balance(args):
    game = args.game
    if game not in GAMES:
        raise usage("argument --game: %s" % header_refusal(game, 0, 0))
    args.players = check_players(args.players, game)
    check_challenges(args)
    args.sweeps = check_sweeps(args.sweep, game)
    args.configs = balance.configurations(args.players, args.sweeps, balance.game_options(game))
    for config in args.configs:
        why = header_refusal(game, config.players, config.word())
        if why:
            raise usage("argument --sweep: %s" % why)
    args.bot_names = [n.strip() for n in args.bots.split(",")] if args.bots else ["heuristic"]
    args.seat_bots = {n: check_bots(args.bots, n) for n in args.players}
    check_game_bots(game, args.bot_names)
    total = len(args.configs) * args.matches
    if total > REPORT_MAX:
        raise usage(
            "argument --matches: %d configurations of %d matches is %d, more than %d "
            "(fewer --matches, player counts or swept values)"
            % (len(args.configs), args.matches, total, REPORT_MAX)
        )
    if args.scheduler is not None:
        if args.jobs is not None:
            raise usage(
                "argument --jobs: not with --scheduler (the cluster's workers play: give each "
                "dask worker its --nworkers)"
            )
        if not args.scheduler.strip():
            raise usage("argument --scheduler: an empty address (e.g. tcp://HOST:8786)")
    if args.resume and args.force:
        raise usage("argument --force: not with --resume (--force starts again, --resume goes on)")
    args.jobs = args.jobs or default_jobs()
    args.seeding = args.seeding or sim.play.SEEDING
    if not args.out.strip():
        raise usage("argument --out: an empty folder name (give the folder to write the report in)")


def check_players(text, game):
    """--players N or N-M: the counts, each one the game takes."""
    low, high = player_range(game)
    if text is None:
        return list(range(low, high + 1))
    right = "a player count or a range, e.g. --players 4 or --players %d-%d" % (low, high)
    m = re.fullmatch(r"\s*([0-9]{1,9})\s*(?:-\s*([0-9]{1,9})\s*)?", text)
    if not m:
        raise usage("argument --players: %s is not a player count (%s)" % (shown(text), right))
    first = int(m.group(1))
    last = first if m.group(2) is None else int(m.group(2))
    if last < first:
        raise usage("argument --players: %s goes down (the fewer first: %s)" % (shown(text), right))
    for n in (first, last):
        why = header_refusal(game, n, 0)
        if why:
            raise usage("argument --players: %s" % why)
    return list(range(first, last + 1))


def check_sweeps(texts, game):
    """Every --sweep OPTION=V1,V2: {option: [values]}, each option one the game
    takes, each value within its range, neither given twice."""
    taken = balance.game_options(game)
    sweeps = {}
    for text in texts:
        name, _, values = text.partition("=")
        name = name.strip().replace("-", "_")
        if not _ or not name:
            raise usage(
                "argument --sweep: %s is not OPTION=VALUES (e.g. --sweep length=1,2,3)"
                % shown(text)
            )
        if name not in balance.OPTION_NAMES:
            raise usage(
                "argument --sweep: no option %s (the options are %s)"
                % (shown(name), ", ".join(balance.OPTION_NAMES))
            )
        if name not in taken:
            raise usage(
                "argument --sweep: %s has no %s (it takes %s)"
                % (game, name, ", ".join(taken) or "none")
            )
        if name in sweeps:
            raise usage("argument --sweep: %s swept twice (give all its values in one)" % name)
        sweeps[name] = sweep_values(name, values, taken[name])
    return sweeps


def sweep_values(name, text, most):
    right = (
        "%s takes 0, the game's own, to %d" % (name, most)
        if name == "length"
        else "%s takes 0 or 1" % name
    )
    values = []
    for word in text.split(","):
        word = word.strip()
        if not re.fullmatch(r"[0-9]{1,9}", word):
            raise usage(
                "argument --sweep: %s is not a value of %s (%s, comma-separated)"
                % (shown(word), name, right)
            )
        if int(word) > most:
            raise usage("argument --sweep: %s is out of range (%s)" % (shown(word), right))
        if int(word) in values:
            raise usage(
                "argument --sweep: %s=%s gives %s twice (give each value once)" % (name, text, word)
            )
        values.append(int(word))
    return values


def balance_command_line(args):
    """The command that gives this report (--jobs, --out and --force change nothing in it;
    --plots adds the plots)."""
    players = args.players
    words = [
        "python -m sim balance --game",
        args.game,
        "--players",
        "%d" % players[0] if len(players) == 1 else "%d-%d" % (players[0], players[-1]),
        "--matches %d --bots %s --seed %d" % (args.matches, ",".join(args.bot_names), args.seed),
    ]
    if args.seeding != sim.play.SEEDING:
        words.append("--seeding %d" % args.seeding)
    if args.rotate:
        words.append("--rotate")
    if args.plots:
        words.append("--plots")
    if args.challenges is not None:
        words.append("--challenges %s" % args.challenges)
    for name in balance.OPTION_NAMES:
        if name in args.sweeps:
            words.append("--sweep %s=%s" % (name, ",".join(str(v) for v in args.sweeps[name])))
    return " ".join(words)


def out_folder(path, force, resume):
    """The report's folder, its partial folder (balance_partial), and whether an
    unfinished run there is resumed; nothing is written yet."""
    out = os.path.normpath(path)
    work = os.path.join(out, balance_partial.FOLDER)
    if os.path.lexists(out) and not os.path.isdir(out):
        raise Exit(FAILED, "%s is not a folder (give --out a folder for the report)" % path)
    if os.path.isdir(out):
        if os.path.isdir(work):
            if resume:
                return out, work, True
            if not force:
                raise Exit(
                    FAILED,
                    "%s holds an unfinished run (%d matches played; add --resume to play the "
                    "rest, or --force to start again)" % (path, balance_partial.played(work)),
                )
        elif os.listdir(out) and not force:
            if resume:
                raise Exit(
                    FAILED,
                    "%s holds no unfinished run to resume (leave out --resume, and add --force "
                    "to replace its report or give a new folder)" % path,
                )
            raise Exit(
                FAILED,
                "%s is not empty (add --force to replace its report, or give a new folder)" % path,
            )
    else:
        where = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(where):
            raise Exit(
                FAILED,
                "no folder %s to make %s in (make it first, or write elsewhere)"
                % (where, os.path.basename(out)),
            )
    return out, work, False


def start_run(out, work, params):
    """The report's folder made if new, and a new partial folder in it
    (--force: an unfinished run's removed first)."""
    if not os.path.isdir(out):
        os.mkdir(out)
    if os.path.isdir(work):
        shutil.rmtree(work)
    balance_partial.start(work, params)


def resumed_rows(args, work, params):
    """The rows of the unfinished run in `work`, after checking it is this
    command's; a last line cut short is dropped with one line said."""
    try:
        kept = balance_partial.stored(work)
        if kept != params:
            raise Exit(
                FAILED,
                "%s holds an unfinished run of another command (%s): resume it with that "
                "command, or add --force instead of --resume to start this one"
                % (args.out, kept["command"]),
            )
        done, cut = balance_partial.read(work, params_plans(args))
    except balance_partial.Damaged as e:
        raise Exit(
            FAILED,
            "%s: %s (the unfinished run cannot be resumed: add --force instead of --resume "
            "to start again)" % (work, e),
        ) from None
    if cut:
        say(
            "%s: its last line was cut short when the run stopped: dropped (that match is "
            "played again)" % os.path.join(work, balance_partial.ROWS)
        )
    return done


def cannot_write(path, e, work=None):
    """The one line for a file that could not be written; `work`: a partial
    folder, whose matches played are said to be kept."""
    kept = ""
    if work is not None and os.path.isfile(os.path.join(work, balance_partial.COMMAND)):
        kept = "; the %d matches played are kept in %s: --resume goes on from them" % (
            balance_partial.played(work),
            work,
        )
    return Exit(
        FAILED,
        "cannot write %s: %s (write the report somewhere you may write%s)"
        % (path, (e.strerror or str(e)).lower(), kept),
    )


def move_in(work, out, written):
    """The whole report into `out`: each file is moved from the partial folder
    into place, the files of an earlier report this one does not write are
    removed (nothing else in the folder is touched), then the partial folder.
    Ctrl-C waits until it is done: the report is then whole."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to hold off
        old = None
    try:
        for name in written:
            os.replace(os.path.join(work, name), os.path.join(out, name))
        for name in report.FILES:
            if name not in written and os.path.isfile(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
        balance_partial.finish(work)
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)


def params_plans(args):
    """Every configuration's plan: how its matches are seeded and seated."""
    return [
        balance.Plan(
            args.game,
            c.players,
            c.word(),
            tuple(args.seat_bots[c.players]),
            args.matches,
            args.seed,
            hashed=True,
            rotate=args.rotate,
            challenges=args.challenge_rows,
            seeding=args.seeding,
        )
        for c in args.configs
    ]


def play_report(args, folder, done, cluster=None):
    """Play every configuration into `folder` (the partial folder): each match
    into its rows.jsonl as it ends, results.csv in order, then the figures,
    the plots (with --plots) and the pages.  `done`: the rows of an
    interrupted run, not played again.  The files written."""
    configs = args.configs
    plans = params_plans(args)
    tallies = [balance.Tally(c.players) for c in configs]
    options = [name for name, _ in configs[0].values]
    rows = report.Rows(os.path.join(folder, report.CSV), options, max(args.players))

    def take(p, row):
        rows.add(configs[p], row)
        tallies[p].add(row)

    total = len(plans) * args.matches
    progress = balance.Progress(total, initial=sum(len(rows) for rows in done.values()))
    if progress.done == total:
        progress.advance(0)  # every match was kept: the end line all the same
    journal = balance_partial.Journal(folder)
    try:
        balance.run(plans, args.jobs, progress, take, None, done, journal.record, cluster)
    except KeyboardInterrupt:
        progress.close()
        raise Exit(
            INTERRUPTED,
            "interrupted after %d of %d matches (kept in %s: %s)"
            % (
                progress.initial + journal.count,
                total,
                folder,
                "the same command with --resume plays the rest",
            ),
        ) from None
    except Exception as e:  # the cluster's: a lost scheduler, a worker with other code
        if cluster is None or (isinstance(e, OSError) and e.errno is not None):
            raise  # a file's (cannot_write), or a bug
        progress.close()
        done = progress.initial + journal.count
        raise cluster_failed(args.scheduler, e, done, total, folder) from None
    finally:
        journal.close()
        rows.close()
    progress.close()
    figs = [balance.figures(c, t, plan) for c, t, plan in zip(configs, tallies, plans, strict=True)]
    summary = {
        "command": balance_command_line(args),
        "game": args.game,
        "players": args.players,
        "matches": args.matches,
        "bots": args.bot_names,
        "rotate": args.rotate,
        "seed": args.seed,
        "seeding": args.seeding,
        "challenges": args.challenge_set,
        "sweep": args.sweeps,
        "interval": {"level": 0.95, "z": balance.Z95},
        "configurations": figs,
        "variant_vs_standard": balance.variant_pairs(configs, figs),
    }
    try:
        plots = report.write_plots(folder, configs, summary) if args.plots else []
        written = sorted([report.CSV, report.JSON, report.MARKDOWN, report.HTML] + plots)
        summary["files"] = written
        report.write_json(os.path.join(folder, report.JSON), summary)
        report.write_pages(folder, configs, summary, plots)
    except KeyboardInterrupt:
        raise Exit(
            INTERRUPTED,
            "interrupted after all %d matches, %s (kept in %s: the same command with --resume "
            "writes the report)"
            % (total, "drawing the plots" if args.plots else "writing the report", folder),
        ) from None
    return written, figs


def cluster_failed(address, e, done, total, folder):
    """The one line for a cluster that failed while it played."""
    from sim.balance_dask import OtherCode

    if isinstance(e, OtherCode):
        why = (
            "a worker on %s runs other code (%s, here %s: give every worker machine this "
            "checkout and venv, docs/designers.md)" % (e.host, e.version, e.wanted)
        )
    else:
        said = " ".join(str(e).split())  # one line
        why = "the Dask cluster at %s failed (%s: %s)" % (address, type(e).__name__, said)
    return Exit(
        FAILED,
        "%s after %d of %d matches (kept in %s: the same command with --resume plays the rest)"
        % (why, done, total, folder),
    )


def connect(address):
    """A client of the Dask scheduler at `address` (dask imported only now)."""
    try:
        from sim import balance_dask

        return balance_dask.Cluster(address)
    except ImportError as e:
        raise Exit(
            FAILED,
            "--scheduler needs dask and distributed (%s: .venv/bin/pip install -r "
            "requirements.txt)" % e,
        ) from None
    except balance_dask.Unreachable as e:
        raise Exit(FAILED, "%s (check the address, or leave out --scheduler)" % e) from None


def overview_lines(out, written, figs):
    lines = ["report in %s: %s" % (out, ", ".join(written))]
    for f in figs:
        lead = f["first_lead"]
        leads = "/".join("%d" % s for s, _ in lead["seats"]) or "-"
        lines.append(
            "%s: first lead (seat %s) wins %s, the others %s; %.1f actions, %.1f rounds"
            % (
                f["key"],
                leads,
                report.pct_ci(lead["lead_win_rate"], lead["lead_win_rate_ci"]),
                report.pct_ci(lead["others_win_rate"], lead["others_win_rate_ci"]),
                f["actions"]["mean"],
                f["rounds"]["mean"],
            )
        )
    return lines


def do_balance(argv):
    args = parse_balance(argv)
    args.challenge_rows = ()
    named = load_challenges(args)
    args.challenge_set = named[len("challenges: ") :] if named else "built-in"
    out, work, resuming = out_folder(args.out, args.force, args.resume)
    params = balance_partial.parameters(balance_command_line(args), params_plans(args))
    done = resumed_rows(args, work, params) if resuming else {}
    cluster = connect(args.scheduler) if args.scheduler is not None else None
    try:
        if not resuming:
            start_run(out, work, params)
        written, figs = play_report(args, work, done, cluster)
        move_in(work, out, written)
    except OSError as e:
        raise cannot_write(args.out, e, work) from None
    finally:
        if cluster is not None:
            cluster.close()
    return ([named] if named else []) + overview_lines(args.out, written, figs)
