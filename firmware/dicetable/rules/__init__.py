"""Rules core (layer 4): what every game's rules share.

    trick.py     the preallocated trick buffer every trick-taking game shares

Each game's own rules core is its package's rules.py (dicetable/games/<key>/),
and a core split by concern keeps its other modules beside it, each named
<concern>_rules.py (Dicefull's scoring_rules.py).
"""
