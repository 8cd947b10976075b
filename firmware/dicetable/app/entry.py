"""Value entry with the seat's buttons: - and + step through what the match
allows, OK confirms.

An Entry holds candidate actions (each a complete match action) in the order
the engine listed them: the values of a ROLL, BID or CHOOSE, or the actions a
scanned item could mean (a white die declared red, blue or green).  Stepping
below the first or above the last is refused as out of range, so the range a
player can reach is exactly what the engine accepts.
"""

from dicetable.match.actions import OK, OUT_OF_RANGE
from dicetable.match.engine import EVERY


class Entry:
    """Candidates and the one shown; `choice` marks a choice after a scan.

    The app keeps one per player for a match and sets it again (set()):
    its candidates are copied into a list made once, so that opening an
    entry during play allocates nothing (a list with more than `room`
    candidates grows once and keeps its room)."""

    def __init__(self, candidates=(), choice=False, index=0, room=48):
        self.candidates = [0] * room
        self.set(candidates, choice)
        self.index = index

    def set(self, candidates, choice=False):
        """Step through a copy of `candidates` from the first; returns self."""
        mine = self.candidates
        del mine[EVERY]
        for a in candidates:
            mine.append(a)
        self.choice = choice
        self.index = 0
        return self

    def current(self):
        """The action OK would submit."""
        return self.candidates[self.index]

    def move(self, step):
        """Step by -1 or +1: OK, or OUT_OF_RANGE at either end (nothing moves)."""
        i = self.index + step
        if i < 0 or i >= len(self.candidates):
            return OUT_OF_RANGE
        self.index = i
        return OK

    def same(self, candidates):
        """True when `candidates` are the ones this entry steps through."""
        return self.candidates == candidates
