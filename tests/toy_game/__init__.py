"""High card, a toy game: the tests add it to the table through
dicetable.games.register() alone (tests/test_games_registry.py).

Nine cards numbered 1 to 9.  Each player scans three cards into their hand,
then three tricks are played: the highest card wins the trick and leads the
next; a trick won scores 1.  ENTRY is its registry entry.

As every game, it has its conformance cases (tests/cases/highcard.py) and its
reviewed golden transcript (tests/golden/highcard.txt), and every per-game test
runs on it (tests/every_game.py): what a designer adding a game adds.
"""

from dicetable.games import COUNT
from dicetable.match.actions import DEAL, PLAY

ENTRY = (
    "highcard",
    "High card",
    2,
    3,
    COUNT,
    3,
    "tricks",
    "",
    (1 << DEAL) | (1 << PLAY),
    (40, 40, 40),
)
