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

import pytest

import mpy_wasm
from dicetable.app import games
from dicetable.app.inputs import Inputs, table_draws
from dicetable.app.registry import pack
from dicetable.app.rng import draw
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.match.engine import TABLE_ROLLS
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
    replay = games.new_match(NOKOSU, 5, TABLE_ROLLS)
    last = -1
    for i, a in enumerate(journal):
        if table_draws(NOKOSU, replay):
            last = i
        replay.submit(a)
    return last


BUILD = """
from dicetable.app.registry import pack
from dicetable.app.rng import draw
from hal.storage import Storage
from sim.hw.vflash import VFlash
flash = VFlash()
storage = Storage(flash, segments=4)
storage.save_registry(pack(REGISTRY))
REGISTRY = None
storage.new_match(HEADER, (SEATS, SEED))
"""

CUT_AND_BOOT = """
from sim.hw.norflash import PowerLost
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
#: next run
results = []
#: next run
"""

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
    resumed = games.new_match(NOKOSU, 5, TABLE_ROLLS)
    assert resumed.replay(actions) == -1
    auto = Inputs(NOKOSU, resumed).auto
    after = actions + ([auto[draw(SEED, len(actions), len(auto))]] if auto else [])
    registry = hands.full_registry()
    assert len(pack(registry)) // 14 == 201

    parts = ["REGISTRY = %r\nHEADER = %r\nSEATS = %d\nSEED = %d\nTORN = %d\n" % (
        registry, m.header(), SEATS_RECORD | 0x1F, SEED_RECORD | SEED, torn) + BUILD]
    parts += ["for a in %r:\n    storage.append(a)" % (actions[i:i + 40],)
              for i in range(0, len(actions), 40)]
    script = mpy_wasm.parts(parts) + "\n#: next run\n" + CUT_AND_BOOT
    script += "".join("#: next run\nCUT = %d\n%s" % (cut, ONE_CUT) for cut in range(CUTS))
    script += "#: next run\nfor r in results:\n    print(*r)\n"
    out = mpy_wasm.run(script, timeout=900).split("\n")
    rows = [line.split() for line in out if line]
    assert len(rows) == CUTS
    cut_short = 0
    for cut, booted, mode, length, last, digest in rows:
        assert mode == "play", cut
        assert (int(length), int(last), int(digest)) == (
            len(after), after[-1], sum(after) % 1000003), cut
        cut_short += int(booted) < 0
    # A boot writes only the table's own roll (one record: 8 bytes), and a cut
    # inside that write is survived like any other.
    assert (cut_short > 0) == (len(after) > len(actions))
