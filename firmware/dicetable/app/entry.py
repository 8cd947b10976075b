"""Value entry with the seat's buttons: - and + step through what the match
allows, OK confirms.

An Entry holds candidate actions (each a complete match action) in the order
the engine listed them: the values of a ROLL, BID or CHOOSE, or the actions a
scanned item could mean (a white die declared red, blue or green).  Stepping
below the first or above the last is refused as out of range, so the range a
player can reach is exactly what the engine accepts.
"""

from dicetable.match.actions import OK, OUT_OF_RANGE


class Entry:
    """Candidates and the one shown; `choice` marks a choice after a scan."""

    def __init__(self, candidates, choice=False, index=0):
        self.candidates = candidates
        self.choice = choice
        self.index = index

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
