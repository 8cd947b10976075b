"""monitor and replay: what the board does, followed live in its event log or
told afterwards from its journal (or a match file)."""

from __future__ import annotations

import argparse

from host_tools import errors
from host_tools.challenges_command import challenge_set
from host_tools.cli import from_env, out, port_of, say


def cmd_monitor(args: argparse.Namespace) -> int:
    from host_tools.board import NoBoard
    from host_tools.monitor import follow

    args.on_board = True
    try:
        follow(
            port_of(args),
            lambda line: out(line + "\n"),
            opened=lambda url: say("following the board's log at %s (Ctrl-C stops)" % url),
        )
    except NoBoard as e:
        raise from_env(args, e) from None
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from host_tools.replay import replay_into
    from sim.play import RefusedAction

    if args.challenges is not None:
        from sim.play import use_challenges

        use_challenges(challenge_set(args.challenges)[0])
    lines: list[str] = []
    try:
        note = replay_into(args.file, lines)
    except RefusedAction as e:
        out("".join(line + "\n" for line in lines))
        raise errors.ToolError(
            "%s: %s: the replay stops there" % (errors.shown(args.file), e)
        ) from None
    out("".join(line + "\n" for line in lines))
    if note:
        say("note: " + note)
    return 0
