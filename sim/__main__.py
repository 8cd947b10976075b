"""python -m sim: play, save, replay or batch-run matches of the dice table's games.

    python -m sim --game nokosu --players 5 --seed 3
    python -m sim --game walzer --bots heuristic,random --save walzer.match
    python -m sim --replay walzer.match
    python -m sim --game dtt --matches 1000
    python -m sim --game dtwww --players 3 --table --human 0    # play seat 0 yourself

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
import sys

try:
    from dicetable.match.engine import (
        GAMES,
        LONGEST,
        OPEN_PLAY,
        TABLE_ROLLS,
        VARIANT,
        header_refusal,
        options,
    )
    from sim import matchfile
    from sim.play import BOTS, RefusedAction, play, player_range, replay
except KeyboardInterrupt:  # Ctrl-C before main() could take it
    sys.stderr.write("python -m sim: interrupted\n")
    sys.exit(130)

PROG = "python -m sim"
SEED_MAX = 0xFFFFFFFF  # the table's generator is 32 bits (dicetable/app/rng.py)
MATCHES_MAX = 1000000
FLAGS = (
    ("--open-play", OPEN_PLAY, "open play"),
    ("--table-rolls", TABLE_ROLLS, "table rolls"),
    ("--variant", VARIANT, "variant"),
)
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
            message += " (%s --help lists the options)" % PROG
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
        help="comma-separated, one per seat, repeated to fill: "
        "random or heuristic (default: heuristic)",
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
    args = p.parse_args(argv)
    if args.replay is not None:
        check_replay(args)
    else:
        check_play(args)
    return args


def check_replay(args):
    given = [
        name
        for name in ("game", "players", "bots", "seed", "length", "save", "human", "matches")
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
    args.bots = check_bots(args.bots, args.players)
    args.seed = 1 if args.seed is None else args.seed
    args.matches = args.matches or 1
    if args.seed + args.matches - 1 > SEED_MAX:
        message = "argument --matches: the seeds %d to %d go past %d (lower --seed or --matches)"
        raise usage(message % (args.seed, args.seed + args.matches - 1, SEED_MAX))
    check_table(args)
    check_save_args(args)


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
        for name in ("save", "matches"):
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
    right = "bots are %s, comma-separated" % " or ".join(BOTS)
    for name in names:
        if not name:
            raise usage("argument --bots: an empty name in %s (%s)" % (shown(text), right))
        if name not in BOTS:
            raise usage("argument --bots: no bot %s (%s)" % (shown(name), right))
    if len(names) > players:
        message = "argument --bots: %d bots for %d players (one a seat at most, repeated to fill)"
        raise usage(message % (len(names), players))
    return [names[s % len(names)] for s in range(players)]


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


class Progress:
    """On a terminal, one line redrawn every 1%; in a log, a line every 10%."""

    def __init__(self, total):
        self.total = total
        self.tty = sys.stderr is not None and sys.stderr.isatty()
        self.open = False  # a redrawn line waits for its newline

    def show(self, done):
        total = self.total
        step = max(1, total // (100 if self.tty else 10))
        if sys.stderr is None or done % step and done != total:
            return
        sys.stderr.write(("\r%d/%d matches" if self.tty else "%d/%d matches\n") % (done, total))
        self.open = self.tty and done != total
        if self.tty and done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    def end_line(self):
        if self.open and sys.stderr is not None:
            sys.stderr.write("\n")
            self.open = False


def batch(args):
    wins = [0] * args.players
    totals = [0] * args.players
    progress = Progress(args.matches)
    done = 0
    try:
        for i in range(args.matches):
            match = play(args.game, args.players, args.options, args.bots, args.seed + i)
            for seat, place in enumerate(match.standings()):
                wins[seat] += place == 1
                totals[seat] += match.totals[seat]
            done = i + 1
            progress.show(done)
    except KeyboardInterrupt:
        progress.end_line()
        raise Exit(
            INTERRUPTED, "interrupted after %d of %d matches (no summary)" % (done, args.matches)
        ) from None
    lines = [
        "%d matches of %s, %d players, seeds %d-%d"
        % (args.matches, args.game, args.players, args.seed, args.seed + args.matches - 1)
    ]
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


def do_replay(path, out):
    try:
        m = matchfile.load(path)
    except matchfile.MatchFileError as e:
        raise Exit(FAILED, str(e)) from None
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
    try:
        args = parse_args(argv)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    out = []
    if args.table:
        do_table(args)
        return 0
    if args.replay is not None:
        try:
            do_replay(args.replay, out)
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
