"""challenges: Dicefull's challenge set checked on the host, put on the board or
removed from it."""

from __future__ import annotations

import argparse
from typing import Any

from host_tools import errors
from host_tools.cli import NOTHING_WRITTEN, out, say, with_board


def challenge_set(path: str) -> tuple[list, str]:
    """The rows of a Dicefull set and the line naming it, read and checked by
    the board's own reader before any board is touched."""
    from sim.play import read_challenges, set_line

    try:
        rows = read_challenges(path)
    except ValueError as e:
        raise errors.ToolError(str(e)) from None
    return rows, set_line(errors.shown(path), rows)[len("challenges: ") :]


def cmd_challenges_check(args: argparse.Namespace) -> int:
    _, named = challenge_set(args.file)
    out("%s, all rows good\n" % named)
    return 0


def cmd_challenges_put(args: argparse.Namespace) -> int:
    from dicetable.games.dicefull.table import SET_FILE

    _, named = challenge_set(args.file)
    with open(args.file, "rb") as f:
        data = f.read()

    def work(board: Any) -> int:
        if board.exists(SET_FILE):
            if board.read(SET_FILE) == data:
                say("the board's %s already is %s: nothing was written" % (SET_FILE, named))
                return 0
            if not args.replace:
                raise errors.ToolError(
                    "the board has a %s of its own: give --replace to write %s over it"
                    " (python -m host_tools backup keeps a copy)%s"
                    % (SET_FILE, errors.shown(args.file), NOTHING_WRITTEN)
                )
        board.write(SET_FILE, data)  # a temporary file, then a rename
        if board.read(SET_FILE) != data:
            raise errors.ToolError(
                "the %s read back from the board differs from what was written: put it again"
                % SET_FILE
            )
        say("the board's %s is now %s: Dicefull plays it from the next match" % (SET_FILE, named))
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)


def cmd_challenges_remove(args: argparse.Namespace) -> int:
    from dicetable.games.dicefull.table import SET_FILE

    def work(board: Any) -> int:
        if not board.exists(SET_FILE):
            say("the board has no %s: it plays the built-in set; nothing was changed" % SET_FILE)
            return 0
        board.remove(SET_FILE)
        say("the board's %s is removed: Dicefull plays the built-in set" % SET_FILE)
        if not args.no_reset:
            board.soft_reset()
        return 0

    return with_board(args, work)
