"""Property tests for the Seltsam-Walzer rules core (CPython, hypothesis).

Each property compares the core against a plain reference written here from
RULES.md section 2, or checks an invariant a whole random round must keep.
"""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.games.walzer import rules as walzer
from dicetable.rules.trick import Trick

DECK = walzer.deck()
XS = [c for c in DECK if walzer.is_x(c)]


def colour_of(c):
    return None if c in XS else walzer.colour(c)


def make_trick(cards):
    trick = Trick(4)
    for seat, c in enumerate(cards):
        trick.add(seat, c)
    return trick


# --- References ---------------------------------------------------------------


def reference_legal(hand, played):
    """The legal cards of `hand`, in hand order, straight from the rule text."""
    if not played or played[0] in XS:
        return list(hand)
    lead = colour_of(played[0])
    if any(colour_of(c) == lead for c in hand):
        return [c for c in hand if c in XS or colour_of(c) == lead]
    return list(hand)


def reference_winner(played):
    xs = [i for i, c in enumerate(played) if c in XS]
    if len(xs) == 1:
        return xs[0]
    if played[0] not in XS:
        lead = colour_of(played[0])
        return max((walzer.number(c), i) for i, c in enumerate(played) if colour_of(c) == lead)[1]
    numbered = [(walzer.number(c), i) for i, c in enumerate(played) if c not in XS]
    if numbered:
        return max(numbered)[1]  # equal numbers: the larger position, the later card
    return len(played) - 1


def reference_scores(piles):
    scores = [0] * len(piles)
    for col, mult in ((walzer.RED, 1), (walzer.BLUE, 2), (walzer.GREEN, 3)):
        mine = [[c for c in pile if colour_of(c) == col] for pile in piles]
        held = sorted(len(m) for m in mine if m)
        for p, m in enumerate(mine):
            if not m:
                continue
            if len(m) == held[0]:
                scores[p] += mult * sum(walzer.number(c) for c in m)
            else:
                scores[p] += mult * len(m)
    return scores


def reference_standings(totals, last):
    order = sorted(range(len(totals)), key=lambda p: (-totals[p], -last[p]))
    places = [0] * len(totals)
    for i, p in enumerate(order):
        prev = order[i - 1] if i else None
        if prev is not None and (totals[prev], last[prev]) == (totals[p], last[p]):
            places[p] = places[prev]
        else:
            places[p] = i + 1
    return places


# --- Strategies -----------------------------------------------------------------


@st.composite
def hand_and_trick(draw):
    """A hand of 1-12 cards and the 0-3 cards already played by others."""
    cards = draw(st.permutations(DECK))
    n = draw(st.integers(1, 12))
    k = draw(st.integers(0, 3))
    return cards[:n], cards[n : n + k]


@st.composite
def full_trick(draw):
    size = draw(st.sampled_from([3, 4]))
    cards = draw(st.permutations(DECK))
    # Tricks with many X are rare from a shuffled deck; mix them in on purpose.
    xs = draw(st.integers(0, size if size == 3 else 3))
    chosen = list(XS[:xs]) + [c for c in cards if c not in XS][: size - xs]
    return draw(st.permutations(chosen))


piles_strategy = st.permutations(DECK).flatmap(
    lambda cards: st.lists(st.integers(0, 3), min_size=36, max_size=36).map(
        lambda owners: [[c for c, o in zip(cards, owners, strict=True) if o == p] for p in range(4)]
    )
)


# --- Follow obligation ------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick())
def test_legal_plays_match_reference_and_are_never_empty(case):
    hand, played = case
    out = array("H", [0] * len(hand))
    k = walzer.legal_plays(array("H", hand), len(hand), make_trick(played), out)
    assert k >= 1
    assert list(out[:k]) == reference_legal(hand, played)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick(), st.sampled_from(DECK))
def test_is_legal_agrees_with_legal_plays(case, card):
    hand, played = case
    trick = make_trick(played)
    out = array("H", [0] * len(hand))
    k = walzer.legal_plays(array("H", hand), len(hand), trick, out)
    assert walzer.is_legal(array("H", hand), len(hand), trick, card) == (card in out[:k])


@settings(max_examples=100, deadline=None)
@given(hand_and_trick())
def test_an_x_in_hand_is_always_legal(case):
    hand, played = case
    trick = make_trick(played)
    for c in hand:
        if c in XS:
            assert walzer.is_legal(array("H", hand), len(hand), trick, c)


# --- Trick result -----------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(full_trick())
def test_resolve_matches_reference(played):
    assert walzer.resolve(make_trick(played)) == reference_winner(played)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(full_trick())
def test_winner_is_an_x_or_a_card_that_may_win(played):
    win = played[walzer.resolve(make_trick(played))]
    xs = sum(1 for c in played if c in XS)
    if xs == 1:
        assert win in XS
    elif played[0] not in XS:
        assert colour_of(win) == colour_of(played[0])
    elif xs < len(played):
        assert win not in XS


# --- A whole round -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]), st.permutations(DECK), st.randoms(use_true_random=False))
def test_a_random_legal_round(players, cards, rnd):
    size = walzer.hand_size(players)
    hands = [list(cards[p * size : (p + 1) * size]) for p in range(players)]
    assert sum(len(h) for h in hands) == 36
    piles = [[] for _ in range(players)]
    trick = Trick(players)
    out = array("H", [0] * size)
    leader = rnd.randrange(players)
    for _ in range(size):
        trick.clear()
        for step in range(players):
            seat = (leader + step) % players
            hand = array("H", hands[seat])
            k = walzer.legal_plays(hand, len(hand), trick, out)
            assert k >= 1
            card = out[rnd.randrange(k)]
            assert walzer.is_legal(hand, len(hand), trick, card)
            hands[seat].remove(card)
            trick.add(seat, card)
        pos = walzer.resolve(trick)
        played = list(trick.items[:players])
        assert pos == reference_winner(played)
        leader = trick.seats[pos]
        piles[leader].extend(played)
    assert sorted(c for pile in piles for c in pile) == sorted(DECK)
    scores = walzer.round_scores(piles)
    assert scores == reference_scores(piles)
    assert all(s >= 0 for s in scores)


# --- Scoring ----------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(piles_strategy)
def test_round_scores_match_reference(piles):
    assert walzer.round_scores(piles) == reference_scores(piles)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(piles_strategy, st.permutations(range(4)))
def test_round_scores_follow_the_players_not_the_seats(piles, order):
    scores = walzer.round_scores(piles)
    assert walzer.round_scores([piles[p] for p in order]) == [scores[p] for p in order]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(piles_strategy)
def test_x_cards_never_change_scores(piles):
    without = [[c for c in pile if c not in XS] for pile in piles]
    assert walzer.round_scores(piles) == walzer.round_scores(without)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 14), min_size=3, max_size=4))
def test_fewest_is_the_smallest_nonzero_count(counts):
    nonzero = [k for k in counts if k]
    assert walzer.fewest(counts) == (min(nonzero) if nonzero else 0)


# --- Match ------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.integers(3, 4).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 8), min_size=n, max_size=n),
            st.lists(st.integers(0, 4), min_size=n, max_size=n),
        )
    )
)
def test_standings_match_reference(case):
    totals, last = case
    places = walzer.standings(totals, last)
    assert places == reference_standings(totals, last)
    assert 1 in places
