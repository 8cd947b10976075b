"""Property tests for the DTwww rules core (docs/rules/dtwww.md).

The references below decode items from the documented bit layout themselves
and state each rule in the plainest form (sets, sorting), independently of how
the core computes it.
"""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.games.dtwww import rules as dt
from dicetable.rules.trick import Trick

R, B, G, W = dt.RED, dt.BLUE, dt.GREEN, dt.WHITE
BOX = dt.box()
SIDES = (4, 6, 8, 10, 12, 20)


# --- references, from the documented layout and the rule text ----------------------


def ref_decode(item):
    """(colour, sides, number, copy, declared or None) by the module docstring's layout."""
    declared = (item >> 11) & 3 if (item >> 13) & 1 else None
    return ((item >> 8) & 3, SIDES[(item >> 5) & 7], item & 31, (item >> 10) & 1, declared)


def ref_colour(item):
    colour, _, _, _, declared = ref_decode(item)
    return colour if declared is None else declared


def ref_number(item):
    return ref_decode(item)[2]


def ref_follows(lead, item):
    return ref_colour(item) == ref_colour(lead) or ref_number(item) == ref_number(lead)


def ref_ways(d):
    """Every well-formed play of a die: a white die once per declarable colour."""
    if ref_decode(d)[0] == W:
        return [dt.play(d, c) for c in (R, B, G)]
    return [d]


def ref_legal_set(hand, trick_items):
    """Rule text: the leader plays anything; a follower plays a following die if any
    play of any die in hand would follow, else anything."""
    every = {p for d in hand for p in ref_ways(d)}
    if not trick_items:
        return every
    following = {p for p in every if ref_follows(trick_items[0], p)}
    return following or every


def ref_result(trick_items):
    """(winner, next leader) by sorting: lowest following number, latest first;
    highest number of all, earliest first."""
    lead = trick_items[0]
    followers = [i for i, p in enumerate(trick_items) if i == 0 or ref_follows(lead, p)]
    winner = sorted(followers, key=lambda i: (ref_number(trick_items[i]), -i))[0]
    leader = sorted(range(len(trick_items)), key=lambda i: (-ref_number(trick_items[i]), i))[0]
    return winner, leader


def ref_ranks(totals, counts):
    """Standard competition ranking by sorting: rank = 1 + index of the first equal key."""
    keys = [(c > 0, t, -c) for t, c in zip(totals, counts, strict=True)]
    ordered = sorted(keys, reverse=True)
    return [ordered.index(k) + 1 for k in keys]


# --- strategies ------------------------------------------------------------------------


@st.composite
def rolled_dice(draw, count):
    """`count` distinct dice from the box, each rolled to a face it can show."""
    picks = draw(st.permutations(range(len(BOX))))[:count]
    dice = []
    for i in picks:
        s = dt.size(BOX[i])
        dice.append(dt.rolled(BOX[i], draw(st.integers(dt.lowest_face(s), dt.highest_face(s)))))
    return dice


@st.composite
def hand_and_trick(draw, max_hand=dt.HAND_SIZE, max_trick=dt.MAX_PLAYERS - 1):
    n = draw(st.integers(0, max_hand))
    t = draw(st.integers(0, max_trick))
    dice = draw(rolled_dice(n + t))
    plays = [dt.play(d, draw(st.sampled_from((R, B, G)))) for d in dice[n:]]
    return dice[:n], plays


@st.composite
def full_trick(draw):
    """A trick of 1-4 dice in open play: any dice, white ones declared any of R/B/G."""
    dice = draw(rolled_dice(draw(st.integers(1, dt.MAX_PLAYERS))))
    return [dt.play(d, draw(st.sampled_from((R, B, G)))) for d in dice]


def make_trick(items):
    t = Trick(dt.MAX_PLAYERS)
    for seat, item in enumerate(items):
        t.add(seat, item)
    return t


def listed(hand, trick):
    out = array("H", [0] * dt.MAX_PLAYS)
    k = dt.legal_plays(array("H", hand), len(hand), trick, out)
    return list(out[:k])


score_table = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 12), min_size=n, max_size=n),
        st.lists(st.integers(0, 60), min_size=n, max_size=n),
    )
)


def consistent(counts, totals):
    """No score dice -> total 0 (the input the table can produce)."""
    return [t if c else 0 for c, t in zip(counts, totals, strict=True)]


# --- encoding -------------------------------------------------------------------------


def test_every_die_and_play_round_trips_and_fits_16_bits():
    seen = set()
    for d0 in BOX:
        s = dt.size(d0)
        for face in range(dt.lowest_face(s), dt.highest_face(s) + 1):
            d = dt.rolled(d0, face)
            colour, sides, number, copy, declared = ref_decode(d)
            assert (colour, sides, number, copy, declared) == (
                dt.colour(d),
                dt.sides(dt.size(d)),
                dt.number(d),
                dt.copy_of(d),
                None,
            )
            assert dt.die(colour, dt.size(d), number, copy) == d
            assert dt.effective_colour(d) == colour
            for c in (R, B, G):
                p = dt.play(d, c)
                assert 0 <= p <= 0xFFFF and dt.die_of(p) == d
                assert dt.declaration_ok(p)
                assert dt.effective_colour(p) == (c if colour == W else colour)
                assert ref_decode(p)[4] == (c if colour == W else None)
                seen.add(p)
            assert dt.declaration_ok(dt.play(d, W)) is (colour != W)  # never declared white
            assert dt.declaration_ok(d) is (colour != W)
    # all distinct: 36 coloured dice and 6 white ones declared three ways, every face
    assert len(seen) == sum(dt.sides(dt.size(d)) * (3 if dt.colour(d) == W else 1) for d in BOX)
    assert len({dt.die_of(p) & ~31 for p in seen}) == 42


def test_face_ranges():
    for s in range(dt.D4, dt.D20 + 1):
        faces = [v for v in range(0, 32) if dt.is_face(s, v)]
        assert faces == list(range(dt.lowest_face(s), dt.highest_face(s) + 1))
        assert len(faces) == dt.sides(s) == SIDES[s]
        assert (0 in faces) is (s == dt.D10)


# --- playing a die --------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(hand_and_trick())
def test_legal_plays_match_the_rule_text(deal):
    hand, played = deal
    got = listed(hand, make_trick(played))
    assert len(got) == len(set(got))  # each play once
    assert set(got) == ref_legal_set(hand, played)
    assert bool(got) == bool(hand)  # never stuck with dice in hand


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick(), rolled_dice(3))
def test_is_legal_agrees_with_legal_plays(deal, strangers):
    hand, played = deal
    trick = make_trick(played)
    allowed = set(listed(hand, trick))
    hand_array = array("H", hand)
    candidates = []
    for d in hand + strangers:
        candidates.append(d)  # undeclared
        for c in (R, B, G, W):
            candidates.append(dt.play(d, c))
        candidates.append(d | (5 << 11))  # forged declaration
    for item in candidates:
        assert dt.is_legal(hand_array, len(hand), trick, item) == (item in allowed)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick(max_trick=3))
def test_a_white_die_in_hand_always_follows(deal):
    hand, played = deal
    if not played or not any(dt.colour(d) == W for d in hand):
        return
    got = listed(hand, make_trick(played))
    assert got and all(ref_follows(played[0], p) for p in got)
    lead_colour = ref_colour(played[0])
    for d in hand:
        if dt.colour(d) == W:
            assert dt.play(d, lead_colour) in got


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick(max_trick=3), rolled_dice(1))
def test_open_play_refuses_exactly_what_no_hand_could_play(deal, extra):
    """open_legal(trick, item) is true exactly when some hand holding the die of
    `item` may play it (rule text: ref_legal_set over every such hand)."""
    hand, played = deal
    trick = make_trick(played)
    for d in hand + extra:
        if d in played:
            continue
        for item in [d, d | (5 << 11)] + [dt.play(d, c) for c in (R, B, G, W)]:
            # The hands that make the most plays legal: the die alone (nothing
            # else to follow with), and the die with the hand drawn.
            alone = item in ref_legal_set([d], played)
            assert dt.open_legal(trick, item) == alone, (hex(item), played)
            if d in hand and item in ref_legal_set(hand, played):
                assert dt.open_legal(trick, item)  # a registered play is an open one


# --- trick result ------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(full_trick())
def test_resolve_and_next_leader_match_sorting(items):
    trick = make_trick(items)
    winner, leader = dt.resolve(trick), dt.next_leader(trick)
    assert (winner, leader) == ref_result(items)
    assert winner == 0 or ref_follows(items[0], items[winner])
    assert all(ref_number(p) <= ref_number(items[leader]) for p in items)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(dt.MIN_PLAYERS, dt.MAX_PLAYERS), st.data())
def test_a_whole_game_of_legal_plays(players, data):
    """Nine tricks of legal plays: every die is played, every trick won by a legal
    follower, and the score dice rank the players."""
    dice = data.draw(rolled_dice(players * dt.HAND_SIZE))
    hands = [dice[p * dt.HAND_SIZE : (p + 1) * dt.HAND_SIZE] for p in range(players)]
    lead_seat = data.draw(st.integers(0, players - 1))
    score_dice = [[] for _ in range(players)]
    trick = Trick(dt.MAX_PLAYERS)
    out = array("H", [0] * dt.MAX_PLAYS)
    for _ in range(dt.TRICKS):
        trick.clear()
        for k in range(players):
            seat = (lead_seat + k) % players
            hand = array("H", hands[seat])
            n = dt.legal_plays(hand, len(hand), trick, out)
            assert n > 0
            item = out[data.draw(st.integers(0, n - 1))]
            assert dt.is_legal(hand, len(hand), trick, item)
            hands[seat].remove(dt.die_of(item))
            trick.add(seat, item)
        winner = dt.resolve(trick)
        items = list(trick.items[: trick.count])
        assert (winner, dt.next_leader(trick)) == ref_result(items)
        score_dice[trick.seats[winner]].append(dt.die_of(trick.items[winner]))
        lead_seat = trick.seats[dt.next_leader(trick)]
    assert all(not h for h in hands)
    assert sum(len(s) for s in score_dice) == dt.TRICKS
    totals = [sum(dt.number(d) for d in s) for s in score_dice]
    counts = [len(s) for s in score_dice]
    assert dt.ranks(totals, counts) == ref_ranks(totals, counts)


# --- scoring -------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(score_table, st.randoms(use_true_random=False))
def test_ranks_are_competition_ranks_with_r2(table, rnd):
    counts, raw = table
    totals = consistent(counts, raw)
    got = dt.ranks(totals, counts)
    assert got == ref_ranks(totals, counts)
    assert min(got) == 1
    for r in set(got):  # 1,1,3 never 1,1,2 (R1)
        assert sum(1 for x in got if x < r) == r - 1
    for i, ci in enumerate(counts):  # R2
        for j, cj in enumerate(counts):
            if ci and not cj:
                assert got[i] < got[j]
    order = list(range(len(counts)))
    rnd.shuffle(order)
    assert dt.ranks([totals[i] for i in order], [counts[i] for i in order]) == [
        got[i] for i in order
    ]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(score_table)
def test_game_points(table):
    counts, raw = table
    totals = consistent(counts, raw)
    ranks = dt.ranks(totals, counts)
    vp = dt.game_points(totals, counts, dt.SCORE_VP)
    assert vp == [{1: 2, 2: 1, 3: 1}.get(r, 0) for r in ranks]
    for i in range(len(ranks)):
        for j in range(len(ranks)):
            if ranks[i] < ranks[j]:
                assert vp[i] >= vp[j]
    assert dt.game_points(totals, counts, dt.SCORE_TOTAL) == totals


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(score_table, st.data())
def test_next_game_leader_r3(table, data):
    counts, raw = table
    ranks = dt.ranks(consistent(counts, raw), counts)
    n = len(ranks)
    leader = data.draw(st.integers(0, n - 1))
    seat = dt.next_game_leader(ranks, leader)
    assert ranks[seat] == max(ranks)
    clockwise = [(leader + k) % n for k in range(n)]  # R3: the leader seat first
    assert seat == next(s for s in clockwise if ranks[s] == max(ranks))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=2, max_size=4))
def test_match_winners(points):
    assert dt.match_winners(points) == [i for i, p in enumerate(points) if p == max(points)]


rolls = st.sampled_from(SIDES).flatmap(
    lambda sides: st.tuples(
        st.integers(0 if sides == 10 else 1, 9 if sides == 10 else sides), st.just(sides)
    )
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rolls, rolls)
def test_roll_off(a, b):
    got = dt.roll_off(a[0], a[1], b[0], b[1])
    assert got == -dt.roll_off(b[0], b[1], a[0], a[1])
    key_a, key_b = (a[0], -a[1]), (b[0], -b[1])
    expected = (
        dt.FIRST_WINS if key_a > key_b else dt.SECOND_WINS if key_a < key_b else dt.ROLL_AGAIN
    )
    assert got == expected
