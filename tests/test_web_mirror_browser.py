"""The page of a board's mirror in headless Chromium (tests/browser.py), the
board being the virtual board (sim/vboard) playing a match by itself
(tests/vboard_table.py): the page shows its LEDs as they change, its log and
its match, offers no control, and ends on the table the same match leaves
in CPython."""

import time

import pytest
import vboard_table
from browser import Console, Watcher

from dicetable.app.frames import ORDER
from dicetable.games import GAMES
from sim.vboard import VirtualBoard
from sim.web.chromium import base_url
from sim.web.mirror import MirrorSession
from sim.web.server import serve

SEED = 7
GAME = GAMES.index("dicefull")
SEATS = (0, 1, 2)
MOVES = 40
PAUSE_MS = 60  # between two moves on the board, in real time
CONTROLS = ("#new", "#step", "#run", "#pause", "#undo")


def rgb(strip):
    return [[strip[i + ORDER[c]] for c in range(3)] for i in range(0, len(strip), 3)]


def shows_the_end(state, journal, leds):
    seats = [led for s in state["seats"] for led in s["leds"]]
    return state["journal_length"] == len(journal) and seats + state["ring"] == leds


@pytest.mark.slow
def test_the_page_follows_a_match_played_on_the_virtual_board(tmp_path, context):
    _, log, app = vboard_table.expected(SEED, GAME, SEATS, MOVES)
    assert app.table.match is not None
    journal, leds = list(app.table.match.journal), rgb(app.strip.buf)
    vboard_table.install(tmp_path)
    with VirtualBoard(tmp_path, timeout=120) as vb:
        vboard_table.start(vb, SEED, GAME, SEATS, PAUSE_MS, MOVES)
        server, thread = serve(port=0, session=MirrorSession(vb.url))
        page = context.new_page()
        try:
            console = Console(page)
            base = base_url(server)
            page.goto(base + "/")
            page.locator("section.seat[data-seat]").first.wait_for()
            watcher = Watcher(page, base)
            seen = set()
            end = time.monotonic() + 180
            while True:
                # The page shows the state the server has now, LED by LED.
                s = watcher.check(watcher.state["version"] + 1)
                seen.add(s["journal_length"])
                if shows_the_end(s, journal, leds):
                    break
                assert time.monotonic() < end, "the mirror never showed the match's end"
            assert len(seen) >= 5  # the match was followed as it went, not only its end
            assert watcher.leds_checked >= 5 * 56
            assert s["log"][-1] == log[-1]
            assert s["mirror"]["connected"] and s["mirror"]["port"] == vb.url
            assert vb.url in page.locator("body").inner_text()
            for selector in CONTROLS:
                control = page.locator(selector)
                assert control.count() == 0 or not control.is_visible() or control.is_disabled()
            assert page.locator("button.item:enabled:visible").count() == 0
            assert page.locator("button[data-button]:enabled:visible").count() == 0
            assert console.errors == [], "\n".join(console.errors)
        finally:
            page.close()
            server.shutdown()
            thread.join(timeout=10)
