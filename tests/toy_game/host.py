"""High card in the simulator: transcript lines and a bot."""

from dicetable.match.actions import PLAY, kind_of, seat_of, value_of
from sim.gamehost import GameHost


def describe(item):
    return "card %d" % item


def narrate(match, a):
    lines = []
    if kind_of(a) == PLAY:
        lines.append("seat %d plays card %d" % (seat_of(a), value_of(a)))
        if match.trick.count == 0:
            lines.append("seat %d wins the trick" % match.last_winner)
    return lines


def heuristic(match, seat, legal, rng):
    """The highest card it may take or play."""
    return max(legal, key=value_of)


# The game as the simulator knows it (sim/gamehost.py): the cards in hand are
# hidden, and the table draws nothing (the players choose their cards).  No
# view: the search bot refuses it in one line.
HOST = GameHost(
    "highcard",
    hidden_hands=True,
    chance=False,
    narrate=narrate,
    describe=describe,
    heuristic=heuristic,
)
