"""Golden transcripts: one full match per game, reviewed by hand against the
rules.  `make golden` writes them again after a deliberate change; review
the diff before committing it.

    python tools/golden_transcripts.py
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT)]

from sim.play import play  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
# game, players, options, bots, seed
MATCHES = (
    ("dtwww", 4, 0, ("heuristic", "random", "heuristic", "random"), 1),
    ("walzer", 4, 0, ("heuristic", "random", "heuristic", "random"), 1),
    ("dicefull", 4, 0, ("heuristic", "random", "heuristic", "random"), 1),
    ("dtt", 3, 0, ("heuristic", "random", "heuristic"), 1),
    ("nokosu", 5, 0, ("heuristic", "random", "heuristic", "random", "heuristic"), 1),
)


def transcript(game, players, options, bots, seed):
    out = []
    play(game, players, options, list(bots), seed, out)
    return "\n".join(out) + "\n"


def path(game):
    return GOLDEN / (game + ".txt")


def main():
    GOLDEN.mkdir(exist_ok=True)
    for config in MATCHES:
        path(config[0]).write_text(transcript(*config), encoding="utf-8")
        print("wrote", path(config[0]).relative_to(ROOT))


if __name__ == "__main__":
    main()
