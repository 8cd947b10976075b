"""What the table holds, read through each game's own view (sim/games/<key>.py:
hand, centre): the hands, the trick, the centre.  One home for the terminal
view (sim/terminal.py) and the web page (sim/web/view.py), which each put it
in their own words.  Everything here reads; nothing changes the table."""

from dicetable.app import games
from sim import gamehost


def hand_of(m, p):
    """Player p's items in hand, as values."""
    return gamehost.host_of(m).hand(m, p)


def centre_of(m):
    """The items on the table's centre (Nokosu's centre dice, Dicefull's dice
    still to pick, d-TT's face-up cards; none in the other games)."""
    return gamehost.host_of(m).centre(m)


def trick_plays(t):
    """The trick on the table: (physical seat, item value) in play order."""
    if t.match is None or not games.has_tricks(t.game):
        return []
    trick = t.match.trick  # a trick game's engine holds it (the table reads it too)
    return [(t.phys[trick.seats[i]], trick.items[i]) for i in range(trick.count)]
