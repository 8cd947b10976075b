"""Nokosu Dice: a game package (see dicetable/games/__init__.py)."""
