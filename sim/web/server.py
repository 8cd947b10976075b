"""The web page's server: loopback only, stdlib only.

    GET  /             the page (static/index.html)
    GET  /static/NAME  a file of sim/web/static (those files only)
    GET  /state        the state JSON (docs/web.md)
    GET  /events       Server-Sent Events: `data: <state JSON>` per change,
                       a comment line as a keep-alive
    GET  /legend       sim/legend.py's entries() as JSON, or [] without it
    POST /act          {"do": ...}: {"ok": true} or 400 {"ok": false, "error": ...}

It listens on 127.0.0.1 only, and answers only requests whose Host is
127.0.0.1:PORT or localhost:PORT and whose Origin, if any, is
http://127.0.0.1:PORT or http://localhost:PORT: anything else (a page of
another site, a name rebound to this machine) gets 403 and one line.

serve(port, session) starts it on a thread and returns (server, thread);
server.shutdown() stops it, its event streams and the session's clock.  The
session is a Session (the virtual table, sim/web/session.py) or a
MirrorSession (a board's mirror, sim/web/mirror.py): the server asks only
their snapshot(), wait_change(), act(), start() and close(), so both are
served alike, behind the same Host and Origin checks.

A client that goes away (closes or resets its connection, sends less of a
body than its Content-Length says, or stops sending it for BODY_WAIT_S) ends its
request in silence: nothing is acted on from a body that did not all come,
nothing is said on stderr, and the other clients are served on.  Any other
error in a request is still printed with its traceback (socketserver's
handle_error), as a bug should be.
"""

import importlib
import importlib.util
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sim.web.requests import ActError
from sim.web.session import Session

HOST = "127.0.0.1"
STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
LARGEST_BODY = 64 * 1024
KEEP_ALIVE_S = 15.0
BODY_WAIT_S = 10.0  # the longest a POST's body may take to come after its headers
POLL_S = 0.05  # how soon serve_forever() sees a shutdown
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
}
# Everything the page loads comes from here: no other site, no inline script.
POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'"
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")
# What reading from or writing to a client that has gone away raises (a timeout
# only while a body is awaited: the server sets no other).
CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


def static_files():
    """The files the server may send: sim/web/static's own, by name."""
    return {n for n in os.listdir(STATIC) if _NAME.fullmatch(n) and os.path.isfile(_static_path(n))}


def _static_path(name):
    return os.path.join(STATIC, name)


def legend_entries():
    """sim/legend.py's entries() (a list of dicts), or [] when there is none."""
    if importlib.util.find_spec("sim.legend") is None:
        return []
    entries = importlib.import_module("sim.legend").entries()
    return list(entries)


class Handler(BaseHTTPRequestHandler):
    server_version = "dicetable-web"
    protocol_version = "HTTP/1.1"
    server: "WebServer"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # the terminal shows the one line of `table at ...`, not every request

    # --- answers ------------------------------------------------------------------------

    def _send(self, status, body, kind, close=False):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", POLICY)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_error(self, code, message=None, explain=None):
        """http.server's own refusals (a method with no door here, a malformed
        request line) as one plain line, like the table's."""
        self._text(code, "refused: %s" % (message or "bad request"), close=True)

    def _text(self, status, line, close=False):
        self._send(status, line + "\n", "text/plain; charset=utf-8", close)

    def _json(self, status, obj):
        self._send(status, json.dumps(obj), "application/json")

    # --- who may ask ----------------------------------------------------------------------

    def _allowed(self):
        """True for a request from this machine's own page; else 403 sent."""
        port = self.server.server_address[1]
        hosts = ("127.0.0.1:%d" % port, "localhost:%d" % port)
        host = self.headers.get_all("Host") or []
        origin = self.headers.get_all("Origin") or []
        if len(host) == 1 and host[0] in hosts and len(origin) <= 1:
            if not origin or origin[0] in ["http://" + h for h in hosts]:
                return True
        self._text(
            403,
            "refused: the table answers only its own page at http://127.0.0.1:%d/ "
            "(loopback, Host and Origin checked)" % port,
            close=True,
        )
        return False

    # --- GET ------------------------------------------------------------------------------

    def do_GET(self):
        if not self._allowed():
            return
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._file("index.html")
        elif path.startswith("/static/"):
            self._file(path[len("/static/") :])
        elif path == "/state":
            self._send(200, self.server.session.snapshot()[1], "application/json")
        elif path == "/events":
            self._events()
        elif path == "/legend":
            self._legend()
        else:
            self._text(404, "no page %s (the table is at /)" % path[:60])

    def _file(self, name):
        if name not in self.server.files:
            self._text(404, "no such file (the page's files are in sim/web/static)")
            return
        with open(_static_path(name), "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))

    def _legend(self):
        try:
            entries = legend_entries()
        except Exception as e:  # noqa: BLE001 - the page lives without its legend
            self._text(500, "the legend failed: %s" % (str(e).splitlines() or [repr(e)])[0])
            return
        self._json(200, entries)

    def _events(self):
        session = self.server.session
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(b"retry: 1000\n\n")
            seen = -1
            while not self.server.closing:
                version, body = session.snapshot()
                if version != seen:
                    seen = version
                    self.wfile.write(b"data: " + body.encode("utf-8") + b"\n\n")
                elif not session.wait_change(seen, KEEP_ALIVE_S) and not self.server.closing:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except CLIENT_GONE:
            pass  # the page went away: this stream ends, the others go on

    # --- POST -----------------------------------------------------------------------------

    def do_POST(self):
        if not self._allowed():
            return
        if self.path.split("?", 1)[0] != "/act":
            self._text(404, "no page %s (actions go to POST /act)" % self.path[:60], close=True)
            return
        body = self._body()
        if body is None:
            return
        try:
            request = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self._json(400, {"ok": False, "error": 'the body is not JSON (send {"do": ...})'})
            return
        try:
            version = self.server.session.act(request)
        except ActError as e:
            self._json(400, {"ok": False, "error": str(e).splitlines()[0]})
            return
        self._json(200, {"ok": True, "version": version})

    def _body(self):
        """The request's body, or None after refusing it (too large, no length)
        or when the client went away before all of it came (nothing is answered
        then, and the connection is closed)."""
        if self.headers.get("Transfer-Encoding"):
            self._text(411, "refused: send the body with a Content-Length", close=True)
            return None
        text = self.headers.get("Content-Length", "")
        if not text.isdigit() or len(text) > 12:
            self._text(411, "refused: send the body with a Content-Length", close=True)
            return None
        length = int(text)
        if length > LARGEST_BODY:
            self._text(
                413, "refused: a body of %d bytes (at most %d)" % (length, LARGEST_BODY), close=True
            )
            return None
        self.connection.settimeout(BODY_WAIT_S)
        try:
            data = self.rfile.read(length)
        except TimeoutError:
            data = b""  # a client that stopped sending is treated as gone
        finally:
            self.connection.settimeout(None)
        if len(data) < length:
            self.close_connection = True
            return None
        return data


class WebServer(ThreadingHTTPServer):
    """The HTTP server of one session, on 127.0.0.1."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port, session):
        self.session = session
        self.closing = False
        self.files = static_files()
        super().__init__((HOST, port), Handler)

    def handle_error(self, request, client_address):
        """A client that went away is no error (see the module's docstring);
        anything else is printed with its traceback, as socketserver does."""
        if isinstance(sys.exc_info()[1], CLIENT_GONE):
            return
        super().handle_error(request, client_address)

    def shutdown(self):
        """Stop serving, end the event streams and the session's clock, close."""
        self.closing = True
        self.session.close()
        super().shutdown()
        self.server_close()


def serve(port=0, session=None):
    """Start the server on 127.0.0.1:`port` (0: a free port; server.server_address
    says which) for `session` (default: a new Session; a MirrorSession is served
    alike), started; returns (server, thread).  OSError when the port cannot be
    had (and the session is closed again)."""
    if session is None:
        session = Session()
    session.start()
    try:
        server = WebServer(port, session)
    except BaseException:
        session.close()
        raise
    thread = threading.Thread(
        target=server.serve_forever, args=(POLL_S,), name="table-web", daemon=True
    )
    thread.start()
    return server, thread
