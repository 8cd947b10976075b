"""The mirror of a board (python -m sim.web --port, sim/web/mirror.py), in CPython.

The board is the table app playing itself on virtual parts under the
board's own main loop (sim/vboard/table_app.py): its console (hal/console.py)
carries its log lines and the lines of hal/mirror.py (@l, @k, @j, @u), as a
Pico's USB does.
A fake board, a TCP server on 127.0.0.1, streams those bytes to the mirror,
which connects with socket://127.0.0.1:PORT, and records every byte the
mirror sends: none, ever.  What the mirror shows is pinned against what the
board's own table has: its strip's bytes, its match, its log.

The tests that play a board (a second or more each) are marked slow, as is
every case but the first of the table of bad lines: make check runs the rest.
Closing a socket:// port takes pyserial 0.3 s (a sleep in its close()), so
each test with a mirror lasts that much longer."""

import http.client
import json
import pathlib
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from web_clients import Finished, assert_unsaid, left_stream, request, short_body, unread

from dicetable.app.registry import pack
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, header, new_match
from dicetable.match.actions import OK as ACCEPTED
from dicetable.match.engine import options
from hal.console import Console
from hal.mirror import KEYFRAME_MS, WORDS
from sim.boardport import clean
from sim.hw import hands
from sim.hw.vconsole import VConsole
from sim.play import play
from sim.vboard.table_app import UNDO_EVERY, TableApp
from sim.web import mirror, mirror_lines, view
from sim.web.mirror import MirrorSession
from sim.web.requests import ActError
from sim.web.server import serve
from sim.web.webtable import SEATS

DICEFULL = GAMES.index("dicefull")
WAIT_S = 5.0  # the longest a test waits for the mirror; it polls meanwhile
ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOWN_FROM_THE_MATCH = (
    "players",
    "scores",
    "history",
    "standings",
    "trick",
    "centre",
    "centre_items",
    "centre_pieces",
    "box",
    "journal_length",
)


# --- the board, the fake USB link, the mirror -------------------------------------------------


class Board:
    """The table app on virtual parts, its console's bytes kept: the log lines
    interleaved with the mirror's, as one USB serial console carries both."""

    def __init__(self, seed=3, game=DICEFULL, seats=(0, 1, 2)):
        self.console = VConsole()
        console = Console(self.console)
        self.app = TableApp(console, console.log, seed)
        self.console.clock = self.app.clock
        self.app.provision(pack(hands.full_registry()))
        self.app.power_up()
        self.app.choose(game, list(seats))

    def unsent(self):
        """The console's bytes since the last call."""
        return self.console.read()

    def moves(self, n):
        for _ in range(n):
            self.app.move()


class FakeBoard:
    """A board's USB console as a TCP server on 127.0.0.1 (port 0): what send()
    is given goes to the one client connected; every byte the client sends is
    kept in `received`.  The first bytes sent on a connection begin with
    `greeting` (a line end by default: the end of the line the board was
    printing when the port opened, as a host sees a console from the middle
    of its stream; the mirror drops what comes before it).  Its thread stops
    by itself once close() is called."""

    def __init__(self, greeting=b"\r\n"):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)
        self.url = "socket://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.greeting = greeting
        self.lock = threading.Lock()
        self.client = None
        self.fresh = False  # nothing sent yet on this connection
        self.connections = 0
        self.received = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            with self.lock:
                client = self.client
            if client is None:
                self._accept()
            else:
                self._listen(client)
        self.drop()
        self.listener.close()

    def _accept(self):
        try:
            conn, _ = self.listener.accept()
        except OSError:  # the timeout: look at stop again
            return
        with self.lock:
            self.client = conn
            self.fresh = True
            self.connections += 1

    def _listen(self, client):
        try:
            ready, _, _ = select.select([client], [], [], 0.05)
            data = client.recv(4096) if ready else None
        except OSError:
            data = b""
        if data is not None:
            self.received += data
            if not data:  # the mirror closed its end
                self.drop()

    def send(self, data):
        """`data` to the client, once there is one (AssertionError after WAIT_S).
        Send only once the mirror says it is connected: pyserial's open() drops
        what came before (reset_input_buffer), as a serial port's does."""
        client = until(lambda: self.client, "client connected to the fake board")
        if self.fresh:
            self.fresh = False
            data = self.greeting + data
        client.sendall(data)

    def drop(self):
        """The board goes away: the connection is closed."""
        with self.lock:
            client, self.client = self.client, None
        if client is not None:
            client.close()

    def close(self):
        self.stop.set()
        self.thread.join(5)


def until(predicate, what, timeout=WAIT_S):
    """predicate()'s first true value, polled; AssertionError after `timeout` s."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("no %s within %g s" % (what, timeout))
        time.sleep(0.01)


def shown(session):
    """The state JSON the page gets, as an object."""
    return json.loads(session.snapshot()[1])


def lines_in(data):
    """The non-empty lines of console bytes, as the board printed them."""
    return [clean(x) for x in data.replace(b"\r\n", b"\n").split(b"\n")[:-1] if clean(x)]


def until_read(session, count):
    """The state once the mirror has read `count` lines."""
    try:
        return until(
            lambda: (s := shown(session))["mirror"]["lines"] == count and s,
            "mirror that read %d lines" % count,
        )
    except AssertionError:
        s = shown(session)
        raise AssertionError("mirror read %r, log ends %r" % (s["mirror"], s["log"][-3:])) from None


@pytest.fixture
def link():
    """A fake board and a mirror connected to it; both stopped after the test,
    and the mirror never wrote a byte."""
    board = FakeBoard()
    session = MirrorSession(board.url).start()
    try:
        until(lambda: shown(session)["mirror"]["connected"], "connection")
        yield board, session
    finally:
        session.close()
        board.close()
    assert bytes(board.received) == b""


# --- what the board has -------------------------------------------------------------------


def strip_rgb(app):
    """The strip's bytes (wire order G, R, B) as [r, g, b] per LED, chain order."""
    buf = app.strip.buf
    return [[buf[i + 1], buf[i], buf[i + 2]] for i in range(0, len(buf), 3)]


def board_log(data):
    return [line for line in lines_in(data) if not line.startswith("@")]


def table_facts(t):
    """What the page shows of table t that the mirror reads from its replica."""
    facts = {"mode": t.mode, "title": view.title(t), "status": view.status(t)}
    facts.update(view.match_view(t))
    facts["centre_items"] = []  # the mirror cannot know what a reader may take
    facts["box"] = []  # nor when the table asks for the box's items
    seats = []
    for s in SEATS:
        p = t.player[s]
        playing = p >= 0 and view.in_match(t)
        held = view.hand_of(t.match, p) if playing else []
        hand = [view.name(t.game, v) for v in held]
        pieces = view.sorted_hand(t.game, held)
        awaited = playing and t.mode == "play" and bool(t.inputs.active(p))
        seats.append(
            {"player": p if playing else None, "hand": hand, "pieces": pieces, "awaited": awaited}
        )
    facts["seats"] = seats
    return facts


def mirror_facts(s):
    facts = {k: s[k] for k in ("mode", "title", "status", *SHOWN_FROM_THE_MATCH)}
    keys = ("player", "hand", "pieces", "awaited")
    facts["seats"] = [{k: x[k] for k in keys} for x in s["seats"]]
    return facts


def assert_mirrors(s, board, log):
    """State s shows the board's LEDs, match and log (`log`: its lines sent)."""
    leds = [led for seat in s["seats"] for led in seat["leds"]] + s["ring"]
    assert leds == strip_rgb(board.app)
    assert mirror_facts(s) == table_facts(board.app.table)
    assert s["log"] == log
    assert all(x["entry"] is None and x["bot"] is None and x["items"] == [] for x in s["seats"])
    assert (s["scrub"], s["file"], s["running"]) == (None, None, False)


# --- the mirror follows the board -------------------------------------------------------------


@pytest.mark.slow
def test_the_mirror_shows_the_boards_leds_match_and_log_as_they_change(link):
    fake, session = link
    board = Board()
    sent = b""
    # Chunks of moves, checked after each; the 9th and the 18th are undos.
    for chunk in (UNDO_EVERY - 1, 1, UNDO_EVERY, 4):
        board.moves(chunk)
        data = board.unsent()
        fake.send(data)
        sent += data
        s = until_read(session, len(lines_in(sent)))
        assert_mirrors(s, board, board_log(sent))
        assert s["mirror"] == {
            "port": fake.url,
            "connected": True,
            "why": None,
            "lines": len(lines_in(sent)),
        }
    assert s["mode"] == "play" and s["title"] == "Dicefull" and s["players"] == [0, 1, 2]


@pytest.mark.slow
def test_an_undo_on_the_board_is_followed(link):
    fake, session = link
    board = Board(seed=7)
    board.moves(UNDO_EVERY - 1)
    before = len(board.app.table.match.journal)
    data = board.unsent()
    board.moves(1)  # the UNDO_EVERY-th move: the long press of - at the lead's seat
    assert len(board.app.table.match.journal) < before
    data += board.unsent()
    fake.send(data)
    s = until_read(session, len(lines_in(data)))
    assert s["journal_length"] == len(board.app.table.match.journal) < before
    assert_mirrors(s, board, board_log(data))


@pytest.mark.slow
def test_a_mirror_started_in_the_middle_of_a_match_has_it_all_after_the_next_keyframe():
    board = Board(seed=11)
    board.moves(12)
    old = board.unsent()  # printed before the mirror was there: lost, as on USB
    # The port opens in the middle of the board's last @j line.
    cut = old.rindex(b"@j ") + 10
    tail = old[cut:]
    fake = FakeBoard(greeting=b"")
    session = MirrorSession(fake.url).start()
    try:
        until(lambda: shown(session)["mirror"]["connected"], "connection")
        fake.send(tail)
        until_read(session, len(lines_in(tail)) - 1)  # the cut line's tail is dropped
        s = shown(session)
        assert s["mode"] == "none" and s["status"] == mirror.WAITING
        assert s["log"] == board_log(tail)[1:]
        board.app.passes.run_for(KEYFRAME_MS + 1000)  # the keyframe, and its @j lines
        data = board.unsent()
        fake.send(data)
        s = until_read(session, len(lines_in(tail)) - 1 + len(lines_in(data)))
        assert_mirrors(s, board, board_log(tail)[1:] + board_log(data))
    finally:
        session.close()
        fake.close()
    assert bytes(fake.received) == b""


@pytest.mark.slow
def test_the_board_going_away_shows_not_connected_and_a_reconnect_resumes(link):
    fake, session = link
    board = Board(seed=5)
    board.moves(5)
    first = board.unsent()
    fake.send(first)
    until_read(session, len(lines_in(first)))
    fake.drop()
    s = until(lambda: (x := shown(session))["mirror"]["connected"] is False and x, "lost link")
    assert s["mirror"]["why"].startswith("the board at %s went away" % fake.url)
    # What it last had stays on the page.
    assert_mirrors(s, board, board_log(first))
    # The mirror opens the port again by itself (every second).
    until(lambda: shown(session)["mirror"]["connected"], "connection again")
    until(lambda: fake.connections == 2, "second connection")
    board.moves(4)
    board.app.passes.run_for(KEYFRAME_MS + 1000)
    more = board.unsent()
    fake.send(more)
    s = until_read(session, len(lines_in(first)) + len(lines_in(more)))
    assert s["mirror"]["connected"] and s["mirror"]["why"] is None
    assert_mirrors(s, board, board_log(first) + board_log(more))


def match_lines(m, seats, seed):
    """The @k and @j lines a board's keyframe is for engine match m played at `seats`."""
    mask = sum(1 << s for s in seats)
    head = header(m) + b"".join(
        w.to_bytes(3, "big") for w in (SEATS_RECORD | mask, SEED_RECORD | seed)
    )
    lines = [b"@k %04x  %s" % (len(m.journal), head.hex().encode())]
    for i in range(0, len(m.journal), WORDS):
        words = b"".join(w.to_bytes(3, "big") for w in m.journal[i : i + WORDS])
        lines.append(b"@j %04x  %s" % (i, words.hex().encode()))
    return lines


def test_a_finished_match_shows_its_standings_and_then_no_match(link):
    fake, session = link
    m = play("walzer", 3, options(0, 1), ["random"] * 3, 2)  # a whole match, one round
    assert m.over()
    lines = match_lines(m, (0, 2, 4), 2)
    fake.send(b"".join(x + b"\r\n" for x in lines))
    s = until_read(session, len(lines))
    assert (s["mode"], s["title"], s["players"]) == ("over", "Walzer", [0, 2, 4])
    assert s["standings"] == list(m.standings()) and s["scores"] == list(m.totals)
    assert s["history"] == [list(row) for row in m.history]
    assert s["journal_length"] == len(m.journal)
    assert s["status"].startswith("Walzer over after 1 ")
    # The standings put away: the board is back in its menu.
    fake.send(b"@k -\n")
    s = until_read(session, len(lines) + 1)
    assert (s["mode"], s["status"], s["players"], s["trick"]) == ("none", mirror.NO_MATCH, [], [])
    assert [x["player"] for x in s["seats"]] == [None] * len(SEATS)


# --- what the mirror refuses ---------------------------------------------------------------------


def _last(lines, word):
    """The payload of the last of `lines` that begins with `word`."""
    return [x for x in lines if x.startswith(word + " ")][-1][len(word) + 1 :]


def _refused_again(board):
    """The journal's first action, made again: the rules refuse it."""
    t = board.app.table
    m = new_match(GAMES[t.game], t.match.players, t.match.options)
    for a in t.match.journal:
        assert m.submit(a) == ACCEPTED
    first = t.match.journal[0]
    assert m.submit(first) != ACCEPTED
    return "%06x" % first


# (id, the line, what the mirror's one log line says): each placeholder is
# filled from the board's own lines (its last @l 0/7 and @k payloads, its journal).
BAD_LINES = [
    ("unknown-line", "@garbage 1234", "mirror: @garbage line not understood: no such line"),
    ("leds-empty", "@l 0/7", "mirror: @l line not understood: no hex digits"),
    ("leds-where", "@l 9 {segment}", "mirror: @l line not understood: '9' is not K/N"),
    ("leds-not-hex", "@l 0/7 03zz{tail}", "@l line not understood: not hex: 'z' at digit 3"),
    ("leds-cut", "@l 0/7 {segment_cut}", "@l line not understood: 47 hex digits, not 8 LEDs"),
    ("leds-count", "@l 0/9 {segment}", "@l line not understood: 9 segments, not 8 LEDs a seat"),
    ("leds-past", "@l 7/7 {segment}", "@l line not understood: segment 7 of 7"),
    ("key-odd", "@k 0000  {head_odd}", "@k line not understood: {odd} hex digits, not whole"),
    ("key-short", "@k 0000  020300", "3 bytes, not the 4-byte header and 3-byte words"),
    ("key-no-count", "@k zz {head}", "@k line not understood: M 'zz' is not a hex number"),
    ("one-player", "@k 0000  {one_player}{words}", "header refused: dicefull is for 2 to 5"),
    ("no-such-game", "@k 0000  {game_9}{words}", "game 9: no such game (0 to 4: dtwww"),
    ("seats-word", "@k 0000  {header}000007{seed}", "SEATS word 0x000007 is not SEATS_RECORD"),
    ("seats-count", "@k 0000  {header}f0000f{seed}", "0xf0000f names 4 seats for 3 players"),
    ("seed-word", "@k 0000  {header}f00007000003", "SEED word 0x000003 is not SEED_RECORD"),
    ("key-actions", "@k 0001  {head}{refused}", "words after the table's records"),
    ("j-not-number", "@j zz  300000", "@j line not understood: I 'zz' is not a hex number"),
    ("j-cut", "@j {next}  30000", "@j line not understood: 5 hex digits, not whole actions"),
    ("j-out-of-step", "@j 0000  {refused}", "@j line out of step (action 0; the mirror has {n})"),
    ("u-past", "@u {past}", "@u line out of step (action {n_past}; the mirror has {n})"),
    ("u-more", "@u 0001 x", "@u line not understood: 'x' after I"),
    ("lost-not-number", "@lost x", "@lost line not understood: N 'x' is not a number"),
    ("no-action-word", "@j {next}  000000", "action {n_next}, 0x000000, is no action word"),
    ("action-refused", "@j {next}  {refused}", "action {n_next}, 0x{refused} (pick "),
]


@pytest.fixture(scope="module")
def played():
    """A board after a few moves, and every line it wrote: its log, its LEDs
    and its match's keyframe and changes (one replica to build)."""
    board = Board(seed=4)
    board.moves(6)
    return board, lines_in(board.unsent())


# Each case streams a board's state first (about 0.3 s): make check runs the first,
# make test all of them.
FIRST_ONLY = pytest.mark.slow


@pytest.mark.parametrize(
    "line, words",
    [
        pytest.param(*row[1:], id=row[0], marks=() if i == 0 else FIRST_ONLY)
        for i, row in enumerate(BAD_LINES)
    ],
)
def test_a_bad_line_is_one_log_line_and_changes_nothing_else(link, played, line, words):
    fake, session = link
    board, good = played
    fake.send("".join(x + "\r\n" for x in good).encode())
    before = until_read(session, len(good))
    assert before["journal_length"] == len(board.app.table.match.journal) > 0
    segment = _last(good, "@l 0/7")
    head = _last(good, "@k").split()[1]
    header, words_ = head[:8], [head[i : i + 6] for i in range(8, len(head), 6)]
    n = len(board.app.table.match.journal)
    fields = dict(
        segment=segment,
        tail=segment[4:],
        segment_cut=segment[:-1],
        head=head,
        head_odd=head[:-1],
        odd=len(head) - 1,
        words="".join(words_),
        seed=words_[1],
        header=header,
        one_player=header[:2] + "01" + header[4:],
        game_9="09" + header[2:],
        refused=_refused_again(board),
        n=n,
        next="%04x" % n,
        n_next=n + 1,
        past="%04x" % (n + 1),
        n_past=n + 1,
    )
    line = line.format(**fields)
    words = words.format(**fields)
    fake.send(line.encode() + b"\r\n")
    after = until_read(session, before["mirror"]["lines"] + 1)
    assert after["log"][:-1] == before["log"]
    said = after["log"][-1]
    assert said.startswith("mirror: ") and words in said and "\n" not in said
    for key in before:
        if key not in ("version", "log", "text", "mirror"):
            assert after[key] == before[key], key
    assert after["text"][:-1] == before["text"][:-1]


def test_any_other_line_goes_to_the_log_cleaned(link):
    fake, session = link
    fake.send(b"\x1b[31mseat 1 refused: out of turn\x1b[0m\r\nplain\rlast\n\n\r\n\x00\xff zz\n")
    s = until_read(session, 4)
    assert s["log"] == ["seat 1 refused: out of turn", "plain", "last", "\ufffd zz"]
    assert s["mode"] == "none" and s["status"] == mirror.WAITING


def test_the_log_keeps_the_last_2000_lines(link):
    fake, session = link
    fake.send(b"".join(b"line %d\n" % i for i in range(2100)))
    s = until_read(session, 2100)
    assert s["log"] == ["line %d" % i for i in range(100, 2100)]


@pytest.mark.parametrize(
    "payload, words",
    [
        ("0/7 " + "0" * 47, "47 hex digits, not 8 LEDs (48 digits)"),
        ("4/5 " + "00" * 24, None),  # a table whose last seat is 2: 3 segments and the ring's 2
        ("0/2 " + "00" * 24, "2 segments, not 8 LEDs a seat for 1 to 5 seats and the ring's 16"),
        ("0/7 g0", "not hex: 'g' at digit 1"),
    ],
    ids=["cut", "three-seats", "ring-only", "not-hex"],
)
def test_segment_reads_8_leds_of_a_table(payload, words):
    if words is None:
        assert mirror_lines.segment(payload) == (4, 5, [(0, 0, 0)] * 8)
        return
    with pytest.raises(ValueError, match="^" + re.escape(words)):
        mirror_lines.segment(payload)


def test_leds_are_in_wire_order_g_r_b():
    payload = "".join("%02x%02x%02x" % (i, 100 + i, 200 + i % 50) for i in range(8))
    _, _, got = mirror_lines.segment("6/7 " + payload)
    assert got[0] == (100, 0, 200) and got[7] == (107, 7, 207)


def test_a_keyframe_of_no_match_is_none():
    assert mirror_lines.keyframe("-") is None and mirror_lines.match("-") is None


def test_a_three_seat_table_shows_dark_segments_past_its_last_seat(link):
    fake, session = link
    fake.send(b"".join(b"@l %d/5 %s\r\n" % (k, b"%02x" % (k + 1) * 24) for k in range(5)))
    s = until_read(session, 5)
    assert [x["leds"][0] for x in s["seats"]] == [[k + 1] * 3 for k in range(3)] + [[0, 0, 0]] * 2
    assert s["ring"] == [[4] * 3] * 8 + [[5] * 3] * 8


def test_a_line_out_of_step_waits_for_the_next_keyframe_keeping_what_it_shows(link):
    fake, session = link
    m = play("walzer", 3, options(0, 1), ["random"] * 3, 2)
    lines = match_lines(m, (0, 2, 4), 2)
    fake.send(b"".join(x + b"\r\n" for x in lines[:1] + lines[2:]))  # the first @j lost
    s = until_read(session, len(lines) - 1)
    assert s["mode"] == "none" and s["status"] == mirror.RECEIVING % (0, len(m.journal))
    assert s["log"][0].startswith("mirror: @j line out of step (action %d; " % WORDS)
    assert len(s["log"]) == 1  # the lines after it wait for the keyframe, quietly
    fake.send(b"".join(x + b"\r\n" for x in lines))  # the next keyframe
    s = until_read(session, 2 * len(lines) - 1)
    assert s["mode"] == "over" and s["journal_length"] == len(m.journal)


def test_the_boards_loss_line_is_one_log_line(link):
    fake, session = link
    fake.send(b"@lost 1\r\n@lost 12\r\n")
    s = until_read(session, 2)
    assert s["log"] == [
        "mirror: the board dropped 1 line: nothing read its console in time",
        "mirror: the board dropped 12 lines: nothing read its console in time",
    ]


# --- read only --------------------------------------------------------------------------------


def test_act_is_refused_in_one_line(link):
    _, session = link
    version = session.version
    with pytest.raises(ActError) as e:
        session.act({"do": "step"})
    assert str(e.value).count("\n") == 0
    assert "mirrors the board at socket://127.0.0.1:" in str(e.value)
    assert "play happens at the table" in str(e.value)
    assert session.version == version


def call(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sent = {"Host": "127.0.0.1:%d" % port}
    sent.update(headers or {})
    try:
        conn.request(method, path, body=body, headers=sent)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_the_server_serves_a_mirror_behind_the_same_checks():
    fake = FakeBoard()
    server, thread = serve(0, MirrorSession(fake.url))
    port = server.server_address[1]
    try:
        status, body = call(port, "GET", "/state")
        assert status == 200 and json.loads(body)["mirror"]["port"] == fake.url
        for headers in ({"Host": "evil.example:%d" % port}, {"Origin": "http://evil.example"}):
            for method, path in (("GET", "/state"), ("GET", "/events"), ("POST", "/act")):
                status, body = call(port, method, path, b'{"do": "step"}', headers)
                assert status == 403 and body.startswith(b"refused: the table answers only")
        status, body = call(port, "POST", "/act", b'{"do": "step"}')
        answer = json.loads(body)
        assert status == 400 and answer["ok"] is False
        assert "play happens at the table" in answer["error"] and "\n" not in answer["error"]
    finally:
        server.shutdown()
        thread.join(5)
        fake.close()
    assert bytes(fake.received) == b""


# --- clients of the mirror's page that go away -----------------------------------------------


@pytest.fixture
def served():
    """A fake board, its mirror served on 127.0.0.1 and connected, and a count
    of the connections the server is done with (tests/web_clients.py); all
    stopped after the test, and the mirror never wrote a byte."""
    board = FakeBoard()
    server, thread = serve(0, MirrorSession(board.url))
    session = server.session
    try:
        until(lambda: shown(session)["mirror"]["connected"], "connection")
        yield board, server.server_address[1], session, Finished(server)
    finally:
        server.shutdown()
        thread.join(5)
        board.close()
    assert bytes(board.received) == b""


@pytest.mark.parametrize("body", [b"{", b'{"do": "step"}'], ids=["brace", "whole-action"])
def test_a_body_cut_short_is_not_said_and_the_mirror_serves_on(served, capfd, body):
    _, port, session, finished = served
    before = session.snapshot()
    short_body(port, body, 100)
    finished.wait(1)
    status, data = call(port, "GET", "/state")
    assert status == 200 and data.decode() == before[1] == session.snapshot()[1]
    assert_unsaid(capfd.readouterr().err)


@pytest.mark.parametrize(
    "method, path, body",
    [("GET", "/", b""), ("GET", "/state", b""), ("POST", "/act", b'{"do": "step"}')],
    ids=["page", "state", "act"],
)
def test_a_client_gone_before_its_answer_is_not_said_by_the_mirror(
    served, capfd, method, path, body
):
    _, port, _, finished = served
    length = "Content-Length: %d\r\n" % len(body) if method == "POST" else ""
    unread(port, request(port, method, path, length, body))
    finished.wait(1)
    assert call(port, "GET", "/state")[0] == 200
    assert_unsaid(capfd.readouterr().err)


def test_an_event_stream_of_the_mirror_left_ends_unsaid(served, capfd):
    board, port, session, finished = served
    left_stream(port)
    board.send(b"a line for no one\r\n")  # a change the stream has no one to send to
    finished.wait(1)
    assert shown(session)["log"][-1] == "a line for no one"
    status, data = call(port, "GET", "/state")
    assert status == 200 and json.loads(data)["log"][-1] == "a line for no one"
    assert_unsaid(capfd.readouterr().err)


# --- python -m sim.web --port ----------------------------------------------------------------


def test_a_port_that_does_not_open_is_served_and_said_in_one_line():
    p = subprocess.Popen(
        [sys.executable, "-m", "sim.web", "--port", "/dev/nonexistent", "--http-port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdout is not None and p.stderr is not None
        line = p.stdout.readline()
        assert line.startswith("table at http://127.0.0.1:")
        said = p.stderr.readline()
        assert said.startswith(
            "python -m sim.web: not connected: no board at /dev/nonexistent: no such device;"
        )
        assert said.endswith("(the page is served; the mirror tries again every second)\n")
        port = int(line.rsplit(":", 1)[1].rstrip("/\n"))
        status, body = call(port, "GET", "/state")
        s = json.loads(body)
        assert status == 200 and s["mirror"]["connected"] is False
        assert s["mirror"]["why"].startswith("no board at /dev/nonexistent: no such device")
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and out == "" and err == ""


@pytest.mark.parametrize(
    "args, words",
    [
        (["--port", ""], "argument --port: an empty port (give a serial device"),
        (["--port", "0"], "argument --port: '0' is a number, and --port names the board's"),
        (["--port", "nope://x"], "argument --port: no URL scheme 'nope' in pyserial"),
        (["--port", "auto", "--open", "w.match"], "--port and --open: the mirror shows"),
    ],
    ids=["empty", "a-number", "no-such-scheme", "with-open"],
)
def test_a_bad_port_argument_is_one_line_and_status_2(args, words):
    done = subprocess.run(
        [sys.executable, "-m", "sim.web", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr
    assert done.stderr.startswith("python -m sim.web: error: ")
