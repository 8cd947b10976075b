"""Dicefull data: the words a face or a challenge is written with, every dice
kind's face table, and the table's own challenge set.

This file is data a user may edit (R8, R9); the rules that read it live in
rules.py and scoring_rules.py.  Player-readable rules: docs/rules/dicefull.md.

Numbers are written in TENTHS everywhere (R7): 10 is a 1, 5 is 0.5, 640 is 64,
-3 is -0.3.  So the decimal die (0.0-0.9) compares and adds correctly with
every whole-number die, and the core never needs a float.

Face codes (one int per face):
    below SYMBOL          a number, in tenths (negative numbers are allowed)
    BLANK, PLUS, MINUS    faces with no number (the ± die's symbols, a blank)
    COLOUR..COLOUR_LAST   colour faces: RED, BLACK, and room for more colours
    SYMBOL..              any other code from SYMBOL up is a symbol face
A face code from SYMBOL up is never a number and never the minimum.  The
face codes, the tests' numbers and a challenge row's fields are the rules'
words, not data to edit: scoring_rules.py inlines them as its own constants
(tests/test_dicefull_properties.py checks that they agree).

To change a die: edit its row in KINDS (same order as the kind numbers), or
call dicefull.set_faces(kind, faces) at run time.  To add a kind: append a row
and give it the next number (at most 31 kinds, 0-30; at most 32 faces).
A row is (results, faces): `results` is how many results one pick of the die
gives (2 for the double die), `faces` one face code per face.

To add a challenge: append a row (family, test, k, v, vp) to CHALLENGES, or
write the whole set in a text file, one row a line in the same words
(challenges.py reads it; docs/designers.md, "Your own challenge set").
  family  COMPARE, HIGH_LOW, SPECIAL, FACES or TOTALS (the card-back icon)
  test    one of the tests below; k and v are its parameters (numbers in
          tenths, or a face code / wildcard for the COUNT tests), 0 if unused
  vp      victory points for every player who meets it
Tests (scoring_rules.py scores each in the scorer of the figure it reads, _SCORERS):
  comparison tests: the player(s) with the best value among all players meet it
    MOST_TOTAL       highest total
    LEAST_TOTAL      lowest total
    MOST_SINGLE      highest single number
    LEAST_SINGLE     lowest single number
    CLOSEST_TOTAL    total closest to k
  threshold tests: every player whose own roll passes meets it
    HIGH_AT_LEAST    some number >= k
    LOW_AT_MOST      some number <= k
    ALL_AT_LEAST     at least v numbers (at least 1), every number >= k
    ALL_AT_MOST      at least v numbers (at least 1), every number <= k
    TOTAL_AT_LEAST   total >= k
    TOTAL_AT_MOST    total <= k
    TOTAL_EXACTLY    total == k
    TOTAL_MULTIPLE   total is a multiple of k (k > 0; 0 and negatives count)
    SAME_AT_LEAST    some number shown by at least k results
    ALL_DIFFERENT    at least k numbers (at least 1), no two equal
    COUNT_AT_LEAST   at least k results show v
    COUNT_EXACTLY    exactly k results show v
  For the COUNT tests v is a number (tenths), a face code (BLANK, PLUS, RED,
  ...) or a wildcard: ANY_NUMBER, ANY_COLOUR, NO_VALUE (any face without a
  number).  A total needs at least one number: blank dice have no total.
"""

from micropython import const

# --- Face codes ---------------------------------------------------------------

SYMBOL = const(10000)  # from here up: no number
BLANK = const(10000)
PLUS = const(10001)
MINUS = const(10002)
COLOUR = const(10100)  # colour faces: COLOUR..COLOUR_LAST
RED = const(10100)
BLACK = const(10101)
COLOUR_LAST = const(10199)
# Wildcards: used only as `v` of the COUNT tests, never on a die.
ANY_NUMBER = const(10200)
ANY_COLOUR = const(10201)
NO_VALUE = const(10202)


# --- Dice kinds ---------------------------------------------------------------

D4 = const(0)
D6 = const(1)  # Arabic digits 1-6
D6_PIPS = const(2)  # pips, read as 1-6
D8 = const(3)
D10 = const(4)  # 0-9
D12 = const(5)
D20 = const(6)
BLANK_D6 = const(7)  # no number on any face
ZERO_TWO = const(8)  # 0-2 die
DOUBLING = const(9)  # doubling cube
PLUS_MINUS = const(10)  # ± die
RED_BLACK = const(11)
HAKKE = const(12)  # 八卦 die: bars read as numbers (R8)
DIGITAL = const(13)  # digital-number d6
DOUBLE = const(14)  # double die: one pick, two d6 results
DECIMAL = const(15)  # decimal d10, 0.0-0.9 (R7)

# One row per kind, in kind-number order: (results per pick, face codes).
# A list, so that a row can be replaced at run time (dicefull.set_faces).
KINDS = [
    (1, (10, 20, 30, 40)),  # D4
    (1, (10, 20, 30, 40, 50, 60)),  # D6
    (1, (10, 20, 30, 40, 50, 60)),  # D6_PIPS
    (1, (10, 20, 30, 40, 50, 60, 70, 80)),  # D8
    (1, (0, 10, 20, 30, 40, 50, 60, 70, 80, 90)),  # D10
    (1, (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120)),  # D12
    (
        1,
        (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200),
    ),  # D20
    (1, (BLANK, BLANK, BLANK, BLANK, BLANK, BLANK)),  # BLANK_D6
    (1, (0, 0, 10, 10, 20, 20)),  # ZERO_TWO
    (1, (20, 40, 80, 160, 320, 640)),  # DOUBLING
    (1, (PLUS, PLUS, MINUS, MINUS, BLANK, BLANK)),  # PLUS_MINUS
    (1, (RED, RED, RED, BLACK, BLACK, BLACK)),  # RED_BLACK
    (1, (30, 40, 40, 50, 50, 60)),  # HAKKE, R8 default
    (1, (10, 20, 30, 40, 50, 60)),  # DIGITAL
    (2, (10, 20, 30, 40, 50, 60)),  # DOUBLE
    (1, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)),  # DECIMAL, R7 tenths
]


# --- Challenges (R9) ----------------------------------------------------------

# Families: the icon on the card's back.  Plain ints, not const(): a row of
# CHALLENGES is then a tuple built when the module loads, which a set read
# from a file frees; a row of constants only would stay in the module's
# constant table for good (tests/test_dicefull_challenge_file.py measures it).
COMPARE = 0  # 剣: compare with the other players
HIGH_LOW = 1  # 矢印: high or low numbers
SPECIAL = 2  # !?: something unusual
FACES = 3  # ダイス: which faces show
TOTALS = 4  # 電卓: the total
FAMILY_COUNT = const(5)

# Comparison tests (numbered first: a test <= CLOSEST_TOTAL is a comparison).
MOST_TOTAL = const(0)
LEAST_TOTAL = const(1)
MOST_SINGLE = const(2)
LEAST_SINGLE = const(3)
CLOSEST_TOTAL = const(4)
# Threshold tests.
HIGH_AT_LEAST = const(5)
LOW_AT_MOST = const(6)
ALL_AT_LEAST = const(7)
ALL_AT_MOST = const(8)
TOTAL_AT_LEAST = const(9)
TOTAL_AT_MOST = const(10)
TOTAL_EXACTLY = const(11)
TOTAL_MULTIPLE = const(12)
SAME_AT_LEAST = const(13)
ALL_DIFFERENT = const(14)
COUNT_AT_LEAST = const(15)
COUNT_EXACTLY = const(16)
TEST_COUNT = const(17)

# Fields of a challenge row.
FAMILY = const(0)
TEST = const(1)
K = const(2)
V = const(3)
VP = const(4)

# The table's challenge set: (family, test, k, v, vp), numbers in tenths.
CHALLENGES = [
    (COMPARE, MOST_TOTAL, 0, 0, 2),  # highest total
    (COMPARE, LEAST_TOTAL, 0, 0, 2),  # lowest total
    (COMPARE, MOST_SINGLE, 0, 0, 1),  # highest single number
    (COMPARE, LEAST_SINGLE, 0, 0, 1),  # lowest single number
    (COMPARE, CLOSEST_TOTAL, 210, 0, 2),  # total closest to 21
    (HIGH_LOW, HIGH_AT_LEAST, 150, 0, 1),  # a number of 15 or more
    (HIGH_LOW, LOW_AT_MOST, 5, 0, 1),  # a number of 0.5 or less
    (HIGH_LOW, ALL_AT_LEAST, 40, 3, 2),  # 3+ numbers, all 4 or more
    (HIGH_LOW, ALL_AT_MOST, 20, 3, 2),  # 3+ numbers, all 2 or less
    (SPECIAL, TOTAL_AT_MOST, -1, 0, 3),  # a total below zero
    (SPECIAL, COUNT_EXACTLY, 0, ANY_NUMBER, 2),  # not a single number
    (SPECIAL, TOTAL_EXACTLY, 0, 0, 2),  # a total of exactly 0
    (SPECIAL, COUNT_AT_LEAST, 1, 640, 2),  # a 64
    (FACES, SAME_AT_LEAST, 2, 0, 1),  # a pair
    (FACES, SAME_AT_LEAST, 3, 0, 3),  # three of a kind
    (FACES, ALL_DIFFERENT, 5, 0, 2),  # 5+ numbers, all different
    (FACES, COUNT_AT_LEAST, 2, 60, 2),  # two or more 6s
    (FACES, COUNT_AT_LEAST, 1, RED, 1),  # a red face
    (TOTALS, TOTAL_AT_LEAST, 300, 0, 2),  # a total of 30 or more
    (TOTALS, TOTAL_AT_MOST, 50, 0, 1),  # a total of 5 or less
    (TOTALS, TOTAL_EXACTLY, 210, 0, 3),  # a total of exactly 21
    (TOTALS, TOTAL_MULTIPLE, 100, 0, 2),  # a total that is a multiple of 10
]

# Which set CHALLENGES holds: 0 for the rows above, else the word of the set
# a file put in their place (challenges.use()).  A journal keeps it, so a
# match resumes only with the set it was played with (app/resume.py).
SET_WORD = 0
