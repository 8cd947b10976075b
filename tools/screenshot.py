"""A screenshot of the web page of the table in a match: docs/img/table.png.

python tools/screenshot.py (make pictures runs it after tools/pictures.py).
It starts the page's server on a free loopback port, starts a 3-player d-TT
match with bots, lets them play into the first deal's tricks, pauses, and
photographs the page in Debian's headless chromium (sim/web/chromium.py
launches it). The picture is for the README; nothing checks its bytes.
"""

import tempfile

from playwright.sync_api import sync_playwright

import sim
from sim.web import chromium
from sim.web.server import serve

ROOT = sim.ROOT

OUT = ROOT / "docs" / "img" / "table.png"
TRICKS = 3  # into the first deal: a trick on the table, scores and a log to see


def play_into_a_match(session):
    """A d-TT match with bots, stopped with a trick on the table."""
    session.act({"do": "new", "game": "dtt", "seats": [0, 2, 4], "bots": ["heuristic"] * 3})
    for _ in range(2000):
        match = session.vt.table.match
        if match is not None and match.tricks_done >= TRICKS and match.trick.count == 2:
            break
        session.act({"do": "step"})
    session.act({"do": "pause"})


def main():
    server, _ = serve(0)
    try:
        play_into_a_match(server.session)
        base = chromium.base_url(server)
        with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
            context = chromium.launch(p, profile)
            page = context.new_page()
            page.goto(base + "/")
            lines = len(chromium.get_state(base)["log"])
            page.wait_for_function(
                "n => document.querySelectorAll('ol#log > li').length >= n", arg=lines
            )
            page.screenshot(path=str(OUT), full_page=True)
            context.close()
    finally:
        server.shutdown()
    print("wrote %s" % OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
