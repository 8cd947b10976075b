"""python -m sim's arguments: parsed, and each checked against the others and
the game (a bad one is a usage refusal, status 2), before anything is played.
The balance command shares the bots', the challenge set's and --jobs' checks."""

import os
import re

import sim.play
from dicetable.games import GAMES, header_refusal
from dicetable.match.engine import LONGEST, OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.cli import FAILED, PROG, Exit, Parser, shown, usage, whole
from sim.play import player_range

DESCRIPTION = (
    "python -m sim: play, save, replay or batch-run matches of the dice table's games"
    " (python -m sim games lists them)."
)
SEED_MAX = 0xFFFFFFFF  # the table's generator is 32 bits (dicetable/app/rng.py)
MATCHES_MAX = 1000000
JOBS_MAX = 256
FLAGS = (
    ("--open-play", OPEN_PLAY, "open play"),
    ("--table-rolls", TABLE_ROLLS, "table rolls"),
    ("--variant", VARIANT, "variant"),
)
BOTS_HELP = "comma-separated, one per seat, repeated to fill: %s (default: heuristic)"


def parse_args(argv):
    p = Parser(prog=PROG, description=DESCRIPTION)
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
    add_seeding(p)
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


def add_seeding(p):
    p.add_argument(
        "--seeding",
        type=whole(1, sim.play.SEEDING, "1 or %d" % sim.play.SEEDING),
        help="how a seed becomes a match: %d (default), or 1 to play again a seed "
        "written before 30 Nov 2026 (docs/designers.md, Seeds)" % sim.play.SEEDING,
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
            "seeding",
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
    args.seeding = args.seeding or sim.play.SEEDING
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
        try:
            sim.play.parse_bot(name)  # one line for a bad name or budget (ismcts:300)
        except ValueError as e:
            raise usage("argument --bots: %s" % e) from None
    if len(names) > players:
        message = "argument --bots: %d bots for %d players (one a seat at most, repeated to fill)"
        raise usage(message % (len(names), players))
    return [names[s % len(names)] for s in range(players)]


def check_game_bots(game, bots):
    """Each bot finds in the game (sim/games/<key>.py) the parts it needs (a game added
    with only a heuristic cannot be searched): else one line."""
    why = sim.play.bots_refusal(game, bots)
    if why:
        raise usage(why)


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
