"""Golden transcripts: one full match per registered game, reviewed by hand
against the rules.  `make golden` writes them again after a deliberate
change; review the diff before committing it.

    python tests/golden_transcripts.py           every game
    python tests/golden_transcripts.py dtt ...   the games named

It lives with the tests it writes for: run as a file, its folder (tests/) is
on sys.path, so the toy game and the tests' list of games import as they do
in pytest.

The games are the registry's (dicetable.games.GAMES) and the tests' toy game
(tests/every_game.py): a game registered is given a match here with no
edit, and tests/test_golden.py fails until its transcript is written and
reviewed.  Each match is at the game's most players, heuristic and random
bots in turn, no options, seed 1 (PLAYERS: where a reviewed match has fewer),
in seeding 1 (sim/play.py): the matches reviewed, which a seed written before
seeding 2 must still play.
"""

import sys

import sim  # first: puts the board's code (firmware/), which every_game imports, on sys.path

# isort: split
import every_game

from sim.play import play

ROOT = sim.ROOT

GOLDEN = ROOT / "tests" / "golden"
# Games whose reviewed match has fewer players than their most.
PLAYERS = {"dicefull": 4}


def config(game):
    """(game, players, options, bots, seed) of the game's golden match (the game registered)."""
    players = PLAYERS.get(game) or every_game.match_class(game).MAX_PLAYERS
    bots = tuple(("heuristic", "random")[seat % 2] for seat in range(players))
    return (game, players, 0, bots, 1)


def transcript(game, players, options, bots, seed):
    out = []
    play(game, players, options, list(bots), seed, out, seeding=1)
    return "\n".join(out) + "\n"


def path(game):
    return GOLDEN / (game + ".txt")


def main(keys):
    GOLDEN.mkdir(exist_ok=True)
    for game in keys or every_game.KEYS:
        with every_game.registered(game):
            path(game).write_text(transcript(*config(game)), encoding="utf-8")
        print("wrote", path(game).relative_to(ROOT))


if __name__ == "__main__":
    main(sys.argv[1:])
