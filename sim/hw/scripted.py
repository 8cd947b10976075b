"""A short scripted match on the virtual table, the same on both interpreters.

Two seats choose Dicefull with one challenge in the start-up menu, then make
an action the table offers (a fixed choice) each time, to the final standings.  It
prints the journal, the log and a digest of every LED frame, so that a test
can compare MicroPython's run with CPython's byte for byte.  Script().step()
makes one action at a time, so that MicroPython can run it in parts (its
test build collects garbage only between them).  The registry's entries are
given (hands.full_registry() on CPython, a literal of it under MicroPython):
listing every item of every game imports all five engines, which the board
never holds at once.
"""

from dicetable.app.menu import F_LENGTH
from dicetable.app.registry import pack
from sim.hw import hands
from sim.hw.rig import VirtualTable

DICEFULL = 2


class Script:
    """The match, one step() at a time until done."""

    def __init__(self, registry, max_actions=200):
        self.registry = registry
        self.vt = VirtualTable(seats=(0, 1))
        self.max_actions = max_actions
        self.made = 0
        self.stage = 0  # registry, boot, menu, then the match
        self.done = False

    def step(self):
        """One stage of the set-up, or one action (or a wait for the table);
        the last step lets the end show."""
        if self.done:
            return
        vt = self.vt
        t = vt.table
        if self.stage < 3:
            if self.stage == 0:
                vt.storage.save_registry(pack(self.registry))
                self.registry = None
            elif self.stage == 1:
                vt.boot()
            else:
                hands.choose_in_menu(vt, t, DICEFULL, (0, 1), {F_LENGTH: 1})  # one challenge
            self.stage += 1
        elif t.mode == "play" and self.made < self.max_actions:
            acts = hands.player_actions(t)
            if acts:
                # varied, yet the same everywhere
                hands.make(vt, t, acts[(self.made * 7) % len(acts)])
                self.made += 1
            else:
                vt.wait(100)
        else:
            vt.wait(3000)
            self.done = True


def run(max_actions=200):
    s = Script(hands.full_registry(), max_actions)
    while not s.done:
        s.step()
    return s.vt


def digest(data):
    h = 0
    for b in data:
        h = (h * 31 + b) & 0xFFFFFF
    return h


def main():
    report(run())


def report(vt):
    """Print what the match left: journal, standings, frame digests, log."""
    print("mode", vt.table.mode)
    match = vt.table.match
    assert match is not None
    print("journal", match.journal)
    print("standings", match.standings(), match.totals)
    print("frames", len(vt.strip.frames), [digest(f) for f in vt.strip.frames])
    for line in vt.lines:
        print("log", line)
