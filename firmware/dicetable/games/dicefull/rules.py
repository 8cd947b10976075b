"""Dicefull (ダイスフル): the rules core (layer 4): the dice and the pick phase.

Player-readable rules: docs/rules/dicefull.md.  Specification: RULES.md
section 3 (rulings R6-R9) and original 002.  Face tables and the challenge set
are data, in data.py; this module holds the rules that read the dice, and
scoring_rules.py those that score a round's rolls against its challenge (the
core is two modules so that each stays small enough to read).

Dicefull takes no tricks: players pick dice from the centre, a challenge card
is revealed, everyone rolls all their dice, and whoever meets the challenge
gains its victory points.  So the per-play calls here are:
    is_legal / legal_plays   may this player pick this die or pass now
    picking_over, next_picker
and, at a round's last result, scoring_rules.met_by.

Item layout (16 bits, one array('H') slot):

    bits 10-15  serial: which physical die of its kind (0-63)
    bits  5-9   kind:   D4 .. DECIMAL (0-30; 31 is reserved for PASS)
    bits  0-4   face:   index into the kind's face table (0-31)

A die in hand or in the centre has face 0 and means the die itself.  A roll
is a buffer of *results*: the die's item with the rolled face index set, one
result per die, two for the double die (both with its kind and serial).

Values: every number is an int in tenths (R7), so 0.5 on the decimal die is 5
and a 3 is 30.  A face code from SYMBOL up (blank, ±, colour) is no number.

Tracking passes and the first passer, prompting turns, entering or rolling
results, the challenge deck, victory point totals and the journal belong to
the match engine.
"""

from micropython import const

# The vocabulary and tables are data; re-exported so that callers need only
# this module (dicefull.D6, dicefull.CHALLENGES, ...).
from dicetable.games.dicefull.data import (
    ALL_AT_LEAST,
    ALL_AT_MOST,
    ALL_DIFFERENT,
    ANY_COLOUR,
    ANY_NUMBER,
    BLACK,
    BLANK,
    BLANK_D6,
    CHALLENGES,
    CLOSEST_TOTAL,
    COLOUR,
    COLOUR_LAST,
    COMPARE,
    COUNT_AT_LEAST,
    COUNT_EXACTLY,
    D4,
    D6,
    D6_PIPS,
    D8,
    D10,
    D12,
    D20,
    DECIMAL,
    DIGITAL,
    DOUBLE,
    DOUBLING,
    FACES,
    FAMILY,
    FAMILY_COUNT,
    HAKKE,
    HIGH_AT_LEAST,
    HIGH_LOW,
    KINDS,
    LEAST_SINGLE,
    LEAST_TOTAL,
    LOW_AT_MOST,
    MINUS,
    MOST_SINGLE,
    MOST_TOTAL,
    NO_VALUE,
    PLUS,
    PLUS_MINUS,
    RED,
    RED_BLACK,
    SAME_AT_LEAST,
    SPECIAL,
    SYMBOL,
    TEST,
    TEST_COUNT,
    TOTAL_AT_LEAST,
    TOTAL_AT_MOST,
    TOTAL_EXACTLY,
    TOTAL_MULTIPLE,
    TOTALS,
    VP,
    ZERO_TWO,
    K,
    V,
)

MIN_PLAYERS = const(2)
MAX_PLAYERS = const(5)
PICK_LIMIT = const(6)
PICK_LIMIT_FIVE = const(5)  # with five players
FIRST_GAME_CHALLENGES = const(6)
MAX_KINDS = const(31)
PASS = const(0xFFFF)  # the pass action (kind 31, never a die)
NOBODY = const(255)  # no seat (nobody passed; nobody picks)
MAX_RESULTS = const(16)  # results a roll holds (scoring_rules.evaluate): 6 double dice give 12

_FACE_MASK = const(0x1F)
_KIND_SHIFT = const(5)
_KIND_MASK = const(0x1F)
_SERIAL_SHIFT = const(10)

_ROW_RESULTS = const(0)
_ROW_FACES = const(1)


# --- Items --------------------------------------------------------------------


def die(kind, serial):
    """The die of `kind` with `serial` (0-63), as it lies in the centre or a hand."""
    return (serial << _SERIAL_SHIFT) | (kind << _KIND_SHIFT)


def rolled(item, index):
    """The result of die `item` showing face index `index` (0-based, table order)."""
    return ((item >> _KIND_SHIFT) << _KIND_SHIFT) | index


def kind_of(item):
    """The item's dice kind (D4 .. DECIMAL, or a user kind)."""
    return (item >> _KIND_SHIFT) & _KIND_MASK


def serial_of(item):
    """Which physical die of its kind the item is."""
    return item >> _SERIAL_SHIFT


def face_index(item):
    """The rolled face index of a result (0 for an unrolled die)."""
    return item & _FACE_MASK


def face(item):
    """The face code a result shows: a number in tenths, or a symbol code."""
    return KINDS[kind_of(item)][_ROW_FACES][item & _FACE_MASK]


def face_count(kind):
    """How many faces a die of `kind` has."""
    return len(KINDS[kind][_ROW_FACES])


def results_per_die(kind):
    """Results one die of `kind` gives when rolled: 2 for the double die, else 1."""
    return KINDS[kind][_ROW_RESULTS]


def result_count(hand, n):
    """Results the `n` dice of `hand` give when rolled (the roll buffer's length)."""
    total = 0
    for i in range(n):
        # (kind_of, spelled out: a frame less under the match's every roll)
        total += KINDS[(hand[i] >> _KIND_SHIFT) & _KIND_MASK][_ROW_RESULTS]
    return total


def set_faces(kind, faces):
    """Replace the face table of `kind` by the tuple `faces` (R8: tables are data)."""
    KINDS[kind] = (KINDS[kind][_ROW_RESULTS], faces)


def is_number(code):
    """True for a face code that is a number; blank, symbol and colour are not."""
    return code < SYMBOL


def is_colour(code):
    """True for a colour face (RED, BLACK, or a user colour)."""
    return COLOUR <= code <= COLOUR_LAST


# --- Pick phase -----------------------------------------------------------------


def pick_limit(players):
    """Most dice one player may pick: 6, or 5 with five players."""
    if players == 5:
        return PICK_LIMIT_FIVE
    return PICK_LIMIT


def is_done(held, passed, players):
    """A player's picking is over once they passed or reached the pick limit.

    A player at the limit takes no more turns, so cannot pass either: the
    first-passer marker goes only to a player who stopped by choice.
    """
    if passed:
        return True
    # pick_limit(players), spelled out: is_done runs for every seat at every
    # pick, at the bottom of the play's chain of calls on the board.
    return held >= (PICK_LIMIT_FIVE if players == 5 else PICK_LIMIT)


def may_pass(held):
    """Only a player holding at least one die may pass: never before a first pick.
    (A pass is hard: that player picks no more this round, see is_done.)"""
    return held >= 1


# The per-play calls below keep to small frames (at most 11 words, so that the
# board keeps them on the C stack): few locals, helpers of three arguments.


def is_legal(hand, n, centre, c, action, passed, players):
    """May the player holding `n` dice (`hand`) take `action` now.

    `action` is a die item from the `c` dice in `centre`, or PASS.  `passed`
    says whether this player has passed this round.
    """
    if c == 0 or is_done(n, passed, players):  # R6: an empty centre ends picking
        return False
    if action == PASS:
        return may_pass(n)
    return _in_centre(centre, c, action)


def _in_centre(centre, c, item):
    """Is `item` among the `c` dice of `centre`."""
    i = 0
    while i < c:
        if centre[i] == item:
            return True
        i += 1
    return False


def legal_plays(hand, n, centre, c, out, passed, players):
    """Write every legal action into `out` (centre dice, then PASS); return the count."""
    if c == 0 or is_done(n, passed, players):  # R6: an empty centre ends picking
        return 0
    _copy(centre, c, out)
    if not may_pass(n):
        return c
    out[c] = PASS
    return c + 1


def _copy(source, count, out):
    """out[0:count] = source[0:count], without a slice."""
    i = 0
    while i < count:
        out[i] = source[i]
        i += 1


def picking_over(held, passed, players, centre_count):
    """Picking ends when every player is done (passed or at the limit), or R6
    when the centre is empty.  `held` and `passed` are per-seat sequences."""
    # Nobody picks next, going round from seat 0 (the one after the last seat).
    return next_picker(players - 1, held, passed, players, centre_count) == NOBODY


def next_picker(seat, held, passed, players, centre_count):
    """The next seat clockwise after `seat` (itself last) still picking, or
    NOBODY: exactly when picking_over()."""
    if centre_count == 0:  # R6
        return NOBODY
    step = 0
    while step < players:
        seat = (seat + 1) % players  # `seat` goes on round: the seat looked at
        if not is_done(held[seat], passed[seat], players):
            return seat
        step += 1
    return NOBODY


def next_start(first_passer, start):
    """Next round's start player: the first to pass; R6 if nobody passed
    (first_passer is NOBODY), the start player stays."""
    if first_passer == NOBODY:
        return start
    return first_passer


def challenge_count(first_game, two_d6_total):
    """Challenges (rounds) in a game: 6 for a first game, else the 2d6 total."""
    if first_game:
        return FIRST_GAME_CHALLENGES
    return two_d6_total
