"""Conformance cases for DTwww (docs/rules/dtwww.md, original 000).

A die is written (colour, sides, number); a played white die adds its declared
colour: (W, sides, number, declared). Dice of the same colour and size in one
hand or trick get copy 0, then copy 1, as the box has them. Trick positions are
play order: 0 is the lead. Every expected value was worked out by hand from the
rules.
"""

from array import array

from dicetable.games.dtwww import rules as dt
from dicetable.rules.trick import Trick

R = dt.RED
B = dt.BLUE
G = dt.GREEN
W = dt.WHITE

SIDES = (4, 6, 8, 10, 12, 20)


def _size(sides):
    return SIDES.index(sides)


def _dice(specs):
    """Dice for (colour, sides, number[, declared]) specs, copies numbered in order."""
    items = []
    for spec in specs:
        c = spec[0]
        s = _size(spec[1])
        copy = 0
        for i in range(len(items)):
            if dt.colour(items[i]) == c and dt.size(items[i]) == s:
                copy = 1
        items.append(dt.die(c, s, spec[2], copy))
    return items


def _declare(d, spec):
    if len(spec) < 4:
        return d
    if dt.colour(d) == W:
        return dt.play(d, spec[3])
    # play() never gives a non-white die a declaration; forge one to test the refusal.
    return d | ((4 + spec[3]) << 11)


def _trick(specs):
    dice = _dice(specs)
    t = Trick(dt.MAX_PLAYERS)
    for i in range(len(specs)):
        t.add(i, _declare(dice[i], specs[i]))
    return t


def _play_from(hand, spec):
    """The play of the hand die matching spec (a die not in hand gets copy 0)."""
    c = spec[0]
    s = _size(spec[1])
    d = dt.die(c, s, spec[2], 0)
    for i in range(len(hand)):
        if dt.colour(hand[i]) == c and dt.size(hand[i]) == s and dt.number(hand[i]) == spec[2]:
            d = hand[i]
            break
    return _declare(d, spec)


def _spec(item):
    c = dt.colour(item)
    spec = (c, SIDES[dt.size(item)], dt.number(item))
    if c == W:
        spec = spec + (dt.effective_colour(item),)
    return spec


def other_copy_legal():
    hand = array("H", [encode_copy(R, 6, 3, 0)])
    return dt.is_legal(hand, 1, _trick([]), encode_copy(R, 6, 3, 1))


def legal(hand_specs, trick_specs, play_spec):
    hand = array("H", _dice(hand_specs))
    return dt.is_legal(hand, len(hand), _trick(trick_specs), _play_from(hand, play_spec))


def plays(hand_specs, trick_specs):
    hand = array("H", _dice(hand_specs))
    out = array("H", [0] * (3 * len(hand)))
    k = dt.legal_plays(hand, len(hand), _trick(trick_specs), out)
    return [_spec(out[i]) for i in range(k)]


def open_legal(trick_specs, play_spec):
    """May some hand play this die to the trick (open play: no hand known)?"""
    return dt.open_legal(_trick(trick_specs), encode(play_spec))


def result(trick_specs):
    """(winner position, next leader position) for a trick."""
    t = _trick(trick_specs)
    return (dt.resolve(t), dt.next_leader(t))


def encode(spec):
    d = _dice([spec])[0]
    return _declare(d, spec)


def encode_copy(c, sides, number, copy):
    return dt.die(c, _size(sides), number, copy)


def decode(spec):
    """(colour, sides, number, copy, effective colour, die in hand) of an item."""
    item = encode(spec)
    return (
        dt.colour(item),
        SIDES[dt.size(item)],
        dt.number(item),
        dt.copy_of(item),
        dt.effective_colour(item),
        _spec(dt.die_of(item)),
    )


def rerolled(spec, number):
    d = dt.rolled(encode_copy(spec[0], spec[1], 0, 1), number)
    return (_spec(d), dt.copy_of(d))


def faces(sides):
    s = _size(sides)
    return (dt.lowest_face(s), dt.highest_face(s), dt.sides(s))


def face_ok(sides, number):
    return dt.is_face(_size(sides), number)


def box_summary():
    """(dice, white dice, distinct dice, largest play item) over the box."""
    dice = dt.box()
    white = 0
    distinct = []
    largest = 0
    for d in dice:
        if dt.colour(d) == W:
            white += 1
        if d not in distinct:
            distinct.append(d)
        for c in (R, B, G):
            p = dt.play(d, c)
            if p > largest:
                largest = p
    return (len(dice), white, len(distinct), largest <= 0xFFFF)


def box_count(c, sides):
    dice = dt.box()
    n = 0
    for d in dice:
        if dt.colour(d) == c and SIDES[dt.size(d)] == sides:
            n += 1
    return n


def next_after_scoring(totals, counts, leader):
    return dt.next_game_leader(dt.ranks(totals, counts), leader)


def vp_table():
    return [dt.victory_points(r) for r in (1, 2, 3, 4, 5)]


# A red lead and a hand for the follow cases.
RED4 = [(R, 6, 4)]

# The rules core's functions the table calls on every play: their frames must
# fit on the board's C stack (tests/test_board_frames.py).
PER_PLAY = ("is_legal", "legal_plays", "resolve", "next_leader")

CASES = [
    # --- encoding ----------------------------------------------------------------
    (
        "encoding: green d12 copy 1 showing 11",
        encode_copy,
        (G, 12, 11, 1),
        11 | (4 << 5) | (2 << 8) | (1 << 10),
    ),
    (
        "encoding: white d20 showing 17 played as blue",
        encode,
        ((W, 20, 17, B),),
        17 | (5 << 5) | (3 << 8) | (1 << 11) | (1 << 13),
    ),
    ("encoding: red d4 copy 0 showing 1", encode_copy, (R, 4, 1, 0), 1),
    (
        "decode: non-white die counts as its own colour",
        decode,
        ((B, 8, 6),),
        (B, 8, 6, 0, B, (B, 8, 6)),
    ),
    (
        "decode: white die played as green counts as green, stays white",
        decode,
        ((W, 10, 0, G),),
        (W, 10, 0, 0, G, (W, 10, 0, W)),
    ),
    (
        "decode: white die in hand counts as white until declared",
        decode,
        ((W, 6, 5),),
        (W, 6, 5, 0, W, (W, 6, 5, W)),
    ),
    (
        "play: a non-white die carries no declaration",
        dt.play,
        (encode((R, 8, 3)), G),
        encode((R, 8, 3)),
    ),
    ("rolled: same die, new number", rerolled, ((B, 12), 7), ((B, 12, 7), 1)),
    (
        "box: 42 dice, 6 white, all distinct, every play fits 16 bits",
        box_summary,
        (),
        (42, 6, 42, True),
    ),
    ("box: two red d10", box_count, (R, 10), 2),
    ("box: two green d20", box_count, (G, 20), 2),
    ("box: one white d4", box_count, (W, 4), 1),
    ("faces: d4 shows 1-4", faces, (4,), (1, 4, 4)),
    ("faces: d6 shows 1-6", faces, (6,), (1, 6, 6)),
    ("faces: d8 shows 1-8", faces, (8,), (1, 8, 8)),
    ("faces: d10 shows 0-9", faces, (10,), (0, 9, 10)),
    ("faces: d12 shows 1-12", faces, (12,), (1, 12, 12)),
    ("faces: d20 shows 1-20", faces, (20,), (1, 20, 20)),
    ("faces: d10 can show 0", face_ok, (10, 0), True),
    ("faces: d10 cannot show 10", face_ok, (10, 10), False),
    ("faces: d6 cannot show 0", face_ok, (6, 0), False),
    ("faces: d4 can show 4", face_ok, (4, 4), True),
    ("faces: d20 cannot show 21", face_ok, (20, 21), False),
    # --- leading and declaring ------------------------------------------------------
    (
        "lead: the leader may play any die",
        plays,
        ([(R, 6, 3), (B, 20, 17)], []),
        [(R, 6, 3), (B, 20, 17)],
    ),
    (
        "lead: a white die is listed once per colour R, B, G",
        plays,
        ([(R, 6, 3), (W, 8, 5)], []),
        [(R, 6, 3), (W, 8, 5, R), (W, 8, 5, B), (W, 8, 5, G)],
    ),
    ("white: may be declared green when led", legal, ([(W, 6, 3)], [], (W, 6, 3, G)), True),
    ("white: must be declared when played", legal, ([(W, 6, 3)], [], (W, 6, 3)), False),
    ("white: can never be declared white", legal, ([(W, 6, 3)], [], (W, 6, 3, W)), False),
    (
        "white: a non-white die cannot carry a declaration",
        legal,
        ([(R, 6, 3)], [], (R, 6, 3, B)),
        False,
    ),
    ("play: a die not in hand is refused", legal, ([(R, 6, 3)], [], (R, 6, 4)), False),
    ("play: a die showing another number is refused", legal, ([(R, 6, 3)], [], (R, 6, 5)), False),
    ("play: the other copy of a die in hand is refused", other_copy_legal, (), False),
    ("play: empty hand has no plays", plays, ([], RED4), []),
    # --- follow obligation ------------------------------------------------------------
    ("follow: by the lead colour", plays, ([(R, 8, 7), (B, 10, 2)], RED4), [(R, 8, 7)]),
    ("follow: by the lead number", plays, ([(B, 8, 4), (G, 10, 2)], RED4), [(B, 8, 4)]),
    (
        "follow: colour or number, either one",
        plays,
        ([(R, 8, 7), (B, 8, 4), (G, 10, 2)], RED4),
        [(R, 8, 7), (B, 8, 4)],
    ),
    ("follow: colour and number both", plays, ([(R, 12, 4), (G, 4, 1)], RED4), [(R, 12, 4)]),
    (
        "follow: must follow even when unwilling",
        legal,
        ([(R, 8, 7), (B, 10, 2)], RED4, (B, 10, 2)),
        False,
    ),
    ("follow: a following die is legal", legal, ([(R, 8, 7), (B, 10, 2)], RED4, (R, 8, 7)), True),
    (
        "follow: cannot follow -> any die",
        plays,
        ([(B, 8, 7), (G, 10, 2)], RED4),
        [(B, 8, 7), (G, 10, 2)],
    ),
    (
        "follow: cannot follow -> a non-following die is legal",
        legal,
        ([(B, 8, 7), (G, 10, 2)], RED4, (G, 10, 2)),
        True,
    ),
    (
        "follow: only the lead counts, not earlier followers",
        plays,
        ([(B, 10, 5), (R, 20, 13)], [(R, 6, 4), (B, 8, 5)]),
        [(R, 20, 13)],
    ),
    (
        "ex white lead: follow the declared colour",
        plays,
        ([(B, 8, 7), (R, 10, 5), (G, 4, 3)], [(W, 6, 2, B)]),
        [(B, 8, 7)],
    ),
    (
        "white lead: the lead number also follows",
        plays,
        ([(R, 10, 2), (G, 4, 3)], [(W, 6, 2, B)]),
        [(R, 10, 2)],
    ),
    (
        "ex white lead: a white die in hand declared the lead's colour",
        plays,
        ([(W, 20, 15), (B, 8, 7), (G, 4, 3)], [(W, 6, 2, B)]),
        [(W, 20, 15, B), (B, 8, 7)],
    ),
    (
        "white lead: a white die alone must be declared the lead's colour",
        plays,
        ([(W, 20, 15), (R, 8, 7)], [(W, 6, 2, B)]),
        [(W, 20, 15, B)],
    ),
    (
        "ex red lead: no red but a white -> white declared red",
        plays,
        ([(B, 8, 7), (W, 12, 9), (G, 4, 3)], RED4),
        [(W, 12, 9, R)],
    ),
    (
        "ex red lead: no red but a white -> another die is refused",
        legal,
        ([(B, 8, 7), (W, 12, 9), (G, 4, 3)], RED4, (B, 8, 7)),
        False,
    ),
    (
        "ex red lead: no red but a white -> white declared blue is refused",
        legal,
        ([(B, 8, 7), (W, 12, 9), (G, 4, 3)], RED4, (W, 12, 9, B)),
        False,
    ),
    (
        "ex red lead: no red but a white -> white declared red is legal",
        legal,
        ([(B, 8, 7), (W, 12, 9), (G, 4, 3)], RED4, (W, 12, 9, R)),
        True,
    ),
    (
        "white in hand: or any die of the lead number",
        plays,
        ([(B, 8, 4), (W, 12, 9)], RED4),
        [(B, 8, 4), (W, 12, 9, R)],
    ),
    (
        "white in hand: with the lead number every declaration follows",
        plays,
        ([(W, 4, 4), (G, 8, 1)], RED4),
        [(W, 4, 4, R), (W, 4, 4, B), (W, 4, 4, G)],
    ),
    (
        "white in hand: with the lead number declared green is legal",
        legal,
        ([(W, 4, 4), (G, 8, 1)], RED4, (W, 4, 4, G)),
        True,
    ),
    (
        "white in hand: beside a die of the lead colour",
        plays,
        ([(G, 4, 2), (W, 10, 7)], [(G, 8, 6)]),
        [(G, 4, 2), (W, 10, 7, G)],
    ),
    (
        "white in hand: a last die can always follow",
        plays,
        ([(W, 10, 0)], [(G, 8, 6)]),
        [(W, 10, 0, G)],
    ),
    # --- open play: the hand is unknown, a white die shows it could follow ------------
    (
        "open: blue d12 lead, a white d6 declared red is refused",
        open_legal,
        ([(B, 12, 9)], (W, 6, 3, R)),
        False,
    ),
    (
        "open: the same white die declared the lead colour follows",
        open_legal,
        ([(B, 12, 9)], (W, 6, 3, B)),
        True,
    ),
    (
        "open: a white die showing the lead number follows, declared any colour",
        open_legal,
        ([(B, 12, 5)], (W, 6, 5, G)),
        True,
    ),
    (
        "open: a coloured die off the lead may come from a hand that cannot follow",
        open_legal,
        ([(B, 12, 9)], (R, 6, 3)),
        True,
    ),
    ("open: a white die led may be declared any colour", open_legal, ([], (W, 6, 3, G)), True),
    ("open: a white die is never played undeclared", open_legal, ([(B, 12, 9)], (W, 6, 3)), False),
    (
        "open: a white lead's declared colour is the lead colour",
        open_legal,
        ([(W, 8, 2, G)], (W, 6, 3, R)),
        False,
    ),
    (
        "open: only the lead counts, not an earlier follower's colour",
        open_legal,
        ([(B, 12, 9), (R, 8, 9)], (W, 6, 3, R)),
        False,
    ),
    (
        "open: as registered play with that die alone in hand",
        lambda: [
            open_legal([(B, 12, 9)], (W, 6, 3, c)) == legal([(W, 6, 3)], [(B, 12, 9)], (W, 6, 3, c))
            for c in (R, B, G)
        ],
        (),
        [True, True, True],
    ),
    # --- trick result: (winner, next leader) -----------------------------------------
    (
        "ex A: all lead colour, lowest wins, highest leads",
        result,
        ([(R, 6, 5), (R, 8, 2), (R, 20, 14), (R, 4, 3)],),
        (1, 2),
    ),
    (
        "ex A: 0 (d10 only) is the lowest number",
        result,
        ([(B, 12, 7), (B, 10, 0), (B, 4, 1)],),
        (1, 0),
    ),
    (
        "ex B: all the lead number, last wins, leader leads again",
        result,
        ([(G, 6, 4), (R, 8, 4), (B, 12, 4), (G, 20, 4)],),
        (3, 0),
    ),
    (
        "ex C: the lone lowest of the lead colour wins",
        result,
        ([(R, 8, 6), (B, 6, 6), (R, 4, 2), (G, 20, 6)],),
        (2, 0),
    ),
    (
        "ex C: several lowest of the lead colour, the last wins",
        result,
        ([(B, 12, 5), (B, 4, 3), (G, 20, 17), (B, 6, 3)],),
        (3, 2),
    ),
    (
        "ex C: lowest is the lead number, last of it wins whatever its colour",
        result,
        ([(G, 6, 2), (R, 8, 2), (G, 10, 5), (B, 4, 2)],),
        (3, 2),
    ),
    (
        "ex C: lone lowest of another colour neither wins nor leads",
        result,
        ([(R, 8, 5), (R, 6, 3), (G, 4, 1), (R, 12, 8)],),
        (1, 3),
    ),
    (
        "ex C: lone highest of another colour leads next but cannot win",
        result,
        ([(R, 6, 5), (R, 4, 2), (B, 20, 19)],),
        (1, 2),
    ),
    (
        "ex strongest: the last 0 played while following",
        result,
        ([(R, 6, 3), (B, 10, 0), (R, 10, 0), (G, 10, 0)],),
        (2, 0),
    ),
    (
        "ex strongest: of equal 0s following, the last",
        result,
        ([(R, 10, 0), (B, 10, 0), (R, 10, 0)],),
        (2, 0),
    ),
    (
        "ex weakest: the first 20 played leads, following or not",
        result,
        ([(G, 12, 5), (R, 20, 20), (B, 20, 20), (G, 20, 20)],),
        (0, 1),
    ),
    (
        "result: the leader wins when no follower is lower",
        result,
        ([(R, 6, 2), (B, 8, 5), (G, 4, 3)],),
        (0, 1),
    ),
    (
        "result: equal numbers, a later non-follower does not win",
        result,
        ([(R, 6, 4), (R, 10, 2), (B, 8, 2)],),
        (1, 0),
    ),
    (
        "result: equal numbers, a later follower wins",
        result,
        ([(R, 6, 4), (B, 8, 2), (R, 10, 2)],),
        (2, 0),
    ),
    (
        "result: a white lead sets the lead colour to its declaration",
        result,
        ([(W, 8, 4, G), (G, 6, 2), (R, 4, 1)],),
        (1, 0),
    ),
    (
        "result: a white follower declared the lead colour follows",
        result,
        ([(B, 12, 9), (W, 6, 1, B), (B, 8, 3)],),
        (1, 0),
    ),
    (
        "result: a white die declared another colour does not follow",
        result,
        ([(B, 12, 9), (W, 6, 1, R), (B, 8, 3)],),
        (2, 0),
    ),
    (
        "result: a white die declared another colour follows by number",
        result,
        ([(B, 12, 6), (W, 6, 6, G), (B, 8, 7)],),
        (1, 2),
    ),
    ("result: two players, equal numbers", result, ([(R, 6, 3), (G, 8, 3)],), (1, 0)),
    ("result: the lead alone wins and leads", result, ([(R, 6, 3)],), (0, 0)),
    # --- scoring a game ---------------------------------------------------------------
    ("rank: highest total first", dt.ranks, ([20, 15, 9, 12], [3, 2, 1, 2]), [1, 2, 4, 3]),
    (
        "rank: equal total, fewer score dice ranks higher",
        dt.ranks,
        ([12, 12, 5], [3, 2, 1]),
        [2, 1, 3],
    ),
    ("ex rank: 1,1,3", dt.ranks, ([10, 10, 4], [2, 2, 1]), [1, 1, 3]),
    ("ex rank: 1,2,2,4", dt.ranks, ([18, 9, 9, 3], [3, 2, 2, 1]), [1, 2, 2, 4]),
    ("ex rank: 1,2,3,3,5", dt.ranks, ([20, 15, 11, 11, 2], [2, 2, 3, 3, 1]), [1, 2, 3, 3, 5]),
    (
        "R1 ex rank: 1,1,3,3,5 and never 1,1,3,3,4",
        dt.ranks,
        ([14, 14, 8, 8, 3], [2, 2, 2, 2, 1]),
        [1, 1, 3, 3, 5],
    ),
    (
        "R2 no score die ranks below a score-dice total of 0",
        dt.ranks,
        ([0, 0, 7], [1, 0, 2]),
        [2, 3, 1],
    ),
    (
        "R2 players with no score die share the rank below",
        dt.ranks,
        ([9, 0, 0, 4], [2, 0, 0, 1]),
        [1, 3, 3, 2],
    ),
    ("R2 one trick taker, three without", dt.ranks, ([3, 0, 0, 0], [1, 0, 0, 0]), [1, 2, 2, 2]),
    ("R2 below a shared first rank", dt.ranks, ([5, 5, 0], [1, 1, 0]), [1, 1, 3]),
    ("vp: 1st 2, 2nd 1, 3rd 1, 4th and below 0", vp_table, (), [2, 1, 1, 0, 0]),
    (
        "points: victory points by rank",
        dt.game_points,
        ([20, 15, 9, 12], [3, 2, 1, 2], dt.SCORE_VP),
        [2, 1, 0, 1],
    ),
    (
        "points: shared first rank, both take 2",
        dt.game_points,
        ([10, 10, 4], [2, 2, 1], dt.SCORE_VP),
        [2, 2, 1],
    ),
    (
        "R2 points: the shared rank below scores its victory points",
        dt.game_points,
        ([9, 0, 0, 4], [2, 0, 0, 1], dt.SCORE_VP),
        [2, 1, 1, 1],
    ),
    (
        "points variant: the dice total itself",
        dt.game_points,
        ([20, 15, 9, 12], [3, 2, 1, 2], dt.SCORE_TOTAL),
        [20, 15, 9, 12],
    ),
    (
        "points variant: no score die adds 0",
        dt.game_points,
        ([6, 0, 11], [2, 0, 3], dt.SCORE_TOTAL),
        [6, 0, 11],
    ),
    # --- the match ------------------------------------------------------------------
    ("next game: the last-ranked player leads", dt.next_game_leader, ([1, 2, 4, 3], 0), 2),
    (
        "R3 tie for last: first of them clockwise from the leader",
        dt.next_game_leader,
        ([1, 3, 2, 3], 2),
        3,
    ),
    (
        "R3 tie for last: the leader seat itself is the first candidate",
        dt.next_game_leader,
        ([3, 1, 3, 2], 2),
        2,
    ),
    (
        "R3 tie for last: clockwise wraps past the last seat",
        dt.next_game_leader,
        ([3, 3, 1, 2], 2),
        0,
    ),
    ("R3 everyone shares rank 1: the leader leads again", dt.next_game_leader, ([1, 1, 1], 1), 1),
    (
        "R2 R3 the first player clockwise with no score die leads",
        next_after_scoring,
        ([9, 0, 0, 4], [2, 0, 0, 1], 0),
        1,
    ),
    (
        "R2 R3 no score die leads rather than a score-dice total of 0",
        next_after_scoring,
        ([0, 0, 7], [1, 0, 2], 0),
        1,
    ),
    ("final: most points wins", dt.match_winners, ([5, 3, 4],), [0]),
    ("final: tied most points roll off", dt.match_winners, ([4, 2, 4, 1],), [0, 2]),
    ("final roll-off: higher number wins", dt.roll_off, (5, 6, 3, 20), dt.FIRST_WINS),
    (
        "final roll-off: higher number wins, second player",
        dt.roll_off,
        (3, 20, 5, 6),
        dt.SECOND_WINS,
    ),
    ("final roll-off: equal numbers, fewer faces wins", dt.roll_off, (4, 4, 4, 6), dt.FIRST_WINS),
    (
        "final roll-off: equal numbers, fewer faces wins, second player",
        dt.roll_off,
        (4, 12, 4, 8),
        dt.SECOND_WINS,
    ),
    ("final roll-off: 0 on a d10 loses to 1 on a d20", dt.roll_off, (0, 10, 1, 20), dt.SECOND_WINS),
    (
        "final roll-off: same number on the same die, roll again",
        dt.roll_off,
        (6, 6, 6, 6),
        dt.ROLL_AGAIN,
    ),
    (
        "setup: 9 dice each, 9 tricks, 2-4 players",
        lambda: (dt.HAND_SIZE, dt.TRICKS, dt.MIN_PLAYERS, dt.MAX_PLAYERS, dt.MAX_PLAYS),
        (),
        (9, 9, 2, 4, 27),
    ),
]


def hot_calls():
    """The per-play calls on a full 9-die hand (with a white die) and a 4-player trick."""
    hand = array(
        "H",
        _dice(
            [
                (B, 8, 7),
                (G, 4, 3),
                (W, 12, 9),
                (B, 20, 14),
                (G, 10, 0),
                (B, 6, 5),
                (G, 12, 11),
                (W, 6, 4),
                (R, 20, 16),
            ]
        ),
    )
    n = len(hand)
    lead3 = _trick([(R, 6, 4), (W, 10, 2, R), (G, 8, 4)])
    full = _trick([(R, 6, 4), (W, 10, 2, R), (G, 8, 4), (R, 12, 9)])
    item = dt.play(hand[7], R)
    out = array("H", [0] * dt.MAX_PLAYS)
    return [
        ("is_legal", lambda: dt.is_legal(hand, n, lead3, item)),
        ("legal_plays", lambda: dt.legal_plays(hand, n, lead3, out)),
        ("resolve", lambda: dt.resolve(full)),
        ("next_leader", lambda: dt.next_leader(full)),
        ("open_legal", lambda: dt.open_legal(lead3, item)),
    ]
