"""python -m sim: play, save, replay or batch-run matches of the dice table's games.

    python -m sim --game nokosu --players 5 --seed 3
    python -m sim --game walzer --bots heuristic,random --save walzer.match
    python -m sim --replay walzer.match
    python -m sim --game dtt --matches 1000
    python -m sim --game dtwww --players 3 --table --human 0    # play seat 0 yourself
"""

import argparse
import sys

from dicetable.match.engine import GAMES, OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim import matchfile
from sim.play import BOTS, RefusedAction, play, player_range, replay


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m sim", description=(__doc__ or "").split("\n")[0])
    p.add_argument("--game", choices=GAMES, default="dtwww")
    p.add_argument("--players", type=int, help="default: the most the game allows")
    p.add_argument("--bots", default="heuristic",
                   help="comma-separated, one per seat, repeated to fill: random or heuristic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--open-play", action="store_true", help="hands not scanned")
    p.add_argument("--table-rolls", action="store_true", help="the table rolls for the players")
    p.add_argument("--variant", action="store_true", help="the game's published variant")
    p.add_argument("--length", type=int, default=0,
                   help="games/rounds/deals, where the game lets it change (0: default)")
    p.add_argument("--save", metavar="FILE", help="write the match file")
    p.add_argument("--replay", metavar="FILE", help="print the transcript of a match file")
    p.add_argument("--table", action="store_true",
                   help="interactive: the firmware on a virtual table; you play --human seats")
    p.add_argument("--human", default="0", help="with --table: your seats, comma-separated")
    p.add_argument("--matches", type=int, default=1,
                   help="play a batch of matches (seeds seed, seed+1, ...) and summarise")
    args = p.parse_args(argv)
    low, high = player_range(args.game)
    if args.players is None:
        args.players = high
    if not low <= args.players <= high:
        p.error("%s is for %d-%d players" % (args.game, low, high))
    names = args.bots.split(",")
    if any(name not in BOTS for name in names):
        p.error("bots are %s" % " or ".join(BOTS))
    args.bots = [names[s % len(names)] for s in range(args.players)]
    flags = ((OPEN_PLAY if args.open_play else 0) | (TABLE_ROLLS if args.table_rolls else 0)
             | (VARIANT if args.variant else 0))
    args.options = options(flags, args.length)
    return args


def show_progress(done, total):
    """On a terminal, one line redrawn every 1%; in a log, a line every 10%."""
    tty = sys.stderr.isatty()
    step = max(1, total // (100 if tty else 10))
    if done % step and done != total:
        return
    sys.stderr.write(("\r%d/%d matches" if tty else "%d/%d matches\n") % (done, total))
    if tty and done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def batch(args):
    wins = [0] * args.players
    totals = [0] * args.players
    for i in range(args.matches):
        match = play(args.game, args.players, args.options, args.bots, args.seed + i)
        for seat, place in enumerate(match.standings()):
            wins[seat] += place == 1
            totals[seat] += match.totals[seat]
        show_progress(i + 1, args.matches)
    print("%d matches of %s, %d players, seeds %d-%d" % (
        args.matches, args.game, args.players, args.seed, args.seed + args.matches - 1))
    print("seat  bot        wins  win rate  mean score")
    for seat in range(args.players):
        print("%4d  %-9s %5d  %7.1f%%  %10.2f" % (
            seat, args.bots[seat], wins[seat], 100.0 * wins[seat] / args.matches,
            totals[seat] / args.matches))
    print("(a shared first place counts as a win for each)")


def main(argv=None):
    args = parse_args(argv)
    out = []
    if args.table:
        from dicetable.app.menu import F_HANDS, F_LENGTH, F_ROLLS, F_VARIANT
        from sim import terminal
        humans = [int(s) for s in args.human.split(",")]
        menu = {F_HANDS: int(args.open_play), F_ROLLS: int(args.table_rolls),
                F_VARIANT: int(args.variant), F_LENGTH: args.length}
        terminal.run(args.game, args.players, humans, args.bots, args.seed, menu)
        return 0
    try:
        if args.replay:
            game, players, opts, actions = matchfile.read(args.replay)
            replay(game, players, opts, actions, out)
        elif args.matches > 1:
            batch(args)
            return 0
        else:
            match = play(args.game, args.players, args.options, args.bots, args.seed, out)
            if args.save:
                matchfile.write(args.save, match, ["seed %d, bots %s" % (
                    args.seed, " ".join(args.bots))])
    except (matchfile.MatchFileError, RefusedAction, OSError) as e:
        print("\n".join(out))
        print("error: %s" % e, file=sys.stderr)
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
