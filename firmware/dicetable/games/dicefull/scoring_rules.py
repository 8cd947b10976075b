"""Dicefull (ダイスフル): the rules core's scoring (layer 4).

Player-readable rules: docs/rules/dicefull.md.  Specification: RULES.md
section 3 (rulings R7, R9) and original 002.  The rules core is two modules,
split where the game is: rules.py the dice and the pick phase, this one how
a round's rolls are scored once they are in (who meets the challenge, the
victory points it gives) and, at the game's end, the leaders and their
roll-off.  A pick never reaches this module; only a round's last result does.

That call, met_by (evaluate() for one roll, by the same steps), reaches the
deepest frames of a play on the board's C stack: the functions below keep to
small frames and no recursion (tests/test_board_frames.py,
tests/test_game_stack.py), and their buffers are the module's, so that
scoring allocates nothing.

The ± die (R9): each result showing + or - lets its player replace two of
their numbers a and b by one number: a + b for +, a - b or b - a for -.  Each
number is used at most once (no chains: an operand is a die's number, never
an earlier sum), and using a sign is optional.  Every test looks at the numbers
that remain; evaluate() returns the best over every such choice.

A roll is a buffer of results in rules.py's item layout; values are ints in
tenths (R7), a face code from SYMBOL up no number (data.py).
"""

from array import array

from micropython import const

from dicetable.games.dicefull.data import KINDS

NO_SCORE = const(-1000000)  # comparison score of a player with no number

# The figures this module reads of rules.py and data.py, copied as constants
# of its own: a constant is inlined, where each imported name would be a
# global of this module on the board's heap and a lookup in the loops below.
# tests/test_dicefull_properties.py checks that they are still theirs.
_MAX_PLAYERS = const(5)  # MAX_PLAYERS
_MAX_RESULTS = const(16)  # MAX_RESULTS: the results a roll holds
_FACE_MASK = const(0x1F)  # the item layout, read inline by _read_roll
_KIND_SHIFT = const(5)
_KIND_MASK = const(0x1F)
_ROW_FACES = const(1)  # a KINDS row's face table
_SYMBOL = const(10000)  # data.py's face codes
_PLUS = const(10001)
_MINUS = const(10002)
_COLOUR = const(10100)
_COLOUR_LAST = const(10199)
_ANY_NUMBER = const(10200)
_ANY_COLOUR = const(10201)
_NO_VALUE = const(10202)
_MOST_TOTAL = const(0)  # its tests
_LEAST_TOTAL = const(1)
_MOST_SINGLE = const(2)
_LEAST_SINGLE = const(3)
_CLOSEST_TOTAL = const(4)
_HIGH_AT_LEAST = const(5)
_LOW_AT_MOST = const(6)
_TOTAL_AT_LEAST = const(9)
_TOTAL_AT_MOST = const(10)
_TOTAL_EXACTLY = const(11)
_SAME_AT_LEAST = const(13)
_COUNT_AT_LEAST = const(15)
_CHALLENGE_TEST = const(1)  # the fields of its challenge rows: TEST, K, V, VP
_CHALLENGE_K = const(2)
_CHALLENGE_V = const(3)
_CHALLENGE_VP = const(4)


# --- Evaluating a roll against a challenge ------------------------------------------

# One roll under evaluation: module buffers, so that evaluate() allocates
# nothing, and the ± search's whole state (below) in them, so that it needs
# no recursion (on the board every level of one is a frame on the C stack,
# and a roll may show a sign per result).
_work = array("i", [0] * _MAX_RESULTS)  # the numbers read, then those one choice leaves
_num = array("i", [0] * _MAX_RESULTS)  # the roll's numbers, in tenths (R7), while searched
_used = bytearray(_MAX_RESULTS)  # _num[i] is an operand of a sign's pair
_first = bytearray(_MAX_RESULTS)  # per sign: the first number of its pair, NUMBERS if unused
_second = bytearray(_MAX_RESULTS)  # per sign: the second number of its pair
_turned = bytearray(_MAX_RESULTS)  # per - sign: its pair is taken b - a, not a - b
_made = array("i", [0] * _MAX_RESULTS)  # per sign: the number its pair makes
_ctx = array("i", [0] * 9)  # the evaluation's ints, below
_TEST = const(0)
_K = const(1)
_V = const(2)
_SYMBOLS = const(3)  # results showing v, when v is a symbol or NO_VALUE/ANY_COLOUR
_NUMBERS = const(4)  # numbers read into _work
_PLUSES = const(5)  # + signs; signs 0.._PLUSES-1 are +, the rest -
_SIGNS = const(6)
_ENOUGH = const(7)  # a score this high ends the search (1 for threshold tests)
_NONE = const(8)  # the score of no number: NO_SCORE, or 0 for a threshold test


def is_comparison(test):
    """True for a test met by the best player(s) rather than by a threshold."""
    return test <= _CLOSEST_TOTAL


def evaluate(results, n, test, k, v):
    """The best result of the roll `results` (n results) for test (k, v), R9.

    Threshold test: 1 if the player can meet it, else 0.  Comparison test:
    the player's score for it, higher is better (the total, minus the total,
    the highest number, minus the lowest number, minus the distance to k), or
    NO_SCORE for a player with no number.
    """
    if n == 0:  # a player without dice meets nothing and has no number
        return NO_SCORE if is_comparison(test) else 0
    _set_test(test, k, v)
    _read_roll(results, n)
    return _best()


def _set_test(test, k, v):
    """The test the next rolls are evaluated for, into _ctx."""
    _ctx[_TEST] = test
    _ctx[_K] = k
    _ctx[_V] = v
    if test <= _CLOSEST_TOTAL:  # is_comparison(test), spelled out: a frame less
        _ctx[_ENOUGH] = -NO_SCORE
        _ctx[_NONE] = NO_SCORE
    else:
        _ctx[_ENOUGH] = 1
        _ctx[_NONE] = 0


def _read_roll(results, n):
    """The roll's numbers into _work, _ctx[_NUMBERS] of them; its signs and
    the faces showing the test's symbol v counted in _ctx.  The + signs are
    counted apart so that the search can take them first."""
    _ctx[_PLUSES] = 0
    _ctx[_SIGNS] = 0
    _ctx[_SYMBOLS] = 0
    m = 0
    i = 0
    while i < n:
        # rules.face(), spelled out: this loop is most of a roll's evaluation.
        code = results[i]
        code = KINDS[(code >> _KIND_SHIFT) & _KIND_MASK][_ROW_FACES][code & _FACE_MASK]
        if code < _SYMBOL:
            _work[m] = code
            m += 1
        else:
            _add_symbol(code)
        i += 1
    _ctx[_NUMBERS] = m


def _add_symbol(code):
    """Count a face with no number: a sign, and whether it shows the test's
    v for the COUNT tests (any such face for NO_VALUE, a colour for
    ANY_COLOUR, which no face is, else the face v itself)."""
    if code == _PLUS:
        _ctx[_PLUSES] += 1
        _ctx[_SIGNS] += 1
    elif code == _MINUS:
        _ctx[_SIGNS] += 1
    v = _ctx[_V]
    # (rules.is_colour(code), spelled out: one call less below a round's scoring)
    if v == _NO_VALUE or code == v or (v == _ANY_COLOUR and _COLOUR <= code <= _COLOUR_LAST):
        _ctx[_SYMBOLS] += 1


# The search for the best use of the ± signs (R9), as a loop over explicit
# state rather than a recursion.  Signs are numbered + first, then -.  Each
# sign's choice is "unused" or a pair of numbers (_first, _second, and for a
# - sign which way round: _turned), and the number the pair makes (_made).
# The choices are tried in the order a recursion over the signs would try
# them, the last sign's changing fastest, like an odometer: _next_choice()
# moves one sign on, and _best() moves on the last sign that has a choice
# left, the signs after it starting again unused.  Alike signs are
# interchangeable, so each set of pairs is tried once: a sign after an alike
# sign only takes a pair whose first number comes after that sign's, and
# none while that sign is unused.


def _best():
    """The best score of the roll read (_read_roll) for the test in _ctx:
    over every use of its ± signs, each sign used or not (R9)."""
    n = _ctx[_NUMBERS]
    last = _ctx[_SIGNS] - 1
    score_of = _SCORERS[_ctx[_TEST]]
    if last < 0:
        # Most rolls show no sign: their numbers, as read, are the only choice.
        return score_of(n)
    i = 0
    while i < n:  # _work is rewritten by every choice: the numbers kept apart
        _num[i] = _work[i]
        _used[i] = 0
        i += 1
    sign = 0
    while sign <= last:  # the first choice: no sign used
        _first[sign] = n
        sign += 1
    best = NO_SCORE
    while best < _ctx[_ENOUGH]:
        score = score_of(_numbers_left(n))
        if score > best:
            best = score
        sign = last
        while sign >= 0 and not _next_choice(sign):
            sign -= 1
        if sign < 0:
            break  # every choice tried
    return best


def _next_choice(sign):
    """Move `sign` on to its next choice: True, or False when it had the
    last one (it is then unused again).  Its choices in order: unused, then
    each pair of numbers i < j that no earlier sign uses (i after the pair
    of an alike sign before it); a + sign's pair makes a + b, a - sign's
    a - b, then b - a."""
    n = _ctx[_NUMBERS]
    i = _first[sign]
    if i == n:
        # Unused so far: the first pair it may take.
        i = 0
        if sign > 0 and (sign < _ctx[_PLUSES]) == (sign - 1 < _ctx[_PLUSES]):
            i = _first[sign - 1] + 1  # n + 1 while that sign is unused: no pair
        j = i + 1
    else:
        j = _second[sign]
        if sign >= _ctx[_PLUSES] and not _turned[sign]:
            _turned[sign] = 1  # the same pair, b - a
            _made[sign] = -_made[sign]
            return True
        _used[i] = 0  # the pair given back: the next one from (i, j + 1)
        _used[j] = 0
        j += 1
    while i < n:
        if not _used[i]:
            while j < n:
                if not _used[j]:
                    _first[sign] = i
                    _second[sign] = j
                    _used[i] = 1
                    _used[j] = 1
                    _turned[sign] = 0
                    if sign < _ctx[_PLUSES]:
                        _made[sign] = _num[i] + _num[j]
                    else:
                        _made[sign] = _num[i] - _num[j]
                    return True
                j += 1
        i += 1
        j = i + 1
    _first[sign] = n
    return False


def _numbers_left(n):
    """The numbers the signs' choices leave, into _work: the roll's n
    numbers not used by a sign, then the numbers the used signs make.
    Returns how many."""
    d = 0
    i = 0
    while i < n:
        if not _used[i]:
            _work[d] = _num[i]
            d += 1
        i += 1
    i = 0
    while i < _ctx[_SIGNS]:
        if _first[i] != n:
            _work[d] = _made[i]
            d += 1
        i += 1
    return d


# What a test reads of the numbers one choice leaves: a scorer per kind of
# figure, each test's rule in the scorer of the figure it reads (one frame,
# with no call: on the board a scorer is the deepest frame of a round's
# scoring, and a helper would be one frame more on the C stack).  Each takes
# the d numbers in _work and returns 1 or 0 for a threshold test, the
# comparison score for a comparison test.


def _by_count(d):
    """COUNT_AT_LEAST, COUNT_EXACTLY: how many results show v, a number
    (after the ± signs), any number, or a face with no number (counted as
    the roll was read)."""
    v = _ctx[_V]
    if v < _SYMBOL:
        x = 0
        i = 0
        while i < d:
            if _work[i] == v:
                x += 1
            i += 1
    elif v == _ANY_NUMBER:
        x = d
    else:
        x = _ctx[_SYMBOLS]
    if _ctx[_TEST] == _COUNT_AT_LEAST:
        return 1 if x >= _ctx[_K] else 0
    return 1 if x == _ctx[_K] else 0  # COUNT_EXACTLY


def _by_alike(d):
    """SAME_AT_LEAST, ALL_DIFFERENT: how many numbers the most frequent
    number has."""
    if d == 0:
        return _ctx[_NONE]
    x = 0
    i = 0
    while i < d:
        count = 0
        j = 0
        while j < d:
            if _work[j] == _work[i]:
                count += 1
            j += 1
        if count > x:
            x = count
        i += 1
    if _ctx[_TEST] == _SAME_AT_LEAST:
        return 1 if x >= _ctx[_K] else 0
    return 1 if d >= _ctx[_K] and x == 1 else 0  # ALL_DIFFERENT


def _by_highest(d):
    """MOST_SINGLE, HIGH_AT_LEAST, ALL_AT_MOST: the highest number."""
    if d == 0:
        return _ctx[_NONE]
    x = _work[0]
    i = 1
    while i < d:
        if _work[i] > x:
            x = _work[i]
        i += 1
    test = _ctx[_TEST]
    if test == _MOST_SINGLE:
        return x
    if test == _HIGH_AT_LEAST:
        return 1 if x >= _ctx[_K] else 0
    return 1 if d >= _ctx[_V] and x <= _ctx[_K] else 0  # ALL_AT_MOST


def _by_lowest(d):
    """LEAST_SINGLE, LOW_AT_MOST, ALL_AT_LEAST: the lowest number (blanks
    are not numbers, so never the lowest)."""
    if d == 0:
        return _ctx[_NONE]
    x = _work[0]
    i = 1
    while i < d:
        if _work[i] < x:
            x = _work[i]
        i += 1
    test = _ctx[_TEST]
    if test == _LEAST_SINGLE:
        return -x
    if test == _LOW_AT_MOST:
        return 1 if x <= _ctx[_K] else 0
    return 1 if d >= _ctx[_V] and x >= _ctx[_K] else 0  # ALL_AT_LEAST


def _by_total(d):
    """MOST_TOTAL, LEAST_TOTAL, CLOSEST_TOTAL (minus the distance to k) and
    the TOTAL_ tests: the total."""
    if d == 0:
        return _ctx[_NONE]
    x = 0
    i = 0
    while i < d:
        x += _work[i]
        i += 1
    test = _ctx[_TEST]
    k = _ctx[_K]
    if test == _MOST_TOTAL:
        return x
    if test == _LEAST_TOTAL:
        return -x
    if test == _CLOSEST_TOTAL:
        return x - k if x < k else k - x
    if test == _TOTAL_AT_LEAST:
        return 1 if x >= k else 0
    if test == _TOTAL_AT_MOST:
        return 1 if x <= k else 0
    if test == _TOTAL_EXACTLY:
        return 1 if x == k else 0
    return 1 if k > 0 and x % k == 0 else 0  # TOTAL_MULTIPLE


# Each test's scorer, by test number (data.py's order).
_SCORERS = (
    _by_total,  # MOST_TOTAL
    _by_total,  # LEAST_TOTAL
    _by_highest,  # MOST_SINGLE
    _by_lowest,  # LEAST_SINGLE
    _by_total,  # CLOSEST_TOTAL
    _by_highest,  # HIGH_AT_LEAST
    _by_lowest,  # LOW_AT_MOST
    _by_lowest,  # ALL_AT_LEAST
    _by_highest,  # ALL_AT_MOST
    _by_total,  # TOTAL_AT_LEAST
    _by_total,  # TOTAL_AT_MOST
    _by_total,  # TOTAL_EXACTLY
    _by_total,  # TOTAL_MULTIPLE
    _by_alike,  # SAME_AT_LEAST
    _by_alike,  # ALL_DIFFERENT
    _by_count,  # COUNT_AT_LEAST
    _by_count,  # COUNT_EXACTLY
)


# --- Scoring a round and the game ---------------------------------------------------


def met_by(rolls, counts, challenge, seats=None):
    """Seats that meet `challenge` (a CHALLENGES row); rolls[s] holds counts[s] results.

    Threshold test: every seat that can meet it.  Comparison test: every seat
    with the best score (all of them on a tie); nobody if no seat has a number.
    Each seat's roll is evaluated once, by evaluate()'s steps: the match asks
    this when a round's last result is in, and on the board the evaluation
    then runs one frame below it, not two.  Appended to `seats` (an empty
    list: the match's own, its room kept) when given, else to a new list.
    """
    top = _set_challenge(challenge)  # the least score that meets it
    seat = 0
    while seat < len(rolls):
        if counts[seat]:  # a seat without dice meets nothing
            _read_roll(rolls[seat], counts[seat])
            score = _best()
            _scores[seat] = score
            if score > top:  # a comparison's better score: the seats before it miss
                top = score
        seat += 1
    return _scoring(counts, top, seats)


# met_by()'s score of each seat (a module buffer: scoring allocates nothing).
_scores = array("i", [0] * _MAX_PLAYERS)


def _scoring(counts, top, seats):
    """The seats with dice whose score in _scores is `top`, appended to
    `seats` (None: a new list)."""
    if seats is None:
        seats = []
    seat = 0
    while seat < len(counts):
        if counts[seat] and _scores[seat] == top:
            seats.append(seat)
        seat += 1
    return seats


def _set_challenge(challenge):
    """The challenge (a CHALLENGES row) the next rolls are evaluated for, into
    _ctx; returns the least score that meets it so far: 1 for a threshold
    test; in a comparison any number, never a seat with none (NO_SCORE)."""
    _set_test(challenge[_CHALLENGE_TEST], challenge[_CHALLENGE_K], challenge[_CHALLENGE_V])
    if is_comparison(challenge[_CHALLENGE_TEST]):
        return NO_SCORE + 1
    return 1


def award(rolls, counts, challenge):
    """Victory points each seat gains this round: the challenge's VP to each seat
    that meets it, 0 to the others."""
    return gains(met_by(rolls, counts, challenge), challenge, len(rolls))


def gains(seats, challenge, players, out=None):
    """award() for the `seats` known to meet `challenge` (met_by()), of
    `players`: into `out` (its first `players` entries written: the match's
    history row) when given, else a new list."""
    if out is None:
        out = [0] * players
    i = 0
    while i < players:
        out[i] = 0
        i += 1
    i = 0
    while i < len(seats):  # not `for`: its iterator would take the frame to 12 words
        out[seats[i]] = challenge[_CHALLENGE_VP]
        i += 1
    return out


def leaders(totals, seats=None):
    """Seats with the most victory points; more than one means a roll-off.
    Appended to `seats` (an empty list) when given, else to a new list."""
    top = max(totals)
    if seats is None:
        seats = []
    seat = 0
    while seat < len(totals):  # not a comprehension: that is a frame more on the board
        if totals[seat] == top:
            seats.append(seat)
        seat += 1
    return seats


def roll_off(seats, values, still=None):
    """Table's default roll-off: each tied seat rolls a d6 (values[i] for seats[i]);
    the highest wins.  Returns the seats still tied at the top: one seat is the
    winner, several roll again.  Appended to `still` (an empty list) when
    given, else to a new list."""
    top = max(values)
    if still is None:
        still = []
    i = 0
    while i < len(seats):
        if values[i] == top:
            still.append(seats[i])
        i += 1
    return still
