"""Conformance cases for d-TT (rules: docs/rules/dtt.md).

Cards are written as (suit, printed value) pairs: A = 1, J = 11, Q = 12,
K = 13.  Every expected value was worked out by hand from RULES.md section 4
and the original text, never copied from the code's output.
"""

from array import array

from dicetable.games.dtt import rules as dtt
from dicetable.rules.trick import Trick

S = dtt.SPADES
H = dtt.HEARTS
D = dtt.DIAMONDS
C = dtt.CLUBS
NT = dtt.NO_TRUMP
A = 1
J = 11
Q = 12
K = 13


def item(spec):
    return dtt.card(spec[0], dtt.rank_of_face(spec[1]))


def spec(it):
    return (dtt.suit(it), dtt.face(it))


def hand_of(specs):
    return array("H", [item(s) for s in specs])


def trick_of(specs):
    trick = Trick(3)
    for seat in range(len(specs)):
        trick.add(seat, item(specs[seat]))
    return trick


def legal(hand, trick, card):
    return dtt.is_legal(hand_of(hand), len(hand), trick_of(trick), item(card))


def legal_within(hand, n, trick, card):
    return dtt.is_legal(hand_of(hand), n, trick_of(trick), item(card))


def plays(hand, trick):
    out = array("H", [0] * len(hand))
    k = dtt.legal_plays(hand_of(hand), len(hand), trick_of(trick), out)
    return [spec(out[i]) for i in range(k)]


def winner(trick, trump):
    return dtt.resolve(trick_of(trick), trump)


def trump(face_up):
    return dtt.trump_suit([item(s) for s in face_up])


def deck_distinct():
    cards = dtt.deck()
    return (len(cards), len(set(cards)))


def deck_faces():
    faces = []
    for it in dtt.deck():
        if dtt.face(it) not in faces:
            faces.append(dtt.face(it))
    faces.sort()
    return faces


def deck_suit_counts():
    counts = [0, 0, 0, 0]
    for it in dtt.deck():
        counts[dtt.suit(it)] += 1
    return counts


def strength_order():
    """Printed values of one suit from the strongest rank index down."""
    return [dtt.face(dtt.card(S, r)) for r in range(dtt.RANKS - 1, -1, -1)]


def deck_bounds():
    cards = dtt.deck()
    return (min(cards) >= 0, max(cards) < 65536)


def deck_round_trip():
    return [item(spec(it)) == it for it in dtt.deck()].count(False)


def card_fields(suit, face):
    it = item((suit, face))
    return (dtt.suit(it), dtt.rank(it), dtt.face(it))


def bids_allowed():
    return [b for b in range(-2, 15) if dtt.bid_ok(b)]


def deal_sizes():
    return (
        dtt.PLAYERS,
        dtt.FACE_UP,
        dtt.DRAFT_CARDS,
        dtt.HAND_SIZE,
        dtt.TRICKS,
        dtt.MAX_BID,
        40 - dtt.FACE_UP == dtt.PLAYERS * dtt.HAND_SIZE,
    )


def default_deals():
    return dtt.DEFAULT_DEALS


HAND = [(S, 2), (H, A), (S, K), (C, 3), (D, 7), (S, 3)]

# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("is_legal", "legal_plays", "resolve")

CASES = [
    # --- Items and deck
    ("deck has 40 distinct cards", deck_distinct, (), (40, 40)),
    ("deck has 10 cards of each suit", deck_suit_counts, (), [10, 10, 10, 10]),
    ("deck has no 10, 9 or 8", deck_faces, (), [1, 2, 3, 4, 5, 6, 7, 11, 12, 13]),
    ("rank strength: A 3 K Q J 7 6 5 4 2", strength_order, (), [A, 3, K, Q, J, 7, 6, 5, 4, 2]),
    ("items fit 16 bits", deck_bounds, (), (True, True)),
    ("items decode to what encoded them", deck_round_trip, (), 0),
    ("card fields: 3 of clubs", card_fields, (C, 3), (C, dtt.THREE, 3)),
    ("card fields: A of hearts", card_fields, (H, A), (H, dtt.ACE, A)),
    ("printed values not in the deck", dtt.rank_of_face, (10,), -1),
    (
        "deal: 3 players, 4 face up, drafts of 6, 12 cards, 12 tricks, bids to 12",
        deal_sizes,
        (),
        (3, 4, 6, 12, 12, 12, True),
    ),
    # --- Trump
    ("ex1 A Q 4 2: the suit of the A", trump, ([(H, Q), (D, A), (S, 4), (C, 2)],), D),
    (
        "ex2 3 3 K 6 (R10): two 3s, spades before hearts",
        trump,
        ([(H, 3), (C, K), (S, 3), (D, 6)],),
        S,
    ),
    ("ex3 7 7 5 2: no trump", trump, ([(S, 7), (H, 7), (D, 5), (C, 2)],), NT),
    ("R10 equal ranks: hearts before diamonds", trump, ([(D, K), (H, K), (C, 2), (S, 4)],), H),
    ("R10 equal ranks: diamonds before clubs", trump, ([(C, J), (S, 7), (D, J), (H, 5)],), D),
    ("R10 four aces: spades", trump, ([(C, A), (D, A), (H, A), (S, A)],), S),
    ("R10 only the top rank's tie matters", trump, ([(S, 2), (C, Q), (S, 5), (H, 4)],), C),
    ("trump: 3 ranks above K", trump, ([(S, K), (D, 3), (H, Q), (C, J)],), D),
    ("trump: A ranks above 3", trump, ([(S, 3), (C, A), (H, K), (D, 2)],), C),
    ("trump: a lone J is enough", trump, ([(C, J), (S, 7), (H, 7), (D, 2)],), C),
    ("no trump: 7 is the highest", trump, ([(S, 7), (S, 6), (H, 5), (C, 4)],), NT),
    # --- Follow obligation
    ("leader may play any card", plays, (HAND, []), HAND),
    ("holding the led suit: must follow", legal, (HAND, [(S, 5)], (H, A)), False),
    ("holding the led suit: may follow", legal, (HAND, [(S, 5)], (S, 2)), True),
    (
        "legal plays holding the led suit: that suit only",
        plays,
        (HAND, [(S, 5)]),
        [(S, 2), (S, K), (S, 3)],
    ),
    (
        "holding the led suit: a trump is refused too",
        legal,
        (HAND, [(S, 5), (H, 2)], (C, 3)),
        False,
    ),
    ("holding one card of the led suit: only that card", plays, (HAND, [(H, 4), (S, A)]), [(H, A)]),
    (
        "void in the led suit: any card, trump or not",
        plays,
        ([(S, 2), (C, 3), (D, 7)], [(H, 4)]),
        [(S, 2), (C, 3), (D, 7)],
    ),
    (
        "void in the led suit: discard allowed",
        legal,
        ([(S, 2), (C, 3), (D, 7)], [(H, 4), (H, 6)], (S, 2)),
        True,
    ),
    ("follow the lead, not the card before", plays, (HAND, [(D, 2), (S, A)]), [(D, 7)]),
    ("a card not in the hand is refused", legal, (HAND, [(S, 5)], (S, 4)), False),
    ("a card not in the hand is refused on lead", legal, (HAND, [], (D, A)), False),
    ("only hand[0:n] counts", legal_within, ([(H, 2), (S, 2)], 1, [(S, 5)], (H, 2)), True),
    (
        "only hand[0:n] counts: card beyond n refused",
        legal_within,
        ([(H, 2), (S, 2)], 1, [(S, 5)], (S, 2)),
        False,
    ),
    # --- Trick result
    ("no trump played: highest of the led suit", winner, ([(S, 5), (S, J), (S, 7)], H), 1),
    ("led suit: 3 beats K", winner, ([(S, K), (S, 3), (S, 2)], C), 1),
    ("led suit: A beats 3", winner, ([(D, 3), (D, 2), (D, A)], C), 2),
    ("off-suit aces never win", winner, ([(H, 2), (S, A), (H, 4)], C), 2),
    ("everyone else discards: the leader wins", winner, ([(S, 2), (H, A), (D, A)], C), 0),
    ("one trump wins", winner, ([(H, A), (C, 2), (H, K)], C), 1),
    ("highest trump wins", winner, ([(H, A), (C, 2), (C, 4)], C), 2),
    ("trump rank order: 3 beats K", winner, ([(H, A), (D, K), (D, 3)], D), 2),
    ("trump led: highest trump", winner, ([(C, 5), (H, A), (C, 7)], C), 2),
    ("no trump: highest of the led suit", winner, ([(D, Q), (S, A), (D, J)], NT), 0),
    ("no trump: no suit is trump", winner, ([(D, 2), (S, A), (C, A)], NT), 0),
    # --- Bids
    ("bids 0 to 12 only", bids_allowed, (), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    ("made: exactly the bid", dtt.made, (3, 3), True),
    ("made: more tricks than the bid fails", dtt.made, (3, 4), False),
    ("made: fewer tricks than the bid fails", dtt.made, (3, 2), False),
    # --- Deal scoring
    (
        "all make: lowest -10, highest +10, middle 0",
        dtt.deal_scores,
        ([3, 4, 5], [3, 4, 5], [10, -5, 0]),
        [10, -10, 0],
    ),
    (
        "all make: two tied lowest -5 each",
        dtt.deal_scores,
        ([3, 4, 5], [3, 4, 5], [0, 0, 20]),
        [-5, -5, 10],
    ),
    (
        "all make: two tied highest +5 each",
        dtt.deal_scores,
        ([3, 4, 5], [3, 4, 5], [20, 0, 20]),
        [5, -10, 5],
    ),
    (
        "all make: all equal, nobody scores",
        dtt.deal_scores,
        ([0, 12, 0], [0, 12, 0], [0, 0, 0]),
        [0, 0, 0],
    ),
    (
        "all make: negative totals",
        dtt.deal_scores,
        ([4, 4, 4], [4, 4, 4], [-30, 15, 15]),
        [-10, 5, 5],
    ),
    (
        "two make: bid + 10 each; the third loses both bids + 20",
        dtt.deal_scores,
        ([3, 4, 5], [3, 4, 2], [0, 0, 0]),
        [13, 14, -27],
    ),
    (
        "two make: a zero bid scores 10",
        dtt.deal_scores,
        ([0, 6, 2], [0, 6, 6], [0, 0, 0]),
        [10, 16, -26],
    ),
    (
        "two make: cumulative totals do not matter",
        dtt.deal_scores,
        ([5, 2, 3], [5, 2, 5], [50, -20, 0]),
        [15, 12, -27],
    ),
    (
        "one makes: 2 x bid + 20; the others lose bid + 10",
        dtt.deal_scores,
        ([2, 5, 5], [2, 4, 6], [0, 0, 0]),
        [24, -12, -12],
    ),
    (
        "one makes a zero bid: +20, the others -10",
        dtt.deal_scores,
        ([4, 0, 4], [6, 0, 6], [7, -3, 9]),
        [-10, 20, -10],
    ),
    (
        "none make: lowest +10, highest -10, middle 0",
        dtt.deal_scores,
        ([1, 1, 1], [4, 4, 4], [10, -5, 0]),
        [-10, 10, 0],
    ),
    (
        "none make: two tied lowest +5 each",
        dtt.deal_scores,
        ([1, 1, 1], [4, 4, 4], [0, 0, 20]),
        [5, 5, -10],
    ),
    (
        "none make: two tied highest -5 each",
        dtt.deal_scores,
        ([1, 1, 1], [4, 4, 4], [20, 0, 20]),
        [-5, 10, -5],
    ),
    (
        "none make: all equal, nobody scores",
        dtt.deal_scores,
        ([12, 12, 12], [4, 4, 4], [5, 5, 5]),
        [0, 0, 0],
    ),
    # --- Match
    ("R11 three deals by default", default_deals, (), 3),
    ("highest total wins", dtt.standings, ([20, -30, 10],), [1, 3, 2]),
    ("tied totals share the place", dtt.standings, ([5, 5, -10],), [1, 1, 3]),
    ("tied below the winner share second", dtt.standings, ([20, -10, -10],), [1, 2, 2]),
    ("all equal: everyone shares first", dtt.standings, ([0, 0, 0],), [1, 1, 1]),
]


def hot_calls():
    """Per-play calls on a full 12-card hand and a full 3-card trick."""
    hand = hand_of(
        [
            (S, 2),
            (H, A),
            (S, K),
            (C, 3),
            (D, 7),
            (S, 3),
            (H, 6),
            (C, Q),
            (D, J),
            (S, 5),
            (H, 4),
            (D, A),
        ]
    )
    out = array("H", [0] * 12)
    lead = trick_of([(D, 5), (C, 2)])
    full = trick_of([(D, 5), (C, 2), (D, A)])
    last = item((D, A))
    return [
        ("is_legal", lambda: dtt.is_legal(hand, 12, lead, last)),
        ("legal_plays", lambda: dtt.legal_plays(hand, 12, lead, out)),
        ("resolve", lambda: dtt.resolve(full, C)),
    ]
