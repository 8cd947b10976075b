"""The Pico's C stack: the deepest chains of calls the firmware makes (`make bench`).

    python tools/bench/bench_stack.py            everything below
    python tools/bench/bench_stack.py --games    each game's own chains only

Each figure is sim/cstack.py's model (the cost rule of sim/pico.py, measured
on the Pico's MicroPython firmware) over a run of the firmware under CPython.

- Each game's deepest chains below the table app's calls into it (its
  engine and table views, the rules core under them): every game at its
  fewest and most players, played to the end through the table app alone
  (no hardware) by random players, refusals and undos included.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT)]

from dicetable.app.registry import pack  # noqa: E402
from dicetable.app.rng import Rng  # noqa: E402
from dicetable.app.table import Table  # noqa: E402
from dicetable.games import GAMES  # noqa: E402
from hal.storage import Storage  # noqa: E402
from sim.cstack import StackMeter  # noqa: E402
from sim.hw import hands, scenes  # noqa: E402
from sim.hw.rig import Config  # noqa: E402
from sim.hw.vflash import VFlash  # noqa: E402
from sim.play import player_range  # noqa: E402

FIRMWARE = ROOT / "firmware"
GAME_CODE = ("dicetable/games/", "dicetable/match/", "dicetable/rules/")


def app_table():
    """The table app of five seats, no hardware, a tag on every item."""
    storage = Storage(VFlash(), segments=4)
    storage.prepare()
    storage.save_registry(pack(hands.full_registry()))
    t = Table(Config([0, 1, 2, 3, 4], 8, 16), storage, Rng(1), lambda line: None)
    t.boot()
    return t


def game_chains(keep=3, seed=1):
    """{(game key, players): StackMeter} of every game at its fewest and most
    players, measured below the app's calls into the game."""
    out = {}
    for g, key in enumerate(GAMES):
        low, high = player_range(key)
        for n in sorted({low, min(high, 5)}):
            surface = scenes.AppHands(app_table())
            meter = StackMeter(FIRMWARE, base=0, keep=keep, top=GAME_CODE)
            with meter:
                scenes.choose(surface, g, n)
                scenes.to_the_end(surface, seed=seed)
            out[(key, n)] = meter
    return out


def print_games(keep=1):
    print("Each game's deepest chains below the table app's call into it (B of C stack)")
    for (key, n), meter in game_chains(keep=max(keep, 3)).items():
        print()
        print("%s, %d players: %d B" % (key, n, meter.deepest))
        for c in meter.chains[:keep]:
            print("\n".join(c.lines()[1:]))


def main(argv):
    if "--games" in argv:
        print_games(3)
        return
    print_games()


if __name__ == "__main__":
    main(sys.argv[1:])
