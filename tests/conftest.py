"""What the test modules share, and how the suite is cut.

Shared helpers are plain modules beside the tests, imported by name (pytest's
pythonpath in pyproject.toml holds cpython/, firmware/, tests/, tools/bench/,
tools/ and the repository): board_parts (the MicroPython-only modules
hal/board.py imports, made of virtual parts), match_helpers (playing matches
out), forked (a test in a forked child), every_game (the games a per-game test
runs over: the registry's and the toy game);
and the packages cases (the conformance cases) and toy_game (a game added
through the registry alone).  Frame sizes read from what mpy-cross writes are
sim/mpy_code.py's (the C-stack meter reads them too); real MicroPython with
the Pico's heap is sim/mpy_wasm.py's (the benches run it too).
A fixture belongs here only once two modules would otherwise each define it:
test_host_board and test_host_tools each have a `vboard` (a virtual board on an
empty temporary flash), the first to move here; test_watchdog_vboard's flashes
the firmware first.  `built_in_challenges` is here: the two test modules that
load a Dicefull challenge set from a file put the built-in set back with it.
`context` is here: the three modules that drive the web page in Chromium
(test_web_browser, test_web_games_browser, test_web_mirror_browser) share it.

Tests of a second or more (matches played or replayed by the dozen or under
MicroPython, a virtual board behind mpremote, a power cut at every byte, long
property runs, real-time waits), and groups whose many small tests add up
(mpy-cross on every firmware file), carry @pytest.mark.slow (pyproject.toml
registers it): `make check` runs ruff and the rest, under a minute on two cores;
`make test` runs everything, pyright too, as CI does.
"""

import every_game
import pytest

from dicetable.games.dicefull import data

BUILT_IN_CHALLENGES = list(data.CHALLENGES)


@pytest.fixture(autouse=True)
def _toy_game_registered(request):
    """A test given the toy game's key (a per-game test parametrized over
    every_game.KEYS) runs with the toy game registered, and only that test."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is None or every_game.TOY not in callspec.params.values():
        yield
        return
    with every_game.registered(every_game.TOY):
        yield


@pytest.fixture
def built_in_challenges():
    """Dicefull's built-in challenge set in use before and after the test."""
    data.CHALLENGES[:] = BUILT_IN_CHALLENGES
    data.SET_WORD = 0
    yield
    data.CHALLENGES[:] = BUILT_IN_CHALLENGES
    data.SET_WORD = 0


@pytest.fixture(scope="module")
def context(tmp_path_factory):
    """One headless Chromium per test module (and xdist worker), on a new profile
    (sim/web/chromium.py launches Debian's)."""
    # Imported here: most test modules never open a browser.
    from playwright.sync_api import sync_playwright

    from sim.web.chromium import launch

    with sync_playwright() as p:
        ctx = launch(p, tmp_path_factory.mktemp("chromium-profile"))
        yield ctx
        ctx.close()
