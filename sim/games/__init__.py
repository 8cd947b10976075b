"""Host-side text and strategy per game: item names, transcript lines, the heuristic bot."""

import importlib


def game_text(game):
    return importlib.import_module("sim.games." + game)
