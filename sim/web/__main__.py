"""python -m sim.web: the table as a web page, on this machine only.

    python -m sim.web                       # http://127.0.0.1:8765/
    python -m sim.web --port 0              # a free port (the line printed names it)
    python -m sim.web --open walzer.match   # a saved match, to scrub through

Prints one line, `table at http://127.0.0.1:PORT/`, and serves until Ctrl-C
(exit status 130, without a word).  A refusal is one line on stderr, as
python -m sim's: 2 for a bad argument, 1 for a match file it cannot read or
a port it cannot listen on.
"""

import argparse
import sys

from sim import matchfile
from sim.__main__ import FAILED, INTERRUPTED, USAGE, Exit, say, whole

PROG = "python -m sim.web"
DEFAULT_PORT = 8765


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage block + message, as one line
        if "(" not in message:
            message += " (%s --help lists the options)" % PROG
        raise Exit(USAGE, message)


def parse_args(argv):
    p = Parser(prog=PROG, description=(__doc__ or "").split("\n")[0])
    p.add_argument(
        "--port",
        type=whole(0, 65535, "0 to 65535; 0 for a free port"),
        default=DEFAULT_PORT,
        help="the port on 127.0.0.1 (default %d; 0: a free port, printed)" % DEFAULT_PORT,
    )
    p.add_argument("--open", metavar="FILE.match", help="show a saved match file, to scrub")
    args = p.parse_args(argv)
    if args.open is not None and not args.open.strip():
        raise Exit(USAGE, "argument --open: an empty file name (give a match file)")
    return args


def start(args):
    """The session (with the match file, if any) and its server."""
    from sim.web.server import serve
    from sim.web.session import ActError, Session

    session = Session()
    if args.open is not None:
        try:
            session.open_match(matchfile.load(args.open), args.open)
        except (matchfile.MatchFileError, ActError) as e:
            raise Exit(FAILED, str(e)) from None
    try:
        return serve(args.port, session)
    except OSError as e:
        raise Exit(
            FAILED,
            "cannot listen on 127.0.0.1:%d: %s (another --port, or --port 0 for a free one)"
            % (args.port, (e.strerror or str(e)).lower()),
        ) from None


def main(argv=None):
    """The exit status; every refusal is one line on stderr."""
    try:
        try:
            args = parse_args(argv)
        except SystemExit as e:  # --help
            return e.code if isinstance(e.code, int) else 0
        server, thread = start(args)
    except Exit as e:
        say("%s: error: %s" % (PROG, e))
        return e.status
    except KeyboardInterrupt:
        return INTERRUPTED
    try:
        sys.stdout.write("table at http://127.0.0.1:%d/\n" % server.server_address[1])
        sys.stdout.flush()
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        return INTERRUPTED
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
