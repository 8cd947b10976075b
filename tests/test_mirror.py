"""The board's mirror lines (firmware/hal/mirror.py): what a host reading the
USB serial console gets, under the board's own main loop on virtual parts
(sim/vboard/table_app.py) and over a table of the test's own; that a
journal change is one line whatever the journal's length; that no call
writes more than BUDGET packets; and what writing them costs the Pico's
heap and C stack."""

import pathlib

import pytest

from dicetable.app.frames import ORDER
from dicetable.app.registry import pack
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, header
from hal.console import PACKET, Console
from hal.mirror import BUDGET, KEYFRAME_MS, MEMORY, WORDS, Mirror
from sim import mpy_wasm
from sim.hw import hands
from sim.hw.clock import Clock
from sim.hw.vconsole import Host, VConsole
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames
from sim.vboard.table_app import UNDO_EVERY, TableApp

FIRMWARE = pathlib.Path(__file__).resolve().parents[1] / "firmware"
DICEFULL = GAMES.index("dicefull")
REGISTRY = bytes(pack(hands.full_registry()))


class Follower:
    """What a host makes of the mirror's lines, decoded here by their format
    alone: the strip's bytes, the match's header and table words, its journal."""

    def __init__(self):
        self.segments = {}
        self.count = None  # the strip's segments
        self.head = None  # bytes: header and words; b"" for "@k -"; None: no keyframe yet
        self.told = None
        self.journal = None
        self.lines = 0

    def feed(self, lines):
        for line in lines:
            word, *fields = line.split()
            if not word.startswith("@"):
                continue
            self.lines += 1
            if word == "@l":
                k, n = (int(x) for x in fields[0].split("/"))
                assert len(fields[1]) == 48
                self.segments[k] = bytes.fromhex(fields[1])
                self.count = n
            elif word == "@k" and fields == ["-"]:
                self.head, self.told, self.journal = b"", 0, []
            elif word == "@k":
                self.told = int(fields[0], 16)
                self.head = bytes.fromhex(fields[1])
                self.journal = []
            elif word in ("@j", "@u") and self.journal is None:
                continue  # started in the middle: the next keyframe brings it all
            elif word == "@j":
                assert int(fields[0], 16) == len(self.journal), line
                words = bytes.fromhex(fields[1])
                assert 0 < len(words) <= 3 * WORDS and len(words) % 3 == 0
                self.journal += [
                    int.from_bytes(words[i : i + 3], "big") for i in range(0, len(words), 3)
                ]
            elif word == "@u":
                kept = int(fields[0], 16)
                assert kept < len(self.journal), line
                del self.journal[kept:]
            elif word != "@lost":
                raise AssertionError("no such line: %r" % line)

    def strip(self):
        return b"".join(self.segments[k] for k in range(self.count))


def expected_head(t):
    m = t.match
    mask = sum(1 << s for s in t.phys)
    words = [SEATS_RECORD | mask, SEED_RECORD | t.seed]
    return header(m) + b"".join(w.to_bytes(3, "big") for w in words)


class Watched:
    """The table app with its console, and after each step the lines that
    step wrote, fed to a Follower."""

    def __init__(self, seed=5, host=None):
        self.vc = VConsole(host=host)
        self.console = Console(self.vc)
        self.log = []
        self.app = TableApp(self.console, self.say, seed)
        self.vc.clock = self.app.clock
        self.app.provision(REGISTRY)
        self.app.power_up()
        self.read = 0
        self.host = Follower()

    def say(self, line):
        self.log.append(line.text())
        self.console.log(line)

    def new_lines(self):
        lines = self.vc.lines()
        out, self.read = lines[self.read :], len(lines)
        self.host.feed(out)
        return out


@pytest.mark.slow  # seconds of a table's play: make test, not the edit loop
def test_every_frame_and_every_journal_change_goes_out_as_the_table_has_it():
    w = Watched()
    app, t = w.app, w.app.table
    w.new_lines()
    assert w.host.head == b""  # the menu: no match
    assert w.host.strip() == bytes(app.strip.buf)
    app.choose(DICEFULL, [0, 1, 2])
    undos = 0
    for _ in range(2 * UNDO_EVERY + 2):
        before = len(t.match.journal)
        app.move()
        undos += len(t.match.journal) < before
        app.run_for(40)  # the frames pass after the last frame
        w.new_lines()
        # The host has the strip's bytes now, the journal now.
        assert w.host.strip() == bytes(app.strip.buf)
        assert w.host.head == expected_head(t)
        assert w.host.journal == list(t.match.journal)
    assert undos == 2  # the undos were mirrored too
    assert w.vc.waited_us == 0


def test_the_led_lines_are_the_strip_in_wire_order():
    w = Watched()
    lines = [x for x in w.new_lines() if x.startswith("@l ")]
    assert {x[3:6] for x in lines} >= {"%d/7" % k for k in range(7)}
    raw = w.host.strip()
    assert len(raw) == 3 * (5 * 8 + 16)
    rgb = [tuple(raw[i + ORDER[c]] for c in range(3)) for i in range(0, len(raw), 3)]
    # the menu: the lead seat's segment lit, and the strip got what the table drew
    t = w.app.table
    frame = [tuple(t.frame[i + ORDER[c]] for c in range(3)) for i in range(0, len(t.frame), 3)]
    assert rgb == frame and any(rgb[t.lead * 8 : t.lead * 8 + 8])


def test_a_keyframe_every_five_seconds_while_nothing_happens():
    w = Watched()
    w.new_lines()
    w.app.passes.run_for(3 * KEYFRAME_MS)
    lines = w.new_lines()
    assert lines.count("@k -") == 3
    assert len([x for x in lines if x.startswith("@l ")]) == 3 * 7


@pytest.mark.slow  # seconds of a table's play: make test, not the edit loop
def test_a_line_never_waits_and_a_host_that_stops_reading_catches_up_after():
    w = Watched(seed=6)
    w.app.choose(DICEFULL, [0, 1, 2])
    w.new_lines()
    w.vc.host.stop()
    for _ in range(12):
        w.app.move()
    assert w.vc.waited_us == 0 and w.console.lost > 0
    w.vc.host.resume()
    w.app.run_for(200)  # a few frames passes: what the host lacks, BUDGET a pass
    lines = w.new_lines()
    lost = [int(x.split()[1]) for x in lines if x.startswith("@lost ")]
    assert sum(lost) == w.console.lost  # said once the FIFO had room again
    t = w.app.table
    assert w.host.journal == list(t.match.journal) and w.host.strip() == bytes(w.app.strip.buf)


@pytest.mark.slow
def test_no_log_line_looks_like_a_mirror_line():
    w = Watched(seed=9)
    w.app.choose(DICEFULL, [0, 1, 2, 3])
    for _ in range(60):
        w.app.move()
    assert len(w.log) > 60
    assert not [line for line in w.log if line.startswith("@")]


# --- over a table of the test's own --------------------------------------------------------


class Storage:
    def __init__(self):
        self.writes = 0


class Match:
    players = 5
    options = 0x103

    def __init__(self, n):
        self.journal = [(3 << 20) | (i % 5 << 16) | i for i in range(n)]


class Table:
    game = 4

    def __init__(self, n):
        self.seed = 0xABCDE
        self.storage = Storage()
        self.match = Match(n)

    def _seat_mask(self):
        return 0x1F

    def change(self, undo=0, add=()):
        """Actions taken back, then appended: a Storage write each."""
        for _ in range(undo):
            self.match.journal.pop()
        self.match.journal += add
        self.storage.writes += undo + len(add)


class Bench:
    """A Mirror over Table(n) and a 56-LED strip, its lines fed to a Follower."""

    def __init__(self, n, host=None):
        self.clock = Clock()
        self.vc = VConsole(self.clock, host)
        self.table = Table(n)
        self.strip = bytearray(3 * 56)
        self.mirror = Mirror(Console(self.vc), self.strip, self.table)
        self.host = Follower()
        self.read = 0
        self.now = 100

    def tick(self):
        """A frames pass; the lines it wrote, and how many packets."""
        writes = self.vc.writes
        self.mirror.tick(self.now)
        self.now += 20
        lines = self.vc.lines()
        out, self.read = lines[self.read :], len(lines)
        self.host.feed(out)
        return out, self.vc.writes - writes

    def settle(self):
        """Frames passes until there is nothing more to write."""
        while self.tick()[1]:
            pass


def test_a_change_is_one_line_whatever_the_journals_length():
    b = Bench(700)
    b.settle()  # the keyframe: @k, then 100 @j lines, BUDGET packets a pass
    assert b.host.journal == b.table.match.journal and b.host.told == 700
    for add in ((3 << 20) | 0x40001, (3 << 20) | 0x10002):
        b.table.change(add=[add])
        assert b.tick() == (["@j 02bc  %06x" % add], 1)
        b.table.change(undo=1)
        assert b.tick() == (["@u 02bc"], 1)
    assert b.tick() == ([], 0)  # nothing changed: nothing written
    assert b.host.journal == b.table.match.journal


def test_an_undo_and_new_actions_in_one_pass_are_followed():
    b = Bench(40)
    b.settle()
    b.table.change(undo=3, add=[(3 << 20) | 0x20001, (3 << 20) | 0x30002])
    lines, _ = b.tick()
    assert lines == ["@u 0025", "@j 0025  %06x%06x" % (0x320001, 0x330002)]
    assert b.host.journal == b.table.match.journal
    # Taken back and made again, the same: nothing to say.
    last = b.table.match.journal[-1]
    b.table.change(undo=1, add=[last])
    assert b.tick() == ([], 0)


def test_a_change_further_back_than_the_memory_is_a_keyframe():
    b = Bench(100)
    b.settle()
    b.table.change(undo=MEMORY + 1, add=[(3 << 20) | 7])
    lines, _ = b.tick()
    assert lines == []  # the next pass: a keyframe
    lines, _ = b.tick()
    assert lines[0].startswith("@k 0044  04050301")
    b.settle()
    assert b.host.journal == b.table.match.journal


def test_a_new_match_and_no_match_are_keyframes():
    b = Bench(30)
    b.settle()
    b.table.match = Match(3)  # another match, the same seed
    b.table.storage.writes += 1
    assert b.tick()[0][0].startswith("@k 0003  ")
    b.settle()
    assert b.host.journal == b.table.match.journal
    b.table.seed = 0x12345  # the same object would do with a new seed
    b.table.match.journal.append((3 << 20) | 9)
    lines, _ = b.tick()
    assert lines[0].startswith("@k 0004  04050301f0001fe12345")
    b.table.match = None
    assert b.tick()[0] == ["@k -"]
    assert b.tick() == ([], 0)


def test_no_call_writes_more_than_its_budget_and_a_keyframe_spreads_over_passes():
    b = Bench(759)
    b.strip[:] = bytes(range(168))
    b.mirror.leds()  # every segment changed: BUDGET of them now, the rest owed
    assert b.vc.writes == BUDGET
    passes = 0
    while True:
        _, packets = b.tick()
        assert packets <= BUDGET
        if not packets:
            break
        passes += 1
    lines = -(-759 // WORDS) + 1 + 7  # @j lines, @k, the LED segments
    assert passes == -(-(lines - BUDGET) // BUDGET)
    assert b.host.journal == b.table.match.journal and b.host.strip() == bytes(b.strip)


def test_with_no_room_nothing_is_written_and_the_host_catches_up_after():
    b = Bench(50, Host())
    b.settle()
    b.vc.host.stop()
    b.tick()
    for i in range(10):  # ten actions and an undo while the FIFO is full
        b.table.change(add=[(3 << 20) | i])
        b.tick()
    b.table.change(undo=1)
    b.strip[5] = 9
    b.mirror.leds()
    for _ in range(5):
        b.tick()
    writes = b.vc.writes
    assert b.tick()[1] == 0 and b.vc.writes == writes  # no room: nothing tried
    b.vc.host.resume()
    b.settle()
    assert b.vc.waited_us == 0
    assert b.host.journal == b.table.match.journal and b.host.strip() == bytes(b.strip)
    assert b.host.told == 50  # no keyframe was needed


# Under MicroPython with the Pico's heap: a line costs no heap, whatever the journal.
HEAP = """
import gc, io, select, sys
from hal.console import Console
from hal.mirror import Mirror


# Polls in C, as the board's: one for POLLOUT on stdout (always room here), one for nothing.
yes = select.poll()
yes.register(sys.stdout, select.POLLOUT)
no = select.poll()

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
console = Console(out, yes)
leds = bytearray(3 * 56)
table = Table()
mirror = Mirror(console, leds, table)
J = Match.journal
J.append(0)
J.pop()  # the list's room for one more, made now


def lines(calls, room):
    console._poll = yes if room else no
    gc.collect()
    before = gc.mem_alloc()
    for i in range(calls):
        out.seek(0)
        leds[i % 168] ^= 0x55
        mirror.leds()
        mirror.tick(i * 200)  # a keyframe every 25 calls
        J.append((3 << 20) | i)
        table.storage.writes += 1
        mirror.tick(i * 200 + 100)
        J.pop()
        table.storage.writes += 1
        mirror.tick(i * 200 + 150)
    return gc.mem_alloc() - before


#: next run
lines(30, True)
lines(30, False)
#: next run
written = lines(CALLS, True)
last = out.tell()
print(written, lines(CALLS, False), last)
"""


@pytest.mark.parametrize("journal", [0, 300])
def test_writing_the_lines_takes_no_heap_under_micropython(journal):
    calls = 100
    out = mpy_wasm.run("JOURNAL = %d\nCALLS = %d\n" % (journal, calls) + HEAP)
    written, dropped, last = (int(x) for x in out.split())
    assert written == 0 and dropped == 0
    assert last >= PACKET  # lines were written


def test_the_mirrors_frames_fit_on_the_c_stack():
    # A bigger frame would be taken from the heap on every line on the RP2040
    # port, which the WebAssembly build's gc.mem_alloc cannot see (test_board_frames).
    path = FIRMWARE / "hal" / "mirror.py"
    frames = {name: frame_words(s, e) for name, s, e in function_frames(path)}
    per_pass = {"leds", "tick", "_send", "_follow", "_keyframe", "_check", "_undo", "_more"}
    assert per_pass <= set(frames)
    assert {k: frames[k] for k in per_pass if frames[k] > C_STACK_FRAME_WORDS} == {}
