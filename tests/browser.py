"""Driving the simulator's web page (sim/web) in headless Chromium, for
tests/test_web_browser.py and test_web_games_browser.py (the browser itself:
sim/web/chromium.py; the context, one a module: conftest.py's `context`).
Tab is the page open on a server, with its console and its watcher.

The browser is Debian's `chromium` package (/usr/bin/chromium, which the
Makefile's `chromium` target installs), driven by Playwright for Python; the
pip package brings only Playwright's driver, never a browser of its own.

Every input to the table is a click or a key in the page.  After each one the
test waits for the page's POST /act to be answered (the answer carries the
state's version), then for the page to show that state, and checks every LED
on the page against the frame the firmware pushed (the state's, and the
session's virtual strip itself).  The session's clock follows the wall clock
(blinks, results shown a while), so a state can be overtaken while it is
checked: a check counts only when the version did not move during it.
"""

import math
import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dicetable.app.events import CENTRE, LONG, MINUS, OK, PLUS
from sim.web.chromium import base_url, get_state

BUTTON_NAMES = {MINUS: "minus", PLUS: "plus", OK: "ok"}
HOLD_MS = 800  # a long press held (the page takes 700 ms or more)
SETTLE_S = 15.0  # at most, for the server and then the page to show one input


def wait_state(base, test, timeout=SETTLE_S):
    """Poll /state until test(state) holds; that state."""
    end = time.monotonic() + timeout
    while True:
        s = get_state(base)
        if test(s):
            return s
        if time.monotonic() > end:
            raise AssertionError("the server's state never got there: %r" % brief(s))
        time.sleep(0.02)


def brief(state):
    keys = ("version", "mode", "status", "journal_length")
    return {k: state.get(k) for k in keys} | {"log": state.get("log", [])[-3:]}


class Console:
    """Every console message, uncaught error and failed request of a page."""

    def __init__(self, page):
        self.messages = []
        self.errors = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append("page error: %s" % e))
        page.on("requestfailed", self._failed)

    def _console(self, msg):
        self.messages.append((msg.type, msg.text))
        if msg.type in ("error", "warning", "assert"):
            self.errors.append("console %s: %s" % (msg.type, msg.text))

    def _failed(self, request):
        # The event stream is cut when the page closes: no error of the page.
        if not request.url.endswith("/events"):
            self.errors.append("request failed: %s %s" % (request.url, request.failure))


# --- what the page shows ------------------------------------------------------------------

# Per seat and for the ring, each LED's data-rgb and computed background colour;
# the log's lines.
_READ = """() => {
    const read = (leds) => Array.from(leds, (e) => [
        e.getAttribute('data-rgb'), getComputedStyle(e).backgroundColor]);
    const seats = {};
    for (const sec of document.querySelectorAll('section.seat[data-seat]')) {
        seats[sec.getAttribute('data-seat')] = read(sec.querySelectorAll('.led'));
    }
    return {seats, ring: read(document.querySelectorAll('#ring .led')),
            log: Array.from(document.querySelectorAll('ol#log > li'), (li) => li.textContent)};
}"""

# True when the page's data-rgb attributes and log are those of `want` (see wanted()).
_SHOWS = """(want) => {
    const rgb = (leds) => Array.from(leds, (e) => e.getAttribute('data-rgb')).join(' ');
    for (const seat in want.seats) {
        const sec = document.querySelector('section.seat[data-seat="' + seat + '"]');
        if (!sec || rgb(sec.querySelectorAll('.led')) !== want.seats[seat]) return false;
    }
    const log = document.querySelectorAll('ol#log > li');
    if (log.length !== want.log.length) return false;
    if (log.length && log[log.length - 1].textContent !== want.log[log.length - 1]) return false;
    return rgb(document.querySelectorAll('#ring .led')) === want.ring;
}"""


def rgb_text(colour):
    return ",".join(str(int(c)) for c in colour)


def wanted(state):
    """What _SHOWS compares: the state's LEDs as data-rgb writes them, its log."""
    return {
        "seats": {str(s["seat"]): " ".join(rgb_text(c) for c in s["leds"]) for s in state["seats"]},
        "ring": " ".join(rgb_text(c) for c in state["ring"]),
        "log": state["log"],
    }


def parse_css_rgb(text):
    """(r, g, b) of a computed colour 'rgb(r, g, b)' or 'rgba(r, g, b, a)'."""
    m = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)", text.strip())
    assert m, "not a computed rgb() colour: %r" % text
    return tuple(int(v) for v in m.groups())


def lifted(value):
    """How the page paints a frame's channel value (docs/web.md, "LED colours"):
    round(255 * (v / 64) ** 0.6), 0 stays black, at most 255 (JavaScript's
    Math.round: halves up)."""
    if value <= 0:
        return 0
    return min(255, math.floor(255 * (value / 64) ** 0.6 + 0.5))


def check_rows(shown, state):
    """The page's LEDs (as _READ reads them) against the state's frame: data-rgb
    exactly, and the computed background colour the frame's lifted; the
    number of LEDs checked."""
    rows = [("ring", shown["ring"], state["ring"])]
    for seat in state["seats"]:
        key = str(seat["seat"])
        assert key in shown["seats"], "no section.seat[data-seat=%s] on the page" % key
        rows.append(("seat %s" % key, shown["seats"][key], seat["leds"]))
    n = 0
    for where, leds, frame in rows:
        assert len(leds) == len(frame), "%s: %d .led on the page, %d in the frame" % (
            where,
            len(leds),
            len(frame),
        )
        for i, ((data_rgb, background), colour) in enumerate(zip(leds, frame, strict=True)):
            at = "%s LED %d" % (where, i)
            assert data_rgb == rgb_text(colour), "%s: data-rgb %r, frame %r" % (
                at,
                data_rgb,
                colour,
            )
            painted = parse_css_rgb(background)
            assert painted == tuple(lifted(v) for v in colour), "%s: background %s, frame %r" % (
                at,
                background,
                colour,
            )
            n += 1
    return n


def vt_rows(session):
    """(version, LEDs per seat and the ring) read from the session's virtual
    strip under its lock, as VirtualTable.leds() gives them."""
    with session.lock:
        vt = session.vt
        rows = {s: [list(c) for c in vt.leds(s)] for s in vt.table.seats}
        rows["ring"] = [list(c) for c in vt.leds(CENTRE)]
        return session.version, rows


def same_as_strip(rows, state):
    for seat in state["seats"]:
        assert seat["leds"] == rows[seat["seat"]], (
            "seat %d: /state and the strip differ" % (seat["seat"])
        )
    assert state["ring"] == rows["ring"], "the ring: /state and the strip differ"


class Watcher:
    """A page and its server: inputs made in the page, each followed by a
    wait for its answer and a check of what the page shows then."""

    def __init__(self, page, base, session=None):
        self.page = page
        self.base = base
        self.session = session  # the server's Session, where it exposes one
        self.inputs = 0
        self.leds_checked = 0
        self.strip_checks = 0
        self.state = get_state(base)

    def do(self, action):
        """Make `action()` (a click or a key in the page) that posts to /act;
        returns the /act answer after the page showed its state, checked."""
        page = self.page
        with page.expect_response(
            lambda r: r.url.endswith("/act") and r.request.method == "POST", timeout=10000
        ) as info:
            action()
        answer = info.value.json()
        self.inputs += 1
        self.check(answer.get("version", 0))
        return answer

    def check(self, version=0):
        """Wait for a state of `version` or later to show on the page, then check
        every LED on it against that state (and the strip behind it); the state."""
        s = wait_state(self.base, lambda s: s["version"] >= version)
        end = time.monotonic() + SETTLE_S
        while True:
            try:
                self.page.wait_for_function(_SHOWS, arg=wanted(s), timeout=3000)
                if self._checked(s):
                    self.state = s
                    return s
            except PlaywrightTimeout:
                pass
            newer = get_state(self.base)
            if newer["version"] == s["version"] or time.monotonic() > end:
                raise AssertionError(
                    "the page does not show the state (%r); it shows %r"
                    % (brief(s), self.page.evaluate(_READ)["log"][-3:])
                )
            s = newer

    def _checked(self, s):
        # One reading of the page, and of the strip, taken while the state
        # stayed at s's version: compared; False when it moved on meanwhile.
        shown = self.page.evaluate(_READ)
        rows = None
        if self.session is not None:
            version, rows = vt_rows(self.session)
            if version != s["version"]:
                return False
        if get_state(self.base)["version"] != s["version"]:
            return False
        self.leds_checked += check_rows(shown, s)
        if rows is not None:
            same_as_strip(rows, s)
            self.strip_checks += 1
        return True


def reader_key(reader):
    return "centre" if reader == CENTRE else str(reader)


class ClickSurface:
    """What sim.hw.hands.make plays on (scan and press), made of clicks in the
    page: an item's button for a scan, a seat's button for a press
    (Shift+click for a long one)."""

    def __init__(self, watcher):
        self.watcher = watcher
        self.page = watcher.page

    def scan(self, reader, uid):
        sel = 'button.item[data-seat="%s"][data-uid="%s" i]:not([hidden])' % (
            reader_key(reader),
            uid.hex(),
        )
        open_group(self.page, sel)
        self._click(sel)

    def press(self, seat, code):
        sel = 'button[data-seat="%d"][data-button="%s"]' % (seat, BUTTON_NAMES[code & 3])
        self._click(sel, ["Shift"] if code & LONG else [])

    def _click(self, selector, modifiers=()):
        button = self.page.locator(selector)
        answer = self.watcher.do(lambda: button.click(modifiers=list(modifiers), timeout=5000))
        assert answer.get("ok"), (selector, answer)


def open_group(page, selector):
    """Open the box's group that holds `selector`'s button, if it is closed
    (a click on its summary: the page only, nothing sent to the table)."""
    button = page.locator(selector)
    button.wait_for(state="attached", timeout=5000)
    closed = button.locator("xpath=ancestor::details[not(@open)]/summary")
    if closed.count():
        closed.click()


def find_session(server):
    """The server's session (server.session, with its virtual table in .vt and
    its .lock and .version), or None when it exposes none."""
    session = getattr(server, "session", None)
    if all(hasattr(session, name) for name in ("vt", "lock", "version")):
        return session
    return None


class Tab:
    """The page open on the server, its console, and its watcher."""

    def __init__(self, page, server):
        self.page = page
        self.server = server
        self.base = base_url(server)
        self.console = Console(page)
        self.session = find_session(server)
        page.goto(self.base + "/")
        page.locator("section.seat[data-seat]").first.wait_for()
        self.watcher = Watcher(page, self.base, self.session)
        self.watcher.check()

    def no_errors(self):
        assert self.console.errors == [], "\n".join(self.console.errors)
