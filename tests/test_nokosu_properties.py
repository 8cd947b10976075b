"""Property tests for the Nokosu Dice rules core (CPython, hypothesis).

The references here work on plain tuples (kind, colour, number, index) and
follow the rule text step by step, independently of the core's bit layout
and tier arithmetic.
"""

import ast
import pathlib
import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.games.nokosu import rules as K
from dicetable.rules.trick import Trick

CORE = pathlib.Path(K.__file__)
CARD, DIE = K.CARD, K.DIE
BLACK = K.BLACK


# ------------------------------------------------------------ the components


def encode(t):
    kind, colour, number, index = t
    if kind == CARD:
        return K.card(colour, number)
    if colour == BLACK:
        return K.black_die(index)
    return K.die(colour, index, number)


def components(rolls):
    """Every physical item as a tuple; dice show the given rolls."""
    items = [(CARD, col, num, 0) for col in range(5) for num in range(8)]
    items += [(DIE, col, rolls[col * 5 + k], k) for col in range(5) for k in range(5)]
    items += [(DIE, BLACK, 0, 0), (DIE, BLACK, 0, 1)]
    return items


def is_black(t):
    return t[1] == BLACK


def is_die(t):
    return t[0] == DIE


def eff(t, tc, tn):
    return tc if (t[2] == tn and not is_black(t)) else t[1]


trumps = st.tuples(st.integers(0, 4), st.integers(1, 6))
rolls = st.lists(st.integers(1, 6), min_size=25, max_size=25)


@st.composite
def situations(draw, min_hand=1):
    """(hand, played, trump colour, trump number): a hand holding at most one
    black die, and 0-4 non-black items already played to the trick."""
    pool = draw(st.permutations(components(draw(rolls))))
    hand_size = draw(st.integers(min_hand, 15))
    played_size = draw(st.integers(0, 4))
    hand = [t for t in pool if t[1:] != (BLACK, 0, 1)][:hand_size]
    played = [t for t in pool if t not in hand and not is_black(t)][:played_size]
    tc, tn = draw(trumps)
    return hand, played, tc, tn


def trick_of(played):
    trick = Trick(8)
    for pos, t in enumerate(played):
        trick.add(pos, encode(t))
    return trick


def core_legal(hand, played, tc, tn):
    items = array("H", [encode(t) for t in hand])
    out = array("H", [0] * len(hand))
    count = K.legal_plays(items, len(hand), trick_of(played), out, tc, tn)
    decode = {encode(t): t for t in hand}
    return [decode[out[i]] for i in range(count)]


# ---------------------------------------------------------------- references


def ref_legal(hand, played, tc, tn):
    """Black dice never; keep one die (the black one if held); then must-follow
    over what is left."""
    holds_black = any(is_black(t) for t in hand)
    free = [t for t in hand if not is_black(t)]
    dice = [t for t in free if is_die(t)]
    if len(dice) == 1 and not holds_black:
        free.remove(dice[0])
    if played:
        led = eff(played[0], tc, tn)
        follow = [t for t in free if eff(t, tc, tn) == led]
        if follow:
            return follow
    return free


def last_highest(positions, played):
    best = max(played[p][2] for p in positions)
    return [p for p in positions if played[p][2] == best][-1]


def ref_winner(played, tc, tn):
    """The original's example 3 as a cascade: the first non-empty group wins,
    by highest number, the later one among equals."""
    led = eff(played[0], tc, tn)
    groups = [
        lambda t: t[1] == tc and t[2] == tn,
        lambda t: t[2] == tn,
        lambda t: t[1] == tc,
        lambda t: eff(t, tc, tn) == led,
    ]
    for in_group in groups:
        positions = [p for p, t in enumerate(played) if in_group(t)]
        if positions:
            return last_highest(positions, played)
    raise AssertionError("the lead is always in a group")


def ref_scores(bids, tricks):
    missed = sum(1 for b, t in zip(bids, tricks, strict=True) if b != t)
    return [
        t + (10 * missed + (10 if b == 0 else 0) if b == t else 0)
        for b, t in zip(bids, tricks, strict=True)
    ]


def ref_standings(totals, last_bids):
    keys = [(total, bid) for total, bid in zip(totals, last_bids, strict=True)]
    ordered = sorted(keys, reverse=True)
    return [ordered.index(k) + 1 for k in keys]


# ------------------------------------------------------------------- legality


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(situations())
def test_legal_plays_match_the_reference(s):
    hand, played, tc, tn = s
    assert core_legal(hand, played, tc, tn) == ref_legal(hand, played, tc, tn)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(situations(), st.sampled_from(components([6] * 25)))
def test_is_legal_agrees_with_legal_plays(s, stranger):
    hand, played, tc, tn = s
    items = array("H", [encode(t) for t in hand])
    trick = trick_of(played)
    legal = core_legal(hand, played, tc, tn)
    for t in hand:
        assert K.is_legal(items, len(hand), trick, encode(t), tc, tn) == (t in legal)
    if stranger not in hand:
        assert not K.is_legal(items, len(hand), trick, encode(stranger), tc, tn)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(situations(min_hand=2))
def test_a_hand_with_two_or_more_items_can_always_play(s):
    hand, played, tc, tn = s
    assert core_legal(hand, played, tc, tn)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(situations())
def test_no_legal_play_is_black_or_gives_up_the_last_die(s):
    hand, played, tc, tn = s
    for t in core_legal(hand, played, tc, tn):
        assert not is_black(t)
        rest = [u for u in hand if u != t]
        if any(is_die(u) for u in hand):
            assert any(is_die(u) for u in rest)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(situations())
def test_a_follower_plays_the_led_colour_whenever_one_is_legal(s):
    hand, played, tc, tn = s
    legal = core_legal(hand, played, tc, tn)
    if played and legal:
        led = eff(played[0], tc, tn)
        colours = {eff(t, tc, tn) for t in legal}
        assert colours == {led} or led not in colours


# ---------------------------------------------------------------- trick result


@st.composite
def tricks(draw):
    pool = draw(st.permutations(components(draw(rolls))))
    size = draw(st.integers(1, 5))
    return [t for t in pool if not is_black(t)][:size], draw(trumps)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(tricks())
def test_resolve_matches_the_reference(case):
    played, (tc, tn) = case
    assert K.resolve(trick_of(played), tc, tn) == ref_winner(played, tc, tn)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(tricks())
def test_the_winner_is_led_colour_or_trump_and_beats_everything_after_it(case):
    played, (tc, tn) = case
    led = eff(played[0], tc, tn)
    pos = K.resolve(trick_of(played), tc, tn)
    win = played[pos]
    assert eff(win, tc, tn) in (led, tc)
    strength = [K.strength(encode(t), led, tc, tn) for t in played]
    assert all(strength[pos] >= s for s in strength[:pos])
    assert all(strength[pos] > s for s in strength[pos + 1 :])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(tricks(), st.randoms(use_true_random=False))
def test_reordering_the_followers_keeps_the_winning_colour_and_number(case, rnd):
    played, (tc, tn) = case
    followers = played[1:]
    rnd.shuffle(followers)
    shuffled = played[:1] + followers
    a = played[K.resolve(trick_of(played), tc, tn)]
    b = shuffled[K.resolve(trick_of(shuffled), tc, tn)]
    assert (eff(a, tc, tn), a[2]) == (eff(b, tc, tn), b[2])


# --------------------------------------------------------------------- scoring


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 14)), min_size=3, max_size=5))
def test_round_scores_match_the_reference(rows):
    bids = [b for b, _ in rows]
    taken = [t for _, t in rows]
    scores = K.round_scores(bids, taken)
    assert scores == ref_scores(bids, taken)
    for score, t in zip(scores, taken, strict=True):
        assert score >= t and (score - t) % 10 == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 120), st.integers(0, 6)), min_size=3, max_size=5))
def test_standings_match_the_reference(rows):
    totals = [t for t, _ in rows]
    last = [b for _, b in rows]
    ranks = K.standings(totals, last)
    assert ranks == ref_standings(totals, last)
    assert 1 in ranks


@given(st.sampled_from(components([1, 2, 3, 4, 5, 6] * 4 + [1])))
def test_encoding_round_trips_in_16_bits(t):
    item = encode(t)
    assert 0 <= item < 1 << 16
    assert (K.kind(item), K.colour(item), K.number(item), K.index(item)) == t
    assert K.is_die(item) == is_die(t) and K.is_black(item) == is_black(t)


# ------------------------------------------------------- a whole round played


def play_round(players, rnd):
    """Set up a round from the R12 table and play it out with random legal plays.

    Returns the kept items, tricks taken and the table row; asserts the
    invariants along the way."""
    row = K.setup(players)
    removed = rnd.randrange(K.COLOURS) if row[K.SETUP_COLOURS_REMOVED] else K.NO_COLOUR
    cards = K.cards_in_play(players, removed)
    bag = K.dice_in_bag(players, removed)
    blacks = K.black_dice()
    rnd.shuffle(cards)
    rnd.shuffle(bag)
    hands = [
        cards[i * row[K.SETUP_CARDS_EACH] : (i + 1) * row[K.SETUP_CARDS_EACH]]
        for i in range(players)
    ]
    for seat in range(players):
        for _ in range(row[K.SETUP_DICE_DRAWN]):
            hands[seat].append(K.rolled(bag.pop(), rnd.randint(1, 6)))
    centre = [K.rolled(bag.pop(), rnd.randint(1, 6)) for _ in range(row[K.SETUP_CENTRE])]
    seat = 1 % players  # the start player (seat 0) takes last
    while len(centre) > 1:
        if blacks and not any(K.is_black(x) for x in hands[seat]) and rnd.random() < 0.15:
            hands[seat].append(blacks.pop())  # zero bid: one centre die back to the bag
            bag.append(centre.pop(rnd.randrange(len(centre))))
        else:
            hands[seat].append(centre.pop(rnd.randrange(len(centre))))
        seat = (seat + 1) % players
    indicator = centre[0]
    tc, tn = K.colour(indicator), K.number(indicator)

    everything = [x for h in hands for x in h] + [indicator]
    assert len(set(everything)) == len(everything)
    assert all(len(h) == row[K.SETUP_ITEMS] for h in hands)

    buffers = [array("H", h) for h in hands]
    sizes = [len(h) for h in hands]
    out = array("H", [0] * row[K.SETUP_ITEMS])
    trick = Trick(players)
    taken = [0] * players
    leader = 0
    for _ in range(row[K.SETUP_TRICKS]):
        trick.clear()
        for k in range(players):
            seat = (leader + k) % players
            hand, n = buffers[seat], sizes[seat]
            count = K.legal_plays(hand, n, trick, out, tc, tn)
            assert count >= 1
            item = out[rnd.randrange(count)]
            trick.add(seat, item)
            i = list(hand[:n]).index(item)
            hand[i] = hand[n - 1]
            sizes[seat] = n - 1
        leader = trick.seats[K.resolve(trick, tc, tn)]
        taken[leader] += 1
    assert sizes == [1] * players
    kept = [buffers[s][0] for s in range(players)]
    assert all(K.is_die(x) for x in kept)
    return kept, taken, row


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(K.MIN_PLAYERS, K.MAX_PLAYERS), st.randoms(use_true_random=False))
def test_a_whole_round_plays_out_leaving_each_player_one_die(players, rnd):
    kept, taken, row = play_round(players, rnd)
    assert sum(taken) == row[K.SETUP_TRICKS]
    bids = [K.bid_of(x) for x in kept]
    assert K.round_scores(bids, taken) == ref_scores(bids, taken)


def test_play_round_is_deterministic_for_a_seed():
    assert play_round(5, random.Random(7)) == play_round(5, random.Random(7))


# ------------------------------------------------------- the core's own text


def test_the_core_has_no_strings_but_docstrings():
    tree = ast.parse(CORE.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    strings = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]
    assert strings == []


def test_every_setup_count_comes_from_the_table():
    """No setup literal sneaks into the logic: changing a table entry changes
    the built sets."""
    saved = K.SETUP
    try:
        K.SETUP = tuple(
            row[: K.SETUP_HIGH_CARD] + (5,) + row[K.SETUP_HIGH_CARD + 1 :] for row in saved
        )
        assert len(K.cards_in_play(5, K.NO_COLOUR)) == 5 * 6
        K.SETUP = tuple(row[: K.SETUP_DICE_REMOVED] + (2,) for row in saved)
        assert len(K.dice_in_bag(4, K.NO_COLOUR)) == 5 * 3
    finally:
        K.SETUP = saved
