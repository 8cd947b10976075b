"""The simulator's web page (sim/web) in headless Chromium: the browser
launched, the server's address and state.  tools/screenshot.py photographs
the page with these; tests/browser.py drives it for the tests.

The browser is Debian's `chromium` package (/usr/bin/chromium, which the
Makefile's `chromium` target installs), driven by Playwright for Python; the
pip package brings only Playwright's driver, never a browser of its own.
"""

import json
import pathlib
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-proxy-server",  # the page is on 127.0.0.1: no proxy from the environment
]
# Without a proxy whatever the environment says: the server is on 127.0.0.1.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def launch(playwright, user_data_dir):
    """A fresh headless Chromium (a new profile in `user_data_dir`), as a
    Playwright browser context."""
    if not pathlib.Path(CHROMIUM).exists():
        raise RuntimeError(
            "%s is missing: make test and make check install it (apt-get install chromium)"
            % CHROMIUM
        )
    return playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1400, "height": 1000},
    )


def base_url(server):
    host, port = server.server_address[:2]
    return "http://%s:%d" % (host, port)


def get_state(base):
    """The server's GET /state, decoded."""
    with _OPENER.open(base + "/state", timeout=10) as r:
        return json.loads(r.read().decode())
