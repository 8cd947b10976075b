"""What the commands of python -m host_tools share: their lines on standard
error, standard output that may be a closed pipe, and the board at --port."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

NOTHING_WRITTEN = "; nothing was written"


class StdoutClosed(Exception):
    """Standard output is a closed pipe (`| head`)."""


def say(text: str) -> None:
    """A line on standard error (nothing if it is closed too)."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (BrokenPipeError, ValueError):
        pass


def out(text: str) -> None:
    """Text on standard output, flushed; StdoutClosed if nobody reads it any more."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise StdoutClosed() from None


def progress(*args: Any) -> None:
    """Progress of a long operation: progress(i, n[, name]) prints 'file i/n name'."""
    if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], int):
        name = " ".join(str(a) for a in args[2:])
        say(("file %d/%d %s" % (args[0], args[1], name)).rstrip())
    else:
        say(" ".join(str(a) for a in args))


def port_of(args: argparse.Namespace) -> str:
    """--port, else $DICETABLE_PORT, else 'auto'."""
    return args.port or os.environ.get("DICETABLE_PORT", "").strip() or "auto"


def from_env(args: argparse.Namespace, e: Exception) -> Exception:
    """A no-board error, saying so when the port came from $DICETABLE_PORT."""
    from host_tools.board import NoBoard

    if args.port or not os.environ.get("DICETABLE_PORT", "").strip():
        return e
    return NoBoard("%s (the port is $DICETABLE_PORT's)" % e)


def with_board(args: argparse.Namespace, work: Callable[[Any], int]) -> int:
    """Connect to the board at --port and run work(board)."""
    from host_tools.board import Board, NoBoard

    try:
        board = Board(port_of(args))
    except NoBoard as e:
        raise from_env(args, e) from None
    args.on_board = True  # what Ctrl-C says from here on
    try:
        return work(board)
    finally:
        board.close()
