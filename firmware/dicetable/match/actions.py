"""Actions and refusals: what the journal holds, as small ints.

An action is one int:  kind << 20 | seat << 16 | value

    kind   what happens (the constants below)
    seat   who does it: 0..6, or TABLE for the table itself (dealing what a
           player scanned, turning a card, rolling when set to roll)
    value  16 bits: an item of the game (the rules core's encoding), a number
           entered or rolled, a bid, or 0

Every game uses the kinds that fit its phases; the same kind means the same
thing in every game, so a journal reads alike whatever the game.
"""

from micropython import const

TABLE = const(7)  # the seat number of the table itself
TABLE_BIT = const(0x80)  # waiting() bit for the table

KIND_SHIFT = const(20)
SEAT_SHIFT = const(16)
_VALUE_MASK = const(0xFFFF)

# Kinds of action.
DEAL = const(1)  # seat receives item `value` (a scanned or dealt item)
PLAY = const(2)  # seat plays item `value` to the trick
ROLL = const(3)  # a rolled number `value` for the die the match waits on
PASS_ITEM = const(4)  # seat passes item `value` to a neighbour (Walzer's pass)
KEEP = const(5)  # seat keeps item `value` from a draft packet (d-TT)
BID = const(6)  # seat bids `value`
PICK = const(7)  # seat takes item `value` from the centre
PASS = const(8)  # seat passes (Dicefull: picks no more this round)
ZERO_BID = const(9)  # seat takes a black die and returns centre item `value` (Nokosu)
REVEAL = const(10)  # the table turns up `value` (a card, a challenge, the trump die)
CHOOSE = const(11)  # a setup choice `value` (e.g. the colour removed, the game length)

KIND_NAMES = (
    "",
    "deal",
    "play",
    "roll",
    "pass-item",
    "keep",
    "bid",
    "pick",
    "pass",
    "zero-bid",
    "reveal",
    "choose",
)

# Refusal codes: why an action was not accepted.  0 means accepted.
OK = const(0)
OUT_OF_TURN = const(1)  # not this seat's input now
WRONG_PHASE = const(2)  # this kind of action is not taken in this phase
UNKNOWN_ITEM = const(3)  # no such item in this game
NOT_IN_HAND = const(4)  # the item is not this seat's to play
ILLEGAL_PLAY = const(5)  # a rule forbids it (follow, keep a die, pick limit...)
OUT_OF_RANGE = const(6)  # a number outside what the die or bid allows
ALREADY_PLACED = const(7)  # the item is already dealt, played or taken
MATCH_OVER = const(8)  # the match has ended
NOTHING_TO_UNDO = const(9)  # undo with an empty journal
MALFORMED = const(10)  # a bit of the action word means nothing (engine.malformed)

REFUSAL_NAMES = (
    "ok",
    "out of turn",
    "wrong phase",
    "unknown item",
    "not in hand",
    "illegal play",
    "out of range",
    "already placed",
    "match over",
    "nothing to undo",
    "malformed action",
)


def action(kind, seat, value):
    """Pack an action."""
    return (kind << KIND_SHIFT) | (seat << SEAT_SHIFT) | value


def kind_of(a):
    """The kind of action word `a`."""
    return a >> KIND_SHIFT


def seat_of(a):
    """The seat that takes action `a` (TABLE: the table)."""
    return (a >> SEAT_SHIFT) & 7


def value_of(a):
    """The 16-bit value of action `a`: an item, a number entered or rolled."""
    return a & _VALUE_MASK
