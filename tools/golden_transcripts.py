"""Golden transcripts: one full match per registered game, reviewed by hand
against the rules.  `make golden` writes them again after a deliberate
change; review the diff before committing it.

    python tools/golden_transcripts.py           every game
    python tools/golden_transcripts.py dtt ...   the games named

The games are the registry's (dicetable.games.GAMES) and the tests' toy game
(tests/every_game.py): a game registered is given a match here with no
edit, and tests/test_golden.py fails until its transcript is written and
reviewed.  Each match is at the game's most players, heuristic and random
bots in turn, no options, seed 1 (PLAYERS: where a reviewed match has fewer).
"""

import sys

import sim
from sim.play import play

ROOT = sim.ROOT
# The tests' list of games and their toy game (tests/toy_game), whose
# transcript this writes too, are no installed package: tests/ is the one
# path added (import sim has put firmware/ on it).
sys.path.insert(0, str(ROOT / "tests"))
import every_game  # noqa: E402

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
    play(game, players, options, list(bots), seed, out)
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
