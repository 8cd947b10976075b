"""Property tests for the d-TT rules core (CPython, hypothesis).

Each property compares the core against a plain reference written here from
RULES.md section 4, or checks an invariant a whole random deal must keep.
"""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.games.dtt import rules as dtt
from dicetable.rules.trick import Trick

DECK = dtt.deck()
# Independent of the core's rank indices: printed values, strongest first,
# and suits in the R10 order.
STRENGTH = [1, 3, 13, 12, 11, 7, 6, 5, 4, 2]
SUIT_ORDER = [dtt.SPADES, dtt.HEARTS, dtt.DIAMONDS, dtt.CLUBS]
HONOURS = {1, 3, 13, 12, 11}


def strength(c):
    """Larger is stronger."""
    return len(STRENGTH) - STRENGTH.index(dtt.face(c))


def make_trick(cards):
    trick = Trick(3)
    for seat, c in enumerate(cards):
        trick.add(seat, c)
    return trick


# --- References -------------------------------------------------------------------


def reference_trump(face_up):
    best = sorted(face_up, key=lambda c: (-strength(c), SUIT_ORDER.index(dtt.suit(c))))[0]
    return dtt.suit(best) if dtt.face(best) in HONOURS else dtt.NO_TRUMP


def reference_legal(hand, played):
    if played and any(dtt.suit(c) == dtt.suit(played[0]) for c in hand):
        return [c for c in hand if dtt.suit(c) == dtt.suit(played[0])]
    return list(hand)


def reference_winner(played, trump):
    trumps = [c for c in played if dtt.suit(c) == trump]
    pool = trumps or [c for c in played if dtt.suit(c) == dtt.suit(played[0])]
    return played.index(max(pool, key=strength))


def reference_standing(cumulative, sign):
    """sign +1: lowest -10 / highest +10 (all make); -1: reversed (none make)."""
    lo, hi = min(cumulative), max(cumulative)
    if lo == hi:
        return [0, 0, 0]
    lows, highs = cumulative.count(lo), cumulative.count(hi)
    out = []
    for c in cumulative:
        if c == lo:
            out.append(sign * (-10 if lows == 1 else -5))
        elif c == hi:
            out.append(sign * (10 if highs == 1 else 5))
        else:
            out.append(0)
    return out


def reference_scores(bids, taken, cumulative):
    ok = [b == t for b, t in zip(bids, taken, strict=True)]
    winners = [b for b, m in zip(bids, ok, strict=True) if m]
    if len(winners) == 3:
        return reference_standing(cumulative, 1)
    if not winners:
        return reference_standing(cumulative, -1)
    if len(winners) == 2:
        return [b + 10 if m else -(sum(winners) + 20) for b, m in zip(bids, ok, strict=True)]
    return [2 * winners[0] + 20 if m else -(winners[0] + 10) for m in ok]


# --- Strategies ---------------------------------------------------------------------


@st.composite
def hand_and_trick(draw):
    """A hand of 1-12 cards and the 0-2 cards already played by others."""
    cards = draw(st.permutations(DECK))
    n = draw(st.integers(1, 12))
    k = draw(st.integers(0, 2))
    return cards[:n], cards[n : n + k]


trumps = st.sampled_from([dtt.SPADES, dtt.HEARTS, dtt.DIAMONDS, dtt.CLUBS, dtt.NO_TRUMP])


@st.composite
def three_tricks(draw):
    """A full trick; often of one or two suits so that following and trumping happen."""
    suits = draw(st.lists(st.sampled_from(SUIT_ORDER), min_size=1, max_size=2, unique=True))
    pool = [c for c in DECK if dtt.suit(c) in suits]
    return draw(st.permutations(pool))[:3]


tricks_taken = (
    st.lists(st.integers(0, 12), min_size=2, max_size=2)
    .filter(lambda t: sum(t) <= 12)
    .map(lambda t: t + [12 - sum(t)])
)
bids = st.lists(st.integers(0, 12), min_size=3, max_size=3)
totals = st.lists(st.integers(-60, 60), min_size=3, max_size=3)


@st.composite
def deal_outcome(draw):
    taken = draw(tricks_taken)
    # Make each bid right about half the time, so every branch is drawn.
    bid = [t if draw(st.booleans()) else draw(st.integers(0, 12)) for t in taken]
    cumulative = draw(
        st.one_of(
            totals,
            st.sampled_from([0, 10, -10]).map(lambda v: [v] * 3),
            st.lists(st.sampled_from([-5, 0, 5]), min_size=3, max_size=3),
        )
    )
    return bid, taken, cumulative


# --- Trump ----------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.permutations(DECK).map(lambda cards: cards[:4]))
def test_trump_matches_reference(face_up):
    assert dtt.trump_suit(face_up) == reference_trump(face_up)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.permutations(DECK).map(lambda cards: cards[:4]), st.permutations(range(4)))
def test_trump_does_not_depend_on_the_order_cards_are_turned(face_up, order):
    assert dtt.trump_suit(face_up) == dtt.trump_suit([face_up[i] for i in order])


# --- Follow obligation ------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick())
def test_legal_plays_match_reference_and_are_never_empty(case):
    hand, played = case
    out = array("H", [0] * len(hand))
    k = dtt.legal_plays(array("H", hand), len(hand), make_trick(played), out)
    assert k >= 1
    assert list(out[:k]) == reference_legal(hand, played)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand_and_trick(), st.sampled_from(DECK))
def test_is_legal_agrees_with_legal_plays(case, card):
    hand, played = case
    trick = make_trick(played)
    out = array("H", [0] * len(hand))
    k = dtt.legal_plays(array("H", hand), len(hand), trick, out)
    assert dtt.is_legal(array("H", hand), len(hand), trick, card) == (card in out[:k])


# --- Trick result -------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(three_tricks(), trumps)
def test_resolve_matches_reference(played, trump):
    assert dtt.resolve(make_trick(played), trump) == reference_winner(played, trump)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(three_tricks(), trumps)
def test_winner_is_a_trump_or_follows_the_lead(played, trump):
    win = played[dtt.resolve(make_trick(played), trump)]
    if any(dtt.suit(c) == trump for c in played):
        assert dtt.suit(win) == trump
    else:
        assert dtt.suit(win) == dtt.suit(played[0])


# --- A whole deal ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK), st.randoms(use_true_random=False), bids)
def test_a_random_legal_deal(cards, rnd, bid):
    trump = dtt.trump_suit(cards[: dtt.FACE_UP])
    rest = cards[dtt.FACE_UP :]
    hands = [list(rest[p * dtt.HAND_SIZE : (p + 1) * dtt.HAND_SIZE]) for p in range(dtt.PLAYERS)]
    taken = [0] * dtt.PLAYERS
    trick = Trick(dtt.PLAYERS)
    out = array("H", [0] * dtt.HAND_SIZE)
    leader = rnd.randrange(dtt.PLAYERS)
    for _ in range(dtt.TRICKS):
        trick.clear()
        for step in range(dtt.PLAYERS):
            seat = (leader + step) % dtt.PLAYERS
            hand = array("H", hands[seat])
            k = dtt.legal_plays(hand, len(hand), trick, out)
            assert k >= 1
            card = out[rnd.randrange(k)]
            hands[seat].remove(card)
            trick.add(seat, card)
        pos = dtt.resolve(trick, trump)
        assert pos == reference_winner(list(trick.items[:3]), trump)
        leader = trick.seats[pos]
        taken[leader] += 1
    assert sum(taken) == dtt.TRICKS
    assert hands == [[], [], []]
    scores = dtt.deal_scores(bid, taken, [0, 0, 0])
    assert sum(scores) == 0


# --- Scoring ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(deal_outcome())
def test_deal_scores_match_reference_and_sum_to_zero(outcome):
    bid, taken, cumulative = outcome
    scores = dtt.deal_scores(bid, taken, cumulative)
    assert scores == reference_scores(bid, taken, cumulative)
    assert sum(scores) == 0


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(deal_outcome())
def test_a_maker_never_loses_unless_all_made(outcome):
    bid, taken, cumulative = outcome
    scores = dtt.deal_scores(bid, taken, cumulative)
    makers = [b == t for b, t in zip(bid, taken, strict=True)]
    if 0 < makers.count(True) < 3:
        for p in range(3):
            assert (scores[p] > 0) == makers[p]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(deal_outcome(), st.permutations(range(3)))
def test_scores_follow_the_players_not_the_seats(outcome, order):
    bid, taken, cumulative = outcome
    scores = dtt.deal_scores(bid, taken, cumulative)
    moved = dtt.deal_scores(
        [bid[p] for p in order], [taken[p] for p in order], [cumulative[p] for p in order]
    )
    assert moved == [scores[p] for p in order]


@settings(max_examples=100, deadline=None)
@given(st.integers(-5, 20))
def test_bid_range(bid):
    assert dtt.bid_ok(bid) == (bid in range(13))


@settings(max_examples=200, deadline=None)
@given(totals)
def test_standings(t):
    places = dtt.standings(t)
    ranked = sorted(t, reverse=True)
    assert places == [ranked.index(mine) + 1 for mine in t]
    assert places[t.index(max(t))] == 1
