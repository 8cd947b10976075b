"""A short scripted match on the virtual table, the same on both interpreters.

Two seats choose Dicefull with one challenge in the start-up menu, then make
an action the table offers (a fixed choice) each time, to the final standings.  It
prints the journal, the log and a digest of every LED frame, so that a test
can compare MicroPython's run with CPython's byte for byte.
"""

from dicetable.app.menu import F_LENGTH
from sim.hw import hands
from sim.hw.rig import VirtualTable

DICEFULL = 2


def run(max_actions=200):
    vt = VirtualTable(seats=(0, 1))
    vt.storage.save_registry(hands.full_registry())
    vt.boot()
    hands.choose_in_menu(vt, vt.table, DICEFULL, (0, 1), {F_LENGTH: 1})   # one challenge
    t = vt.table
    made = 0
    while t.mode == "play" and made < max_actions:
        acts = hands.player_actions(t)
        if acts:
            hands.make(vt, t, acts[(made * 7) % len(acts)])   # varied, yet the same everywhere
            made += 1
        else:
            vt.wait(100)
    vt.wait(3000)
    return vt


def digest(data):
    h = 0
    for b in data:
        h = (h * 31 + b) & 0xFFFFFF
    return h


def main():
    vt = run()
    print("mode", vt.table.mode)
    match = vt.table.match
    assert match is not None
    print("journal", match.journal)
    print("standings", match.standings(), match.totals)
    print("frames", len(vt.strip.frames), [digest(f) for f in vt.strip.frames])
    for line in vt.lines:
        print("log", line)
