"""Conformance cases for Nokosu Dice (original 004, RULES.md section 5).

Most cases use the original's running example: the indicator die is a red 4,
so red is the trump colour and 4 the trump number.  Items are written
c(colour, number) for a card, d(colour, number) for a die (d(..., k) for the
k-th die of that colour) and X0/X1 for the black dice.
"""

from array import array

from dicetable.games.nokosu import rules as K
from dicetable.rules.trick import Trick

R = K.RED
B = K.BLUE
Y = K.YELLOW
G = K.GREEN
P = K.PURPLE
X0 = K.black_die(0)
X1 = K.black_die(1)


def c(colour, number):
    return K.card(colour, number)


def d(colour, number, index=0):
    return K.die(colour, index, number)


def trick_of(played):
    t = Trick(8)
    for i in range(len(played)):
        t.add(i, played[i])
    return t


# ------------------------------------------------------------------ helpers


def fields(item):
    return (K.kind(item), K.colour(item), K.number(item), K.index(item))


def every_item():
    """Every physical item once: 40 cards, 25 dice (as rolled 6s), 2 black dice."""
    items = []
    for col in range(K.COLOURS):
        for num in range(K.CARD_LOW, K.CARD_HIGH + 1):
            items.append(c(col, num))
        for k in range(K.DICE_PER_COLOUR):
            items.append(d(col, K.DIE_HIGH, k))
    items.append(X0)
    items.append(X1)
    return items


def distinct_items():
    items = every_item()
    unique = []
    for x in items:
        if x not in unique:
            unique.append(x)
    return (len(unique), max(items) < 65536)


def rolled_is_same_die():
    return K.rolled(d(B, 0, 2), 5) == d(B, 5, 2)


def trump_of(indicator):
    return (K.colour(indicator), K.number(indicator))


def effective(items, tc, tn):
    return [K.effective_colour(x, tc, tn) for x in items]


def legal(hand, played, tc, tn):
    """The legal plays from legal_plays; a disagreeing is_legal makes the case fail."""
    h = array("H", hand)
    out = array("H", [0] * len(hand))
    t = trick_of(played)
    count = K.legal_plays(h, len(hand), t, out, tc, tn)
    plays = [out[i] for i in range(count)]
    one_by_one = [x for x in hand if K.is_legal(h, len(hand), t, x, tc, tn)]
    if plays != one_by_one:
        return (plays, one_by_one)
    return plays


def is_legal(hand, played, item, tc, tn):
    return K.is_legal(array("H", hand), len(hand), trick_of(played), item, tc, tn)


def kept(hand):
    return K.kept_die(array("H", hand), len(hand))


def winner(played, tc, tn):
    return K.resolve(trick_of(played), tc, tn)


def tiers(items, led, tc, tn):
    return [K.tier(x, led, tc, tn) for x in items]


def bids_of(items):
    return [K.bid_of(x) for x in items]


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def tally(players, removed):
    """Every count of a round's setup, from the R12 table and the built sets."""
    row = K.setup(players)
    cards = len(K.cards_in_play(players, removed))
    dealt = players * row[K.SETUP_CARDS_EACH]
    bag = len(K.dice_in_bag(players, removed))
    drawn = players * row[K.SETUP_DICE_DRAWN]
    centre = row[K.SETUP_CENTRE]
    used = drawn + centre
    indicator = centre - players * row[K.SETUP_TAKEN_EACH]
    items = row[K.SETUP_CARDS_EACH] + row[K.SETUP_DICE_DRAWN] + row[K.SETUP_TAKEN_EACH]
    return (
        cards,
        dealt,
        cards - dealt,
        bag,
        drawn,
        centre,
        used,
        bag - used,
        indicator,
        items,
        row[K.SETUP_ITEMS],
        row[K.SETUP_TRICKS] + 1,
    )


def per_colour(items):
    counts = [0] * K.COLOURS
    for x in items:
        counts[K.colour(x)] += 1
    return counts


def high_card(players, removed):
    return max([K.number(x) for x in K.cards_in_play(players, removed)])


def in_play_disagreements():
    """Every configuration, every item (a die as any face): where in_play()
    and the built sets (cards_in_play, dice_in_bag, black_dice) disagree."""
    out = []
    for players, removed in [(3, c) for c in range(K.COLOURS)] + [
        (4, K.NO_COLOUR),
        (5, K.NO_COLOUR),
    ]:
        sets = K.cards_in_play(players, removed) + K.dice_in_bag(players, removed) + K.black_dice()
        for x in every_item():
            coloured_die = K.is_die(x) and not K.is_black(x)
            for face in range(K.DIE_HIGH + 1) if coloured_die else [K.number(x)]:
                v = K.rolled(x, face) if coloured_die else x
                identity = K.rolled(v, 0) if coloured_die else v  # as the sets list it
                if K.in_play(v, players, removed) != (identity in sets):
                    out.append((players, removed, v))
    return out


def black_dice_apart():
    blacks = K.black_dice()
    bag = K.dice_in_bag(5, K.NO_COLOUR)
    return (len(blacks), [K.is_black(x) for x in blacks], [x for x in bag if K.is_black(x)])


# -------------------------------------------------------------------- cases

# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("is_legal", "legal_plays", "resolve")

CASES = [
    # Item encoding.
    ("encoding: card fields (kind, colour, number, index)", fields, (c(G, 7),), (K.CARD, G, 7, 0)),
    ("encoding: die fields", fields, (d(P, 6, 4),), (K.DIE, P, 6, 4)),
    (
        "encoding: black die is a die of colour BLACK bidding 0",
        fields,
        (X1,),
        (K.DIE, K.BLACK, 0, 1),
    ),
    ("encoding: all 67 physical items distinct, 16-bit", distinct_items, (), (67, True)),
    ("encoding: a rolled die is the same physical die", rolled_is_same_die, (), True),
    # Trump and effective colour.
    ("ex1 red 4 indicator: trump colour red, trump number 4", trump_of, (d(R, 4, 3),), (R, 4)),
    (
        "ex1 every 4 counts as red",
        effective,
        ([c(B, 4), d(G, 4), c(P, 4), d(Y, 4, 2), c(R, 4)], R, 4),
        [R, R, R, R, R],
    ),
    (
        "ex5 sorting a hand: the 4s go with the reds",
        effective,
        ([c(B, 1), c(B, 4), d(Y, 4), c(R, 7), d(G, 2), c(P, 0)], R, 4),
        [B, R, R, R, G, P],
    ),
    ("effective colour: a black die stays black", effective, ([X0], R, 4), [K.BLACK]),
    (
        "effective colour: trump blue 6, a red 6 is blue",
        effective,
        ([c(R, 6), d(R, 5), c(B, 2)], B, 6),
        [B, R, B],
    ),
    # Leading.
    (
        "lead: anything but the black die",
        legal,
        ([c(B, 1), d(G, 2), X0, c(R, 5)], [], R, 4),
        [c(B, 1), d(G, 2), c(R, 5)],
    ),
    (
        "lead: two dice, both may be led",
        legal,
        ([c(B, 1), d(G, 2), d(Y, 3)], [], R, 4),
        [c(B, 1), d(G, 2), d(Y, 3)],
    ),
    (
        "lead: the last die stays, cards only",
        legal,
        ([c(B, 1), d(G, 2), c(R, 5)], [], R, 4),
        [c(B, 1), c(R, 5)],
    ),
    # Must-follow on the effective colour.
    (
        "ex2 (1) blue led: must follow blue",
        legal,
        ([c(B, 2), c(Y, 6), d(B, 5), c(R, 6), d(G, 1)], [c(B, 7)], R, 4),
        [c(B, 2), d(B, 5)],
    ),
    (
        "ex2 (1) blue led: a blue 4 is red and does not follow",
        legal,
        ([c(B, 4), c(Y, 6), d(G, 1), d(R, 2)], [c(B, 7)], R, 4),
        [c(B, 4), c(Y, 6), d(G, 1), d(R, 2)],
    ),
    (
        "ex2 (1) a blue 4 led is a red lead",
        legal,
        ([c(B, 2), c(R, 1), d(G, 3), d(Y, 6)], [c(B, 4)], R, 4),
        [c(R, 1)],
    ),
    (
        "ex2 (2) red led: a 4 of any colour must follow",
        legal,
        ([c(G, 4), c(B, 1), d(Y, 5), d(P, 6)], [c(R, 2)], R, 4),
        [c(G, 4)],
    ),
    (
        "ex2 (2) red led: reds and 4s both follow",
        legal,
        ([c(R, 0), d(Y, 4), c(B, 3), d(G, 1)], [d(R, 6)], R, 4),
        [c(R, 0), d(Y, 4)],
    ),
    (
        "ex2 (2) a green 4 led is a red lead; green does not follow",
        legal,
        ([c(G, 1), c(R, 7), d(B, 2), d(P, 3)], [d(G, 4)], R, 4),
        [c(R, 7)],
    ),
    (
        "follow: trump blue 6, a red 6 follows a blue lead",
        legal,
        ([c(R, 6), c(R, 2), d(G, 1), d(Y, 2)], [c(B, 3)], B, 6),
        [c(R, 6)],
    ),
    (
        "follow: a die of the led colour must be played",
        legal,
        ([c(Y, 1), d(B, 6), d(G, 5)], [c(B, 3)], R, 4),
        [d(B, 6)],
    ),
    (
        "follow: judged on the lead only, not on later plays",
        legal,
        ([c(Y, 1), c(G, 2), d(B, 6), d(P, 5)], [c(G, 3), c(Y, 3)], R, 4),
        [c(G, 2)],
    ),
    (
        "follow: holding the led colour, trumping is refused",
        legal,
        ([c(B, 1), c(R, 5), d(G, 2), d(P, 3)], [c(B, 0)], R, 4),
        [c(B, 1)],
    ),
    (
        "void: anything playable",
        legal,
        ([c(Y, 1), c(G, 7), d(P, 3), d(P, 5)], [c(B, 3)], R, 4),
        [c(Y, 1), c(G, 7), d(P, 3), d(P, 5)],
    ),
    (
        "void: trumping allowed, not required",
        legal,
        ([c(R, 5), c(Y, 1), d(G, 2), d(P, 3)], [c(B, 0)], R, 4),
        [c(R, 5), c(Y, 1), d(G, 2), d(P, 3)],
    ),
    (
        "void: still never the black die",
        legal,
        ([c(Y, 1), X0, d(P, 3)], [c(B, 3)], R, 4),
        [c(Y, 1), d(P, 3)],
    ),
    (
        "is_legal: an off-colour item is refused while holding the led colour",
        is_legal,
        ([c(B, 1), c(Y, 5), d(G, 2), d(P, 3)], [c(B, 0)], c(Y, 5), R, 4),
        False,
    ),
    (
        "is_legal: an item not in the hand is refused",
        is_legal,
        ([c(B, 1), d(G, 2), d(P, 3)], [c(B, 0)], c(B, 2), R, 4),
        False,
    ),
    (
        "is_legal: the black die is refused even when leading",
        is_legal,
        ([c(B, 1), X0, d(P, 3)], [], X0, R, 4),
        False,
    ),
    # Keep one die to the end; it overrides must-follow.
    ("keep: the kept die is the lone die", kept, ([c(B, 1), d(G, 2), c(R, 5)],), 1),
    ("keep: two dice, none forced yet", kept, ([d(B, 1), c(G, 2), d(R, 5)],), -1),
    ("keep: a black die held is the kept die", kept, ([d(B, 1), c(G, 2), X0],), 2),
    (
        "keep overrides must-follow: the last die of the led colour stays",
        legal,
        ([c(Y, 1), c(G, 2), d(B, 6)], [c(B, 3)], R, 4),
        [c(Y, 1), c(G, 2)],
    ),
    (
        "keep overrides must-follow: a lone trump-number die need not follow red",
        legal,
        ([c(B, 1), d(Y, 4)], [c(R, 2)], R, 4),
        [c(B, 1)],
    ),
    (
        "keep: holding a black die, the last coloured die must follow",
        legal,
        ([c(Y, 1), X0, d(B, 6)], [c(B, 3)], R, 4),
        [d(B, 6)],
    ),
    (
        "keep: holding a black die, every coloured die may lead",
        legal,
        ([X0, d(R, 1), d(B, 2)], [], R, 4),
        [d(R, 1), d(B, 2)],
    ),
    (
        "keep: two dice of the led colour, either may follow",
        legal,
        ([d(B, 1), d(B, 2), c(G, 3)], [c(B, 5)], R, 4),
        [d(B, 1), d(B, 2)],
    ),
    (
        "keep: last trick, two dice, either may lead",
        legal,
        ([d(G, 3), d(Y, 5)], [], R, 4),
        [d(G, 3), d(Y, 5)],
    ),
    (
        "keep: last trick, two dice, must follow",
        legal,
        ([d(G, 3), d(Y, 5)], [c(Y, 2)], R, 4),
        [d(Y, 5)],
    ),
    ("keep: round over, the kept die cannot be played", legal, ([d(G, 3)], [c(G, 1)], R, 4), []),
    ("keep: round over, the black die cannot be played", legal, ([X0], [], R, 4), []),
    # Trick result.
    (
        "ex3 tiers with blue led: red 4, other 4s, red, blue, the rest",
        tiers,
        ([d(R, 4), c(G, 4), c(R, 7), c(B, 5), c(Y, 6)], B, R, 4),
        [4, 3, 2, 1, 0],
    ),
    (
        "ex3 red 4 beats every other item",
        winner,
        ([c(B, 6), c(G, 4), d(R, 4), c(R, 7), c(B, 7)], R, 4),
        2,
    ),
    ("ex3 another 4 beats red", winner, ([c(B, 6), c(R, 7), d(Y, 4), c(B, 7)], R, 4), 2),
    ("ex3 red beats the led blue", winner, ([c(B, 6), c(B, 7), c(R, 0)], R, 4), 2),
    ("ex3 blue led: the highest blue wins", winner, ([c(B, 2), d(B, 6), c(B, 5)], R, 4), 1),
    ("ex3 other colours never win", winner, ([c(B, 0), c(Y, 7), d(G, 6), c(P, 7)], R, 4), 0),
    (
        "ex6 player board: red 4, other 4s, red, other dice, black",
        tiers,
        ([d(R, 4), d(G, 4), d(R, 2), d(B, 6), X0], K.NO_COLOUR, R, 4),
        [4, 3, 2, 0, 0],
    ),
    ("trump colour: the highest red wins", winner, ([c(B, 6), c(R, 2), d(R, 6), c(R, 5)], R, 4), 2),
    ("red led: a 4 beats a higher red", winner, ([c(R, 1), c(R, 7), c(B, 4)], R, 4), 2),
    (
        "a green 4 led is red and beats red 0 and green 7",
        winner,
        ([c(G, 4), c(G, 7), c(R, 0)], R, 4),
        0,
    ),
    ("red led: the highest red wins", winner, ([c(R, 1), c(B, 7), d(R, 3), c(R, 2)], R, 4), 2),
    ("a lone lead wins", winner, ([c(P, 0)], R, 4), 0),
    (
        "trump yellow 2: a blue 2 beats yellow and the led green",
        winner,
        ([c(G, 5), d(B, 2), c(Y, 7), c(G, 7)], Y, 2),
        1,
    ),
    (
        "equal: red 4 card then red 4 die, the die (later) wins",
        winner,
        ([c(B, 1), c(R, 4), d(R, 4, 1)], R, 4),
        2,
    ),
    (
        "equal: red 4 die then red 4 card, the card (later) wins",
        winner,
        ([c(B, 1), d(R, 4, 1), c(R, 4)], R, 4),
        2,
    ),
    (
        "equal: other 4s tie, the later wins",
        winner,
        ([c(B, 6), d(G, 4), c(Y, 4), c(B, 2)], R, 4),
        2,
    ),
    (
        "equal: three other 4s, the last wins",
        winner,
        ([c(B, 6), c(P, 4), d(B, 4), d(G, 4, 2)], R, 4),
        3,
    ),
    (
        "equal: blue 5 card then blue 5 die, the die wins",
        winner,
        ([c(B, 2), c(B, 5), d(B, 5)], R, 4),
        2,
    ),
    ("equal: the lead is beaten by an equal later item", winner, ([d(B, 5), c(B, 5)], R, 4), 1),
    (
        "equal: red 6 card then die, the die wins over a blue lead",
        winner,
        ([c(B, 7), c(R, 6), d(R, 6, 3), c(R, 5)], R, 4),
        2,
    ),
    # Round scoring.
    ("bid: the kept die's number, black 0", bids_of, ([d(G, 5), d(R, 1), X0],), [5, 1, 0]),
    (
        "ex4 5 players: A makes 3, B makes 0, three miss",
        K.round_scores,
        ([3, 0, 5, 1, 6], [3, 0, 2, 3, 3]),
        [33, 40, 2, 3, 3],
    ),
    ("score: missed count", K.missed_count, ([3, 0, 5, 1, 6], [3, 0, 2, 3, 3]), 3),
    (
        "score: all make it, no exact bonus, a zero bid still +10",
        K.round_scores,
        ([5, 0, 4, 5], [5, 0, 4, 5]),
        [5, 10, 4, 5],
    ),
    (
        "score: a missed zero bid scores its tricks only",
        K.round_scores,
        ([0, 6, 3], [2, 6, 4]),
        [2, 26, 4],
    ),
    ("score: nobody makes it, tricks only", K.round_scores, ([1, 2, 3], [4, 4, 4]), [4, 4, 4]),
    ("score: zero bid made while four miss", K.round_score, (0, 0, 4), 50),
    ("score: exact bid while one misses", K.round_score, (6, 6, 1), 16),
    ("score: one over the bid", K.round_score, (2, 3, 2), 3),
    # Match result.
    ("match: the highest total wins", K.standings, ([50, 72, 61], [3, 1, 2]), [3, 1, 2]),
    (
        "match tie: the larger kept die of the last round wins",
        K.standings,
        ([60, 60, 41], [2, 5, 6]),
        [2, 1, 3],
    ),
    ("match tie: a black kept die counts 0", K.standings, ([60, 60], [0, 1]), [2, 1]),
    (
        "match tie on total and kept die: shared rank",
        K.standings,
        ([60, 60, 70, 12], [3, 3, 1, 6]),
        [2, 2, 1, 4],
    ),
    ("match compare: total first", K.compare, (61, 1, 60, 6), 1),
    ("match compare: kept die second", K.compare, (60, 1, 60, 6), -1),
    ("match compare: tie", K.compare, (60, 4, 60, 4), 0),
    # R12: the setup per player count.
    (
        "R12 5 players: setup row (the original's values)",
        K.setup,
        (5,),
        (8, 1, 16, 3, 12, 11, 7, 0, 0),
    ),
    ("R12 4 players: setup row", K.setup, (4,), (10, 2, 13, 3, 15, 14, 7, 0, 0)),
    ("R12 3 players: setup row", K.setup, (3,), (9, 1, 10, 3, 13, 12, 6, 1, 1)),
    # tally: cards, dealt, unused, dice in bag, drawn, centre, used, left in bag,
    #        indicator, items from counts, items in table, tricks + 1
    (
        "R12 5 players: every count adds up",
        tally,
        (5, K.NO_COLOUR),
        (40, 40, 0, 25, 5, 16, 21, 4, 1, 12, 12, 12),
    ),
    (
        "R12 4 players: every count adds up",
        tally,
        (4, K.NO_COLOUR),
        (40, 40, 0, 25, 8, 13, 21, 4, 1, 15, 15, 15),
    ),
    (
        "R12 3 players: every count adds up",
        tally,
        (3, G),
        (28, 27, 1, 16, 3, 10, 13, 3, 1, 13, 13, 13),
    ),
    (
        "R12 3 players: the removed colour has no cards",
        per_colour,
        (K.cards_in_play(3, G),),
        [7, 7, 7, 0, 7],
    ),
    (
        "R12 3 players: the removed colour has no dice, 4 dice per other colour",
        per_colour,
        (K.dice_in_bag(3, G),),
        [4, 4, 4, 0, 4],
    ),
    ("R12 3 players: removing red instead", per_colour, (K.dice_in_bag(3, R),), [0, 4, 4, 4, 4]),
    ("R12 3 players: no card numbered 7", high_card, (3, P), 6),
    (
        "R12 4 players: 8 cards and 5 dice per colour",
        per_colour,
        (K.cards_in_play(4, K.NO_COLOUR) + K.dice_in_bag(4, K.NO_COLOUR),),
        [13, 13, 13, 13, 13],
    ),
    ("R12 5 players: cards up to 7", high_card, (5, K.NO_COLOUR), 7),
    (
        "R12 3 players: a colour must be chosen for removal",
        raises,
        (K.cards_in_play, 3, K.NO_COLOUR),
        True,
    ),
    ("R12 5 players: no colour may be removed", raises, (K.dice_in_bag, 5, B), True),
    (
        "R12 2 and 6 players have no setup",
        lambda: [raises(K.setup, 2), raises(K.setup, 6)],
        (),
        [True, True],
    ),
    ("black dice: two, kept apart from the bag", black_dice_apart, (), (2, [True, True], [])),
    ("R12: in_play is exactly the built sets, in every setup", in_play_disagreements, (), []),
]


def hot_calls():
    """The table's per-play calls on a 5-player opening trick (trump red 4)."""
    hand = array(
        "H",
        [
            c(B, 1),
            c(B, 5),
            c(Y, 4),
            c(G, 0),
            c(G, 6),
            c(P, 3),
            c(R, 7),
            c(Y, 2),
            d(B, 3),
            d(G, 4, 1),
            d(R, 6, 2),
            d(P, 1, 3),
        ],
    )
    out = array("H", [0] * len(hand))
    following = trick_of([c(B, 6), d(G, 4), c(R, 2), c(B, 7)])
    full = trick_of([c(B, 6), d(G, 4), c(R, 2), c(B, 7), d(B, 3, 4)])
    item = c(B, 5)
    return [
        ("is_legal", lambda: K.is_legal(hand, 12, following, item, R, 4)),
        ("legal_plays", lambda: K.legal_plays(hand, 12, following, out, R, 4)),
        ("resolve", lambda: K.resolve(full, R, 4)),
    ]
