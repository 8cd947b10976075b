"""Conformance cases for Dicefull (RULES.md section 3, original 002).

Numbers are in tenths (R7): 30 is a 3, 5 is 0.5.  A roll is written as a list
of (kind, face code) pairs, one per result (a double die gives two).  The
original has no worked examples; cases named "orig ..." pin its explicit
statements.  Expected values are worked out by hand from the rules.
"""

from array import array

from dicetable.games.dicefull.rules import (
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
    KINDS,
    LEAST_SINGLE,
    LEAST_TOTAL,
    LOW_AT_MOST,
    MINUS,
    MOST_SINGLE,
    MOST_TOTAL,
    NO_VALUE,
    NOBODY,
    PASS,
    PLUS,
    PLUS_MINUS,
    RED,
    RED_BLACK,
    SAME_AT_LEAST,
    TEST,
    TEST_COUNT,
    TOTAL_AT_LEAST,
    TOTAL_AT_MOST,
    TOTAL_EXACTLY,
    TOTAL_MULTIPLE,
    VP,
    ZERO_TWO,
    K,
    challenge_count,
    die,
    face,
    face_index,
    is_colour,
    is_legal,
    is_number,
    kind_of,
    legal_plays,
    next_picker,
    next_start,
    pick_limit,
    picking_over,
    result_count,
    results_per_die,
    rolled,
    serial_of,
    set_faces,
)
from dicetable.games.dicefull.scoring_rules import (
    NO_SCORE,
    award,
    evaluate,
    leaders,
    met_by,
    roll_off,
)

PM = PLUS_MINUS


# --- Helpers: build items from text-free specs ------------------------------------


def _index(kind, code):
    faces = KINDS[kind][1]
    for i in range(len(faces)):
        if faces[i] == code:
            return i
    raise ValueError("no such face")


def _roll(specs):
    """Result items for (kind, face code) pairs; serial = position."""
    out = array("H", [0] * len(specs))
    for i in range(len(specs)):
        kind, code = specs[i]
        out[i] = rolled(die(kind, i), _index(kind, code))
    return out


def _eval(specs, test, k, v):
    return evaluate(_roll(specs), len(specs), test, k, v)


def _met(seats, test, k, v):
    """Seats meeting a challenge (test, k, v) with the given per-seat rolls."""
    rolls = [_roll(s) for s in seats]
    return met_by(rolls, [len(s) for s in seats], (FACES, test, k, v, 1))


def _award(seats, challenge):
    return award([_roll(s) for s in seats], [len(s) for s in seats], challenge)


def _codes(kind):
    """Face codes of every face of `kind`, read through rolled results."""
    return [face(rolled(die(kind, 0), i)) for i in range(len(KINDS[kind][1]))]


def _fields(item):
    return (kind_of(item), serial_of(item), face_index(item), face(item))


def _hand(kinds):
    return array("H", [die(kinds[i], i) for i in range(len(kinds))])


CENTRE = [die(D6, 0), die(D8, 0), die(DOUBLE, 0), die(PLUS_MINUS, 0), die(DECIMAL, 0)]


def _legal(n, centre, action, passed, players):
    hand = _hand([D6] * n)
    return is_legal(hand, n, array("H", centre), len(centre), action, passed, players)


def _legal_hand(kinds, action, players):
    hand = _hand(kinds)
    return is_legal(hand, len(kinds), array("H", CENTRE), len(CENTRE), action, 0, players)


def _plays(n, centre, passed, players):
    out = array("H", [0] * 16)
    count = legal_plays(_hand([D4] * n), n, array("H", centre), len(centre), out, passed, players)
    return [out[i] for i in range(count)]


def _round(players, start, centre_size, script):
    """Play a pick phase: script[i] is 1 (pick the last centre die) or 0 (pass)
    for the i-th turn.  Returns (dice held per seat, next round's start player),
    or ("refused", turn) at the first illegal action."""
    centre = array("H", [die(D6, i) for i in range(centre_size)])
    c = centre_size
    held = bytearray(players)
    passed = bytearray(players)
    hands = [array("H", [0] * 6) for _ in range(players)]
    first_passer = NOBODY
    seat = start
    for turn in range(len(script)):
        action = centre[c - 1] if script[turn] else PASS
        if not is_legal(hands[seat], held[seat], centre, c, action, passed[seat], players):
            return ("refused", turn)
        if action == PASS:
            passed[seat] = 1
            if first_passer == NOBODY:
                first_passer = seat
        else:
            hands[seat][held[seat]] = action
            held[seat] += 1
            c -= 1
        if picking_over(held, passed, players, c):
            return (list(held), next_start(first_passer, start))
        seat = next_picker(seat, held, passed, players, c)
    return ("unfinished", len(script))


def _set_hakke_and_read(faces):
    """R8: swap the 八卦 table, read face index 1 before and after, restore."""
    result = rolled(die(HAKKE, 0), 1)
    before = face(result)
    saved = KINDS[HAKKE][1]
    set_faces(HAKKE, faces)
    after = face(result)
    met = _eval([(HAKKE, faces[1])], HIGH_AT_LEAST, faces[1], 0)
    set_faces(HAKKE, saved)
    return (before, after, met, face(result))


def _family_counts():
    counts = [0] * FAMILY_COUNT
    for ch in CHALLENGES:
        counts[ch[FAMILY]] += 1
    return counts


def _well_formed():
    for ch in CHALLENGES:
        if not (0 <= ch[FAMILY] < FAMILY_COUNT and 0 <= ch[TEST] < TEST_COUNT):
            return False
        if ch[VP] < 1 or (ch[TEST] == TOTAL_MULTIPLE and ch[K] <= 0):
            return False
    return True


def _list(fn, values):
    return [fn(x) for x in values]


# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("is_legal", "legal_plays", "evaluate", "picking_over", "next_picker")

CASES = [
    # --- Items: bit layout -------------------------------------------------------
    ("item die(D20, serial 5) is 5312", die, (D20, 5), 5312),
    ("item d20 serial 5 rolled face index 19 is 5331", rolled, (5312, 19), 5331),
    ("item fields of 5331: d20, serial 5, index 19, shows 20", _fields, (5331,), (D20, 5, 19, 200)),
    (
        "item largest (kind 30, serial 63, face 31) fits 16 bits below PASS",
        rolled,
        (die(30, 63), 31),
        65503,
    ),
    ("item PASS is kind 31, which no die has", kind_of, (PASS,), 31),
    # --- Face tables (R7, R8) ------------------------------------------------------
    ("orig d4 shows 1-4", _codes, (D4,), [10, 20, 30, 40]),
    ("orig d6 digits show 1-6", _codes, (D6,), [10, 20, 30, 40, 50, 60]),
    ("orig d6 pips read as 1-6", _codes, (D6_PIPS,), [10, 20, 30, 40, 50, 60]),
    ("orig d8 shows 1-8", _codes, (D8,), [10, 20, 30, 40, 50, 60, 70, 80]),
    ("orig d10 shows 0-9", _codes, (D10,), [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]),
    ("orig d12 shows 1-12", _codes, (D12,), [10 * i for i in range(1, 13)]),
    ("orig d20 shows 1-20", _codes, (D20,), [10 * i for i in range(1, 21)]),
    ("orig blank d6 shows no number", _codes, (BLANK_D6,), [BLANK] * 6),
    ("orig 0-2 die shows 0,0,1,1,2,2", _codes, (ZERO_TWO,), [0, 0, 10, 10, 20, 20]),
    ("orig doubling cube shows 2,4,8,16,32,64", _codes, (DOUBLING,), [20, 40, 80, 160, 320, 640]),
    (
        "orig ± die shows +,+,-,-,blank,blank",
        _codes,
        (PLUS_MINUS,),
        [PLUS, PLUS, MINUS, MINUS, BLANK, BLANK],
    ),
    (
        "orig red/black die shows 3 red, 3 black",
        _codes,
        (RED_BLACK,),
        [RED, RED, RED, BLACK, BLACK, BLACK],
    ),
    ("R8 八卦 die default faces 3,4,4,5,5,6", _codes, (HAKKE,), [30, 40, 40, 50, 50, 60]),
    ("orig digital-number d6 reads as 1-6", _codes, (DIGITAL,), [10, 20, 30, 40, 50, 60]),
    ("orig double die shows 1-6", _codes, (DOUBLE,), [10, 20, 30, 40, 50, 60]),
    (
        "R7 decimal d10 0.0-0.9 held as tenths 0-9",
        _codes,
        (DECIMAL,),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ),
    (
        "orig double die gives two results, every other kind one",
        _list,
        (results_per_die, range(16)),
        [1] * 14 + [2, 1],
    ),
    (
        "orig double die: one pick, two d6 results when rolled",
        result_count,
        (_hand([DOUBLE, D6, D8]), 3),
        4,
    ),
    (
        "R8 a changed face table is used at once, and restored",
        _set_hakke_and_read,
        ((30, 30, 30, 60, 60, 60),),
        (40, 30, 1, 40),
    ),
    (
        "orig blank, symbol and colour faces are no number",
        _list,
        (is_number, (BLANK, PLUS, MINUS, RED, BLACK, 0, 640, -5)),
        [False, False, False, False, False, True, True, True],
    ),
    (
        "orig red and black are colours",
        _list,
        (is_colour, (RED, BLACK, BLANK, 10)),
        [True, True, False, False],
    ),
    # --- Pick phase -----------------------------------------------------------------
    ("orig pick limit 6 with 2-4 players", _list, (pick_limit, (2, 3, 4)), [6, 6, 6]),
    ("orig pick limit 5 with five players", pick_limit, (5,), 5),
    ("orig first pick: no pass without a die", _legal, (0, CENTRE, PASS, 0, 4), False),
    ("orig first pick: any centre die", _legal, (0, CENTRE, CENTRE[2], 0, 4), True),
    ("pick: a die not in the centre is refused", _legal, (1, CENTRE, die(D20, 9), 0, 4), False),
    ("orig pass with one die held", _legal, (1, CENTRE, PASS, 0, 4), True),
    ("orig hard pass: no pick after passing", _legal, (1, CENTRE, CENTRE[0], 1, 4), False),
    ("orig hard pass: no second pass", _legal, (3, CENTRE, PASS, 1, 4), False),
    ("orig limit 6: the sixth pick", _legal, (5, CENTRE, CENTRE[0], 0, 4), True),
    ("orig limit 6: no seventh pick", _legal, (6, CENTRE, CENTRE[0], 0, 4), False),
    ("orig limit 5 with five players: the fifth pick", _legal, (4, CENTRE, CENTRE[0], 0, 5), True),
    ("orig limit 5 with five players: no sixth pick", _legal, (5, CENTRE, CENTRE[0], 0, 5), False),
    (
        "orig double die counts one for the pick limit",
        _legal_hand,
        ([DOUBLE, DOUBLE, DOUBLE, D6, D8], CENTRE[0], 4),
        True,
    ),
    (
        "pass: not at the limit (picking is over for that player)",
        _legal,
        (6, CENTRE, PASS, 0, 4),
        False,
    ),
    ("R6 empty centre: no pick", _legal, (2, [], CENTRE[0], 0, 4), False),
    ("R6 empty centre: no pass, picking is over", _legal, (2, [], PASS, 0, 4), False),
    ("legal plays: first pick is any centre die, no pass", _plays, (0, CENTRE, 0, 4), CENTRE),
    ("legal plays: centre dice, then PASS", _plays, (2, CENTRE, 0, 4), CENTRE + [65535]),
    ("legal plays: none after passing", _plays, (2, CENTRE, 1, 4), []),
    ("legal plays: none at the limit", _plays, (6, CENTRE, 0, 4), []),
    ("R6 legal plays: none from an empty centre", _plays, (2, [], 0, 4), []),
    (
        "orig picking ends when every player passed",
        picking_over,
        ([2, 1, 3], [1, 1, 1], 3, 10),
        True,
    ),
    (
        "picking goes on while a player may still pick",
        picking_over,
        ([2, 1, 3], [1, 0, 1], 3, 10),
        False,
    ),
    (
        "orig picking ends when every other player reached the limit",
        picking_over,
        ([6, 2, 6], [0, 1, 0], 3, 10),
        True,
    ),
    (
        "orig picking ends: five players, limit 5",
        picking_over,
        ([5, 5, 5, 5, 1], [0, 0, 0, 0, 1], 5, 10),
        True,
    ),
    ("R6 picking ends when the centre is empty", picking_over, ([1, 1, 0], [0, 0, 0], 3, 0), True),
    ("next picker: the next seat clockwise", next_picker, (0, [1, 1, 1], [0, 0, 0], 3, 10), 1),
    ("next picker: skips a seat that passed", next_picker, (0, [1, 1, 1], [0, 1, 0], 3, 10), 2),
    ("next picker: wraps round clockwise", next_picker, (2, [1, 1, 1], [0, 1, 0], 3, 10), 0),
    ("next picker: skips a seat at the limit", next_picker, (0, [6, 6, 2], [0, 0, 0], 3, 10), 2),
    (
        "next picker: the last one still picking goes again",
        next_picker,
        (1, [1, 3, 1], [1, 0, 1], 3, 10),
        1,
    ),
    (
        "next picker: nobody once all are done",
        next_picker,
        (1, [1, 3, 1], [1, 1, 1], 3, 10),
        NOBODY,
    ),
    (
        "R6 next picker: nobody from an empty centre",
        next_picker,
        (1, [1, 1, 1], [0, 0, 0], 3, 0),
        NOBODY,
    ),
    ("orig the first to pass starts the next round", next_start, (2, 0), 2),
    ("R6 nobody passed: the start player stays", next_start, (NOBODY, 1), 1),
    (
        "R6 round: the centre empties, nobody passed, start stays",
        _round,
        (3, 1, 4, [1, 1, 1, 1]),
        ([1, 2, 1], 1),
    ),
    (
        "orig round: the first passer gets the start marker",
        _round,
        (3, 0, 20, [1, 1, 1, 1, 0, 0, 0]),
        ([2, 1, 1], 1),
    ),
    (
        "orig round: ends when the one left reaches the limit",
        _round,
        (2, 0, 20, [1, 1, 0, 1, 1, 1, 1, 1]),
        ([1, 6], 0),
    ),
    (
        "R6 round: five players all reach 5, start stays",
        _round,
        (5, 2, 30, [1] * 25),
        ([5, 5, 5, 5, 5], 2),
    ),
    (
        "orig round: passing before the first pick is refused",
        _round,
        (3, 0, 20, [1, 0]),
        ("refused", 1),
    ),
    ("orig first game: 6 challenges", challenge_count, (True, 9), 6),
    (
        "orig later games: as many challenges as the 2d6 total",
        _list,
        (lambda t: challenge_count(False, t), (2, 7, 12)),
        [2, 7, 12],
    ),
    # --- No-value faces (original: important rule) ---------------------------------
    ("orig blank is not 0", _eval, ([(BLANK_D6, BLANK), (D6, 30)], LOW_AT_MOST, 0, 0), 0),
    ("orig the 0-2 die's 0 is a number", _eval, ([(ZERO_TWO, 0)], LOW_AT_MOST, 0, 0), 1),
    ("orig red does not count as 1", _eval, ([(RED_BLACK, RED)], COUNT_AT_LEAST, 1, 10), 0),
    (
        "orig blank faces only: no total",
        _eval,
        ([(BLANK_D6, BLANK), (BLANK_D6, BLANK)], TOTAL_AT_MOST, 50, 0),
        0,
    ),
    (
        "orig blank is never the lowest number",
        _met,
        ([[(BLANK_D6, BLANK), (D6, 50)], [(D6, 20)]], LEAST_SINGLE, 0, 0),
        [1],
    ),
    ("orig ± alone is like a blank", _eval, ([(D6, 50), (PM, PLUS)], HIGH_AT_LEAST, 60, 0), 0),
    ("orig ± alone leaves the number", _eval, ([(D6, 50), (PM, PLUS)], TOTAL_EXACTLY, 50, 0), 1),
    (
        "orig no × from a tilted +",
        _eval,
        ([(D6, 30), (D6, 40), (PM, PLUS)], COUNT_AT_LEAST, 1, 120),
        0,
    ),
    (
        "orig some picks cannot meet a challenge",
        _award,
        ([[(BLANK_D6, BLANK)], [(RED_BLACK, BLACK), (PM, MINUS)]], CHALLENGES[5]),
        [0, 0],
    ),
    # --- Threshold tests -------------------------------------------------------------
    ("high: a number of 15 or more", _eval, ([(D20, 150)], HIGH_AT_LEAST, 150, 0), 1),
    ("high: 14 is not 15 or more", _eval, ([(D20, 140), (D6, 60)], HIGH_AT_LEAST, 150, 0), 0),
    (
        "high: the doubling cube counts by its number",
        _eval,
        ([(DOUBLING, 160)], HIGH_AT_LEAST, 150, 0),
        1,
    ),
    ("low: 0.5 or less fails on 1", _eval, ([(D6, 10), (D20, 200)], LOW_AT_MOST, 5, 0), 0),
    (
        "all at least: 4,5,6 are all 4 or more",
        _eval,
        ([(D6, 40), (D6, 50), (D8, 60)], ALL_AT_LEAST, 40, 3),
        1,
    ),
    ("all at least: too few numbers", _eval, ([(D6, 40), (D6, 50)], ALL_AT_LEAST, 40, 3), 0),
    (
        "all at least: a 3 spoils it",
        _eval,
        ([(D6, 40), (D6, 50), (D8, 30)], ALL_AT_LEAST, 40, 3),
        0,
    ),
    (
        "all at least: a blank is not a number, so does not spoil it",
        _eval,
        ([(D6, 40), (D6, 50), (D8, 60), (BLANK_D6, BLANK)], ALL_AT_LEAST, 40, 3),
        1,
    ),
    (
        "all at most: 2,0,1 are all 2 or less",
        _eval,
        ([(ZERO_TWO, 20), (ZERO_TWO, 0), (D4, 10)], ALL_AT_MOST, 20, 3),
        1,
    ),
    (
        "all at most: a 3 spoils it",
        _eval,
        ([(ZERO_TWO, 20), (ZERO_TWO, 0), (D4, 30)], ALL_AT_MOST, 20, 3),
        0,
    ),
    ("total at least: 20 + 10 = 30", _eval, ([(D20, 200), (D12, 100)], TOTAL_AT_LEAST, 300, 0), 1),
    (
        "total at least: 19 + 10 = 29 is short",
        _eval,
        ([(D20, 190), (D12, 100)], TOTAL_AT_LEAST, 300, 0),
        0,
    ),
    ("total at most: 2 + 3 = 5", _eval, ([(D6, 20), (D6, 30)], TOTAL_AT_MOST, 50, 0), 1),
    ("total at most: 6 is over", _eval, ([(D6, 60)], TOTAL_AT_MOST, 50, 0), 0),
    ("total exactly: 15 + 6 = 21", _eval, ([(D20, 150), (D6, 60)], TOTAL_EXACTLY, 210, 0), 1),
    (
        "total exactly: 15 + 5 = 20 misses",
        _eval,
        ([(D20, 150), (D6, 50)], TOTAL_EXACTLY, 210, 0),
        0,
    ),
    ("total multiple: 4 + 6 = 10", _eval, ([(D6, 40), (D6, 60)], TOTAL_MULTIPLE, 100, 0), 1),
    (
        "total multiple: 10.5 is not",
        _eval,
        ([(D6, 40), (D6, 60), (DECIMAL, 5)], TOTAL_MULTIPLE, 100, 0),
        0,
    ),
    ("total multiple: 0 is a multiple of 10", _eval, ([(D10, 0)], TOTAL_MULTIPLE, 100, 0), 1),
    (
        "same: a 3 on a d6 and on a d8 make a pair",
        _eval,
        ([(D6, 30), (D8, 30)], SAME_AT_LEAST, 2, 0),
        1,
    ),
    ("same: 3 and 4 are no pair", _eval, ([(D6, 30), (D8, 40)], SAME_AT_LEAST, 2, 0), 0),
    (
        "same: double die 5,5 and 八卦 5 are three of a kind",
        _eval,
        ([(DOUBLE, 50), (DOUBLE, 50), (HAKKE, 50)], SAME_AT_LEAST, 3, 0),
        1,
    ),
    (
        "different: 1,2,3,4,5 all different",
        _eval,
        ([(D6, 10), (D6, 20), (D6, 30), (D6, 40), (D6, 50)], ALL_DIFFERENT, 5, 0),
        1,
    ),
    (
        "different: 1,2,3,4,4 repeats",
        _eval,
        ([(D6, 10), (D6, 20), (D6, 30), (D6, 40), (D8, 40)], ALL_DIFFERENT, 5, 0),
        0,
    ),
    (
        "different: only four numbers",
        _eval,
        ([(D6, 10), (D6, 20), (D6, 30), (D6, 40), (BLANK_D6, BLANK)], ALL_DIFFERENT, 5, 0),
        0,
    ),
    (
        "count: two 6s (d6 and digital)",
        _eval,
        ([(D6, 60), (DIGITAL, 60)], COUNT_AT_LEAST, 2, 60),
        1,
    ),
    ("count: one 6 is not two", _eval, ([(D6, 60), (D6, 50)], COUNT_AT_LEAST, 2, 60), 0),
    ("count: a 64", _eval, ([(DOUBLING, 640)], COUNT_AT_LEAST, 1, 640), 1),
    ("count: a red face", _eval, ([(RED_BLACK, RED)], COUNT_AT_LEAST, 1, RED), 1),
    ("count: a black face is not red", _eval, ([(RED_BLACK, BLACK)], COUNT_AT_LEAST, 1, RED), 0),
    (
        "count: a black face is a colour",
        _eval,
        ([(RED_BLACK, BLACK)], COUNT_AT_LEAST, 1, ANY_COLOUR),
        1,
    ),
    (
        "count: a ± blank face is a blank",
        _eval,
        ([(PM, BLANK), (D6, 20)], COUNT_EXACTLY, 1, BLANK),
        1,
    ),
    (
        "count: a ± sign and a colour are no-value faces",
        _eval,
        ([(PM, PLUS), (RED_BLACK, BLACK), (D6, 10)], COUNT_AT_LEAST, 2, NO_VALUE),
        1,
    ),
    (
        "count: the double die's results are two numbers",
        _eval,
        ([(DOUBLE, 10), (DOUBLE, 20), (D4, 40)], COUNT_AT_LEAST, 3, ANY_NUMBER),
        1,
    ),
    (
        "count: no number at all",
        _eval,
        ([(BLANK_D6, BLANK), (RED_BLACK, RED)], COUNT_EXACTLY, 0, ANY_NUMBER),
        1,
    ),
    (
        "count: one number spoils 'no number'",
        _eval,
        ([(BLANK_D6, BLANK), (D6, 10)], COUNT_EXACTLY, 0, ANY_NUMBER),
        0,
    ),
    ("a player without dice meets nothing", _eval, ([], COUNT_EXACTLY, 0, ANY_NUMBER), 0),
    # --- Comparison tests --------------------------------------------------------------
    (
        "compare: highest total, one winner",
        _met,
        ([[(D6, 60)], [(D20, 120)]], MOST_TOTAL, 0, 0),
        [1],
    ),
    (
        "compare: a tie for the highest total, all tied meet it",
        _met,
        ([[(D6, 60), (D6, 10)], [(D6, 30), (D6, 40)], [(D6, 20)]], MOST_TOTAL, 0, 0),
        [0, 1],
    ),
    (
        "compare: lowest total",
        _met,
        ([[(D6, 30), (D6, 30)], [(D8, 50)], [(D10, 90)]], LEAST_TOTAL, 0, 0),
        [1],
    ),
    (
        "compare: highest single number",
        _met,
        ([[(D20, 200), (D4, 40)], [(DOUBLING, 640)]], MOST_SINGLE, 0, 0),
        [1],
    ),
    (
        "compare: lowest single number",
        _met,
        ([[(D20, 200), (D4, 20)], [(D6, 30)]], LEAST_SINGLE, 0, 0),
        [0],
    ),
    (
        "compare: total closest to 21 (22 and 20 tie, 18 is further)",
        _met,
        ([[(D20, 180), (D4, 40)], [(D20, 200)], [(D12, 120), (D6, 60)]], CLOSEST_TOTAL, 210, 0),
        [0, 1],
    ),
    (
        "compare: no number cannot win, a 0 can",
        _met,
        ([[(BLANK_D6, BLANK)], [(ZERO_TWO, 0)]], MOST_TOTAL, 0, 0),
        [1],
    ),
    (
        "compare: nobody has a number, nobody meets it",
        _met,
        ([[(BLANK_D6, BLANK)], [(RED_BLACK, RED)]], MOST_TOTAL, 0, 0),
        [],
    ),
    (
        "compare: a player without dice cannot win the lowest total",
        _met,
        ([[], [(D6, 60)]], LEAST_TOTAL, 0, 0),
        [1],
    ),
    (
        "compare score: lowest total scores minus the total",
        _eval,
        ([(D6, 30), (D6, 30)], LEAST_TOTAL, 0, 0),
        -60,
    ),
    (
        "compare score: no number scores NO_SCORE",
        _eval,
        ([(BLANK_D6, BLANK)], MOST_SINGLE, 0, 0),
        NO_SCORE,
    ),
    # --- R7: one integer scale in tenths ---------------------------------------------
    (
        "R7 decimal 0.9 is below a d10's 1",
        _met,
        ([[(DECIMAL, 9)], [(D10, 10)]], LEAST_SINGLE, 0, 0),
        [0],
    ),
    (
        "R7 decimal 0.9 is above a d10's 0",
        _met,
        ([[(DECIMAL, 9)], [(D10, 0)]], LEAST_SINGLE, 0, 0),
        [1],
    ),
    ("R7 decimal 0.5 is a number of 0.5 or less", _eval, ([(DECIMAL, 5)], LOW_AT_MOST, 5, 0), 1),
    ("R7 3 + 0.7 totals exactly 3.7", _eval, ([(D6, 30), (DECIMAL, 7)], TOTAL_EXACTLY, 37, 0), 1),
    (
        "R7 decimal 0.0 and a d10's 0 are a pair",
        _eval,
        ([(DECIMAL, 0), (D10, 0)], SAME_AT_LEAST, 2, 0),
        1,
    ),
    (
        "R7 3 + 0.9 = 3.9 is below 4",
        _met,
        ([[(D6, 30), (DECIMAL, 9)], [(D4, 40)]], MOST_TOTAL, 0, 0),
        [1],
    ),
    # --- R9: the ± die, best result ----------------------------------------------------
    (
        "R9 minus makes a negative total: 2 - 5",
        _eval,
        ([(D6, 20), (D6, 50), (PM, MINUS)], TOTAL_AT_MOST, -1, 0),
        1,
    ),
    (
        "R9 a ± blank face makes nothing negative",
        _eval,
        ([(D6, 20), (D6, 50), (PM, BLANK)], TOTAL_AT_MOST, -1, 0),
        0,
    ),
    (
        "R9 best lowest total is 2 - 5 = -3 (score 30)",
        _eval,
        ([(D6, 50), (D6, 20), (PM, MINUS)], LEAST_TOTAL, 0, 0),
        30,
    ),
    (
        "R9 best highest total leaves the minus unused: 7",
        _eval,
        ([(D6, 50), (D6, 20), (PM, MINUS)], MOST_TOTAL, 0, 0),
        70,
    ),
    (
        "R9 plus makes a higher single: 5 + 6 = 11",
        _eval,
        ([(D6, 50), (D6, 60), (PM, PLUS)], MOST_SINGLE, 0, 0),
        110,
    ),
    (
        "R9 plus 3 + 4 makes a 7",
        _eval,
        ([(D6, 30), (D6, 40), (PM, PLUS)], COUNT_AT_LEAST, 1, 70),
        1,
    ),
    (
        "R9 plus makes a pair: 2 + 3 with a 5",
        _eval,
        ([(D6, 20), (D6, 30), (D8, 50), (PM, PLUS)], SAME_AT_LEAST, 2, 0),
        1,
    ),
    (
        "R9 the same roll without a sign has no pair",
        _eval,
        ([(D6, 20), (D6, 30), (D8, 50), (PM, BLANK)], SAME_AT_LEAST, 2, 0),
        0,
    ),
    (
        "R9 a sign is optional: 3,3 stay a pair",
        _eval,
        ([(D6, 30), (D6, 30), (PM, PLUS)], SAME_AT_LEAST, 2, 0),
        1,
    ),
    (
        "R9 no chains: 1+2+3 is not 6",
        _eval,
        ([(D6, 10), (D6, 20), (D6, 30), (PM, PLUS), (PM, PLUS)], HIGH_AT_LEAST, 60, 0),
        0,
    ),
    (
        "R9 two plus signs still make 2 + 3 = 5",
        _eval,
        ([(D6, 10), (D6, 20), (D6, 30), (PM, PLUS), (PM, PLUS)], HIGH_AT_LEAST, 50, 0),
        1,
    ),
    (
        "R9 two minus signs: (6 - 6) + (1 - 1) = 0",
        _eval,
        ([(D6, 60), (D6, 60), (D6, 10), (D6, 10), (PM, MINUS), (PM, MINUS)], TOTAL_EXACTLY, 0, 0),
        1,
    ),
    (
        "R9 two minus signs on crossed pairs: 6 - 2 and 5 - 1 are two 4s",
        _eval,
        ([(D6, 60), (D6, 50), (D6, 20), (D6, 10), (PM, MINUS), (PM, MINUS)], COUNT_AT_LEAST, 2, 40),
        1,
    ),
    (
        "R9 plus and minus together: 1 + 3 and 6 - 2 are two 4s",
        _eval,
        ([(D6, 10), (D6, 30), (D6, 60), (D6, 20), (PM, PLUS), (PM, MINUS)], COUNT_AT_LEAST, 2, 40),
        1,
    ),
    (
        "R9 plus on the later pair, minus on the earlier: 1 + 3 and 6 - 2",
        _eval,
        ([(D6, 60), (D6, 20), (D6, 10), (D6, 30), (PM, PLUS), (PM, MINUS)], COUNT_AT_LEAST, 2, 40),
        1,
    ),
    (
        "R9 two plus signs cannot make two 4s from 1,3,6,2",
        _eval,
        ([(D6, 10), (D6, 30), (D6, 60), (D6, 20), (PM, PLUS), (PM, PLUS)], COUNT_AT_LEAST, 2, 40),
        0,
    ),
    (
        "R9 minus on a decimal: 0.3 - 1 = -0.7 (score 7)",
        _eval,
        ([(D6, 10), (DECIMAL, 3), (PM, MINUS)], LEAST_SINGLE, 0, 0),
        7,
    ),
    (
        "R9 the double die's two results combine: 3 - 3 = 0",
        _eval,
        ([(DOUBLE, 30), (DOUBLE, 30), (PM, MINUS)], TOTAL_EXACTLY, 0, 0),
        1,
    ),
    (
        "R9 plus removes a repeat: 1 + 5 leaves 1,2,3,4,6",
        _eval,
        (
            [(DOUBLE, 10), (DOUBLE, 10), (D6, 20), (D6, 30), (D6, 40), (D6, 50), (PM, PLUS)],
            ALL_DIFFERENT,
            5,
            0,
        ),
        1,
    ),
    (
        "R9 minus reaches a multiple of 10: 11 - 1",
        _eval,
        ([(D6, 10), (D20, 110), (PM, MINUS)], TOTAL_MULTIPLE, 100, 0),
        1,
    ),
    (
        "R9 without the minus 12 is no multiple of 10",
        _eval,
        ([(D6, 10), (D20, 110), (PM, BLANK)], TOTAL_MULTIPLE, 100, 0),
        0,
    ),
    (
        "R9 closest to 21: 20 + (4 - 3) hits it (score 0)",
        _eval,
        ([(D20, 200), (D6, 40), (D4, 30), (PM, MINUS)], CLOSEST_TOTAL, 210, 0),
        0,
    ),
    (
        "R9 compare: each player's own best, -3 is the lowest total",
        _met,
        ([[(D6, 20), (D6, 50), (PM, MINUS)], [(ZERO_TWO, 0)]], LEAST_TOTAL, 0, 0),
        [0],
    ),
    (
        "R9 compare: a minus never costs the highest total",
        _met,
        ([[(D6, 20), (D6, 50), (PM, MINUS)], [(D6, 60)]], MOST_TOTAL, 0, 0),
        [0],
    ),
    # --- R9: the challenge set -------------------------------------------------------
    ("R9 the table ships at least 12 challenges", lambda: len(CHALLENGES) >= 12, (), True),
    (
        "R9 challenges per family (compare, high/low, special, faces, totals)",
        _family_counts,
        (),
        [5, 4, 4, 5, 4],
    ),
    ("R9 every challenge row is well formed", _well_formed, (), True),
    (
        "R9 shipped 'a total below zero' gives 3 VP to 2 - 5",
        _award,
        ([[(D6, 20), (D6, 50), (PM, MINUS)], [(D6, 60)]], CHALLENGES[9]),
        [3, 0],
    ),
    (
        "R9 shipped 'three of a kind' gives 3 VP",
        _award,
        ([[(D6, 50), (D8, 50), (D12, 50)], [(D6, 50), (D8, 50)]], CHALLENGES[14]),
        [3, 0],
    ),
    (
        "R9 shipped 'a red face' gives 1 VP",
        _award,
        ([[(RED_BLACK, BLACK)], [(RED_BLACK, RED), (D6, 10)]], CHALLENGES[17]),
        [0, 1],
    ),
    (
        "R9 a home-made challenge is data only: two colour faces",
        _award,
        (
            [[(RED_BLACK, RED), (RED_BLACK, BLACK)], [(RED_BLACK, RED), (D6, 20)]],
            (FACES, COUNT_AT_LEAST, 2, ANY_COLOUR, 2),
        ),
        [2, 0],
    ),
    # --- Scoring a round, the game ---------------------------------------------------
    (
        "award: each seat meeting 'total 30 or more' gains 2 VP",
        _award,
        ([[(D20, 200), (D12, 100)], [(D6, 60)], [(D20, 200), (D12, 120)]], CHALLENGES[18]),
        [2, 0, 2],
    ),
    (
        "award: a tie for the highest total, both gain 2 VP",
        _award,
        ([[(D6, 60), (D6, 10)], [(D6, 30), (D6, 40)], [(D6, 20)]], CHALLENGES[0]),
        [2, 2, 0],
    ),
    ("orig most VP wins", leaders, ([3, 5, 2],), [1]),
    ("orig a VP tie goes to a roll-off between the tied", leaders, ([3, 5, 5, 1],), [1, 2]),
    ("roll-off: the higher d6 wins", roll_off, ([1, 2], [4, 6]), [2]),
    ("roll-off: equal rolls roll again", roll_off, ([1, 2], [5, 5]), [1, 2]),
    ("roll-off: three tied, the two 6s roll again", roll_off, ([0, 2, 3], [6, 6, 1]), [0, 2]),
]


def hot_calls():
    """The table's per-play calls on a realistic table: 4 players, 24 centre dice."""
    kinds = [
        D4,
        D6,
        D6_PIPS,
        D8,
        D10,
        D12,
        D20,
        BLANK_D6,
        ZERO_TWO,
        DOUBLING,
        PLUS_MINUS,
        RED_BLACK,
        HAKKE,
        DIGITAL,
        DOUBLE,
        DECIMAL,
        D6,
        D6,
        D8,
        D10,
        D12,
        D20,
        D4,
        D6,
    ]
    centre = array("H", [die(kinds[i], i) for i in range(len(kinds))])
    c = len(kinds)
    hand = _hand([D20, DOUBLE, PLUS_MINUS])
    out = array("H", [0] * 32)
    wanted = centre[c - 1]
    held = bytearray([3, 6, 2, 1])
    passed = bytearray([0, 0, 1, 0])
    roll = _roll([(DOUBLE, 20), (DOUBLE, 50), (D8, 30), (D6, 60), (PM, MINUS), (D10, 70)])
    n = len(roll)
    return [
        ("is_legal", lambda: is_legal(hand, 3, centre, c, wanted, 0, 4)),
        ("legal_plays", lambda: legal_plays(hand, 3, centre, c, out, 0, 4)),
        ("resolve", lambda: evaluate(roll, n, SAME_AT_LEAST, 3, 0)),
        ("picking_over", lambda: picking_over(held, passed, 4, c)),
        ("next_picker", lambda: next_picker(1, held, passed, 4, c)),
    ]
