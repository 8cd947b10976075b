"""A whole match on the board's heap: every take(), undo() and standings(out) 0 B.

The table app gives the match's journal its room once, when the match
begins; from there on a play must not allocate on the board (245,888 B of
heap, no collection allowed to grow into a pause mid-play): not when an
action ends a round (history's row, the rules core's scoring), not when an
undo folds the journal again (reset() and every round scored again), not
when the standings are listed into the caller's list.

Under real MicroPython with the Pico's heap (sim/mpy_wasm.py), for every
game at its fewest and most players, and at its most with every option it
reads and its longest length (MAX_COUNT): a seeded random complete match,
the journal's list given room first, where

- every take() allocates 0 bytes (gc.mem_alloc() around the call), round
  ends included (the rounds scored are counted: every round is seen);
- every UNDO_EVERY actions an undo(k), k = 1, 2, 3 in turn, allocates 0
  bytes and leaves the state the match had k actions before; taking the k
  actions again allocates 0 bytes and gives the state before the undo;
- after every action that ends a round, undo(1) allocates 0 bytes and
  takes the round back (history one row shorter), and taking the action
  again gives the state it gave;
- at the end standings(out), into a list made before, allocates 0 bytes,
  is `out` and lists what standings() lists (which does allocate: the meter
  is seen to see it).

Two more matches are drawn so that a final roll-off rolls again (DTwww's
and Dicefull's: the tied seats' lists refilled); a fast test checks that
their seeds still do.

The match is the one the same draws give on CPython (its journal compared).
On CPython, for every case and High card (tests/toy_game): history keeps
its meaning through the rows made once (a list of rows, one per round,
each a list of the seats' scores, the same after an undo and the action
taken again), and standings(out) into a used list is that list, holding
what standings() lists.
"""

import importlib
import random

import pytest
from match_helpers import new_match, snapshot

from dicetable.games import GAMES
from dicetable.match.actions import TABLE
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from dicetable.match.engine import options as packed
from sim import mpy_wasm
from sim.play import player_range

UNDO_EVERY = 40
ROOM = 2048  # the journal's room: more than the longest match (~760 actions)


def seed_of(players, options):
    return 7000 + 16 * players + (options & 0xFF) + (options >> 8)


# (game, players, seed): a match whose final roll-off rolls again.
ROLLS_AGAIN = (("dtwww", 2, 227), ("dicefull", 5, 22))


def cases():
    """(game, players, options, seed): every game at its fewest and most
    players, and at its most with every option it reads and its longest
    length; then ROLLS_AGAIN."""
    for game in GAMES:
        cls = importlib.import_module("dicetable.games.%s.match" % game).MATCH
        low, high = player_range(game)
        every = packed((OPEN_PLAY | TABLE_ROLLS | VARIANT) & cls.OPTIONS, cls.MAX_COUNT)
        for players, options in sorted({(low, 0), (high, 0), (high, every)}):
            yield game, players, options, seed_of(players, options)
    for game, players, seed in ROLLS_AGAIN:
        yield game, players, 0, seed


def lcg(seed):
    """draw(n): a uniform-enough int in [0, n), in small ints (SCRIPT's draw)."""
    state = [seed]

    def draw(n):
        state[0] = (state[0] * 75 + 74) % 65537
        return state[0] % n

    return draw


def played(game, players, options, seed):
    """The match SCRIPT's draws give on CPython (its undos change nothing of
    what is drawn)."""
    match = new_match(game, players, options)
    draw = lcg(seed)
    while not match.over():
        w = match.waiting()
        seats = [s for s in range(TABLE + 1) if w >> s & 1]
        match.take(match.random_action(seats[draw(len(seats))], draw))
    return match


SCRIPT = """
import gc
from array import array
from dicetable.match.actions import TABLE
from dicetable.match.engine import EVERY
from dicetable.games.%s.match import new
m = new(%d, %d)
m.journal = [0] * %d
del m.journal[EVERY]
_lcg = [%d]
UNDO_EVERY = %d


def draw(n):
    x = (_lcg[0] * 75 + 74) %% 65537
    _lcg[0] = x
    return x %% n


def flat(v):
    if isinstance(v, (list, tuple, bytearray, array)):
        return [flat(x) for x in v]
    if hasattr(v, "__dict__"):
        return digest(v)
    return v


def digest(obj):
    # Everything but the journal (the actions, compared at the end).
    d = obj.__dict__
    return [(k, flat(d[k])) for k in sorted(d) if k != "journal"]


# worst bytes: take() scoring no round, take() scoring one, undo(), standings(out)
worst = [0, 0, 0, 0]
counts = [0, 0, 0]  # takes, rounds scored, undos
bad = []
saved = [None]  # the state the next scheduled undo goes back to
next_undo = [UNDO_EVERY]


def note(what, used):
    if used and len(bad) < 6:
        bad.append((what, len(m.journal), used))


def take(a):
    rounds = len(m.history)
    before = gc.mem_alloc()
    m.take(a)
    used = gc.mem_alloc() - before
    ended = len(m.history) - rounds
    if ended < 0 or ended > 1:
        bad.append(("history", len(m.journal), ended))
    worst[1 if ended else 0] = max(worst[1 if ended else 0], used)
    counts[0] += 1
    counts[1] += ended
    note("take ending a round" if ended else "take", used)
    return ended


def undo(k):
    rounds = len(m.history)
    before = gc.mem_alloc()
    code = m.undo(k)
    used = gc.mem_alloc() - before
    counts[1] -= rounds - len(m.history)  # scored again when taken again
    if code != 0:
        bad.append(("undo refused", len(m.journal), code))
    worst[2] = max(worst[2], used)
    counts[2] += 1
    note("undo %%d" %% k, used)


def scheduled():
    n = len(m.journal)
    k = 1 + (next_undo[0] // UNDO_EVERY) %% 3
    if n == next_undo[0] - k:
        saved[0] = digest(m)
    if n != next_undo[0]:
        return
    next_undo[0] += UNDO_EVERY
    here = digest(m)
    back = m.journal[n - k :]
    undo(k)
    if digest(m) != saved[0]:
        bad.append(("undo %%d: not the state %%d actions before" %% (k, k), n, 0))
    for a in back:
        take(a)
    if digest(m) != here:
        bad.append(("undo %%d, taken again: not the state before" %% k, n, 0))


def step():
    scheduled()
    w = m.waiting()
    seats = [s for s in range(TABLE + 1) if w >> s & 1]
    a = m.random_action(seats[draw(len(seats))], draw)
    if take(a):
        # A round ended: taken back and taken again.
        here = digest(m)
        rounds = len(m.history)
        undo(1)
        if len(m.history) != rounds - 1:
            bad.append(("undo of a round end: history", len(m.journal), len(m.history)))
        take(a)
        if digest(m) != here:
            bad.append(("a round end undone, taken again: not the same", len(m.journal), 0))
"""
STEPS = """
for _ in range(%d):
    if m.over():
        break
    step()
"""
STEPS_PER_PART = 12  # garbage (the digests, the seats' lists) is collected between parts
END = """
def end():
    # In a function: a global stored for the first time would grow the
    # module's dict between the readings.
    buf = [0] * 8
    del buf[EVERY]
    listed = m.standings()
    before = gc.mem_alloc()
    got = m.standings(buf)
    worst[3] = gc.mem_alloc() - before
    before = gc.mem_alloc()
    m.standings()
    fresh = gc.mem_alloc() - before
    print(m.over(), worst, counts, got is buf, got == listed, fresh, bad)
    print(m.journal)


end()
"""


def script(game, players, options, seed, actions):
    parts = [SCRIPT % (game, players, options, ROOM, seed, UNDO_EVERY)]
    parts += [STEPS % STEPS_PER_PART] * (actions // STEPS_PER_PART + 1)
    parts.append(END)
    return mpy_wasm.parts(parts)


@pytest.mark.slow
@pytest.mark.parametrize("game,players,options,seed", list(cases()))
def test_a_whole_match_allocates_nothing_under_micropython(game, players, options, seed):
    match = played(game, players, options, seed)
    journal, rounds = match.journal, len(match.history)
    assert len(journal) < ROOM
    out = mpy_wasm.run(script(game, players, options, seed, len(journal)), timeout=900)
    summary, played_there = out.splitlines()[-2:]
    over, rest = summary.split(" ", 1)
    worst, rest = rest.split("] ", 1)
    counts, rest = rest.split("] ", 1)
    same, equal, fresh, bad = rest.split(" ", 3)
    # The same match as on CPython, played to its end, every round of it seen.
    assert (over, played_there) == ("True", repr(journal))
    takes, scored, undos = (int(x) for x in counts.strip("[").split(","))
    assert scored == rounds > 0
    assert undos == (len(journal) - 1) // UNDO_EVERY + rounds
    assert takes >= len(journal) + undos
    assert bad == "[]", "(what, journal length, bytes): " + bad
    # take() scoring no round, take() ending one, undo(), standings(out): 0 B each.
    assert worst.strip("[").split(", ") == ["0", "0", "0", "0"]
    assert (same, equal) == ("True", "True")
    assert int(fresh) >= 16  # standings() makes a list: the meter sees it


def test_the_cpython_twin_plays_every_game_to_its_end():
    # What the MicroPython test compares with: every case's match ends and
    # scores a round at least (the fast half, run by make check too).
    for game, players, options, seed in cases():
        match = played(game, players, options, seed)
        assert match.history and 0 < len(match.journal) < ROOM, (game, players, options)


def test_the_roll_off_cases_roll_again():
    # DTwww counts its roll-off rounds; Dicefull's stage is the rounds a seat survived.
    dtwww, dicefull = (played(game, players, 0, seed) for game, players, seed in ROLLS_AGAIN)
    assert dtwww.rolloff_rounds >= 2
    assert max(dicefull.stage) >= 2


# -- CPython ------------------------------------------------------------------------


def check_rounds_and_standings(match, rng):
    """Play `match` out at random: every round's end taken back and taken
    again leaves history as it was, its rows lists of the seats' scores;
    then standings(out) into a used list, and the whole journal undone."""
    fresh = snapshot(type(match)(match.players, match.options))
    while not match.over():
        w = match.waiting()
        seats = [s for s in range(TABLE + 1) if w >> s & 1]
        a = rng.choice(match.legal_actions(rng.choice(seats)))
        rounds = len(match.history)
        match.take(a)
        if len(match.history) == rounds:
            continue
        assert len(match.history) == rounds + 1
        history = [list(row) for row in match.history]
        assert all(type(row) is list and len(row) == match.players for row in match.history)
        assert all(type(x) is int for row in match.history for x in row)
        assert match.undo(1) == 0 and len(match.history) == rounds
        assert [list(row) for row in match.history] == history[:-1]
        match.take(a)
        assert match.history == history
    assert match.history and all(match.history)
    listed = match.standings()
    out = [rng.choice((-1, 0, None)) for _ in range(rng.randrange(12))]
    assert match.standings(out) is out and out == listed
    assert match.standings(out) is out and out == listed  # and again, into itself
    assert match.undo(len(match.journal)) == 0
    assert match.history == [] and snapshot(match) == fresh


@pytest.mark.parametrize("game,players,options,seed", list(cases()))
def test_history_keeps_its_meaning_and_standings_lists_into_a_used_list(
    game, players, options, seed
):
    check_rounds_and_standings(new_match(game, players, options), random.Random(seed))


@pytest.mark.parametrize("players", (2, 3))
def test_the_toy_game_keeps_history_and_standings_the_same_way(players):
    from toy_game.match import new

    check_rounds_and_standings(new(players), random.Random(players))
