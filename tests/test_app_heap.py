"""The table app's heap under real MicroPython with the Pico's heap.

A player's play must cost the board no heap at all (the collector would run
in the middle of play otherwise, and a fragmented heap fails a later
allocation), the whole booted table must leave room, and the registry must
load in one pass however many tags the maker provisions.  Heap figures
are deterministic, so they are asserted (times are only printed by the
benches).  tools/bench/bench_heap.py plays the matches and prints the figures.
"""

import bench_heap
import pytest

from dicetable.app import games
from dicetable.app.registry import RECORD, pack
from sim import mpy_wasm
from sim.hw import hands

# An action allocates nothing, an undo and a round's end included (the
# match: tests/test_match_round_heap.py); the harness's own garbage and
# holes set what the heap must keep free.  2 KB while an undo's refold
# scored every round again into new lists (1,360 B, Walzer's undo), 4 KB
# while every play allocated too.
PER_ACTION = 1024
# The live heap in a match from the power-up leaves a third of the Pico's
# heap free beside the next block of MicroPython's string pool: a table that
# plays several games in a session holds the names of every game played
# there, and the pool's next block is ~10 KB (docs/firmware.md, "The Pico's
# heap").  That third is for holes (an action allocates nothing).  Until the plays came to 0 B the
# limit was a round 60 %, with room for an action's garbage (4 KB) besides;
# the lists the app now makes once and their code took 5.5 KB more live.
# The board ran a whole match at 52 % live, 65 % with its garbage
# (measured on the Pico's MicroPython v1.28.0 firmware).
STRING_POOL_BLOCK = 10 * 1024
LIVE_SHARE = mpy_wasm.PICO_GC_HEAP * 2 // 3 - STRING_POOL_BLOCK
# The largest free block at a match's end: room for twice the most an action
# may allocate, whatever the holes.
LARGEST_FREE = 2 * PER_ACTION


@pytest.mark.slow
@pytest.mark.parametrize(
    "game", range(games.count()), ids=[games.title(g) for g in range(games.count())]
)
def test_an_action_allocates_nothing_and_the_match_stays_small(game):
    # Every scan and press of an action, the journal's record, the table's
    # own draws, the log's lines, the frame and the mirror: 0 B, for a
    # round's end (its scores go into rows the match made), an undo (the
    # match folds its journal again into its buffers) and the match's end.
    r = bench_heap.measure(game, bench_heap.PLAYERS[game])
    kinds = set(kind for n, kind, scored in r["spent"])
    # (A match shorter than UNDO_EVERY actions, a new game's, has no undo here:
    # tests/test_match_round_heap.py undoes in it.)
    assert "undo" in kinds or len(r["spent"]) < bench_heap.UNDO_EVERY
    assert any(scored for n, kind, scored in r["spent"])
    assert [s for s in r["spent"] if s[0]] == []
    assert r["live_peak"] < LIVE_SHARE
    assert r["free_at_end"] >= LARGEST_FREE


# The registry holds at most one tag per item of each game: the full set.
REGISTRY_LOAD = """
from dicetable.app.registry import Registry
registry = Registry()
#: next run
records = bytearray(RECORDS[:HALF])
before = gc.mem_alloc()
registry.adopt(records)
half = gc.mem_alloc() - before
#: next run
registry = Registry()
records = bytearray(RECORDS)
#: next run
before = gc.mem_alloc()
bad = registry.adopt(records)
print(half, gc.mem_alloc() - before, bad, len(registry))
"""


def test_the_fullest_registry_loads_in_one_pass_in_place():
    entries = hands.full_registry()
    records = bytes(pack(entries))
    half = len(entries) // 2 * RECORD
    out = mpy_wasm.run("import gc\nRECORDS = %r\nHALF = %d\n" % (records, half) + REGISTRY_LOAD)
    at_half, full, bad, tags = (int(x) for x in out.split())
    assert (bad, tags) == (0, len(entries))
    # the records are the registry: nothing is built per tag
    assert full == at_half == 0


SESSION = """
from dicetable.app import events
from dicetable.app.registry import pack
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from hal.storage import Storage
from sim.hw import hands
from flashmodel.vflash import VFlash


class Config:
    seats = [0, 1, 2, 3, 4]
    LEDS_PER_SEAT = 8
    RING_LEDS = 16


storage = Storage(VFlash(), segments=4)
storage.prepare()
t = Table(Config(), storage, Rng(1), lambda line: None)
t.boot()


def start(g, n):
    while t.menu.game != g:
        t.button(0, events.PLUS)
    t.button(0, events.OK)
    for s in range(1, 5):
        if (s in t.menu.joined) != (s < n):
            t.button(s, events.OK)
    while t.mode == "menu":
        t.button(0, events.OK)


def loaded():
    import sys
    return sorted(set(n.split(".")[2] for n in sys.modules if n.startswith("dicetable.games.")))
#: next run
start(0, 2)
print(t.mode, loaded())
#: next run
t.button(0, events.OK + events.LONG)
t.button(0, events.OK)
start(1, 3)
print(t.mode, loaded())
"""


@pytest.mark.slow
def test_a_table_holds_only_the_code_of_the_game_it_plays():
    # DTwww played, then Walzer from the menu: DTwww's modules are dropped.
    assert mpy_wasm.run(SESSION).splitlines() == ["play ['dtwww']", "play ['walzer']"]


# The views that count a choice among colours (docs/table.md, "For colour-blind
# players"): d-TT's trump on the ring and the colour a DTwww white die counts as.
COUNTED_VIEWS = """
import gc
from dicetable.games.dtt import table as dtt
from dicetable.games.dtwww import rules as c
from dicetable.games.dtwww import table as dtwww
from dicetable.match.actions import PLAY, action


class Match:
    pass


m = Match()
m.faceup_n = 4
m.trump = 0
m.open = False
white = c.die(c.WHITE, c.D6, 4, 0)
plays = [action(PLAY, 0, c.play(white, colour)) for colour in (c.RED, c.BLUE, c.GREEN)]
shown = []
for trump in range(5):
    m.trump = trump
    n, colour = dtt.ring_view(m)
    shown.append([n, list(colour)])
for a in plays:
    n, colour = dtwww.entry_view(m, a)
    shown.append([n, list(colour)])
gc.collect()
before = gc.mem_alloc()
i = 0
while i < 100:
    dtt.ring_view(m)
    dtwww.entry_view(m, plays[i % 3])
    i += 1
print(gc.mem_alloc() - before)
print(shown)
"""


def test_the_counted_colour_views_allocate_nothing_on_micropython():
    # Under MicroPython with the Pico's heap: the same numbers and colours as
    # CPython's (1-4 a suit, 0 no trump; 1-3 red, blue, green), 0 B a call.
    import json
    import types

    from dicetable.games.dtt import table as dtt
    from dicetable.games.dtwww import rules as c
    from dicetable.games.dtwww import table as dtwww
    from dicetable.match.actions import PLAY, action

    m = types.SimpleNamespace(faceup_n=4, trump=0, open=False)
    white = c.die(c.WHITE, c.D6, 4, 0)
    want = []
    for trump in range(5):
        m.trump = trump
        want.append(list(dtt.ring_view(m)))
    for colour in (c.RED, c.BLUE, c.GREEN):
        want.append(list(dtwww.entry_view(m, action(PLAY, 0, c.play(white, colour)))))
    assert [w[0] for w in want] == [1, 2, 3, 4, 0, 1, 2, 3]
    spent, shown = mpy_wasm.run(COUNTED_VIEWS).splitlines()
    assert int(spent) == 0
    assert json.loads(shown) == [[n, list(colour)] for n, colour in want]
