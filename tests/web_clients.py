"""Clients of the web page's server (sim/web/server.py) that go away in the
middle of a request, on raw sockets, and a count of the connections the server
is done with, for tests/test_web.py (the page) and tests/test_web_mirror.py
(a board's mirror): the server is the same, so is what a client that left may
cost it (nothing on stderr, nothing acted on)."""

import socket
import struct
import threading

WAIT_S = 10.0  # the longest a test waits for the server; it is woken meanwhile
# What stderr must not have after a client left: a traceback, or any exception's name.
# (BrokenPipeError, ConnectionResetError, TimeoutError, JSONDecodeError...: "Error").
SAID = ("Traceback", "Exception", "Error", "Timeout")


def assert_unsaid(err):
    """stderr `err` has no traceback and no exception's name."""
    said = [word for word in SAID if word in err]
    assert not said, "stderr says %s: %r" % (said, err[-2000:])


class Finished:
    """Counts the connections `server` is done with: handled, anything its
    handle_error prints printed, closed.  wait(n) returns once n have been, so
    what a client that left made the server say is on stderr by then."""

    def __init__(self, server):
        self.count = 0
        self.done = threading.Condition()
        handle = server.process_request_thread

        def counted(request, client_address):
            try:
                handle(request, client_address)
            finally:
                with self.done:
                    self.count += 1
                    self.done.notify_all()

        server.process_request_thread = counted

    def wait(self, n):
        with self.done:
            finished = self.done.wait_for(lambda: self.count >= n, WAIT_S)
        assert finished, "the server finished %d connections of %d" % (self.count, n)


def request(port, method, path, headers="", body=b""):
    """The bytes of one request to 127.0.0.1:`port`, Host ours."""
    head = "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s\r\n" % (method, path, port, headers)
    return head.encode("ascii") + body


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)


def reset(sock):
    """Close `sock` with an RST (SO_LINGER 0) rather than a FIN."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def short_body(port, body, length=100):
    """POST /act saying Content-Length `length` with only `body`, then closed."""
    with connect(port) as sock:
        sock.sendall(request(port, "POST", "/act", "Content-Length: %d\r\n" % length, body))


def unread(port, data):
    """A whole request, then an RST before its answer is read."""
    sock = connect(port)
    sock.sendall(data)
    reset(sock)


def stalled_body(port, body, length=100):
    """POST /act saying Content-Length `length`, only `body` sent and the
    connection held open: what comes back before the server closes it."""
    with connect(port) as sock:
        sock.sendall(request(port, "POST", "/act", "Content-Length: %d\r\n" % length, body))
        got = b""
        while chunk := sock.recv(4096):
            got += chunk
        return got


def left_stream(port):
    """GET /events, read up to its first `data:` event, then an RST."""
    sock = connect(port)
    sock.sendall(request(port, "GET", "/events"))
    got = b""
    while b"\ndata: " not in got or not got.endswith(b"\n\n"):
        chunk = sock.recv(65536)
        assert chunk, "the stream ended before its first event: %r" % got[:200]
        got += chunk
    assert got.startswith(b"HTTP/1.1 200 ")
    reset(sock)
