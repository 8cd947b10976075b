"""Seltsam-Walzer match engine (match.py on deal.py): the match, from the deal to the standings.

Scores are recomputed here from the tricks the engine reports, with a
reference written from RULES.md section 2 (not the rules core); every class
of bad action is shown refused with the state unchanged; the phase changes
a player relies on are pinned; open play scores as registered play does.
"""

import random

import pytest
from match_helpers import play_random, random_chooser, seats_waiting, snapshot

from dicetable.games.walzer import match as engine
from dicetable.games.walzer import rules as walzer
from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    ILLEGAL_PLAY,
    MALFORMED,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_TURN,
    PASS_ITEM,
    PLAY,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.games import walzer as text

RED, BLUE, GREEN = walzer.RED, walzer.BLUE, walzer.GREEN
DECK = walzer.deck()
XS = [c for c in DECK if walzer.is_x(c)]


def red(k):
    return walzer.card(RED, k)


def blue(k):
    return walzer.card(BLUE, k)


def green(k):
    return walzer.card(GREEN, k)


def heuristic_chooser(match, seat, legal, rng):
    return text.heuristic(match, seat, legal, rng)


# --- references from the rule text ------------------------------------------------


def reference_winner(cards):
    """Position of the winning card of a complete trick (RULES.md section 2, R5)."""
    xs = [i for i, c in enumerate(cards) if c in XS]
    if len(xs) == 1:
        return xs[0]
    if cards[0] not in XS:
        lead = walzer.colour(cards[0])
        return max(
            (walzer.number(c), i)
            for i, c in enumerate(cards)
            if c not in XS and walzer.colour(c) == lead
        )[1]
    numbered = [(walzer.number(c), i) for i, c in enumerate(cards) if c not in XS]
    return max(numbered)[1] if numbered else len(cards) - 1


def reference_round(piles):
    """Round scores from the won piles: per colour, the fewest (of those holding
    any) score the sum of numbers, the others the count; red 1, blue 2, green 3."""
    scores = [0] * len(piles)
    for col, mult in ((RED, 1), (BLUE, 2), (GREEN, 3)):
        mine = [[c for c in pile if c not in XS and walzer.colour(c) == col] for pile in piles]
        counts = [len(m) for m in mine if m]
        for p, m in enumerate(mine):
            if m:
                scores[p] += mult * (
                    sum(walzer.number(c) for c in m) if len(m) == min(counts) else len(m)
                )
    return scores


def reference_places(totals, last):
    return [
        1 + sum(1 for q in range(len(totals)) if (totals[q], last[q]) > (totals[p], last[p]))
        for p in range(len(totals))
    ]


class Recorder:
    """Follows a match through on_step: every trick, every round's piles and dealer."""

    def __init__(self, match):
        self.rounds = []  # per round: {"dealer", "tricks": [(leader, cards, seats, winner)]}
        self.dealers_seen = []
        self._new_round(match)

    def _new_round(self, match):
        self.rounds.append({"dealer": match.dealer, "tricks": []})

    def __call__(self, match, a):
        if kind_of(a) != PLAY or match.trick.count:
            return
        n = match.players
        items = list(match.last_trick_items[:n])
        seats = list(match.last_trick_seats[:n])
        self.rounds[-1]["tricks"].append((match.last_leader, items, seats, match.last_winner))
        if len(match.history) == len(self.rounds) and not match.over():
            self._new_round(match)


def recorded_match(players, seed, opts=0, choose=random_chooser):
    match = engine.new(players, opts)
    rec = Recorder(match)
    play_random(match, random.Random(seed), choose, on_step=rec)
    return match, rec


def assert_refused(match, a, code):
    before = snapshot(match)
    journal = list(match.journal)
    assert match.refusal(a) == code
    assert match.submit(a) == code
    assert snapshot(match) == before
    assert match.journal == journal


# --- scripted rounds ------------------------------------------------------------------

# A 3-player deal chosen so that every refusal can be shown on a known hand.
HANDS_3 = (
    [red(k) for k in range(1, 13)],  # seat 0
    [red(13), red(14)] + [blue(k) for k in range(1, 11)],  # seat 1
    [blue(11)] + [green(k) for k in range(1, 9)] + XS,  # seat 2
)
# Each seat passes these two cards to its left.
PASSES_3 = ([red(1), red(2)], [blue(1), blue(2)], [XS[0], XS[1]])


def deal(match, hands):
    for i in range(max(len(h) for h in hands)):
        for seat, hand in enumerate(hands):
            if i < len(hand):
                assert match.submit(action(DEAL, seat, hand[i])) == OK


def pass_cards(match, passes):
    for seat, cards in enumerate(passes):
        for c in cards:
            assert match.submit(action(PASS_ITEM, seat, c)) == OK


def scripted_3(opts=0):
    """A 3-player match after the scripted deal and pass: seat 0 holds red 3-12
    and two X, seat 1 red 1, 2, 13, 14 and blue 3-10, seat 2 blue 1, 2, 11,
    green 1-8 and one X; seat 0 (the dealer) leads."""
    match = engine.new(3, opts)
    deal(match, HANDS_3)
    pass_cards(match, PASSES_3)
    return match


# --- deal and pass --------------------------------------------------------------------


@pytest.mark.parametrize("players,size", [(3, 12), (4, 9)])
def test_the_table_deals_all_36_cards(players, size):
    match = engine.new(players)
    assert match.phase == engine.DEALING and match.waiting() == TABLE_BIT
    assert match.hand_size == size
    first = match.legal_actions(TABLE)
    assert len(first) == 36 * players
    assert {kind_of(a) for a in first} == {DEAL}
    assert all(match.legal_actions(s) == [] for s in range(players))
    rng = random.Random(players)
    while match.phase == engine.DEALING:
        assert match.submit(rng.choice(match.legal_actions(TABLE))) == OK
    assert [len(match.hand(s)) for s in range(players)] == [size] * players
    assert sorted(c for s in range(players) for c in match.hand(s)) == sorted(DECK)
    assert match.phase == engine.PASSING
    assert match.waiting() == (1 << players) - 1


def test_a_seat_with_a_full_hand_is_dealt_no_more():
    match = engine.new(4)
    for k in range(1, 10):
        assert match.submit(action(DEAL, 2, red(k))) == OK
    legal = match.legal_actions(TABLE)
    assert legal and all(seat_of(a) != 2 for a in legal)
    assert_refused(match, action(DEAL, 2, red(10)), OUT_OF_TURN)


def test_passes_arrive_only_when_every_seat_has_passed():
    match = engine.new(3)
    deal(match, HANDS_3)
    order = [(2, XS[0]), (0, red(1)), (2, XS[1]), (1, blue(1)), (0, red(2))]
    for seat, c in order:
        assert match.submit(action(PASS_ITEM, seat, c)) == OK
        assert c not in match.hand(seat) and c in match.passed_cards(seat)
        assert c not in match.hand((seat + 1) % 3)
    # Seat 2 has passed both: it is no longer waited on; the others still are.
    assert match.waiting() == 0b010
    assert match.legal_actions(2) == [] and match.legal_actions(0) == []
    assert [len(match.hand(s)) for s in range(3)] == [10, 11, 10]
    assert match.phase == engine.PASSING
    assert match.submit(action(PASS_ITEM, 1, blue(2))) == OK
    # Now everyone takes the two cards from the right.
    assert match.phase == engine.PLAYING
    assert match.hand(0) == [red(k) for k in range(3, 13)] + [XS[0], XS[1]]
    assert match.hand(1) == [red(1), red(2), red(13), red(14)] + [blue(k) for k in range(3, 11)]
    assert match.hand(2) == [blue(1), blue(2), blue(11)] + [green(k) for k in range(1, 9)] + [XS[2]]
    assert all(match.passed_cards(s) == [] for s in range(3))
    assert list(match.hand_n) == [12, 12, 12]


def test_a_card_on_its_way_cannot_be_passed_on():
    match = engine.new(3)
    deal(match, HANDS_3)
    assert match.submit(action(PASS_ITEM, 0, red(1))) == OK
    # Seat 1 will receive red 1, but not before everyone has passed.
    assert_refused(match, action(PASS_ITEM, 1, red(1)), NOT_IN_HAND)
    assert_refused(match, action(PASS_ITEM, 0, red(1)), NOT_IN_HAND)


# --- turns, leaders, dealers ---------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_dealer_leads_the_first_trick_then_the_last_winner(players):
    for seed in range(6):
        match, rec = recorded_match(players, seed)
        assert [r["dealer"] for r in rec.rounds] == list(range(players))
        for r in rec.rounds:
            tricks = r["tricks"]
            assert len(tricks) == 36 // players
            assert tricks[0][0] == r["dealer"]
            for before, after in zip(tricks, tricks[1:], strict=False):
                assert after[0] == before[3]
            for leader, items, seats, winner in tricks:
                # Clockwise from the leader, one card per seat.
                assert seats == [(leader + i) % players for i in range(players)]
                assert winner == seats[reference_winner(items)]


def test_play_goes_clockwise_and_the_trick_is_kept_for_the_transcript():
    match = scripted_3()
    assert match.turn == 0 and match.waiting() == 1
    plays = [(0, red(3)), (1, red(13)), (2, blue(1))]
    for seat, c in plays:
        assert match.turn == seat
        assert match.submit(action(PLAY, seat, c)) == OK
    assert match.trick.count == 0  # cleared as soon as it is complete
    assert list(match.last_trick_items) == [red(3), red(13), blue(1)]
    assert list(match.last_trick_seats) == [0, 1, 2]
    assert (match.last_leader, match.last_winner, match.last_trick_no) == (0, 1, 1)
    assert match.turn == 1 and match.waiting() == 0b010
    assert match.won_pile(1) == [red(3), red(13), blue(1)]


def test_r5_three_x_the_last_played_wins_and_leads():
    match = engine.new(3)
    hands = [
        [XS[0]] + [red(k) for k in range(1, 12)],
        [XS[1]] + [red(k) for k in range(12, 15)] + [blue(k) for k in range(1, 9)],
        [XS[2]] + [blue(k) for k in range(9, 12)] + [green(k) for k in range(1, 9)],
    ]
    deal(match, hands)
    pass_cards(match, ([red(1), red(2)], [red(12), red(13)], [blue(9), blue(10)]))
    for seat in range(3):
        assert match.submit(action(PLAY, seat, XS[seat])) == OK
    assert match.last_winner == 2 and match.turn == 2
    assert sorted(match.won_pile(2)) == sorted(XS)


def test_the_dealer_moves_clockwise_and_the_count_option_sets_the_rounds():
    match, rec = recorded_match(3, 7, options(0, 5))
    assert len(match.history) == 5 and match.rounds == 5
    assert [r["dealer"] for r in rec.rounds] == [0, 1, 2, 0, 1]
    match, rec = recorded_match(4, 8, options(OPEN_PLAY, 1))
    assert len(match.history) == 1 and [r["dealer"] for r in rec.rounds] == [0]


# --- scoring ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("choose", [random_chooser, heuristic_chooser], ids=["random", "heuristic"])
def test_round_scores_recomputed_from_the_tricks(players, choose):
    for seed in range(10):
        match, rec = recorded_match(players, seed, choose=choose)
        assert len(match.history) == players
        for number, r in enumerate(rec.rounds):
            piles = [[] for _ in range(players)]
            for _, items, _, winner in r["tricks"]:
                piles[winner].extend(items)
            assert sorted(c for p in piles for c in p) == sorted(DECK)
            assert match.history[number] == reference_round(piles)
        assert match.totals == [sum(h[s] for h in match.history) for s in range(players)]
        # The last round's piles stay in place once the match is over.
        assert [sorted(match.won_pile(s)) for s in range(players)] == [sorted(p) for p in piles]
        assert match.standings() == reference_places(match.totals, match.history[-1])


def rotated_match(players, seed):
    """A match whose every round is round 0 turned by one seat per round: each
    seat scores every round-0 score once, so all totals are equal and the last
    round decides.  Returns (match, round-0 scores)."""
    rng = random.Random(seed)
    first = engine.new(players)
    while not first.history:
        seat = rng.choice(seats_waiting(first))
        assert first.submit(rng.choice(first.legal_actions(seat))) == OK
    journal = []
    for r in range(players):
        for a in first.journal:
            seat = seat_of(a)
            journal.append(action(kind_of(a), (seat + r) % players, value_of(a)))
    match = engine.new(players)
    assert match.replay(journal) == -1
    return match, first.history[0]


@pytest.mark.parametrize("players", [3, 4])
def test_equal_totals_the_last_round_decides(players):
    for seed in range(100):
        match, scores = rotated_match(players, seed)
        if len(set(scores)) == players:
            break
    else:
        pytest.fail("no round with distinct scores")
    assert match.over()
    for r in range(players):
        assert match.history[r] == [scores[(s - r) % players] for s in range(players)]
    assert match.totals == [sum(scores)] * players
    last = match.history[-1]
    assert sorted(match.standings()) == list(range(1, players + 1))
    assert match.standings() == [1 + sum(1 for q in last if q > p) for p in last]


@pytest.mark.parametrize("players", [3, 4])
def test_equal_totals_and_equal_last_round_share_the_win(players):
    for seed in range(1000):
        match, scores = rotated_match(players, seed)
        top = max(scores)
        if scores.count(top) == 2 and len(set(scores)) == players - 1:
            break
    else:
        pytest.fail("no round with a tie at the top")
    last = match.history[-1]
    places = match.standings()
    winners = [s for s in range(players) if last[s] == top]
    assert [places[s] for s in winners] == [1, 1]
    # The places below a shared first are pushed down: 1, 1, 3 (, 4).
    assert sorted(places) == [1, 1] + list(range(3, players + 1))


# --- refusals ----------------------------------------------------------------------------

NOT_CARDS = [
    0,
    15,
    walzer.card(RED, 15),
    walzer.card(BLUE, 0),
    walzer.card(BLUE, 12),
    walzer.card(GREEN, 0),
    walzer.card(GREEN, 9),
    walzer.x_card(0) | 1,
    walzer.x_card(3),
    255,
    256 + red(1),
    0xFFFF,
]


def test_refusals_while_dealing():
    match = engine.new(3)
    assert match.submit(action(DEAL, 0, red(5))) == OK
    for kind in (PLAY, PASS_ITEM):
        assert_refused(match, action(kind, 0, red(6)), WRONG_PHASE)
    for kind in (0, 12, 15):  # no game has these kinds
        assert_refused(match, action(kind, 0, red(6)), MALFORMED)
    assert_refused(match, action(PLAY, TABLE, red(6)), WRONG_PHASE)
    assert_refused(match, action(DEAL, 3, red(6)), OUT_OF_TURN)  # no seat 3 with 3 players
    assert_refused(match, action(DEAL, TABLE, red(6)), OUT_OF_TURN)
    for v in NOT_CARDS:
        assert_refused(match, action(DEAL, 1, v), UNKNOWN_ITEM)
    assert_refused(match, action(DEAL, 0, red(5)), ALREADY_PLACED)
    assert_refused(match, action(DEAL, 1, red(5)), ALREADY_PLACED)


def test_refusals_while_passing():
    match = engine.new(3)
    deal(match, HANDS_3)
    assert match.submit(action(PASS_ITEM, 0, red(1))) == OK
    assert match.submit(action(PASS_ITEM, 0, red(2))) == OK
    assert_refused(match, action(PASS_ITEM, 0, red(3)), OUT_OF_TURN)  # a third card
    assert_refused(match, action(PASS_ITEM, 3, red(3)), OUT_OF_TURN)
    assert_refused(match, action(PASS_ITEM, TABLE, red(3)), OUT_OF_TURN)
    for kind in (DEAL, PLAY):
        assert_refused(match, action(kind, 1, blue(1)), WRONG_PHASE)
    for v in NOT_CARDS:
        assert_refused(match, action(PASS_ITEM, 1, v), UNKNOWN_ITEM)
    assert_refused(match, action(PASS_ITEM, 1, red(3)), NOT_IN_HAND)  # seat 0's card
    assert_refused(match, action(PASS_ITEM, 2, blue(1)), NOT_IN_HAND)  # seat 1's card


def test_refusals_while_playing():
    match = scripted_3()
    for kind in (DEAL, PASS_ITEM):
        assert_refused(match, action(kind, 0, red(3)), WRONG_PHASE)
    assert_refused(match, action(0, 0, red(3)), MALFORMED)
    assert_refused(match, action(PLAY, 8, red(3)), MALFORMED)  # seats are 0-7
    assert_refused(match, action(PLAY, 1, red(13)), OUT_OF_TURN)  # seat 0 leads
    assert_refused(match, action(PLAY, TABLE, red(3)), OUT_OF_TURN)
    for v in NOT_CARDS:
        assert_refused(match, action(PLAY, 0, v), UNKNOWN_ITEM)
    assert_refused(match, action(PLAY, 0, red(1)), NOT_IN_HAND)  # passed to seat 1
    assert_refused(match, action(PLAY, 0, green(1)), NOT_IN_HAND)
    assert match.submit(action(PLAY, 0, red(3))) == OK
    # Seat 1 holds red (and no X): only red may follow.
    assert_refused(match, action(PLAY, 1, blue(3)), ILLEGAL_PLAY)
    assert {value_of(a) for a in match.legal_actions(1)} == {red(1), red(2), red(13), red(14)}
    assert_refused(match, action(PLAY, 0, red(4)), OUT_OF_TURN)  # seat 0 already played
    assert match.submit(action(PLAY, 1, red(1))) == OK
    assert_refused(match, action(PLAY, 2, red(1)), NOT_IN_HAND)  # already in the trick
    # Seat 2 holds no red: anything goes.
    assert len(match.legal_actions(2)) == 12
    assert match.submit(action(PLAY, 2, green(8))) == OK
    assert match.last_winner == 0 and match.turn == 0
    assert match.submit(action(PLAY, 0, red(4))) == OK
    assert_refused(match, action(PLAY, 1, blue(4)), ILLEGAL_PLAY)


def test_an_x_may_be_played_even_holding_the_lead_colour():
    match = scripted_3()
    assert match.submit(action(PLAY, 0, red(3))) == OK
    assert match.submit(action(PLAY, 1, red(14))) == OK
    assert match.submit(action(PLAY, 2, blue(1))) == OK
    assert match.last_winner == 1
    assert match.submit(action(PLAY, 1, red(13))) == OK
    assert match.submit(action(PLAY, 2, blue(2))) == OK
    # Seat 0 holds red 4-12 and two X: red or X, nothing else.
    legal = {value_of(a) for a in match.legal_actions(0)}
    assert legal == {red(k) for k in range(4, 13)} | {XS[0], XS[1]}
    assert match.submit(action(PLAY, 0, XS[0])) == OK
    assert match.last_winner == 0  # the one X wins


def test_nothing_is_taken_once_the_match_is_over():
    match, _ = recorded_match(3, 1)
    assert match.over() and match.phase == engine.OVER and match.waiting() == 0
    assert all(match.legal_actions(s) == [] for s in list(range(3)) + [TABLE])
    for a in (
        action(PLAY, 0, red(1)),
        action(DEAL, 0, red(1)),
        action(PASS_ITEM, 1, red(2)),
        action(PLAY, 0, 0),
    ):
        assert_refused(match, a, MATCH_OVER)


def test_refusals_in_open_play():
    match = engine.new(3, OPEN_PLAY)
    assert match.phase == engine.PLAYING and match.turn == 0 and match.waiting() == 1
    assert {kind_of(a) for a in match.legal_actions(0)} == {PLAY}
    assert len(match.legal_actions(0)) == 36
    assert_refused(match, action(DEAL, 0, red(1)), WRONG_PHASE)
    assert_refused(match, action(PASS_ITEM, 0, red(1)), WRONG_PHASE)
    assert_refused(match, action(PLAY, 1, red(1)), OUT_OF_TURN)
    for v in NOT_CARDS:
        assert_refused(match, action(PLAY, 0, v), UNKNOWN_ITEM)
    assert match.submit(action(PLAY, 0, red(1))) == OK
    assert_refused(match, action(PLAY, 1, red(1)), ALREADY_PLACED)
    # The table cannot see seat 1's hand: not following red is not disproved.
    assert match.submit(action(PLAY, 1, blue(1))) == OK
    assert match.submit(action(PLAY, 2, red(2))) == OK
    assert match.last_winner == 2
    # A card already won stays seen for the rest of the round.
    assert_refused(match, action(PLAY, 2, blue(1)), ALREADY_PLACED)
    assert len(match.legal_actions(2)) == 33


# --- open play, inventory, undo ----------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_open_play_scores_exactly_as_registered_play(players):
    for seed, opts in ((1, 0), (2, 0), (3, options(0, 1)), (4, options(0, 2))):
        for choose in (random_chooser, heuristic_chooser):
            match, _ = recorded_match(players, seed, opts, choose)
            journal = text.open_play_journal(match.journal, players, opts)
            assert {kind_of(a) for a in journal} == {PLAY}
            assert len(journal) == 36 * len(match.history)
            again = engine.new(players, opts | OPEN_PLAY)
            assert again.replay(journal) == -1
            assert again.over()
            assert again.history == match.history
            assert again.totals == match.totals
            assert again.standings() == match.standings()


@pytest.mark.parametrize("flag,bit", [(TABLE_ROLLS, 1), (VARIANT, 2), (TABLE_ROLLS | VARIANT, 1)])
def test_options_walzer_does_not_read_are_refused(flag, bit):
    # Walzer rolls no die and has no variant: a header with those bits is refused.
    for players in (3, 4):
        with pytest.raises(ValueError, match="walzer has no option bit %d " % bit):
            engine.new(players, flag | OPEN_PLAY)
    assert engine.WalzerMatch.OPTIONS == OPEN_PLAY


@pytest.mark.parametrize("opts", [0, OPEN_PLAY])
def test_every_card_is_in_one_place_and_counts_agree(opts):
    def check(match, a):
        assert sorted(match.inventory()) == sorted(match.all_items())
        if not opts:
            assert list(match.hand_n) == [len(match.hand(s)) for s in range(match.players)]
            assert list(match.passed_n) == [
                len(match.passed_cards(s)) for s in range(match.players)
            ]

    for players in (3, 4):
        play_random(engine.new(players, opts), random.Random(players), on_step=check)


def test_undo_takes_back_the_completing_pass_and_the_scoring_play():
    match = engine.new(3)
    deal(match, HANDS_3)
    pass_cards(match, ([red(1), red(2)], [blue(1), blue(2)], [XS[0]]))
    before = snapshot(match)
    assert match.submit(action(PASS_ITEM, 2, XS[1])) == OK
    assert match.phase == engine.PLAYING
    assert match.undo() == OK
    assert snapshot(match) == before and match.phase == engine.PASSING
    match, _ = recorded_match(4, 3)
    before_end = engine.new(4)
    before_end.replay(match.journal[:-1])
    assert match.undo() == OK
    assert snapshot(match) == snapshot(before_end)
    assert len(match.history) == 3 and not match.over()


# --- the host side: transcript and bot -------------------------------------------------


def test_describe_names_the_cards():
    assert text.describe(red(7)) == "red 7"
    assert text.describe(blue(11)) == "blue 11"
    assert text.describe(green(3)) == "green 3"
    assert [text.describe(x) for x in XS] == ["X1", "X2", "X3"]


@pytest.mark.parametrize("opts", [0, OPEN_PLAY])
def test_the_transcript_reports_tricks_rounds_and_the_deal(opts):
    match = engine.new(4, opts)
    lines = []
    play_random(
        match,
        random.Random(5),
        heuristic_chooser,
        on_step=lambda m, a: lines.extend(text.narrate(m, a)),
    )
    body = "\n".join(lines)
    assert body.count("round 1 of 4: seat 0 deals") == 1
    assert body.count("round 4 of 4: seat 3 deals") == 1
    assert sum(1 for line in lines if line.startswith("trick ") and " wins " in line) == 36
    assert sum(1 for line in lines if line.startswith("trick 9: ")) == 4
    for r in range(4):
        assert "round %d scored" % (r + 1) in body
    for s in range(4):
        assert "= %d points, total %d" % (match.history[-1][s], match.totals[s]) in body
    assert ("the deal is complete" in body) == (not opts)
    assert ("passes" in body) == (not opts)


def test_the_heuristic_wins_a_trick_worth_taking_cheaply():
    match = scripted_3()
    assert match.submit(action(PLAY, 0, red(12))) == OK
    legal = match.legal_actions(1)
    # Red 12 is worth taking: seat 1 wins with its cheapest winner, red 13.
    assert text.heuristic(match, 1, legal, random.Random(0)) == action(PLAY, 1, red(13))
    match = scripted_3()
    assert match.submit(action(PLAY, 0, red(3))) == OK
    # Red 3 is not worth a card: seat 1 drops its cheapest loser.
    assert text.heuristic(match, 1, match.legal_actions(1), random.Random(0)) == action(
        PLAY, 1, red(1)
    )


def test_heuristic_seats_in_open_play_play_a_match_a_seed():
    # Open play has no deal in the engine and no chance: the heuristic's hand
    # is drawn among the unseen cards, or every seed gave the same match.
    from sim.play import play

    journals = {tuple(play("walzer", 3, OPEN_PLAY, ["heuristic"] * 3, s).journal) for s in range(6)}
    assert len(journals) == 6
    again = play("walzer", 3, OPEN_PLAY, ["heuristic"] * 3, 2)
    assert (
        again.over() and again.journal == play("walzer", 3, OPEN_PLAY, ["heuristic"] * 3, 2).journal
    )
