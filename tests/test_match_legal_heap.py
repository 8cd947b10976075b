"""legal_actions(seat, out): the table lists legal actions without the heap.

The table app asks a match for the legal actions of every seat it waits on,
and of the table, several times a play.  Given a list of the caller's as
`out`, legal_actions empties it in place (its capacity kept) and lists into
it, so a play on the board allocates nothing there.

Under real MicroPython with the Pico's heap (sim/mpy_wasm.py), for every
game at its fewest and most players, and at its most with every option it
reads, a complete random match: at every step, for every seat waited on and
for TABLE, legal_actions(seat, out) into that seat's list, made once before
the match just long enough for the longest list of the match, allocates 0
bytes (gc.mem_alloc() around the call) and gives legal_actions(seat)'s list,
which does allocate (the meter is seen to see it).  On CPython, into a used
list at every state of random matches: the same list comes back, holding
what legal_actions(seat) lists, and the match is unchanged.
"""

import importlib
import random

import pytest
from match_helpers import new_match, seats_waiting, snapshot

from dicetable.games import GAMES
from dicetable.match.actions import TABLE
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from sim import mpy_wasm
from sim.play import player_range


def headers():
    """(game, players, options): every game at its fewest and most players,
    and at its most with every option it reads."""
    for game in GAMES:
        reads = importlib.import_module("dicetable.games.%s.match" % game).MATCH.OPTIONS
        low, high = player_range(game)
        every = (OPEN_PLAY | TABLE_ROLLS | VARIANT) & reads
        for players, options in sorted({(low, 0), (high, 0), (high, every)}):
            yield game, players, options


def lcg(seed):
    """draw(n): a uniform-enough int in [0, n), in small ints (MicroPython's
    SCRIPT draws the same)."""
    state = [seed]

    def draw(n):
        state[0] = (state[0] * 75 + 74) % 65537
        return state[0] % n

    return draw


def seed_of(players, options):
    return 1000 + 16 * players + options


def played(game, players, options):
    """The match SCRIPT plays, on CPython: its journal, and the longest list
    legal_actions gives a seat SCRIPT asks, at any step."""
    match = new_match(game, players, options)
    draw = lcg(seed_of(players, options))
    longest = 0
    while not match.over():
        waited = seats_waiting(match)
        for seat in set(waited) | {TABLE}:
            longest = max(longest, len(match.legal_actions(seat)))
        seat = waited[draw(len(waited))]
        legal = match.legal_actions(seat)
        assert match.submit(legal[draw(len(legal))]) == 0
    return match.journal, longest


SCRIPT = """
import gc
from dicetable.match.actions import TABLE
from dicetable.games.%s.match import new
m = new(%d, %d)
_lcg = [%d]


def draw(n):
    x = (_lcg[0] * 75 + 74) %% 65537
    _lcg[0] = x
    return x %% n


# A list per seat and the table, made before the match, as long as the
# longest list of the match: emptied, its capacity kept.
bufs = []
for _ in range(TABLE + 1):
    b = [0] * %d
    del b[:]
    bufs.append(b)
calls = 0
worst = 0  # the most bytes legal_actions(seat, out) allocated
fresh = 1 << 20  # the fewest a new list of legal actions took (the meter sees)
bad = []


def check(seat):
    global calls, worst, fresh
    b = bufs[seat]
    before = gc.mem_alloc()
    got = m.legal_actions(seat, b)
    used = gc.mem_alloc() - before
    before = gc.mem_alloc()
    listed = m.legal_actions(seat)
    new = gc.mem_alloc() - before
    calls += 1
    worst = max(worst, used)
    if listed:
        fresh = min(fresh, new)
    if (used or got is not b or got != listed) and len(bad) < 5:
        bad.append((len(m.journal), seat, used, got is b, got == listed))


def step():
    w = m.waiting()
    waited = []
    s = 0
    while s <= TABLE:
        if w >> s & 1:
            waited.append(s)
            if s != TABLE:
                check(s)
        s += 1
    check(TABLE)
    seat = waited[draw(len(waited))]
    legal = m.legal_actions(seat)
    if m.submit(legal[draw(len(legal))]) != 0:
        raise ValueError("a listed action was refused")
"""
STEPS = """
for _ in range(%d):
    if m.over():
        break
    step()
"""
STEPS_PER_PART = 20  # garbage (the lists compared) is collected between parts


@pytest.mark.slow
@pytest.mark.parametrize("game,players,options", list(headers()))
def test_legal_actions_into_a_list_allocates_nothing_under_micropython(game, players, options):
    journal, longest = played(game, players, options)
    parts = [SCRIPT % (game, players, options, seed_of(players, options), longest)]
    parts += [STEPS % STEPS_PER_PART] * (len(journal) // STEPS_PER_PART + 1)
    parts.append("print(m.over(), calls, worst, fresh, bad)\nprint(m.journal)")
    summary, played_there = mpy_wasm.run(mpy_wasm.parts(parts)).splitlines()
    over, calls, worst, fresh, bad = summary.split(" ", 4)
    # The same match as on CPython, played to its end.
    assert (over, played_there) == ("True", repr(journal))
    assert int(calls) > len(journal)
    assert bad == "[]", "(journal length, seat, bytes, same list, same items): " + bad
    assert int(worst) == 0
    assert int(fresh) >= 16  # a new list takes a 16-byte block at least: the meter sees it


# -- CPython ------------------------------------------------------------------------


def check_into_used_lists(match, rng):
    """Play `match` out at random; at every state list every seat's and the
    table's actions into one used list: that list comes back, holding what
    legal_actions(seat) lists, and the match is unchanged."""
    out = []
    while not match.over():
        before = snapshot(match)
        for seat in list(range(match.players)) + [TABLE]:
            legal = match.legal_actions(seat)
            # What the last seat's listing left, and junk of any length.
            out += [rng.choice((-1, 0x7FFFFF, None)) for _ in range(rng.randrange(3))]
            assert match.legal_actions(seat, out) is out
            assert out == legal, seat
        assert snapshot(match) == before
        seat = rng.choice(seats_waiting(match))
        assert match.submit(rng.choice(match.legal_actions(seat))) == 0


@pytest.mark.parametrize("game,players,options", list(headers()))
def test_legal_actions_into_a_used_list_is_that_list_holding_the_legal_actions(
    game, players, options
):
    rng = random.Random("%s-%d-%d" % (game, players, options))
    check_into_used_lists(new_match(game, players, options), rng)


@pytest.mark.parametrize("players", (2, 3))
def test_the_toy_game_lists_into_a_used_list_too(players):
    # High card (tests/toy_game), the documented example of a game: the same contract.
    from toy_game.match import new

    check_into_used_lists(new(players), random.Random(players))
