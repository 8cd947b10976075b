"""The mirror of a board on USB, followed on the virtual board (sim/vboard):
the table app plays a match by itself under the board's own main loop in
MicroPython with the Pico's heap, and what reaches a reader of its serial
link (it never writes a byte) is what the same table does in CPython."""

import socket
import time

import pytest
import vboard_table
from test_mirror import Follower

from dicetable.games import GAMES
from sim.vboard import VirtualBoard

SEED = 5
GAME = GAMES.index("dicefull")
SEATS = (0, 1, 2)
MOVES = 40  # with two undos among them
PAUSE_MS = 10


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flash")
    vboard_table.install(folder)
    with VirtualBoard(folder, timeout=120) as vb:
        yield vb


def read_until(url_port, done, seconds):
    """The lines read from the board until done(lines) or `seconds` pass."""
    lines = []
    pending = b""
    end = time.monotonic() + seconds
    with socket.create_connection(("127.0.0.1", url_port), timeout=1) as sock:
        while time.monotonic() < end and not done(lines):
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            pending += chunk.replace(b"\r\n", b"\n")
            *whole, pending = pending.split(b"\n")
            lines.extend(x.decode().rstrip() for x in whole)
    return lines


@pytest.mark.slow
def test_a_reader_of_the_serial_link_gets_the_table_as_it_plays(board):
    vc, log, app = vboard_table.expected(SEED, GAME, SEATS, MOVES)
    want = vc.lines()
    journal = list(app.table.match.journal)
    vboard_table.start(board, SEED, GAME, SEATS, PAUSE_MS, MOVES)
    assert board.port is not None
    host = Follower()
    fed = [0]

    def done(lines):
        host.feed(lines[fed[0] :])
        fed[0] = len(lines)
        return host.journal == journal and host.strip() == bytes(app.strip.buf)

    got = read_until(board.port, done, 120)
    assert done(got), "the board's match did not reach its last action"
    # From the first line read on, the board said what the CPython table said,
    # line for line, the mirror's included: the console had room for all.
    first = next(i for i, x in enumerate(got) if x in want and not x.startswith("@"))
    start = want.index(got[first])
    assert got[first:] == want[start : start + len(got) - first]
    said = [x for x in got[first:] if not x.startswith("@")]
    assert said == log[log.index(said[0]) :][: len(said)]
    assert board.heap_grown() == 0
