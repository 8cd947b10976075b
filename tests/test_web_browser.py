"""The simulator's web page (sim/web) in a real browser: headless Chromium.

The browser is Debian's `chromium` package at /usr/bin/chromium (the Makefile's
`chromium` target, a prerequisite of `make test` and `make check`, installs it on
a fresh machine), driven by Playwright for Python (pinned in requirements.txt).
Playwright rather than Selenium: its pip package drives the Chromium it is
given (executable_path) with nothing more installed, no chromedriver to keep
at the browser's version, and it waits on the page itself (wait_for_function,
clicks that wait for their button, the answer of the page's own request) and
reports console messages and page errors as events.  Its browser downloads
(`playwright install`) are never used.

Each test starts the server on port 0 of 127.0.0.1 (its default session, the
clock following the wall clock) and opens the page in a fresh browser profile.
Every input to the table is a click or a key in the page; the test reads the
server's /state, and the session's virtual table, only to decide what to click
and to check what the page shows (tests/browser.py):

- a whole match of Dicefull (the shortest by clicks: one challenge, two
  players, both human, values entered with - + OK) played by clicks, every
  LED on the page checked after every click against the frame the firmware
  pushed, as /state carries it and as the session's virtual strip holds it:
  data-rgb exactly, the computed background colour as docs/web.md lifts it;
- no console error or warning, no page error, no failed request, in every test;
- the keyboard: the new-match form opened, filled and submitted with keys, a
  seat button pressed with Enter and with Space;
- undo: a long press of - (Shift+click, the mouse held 0.8 s, Shift+Enter)
  and the page's #undo each take back the last action.
"""

import random

import pytest
from browser import HOLD_MS, ClickSurface, Tab, wait_state

from dicetable.app.events import OK, PLUS
from sim.hw import hands
from sim.web.chromium import get_state
from sim.web.server import serve

pytestmark = pytest.mark.slow

GAME = "dicefull"  # one challenge for two players: the shortest match by clicks
PLAYERS = 2
LENGTH = 1
MAX_CLICKS = 400  # a Dicefull challenge of two takes about 60


@pytest.fixture
def server():
    server, thread = serve(port=0)
    assert server.server_address[0] == "127.0.0.1"
    yield server
    server.shutdown()
    thread.join(timeout=10)


@pytest.fixture
def tab(context, server):
    page = context.new_page()
    yield Tab(page, server)
    page.close()


def seats_of(state):
    return [s["seat"] for s in state["seats"]]


def players(state):
    return [s["seat"] for s in state["seats"] if s["player"] is not None]


def new_match_by_clicks(tab, game, seats, length):
    """The #new form, filled with the mouse: the seats in `seats` joined and
    human, the others not, no option ticked, the length typed; the state."""
    page = tab.page
    page.click("#new")
    page.locator("#new-form").wait_for(state="visible")
    page.select_option("select#game", game)
    for seat in seats_of(get_state(tab.base)):
        page.set_checked('input.seat-join[data-seat="%d"]' % seat, seat in seats)
        if seat in seats:
            page.select_option('select.bot[data-seat="%d"]' % seat, "human")
    for flag in ("#open-play", "#table-rolls", "#variant"):
        if page.is_checked(flag):
            page.click(flag)
    page.fill("input#length", str(length))
    answer = tab.watcher.do(lambda: page.click("#start"))
    assert answer["ok"], answer
    state = wait_state(tab.base, lambda s: s["mode"] == "play")
    assert players(state) == seats
    assert all(s["bot"] == "human" for s in state["seats"] if s["seat"] in seats)
    return state


def make(surface, t, a, rng):
    """Make action `a` as sim.hw.hands.make does; a value half the time
    stepped one past with + first, so that - brings it back."""
    for p, e in enumerate(t.entries):
        if e is not None and a in e.candidates and rng.random() < 0.5:
            past = e.candidates.index(a) + 1
            while e.index < min(past, len(e.candidates) - 1):
                surface.press(t.phys[p], PLUS)
    hands.make(surface, t, a)


def test_a_whole_match_played_by_clicks(tab):
    seats = seats_of(tab.watcher.state)[:PLAYERS]
    new_match_by_clicks(tab, GAME, seats, LENGTH)
    assert tab.session is not None, "the server exposes no session (server.session)"
    t = tab.session.vt.table
    w = tab.watcher
    surface = ClickSurface(w)
    rng = random.Random(12)
    clicks = w.inputs
    while w.state["mode"] == "play":
        assert w.inputs - clicks < MAX_CLICKS, "no end after %d clicks" % (w.inputs - clicks)
        if t.score_show is not None:
            surface.press(t.lead, OK)  # the scores put away
            continue
        acts = hands.player_actions(t)
        assert acts, "the table waits on nobody in play: %r" % w.state["status"]
        make(surface, t, rng.choice(acts), rng)

    state = w.state
    assert state["mode"] == "over", state["status"]
    assert state["log"][-1].startswith("final:"), state["log"][-3:]
    assert w.inputs - clicks > 10
    assert w.strip_checks >= w.inputs
    page = tab.page
    assert page.locator("ol#log > li").all_inner_texts() == state["log"]
    assert "place 1" in page.locator("#standings").inner_text()
    tab.no_errors()
    print(
        "%d clicks in the match, %d LED checks, %d checks against the strip"
        % (w.inputs - clicks, w.leds_checked, w.strip_checks)
    )


def focused(page, selector):
    return page.evaluate("(s) => !!document.activeElement?.matches(s)", selector)


def tab_to(page, selector, limit=200):
    """Press Tab until the focus is on `selector` (in the page's order, wrapping)."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached %s" % selector)


def key_until(page, selector, key, value, limit=20):
    """Press `key` on the focused `selector` until its value is `value`."""
    for _ in range(limit):
        if page.eval_on_selector(selector, "(e) => e.value") == value:
            return
        page.keyboard.press(key)
    raise AssertionError("%s never got to %r with %s" % (selector, value, key))


def tick_with_space(page, selector, checked):
    if page.is_checked(selector) != checked:
        tab_to(page, selector)
        page.keyboard.press("Space")
    assert page.is_checked(selector) == checked, selector


def test_keyboard_operable(tab):
    page = tab.page
    w = tab.watcher
    seats = seats_of(w.state)[:PLAYERS]
    tab_to(page, "#new")
    page.keyboard.press("Enter")
    page.locator("#new-form").wait_for(state="visible")

    tab_to(page, "select#game")
    key_until(page, "select#game", "ArrowDown", GAME)
    for seat in seats_of(w.state):
        tick_with_space(page, 'input.seat-join[data-seat="%d"]' % seat, seat in seats)
        if seat in seats:
            sel = 'select.bot[data-seat="%d"]' % seat
            tab_to(page, sel)
            key_until(page, sel, "ArrowUp", "human")
    for flag in ("#open-play", "#table-rolls", "#variant"):
        tick_with_space(page, flag, False)
    tab_to(page, "input#length")
    page.keyboard.press("Control+A")
    page.keyboard.type(str(LENGTH))
    tab_to(page, "#start")
    w.do(lambda: page.keyboard.press("Enter"))
    state = wait_state(tab.base, lambda s: s["mode"] == "play")
    assert players(state) == seats
    assert "Dicefull" in page.locator("#title").inner_text()

    # A seat's button, reached with Tab, pressed with Enter and then Space:
    # each is a press at the table (a value stepped, or a refusal shown).
    for key in ("Enter", "Space"):
        before = w.state
        tab_to(page, 'button[data-seat="%d"][data-button="plus"]' % seats[0])
        answer = w.do(lambda key=key: page.keyboard.press(key))
        assert answer["ok"], answer
        after = w.state
        assert after["version"] > before["version"]
        assert len(after["log"]) > len(before["log"]) or after["seats"] != before["seats"]
    tab.no_errors()


def test_undo_by_long_press_and_the_undo_button(tab):
    seats = seats_of(tab.watcher.state)[:PLAYERS]
    new_match_by_clicks(tab, GAME, seats, LENGTH)
    assert tab.session is not None, "the server exposes no session (server.session)"
    t = tab.session.vt.table
    w = tab.watcher
    surface = ClickSurface(w)
    rng = random.Random(3)
    # Four actions made by players (each may bring the table's draws after it).
    for _ in range(4):
        before = w.state["journal_length"]
        while w.state["journal_length"] == before:
            hands.make(surface, t, rng.choice(hands.player_actions(t)))

    page = tab.page
    minus = page.locator('button[data-seat="%d"][data-button="minus"]' % seats[1])
    ways = {
        "Shift+click on -": lambda: minus.click(modifiers=["Shift"]),
        "- held %d ms" % HOLD_MS: lambda: minus.click(delay=HOLD_MS),
        "Shift+Enter on -": lambda: minus.press("Shift+Enter"),
        "#undo": lambda: page.click("#undo"),
    }
    for how, click in ways.items():
        before = w.state
        answer = w.do(click)
        assert answer["ok"], (how, answer)
        after = w.state
        assert after["journal_length"] < before["journal_length"], (how, after["log"][-3:])
    tab.no_errors()
