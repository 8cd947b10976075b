"""The board's main loop (hal/mainloop.py) in virtual time (sim/hw/vloop.py):
the passes and their waits, an answer pushed by the pass that took the
input, the readers told where the table awaits an item as that changes, an
input never lost while the CPU is stalled by the flash, the collector kept
out of input handling, and nothing allocated by a pass with nothing to do,
under MicroPython."""

import gc

import pytest

from dicetable.app import games
from dicetable.app.events import OK, TAG_PLACED
from dicetable.app.registry import pack
from dicetable.games import GAMES, MOST, fact
from dicetable.match.actions import kind_of, seat_of, value_of
from hal.mainloop import BUTTON_MS, FRAME_MS, GC_MS, MainLoop
from hal.readers import AWAITED_MS, MENU_MS, PERIOD_MS
from sim import mpy_wasm
from sim.hw import hands
from sim.hw.rig import VirtualTable
from sim.hw.vloop import VirtualLoop
from sim.hw.vtag import VTag

DTWWW = 0
DICEFULL = 2  # one seat at a time plays an item
ERASE_MS = 45  # a W25Q16 sector erase, typical: the CPU runs nothing meanwhile


class ReaderAt:
    """Readers that report one tag at a given time (the readers' own timing
    is tested with the driver); otherwise due every PERIOD_MS, and quiet
    between."""

    def __init__(self, at_ms, reader, uid):
        self.at_ms = at_ms
        self.reader = reader
        self.tag = uid
        self.awaited = 0
        self.found = 0
        self.found_kind = bytearray([TAG_PLACED])
        self.found_reader = bytearray([reader])

    def service(self, now_ms):
        if self.tag is not None and now_ms >= self.at_ms:
            self.found = 1
        return PERIOD_MS

    def uid(self, k):
        uid, self.tag = self.tag, None
        return uid

    def quiet_ms(self):
        return PERIOD_MS


def record_passes(loop):
    """[(now, pass number)] of every pass the loop runs from here on."""
    ran = []
    for k, name in enumerate(("readers_pass", "buttons_pass", "frames_pass")):
        run = getattr(loop, name)
        setattr(loop, name, lambda now, k=k, run=run: (ran.append((now, k)), run(now))[1])
    return ran


def run_passes(loop, start, end):
    """Run the loop's due passes from `start` until `end` (ms)."""
    now = start
    while now < end:
        now += loop.due(now)


def table_in_play(game=DTWWW):
    vt = VirtualTable(seats=(0, 1, 2))
    vt.storage.save_registry(pack(hands.full_registry()))
    vt.boot()
    hands.choose_in_menu(vt, vt.table, game, (0, 1, 2))
    assert vt.table.mode == "play"
    vt.clock.now_us = max(vt.clock.now_us, vt.now * 1000)  # one timeline from here on
    return vt


def a_legal_tag(t):
    a = hands.player_actions(t)[0]
    return t.phys[seat_of(a)], hands.uid_for(DTWWW, games.identity(DTWWW, value_of(a)))


def a_tag_to_play(t):
    """The reader and tag of an item the app would take now."""
    g = t.game
    a = next(a for a in hands.player_actions(t) if games.is_item_kind(g, kind_of(a)))
    return t.phys[seat_of(a)], hands.uid_for(g, games.identity(g, value_of(a)))


def stall_storage(vt, ms):
    """Every journal write holds the CPU for `ms` (the clock runs on)."""
    append = vt.storage.append

    def slow(action):
        vt.clock.advance(ms * 1000)
        append(action)

    vt.storage.append = slow


def recorded_buttons(t):
    seen = []
    button = t.button

    def record(seat, code):
        seen.append((seat, code))
        button(seat, code)

    t.button = record
    return seen


def test_each_pass_runs_again_after_the_wait_it_returns():
    vt = table_in_play()
    start = vt.clock.ticks_ms()
    loop = VirtualLoop(
        MainLoop(vt.table, ReaderAt(0, 0, None), vt.buttons, vt.pixels),
        vt.clock,
        vt.vbuttons.advance,
    )
    loop.begin(start)
    loop.run_for(1000)
    # The readers once more at the start: the first answer tells them what
    # the table awaits, and they run again at once to take up its cadence.
    assert loop.runs == [1000 // PERIOD_MS + 2, 1000 // BUTTON_MS + 1, 1000 // FRAME_MS + 1]


@pytest.mark.parametrize("press_from", [5, -5], ids=["inside the stall", "from before it"])
def test_a_30_ms_press_during_a_journal_commit_that_stalls_the_cpu_is_not_missed(press_from):
    vt = table_in_play()
    t = vt.table
    seen = recorded_buttons(t)
    stall_storage(vt, ERASE_MS)
    now = vt.clock.ticks_ms()
    reader, uid = a_legal_tag(t)
    journal = len(t.match.journal)
    at = now + 3 * PERIOD_MS  # a readers pass: the tag comes then
    loop = VirtualLoop(
        MainLoop(t, ReaderAt(at, reader, uid), vt.buttons, vt.pixels), vt.clock, vt.vbuttons.advance
    )
    loop.begin(now)
    # Its journal write holds the CPU from `at` for ERASE_MS.  A 30 ms tap of
    # OK at seat 2 that begins 5 ms into the stall falls wholly inside it; one
    # that begins 5 ms before was read pressed once, then released after.
    vt.vbuttons.press(2, OK, at + press_from, 30)
    loop.run_for(400)
    assert len(t.match.journal) == journal + 1  # the play went through
    assert seen == [(2, OK)]  # and the tap was not lost


class GridReaders:
    """Readers that look on the grid of their period (as hal/readers.py does)."""

    def __init__(self):
        self.looks = 0
        self.awaited = 0
        self.wait = 0
        self.found = 0

    def service(self, now_ms):
        self.looks += 1
        self.wait = PERIOD_MS - now_ms % PERIOD_MS
        return self.wait

    def quiet_ms(self):
        return self.wait


def test_due_runs_the_passes_on_their_grids_and_they_share_wakes():
    vt = table_in_play()
    readers = GridReaders()
    loop = MainLoop(vt.table, readers, vt.buttons, vt.pixels)
    ran = record_passes(loop)
    now = 997  # off the grid at first
    loop.begin(now)
    wakes = 0
    while now < 2000:
        wait = loop.due(now)
        if wait:
            now += wait  # asleep until then
            wakes += 1
    # From 1000 on, every pass on its grid, all three in one wake at every
    # multiple of 20 ms: a wake every BUTTON_MS, none for the others.
    later = [(t, k) for t, k in ran if t >= 1000]
    assert all(t % (PERIOD_MS, BUTTON_MS, FRAME_MS)[k] == 0 for t, k in later)
    assert [k for _, k in later].count(0) == 1000 // PERIOD_MS
    assert [k for _, k in later].count(2) == 1000 // FRAME_MS
    assert wakes == 1000 // BUTTON_MS + 1  # and the one from 997 to 1000


def test_a_press_during_an_led_push_is_not_missed():
    vt = table_in_play()
    t = vt.table
    seen = recorded_buttons(t)
    show = vt.pixels.show

    def slow_show(frame):  # a bit-banged push: ~5 ms
        vt.clock.advance(5000)
        show(frame)

    vt.pixels.show = slow_show
    now = vt.clock.ticks_ms()
    reader, uid = a_legal_tag(t)
    loop = VirtualLoop(
        MainLoop(t, ReaderAt(now + 50, reader, uid), vt.buttons, vt.pixels),
        vt.clock,
        vt.vbuttons.advance,
    )
    loop.begin(now)
    vt.vbuttons.press(1, OK, now + 52, 30)
    loop.run_for(400)
    assert seen == [(1, OK)]


def test_the_collector_runs_after_the_answer_to_an_input_is_shown_not_during_it(monkeypatch):
    vt = table_in_play()
    t = vt.table
    events = []
    monkeypatch.setattr(gc, "collect", lambda: events.append("collect"))
    show = vt.pixels.show
    vt.pixels.show = lambda frame: (events.append("show"), show(frame))
    append = vt.storage.append
    vt.storage.append = lambda a: (events.append("journal"), append(a))
    now = vt.clock.ticks_ms()
    reader, uid = a_legal_tag(t)
    loop = VirtualLoop(
        MainLoop(t, ReaderAt(now + 50, reader, uid), vt.buttons, vt.pixels),
        vt.clock,
        vt.vbuttons.advance,
    )
    loop.begin(now)
    loop.run_for(40)
    events.clear()
    loop.run_for(200)
    # The play: written, shown, and only then, with nothing new, collected once.
    assert events[:2] == ["journal", "show"]
    assert events.count("collect") == 1
    assert events.index("collect") > events.index("show")


class Log:
    """What happened, in order, with the pass it happened in."""

    def __init__(self, vt, passes):
        self.entries = []
        self.pass_ = None
        self.clock = vt.clock
        names = ("readers", "buttons", "frames")
        passes.passes = tuple(self._wrap(names[i], p) for i, p in enumerate(passes.passes))

    def _wrap(self, name, step):
        def run(now_ms):
            self.pass_ = (name, now_ms)
            return step(now_ms)

        return run

    def add(self, what):
        self.entries.append((what, self.pass_))


def logged_table(monkeypatch):
    """A table in play whose reader events, pushes and collections are logged,
    run by the main loop with the virtual table's own readers."""
    vt = table_in_play()
    t = vt.table
    loop = MainLoop(t, vt.readers, vt.buttons, vt.pixels)
    passes = VirtualLoop(loop, vt.clock, vt.vbuttons.advance)
    now = vt.clock.ticks_ms()
    passes.begin(now)
    log = Log(vt, passes)
    event = t.reader_event
    t.reader_event = lambda e, r, u: (log.add(("event", e)), event(e, r, u))
    show = vt.pixels.show
    vt.pixels.show = lambda frame: (log.add("show"), show(frame))
    monkeypatch.setattr(gc, "collect", lambda: log.add("collect"))
    return vt, loop, passes, log


def test_the_answer_to_a_tag_goes_out_in_the_pass_that_delivered_it(monkeypatch):
    vt, _, passes, log = logged_table(monkeypatch)
    passes.run_for(100)
    reader, uid = a_legal_tag(vt.table)
    vt.chips[reader].place(VTag(uid))
    del log.entries[:]
    passes.run_for(200)
    placed = log.entries.index((("event", TAG_PLACED), log.entries[0][1]))
    assert log.entries[placed + 1] == ("show", log.entries[placed][1])


def test_the_collector_waits_for_the_answer_and_for_a_gap_between_looks(monkeypatch):
    vt, loop, passes, log = logged_table(monkeypatch)
    passes.run_for(100)
    reader, uid = a_legal_tag(vt.table)
    vt.chips[reader].place(VTag(uid))
    loop.garbage = True  # an input's garbage, still there
    del log.entries[:]
    passes.run_for(200)
    # Not in the pass whose look saw the tag (its re-read is 4 ms away), but
    # once the answer to it is out, in a readers pass.
    whats = [what for what, _ in log.entries]
    assert whats[:3] == [("event", TAG_PLACED), "show", "collect"]
    assert whats.count("collect") == 1
    assert log.entries[2][1][0] == "readers"
    assert PERIOD_MS >= GC_MS


def looks(vt):
    """Frames each chip has been sent: a look at an empty reader is one."""
    return [0 if c is None else c.reqa + c.wupa for c in vt.chips]


@pytest.mark.slow
def test_the_readers_look_often_where_the_match_awaits_an_item():
    vt = table_in_play(DICEFULL)
    t = vt.table
    loop = MainLoop(t, vt.readers, vt.buttons, vt.pixels)
    passes = VirtualLoop(loop, vt.clock, vt.vbuttons.advance)
    passes.run_for(100)
    played = []
    for _ in range(4):
        mask = t.awaited_readers()
        reader, uid = a_tag_to_play(t)
        assert vt.readers.awaited == mask == 1 << reader  # the seat to play
        before = looks(vt)
        passes.run_for(400)
        got = [a - b for a, b in zip(looks(vt), before, strict=True)]
        # Nothing on the table: a frame a look, every AWAITED_MS where the
        # table awaits an item, every PERIOD_MS elsewhere.
        assert [got[i] for i in vt.indices] == [
            400 // (AWAITED_MS if mask >> i & 1 else PERIOD_MS) for i in vt.indices
        ]
        journal = len(t.match.journal)
        tag = VTag(uid)
        vt.chips[reader].place(tag)
        passes.run_for(100)
        assert len(t.match.journal) == journal + 1
        vt.chips[reader].remove(tag)
        passes.run_for(100)
        played.append(reader)
    assert played == [played[0], (played[0] + 1) % 3, (played[0] + 2) % 3, played[0]]


class NoJournal:
    """Storage with no work ahead to do."""

    writes = 0

    def work_ahead(self):
        return False


class FakeTable:
    """A table whose frame and awaited readers a test sets; it counts the
    times it was asked which readers it awaits."""

    def __init__(self):
        self.frame = bytearray(3)
        self.frame_version = 0
        self.mask = 0
        self.asked = 0
        self.change_at = None
        self.text = []
        self.storage = NoJournal()
        self.mode = "play"

    def awaited_readers(self):
        self.asked += 1
        return self.mask

    def tick(self, now_ms):
        if now_ms == self.change_at:  # the clock changes the frame
            self.frame_version += 1

    def button(self, seat, code):
        pass  # an input that changes no frame


class Presses:
    """Buttons that report a press at a given time."""

    def __init__(self, at_ms):
        self.at_ms = at_ms
        self.presses = 0
        self.press_seat = bytearray([0])
        self.press_code = bytearray([OK])

    def poll(self, now_ms):
        if now_ms == self.at_ms:
            self.presses = 1


class Shown:
    def show(self, frame):
        pass


def test_the_mask_is_handed_over_at_boot_after_an_input_and_a_frame_change_only():
    t = FakeTable()
    t.mask = 1 << 2
    readers = GridReaders()
    loop = MainLoop(t, readers, Presses(305), Shown())
    ran = record_passes(loop)

    loop.begin(0)
    run_passes(loop, 0, 1)
    assert (readers.awaited, t.asked) == (1 << 2, 1)  # at boot, by the first pass
    assert ran[:2] == [(0, 0), (0, 0)]  # then the readers again, at once
    run_passes(loop, 1, 300)
    assert t.asked == 1  # nothing happened: not asked
    t.mask = 1 << 3
    run_passes(loop, 300, 320)
    assert (readers.awaited, t.asked) == (1 << 3, 2)  # after the press at 305
    assert (305, 0) in ran  # the readers pass at once
    t.mask = 1 << 4
    t.change_at = 340
    run_passes(loop, 320, 400)
    assert (readers.awaited, t.asked) == (1 << 4, 3)  # after the frame the clock changed
    assert ran[ran.index((340, 2)) + 1] == (340, 0)
    run_passes(loop, 400, 1000)
    assert t.asked == 3


class PacedReaders(GridReaders):
    """GridReaders that keep to the period they are paced to, noting each."""

    def __init__(self):
        super().__init__()
        self.period = PERIOD_MS
        self.paces = []

    def pace(self, period_ms):
        self.paces.append(period_ms)
        self.period = period_ms

    def service(self, now_ms):
        self.looks += 1
        self.wait = self.period - now_ms % self.period
        return self.wait


def test_at_the_menu_the_readers_are_paced_to_menu_ms_and_back_at_once_when_it_ends():
    t = FakeTable()
    t.mode = "menu"
    t.button = lambda seat, code: setattr(t, "mode", "play")  # OK starts the match
    readers = PacedReaders()
    loop = MainLoop(t, readers, Presses(305), Shown())
    ran = record_passes(loop)

    loop.begin(0)
    run_passes(loop, 0, 1)
    assert readers.paces == [MENU_MS]  # at boot, by the first pass
    assert ran[:2] == [(0, 0), (0, 0)]  # then the readers again at once, on the new grid
    run_passes(loop, 1, 300)
    assert [now for now, k in ran if k == 0][2:] == list(range(MENU_MS, 300, MENU_MS))
    run_passes(loop, 300, 400)
    assert readers.paces == [MENU_MS, PERIOD_MS]  # after the press that left the menu
    after = [now for now, k in ran if k == 0 and now >= 305]
    assert after == [305] + list(range(320, 400, PERIOD_MS))
    run_passes(loop, 400, 1000)
    assert readers.paces == [MENU_MS, PERIOD_MS]  # nothing else changes it


class LoopSurface:
    """The players' hands (sim/hw/hands.py) on a table run by the main loop."""

    def __init__(self, vt, passes):
        self.vt = vt
        self.passes = passes

    def press(self, seat, code):
        self.vt.vbuttons.press(seat, code & 3, self.vt.clock.ticks_ms() + 2, 40)
        self.passes.run_for(40 + 60)


def test_the_menus_readers_are_looked_at_every_menu_ms_and_a_match_at_once_every_period():
    vt = VirtualTable(seats=(0, 1, 2))
    vt.boot()
    t = vt.table
    assert t.mode == "menu"
    vt.clock.now_us = max(vt.clock.now_us, vt.now * 1000)  # one timeline from here on
    loop = MainLoop(t, vt.readers, vt.buttons, vt.pixels)
    passes = VirtualLoop(loop, vt.clock, vt.vbuttons.advance)
    passes.run_for(2 * MENU_MS)
    before = looks(vt)
    passes.run_for(10 * MENU_MS)
    assert [a - b for a, b in zip(looks(vt), before, strict=True)] == [
        0 if c is None else 10 for c in vt.chips
    ]
    hands.choose_in_menu(LoopSurface(vt, passes), t, DICEFULL, (0, 1, 2))
    assert t.mode == "play"
    mask = t.awaited_readers()
    before = looks(vt)
    passes.run_for(400)
    got = [a - b for a, b in zip(looks(vt), before, strict=True)]
    # At once every PERIOD_MS, and AWAITED_MS where the match awaits an item.
    assert [got[i] for i in vt.indices] == [
        400 // (AWAITED_MS if mask >> i & 1 else PERIOD_MS) for i in vt.indices
    ]


IDLE = """
from sim.hw.rig import VirtualTable
from sim.hw import hands
from hal.mainloop import MainLoop
#: next run
vt = VirtualTable(seats=(0, 1, 2, 3, 4))
#: next run
vt.boot()
class NoReaders:
    awaited = 0
    found = 0
    def service(self, now):
        return 10
    def quiet_ms(self):
        return 10
    def pace(self, period_ms):
        pass
loop = MainLoop(vt.table, NoReaders(), vt.buttons, vt.pixels)
now = 100000
for _ in range(3):
    loop.buttons_pass(now)
    loop.frames_pass(now)
    now += 5
#: next run
import gc
before_buttons = gc.mem_alloc()
for _ in range(2000):
    now += 5
    loop.buttons_pass(now)
    loop.readers_pass(now)
after_buttons = gc.mem_alloc()
for _ in range(500):
    now += 20
    loop.frames_pass(now)
after_frames = gc.mem_alloc()
loop.begin(now)
wakes = 0
#: next run
before = gc.mem_alloc()
end = now + 10000
while now < end:
    wait = loop.due(now)
    if wait:
        now += wait
        wakes += 1
print(vt.table.mode, after_buttons - before_buttons, after_frames - after_buttons,
      gc.mem_alloc() - before, wakes)
"""


def test_idle_passes_at_the_menu_allocate_nothing_on_micropython():
    # At the menu with nothing happening: 2000 button passes and 500 frame
    # passes, then 10 s of the loop's own turns (MainLoop.due()) running them.
    assert mpy_wasm.run(IDLE).split() == ["menu", "0", "0", "0", str(10000 // BUTTON_MS)]


MATCH_IDLE = """
from dicetable.app.events import TAG_PLACED
from dicetable.app.registry import pack
from sim.hw.rig import VirtualTable
from sim.hw import hands
from hal.mainloop import MainLoop
#: next run
from dicetable.app import games
vt = VirtualTable(seats=(0, 1, 2, 3, 4))
#: next run
vt.storage.save_registry(pack([(hands.uid_for(GAME, i), GAME, i) for i in games.all_items(GAME)]))
#: next run
vt.boot()


class Hands:
    def scan(self, reader, uid):
        vt.table.reader_event(TAG_PLACED, reader, uid)

    def press(self, seat, code):
        vt.table.button(seat, code)


def act():
    acts = hands.player_actions(vt.table)
    hands.make(Hands(), vt.table, acts[0])


hands.choose_in_menu(Hands(), vt.table, GAME, SEATS)
ACTIONS
#: next run
class NoReaders:
    awaited = 0
    found = 0
    def service(self, now):
        return 10
    def quiet_ms(self):
        return 10
    def pace(self, period_ms):
        pass
loop = MainLoop(vt.table, NoReaders(), vt.buttons, vt.pixels)
now = 100000
for _ in range(3):
    loop.buttons_pass(now)
    loop.frames_pass(now)
    now += 5
#: next run
import gc
before = gc.mem_alloc()
for _ in range(2000):
    now += 5
    loop.buttons_pass(now)
    loop.readers_pass(now)
after_buttons = gc.mem_alloc()
for _ in range(500):
    now += 20
    loop.frames_pass(now)
print(vt.table.mode, len(vt.table.match.journal), vt.table.awaited_readers() != 0,
      after_buttons - before, gc.mem_alloc() - after_buttons)
"""


@pytest.mark.slow
@pytest.mark.parametrize("game", range(games.count()), ids=list(GAMES))
def test_idle_passes_in_a_match_allocate_nothing_on_micropython(game):
    # 10 s of button and reader passes, then 10 s of frame passes (the
    # chase, the blinks, the shows that end), while a match of the game's
    # most players waits for a seat's scan (the readers looked at often:
    # their pass at its busiest), 30 actions in, or a quarter of its longest
    # match in a short game (a new game's, made from High card).
    seats = tuple(range(fact(game, MOST)))
    played = min(30, games.journal_room(game) // 4)
    # An action a part: this build collects garbage only between parts.
    until_a_scan = "\n#: next run\nif not vt.table.awaited_readers():\n    act()"
    source = "GAME = %d\nSEATS = %r\n" % (game, seats) + MATCH_IDLE.replace(
        "ACTIONS", "\n#: next run\nact()" * played + until_a_scan * 20
    )
    mode, journal, waits, buttons, frames = mpy_wasm.run(source).split()
    assert (mode, int(journal) >= played, waits) == ("play", True, "True")
    assert (buttons, frames) == ("0", "0")


class CountedJournal:
    """Storage whose work ahead takes `steps` calls after each write; it
    notes the time of each call."""

    def __init__(self, steps):
        self.writes = 0
        self.steps = steps
        self.left = steps
        self.calls = []

    def write(self):
        self.writes += 1
        self.left = self.steps

    def work_ahead(self):
        self.calls.append(self.now)
        if self.left:
            self.left -= 1
            return True
        return False


def test_the_journals_work_ahead_comes_in_passes_with_no_input_until_done():
    t = FakeTable()
    t.storage = journal = CountedJournal(steps=2)
    readers = ReaderAt(200, 1, b"\x04\x01\x02\x03")
    heard = []
    t.reader_event = lambda event, reader, uid: (heard.append(readers.clock), journal.write())
    loop = MainLoop(t, readers, Presses(-1), Shown())

    def run(start, end):
        now = start
        while now < end:
            journal.now = readers.clock = now
            now += loop.due(now)

    loop.begin(0)
    run(0, 150)
    # After the power-up: its two steps, then the call that finds none; no more.
    assert len(journal.calls) == 3
    run(150, 400)
    # The tag's pass answered it and did no work ahead; later passes did.
    assert heard == [200] and 200 not in journal.calls
    assert len(journal.calls) == 6 and min(journal.calls[3:]) > 200
