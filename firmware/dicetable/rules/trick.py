"""The trick buffer: what has been played to the current trick, in play order.

One Trick is made per match and reused for every trick, so playing and
resolving never allocate.  Position 0 is the lead; results of the games'
resolve functions are positions, and `seats[pos]` says who played there.
"""

from array import array


class Trick:
    """Up to `capacity` (seat, item) plays, preallocated."""

    def __init__(self, capacity):
        self.items = array("H", [0] * capacity)
        self.seats = bytearray(capacity)
        self.count = 0

    def clear(self):
        """Empty the trick for the next one, its buffers zeroed: a match made
        new and the same match undone back to its start hold the same bytes
        (undo is checked against a new match), so no game's reset() zeroes
        them itself.  Only add() writes them, in order, so past `count` they
        are zero already.  In place, allocating nothing, and calling nothing
        (a call's C frame would weigh on the games' C-stack budget)."""
        items = self.items
        seats = self.seats
        i = self.count
        while i:
            i -= 1
            items[i] = 0
            seats[i] = 0
        self.count = 0

    def add(self, seat, item):
        """Play `item` from `seat` as the next card or die of the trick."""
        self.items[self.count] = item
        self.seats[self.count] = seat
        self.count += 1
