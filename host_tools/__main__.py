"""python -m host_tools: the maker's tools for the dice table's board.

    python -m host_tools flash --port /dev/ttyACM0
    python -m host_tools provision import set.csv       # write the tag registry
    python -m host_tools provision export set.csv       # read it back
    python -m host_tools provision check set.csv        # check a CSV, no board
    python -m host_tools provision scan --seat 0 --game dtwww --item "red d6 copy 1"
    python -m host_tools monitor
    python -m host_tools backup backups/tuesday
    python -m host_tools restore backups/tuesday
    python -m host_tools replay backups/tuesday/journal.bin
    python -m host_tools challenges check my-set.txt    # a Dicefull set, no board
    python -m host_tools challenges put my-set.txt      # the table plays it
    python -m host_tools challenges remove              # back to the built-in set

--port is a serial device, a URL mpremote accepts (socket://127.0.0.1:4000),
or 'auto' (the default, or $DICETABLE_PORT): the first USB serial board.

Every refusal is one line on standard error, 'error: what is wrong (what
would be right)', and never a traceback.  Exit status: 0 done; 1 a failed
or refused operation (a bad file, no board, a board that refused), nothing
changed; 2 a bad argument (usage); 130 Ctrl-C (what it interrupted is said,
and nothing is half-written: every file goes through a temporary file renamed
into place, on the board and on the host).  When standard output is a closed
pipe (`| head`) the tool ends quietly (Python's documented recipe for SIGPIPE:
standard output pointed at devnull) with status 141, 128 + SIGPIPE, as a shell
reports a program SIGPIPE ended and as `python -m sim` does.
docs/host_tools.md is the maker's guide, docs/refusals.md lists every refusal.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from host_tools import errors
from host_tools.arguments import parser
from host_tools.cli import NOTHING_WRITTEN, StdoutClosed, say

CLOSED_PIPE = 141  # 128 + SIGPIPE, as a shell reports `yes | head`

# What Ctrl-C leaves, per command, once the board is connected (before that:
# nothing was changed).  Each is true whenever the interrupt comes.
INTERRUPTED = {
    "flash": "the flash may not be finished: the board starts in maintenance mode; run flash again",
    "import": (
        "the board's registry is the old one or the new one, never half of one; export shows which"
    ),
    "scan": "the board's registry is the old one or the new one, never half of one",
    "export": "no file is left half-written",
    "backup": "no backup folder is left half-written",
    "restore": (
        "the board has its old files or all the restored ones, never a mix; run restore again"
    ),
    "monitor": "stopped",
    "put": "the board has its old challenge set or the new one, never half of one",
    "remove": "the board has its challenge set file or none",
}
BEFORE_THE_BOARD = "nothing was changed"

# The refusals too long to write in place (docs/refusals.md quotes each).
FAULT = "error: unexpected %s: %s (%s)"
REPORT_IT = "a fault of host_tools: please report it with the command; DICETABLE_DEBUG=1 says where"


def _quiet_stdout() -> None:
    """Python's recipe for a closed pipe: point standard output at devnull, so
    that the interpreter's last flush does not complain."""
    if sys.stdout is not sys.__stdout__:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


SHOWN_ROWS = 20  # bad rows said one by one; the count says the rest


def _csv_problems(e: Any, args: Any, command: str) -> None:
    """A CSV's problems: one line each, 'file:line:column: what is wrong' (the
    first SHOWN_ROWS), then the summary (just the one line for one problem)."""
    name = errors.shown(getattr(args, "csv", "") or "")
    lines = e.lines(name)
    suffix = NOTHING_WRITTEN if command in ("import", "scan") else ""
    if len(lines) == 1:
        say("error: %s%s" % (lines[0], suffix))
        return
    for line in lines[:SHOWN_ROWS]:
        say(line)
    if len(lines) > SHOWN_ROWS:
        say("(%d more bad rows)" % (len(lines) - SHOWN_ROWS))
    say("error: %d bad rows in %s%s" % (len(lines), name, suffix))


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (see the module docstring)."""
    command = ""
    args = None
    try:  # a name the terminal cannot show is escaped, not a crash
        sys.stdout.reconfigure(errors="backslashreplace")  # pyright: ignore[reportAttributeAccessIssue]
    except (AttributeError, ValueError, OSError):
        pass
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit as e:
            sys.stdout.flush()
            return e.code if isinstance(e.code, int) else 0 if e.code is None else 2
        command = getattr(args, "action", None) or args.command
        return args.run(args)
    except KeyboardInterrupt:
        if command not in INTERRUPTED:
            note = ""
        elif getattr(args, "on_board", False):
            note = INTERRUPTED[command]
        else:
            note = BEFORE_THE_BOARD
        say("interrupted (Ctrl-C)%s" % (": " + note if note else ""))
        return 130
    except (StdoutClosed, BrokenPipeError):
        _quiet_stdout()
        return CLOSED_PIPE
    except Exception as e:  # never a traceback: each refusal is one line
        if isinstance(e, errors.ToolError):
            from host_tools.registry_csv import CsvError

            if isinstance(e, CsvError):
                _csv_problems(e, args, command)
                return 1
            say("error: %s" % e)
            return e.status
        if isinstance(e, OSError):
            where = " %s:" % errors.shown(e.filename) if e.filename else ""
            say("error:%s %s" % (where, errors.why(e)))
            return 1
        if os.environ.get("DICETABLE_DEBUG"):
            raise
        say(FAULT % (type(e).__name__, str(e)[:200], REPORT_IT))
        return 1


if __name__ == "__main__":
    sys.exit(main())
