"""Every game played to its end by clicks in the page, in headless Chromium
(the harness: tests/browser.py; the browser: sim/web/chromium.py).

Seat 0 is human and played by clicks on its items and buttons; the other
seats are the heuristic bot, set to play with the page's Run button (the
server's session moves them back to back, waiting while seat 0 is awaited).
On some of seat 0's turns the bots are paused with the page's Pause button
and an item the rules do not allow now is clicked: the firmware refuses it,
its words show on that item and nothing is taken.  The result view closes
each match with its places.  No console error, no page error, no failed
request in any test.  The match of Dicefull is played at 390 px wide, the
page checked for horizontal scrolling at every turn of seat 0.
"""

import random

import pytest
from browser import Tab, open_group, wait_state

from dicetable.app.refusals import refusal_name
from dicetable.games import GAMES
from sim.web.chromium import get_state
from sim.web.server import serve
from sim.web.session import Session

pytestmark = pytest.mark.slow

# Each game at its fewest players and its shortest length.
MATCHES = {
    "dtwww": (2, 1),
    "walzer": (3, 1),
    "dicefull": (2, 1),
    "dtt": (3, 1),
    "nokosu": (3, 1),
}
REFUSALS = 3  # wrong items tried in a match
NARROW = 390  # px: a phone's width
MAX_TURNS = 400  # of seat 0, in the longest match (Walzer at three: ~40)


@pytest.fixture
def server():
    # No period: Run moves the bots back to back (the page's requests still
    # take the table's lock between their moves).
    server, thread = serve(port=0, session=Session(period=0.0))
    yield server
    server.shutdown()
    thread.join(timeout=10)


class Player(Tab):
    """Seat 0 at the page: what it sees in /state, what it clicks."""

    def __init__(self, page, server):
        super().__init__(page, server)
        self.refused = 0

    def click(self, selector):
        answer = self.watcher.do(lambda: self.page.locator(selector).click(timeout=5000))
        assert answer["ok"], (selector, answer)
        return self.watcher.state

    def new_match(self, game, players, length):
        page = self.page
        page.click("#new")
        page.select_option("select#game", game)
        for seat in range(5):
            page.set_checked('input.seat-join[data-seat="%d"]' % seat, seat < players)
            if seat < players:
                bot = "human" if seat == 0 else "heuristic"
                page.select_option('select.bot[data-seat="%d"]' % seat, bot)
        page.fill("input#length", str(length))
        self.click("#start")
        wait_state(self.base, lambda s: s["mode"] == "play")
        self.click("#run")

    def turn(self):
        """The state once seat 0 has something to do, the round's scores are
        shown, or the match is over."""
        t = self.session.vt.table

        def ready(s):
            if s["mode"] != "play" or s["seats"][0]["awaited"] or t.score_show is not None:
                return True
            if not s["running"]:  # paused after a bot made no progress
                self.click("#run")
            return False

        return wait_state(self.base, ready, timeout=60)

    def wrong_items(self, seat):
        """Seat 0's items on the page that the rules do not allow now."""
        allowed = {it["uid"] for it in seat["items"]}
        return [
            uid
            for uid in self.page.eval_on_selector_all(
                'section.seat[data-seat="0"] button.item:not([hidden])',
                "(bs) => bs.map((b) => b.dataset.uid)",
            )
            if uid not in allowed
        ]

    def try_wrong(self, uid):
        """Bots paused, a wrong item put on seat 0's reader: refused, its
        words on the item, nothing taken."""
        self.click("#pause")
        before = get_state(self.base)
        item = 'section.seat[data-seat="0"] button.item[data-uid="%s"]:not([hidden])' % uid
        open_group(self.page, item)
        after = self.click(item)
        seat = after["seats"][0]
        assert seat["refused"] is not None and seat["refused"]["uid"] == uid, seat["refused"]
        words = seat["refused"]["words"]
        assert words == refusal_name(self.session.refused[0]["code"])
        assert any(line.startswith("seat 0 refused: " + words) for line in after["log"][-3:])
        self.page.wait_for_function(
            "([sel, words]) => document.querySelector(sel + ' .why')?.textContent === words",
            arg=[item, words],
        )
        assert after["journal_length"] == before["journal_length"]
        assert seat["pieces"] == before["seats"][0]["pieces"]
        self.refused += 1
        self.click("#run")

    def play(self, rng, narrow=False):
        """Seat 0's turns to the end of the match; the number played."""
        t = self.session.vt.table
        turns = 0
        while True:
            s = self.turn()
            if s["mode"] != "play":
                return turns
            assert turns < MAX_TURNS, "no end after %d turns: %r" % (turns, s["status"])
            turns += 1
            if narrow:
                assert self.page.evaluate("document.documentElement.scrollWidth") <= NARROW
            if t.score_show is not None and not s["seats"][0]["awaited"]:
                self.click('button[data-seat="0"][data-button="ok"]')  # the scores put away
                continue
            seat = s["seats"][0]
            wrong = self.wrong_items(seat)
            if wrong and self.refused < REFUSALS and turns % 4 == 1:
                self.try_wrong(rng.choice(wrong))
                continue
            if seat["items"]:
                uid = rng.choice(seat["items"])["uid"]
                item = 'section.seat[data-seat="0"] button.item.allowed[data-uid="%s"]' % uid
                open_group(self.page, item)
                s = self.click(item)
                if s["seats"][0]["entry"] is None:
                    continue
            # A value to enter (a bid, a roll, a white die's colour, a pass):
            # the entry's first choice, taken with OK.
            self.click('button[data-seat="0"][data-button="ok"]')


@pytest.fixture
def player(context, server):
    page = context.new_page()
    yield Player(page, server)
    page.close()


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_whole_match_of_every_game_by_clicks(player, game):
    assert set(MATCHES) == set(GAMES)
    players, length = MATCHES[game]
    narrow = game == "dicefull"
    if narrow:
        player.page.set_viewport_size({"width": NARROW, "height": 800})
    player.new_match(game, players, length)
    turns = player.play(random.Random(game), narrow)

    state = wait_state(player.base, lambda s: s["mode"] == "over")
    assert player.refused >= 1, "no wrong item was tried"
    places = sorted(zip(state["standings"], state["players"], strict=True))
    result = player.page.locator("#result")
    result.wait_for(state="visible")
    rows = result.locator("table.places tbody tr").all_inner_texts()
    assert [r.split("\t")[:2] for r in rows] == [[str(p), "seat %d" % s] for p, s in places]
    assert result.locator("table.rounds tbody tr").count() == len(state["history"])
    if narrow:
        assert player.page.evaluate("document.documentElement.scrollWidth") <= NARROW
    player.no_errors()
    print("%s: %d turns of seat 0, %d wrong items refused" % (game, turns, player.refused))


def test_the_box_open_at_390_px_scrolls_nothing_sideways(player):
    # Nokosu's box is the largest (67 items in 11 groups); every group of
    # every seat opened.
    page = player.page
    page.set_viewport_size({"width": NARROW, "height": 800})
    player.new_match("nokosu", 3, 1)
    player.click("#pause")
    page.wait_for_selector('section.seat[data-seat="0"] details[data-group]')
    summaries = page.locator("details[data-group]:not([open]) > summary")
    while summaries.count():
        summaries.first.click()
    assert page.locator("details[data-group][open]").count() >= 11
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW
    player.no_errors()
