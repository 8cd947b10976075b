"""Power-up on a fully provisioned table in the middle of the longest match,
under real MicroPython with the Pico's heap: the board resumes with every
accepted action, also when the power goes again while it boots.

The registry holds a tag for every item of every game (the most a table can
hold: one tag per item).  The journal is a 5-player Nokosu match with the
table rolling: the longest journal of any game, and one where the table makes
actions of its own.  The power goes while a record is being written:

- the match's last action: the board resumes one action before the end;
- the table's last roll: the boot drops the torn record, rolls again (the
  same number: a draw is a function of the seed and the journal's length)
  and records it.

Then the power goes again at every unit of work of that boot (a cut inside
its one write, or after it), and the next boot still resumes with every
accepted action."""

import bench_heap
import pytest

from dicetable import games as registry
from dicetable.app.inputs import Inputs
from dicetable.app.registry import pack
from dicetable.app.rng import draw
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, header
from dicetable.match.engine import TABLE_ROLLS, options
from sim import mpy_wasm
from sim.hw import hands
from sim.play import play

NOKOSU = 4
SEED = 0x2345
CUTS = 12


def nokosu_match():
    """The journal of a 5-player Nokosu match with the table rolling: the
    longest journal of any game, with the table's own rolls in it."""
    return play("nokosu", 5, TABLE_ROLLS, ["heuristic"] * 5, 3)


def last_table_roll(journal):
    """The index of the last action the table drew itself."""
    replay = registry.part(NOKOSU, "match").new(5, TABLE_ROLLS)
    last = -1
    for i, a in enumerate(journal):
        if Inputs(NOKOSU, replay).auto:
            last = i
        replay.submit(a)
    return last


BUILD = """
from dicetable.app.registry import pack
from dicetable.app.rng import draw
from hal.storage import Storage
from flashmodel.vflash import VFlash
flash = VFlash()
storage = Storage(flash, segments=4)
storage.save_registry(pack(REGISTRY))
REGISTRY = None
storage.new_match(HEADER, (SEATS, SEED))
"""

TORN_RECORD = """
from flashmodel.norflash import PowerLost
from sim.hw.rig import VirtualTable
# The power went 3 bytes into the next record.
flash.cut_after(3)
try:
    storage.append(TORN)
except PowerLost:
    pass
storage = None
torn = flash.reboot()
flash = None
"""


# The power-up test imports the virtual table and the game's modules before
# the flash is laid out, as FRAGMENTED below imports the game's: the virtual
# parts' names fill MicroPython's string pool to where the game's names need
# its next block (5.8 KB), which on the board they fit in the pool it has
# (tools/bench/bench_heap.py board_code()).  Left to the first boot, that
# block would land in the middle of a boot's part here.
IMPORTS = """
from sim.hw.rig import VirtualTable
import dicetable.games.nokosu.match
import dicetable.games.nokosu.table
"""


def journal_on_flash(header, actions, torn):
    """The parts that write a full registry and the match's journal to a
    virtual flash (`flash`, `storage`), ready for the TORN record."""
    parts = [
        "REGISTRY = %r\nHEADER = %r\nSEATS = %d\nSEED = %d\nTORN = %d\n"
        % (hands.full_registry(), header, SEATS_RECORD | 0x1F, SEED_RECORD | SEED, torn)
        + BUILD
    ]
    parts += [
        "for a in %r:\n    storage.append(a)" % (actions[i : i + 40],)
        for i in range(0, len(actions), 40)
    ]
    return mpy_wasm.parts(parts) + "\n#: next run\n"


CUT_AND_BOOT = (
    TORN_RECORD
    + """
#: next run
results = []
#: next run
"""
)

ONE_CUT = """
again = torn.reboot()
again.cut_after(CUT)
vt = VirtualTable(flash=again)
try:
    vt.boot()
    booted = len(vt.table.match.journal)
except PowerLost:
    booted = -1
vt = None
#: next run
again = again.reboot()
#: next run
vt = VirtualTable(flash=again)
vt.boot()
t = vt.table
results.append((CUT, booted, t.mode, len(t.match.journal), t.match.journal[-1],
                sum(t.match.journal) % 1000003))
vt = t = again = None
"""


@pytest.mark.slow
@pytest.mark.parametrize("where", ["one action before the end", "the table's roll due"])
def test_power_up_on_a_full_table_resumes_every_action_even_after_a_second_cut(where):
    m = nokosu_match()
    if where == "one action before the end":
        # The last action's record torn: the board resumes one action before the end.
        actions, torn = m.journal[:-1], m.journal[-1]
    else:
        # The table's last roll torn: the boot rolls again, the same number.
        at = last_table_roll(m.journal)
        actions, torn = m.journal[:at], m.journal[at]
    resumed = registry.part(NOKOSU, "match").new(5, TABLE_ROLLS)
    assert resumed.replay(actions) == -1
    auto = Inputs(NOKOSU, resumed).auto
    after = actions + ([auto[draw(SEED, len(actions), len(auto))]] if auto else [])
    assert len(pack(hands.full_registry())) // 14 == 201

    script = IMPORTS + mpy_wasm.PART + journal_on_flash(header(m), actions, torn) + CUT_AND_BOOT
    script += "".join("#: next run\nCUT = %d\n%s" % (cut, ONE_CUT) for cut in range(CUTS))
    script += "#: next run\nfor r in results:\n    print(*r)\n"
    out = mpy_wasm.run(script, timeout=900).split("\n")
    rows = [line.split() for line in out if line]
    assert len(rows) == CUTS
    cut_short = 0
    for cut, booted, mode, length, last, digest in rows:
        assert mode == "play", cut
        assert (int(length), int(last), int(digest)) == (
            len(after),
            after[-1],
            sum(after) % 1000003,
        ), cut
        cut_short += int(booted) < 0
    # A boot writes only the table's own roll (one record: 8 bytes), and a cut
    # inside that write is survived like any other.
    assert (cut_short > 0) == (len(after) > len(actions))


# The boot's largest single allocation must fit in this: "a few KB".
HOLE = 6 * 1024

FRAGMENTED = (
    TORN_RECORD
    + """
#: next run
import dicetable.games.nokosu.match
#: next run
vt = VirtualTable(flash=torn)
torn = None
#: next run
# The free heap cut into holes of HOLE bytes, each held apart by a small
# block.  A tuple is one allocation, and its id is its address; the collector
# allocates first fit from the lowest free block, so the small gaps below the
# free expanse are filled first.  The lists are made beforehand: none grows.
holes = [None] * 64
pins = [None] * 64
fill = [None] * 1024
big = (HOLE - 16) // 4          # a tuple's items, 4 bytes each, after its header
two = 2
k = 0
hole = (None,) * big
pin = (None,) * two
while id(pin) < id(hole):
    fill[k] = pin
    k += 1
    pin = (None,) * two
k = 0
while GC_HEAP - gc.mem_alloc() > HOLE + 2048:
    holes[k] = hole
    pins[k] = pin
    k += 1
    hole = (None,) * big
    pin = (None,) * two
holes[k] = hole
pins[k] = pin
rest = (None,) * ((GC_HEAP - gc.mem_alloc() - 1024) // 4)     # the end, kept
hole = pin = None
#: next run
holes = None
#: next run
import micropython
micropython.mem_info(1)
print("end of map")
#: next run
vt.boot()
t = vt.table
print("resumed", t.mode, len(t.match.journal), sum(t.match.journal) % 1000003)
"""
)


@pytest.mark.slow
def test_the_boot_needs_no_free_block_larger_than_a_few_kb():
    # The game's modules are imported before the heap is cut up: here the
    # virtual parts' names have filled MicroPython's string pool to where the
    # game's names need a new pool block of ~9 KB; on the board they fit the
    # pool it has (tools/bench/bench_heap.py board_code()).
    m = nokosu_match()
    actions, torn = m.journal[:-1], m.journal[-1]
    script = "import gc\nGC_HEAP = %d\nHOLE = %d\n" % (mpy_wasm.PICO_GC_HEAP, HOLE)
    out = mpy_wasm.run(script + journal_on_flash(header(m), actions, torn) + FRAGMENTED).split("\n")
    heap_map = out[: out.index("end of map")]
    assert bench_heap.largest_free(heap_map) <= HOLE + 512
    assert out[-2].split() == ["resumed", "play", str(len(actions)), str(sum(actions) % 1000003)]


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_no_game_at_its_longest_makes_a_longer_journal(game):
    # Each game's MAX_COUNT is chosen for this: the journal above is the longest
    # a power-up has to read back.
    cls = registry.part(GAMES.index(game), "match").MATCH
    longest = len(nokosu_match().journal)
    for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        flags = cls.OPTIONS & TABLE_ROLLS  # the table's rolls are actions too
        for bot in ("heuristic", "random"):
            for seed in (1, 2):
                m = play(game, players, options(flags, cls.MAX_COUNT), [bot] * players, seed)
                assert len(m.journal) <= longest, (players, bot, seed)
