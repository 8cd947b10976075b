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

import os
import sys

# The balance and games commands are imported when asked for: without their
# modules (csv, json, multiprocessing, the report) a one-match run takes 94 ms
# of CPU, not 140 (farm-bench -n 10 -- .venv/bin/python -m sim --game dtt --bots random).
try:
    from sim.arguments import parse_args
    from sim.cli import INTERRUPTED, PROG, USAGE, Exit, say
    from sim.play_command import do_play
except KeyboardInterrupt:  # Ctrl-C before main() could take it
    sys.stderr.write("python -m sim: interrupted\n")
    sys.exit(130)

CLOSED_PIPE = 141  # 128 + SIGPIPE, as a shell reports `yes | head`


def run(argv):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv[:1] == ["balance"]:
            from sim.balance_command import do_balance

            print("\n".join(do_balance(argv[1:])))
            return 0
        if argv[:1] == ["games"]:
            from sim import games_command

            if argv[1:]:
                raise Exit(USAGE, "games takes no arguments, not %s" % " ".join(argv[1:]))
            print("\n".join(games_command.listing()))
            return 0
        args = parse_args(argv)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    do_play(args)
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
