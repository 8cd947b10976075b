"""python -m sim without a command word: one match played (and saved with
--save), a match file replayed, a batch of matches summarised, or the virtual
table (--table)."""

import io
import os
import sys

import sim.play
from sim import balance, matchfile
from sim.arguments import load_challenges
from sim.cli import FAILED, INTERRUPTED, Exit
from sim.play import RefusedAction, play, replay


def do_play(args):
    """The command for parsed `args`: its transcript or summary on stdout (the
    virtual table writes its own)."""
    out = []
    args.challenge_rows = ()
    args.challenge_word = 0
    named = load_challenges(args)
    if args.table:
        do_table(args)
        return
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
        match = play(args.game, args.players, args.options, args.bots, args.seed, out, args.seeding)
        if named is not None:
            out.insert(1, named)
        if args.save is not None:
            save(args.save, match, args)
    print("\n".join(out))


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
        seeding=args.seeding,
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
