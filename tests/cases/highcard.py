"""Conformance cases for High card, the tests' toy game (tests/toy_game):
what a designer's new game adds here, as every game of the table does.

Nine cards numbered 1 to 9; the higher card takes the trick (toy_game/rules.py);
a card is legal when the seat to play holds it.  Every expected value is the
rule read by hand, never the code's output.  Its rules core has one function
(beats): the per-play calls are the match's own (refusal, legal_actions, and
the trick's resolution by apply).
"""

from dicetable.match.actions import DEAL, NOT_IN_HAND, OK, OUT_OF_TURN, PLAY, action
from toy_game import rules
from toy_game.match import new


def dealt():
    """Two players, seat 0 holding 1, 5, 9 and seat 1 holding 2, 6, 7."""
    m = new(2)
    for seat, cards in ((0, (1, 5, 9)), (1, (2, 6, 7))):
        for c in cards:
            m.submit(action(DEAL, seat, c))
    return m


def refusal(seat, card):
    return dealt().refusal(action(PLAY, seat, card))


def legal_cards(seat):
    return [a & 0xFFFF for a in dealt().legal_actions(seat)]


def winner(lead, follow):
    """The seat that takes a trick seat 0 leads with `lead` and seat 1 follows."""
    m = dealt()
    m.submit(action(PLAY, 0, lead))
    m.submit(action(PLAY, 1, follow))
    return m.last_winner


# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("beats",)

CASES = [
    ("higher card beats", rules.beats, (9, 1), True),
    ("lower card does not beat", rules.beats, (1, 9), False),
    ("the lead holds against itself", rules.beats, (5, 5), False),
    ("a held card is legal", refusal, (0, 5), OK),
    ("a card not held is refused", refusal, (0, 2), NOT_IN_HAND),
    ("seat 0 leads the first trick", refusal, (1, 2), OUT_OF_TURN),
    ("the leader may play any card held", legal_cards, (0,), [1, 5, 9]),
    ("the follower may not play yet", legal_cards, (1,), []),
    ("the follower's higher card wins", winner, (5, 6), 1),
    ("the leader's higher card wins", winner, (9, 7), 0),
]


def hot_calls():
    """Per-play calls on a dealt 2-player match: refusal, listing, a trick played and taken back."""
    m = dealt()
    out = []
    m.legal_actions(0, out)  # its room made once
    lead = action(PLAY, 0, 5)

    def resolve():
        m.submit(lead)
        m.submit(action(PLAY, 1, 6))  # the trick is taken: resolved
        m.undo(2)

    return [
        ("is_legal", lambda: m.refusal(lead)),
        ("legal_plays", lambda: m.legal_actions(0, out)),
        ("resolve", resolve),
    ]
