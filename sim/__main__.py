"""python -m sim: play, save, replay or batch-run matches of the dice table's games.

    python -m sim --game nokosu --players 5 --seed 3
    python -m sim --game walzer --bots heuristic,random --save walzer.match
    python -m sim --replay walzer.match
    python -m sim --game dtt --matches 1000
    python -m sim --game dicefull --challenges my-set.txt   # a challenge set of your own
    python -m sim --game dtwww --players 3 --table --human 0    # play seat 0 yourself
    python -m sim balance --game nokosu --players 3-5 --matches 1000 --out report/

Every refusal is one line on stderr, 'python -m sim: error: what is wrong (what
would be right)' (docs/refusals.md lists them).  Exit status: 0 done; 1 a failed
operation (a bad or unreadable match file, an action the rules refuse in a
replay, --save onto an existing file without --force, a file that cannot be
written); 2 a bad argument; 130 after Ctrl-C (nothing half-written); 141 when
the output is a closed pipe (| head), without a word.
"""

import argparse
import io
import os
import re
import shutil
import signal
import sys
import tempfile

try:
    import sim.play
    from dicetable.games import GAMES, header_refusal
    from dicetable.match.engine import LONGEST, OPEN_PLAY, TABLE_ROLLS, VARIANT, options
    from sim import balance, matchfile, report
    from sim.play import RefusedAction, play, player_range, replay
except KeyboardInterrupt:  # Ctrl-C before main() could take it
    sys.stderr.write("python -m sim: interrupted\n")
    sys.exit(130)

PROG = "python -m sim"
SEED_MAX = 0xFFFFFFFF  # the table's generator is 32 bits (dicetable/app/rng.py)
MATCHES_MAX = 1000000
REPORT_MAX = 10000000  # matches in one balance report, all configurations together
JOBS_MAX = 256
FLAGS = (
    ("--open-play", OPEN_PLAY, "open play"),
    ("--table-rolls", TABLE_ROLLS, "table rolls"),
    ("--variant", VARIANT, "variant"),
)
BOTS_HELP = "comma-separated, one per seat, repeated to fill: %s (default: heuristic)"
USAGE = 2
FAILED = 1
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program Ctrl-C stopped
CLOSED_PIPE = 141  # 128 + SIGPIPE, as a shell reports `yes | head`


class Exit(Exception):
    """Stop with one line on stderr and this exit status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def usage(message):
    return Exit(USAGE, message)


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage block + message, as one line
        if "(" not in message:  # argparse's own words: point to the list
            message += " (%s --help lists the options)" % self.prog
        raise usage(message)


def shown(text, width=30):
    """An argument as a message quotes it: escaped, and cut if long."""
    return repr(text if len(text) <= width else text[:width] + "...")


def whole(low, high, right):
    """An argparse type: a whole number from `low` to `high` (ASCII digits only:
    int() would take '٣' and '３'); `right` says what is allowed."""

    def parse(text):
        t = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", t):
            raise argparse.ArgumentTypeError("%s is not a whole number (%s)" % (shown(text), right))
        n = int(t) if len(t) <= 20 else (low - 1 if t[0] == "-" else high + 1)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError("%s is out of range (%s)" % (shown(text), right))
        return n

    return parse


def parse_args(argv):
    p = Parser(prog=PROG, description=(__doc__ or "").split("\n")[0])
    p.add_argument("--game", metavar="{%s}" % ",".join(GAMES), help="default: dtwww")
    p.add_argument(
        "--players",
        type=whole(-(10**20), 10**20, "a player count, e.g. --players 4"),
        help="default: the most the game allows",
    )
    p.add_argument(
        "--bots",
        help=BOTS_HELP % ", ".join(sim.play.BOTS),
    )
    p.add_argument(
        "--seed",
        type=whole(0, SEED_MAX, "0 to %d" % SEED_MAX),
        help="0 to %d (default: 1)" % SEED_MAX,
    )
    p.add_argument("--open-play", action="store_true", help="hands not scanned")
    p.add_argument("--table-rolls", action="store_true", help="the table rolls for the players")
    p.add_argument("--variant", action="store_true", help="the game's published variant")
    p.add_argument(
        "--length",
        type=whole(0, LONGEST, "0, the game's own, to %d" % LONGEST),
        help="games/rounds/deals, where the game lets it change "
        "(0: the game's own, to %d)" % LONGEST,
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        help="write the match file (not over an existing file: add --force to replace it)",
    )
    p.add_argument("--force", action="store_true", help="with --save: replace an existing file")
    p.add_argument("--replay", metavar="FILE", help="print the transcript of a match file")
    add_challenges(p)
    p.add_argument(
        "--table",
        action="store_true",
        help="interactive: the firmware on a virtual table; you play --human seats",
    )
    p.add_argument("--human", help="with --table: your seats, comma-separated (default: 0)")
    p.add_argument(
        "--matches",
        type=whole(1, MATCHES_MAX, "1 to %d" % MATCHES_MAX),
        help="play a batch of matches (seeds seed, seed+1, ...) and summarise",
    )
    add_jobs(p, "with --matches: ")
    args = p.parse_args(argv)
    if args.replay is not None:
        check_replay(args)
    else:
        check_play(args)
    return args


def add_challenges(p):
    p.add_argument(
        "--challenges",
        metavar="FILE",
        help="dicefull: the challenge set in this text file, in the built-in set's words "
        "(docs/designers.md; default: the built-in set)",
    )


def check_challenges(args):
    """--challenges goes with Dicefull alone (the file is read once the
    arguments are all good: a bad file is a failed operation, status 1)."""
    if args.challenges is None:
        return
    if args.game != "dicefull":
        raise usage(
            "argument --challenges: only with --game dicefull (its challenge cards), not %s"
            % args.game
        )
    check_challenges_name(args)


def check_challenges_name(args):
    if args.challenges is not None and not args.challenges.strip():
        raise usage("argument --challenges: an empty file name (give a challenge set)")


def load_challenges(args):
    """Read and use --challenges' set before anything is played or written:
    the transcript's line naming it, or None for the built-in set."""
    if args.challenges is None:
        return None
    try:
        rows = sim.play.read_challenges(args.challenges)
    except ValueError as e:
        raise Exit(FAILED, str(e)) from None
    args.challenge_word = sim.play.use_challenges(rows)
    args.challenge_rows = tuple(rows)
    return sim.play.set_line(args.challenges, rows)


def add_jobs(p, when=""):
    p.add_argument(
        "--jobs",
        type=whole(1, JOBS_MAX, "1 to %d processes" % JOBS_MAX),
        help="%sprocesses to play on (default: every core, %d here); "
        "the results are the same whatever it is" % (when, default_jobs()),
    )


def default_jobs():
    return min(os.cpu_count() or 1, JOBS_MAX)


def check_replay(args):
    given = [
        name
        for name in (
            "game",
            "players",
            "bots",
            "seed",
            "length",
            "save",
            "human",
            "matches",
            "jobs",
        )
        if getattr(args, name) is not None
    ]
    given += [
        name
        for name in ("open_play", "table_rolls", "variant", "force", "table")
        if getattr(args, name)
    ]
    if given:
        message = "argument --%s: not with --replay (the match file names game, players, options)"
        raise usage(message % given[0].replace("_", "-"))
    if not args.replay.strip():
        raise usage("argument --replay: an empty file name (give a match file)")
    check_challenges_name(args)  # the match file says whether it is Dicefull's


def check_play(args):
    args.game = "dtwww" if args.game is None else args.game
    game = args.game
    if game not in GAMES:
        raise usage("argument --game: %s" % header_refusal(game, 0, 0))
    if args.players is None:
        args.players = player_range(game)[1]
    why = header_refusal(game, args.players, 0)
    if why:
        raise usage("argument --players: %s" % why)
    args.options = check_options(args, game)
    check_challenges(args)
    args.bots = check_bots(args.bots, args.players)
    check_game_bots(game, args.bots)
    args.seed = 1 if args.seed is None else args.seed
    args.matches = args.matches or 1
    if args.seed + args.matches - 1 > SEED_MAX:
        message = "argument --matches: the seeds %d to %d go past %d (lower --seed or --matches)"
        raise usage(message % (args.seed, args.seed + args.matches - 1, SEED_MAX))
    check_table(args)
    check_save_args(args)
    check_jobs(args)


def check_jobs(args):
    """--jobs goes with a batch: one match plays on one core."""
    if args.jobs is not None and args.matches == 1:
        raise usage("argument --jobs: only with --matches 2 or more (one match plays on one core)")
    args.jobs = args.jobs or default_jobs()


def check_options(args, game):
    """The option word of --open-play, --table-rolls, --variant and --length."""
    flags = 0
    for name, bit, words in FLAGS:
        if getattr(args, name[2:].replace("-", "_")):
            if header_refusal(game, args.players, bit):
                takes = [n for n, b, _ in FLAGS if not header_refusal(game, args.players, b)]
                raise usage(
                    "argument %s: %s has no %s (%s)"
                    % (
                        name,
                        game,
                        words,
                        "it takes " + ", ".join(takes)
                        if takes
                        else "it takes none of " + ", ".join(n for n, _, _ in FLAGS),
                    )
                )
            flags |= bit
    length = args.length or 0
    why = header_refusal(game, args.players, options(0, length))
    if why:
        raise usage("argument --length: %s" % why)
    why = header_refusal(game, args.players, options(flags, length))
    if why:
        raise usage(why)
    return options(flags, length)


def check_table(args):
    """--table and --human, which go together."""
    if args.table:
        for name in ("save", "matches", "jobs"):
            if getattr(args, name) not in (None, 1):
                message = "argument --%s: not with --table (it plays one match, interactively)"
                raise usage(message % name)
        args.human = check_human(args.human, args.players)
    elif args.human is not None:
        raise usage("argument --human: only with --table (your seats at the virtual table)")


def check_save_args(args):
    """--save and --force, which go together."""
    if args.save is not None:
        if args.matches > 1:
            raise usage("argument --save: not with --matches (a file holds one match)")
        if not args.save.strip():
            raise usage("argument --save: an empty file name (give the file to write)")
    elif args.force:
        raise usage("argument --force: only with --save (it lets --save replace a file)")


def check_bots(text, players):
    if text is None:
        return ["heuristic"] * players
    names = [name.strip() for name in text.split(",")]
    # Read now, not at import: sim.play's bots may grow.
    bots = sim.play.BOTS
    right = "bots are %s, comma-separated" % (
        " or ".join(bots) if len(bots) < 3 else ", ".join(bots[:-1]) + " or " + bots[-1]
    )
    for name in names:
        if not name:
            raise usage("argument --bots: an empty name in %s (%s)" % (shown(text), right))
        why = bot_refusal(name, right)
        if why:
            raise usage("argument --bots: %s" % why)
    if len(names) > players:
        message = "argument --bots: %d bots for %d players (one a seat at most, repeated to fill)"
        raise usage(message % (len(names), players))
    return [names[s % len(names)] for s in range(players)]


def check_game_bots(game, bots):
    """Each bot finds in the game's host.py the parts it needs (a game added
    with only a heuristic cannot be searched): else one line."""
    refusal = getattr(sim.play, "bots_refusal", None)
    why = refusal(game, bots) if refusal is not None else None
    if why:
        raise usage(why)


def bot_refusal(name, right):
    """Why sim.play has no bot `name`, or None: its parse_bot() says, where it
    has one (it knows budgets such as ismcts:300), else its list of names."""
    parse = getattr(sim.play, "parse_bot", None)
    if parse is None:
        return None if name in sim.play.BOTS else "no bot %s (%s)" % (shown(name), right)
    try:
        parse(name)
    except ValueError as e:
        return str(e)
    return None


def check_human(text, players):
    if text is None:
        return [0]
    right = "seats 0 to %d, comma-separated, e.g. --human 0 or --human 0,2" % (players - 1)
    seats = []
    for word in text.split(","):
        word = word.strip()
        if not word:
            raise usage(
                "argument --human: %s (%s)"
                % (
                    "no seat given" if not text.strip() else "an empty seat in " + shown(text),
                    right,
                )
            )
        if not re.fullmatch(r"[0-9]+", word):
            raise usage("argument --human: %s is not a seat (%s)" % (shown(word), right))
        if len(word) > 3 or int(word) >= players:
            raise usage(
                "argument --human: no seat %s in a %d-player match (%s)" % (word, players, right)
            )
        if int(word) in seats:
            raise usage("argument --human: seat %s twice (%s)" % (word, right))
        seats.append(int(word))
    return seats


def say(text):
    if sys.stderr is not None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def batch(args):
    """--matches N: seeds seed, seed + 1, ... on --jobs processes, then wins and
    mean scores per seat (the same whatever --jobs is)."""
    wins = [0] * args.players
    totals = [0] * args.players
    plan = balance.Plan(
        args.game,
        args.players,
        args.options,
        tuple(args.bots),
        args.matches,
        args.seed,
        challenges=args.challenge_rows,
    )

    def take(_, row):
        for seat, place in enumerate(row[4]):
            wins[seat] += place == 1
            totals[seat] += row[3][seat]

    progress = balance.Progress(args.matches)
    try:
        balance.run([plan], args.jobs, progress, take, play)
    except KeyboardInterrupt:
        progress.close()
        raise Exit(
            INTERRUPTED,
            "interrupted after %d of %d matches (no summary)" % (progress.done, args.matches),
        ) from None
    progress.close()
    lines = [
        "%d matches of %s, %d players, seeds %d-%d"
        % (args.matches, args.game, args.players, args.seed, args.seed + args.matches - 1)
    ]
    if args.challenges is not None:
        lines.append(sim.play.set_line(args.challenges, args.challenge_rows))
    lines.append("seat  bot        wins  win rate  mean score")
    for seat in range(args.players):
        lines.append(
            "%4d  %-9s %5d  %7.1f%%  %10.2f"
            % (
                seat,
                args.bots[seat],
                wins[seat],
                100.0 * wins[seat] / args.matches,
                totals[seat] / args.matches,
            )
        )
    lines.append("(a shared first place counts as a win for each)")
    return lines


# --- python -m sim balance ----------------------------------------------------------------

BALANCE_ABOUT = (
    "play many matches of one game per configuration (player counts, swept options) "
    "on every core and write a balance report: results.csv, summary.json, summary.md, "
    "summary.html and plots"
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
    p.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="OPTION=V1,V2,...",
        help="an option's values to play each (length, variant, open_play, table_rolls: "
        "those the game takes); repeat for more options",
    )
    p.add_argument("--out", required=True, metavar="FOLDER", help="the report's folder")
    add_challenges(p)
    p.add_argument(
        "--force", action="store_true", help="replace the report in a folder that is not empty"
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
    args.jobs = args.jobs or default_jobs()
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
    """The command that gives this report (--jobs, --out and --force change nothing in it)."""
    players = args.players
    words = [
        "python -m sim balance --game",
        args.game,
        "--players",
        "%d" % players[0] if len(players) == 1 else "%d-%d" % (players[0], players[-1]),
        "--matches %d --bots %s --seed %d" % (args.matches, ",".join(args.bot_names), args.seed),
    ]
    if args.rotate:
        words.append("--rotate")
    if args.challenges is not None:
        words.append("--challenges %s" % args.challenges)
    for name in balance.OPTION_NAMES:
        if name in args.sweeps:
            words.append("--sweep %s=%s" % (name, ",".join(str(v) for v in args.sweeps[name])))
    return " ".join(words)


def out_folder(path, force):
    """The report's folder, and a new temporary folder to write it in first (on
    the same file system, so it moves into place whole), before anything is played."""
    out = os.path.normpath(path)
    if os.path.lexists(out) and not os.path.isdir(out):
        raise Exit(FAILED, "%s is not a folder (give --out a folder for the report)" % path)
    if os.path.isdir(out):
        if os.listdir(out) and not force:
            raise Exit(
                FAILED,
                "%s is not empty (add --force to replace its report, or give a new folder)" % path,
            )
        where = out
    else:
        where = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(where):
            raise Exit(
                FAILED,
                "no folder %s to make %s in (make it first, or write elsewhere)"
                % (where, os.path.basename(out)),
            )
    try:
        temporary = tempfile.mkdtemp(prefix=".balance-", dir=where)
        # mkdtemp's folder is the owner's alone; the report's is as any new folder
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o777 & ~mask)
    except OSError as e:
        raise cannot_write(path, e) from None
    return out, temporary


def cannot_write(path, e):
    return Exit(
        FAILED,
        "cannot write %s: %s (write the report somewhere you may write)"
        % (path, (e.strerror or str(e)).lower()),
    )


def move_in(temporary, out, written):
    """The whole report into `out` at once: a new folder is renamed into place;
    into an existing one each file is, and the files of an earlier report this
    one does not write are removed (nothing else in the folder is touched).
    Ctrl-C waits until it is done: the report is then whole."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to hold off
        old = None
    try:
        if not os.path.isdir(out):
            os.rename(temporary, out)
            return
        for name in written:
            os.replace(os.path.join(temporary, name), os.path.join(out, name))
        for name in report.FILES:
            if name not in written and os.path.isfile(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
        os.rmdir(temporary)
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)


def play_report(args, folder):
    """Play every configuration into `folder`: results.csv as the matches come,
    then the figures, the plots and the pages.  The files written."""
    configs = args.configs
    plans = [
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
        )
        for c in configs
    ]
    tallies = [balance.Tally(c.players) for c in configs]
    options = [name for name, _ in configs[0].values]
    rows = report.Rows(os.path.join(folder, report.CSV), options, max(args.players))

    def take(p, row):
        rows.add(configs[p], row)
        tallies[p].add(row)

    total = len(plans) * args.matches
    progress = balance.Progress(total)
    try:
        balance.run(plans, args.jobs, progress, take)
    except KeyboardInterrupt:
        progress.close()
        raise Exit(
            INTERRUPTED,
            "interrupted after %d of %d matches (nothing written)" % (progress.done, total),
        ) from None
    finally:
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
        "challenges": args.challenge_set,
        "sweep": args.sweeps,
        "interval": {"level": 0.95, "z": balance.Z95},
        "configurations": figs,
        "variant_vs_standard": balance.variant_pairs(configs, figs),
    }
    try:
        plots = report.write_plots(folder, configs, summary)
        written = sorted([report.CSV, report.JSON, report.MARKDOWN, report.HTML] + plots)
        summary["files"] = written
        report.write_json(os.path.join(folder, report.JSON), summary)
        report.write_pages(folder, configs, summary, plots)
    except KeyboardInterrupt:
        raise Exit(
            INTERRUPTED,
            "interrupted after all %d matches, drawing the plots (nothing written)" % total,
        ) from None
    return written, figs


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
    out, temporary = out_folder(args.out, args.force)
    try:
        written, figs = play_report(args, temporary)
        move_in(temporary, out, written)
    except OSError as e:
        raise cannot_write(args.out, e) from None
    finally:
        if os.path.isdir(temporary):
            shutil.rmtree(temporary, ignore_errors=True)
    return ([named] if named else []) + overview_lines(args.out, written, figs)


def check_save(path, force):
    """Refuse a --save that would fail or overwrite, before playing."""
    if os.path.isdir(path):
        raise Exit(FAILED, "%s is a folder (give --save a file name)" % path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise Exit(
            FAILED,
            "no folder %s to save %s in (make it first, or save elsewhere)"
            % (folder, os.path.basename(path)),
        )
    if os.path.lexists(path) and not force:
        raise Exit(
            FAILED, "%s exists (add --force to replace it, or save under another name)" % path
        )


def save(path, match, args):
    try:
        matchfile.write(
            path, match, ["seed %d, bots %s" % (args.seed, " ".join(args.bots))], replace=args.force
        )
    except FileExistsError:
        raise Exit(
            FAILED, "%s exists (add --force to replace it, or save under another name)" % path
        ) from None
    except OSError as e:
        raise Exit(
            FAILED,
            "cannot write %s: %s (save somewhere you may write)"
            % (path, (e.strerror or str(e)).lower()),
        ) from None


def do_replay(path, out, here, named):
    """The transcript of match file `path` into `out`, folded with the set in
    use (word `here`, 0 the built-in set; `named` its transcript line), which
    must be the one the match was played with."""
    try:
        m = matchfile.load(path)
    except matchfile.MatchFileError as e:
        raise Exit(FAILED, str(e)) from None
    if named is not None and m.game != matchfile.SET_GAME:
        message = "%s: a %s match, and --challenges is a set of Dicefull's (leave it out)"
        raise Exit(FAILED, message % (path, m.game))
    why = matchfile.set_refusal(path, m.game, m.challenges, here)
    if why:
        raise Exit(FAILED, why)
    try:
        replay(m.game, m.players, m.options, m.actions, out)
    except RefusedAction as e:
        number = getattr(e, "number", 0)
        if not number:
            raise Exit(FAILED, "%s: %s" % (path, e)) from None
        message = "%s:%d: action %d, %r, refused: %s (the transcript stops before it)"
        raise Exit(
            FAILED,
            message
            % (
                path,
                m.lines[number - 1],
                number,
                matchfile.format_action(m.actions[number - 1]),
                getattr(e, "reason", e),
            ),
        ) from None
    finally:  # the set's line as the played match's transcript has it, refused or not
        if named is not None and out:
            out.insert(1, named)


def do_table(args):
    from dicetable.app.menu import F_HANDS, F_LENGTH, F_ROLLS, F_VARIANT
    from sim import terminal

    menu = {
        F_HANDS: int(args.open_play),
        F_ROLLS: int(args.table_rolls),
        F_VARIANT: int(args.variant),
        F_LENGTH: args.length or 0,
    }
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")  # bytes that are not UTF-8: an unknown word
    try:
        terminal.run(
            args.game, args.players, args.human, args.bots, args.seed, menu, stdin, sys.stdout
        )
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        raise Exit(
            INTERRUPTED, "interrupted (the match at the virtual table is not kept)"
        ) from None


def run(argv):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv[:1] == ["balance"]:
            print("\n".join(do_balance(argv[1:])))
            return 0
        args = parse_args(argv)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    out = []
    args.challenge_rows = ()
    args.challenge_word = 0
    named = load_challenges(args)
    if args.table:
        do_table(args)
        return 0
    if args.replay is not None:
        try:
            do_replay(args.replay, out, args.challenge_word, named)
        except Exit:
            if out:
                print("\n".join(out))  # everything before the refused action stands
            raise
    elif args.matches > 1:
        out = batch(args)
    else:
        if args.save is not None:
            check_save(args.save, args.force)
        match = play(args.game, args.players, args.options, args.bots, args.seed, out)
        if named is not None:
            out.insert(1, named)
        if args.save is not None:
            save(args.save, match, args)
    print("\n".join(out))
    return 0


def main(argv=None):
    """The exit status of python -m sim with these arguments; every refusal is
    one line on stderr (Ctrl-C included: 130)."""
    try:
        return run(argv)
    except Exit as e:
        if sys.stdout is not None:
            sys.stdout.flush()
        say("%s: %s%s" % (PROG, "" if e.status == INTERRUPTED else "error: ", e))
        return e.status
    except KeyboardInterrupt:
        say("%s: interrupted" % PROG)
        return INTERRUPTED


def entry():
    """main() as a command: a closed stdout ends quietly with 141 (the recipe of
    the Python docs' note on SIGPIPE: stdout pointed at devnull so the flush at
    exit does not complain again)."""
    try:
        status = main()
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                try:
                    os.dup2(devnull, stream.fileno())
                except (OSError, ValueError):
                    pass
        status = CLOSED_PIPE
    except KeyboardInterrupt:  # between main()'s own handling and the exit
        say("%s: interrupted" % PROG)
        status = INTERRUPTED
    sys.exit(status)


if __name__ == "__main__":
    entry()
