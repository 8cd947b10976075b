"""Match engine (layer 3): what every game's state machine shares.

    actions.py   how an action is packed in one int; refusal codes
    engine.py    the Match base: submit, refuse, undo, journal, restore; headers

Each game's own engine is its package's match.py (dicetable/games/<key>/).
"""
