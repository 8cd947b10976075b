"""python -m sim.web: the table as a web page, on this machine only.

    python -m sim.web                          # http://127.0.0.1:8765/
    python -m sim.web --http-port 0            # a free port (the line printed names it)
    python -m sim.web --open walzer.match      # a saved match, to scrub through
    python -m sim.web --port /dev/ttyACM0      # the mirror of a board on USB (read only)
    python -m sim.web --challenges my-set.txt  # Dicefull with a challenge set of your own
    python -m sim.web --open df.match --challenges my-set.txt   # a match saved with it

Prints one line, `table at http://127.0.0.1:PORT/`, and serves until Ctrl-C
(exit status 130, without a word).  A refusal is one line on stderr, as
python -m sim's: 2 for a bad argument, 1 for a match file it cannot read or
a port it cannot listen on.  A board's port that does not open at the start
is no refusal: one line on stderr says so, and the page shows the board once
it answers (the mirror tries again every second).
"""

import argparse
import sys

from sim import matchfile
from sim.arguments import add_challenges
from sim.cli import FAILED, INTERRUPTED, USAGE, Exit, say, whole

PROG = "python -m sim.web"
DEFAULT_PORT = 8765
BOARD_PORT = "a serial device such as /dev/ttyACM0, a URL such as socket://127.0.0.1:4000, or auto"


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage block + message, as one line
        if "(" not in message:
            message += " (%s --help lists the options)" % PROG
        raise Exit(USAGE, message)


def parse_args(argv):
    p = Parser(prog=PROG, description=(__doc__ or "").split("\n")[0])
    p.add_argument(
        "--http-port",
        type=whole(0, 65535, "0 to 65535; 0 for a free port"),
        default=DEFAULT_PORT,
        metavar="N",
        help="the page's port on 127.0.0.1 (default %d; 0: a free port, printed)" % DEFAULT_PORT,
    )
    p.add_argument("--open", metavar="FILE.match", help="show a saved match file, to scrub")
    p.add_argument(
        "--port",
        metavar="PORT",
        help="mirror the board at PORT (%s), read only" % BOARD_PORT,
    )
    add_challenges(p)
    args = p.parse_args(argv)
    if args.challenges is not None and not args.challenges.strip():
        raise Exit(USAGE, "argument --challenges: an empty file name (give a challenge set)")
    if args.open is not None and not args.open.strip():
        raise Exit(USAGE, "argument --open: an empty file name (give a match file)")
    if args.port is not None:
        check_board_port(args.port)
        if args.open is not None:
            raise Exit(
                USAGE,
                "--port and --open: the mirror shows the board's own match (give one of them)",
            )
    return args


def check_board_port(port):
    """Refuse a --port that can never name a board (exit 2, one line)."""
    if not port.strip():
        raise Exit(USAGE, "argument --port: an empty port (give %s)" % BOARD_PORT)
    if port.strip().isdigit():
        # The page's own port was --port before it was --http-port.
        raise Exit(
            USAGE,
            "argument --port: %r is a number, and --port names the board's serial port "
            "(the page's port is --http-port %s)" % (port, port.strip()),
        )
    scheme = port.split("://", 1)[0] if "://" in port else None
    if scheme is not None and not _pyserial_takes(scheme):
        raise Exit(
            USAGE,
            "argument --port: no URL scheme %r in pyserial (give %s)" % (scheme, BOARD_PORT),
        )


def _pyserial_takes(scheme):
    """True when pyserial's serial_for_url has a handler for `scheme`."""
    import importlib.util

    if not scheme.isidentifier():
        return False
    return importlib.util.find_spec("serial.urlhandler.protocol_" + scheme.lower()) is not None


def start(args):
    """The session (with the match file, if any; the board's mirror with
    --port) and its server."""
    from sim.web.server import serve

    if args.challenges is not None:
        from sim.play import read_challenges, use_challenges

        try:
            use_challenges(read_challenges(args.challenges))
        except ValueError as e:
            raise Exit(FAILED, str(e)) from None
    session = mirror_session(args.port) if args.port is not None else table_session(args.open)
    try:
        return serve(args.http_port, session)
    except OSError as e:
        raise Exit(
            FAILED,
            "cannot listen on 127.0.0.1:%d: %s (another --http-port, or --http-port 0 for a free "
            "one)" % (args.http_port, (e.strerror or str(e)).lower()),
        ) from None


def table_session(path):
    """The virtual table, showing match file `path` if given."""
    from sim.web.requests import ActError
    from sim.web.session import Session

    session = Session()
    if path is not None:
        try:
            session.open_match(matchfile.load(path), path)
        except (matchfile.MatchFileError, ActError) as e:
            raise Exit(FAILED, str(e)) from None
    return session


def mirror_session(port):
    from sim.web.mirror import MirrorSession

    return MirrorSession(port)


def say_if_not_connected(session):
    """One line on stderr when the board's port did not open at the start (the
    page is served all the same, and the mirror keeps trying)."""
    from sim.web.mirror import FIRST_TRY_S, MirrorSession

    if not isinstance(session, MirrorSession):
        return
    tried = session.tried.wait(FIRST_TRY_S)
    if not session.connected:
        why = session.why if tried else "the port did not open within %g s" % FIRST_TRY_S
        say(
            "%s: not connected: %s (the page is served; the mirror tries again every second)"
            % (PROG, why)
        )


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
        say_if_not_connected(server.session)
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        return INTERRUPTED
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
