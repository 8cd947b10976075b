"""The board's mirror lines (firmware/hal/mirror.py): what a host reading the
USB serial console gets, under the board's own main loop on virtual parts
(sim/vboard/table_app.py), and what writing them costs the Pico's heap."""

import pathlib

import mpy_wasm
import pytest
from mpy_frames import C_STACK_FRAME_WORDS, frame_words, function_frames

from dicetable.app.frames import ORDER
from dicetable.app.registry import pack
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES
from hal.mirror import KEYFRAME_MS
from sim.hw import hands
from sim.hw.vconsole import VConsole
from sim.vboard.table_app import UNDO_EVERY, TableApp

FIRMWARE = pathlib.Path(__file__).resolve().parents[1] / "firmware"
DICEFULL = GAMES.index("dicefull")
REGISTRY = bytes(pack(hands.full_registry()))


def decode_match(text):
    """(header, [words]) of an @match line's hex, or None for '-'."""
    if text == "-":
        return None
    raw = bytes.fromhex(text)
    assert (len(raw) - 4) % 3 == 0
    words = [int.from_bytes(raw[i : i + 3], "big") for i in range(4, len(raw), 3)]
    return raw[:4], words


def expected_match(t):
    m = t.match
    mask = sum(1 << s for s in t.phys)
    return m.header(), [SEATS_RECORD | mask, SEED_RECORD | t.seed, *m.journal]


class Watched:
    """The table app with its console, and after each step the lines that
    step wrote, beside what the table had then."""

    def __init__(self, seed=5):
        self.console = VConsole()
        self.log = []
        self.app = TableApp(self.console.write, self.log.append, seed)
        self.app.provision(REGISTRY)
        self.app.power_up()
        self.read = 0

    def new_lines(self):
        lines = self.console.lines()
        out, self.read = lines[self.read :], len(lines)
        return out


def test_every_frame_and_every_journal_change_goes_out_as_the_table_has_it():
    w = Watched()
    app, t = w.app, w.app.table
    assert w.new_lines()[-1] == "@match -"  # the menu: no match
    app.choose(DICEFULL, [0, 1, 2])
    undos = 0
    for _ in range(UNDO_EVERY + 2):
        before = len(t.match.journal)
        app.move()
        undos += len(t.match.journal) < before
        lines = w.new_lines()
        leds = [line for line in lines if line.startswith("@leds ")]
        matches = [line for line in lines if line.startswith("@match ")]
        # The last frame out is the strip's bytes now, the last match the journal now.
        assert leds and bytes.fromhex(leds[-1][6:]) == bytes(app.strip.buf)
        assert matches and decode_match(matches[-1][7:]) == expected_match(t)
    assert undos == 1  # an undo was mirrored too


def test_the_leds_line_is_the_strip_in_wire_order():
    w = Watched()
    line = [x for x in w.new_lines() if x.startswith("@leds ")][-1]
    raw = bytes.fromhex(line[6:])
    assert len(raw) == 3 * (5 * 8 + 16)
    rgb = [tuple(raw[i + ORDER[c]] for c in range(3)) for i in range(0, len(raw), 3)]
    # the menu: the lead seat's segment lit, and the strip got what the table drew
    t = w.app.table
    frame = [tuple(t.frame[i + ORDER[c]] for c in range(3)) for i in range(0, len(t.frame), 3)]
    assert rgb == frame and any(rgb[t.lead * 8 : t.lead * 8 + 8])


def test_a_keyframe_every_two_seconds_while_nothing_happens():
    w = Watched()
    w.new_lines()
    w.app.passes.run_for(3 * KEYFRAME_MS)
    lines = w.new_lines()
    assert lines.count("@match -") == 3
    assert len([x for x in lines if x.startswith("@leds ")]) == 3


@pytest.mark.slow
def test_no_log_line_looks_like_a_mirror_line():
    w = Watched(seed=9)
    w.app.choose(DICEFULL, [0, 1, 2, 3])
    for _ in range(60):
        w.app.move()
    assert len(w.log) > 60
    assert not [line for line in w.log if line.startswith("@")]


# Under MicroPython with the Pico's heap: a line costs no heap, whatever the journal.
HEAP = """
import gc, io
from hal.mirror import Mirror

class Storage:
    writes = 0

class Match:
    players = 5
    options = 0x103
    journal = [(3 << 20) | (i % 5 << 16) | i for i in range(JOURNAL)]

class Table:
    game = 4

    def _seat_mask(self):
        return 0x1F

    seed = 0xABCDE
    storage = Storage()
    match = Match()

out = io.BytesIO()
out.write(bytearray(8192))  # room, so that writing into it again does not grow it
leds = bytearray(3 * 56)
mirror = Mirror(out.write, leds, Table())


def lines(calls):
    gc.collect()
    before = gc.mem_alloc()
    for i in range(calls):
        out.seek(0)
        mirror.leds()
        mirror.match()
        mirror.tick(i * 100)
    return gc.mem_alloc() - before


#: next run
lines(1)
print(lines(CALLS), out.tell())
"""


@pytest.mark.parametrize("journal", [0, 300])
def test_writing_the_lines_takes_no_heap_under_micropython(journal):
    calls = 100
    out = mpy_wasm.run("JOURNAL = %d\nCALLS = %d\n" % (journal, calls) + HEAP)
    spent, last = (int(x) for x in out.split())
    assert spent == 0
    assert last > 7 + 2 * (4 + 3 * (2 + journal))  # the line was written


def test_the_mirrors_frames_fit_on_the_c_stack():
    # A bigger frame would be taken from the heap on every line on the RP2040
    # port, which the WebAssembly build's gc.mem_alloc cannot see (test_board_frames).
    path = FIRMWARE / "hal" / "mirror.py"
    frames = {name: frame_words(s, e) for name, s, e in function_frames(path)}
    assert {"leds", "match", "tick", "_put", "_journal", "_out"} <= set(frames)
    assert {k: v for k, v in frames.items() if v > C_STACK_FRAME_WORDS} == {}
