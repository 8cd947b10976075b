"""What the table holds, read generically from the firmware's table app and
match engine: the hands, the trick, the centre.  One home for the terminal
view (sim/terminal.py) and the web page (sim/web/view.py), which each put it
in their own words.  Everything here reads; nothing changes the table."""

from typing import Any


def hand_of(m: Any, p):
    """Player p's items in hand as values (match.hand() where the game has
    it, else its hands and counts), or None for a game that keeps no hands."""
    if callable(getattr(m, "hand", None)):
        return list(m.hand(p))
    rows = getattr(m, "hands", None)
    count = getattr(m, "hand_n", None)
    if count is None:
        count = getattr(m, "held", None)
    if rows is None or count is None:
        return None
    return [rows[p][i] for i in range(count[p])]


def centre_of(m: Any):
    """The items on the table's centre: Nokosu's centre dice, Dicefull's dice
    still to pick, d-TT's face-up cards."""
    centre = getattr(m, "centre", None)
    if callable(centre):
        out = list(m.centre())
    elif centre is not None and hasattr(m, "ncentre"):
        out = [centre[i] for i in range(m.ncentre)]
    else:
        out = []
    faceup = getattr(m, "faceup", None)
    if faceup is not None and hasattr(m, "faceup_n"):
        out += [faceup[i] for i in range(m.faceup_n)]
    return out


def trick_plays(t):
    """The trick on the table: (physical seat, item value) in play order."""
    trick = getattr(t.match, "trick", None)
    if trick is None:
        return []
    return [(t.phys[trick.seats[i]], trick.items[i]) for i in range(trick.count)]
