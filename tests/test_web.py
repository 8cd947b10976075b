"""The web page's server and session (python -m sim.web), without a browser.

The server answers only its own page on the loopback (Host and Origin
checked on every request), serves only sim/web/static's files, and carries
the page's clicks to the real firmware on the virtual table: the state's
LEDs are the strip's frame, a human seat's scans and presses are made as a
click makes them, bots play whole matches, a saved match file is scrubbed
through, and every bad request is one line that changes nothing.  The
browser's side (the DOM) is tested elsewhere."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from web_clients import (
    Finished,
    assert_unsaid,
    left_stream,
    request,
    short_body,
    stalled_body,
    unread,
)

from dicetable.app import games
from dicetable.app.events import CENTRE
from dicetable.app.refusals import refusal_name
from dicetable.games import GAMES
from dicetable.match.actions import seat_of
from dicetable.match.engine import TABLE_ROLLS, options
from sim import legend, matchfile
from sim.hw import hands
from sim.play import play
from sim.web.server import LARGEST_BODY, serve
from sim.web.session import Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def web():
    """A server on a free port for a session whose time passes only when asked
    (no wall clock: the version moves only with a change) and whose bots move
    back to back when running; stopped after the test."""
    session = Session(live=False, period=0)
    server, thread = serve(0, session)
    try:
        yield server.server_address[1], session
    finally:
        server.shutdown()
        thread.join(5)


def call(port, method, path, body=None, headers=None):
    """(status, headers, body bytes) of one request; Host is ours unless given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": "127.0.0.1:%d" % port}
    sent.update(headers or {})
    try:
        conn.request(method, path, body=body, headers=sent)
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


def act(port, request, headers=None):
    body = request if isinstance(request, bytes) else json.dumps(request).encode()
    status, _, data = call(
        port, "POST", "/act", body, dict({"Content-Type": "application/json"}, **(headers or {}))
    )
    return status, json.loads(data)


def state(port):
    status, _, data = call(port, "GET", "/state")
    assert status == 200
    return json.loads(data)


def new(port, game, seats, **more):
    status, answer = act(port, dict({"do": "new", "game": game, "seats": seats}, **more))
    assert (status, answer["ok"]) == (200, True), answer
    return state(port)


def until_over(port, most=2000):
    for _ in range(most):
        s = state(port)
        if s["mode"] == "over":
            return s
        status, answer = act(port, {"do": "step"})
        assert status == 200, answer
    raise AssertionError("the match did not end in %d steps" % most)


def rgb(leds):
    return [list(x) for x in leds]


# --- who may ask ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "foreign",
    [
        {"Host": "evil.example:{port}"},
        {"Origin": "http://evil.example"},
        {"Host": "127.0.0.1:1"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:{port}.evil.example"},
    ],
)
def test_a_foreign_host_or_origin_is_refused_on_every_door(web, foreign):
    port, session = web
    headers = {k: v.format(port=port) for k, v in foreign.items()}
    version = session.version
    for method, path, body in [
        ("GET", "/", None),
        ("GET", "/state", None),
        ("GET", "/events", None),
        ("GET", "/static/table.js", None),
        ("GET", "/legend", None),
        ("POST", "/act", b'{"do": "step"}'),
    ]:
        status, _, data = call(port, method, path, body, headers)
        assert status == 403, (method, path)
        assert data.decode().count("\n") == 1 and data.startswith(b"refused:")
    assert session.version == version


def test_the_page_answers_its_own_names_on_the_loopback(web):
    port, _ = web
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port):
        origin = "http://" + host
        assert call(port, "GET", "/", headers={"Host": host})[0] == 200
        assert act(port, {"do": "pause"}, {"Host": host, "Origin": origin})[0] == 200


def test_the_server_listens_on_the_loopback_only(web):
    port, _ = web
    status, headers, data = call(port, "GET", "/")
    assert status == 200 and b'src="/static/table.js"' in data
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    # Every file the page loads is the repository's own: no other site named.
    for name in ("index.html", "table.js", "table.css"):
        with open(os.path.join(ROOT, "sim", "web", "static", name), encoding="utf-8") as f:
            text = f.read()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name


@pytest.mark.parametrize(
    "path",
    [
        "/static/../server.py",
        "/static/%2e%2e/server.py",
        "/static/..%2fserver.py",
        "/static/../../../../etc/passwd",
        "/static/",
        "/static/.",
        "/server.py",
    ],
)
def test_only_the_static_files_are_served(web, path):
    port, _ = web
    status, _, data = call(port, "GET", path)
    assert status == 404
    assert b"import" not in data and b"root:" not in data
    assert data.decode().count("\n") == 1


def test_the_static_files_are_served_with_their_types(web):
    port, _ = web
    for name, kind in (("table.js", "text/javascript"), ("table.css", "text/css")):
        status, headers, _ = call(port, "GET", "/static/" + name)
        assert status == 200 and headers["Content-Type"].startswith(kind)


# --- the table behind the page ----------------------------------------------------------------


def test_the_state_shows_the_strips_frame(web):
    port, session = web
    s = new(port, "walzer", [0, 1, 2, 3], bots=["human", "heuristic", "random", "heuristic"])
    assert (s["mode"], s["title"]) == ("play", "Walzer")
    assert s["status"].startswith("Walzer, round 1")
    vt = session.vt
    for seat in s["seats"]:
        assert seat["leds"] == rgb(vt.leds(seat["seat"]))
        assert len(seat["leds"]) == 8
    assert s["ring"] == rgb(vt.leds(CENTRE))
    assert [x["player"] for x in s["seats"]] == [0, 1, 2, 3, None]
    assert [x["bot"] for x in s["seats"]] == ["human", "heuristic", "random", "heuristic", None]
    assert s["log"] == vt.lines
    # The deal: every seat may scan any card not yet dealt, and is awaited.
    assert all(x["awaited"] and len(x["items"]) == 36 for x in s["seats"][:4])
    # A new match while one is played: abandoned with the buttons, the menu again.
    s = new(port, "dtt", [1, 2, 4])
    assert (s["mode"], s["title"], s["players"]) == ("play", "d-TT", [1, 2, 4])
    assert any("match abandoned" in line for line in s["log"])
    for seat in s["seats"]:
        assert seat["leds"] == rgb(session.vt.leds(seat["seat"]))


def test_a_new_match_takes_the_menus_options(web):
    port, session = web
    s = new(port, "nokosu", [0, 2, 3], open_play=True, table_rolls=True, length=2)
    m = session.vt.table.match
    assert m.options == options(1 | TABLE_ROLLS, 2)
    assert s["players"] == [0, 2, 3]
    assert "new match: Nokosu, seats 0 2 3, open play, table rolls, 2 rounds" in s["log"]


def test_bots_play_a_whole_match_when_running(web):
    port, _ = web
    new(port, "dicefull", [0, 1, 3], bots=["random", "heuristic", "heuristic"], length=1)
    status, answer = act(port, {"do": "run"})
    assert status == 200 and answer["ok"] and answer["version"] >= 1
    deadline = time.monotonic() + 60
    s = state(port)
    while (s["mode"] != "over" or s["running"]) and time.monotonic() < deadline:
        time.sleep(0.05)
        s = state(port)
    assert s["mode"] == "over" and not s["running"]
    assert s["standings"] is not None and len(s["standings"]) == 3
    assert s["status"].startswith("Dicefull over after 1 challenge")


@pytest.mark.slow
def test_stepping_plays_a_whole_match(web):
    port, session = web
    new(port, "dtwww", [2, 4], table_rolls=True, length=1)
    s = until_over(port)
    assert len(s["history"]) == 1 and s["scores"] == [
        sum(col) for col in zip(*s["history"], strict=True)
    ]
    assert s["ring"] == rgb(session.vt.leds(CENTRE)) and len(set(map(tuple, s["ring"]))) == 1
    status, answer = act(port, {"do": "step"})  # nothing to do: time passes
    assert status == 200 and answer["ok"]


def bots_dealt(port):
    """A Walzer match of seat 0 (human) and two bots, run until the bots are
    no longer awaited (their hands dealt; 30 s at most): the state then."""
    new(port, "walzer", [0, 1, 2], bots=["human", "heuristic", "heuristic"], length=1)
    act(port, {"do": "run"})
    deadline = time.monotonic() + 30
    s = state(port)
    while any(x["awaited"] for x in s["seats"][1:3]) and time.monotonic() < deadline:
        time.sleep(0.05)
        s = state(port)
    return s


def test_run_waits_for_a_human_seat(web):
    port, _ = web
    s = bots_dealt(port)
    # The bots dealt their hands; seat 0's deal is left to its human.
    assert s["seats"][0]["awaited"] and len(s["seats"][0]["hand"]) == 0
    assert all(len(x["hand"]) == 12 for x in s["seats"][1:3])
    assert s["running"]
    act(port, {"do": "pause"})
    assert not state(port)["running"]


def test_a_seats_whole_hand_the_box_and_a_refusal_on_the_item(web):
    port, session = web
    bots_dealt(port)
    act(port, {"do": "pause"})
    s = state(port)
    g = GAMES.index("walzer")
    order = [hands.uid_for(g, i).hex() for i in games.all_items(g)]
    # The bots' hands: their pieces, in the box's order, drawn.
    for seat in s["seats"][1:3]:
        uids = [it["uid"] for it in seat["pieces"]]
        assert len(uids) == 12 and uids == sorted(uids, key=order.index)
        assert sorted(it["name"] for it in seat["pieces"]) == sorted(seat["hand"])
        assert all(it["art"].startswith("<svg") for it in seat["pieces"])
        assert not seat["box"]
    # Seat 0 is asked for its deal's scans: the box, by colour, every card.
    seat = s["seats"][0]
    assert seat["awaited"] and seat["box"] and not seat["pieces"]
    assert [b["group"] for b in s["box"]] == ["red", "blue", "green", "X"]
    assert [it["uid"] for b in s["box"] for it in b["items"]] == order
    # A card of seat 1's hand put on seat 0's reader: refused, nothing taken;
    # its words while the pattern shows, and gone with seat 0's next press.
    wrong = s["seats"][1]["pieces"][0]["uid"]
    assert wrong not in {it["uid"] for it in seat["items"]}
    before = s["journal_length"]
    act(port, {"do": "scan", "reader": 0, "uid": wrong})
    s = state(port)
    code = session.vt.table.err_code[0]
    assert code and s["seats"][0]["refused"] == {"uid": wrong, "words": refusal_name(code)}
    assert s["journal_length"] == before and s["log"][-1].startswith("seat 0 refused: ")
    assert all(x["refused"] is None for x in s["seats"][1:])
    act(port, {"do": "press", "seat": 0, "button": "plus"})
    assert state(port)["seats"][0]["refused"] is None


@pytest.mark.slow
def test_a_human_seat_plays_with_scans_and_presses(web):
    port, session = web
    s = new(port, "dtwww", [0, 1], bots=["human", "heuristic"], length=1)
    seat = s["seats"][0]
    first = seat["items"][0]
    status, answer = act(port, {"do": "scan", "reader": 0, "uid": first["uid"]})
    s = state(port)
    assert status == 200 and s["journal_length"] == 1
    assert s["log"][-1].startswith("seat 0 deal %s" % first["name"])  # 'red d4:0': as it shows
    assert len(s["seats"][0]["hand"]) == 1 and s["seats"][0]["hand"][0].startswith(first["name"])
    # The rest of the deal: seat 0's by clicks, seat 1's by its bot.
    for _ in range(40):
        seat = s["seats"][0]
        if seat["items"] and seat["awaited"] and len(seat["hand"]) < 9:
            act(port, {"do": "scan", "reader": 0, "uid": seat["items"][0]["uid"]})
        else:
            act(port, {"do": "step"})
        s = state(port)
        if len(s["seats"][0]["hand"]) == 9 and len(s["seats"][1]["hand"]) == 9:
            break
    # Play until seat 0 has a roll to enter: a die played, then -/+ and OK.
    for _ in range(40):
        seat = s["seats"][0]
        if seat["entry"]:
            break
        if seat["awaited"] and seat["items"]:
            act(port, {"do": "scan", "reader": 0, "uid": seat["items"][0]["uid"]})
        else:
            act(port, {"do": "step"})
        s = state(port)
    shown = s["seats"][0]["entry"]
    assert shown and shown.startswith("roll"), s["text"]
    before = s["journal_length"]
    act(port, {"do": "press", "seat": 0, "button": "plus"})
    s = state(port)
    assert s["seats"][0]["entry"] != shown
    assert s["seats"][0]["leds"] == rgb(session.vt.leds(0))
    act(port, {"do": "press", "seat": 0, "button": "ok", "long": False})
    s = state(port)
    assert s["journal_length"] == before + 1 and s["log"][-1].startswith("seat 0 roll")
    # Undo: the long press of - at the table, from the button or the control.
    act(port, {"do": "press", "seat": 0, "button": "minus", "long": True})
    s = state(port)
    assert s["journal_length"] == before and "seat 0 undo: took back" in s["log"][-1]
    act(port, {"do": "undo"})
    assert state(port)["journal_length"] == before - 1


def test_a_refused_scan_shows_at_the_seat(web):
    port, session = web
    new(port, "walzer", [0, 1, 2], bots=["human", "heuristic", "heuristic"])
    # A d-TT card at a Walzer table: another game's tag (2 purple LEDs, blinking).
    act(port, {"do": "scan", "reader": 1, "uid": "04030011"})
    s = state(port)
    assert s["log"][-1] == "seat 1 refused: another game's tag (d-TT hearts 4)"
    assert s["seats"][1]["leds"] == rgb(session.vt.leds(1))
    assert s["seats"][1]["leds"][:2] == [[32, 0, 48]] * 2


# --- bad requests -----------------------------------------------------------------------------


BAD = [
    (b"not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (b'"step"', "JSON object"),
    (b"{}", "no action given"),
    (b'{"do": "fly"}', 'no action "fly"'),
    (b'{"do": 3}', "no action 3"),
    (b'{"do": "press"}', "'press' needs 'seat'"),
    (b'{"do": "press", "seat": 9, "button": "ok"}', "no seat 9"),
    (b'{"do": "press", "seat": "0", "button": "ok"}', "'seat' is a whole number"),
    (b'{"do": "press", "seat": true, "button": "ok"}', "'seat' is a whole number"),
    (b'{"do": "press", "seat": 0, "button": "fire"}', 'no button "fire"'),
    (b'{"do": "press", "seat": 0, "button": "ok", "long": "yes"}', "'long' is true or false"),
    (b'{"do": "scan", "reader": 0, "uid": "zz"}', "not 4 or 7 bytes"),
    (b'{"do": "scan", "reader": 0, "uid": "0401"}', "not 4 or 7 bytes"),
    (b'{"do": "scan", "reader": 6, "uid": "04010001"}', "no seat 6"),
    (b'{"do": "scan", "uid": "04010001"}', "'scan' needs 'reader'"),
    (b'{"do": "new", "game": "chess", "seats": [0, 1]}', 'no game "chess"'),
    (b'{"do": "new", "game": "walzer", "seats": [0, 1]}', "walzer is for 3 to 4 players"),
    (b'{"do": "new", "game": "walzer", "seats": [0, 1, 7]}', "no seat 7"),
    (b'{"do": "new", "game": "walzer", "seats": [0, 1, 1]}', "a seat twice"),
    (
        b'{"do": "new", "game": "walzer", "seats": [0, 1, 2], "table_rolls": true}',
        "walzer has no table rolls",
    ),
    (
        b'{"do": "new", "game": "walzer", "seats": [0, 1, 2], "length": 10}',
        "length 10 is out of range",
    ),
    (b'{"do": "new", "game": "walzer", "seats": [0, 1, 2], "bots": ["human"]}', "'bots' is one of"),
    (
        b'{"do": "new", "game": "walzer", "seats": [0, 1, 2], "bots": ["a", "b", "c"]}',
        "'bots' is one of",
    ),
    (b'{"do": "bot", "seat": 1, "bot": "genius"}', 'no bot "genius"'),
    (b'{"do": "undo"}', "no match to undo"),
    (b'{"do": "scrub", "to": 3}', "no match file open"),
    (b'{"do": "open", "text": "game chess\\n"}', "match file:1:6: no game 'chess'"),
    (b'{"do": "open", "text": 5}', "'text' is text"),
    ('{"do": "st\u00e9p"}'.encode("latin-1"), "not JSON"),
]


@pytest.mark.parametrize("body, words", BAD)
def test_a_bad_request_is_one_line_and_changes_nothing(web, body, words):
    port, session = web
    before = state(port)
    status, answer = act(port, body)
    assert status == 400 and answer["ok"] is False
    assert words in answer["error"] and "\n" not in answer["error"]
    after = state(port)
    assert after["version"] == before["version"] == session.version
    assert after == before


def test_a_huge_body_is_refused_unread(web):
    port, session = web
    version = session.version
    body = json.dumps({"do": "open", "text": "#" * LARGEST_BODY}).encode()
    status, _, data = call(port, "POST", "/act", body)
    assert status == 413 and data.decode().count("\n") == 1
    assert state(port)["version"] == version


def test_a_body_without_its_length_is_refused(web):
    port, _ = web
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("POST", "/act", skip_host=True)
    conn.putheader("Host", "127.0.0.1:%d" % port)
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    conn.send(b"0\r\n\r\n")
    r = conn.getresponse()
    assert r.status == 411 and r.read().decode().count("\n") == 1
    conn.close()


def test_an_unknown_page_is_one_line(web):
    port, _ = web
    assert call(port, "GET", "/nothing")[0] == 404
    assert call(port, "POST", "/state", b"{}")[0] == 404
    for method in ("PUT", "DELETE"):
        status, _, body = call(port, method, "/state", b"{}")
        assert status == 501 and body == b"refused: Unsupported method ('%s')\n" % method.encode()
    status, headers, body = call(port, "HEAD", "/")
    assert status == 501 and headers["Content-Type"].startswith("text/plain") and body == b""


# --- a saved match file -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, opts",
    [("walzer", 3, options(0, 1)), ("nokosu", 3, options(TABLE_ROLLS, 1))],
)
def test_a_match_file_is_scrubbed_through(web, game, players, opts):
    port, _ = web
    m = play(game, players, opts, ["heuristic"] * players, 5)
    text = matchfile.text_of(m, ["seed 5"])
    status, answer = act(port, {"do": "open", "text": text, "name": game + ".match"})
    assert status == 200, answer
    s = state(port)
    of = len(m.journal)
    assert s["file"] == game + ".match" and s["scrub"]["of"] == of
    assert s["scrub"]["at"] == s["journal_length"] < of
    assert [x["bot"] for x in s["seats"][:players]] == ["human"] * players
    for to in (0, of // 2, of - 1, of):
        assert act(port, {"do": "scrub", "to": to})[0] == 200
        s = state(port)
        at = s["scrub"]["at"]
        # A place just before the table's own draws shows them too: the
        # firmware draws at once, as it did when the match was played.
        assert at == s["journal_length"] and to <= at <= of
        assert s["log"][-1] == "resumed %s at action %d" % (s["title"], at)
    last = m.journal[-1]
    words = "seat %d %s" % (seat_of(last), games.action_words(GAMES.index(game), last))
    assert s["mode"] == "over" and s["scrub"]["last"] == words
    assert s["standings"] == list(m.standings()) and s["scores"] == list(m.totals)
    # Out of the file's range: refused, the place kept.
    status, answer = act(port, {"do": "scrub", "to": of + 1})
    assert status == 400 and "out of range" in answer["error"]
    assert state(port)["scrub"]["at"] == of


def test_playing_on_from_a_scrubbed_place_leaves_the_file(web):
    port, _ = web
    m = play("walzer", 3, options(0, 1), ["heuristic"] * 3, 5)
    act(port, {"do": "open", "text": matchfile.text_of(m), "name": "w.match"})
    act(port, {"do": "scrub", "to": 10})
    act(port, {"do": "undo"})  # back one: still the file's match
    s = state(port)
    assert s["scrub"]["at"] == 9 and s["journal_length"] == 9 and s["file"] == "w.match"
    # A card dealt to another seat than the file's next: a match of its own.
    other = (seat_of(m.journal[9]) + 1) % 3
    uid = s["seats"][other]["items"][0]["uid"]
    act(port, {"do": "scan", "reader": other, "uid": uid})
    s = state(port)
    assert s["journal_length"] == 10 and s["scrub"] is None and s["file"] is None
    assert act(port, {"do": "scrub", "to": 3})[0] == 400


def test_a_match_file_the_rules_refuse_is_one_line(web):
    port, session = web
    version = session.version
    text = "game walzer\nplayers 3\noptions 0\nplay 2 5\n"
    status, answer = act(port, {"do": "open", "text": text, "name": "bad.match"})
    assert status == 400
    assert answer["error"] == "bad.match:4: action 1, 'play 2 5', refused: wrong phase"
    assert state(port)["version"] == version


# --- events and the legend --------------------------------------------------------------------


def read_event(r):
    """The next `data:` event of an event stream (comments skipped), as JSON."""
    while True:
        line = r.fp.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            assert r.fp.readline() == b"\n"
            return json.loads(line[6:])


def test_events_carry_the_state_after_a_change(web):
    port, session = web
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/events", headers={"Host": "localhost:%d" % port})
    r = conn.getresponse()
    assert r.status == 200 and r.headers["Content-Type"] == "text/event-stream"
    first = read_event(r)
    assert first["version"] == session.version and first["mode"] == "menu"
    status, answer = act(port, {"do": "press", "seat": 0, "button": "plus"})
    event = read_event(r)
    while event["version"] < answer["version"]:
        event = read_event(r)
    assert event["version"] == answer["version"] > first["version"]
    assert event["status"].startswith("menu: game Walzer")
    assert event["seats"][0]["leds"] != first["seats"][0]["leds"]
    assert event["ring"] == rgb(session.vt.leds(CENTRE))
    conn.close()


def test_the_legend_is_the_simulators(web):
    port, _ = web
    status, _, data = call(port, "GET", "/legend")
    assert status == 200 and json.loads(data) == json.loads(json.dumps(legend.entries()))


# --- clients that go away ---------------------------------------------------------------------


@pytest.fixture
def watched():
    """The `web` fixture's server and session, and a count of the connections
    the server is done with (tests/web_clients.py)."""
    session = Session(live=False, period=0)
    server, thread = serve(0, session)
    try:
        yield server.server_address[1], session, Finished(server)
    finally:
        server.shutdown()
        thread.join(5)


PRESS = b'{"do": "press", "seat": 0, "button": "plus"}'  # a change, in the menu


@pytest.mark.parametrize("body", [b"{", PRESS], ids=["brace", "whole-action"])
def test_a_body_cut_short_is_not_acted_on_and_not_said(watched, capfd, body):
    port, session, finished = watched
    before = state(port)
    short_body(port, body, 100)
    finished.wait(2)
    after = state(port)
    assert after == before and session.version == before["version"]
    assert_unsaid(capfd.readouterr().err)


@pytest.mark.parametrize(
    "method, path, body",
    [("GET", "/", b""), ("GET", "/state", b""), ("POST", "/act", PRESS)],
    ids=["page", "state", "act"],
)
def test_a_client_gone_before_its_answer_is_not_said(watched, capfd, method, path, body):
    port, _, finished = watched
    length = "Content-Length: %d\r\n" % len(body) if method == "POST" else ""
    unread(port, request(port, method, path, length, body))
    finished.wait(1)
    assert state(port)["mode"] == "menu"
    assert_unsaid(capfd.readouterr().err)


def test_an_event_stream_left_ends_unsaid(watched, capfd):
    port, session, finished = watched
    left_stream(port)
    status, answer = act(port, json.loads(PRESS))  # a change the stream has no one to send to
    assert status == 200 and answer["version"] == session.version
    finished.wait(2)  # the stream's connection too
    assert state(port)["version"] == session.version
    assert_unsaid(capfd.readouterr().err)


def test_a_body_that_stops_coming_is_dropped_unanswered(watched, capfd, monkeypatch):
    monkeypatch.setattr("sim.web.server.BODY_WAIT_S", 0.2)
    port, session, finished = watched
    before = state(port)
    assert stalled_body(port, PRESS, 100) == b""  # the server closed it, saying nothing
    finished.wait(2)
    assert state(port) == before and session.version == before["version"]
    assert_unsaid(capfd.readouterr().err)


def test_any_other_error_in_a_request_is_still_printed(watched, capfd, monkeypatch):
    port, session, finished = watched

    def broken():
        raise RuntimeError("a bug in the state")

    monkeypatch.setattr(session, "snapshot", broken)
    with pytest.raises(http.client.RemoteDisconnected):
        call(port, "GET", "/state")
    finished.wait(1)
    err = capfd.readouterr().err
    assert "Traceback" in err and "RuntimeError: a bug in the state" in err


# --- python -m sim.web -------------------------------------------------------------------


def web_command(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "sim.web", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        **kw,
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (["--http-port", "abc"], "argument --http-port: 'abc' is not a whole number"),
        (["--http-port", "70000"], "argument --http-port: '70000' is out of range"),
        (["--colour"], "unrecognized arguments: --colour"),
        (["--open", " "], "argument --open: an empty file name"),
    ],
)
def test_a_bad_argument_is_one_line_and_status_2(args, words):
    done = web_command(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr
    assert done.stderr.startswith("python -m sim.web: error: ")


def test_a_missing_match_file_is_one_line_and_status_1(tmp_path):
    done = web_command("--open", str(tmp_path / "none.match"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "none.match: no such file" in done.stderr


def test_the_command_serves_until_ctrl_c(tmp_path):
    path = tmp_path / "w.match"
    matchfile.write(str(path), play("walzer", 3, options(0, 1), ["random"] * 3, 2))
    p = subprocess.Popen(
        [sys.executable, "-m", "sim.web", "--http-port", "0", "--open", str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.startswith("table at http://127.0.0.1:") and line.endswith("/\n")
        port = int(line.rsplit(":", 1)[1].rstrip("/\n"))
        s = state(port)
        assert s["file"] == str(path) and s["scrub"]["of"] > 0
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and out == "" and err == ""


def test_a_port_already_taken_is_one_line_and_status_1():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = web_command("--http-port", str(port))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    said = "python -m sim.web: error: cannot listen on 127.0.0.1:%d: " % port
    assert done.stderr.startswith(said)
    assert done.stderr.endswith("(another --http-port, or --http-port 0 for a free one)\n")


def test_a_match_file_the_rules_refuse_is_one_line_and_status_1(tmp_path):
    path = tmp_path / "bad.match"
    matchfile.write(str(path), play("walzer", 3, options(0, 1), ["random"] * 3, 2))
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("deal "))
    lines.insert(first, "play 2 5")  # nothing is played before the deal
    path.write_text("\n".join(lines) + "\n")
    done = web_command("--open", str(path))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert done.stderr == (
        "python -m sim.web: error: %s:%d: action 1, 'play 2 5', refused: wrong phase\n"
        % (path, first + 1)
    )


def test_a_legend_that_fails_is_one_line_and_500(web, monkeypatch):
    port, _ = web

    def broken():
        raise RuntimeError("no frames module\nsecond line")

    monkeypatch.setattr("sim.web.server.legend_entries", broken)
    status, headers, data = call(port, "GET", "/legend")
    assert (status, data.decode()) == (500, "the legend failed: no frames module\n")
    assert headers["Content-Type"].startswith("text/plain")
