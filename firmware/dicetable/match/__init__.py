"""Match engine (layer 3): one state machine per game, a pure fold over a journal.

    actions.py   how an action is packed in one int; refusal codes
    engine.py    the Match base: submit, refuse, undo, journal, restore
    <game>.py    one module per game: phases, turns, tricks, scoring, standings
"""
