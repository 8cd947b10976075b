"""Conformance cases for Seltsam-Walzer (rules: docs/rules/walzer.md).

Cards are written as (colour, number) pairs; an X is (X, copy).  Every
expected value was worked out by hand from RULES.md section 2 and the
original text, never copied from the code's output.
"""

from array import array

from dicetable.games.walzer import rules as walzer
from dicetable.rules.trick import Trick

R = walzer.RED
B = walzer.BLUE
G = walzer.GREEN
X = walzer.X


def item(spec):
    if spec[0] == X:
        return walzer.x_card(spec[1])
    return walzer.card(spec[0], spec[1])


def spec(it):
    if walzer.is_x(it):
        return (X, walzer.copy(it))
    return (walzer.colour(it), walzer.number(it))


def hand_of(specs):
    return array("H", [item(s) for s in specs])


def trick_of(specs):
    trick = Trick(4)
    for seat in range(len(specs)):
        trick.add(seat, item(specs[seat]))
    return trick


def legal(hand, trick, card):
    return walzer.is_legal(hand_of(hand), len(hand), trick_of(trick), item(card))


def legal_within(hand, n, trick, card):
    return walzer.is_legal(hand_of(hand), n, trick_of(trick), item(card))


def plays(hand, trick):
    out = array("H", [0] * len(hand))
    k = walzer.legal_plays(hand_of(hand), len(hand), trick_of(trick), out)
    return [spec(out[i]) for i in range(k)]


def plays_within(hand, n, trick):
    out = array("H", [0] * len(hand))
    k = walzer.legal_plays(hand_of(hand), n, trick_of(trick), out)
    return [spec(out[i]) for i in range(k)]


def winner(trick):
    return walzer.resolve(trick_of(trick))


def scores(piles):
    return walzer.round_scores([[item(s) for s in pile] for pile in piles])


def run(first, last):
    """Cards first..last of one colour, as specs."""
    return [(first[0], k) for k in range(first[1], last[1] + 1)]


def deck_colour_counts():
    counts = [0, 0, 0, 0]
    for it in walzer.deck():
        counts[walzer.colour(it)] += 1
    return counts


def deck_colour_sums():
    sums = [0, 0, 0, 0]
    for it in walzer.deck():
        sums[walzer.colour(it)] += walzer.number(it)
    return sums


def deck_distinct():
    cards = walzer.deck()
    return (len(cards), len(set(cards)))


def deck_bounds():
    cards = walzer.deck()
    return (min(cards) > 0, max(cards) < 65536)


def deck_round_trip():
    return [spec(item(spec(it))) == spec(it) for it in walzer.deck()].count(False)


def x_fields(copy):
    it = walzer.x_card(copy)
    return (walzer.colour(it), walzer.number(it), walzer.copy(it), walzer.is_x(it))


def card_fields(colour, number):
    it = walzer.card(colour, number)
    return (walzer.colour(it), walzer.number(it), walzer.copy(it), walzer.is_x(it))


def deal_table():
    return (
        walzer.MIN_PLAYERS,
        walzer.MAX_PLAYERS,
        walzer.hand_size(3),
        walzer.hand_size(4),
        walzer.PASS_CARDS,
        walzer.rounds(3),
        walzer.rounds(4),
    )


def multipliers():
    return [walzer.multiplier(c) for c in (R, B, G, X)]


# Example 3-player round: every card of the deck taken (9 + 15 + 12 cards).
ROUND = [
    run((R, 1), (R, 5)) + run((B, 1), (B, 2)) + [(G, 4), (X, 0)],
    run((R, 6), (R, 14)) + run((B, 3), (B, 4)) + run((G, 1), (G, 3)) + [(X, 1)],
    run((B, 5), (B, 11)) + run((G, 5), (G, 8)) + [(X, 2)],
]

HAND = [(R, 3), (B, 5), (X, 0), (G, 2), (R, 9)]

# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("is_legal", "legal_plays", "resolve")

CASES = [
    # --- Items and deck
    ("deck has 36 distinct cards", deck_distinct, (), (36, 36)),
    ("deck colours: red 14, blue 11, green 8, X 3", deck_colour_counts, (), [14, 11, 8, 3]),
    (
        "deck numbers: red 1-14, blue 1-11, green 1-8, X none",
        deck_colour_sums,
        (),
        [105, 66, 36, 0],
    ),
    ("items are non-zero and fit 16 bits", deck_bounds, (), (True, True)),
    ("items decode to what encoded them", deck_round_trip, (), 0),
    ("coloured card fields", card_fields, (B, 11), (B, 11, 0, False)),
    ("X card fields: no number, copy index", x_fields, (2,), (X, 0, 2, True)),
    (
        "3-4 players; deal 12 each (3p), 9 each (4p); pass 2; rounds = players",
        deal_table,
        (),
        (3, 4, 12, 9, 2, 3, 4),
    ),
    # --- Follow obligation
    ("leader may play any card", plays, (HAND, []), HAND),
    ("leader may lead an X", legal, (HAND, [], (X, 0)), True),
    ("holding the lead colour: must follow", legal, (HAND, [(R, 5)], (B, 5)), False),
    ("holding the lead colour: may follow", legal, (HAND, [(R, 5)], (R, 3)), True),
    ("holding the lead colour: green refused", legal, (HAND, [(R, 5)], (G, 2)), False),
    ("X may be played even holding the lead colour", legal, (HAND, [(R, 5)], (X, 0)), True),
    (
        "legal plays holding the lead colour: lead colour and X",
        plays,
        (HAND, [(R, 5)]),
        [(R, 3), (X, 0), (R, 9)],
    ),
    (
        "void in the lead colour: any card",
        legal,
        ([(R, 3), (B, 5), (X, 0)], [(G, 7)], (R, 3)),
        True,
    ),
    (
        "legal plays void in the lead colour: the whole hand",
        plays,
        ([(R, 3), (B, 5), (X, 0)], [(G, 7)]),
        [(R, 3), (B, 5), (X, 0)],
    ),
    ("X led: any card, even holding red", legal, (HAND, [(X, 1), (R, 5)], (B, 5)), True),
    ("legal plays after an X lead: the whole hand", plays, (HAND, [(X, 1)]), HAND),
    ("follow the lead, not the card before", plays, (HAND, [(B, 1), (R, 14)]), [(B, 5), (X, 0)]),
    ("a hand of one X: the X", plays, ([(X, 2)], [(G, 1)]), [(X, 2)]),
    ("a card not in the hand is refused", legal, (HAND, [(R, 5)], (R, 4)), False),
    ("a card not in the hand is refused on lead", legal, (HAND, [], (X, 1)), False),
    (
        "only hand[0:n] counts: card beyond n refused",
        legal_within,
        ([(B, 1), (R, 2)], 1, [(R, 5)], (R, 2)),
        False,
    ),
    (
        "only hand[0:n] counts: void within n",
        plays_within,
        ([(B, 1), (R, 2)], 1, [(R, 5)]),
        [(B, 1)],
    ),
    # --- Trick result
    ("no X: highest lead colour wins", winner, ([(R, 5), (B, 11), (R, 9), (G, 8)],), 2),
    ("no X: off-colour numbers never win", winner, ([(G, 1), (R, 14), (B, 11), (R, 13)],), 0),
    ("no X, 3 players: highest lead colour", winner, ([(B, 2), (B, 10), (B, 7)],), 1),
    ("exactly one X wins", winner, ([(R, 14), (X, 0), (R, 13), (R, 12)],), 1),
    ("exactly one X, played last, wins", winner, ([(G, 8), (G, 7), (G, 6), (X, 2)],), 3),
    ("exactly one X led wins", winner, ([(X, 1), (R, 14), (B, 11), (G, 8)],), 0),
    ("two X, lead not X: highest lead colour", winner, ([(R, 3), (X, 0), (R, 7), (X, 1)],), 2),
    ("two X, lead not X: off-colour higher loses", winner, ([(B, 3), (X, 0), (R, 14), (X, 1)],), 0),
    ("three X, lead not X: the leader wins", winner, ([(G, 1), (X, 0), (X, 1), (X, 2)],), 0),
    ("X led, two X: highest number of any colour", winner, ([(X, 0), (R, 5), (X, 1), (G, 8)],), 3),
    ("X led, two X: colour does not matter", winner, ([(X, 0), (B, 11), (X, 1), (R, 10)],), 1),
    ("X led, two X, equal numbers: later wins", winner, ([(X, 0), (R, 8), (G, 8), (X, 1)],), 2),
    (
        "X led, two X, equal numbers after an X: later wins",
        winner,
        ([(X, 0), (R, 8), (X, 1), (G, 8)],),
        3,
    ),
    ("X led, two X, 3 players: the one coloured card wins", winner, ([(X, 2), (X, 0), (B, 1)],), 2),
    (
        "X led, three X, 4 players: the one coloured card wins",
        winner,
        ([(X, 0), (X, 1), (B, 2), (X, 2)],),
        2,
    ),
    ("R5 every card an X: the X played last wins", winner, ([(X, 0), (X, 1), (X, 2)],), 2),
    ("R5 every card an X, any copy order: last wins", winner, ([(X, 2), (X, 0), (X, 1)],), 2),
    # --- Round scoring
    ("multipliers: red 1, blue 2, green 3, X 0", multipliers, (), [1, 2, 3, 0]),
    ("ex1 fewest: 3, 2, 0, 6 -> 2 (0 is never fewest)", walzer.fewest, ([3, 2, 0, 6],), 2),
    (
        "ex1 scored in red: fewest sums, others count",
        scores,
        ([run((R, 1), (R, 3)), [(R, 13), (R, 14)], [], run((R, 4), (R, 9))],),
        [3, 27, 0, 6],
    ),
    (
        "ex1 scored in blue: times 2",
        scores,
        ([run((B, 1), (B, 3)), [(B, 10), (B, 11)], [], run((B, 4), (B, 9))],),
        [6, 42, 0, 12],
    ),
    ("ex2 fewest: 4, 4, 0, 6 -> 4 (both tied)", walzer.fewest, ([4, 4, 0, 6],), 4),
    (
        "ex2 scored in red: both tied fewest score sums",
        scores,
        ([run((R, 1), (R, 4)), run((R, 5), (R, 8)), [], run((R, 9), (R, 14))],),
        [10, 26, 0, 6],
    ),
    ("nobody holds the colour: fewest 0", walzer.fewest, ([0, 0, 0],), 0),
    ("a sole holder is the fewest", walzer.fewest, ([0, 5, 0],), 5),
    (
        "green fewest: sum times 3, others count times 3",
        scores,
        ([[(G, 8)], [(G, 1), (G, 2)], []],),
        [24, 6, 0],
    ),
    ("blue not fewest: count times 2", walzer.colour_score, (B, 3, 30, 2), 6),
    ("fewest: sum times multiplier", walzer.colour_score, (G, 2, 15, 2), 45),
    ("no card of the colour scores 0", walzer.colour_score, (R, 0, 0, 3), 0),
    ("X cards score 0", scores, ([[(X, 0), (X, 1), (X, 2)], [(R, 1)], []],), [0, 1, 0]),
    (
        "X cards do not count toward fewest",
        scores,
        ([[(X, 0), (R, 14)], [(R, 1), (R, 2)], []],),
        [14, 2, 0],
    ),
    (
        "a player who took nothing scores 0",
        scores,
        ([[], [], [(R, 1), (B, 1), (G, 1)]],),
        [0, 0, 6],
    ),
    ("full 3-player round, all 36 cards", scores, (ROUND,), [33, 32, 26]),
    # --- Match
    ("highest total wins", walzer.standings, ([50, 40, 45], [0, 0, 0]), [1, 3, 2]),
    (
        "tied total: higher last round ranks first",
        walzer.standings,
        ([50, 50, 30], [10, 12, 5]),
        [2, 1, 3],
    ),
    ("still tied: shared place", walzer.standings, ([50, 50, 30], [10, 10, 5]), [1, 1, 3]),
    (
        "4 players: tie-break and a shared second",
        walzer.standings,
        ([40, 40, 40, 10], [5, 9, 5, 0]),
        [2, 1, 2, 4],
    ),
    ("last round only breaks ties", walzer.standings, ([41, 40, 0], [0, 30, 0]), [1, 2, 3]),
]


def hot_calls():
    """Per-play calls on a full 3-player hand (12 cards) and trick."""
    hand = hand_of(
        [
            (B, 1),
            (G, 3),
            (R, 2),
            (B, 7),
            (X, 1),
            (G, 8),
            (R, 11),
            (B, 9),
            (R, 14),
            (G, 5),
            (B, 4),
            (R, 6),
        ]
    )
    out = array("H", [0] * 12)
    lead = trick_of([(R, 9), (X, 0)])
    full = trick_of([(X, 2), (R, 9), (X, 0)])
    last = item((R, 6))
    return [
        ("is_legal", lambda: walzer.is_legal(hand, 12, lead, last)),
        ("legal_plays", lambda: walzer.legal_plays(hand, 12, lead, out)),
        ("resolve", lambda: walzer.resolve(full)),
    ]
