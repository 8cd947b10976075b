"""Dicefull (ダイスフル): the rules core.

Player-readable rules: docs/rules/dicefull.md.  Specification: RULES.md
section 3 (rulings R6-R9) and original 002.  Face tables and the challenge set
are data, in dicefull_data.py; this module holds the rules that read them.

Dicefull takes no tricks: players pick dice from the centre, a challenge card
is revealed, everyone rolls all their dice, and whoever meets the challenge
gains its victory points.  So the per-play calls are:
    is_legal / legal_plays   may this player pick this die or pass now
    evaluate                 one player's best result for one challenge
and, also per play, picking_over and next_picker.

Item layout (16 bits, one array('H') slot):

    bits 10-15  serial: which physical die of its kind (0-63)
    bits  5-9   kind:   D4 .. DECIMAL (0-30; 31 is reserved for PASS)
    bits  0-4   face:   index into the kind's face table (0-31)

A die in hand or in the centre has face 0 and means the die itself.  A roll
is a buffer of *results*: the die's item with the rolled face index set, one
result per die, two for the double die (both with its kind and serial).

Values: every number is an int in tenths (R7), so 0.5 on the decimal die is 5
and a 3 is 30.  A face code from SYMBOL up (blank, ±, colour) is no number.

The ± die (R9): each result showing + or - lets its player replace two of
their numbers a and b by one number: a + b for +, a - b or b - a for -.  Each
number is used at most once (no chains: an operand is a die's number, never
an earlier sum), and using a sign is optional.  Every test looks at the numbers
that remain; evaluate() returns the best over every such choice.

Tracking passes and the first passer, prompting turns, entering or rolling
results, the challenge deck, victory point totals and the journal belong to
the match engine.
"""

from array import array

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
MAX_RESULTS = const(16)  # results evaluate() takes: 6 double dice give 12
NO_SCORE = const(-1000000)  # comparison score of a player with no number

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
        total += KINDS[kind_of(hand[i])][_ROW_RESULTS]
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
    return held >= pick_limit(players)


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
    if centre_count == 0:
        return True
    return _first_picking(0, held, passed, players) == NOBODY


def next_picker(seat, held, passed, players, centre_count):
    """The next seat clockwise after `seat` (itself last) still picking, or NOBODY."""
    if centre_count == 0:  # R6
        return NOBODY
    return _first_picking(seat + 1, held, passed, players)


def _first_picking(first, held, passed, players):
    """The first seat clockwise from seat `first` not done picking, or NOBODY."""
    step = 0
    while step < players:
        seat = (first + step) % players
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


# --- Evaluating a roll against a challenge ------------------------------------------

# One roll under evaluation.  Module buffers, so that evaluate() allocates nothing.
_num = array("i", [0] * MAX_RESULTS)  # the roll's numbers, in tenths (R7), for _search
_used = bytearray(MAX_RESULTS)  # _num[i] is an operand of a ± sign (all clear
# between searches: _pairs clears what it sets)
_combo = array("i", [0] * MAX_RESULTS)  # numbers made by ± signs so far
_work = array("i", [0] * MAX_RESULTS)  # the numbers read, then those one choice leaves
_first = bytearray(MAX_RESULTS)  # per sign: the first number of its pair
_ctx = array("i", [0] * 8)  # the evaluation's ints, below
_TEST = const(0)
_K = const(1)
_V = const(2)
_SYMBOLS = const(3)  # results showing v, when v is a symbol or NO_VALUE/ANY_COLOUR
_NUMBERS = const(4)  # numbers in _num
_PLUSES = const(5)  # + signs; signs 0.._PLUSES-1 are +, the rest -
_SIGNS = const(6)
_ENOUGH = const(7)  # a score this high ends the search (1 for threshold tests)


def is_comparison(test):
    """True for a test met by the best player(s) rather than by a threshold."""
    return test <= CLOSEST_TOTAL


def evaluate(results, n, test, k, v):
    """The best result of the roll `results` (n results) for test (k, v), R9.

    Threshold test: 1 if the player can meet it, else 0.  Comparison test:
    the player's score for it, higher is better (the total, minus the total,
    the highest number, minus the lowest number, minus the distance to k), or
    NO_SCORE for a player with no number.
    """
    if n == 0:  # a player without dice meets nothing and has no number
        return NO_SCORE if is_comparison(test) else 0
    _read_roll(results, n, v)
    if not _ctx[_SIGNS]:
        # Most rolls show no sign: their numbers, as read, are the only choice.
        return _score(test, k, v, _ctx[_NUMBERS])
    _ctx[_TEST] = test
    _ctx[_K] = k
    _ctx[_V] = v
    _ctx[_ENOUGH] = -NO_SCORE if is_comparison(test) else 1
    _copy(_work, _ctx[_NUMBERS], _num)  # _search reads them from _num
    return _search(0, 0)


def evaluate_row(results, n, challenge):
    """evaluate() for a CHALLENGES row (family, test, k, v, vp)."""
    return evaluate(results, n, challenge[TEST], challenge[K], challenge[V])


def _read_roll(results, n, v):
    """The roll's numbers into _work, _ctx[_NUMBERS] of them; its signs and
    the faces showing symbol `v` counted in _ctx.  The + signs are counted
    apart so that _search can take them first."""
    _ctx[_PLUSES] = 0
    _ctx[_SIGNS] = 0
    _ctx[_SYMBOLS] = 0
    m = 0
    i = 0
    while i < n:
        # face(), spelled out: this loop is most of a roll's evaluation.
        code = results[i]
        code = KINDS[(code >> _KIND_SHIFT) & _KIND_MASK][_ROW_FACES][code & _FACE_MASK]
        if code < SYMBOL:
            _work[m] = code
            m += 1
        else:
            _add_symbol(code, v)
        i += 1
    _ctx[_NUMBERS] = m


def _add_symbol(code, v):
    """Count a face with no number: a sign, and whether it shows `v` for the
    COUNT tests (any such face for NO_VALUE, a colour for ANY_COLOUR, which
    no face is, else the face `v` itself)."""
    if code == PLUS:
        _ctx[_PLUSES] += 1
        _ctx[_SIGNS] += 1
    elif code == MINUS:
        _ctx[_SIGNS] += 1
    if v == NO_VALUE or code == v or (v == ANY_COLOUR and is_colour(code)):
        _ctx[_SYMBOLS] += 1


# The search for the best use of the ± signs (R9).  Signs are numbered + first,
# then -.  Alike signs are interchangeable, so each set of pairs is tried once:
# a sign after an alike sign only takes a pair whose first number comes after
# that sign's, and once one is left unused the rest of its kind are too.
# _first[sign] is the first number of the sign's pair (NUMBERS if unused).


def _search(sign, made):
    """Best score using signs sign.., with `made` numbers already made by the
    earlier signs."""
    if sign == _ctx[_SIGNS]:
        return _leaf(made)
    _first[sign] = _ctx[_NUMBERS]
    best = _search(sign + 1, made)
    i = _start(sign)
    while i < _ctx[_NUMBERS] and best < _ctx[_ENOUGH]:
        if not _used[i]:
            _first[sign] = i
            best = _better(best, _pairs(sign, made, i))
        i += 1
    return best


def _start(sign):
    """The first number `sign` may take as the first of its pair."""
    if sign == 0 or (sign < _ctx[_PLUSES]) != (sign - 1 < _ctx[_PLUSES]):
        return 0
    return _first[sign - 1] + 1


def _pairs(sign, made, i):
    """Best score with `sign` joining number i to each later unused number."""
    best = NO_SCORE
    _used[i] = 1
    j = i + 1
    while j < _ctx[_NUMBERS] and best < _ctx[_ENOUGH]:
        if not _used[j]:
            _used[j] = 1
            best = _better(best, _join(sign, made, j))
            _used[j] = 0
        j += 1
    _used[i] = 0
    return best


def _join(sign, made, j):
    """Best score with `sign` joining its first number a and number j, b:
    a + b for +, the better of a - b and b - a for -."""
    if sign < _ctx[_PLUSES]:
        _combo[made] = _num[_first[sign]] + _num[j]
        return _search(sign + 1, made + 1)
    _combo[made] = _num[_first[sign]] - _num[j]
    best = _search(sign + 1, made + 1)
    _combo[made] = -_combo[made]
    return _better(best, _search(sign + 1, made + 1))


def _better(x, y):
    """The larger of two ints (max() of two, spelled out)."""
    if x > y:
        return x
    return y


def _leaf(made):
    """Score the numbers left by one choice of ± signs: the unused numbers of
    the roll, then the numbers the signs made."""
    d = 0
    i = 0
    while i < _ctx[_NUMBERS]:
        if not _used[i]:
            _work[d] = _num[i]
            d += 1
        i += 1
    i = 0
    while i < made:
        _work[d] = _combo[i]
        d += 1
        i += 1
    return _score(_ctx[_TEST], _ctx[_K], _ctx[_V], d)


def _score(test, k, v, d):
    """Score of the d numbers in _work for one test: one branch per test, the
    threshold tests' in _holds."""
    if test == COUNT_AT_LEAST:
        return 1 if _count(v, d) >= k else 0
    if test == COUNT_EXACTLY:
        return 1 if _count(v, d) == k else 0
    if d == 0:
        # No number: no total, no highest or lowest (blank is never 0).
        return NO_SCORE if is_comparison(test) else 0
    if test > CLOSEST_TOTAL:  # a threshold test (not is_comparison)
        return 1 if _holds(test, k, v, d) else 0
    if test == MOST_TOTAL:
        return _total(d)
    if test == LEAST_TOTAL:
        return -_total(d)
    if test == MOST_SINGLE:
        return _highest(d)
    if test == LEAST_SINGLE:
        return -_lowest(d)
    return -abs(_total(d) - k)  # CLOSEST_TOTAL


def _holds(test, k, v, d):
    """Does the threshold test hold for the d numbers in _work (d >= 1)."""
    if test == HIGH_AT_LEAST:
        return _highest(d) >= k
    if test == LOW_AT_MOST:
        return _lowest(d) <= k
    if test == ALL_AT_LEAST:
        return d >= v and _lowest(d) >= k
    if test == ALL_AT_MOST:
        return d >= v and _highest(d) <= k
    if test == TOTAL_AT_LEAST:
        return _total(d) >= k
    if test == TOTAL_AT_MOST:
        return _total(d) <= k
    if test == TOTAL_EXACTLY:
        return _total(d) == k
    if test == TOTAL_MULTIPLE:
        return k > 0 and _total(d) % k == 0
    if test == SAME_AT_LEAST:
        return _most_alike(d) >= k
    if test == ALL_DIFFERENT:
        return d >= k and _most_alike(d) == 1
    return False


def _total(d):
    """Sum of the numbers."""
    total = 0
    i = 0
    while i < d:
        total += _work[i]
        i += 1
    return total


def _highest(d):
    """The highest number (d >= 1)."""
    best = _work[0]
    i = 1
    while i < d:
        if _work[i] > best:
            best = _work[i]
        i += 1
    return best


def _lowest(d):
    """The lowest number (d >= 1); blanks are not numbers, so never the lowest."""
    best = _work[0]
    i = 1
    while i < d:
        if _work[i] < best:
            best = _work[i]
        i += 1
    return best


def _most_alike(d):
    """How many numbers the most frequent number has (d >= 1)."""
    most = 0
    i = 0
    while i < d:
        most = _better(most, _occurrences(_work[i], d))
        i += 1
    return most


def _occurrences(x, d):
    """How many of the numbers equal x."""
    count = 0
    i = 0
    while i < d:
        if _work[i] == x:
            count += 1
        i += 1
    return count


def _count(v, d):
    """Results showing v: a number (after ± signs), ANY_NUMBER, or a symbol code."""
    if v < SYMBOL:
        return _occurrences(v, d)
    if v == ANY_NUMBER:
        return d
    return _ctx[_SYMBOLS]


# --- Scoring a round and the game ---------------------------------------------------


def met_by(rolls, counts, challenge):
    """Seats that meet `challenge` (a CHALLENGES row); rolls[s] holds counts[s] results.

    Threshold test: every seat that can meet it.  Comparison test: every seat
    with the best score (all of them on a tie); nobody if no seat has a number.
    """
    top = _top_score(rolls, counts, challenge)
    if top == NO_SCORE:
        return []
    return _seats_scoring(rolls, counts, challenge, top)


def _top_score(rolls, counts, challenge):
    """The score that meets the challenge: 1 for a threshold test, the best
    seat's score for a comparison."""
    if not is_comparison(challenge[TEST]):
        return 1
    top = NO_SCORE
    seat = 0
    while seat < len(rolls):
        top = _better(top, evaluate_row(rolls[seat], counts[seat], challenge))
        seat += 1
    return top


def _seats_scoring(rolls, counts, challenge, top):
    seats = []
    seat = 0
    while seat < len(rolls):
        if evaluate_row(rolls[seat], counts[seat], challenge) == top:
            seats.append(seat)
        seat += 1
    return seats


def award(rolls, counts, challenge):
    """Victory points each seat gains this round: the challenge's VP to each seat
    that meets it, 0 to the others."""
    gained = [0] * len(rolls)
    for seat in met_by(rolls, counts, challenge):
        gained[seat] = challenge[VP]
    return gained


def leaders(totals):
    """Seats with the most victory points; more than one means a roll-off."""
    top = max(totals)
    return [seat for seat in range(len(totals)) if totals[seat] == top]


def roll_off(seats, values):
    """Table's default roll-off: each tied seat rolls a d6 (values[i] for seats[i]);
    the highest wins.  Returns the seats still tied at the top: one seat is the
    winner, several roll again."""
    top = max(values)
    return [seats[i] for i in range(len(seats)) if values[i] == top]
