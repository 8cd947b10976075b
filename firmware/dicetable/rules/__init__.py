"""Rules core: one module per game, integer-only, no I/O, no allocation per trick.

    trick.py     the preallocated trick buffer every trick-taking game shares
    dtwww.py     DTwww (dice trick-taking)
    walzer.py    Seltsam-Walzer
    dtt.py       d-TT
    nokosu.py    Nokosu Dice
    dicefull.py  Dicefull (dice faces, challenges, evaluation)
"""
