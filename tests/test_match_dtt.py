"""The d-TT match engine (firmware/dicetable/games/dtt/match.py, on deal.py): scores recomputed
independently, every refusal class, the phase transitions RULES.md section 4
asks for (R10, R11), and open play against registered play.

The references here are written from RULES.md, not from the engine or the
rules core: trump from the face-up cards (R10), trick winners, deal scores.
"""

import random

import pytest
from match_helpers import play_random, random_chooser, seats_waiting, snapshot

from dicetable.games.dtt import match as engine
from dicetable.games.dtt import rules as dtt
from dicetable.match.actions import (
    ALREADY_PLACED,
    BID,
    DEAL,
    ILLEGAL_PLAY,
    KEEP,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PLAY,
    REVEAL,
    ROLL,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import LONGEST, OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.games import dtt as text

S, H, D, C = 0, 1, 2, 3
# Printed values, strongest first (RULES.md: A 3 K Q J 7 6 5 4 2).
STRENGTH = [1, 3, 13, 12, 11, 7, 6, 5, 4, 2]
HONOURS = {1, 3, 13, 12, 11}


def card(suit, face):
    return dtt.card(suit, dtt.rank_of_face(face))


def strength(c):
    return len(STRENGTH) - STRENGTH.index(dtt.face(c))


# --- References from RULES.md ----------------------------------------------------------


def ref_trump(face_up):
    # Highest rank; equal ranks: spades, hearts, diamonds, clubs (R10).
    best = sorted(face_up, key=lambda c: (-strength(c), dtt.suit(c)))[0]
    return dtt.suit(best) if dtt.face(best) in HONOURS else None


def ref_winner(plays, trump):
    """plays: [(seat, card)] in play order."""
    trumps = [p for p in plays if dtt.suit(p[1]) == trump]
    pool = trumps or [p for p in plays if dtt.suit(p[1]) == dtt.suit(plays[0][1])]
    return max(pool, key=lambda p: strength(p[1]))[0]


def ref_standing(cumulative, sign):
    lo, hi = min(cumulative), max(cumulative)
    if lo == hi:
        return [0, 0, 0]
    out = []
    for c in cumulative:
        if c == lo:
            out.append(-sign * (10 if cumulative.count(lo) == 1 else 5))
        elif c == hi:
            out.append(sign * (10 if cumulative.count(hi) == 1 else 5))
        else:
            out.append(0)
    return out


def ref_scores(bids, taken, cumulative):
    made = [b == t for b, t in zip(bids, taken, strict=True)]
    n = sum(made)
    if n == 3:
        return ref_standing(cumulative, 1)
    if n == 0:
        return ref_standing(cumulative, -1)
    if n == 2:
        both = sum(b for b, m in zip(bids, made, strict=True) if m)
        return [b + 10 if m else -(both + 20) for b, m in zip(bids, made, strict=True)]
    bid = [b for b, m in zip(bids, made, strict=True) if m][0]
    return [2 * bid + 20 if m else -(bid + 10) for m in made]


def recompute(journal, deals):
    """Play the journal again on paper: per deal the trump, the tricks (leader
    checks included), the bids and the scores.  Returns (history, totals, outcomes)."""
    history, totals, outcomes = [], [0, 0, 0], []
    reveals, bids, plays = [], {}, []
    for a in journal:
        k, s, v = kind_of(a), seat_of(a), value_of(a)
        if k == REVEAL:
            reveals.append(v)
        elif k == BID:
            bids[s] = v
        elif k == PLAY:
            plays.append((s, v))
        if len(plays) == 3 * dtt.TRICKS:
            number = len(history)
            dealer = number % 3  # first dealer seat 0, then clockwise
            trump = ref_trump(reveals)
            taken = [0, 0, 0]
            leader = (dealer + 1) % 3  # the dealer's left leads the first trick
            for t in range(dtt.TRICKS):
                trick = plays[3 * t : 3 * t + 3]
                assert [p[0] for p in trick] == [leader, (leader + 1) % 3, (leader + 2) % 3]
                leader = ref_winner(trick, trump)
                taken[leader] += 1
            b = [bids[0], bids[1], bids[2]]
            scores = ref_scores(b, taken, list(totals))
            assert sum(scores) == 0
            outcomes.append(sum(x == y for x, y in zip(b, taken, strict=True)))
            history.append(scores)
            totals = [x + y for x, y in zip(totals, scores, strict=True)]
            reveals, bids, plays = [], {}, []
    assert len(history) == deals
    return history, totals, outcomes


def heuristic_chooser(match, seat, legal, rng):
    return text.heuristic(match, seat, legal, rng)


def new(opts=0):
    return engine.new(3, opts)


def advance(match, rng, until):
    """Random legal actions until `until(match)` holds (or the match ends)."""
    while not until(match) and not match.over():
        seat = rng.choice(seats_waiting(match))
        assert match.submit(rng.choice(match.legal_actions(seat))) == OK
    assert until(match)
    return match


def refused(match, a, code):
    before = snapshot(match)
    length = len(match.journal)
    assert match.submit(a) == code
    assert snapshot(match) == before
    assert len(match.journal) == length


def hand(match, seat):
    return [match.hands[seat][i] for i in range(match.hand_n[seat])]


def packet(match, seat):
    return [match.packets[seat][i] for i in range(match.packet_n[seat])]


def phase_is(*phases):
    return lambda m: m.phase in phases


# --- Scores recomputed independently ------------------------------------------------------


@pytest.mark.parametrize("opts", [0, OPEN_PLAY], ids=["registered", "open"])
def test_every_deal_scores_as_recomputed_from_the_journal(opts):
    outcomes = set()
    for seed in range(40):
        rng = random.Random(seed)
        chooser = heuristic_chooser if seed % 4 else random_chooser
        match = play_random(new(), rng, chooser)
        if opts:
            # The same deals in open play (heuristic bots need their hands to
            # aim at their bids, so the deals are drafted in registered mode).
            opened = new(OPEN_PLAY)
            assert opened.replay(text.open_play_journal(list(match.journal), 3, 0)) == -1
            match = opened
        history, totals, seen = recompute(match.journal, dtt.DEFAULT_DEALS)
        assert match.history == history
        assert match.totals == totals
        assert all(sum(deal) == 0 for deal in match.history)
        places = [1 + sum(t > mine for t in totals) for mine in totals]
        assert match.standings() == places
        outcomes.update(seen)
    if opts:  # and matches played in open play from the start
        for seed in range(10):
            match = play_random(new(OPEN_PLAY), random.Random(seed), heuristic_chooser)
            history, totals, _ = recompute(match.journal, dtt.DEFAULT_DEALS)
            assert (match.history, match.totals) == (history, totals)
    # Every scoring case was met: nobody, one, two and all three made the bid.
    assert outcomes == {0, 1, 2, 3}


def test_trick_records_follow_each_trick():
    rng = random.Random(7)
    match = new()
    tricks = []

    def on_step(m, a):
        if kind_of(a) == PLAY and m.trick.count == 0:
            items = list(m.last_trick_items)
            seats = list(m.last_trick_seats)
            assert seats[0] == m.last_leader
            tricks.append((m.last_winner, list(zip(seats, items, strict=True))))
            assert m.last_winner == ref_winner(
                list(zip(seats, items, strict=True)), ref_trump([m.faceup[i] for i in range(4)])
            )
            assert m.leader == m.turn == m.last_winner
            assert sum(m.taken) == m.tricks_done

    play_random(match, rng, heuristic_chooser, on_step)
    assert len(tricks) == 3 * dtt.TRICKS


# --- Refusals: each class, state unchanged ---------------------------------------------------


def test_match_over():
    match = play_random(new(), random.Random(1))
    assert match.over() and match.waiting() == 0
    for a in (
        action(PLAY, 0, card(S, 1)),
        action(REVEAL, TABLE, card(H, 2)),
        action(BID, 1, 3),
        action(KEEP, 2, card(C, 5)),
    ):
        refused(match, a, MATCH_OVER)


def test_wrong_phase():
    match = new()
    refused(match, action(PLAY, 1, card(S, 1)), WRONG_PHASE)  # turning up, not playing
    refused(match, action(DEAL, 0, card(S, 1)), WRONG_PHASE)
    refused(match, action(ROLL, TABLE, 3), WRONG_PHASE)  # no dice in d-TT
    rng = random.Random(2)
    advance(match, rng, phase_is(engine.DRAFT_1))
    refused(match, action(BID, 0, 3), WRONG_PHASE)
    refused(match, action(PLAY, 0, packet(match, 0)[0]), WRONG_PHASE)
    advance(match, rng, phase_is(engine.BIDDING))
    refused(match, action(KEEP, 0, hand(match, 0)[0]), WRONG_PHASE)
    advance(match, rng, phase_is(engine.PLAYING))
    refused(match, action(BID, match.turn, 2), WRONG_PHASE)
    refused(match, action(KEEP, match.turn, hand(match, match.turn)[0]), WRONG_PHASE)


def test_open_play_has_no_deal_and_no_keep():
    match = new(OPEN_PLAY)
    rng = random.Random(3)
    advance(match, rng, phase_is(engine.BIDDING))
    assert match.faceup_n == 4
    refused(match, action(DEAL, 0, card(S, 2)), WRONG_PHASE)
    refused(match, action(KEEP, 0, card(S, 2)), WRONG_PHASE)


def test_out_of_turn():
    match = new()
    refused(match, action(REVEAL, 0, card(S, 1)), OUT_OF_TURN)  # the table turns up
    rng = random.Random(4)
    advance(match, rng, phase_is(engine.DEALING_1))
    # Deal 6 to seat 0: a 7th is refused; seat 3..7 does not exist.
    while match.packet_n[0] < 6:
        match.submit([a for a in match.legal_actions(TABLE) if seat_of(a) == 0][0])
    free = value_of(match.legal_actions(TABLE)[0])
    refused(match, action(DEAL, 0, free), OUT_OF_TURN)
    refused(match, action(DEAL, 3, free), OUT_OF_TURN)
    refused(match, action(DEAL, TABLE, free), OUT_OF_TURN)
    advance(match, rng, phase_is(engine.DRAFT_1))
    first = packet(match, 1)[0]
    assert match.submit(action(KEEP, 1, first)) == OK
    refused(match, action(KEEP, 1, packet(match, 1)[0]), OUT_OF_TURN)  # kept this pick
    refused(match, action(KEEP, TABLE, packet(match, 0)[0]), OUT_OF_TURN)
    advance(match, rng, phase_is(engine.BIDDING))
    assert match.submit(action(BID, 2, 4)) == OK
    refused(match, action(BID, 2, 5), OUT_OF_TURN)  # one bid each
    refused(match, action(BID, 5, 5), OUT_OF_TURN)
    advance(match, rng, phase_is(engine.PLAYING))
    other = (match.turn + 1) % 3
    refused(match, action(PLAY, other, hand(match, other)[0]), OUT_OF_TURN)


def test_unknown_item():
    match = new()
    for value in (0x0A, 0x0F, 0x40, 0xFFFF):  # rank index 10-15, suit 4+
        refused(match, action(REVEAL, TABLE, value), UNKNOWN_ITEM)
    rng = random.Random(5)
    advance(match, rng, phase_is(engine.DRAFT_1))
    refused(match, action(KEEP, 0, 0x1C), UNKNOWN_ITEM)
    advance(match, rng, phase_is(engine.PLAYING))
    refused(match, action(PLAY, match.turn, 0x3A), UNKNOWN_ITEM)


def test_not_in_hand():
    match = new()
    rng = random.Random(6)
    advance(match, rng, phase_is(engine.DRAFT_1))
    refused(match, action(KEEP, 0, packet(match, 1)[0]), NOT_IN_HAND)  # another's packet
    refused(match, action(KEEP, 0, match.faceup[0]), NOT_IN_HAND)  # face up
    assert match.submit(action(KEEP, 0, packet(match, 0)[0])) == OK
    refused(match, action(KEEP, 0, hand(match, 0)[0]), OUT_OF_TURN)
    advance(match, rng, phase_is(engine.PLAYING))
    seat = match.turn
    refused(match, action(PLAY, seat, hand(match, (seat + 1) % 3)[0]), NOT_IN_HAND)
    refused(match, action(PLAY, seat, match.faceup[2]), NOT_IN_HAND)


def test_illegal_play_breaks_the_follow_obligation():
    for seed in range(100):
        match = new()
        rng = random.Random(seed)
        advance(match, rng, phase_is(engine.PLAYING))
        leader = match.turn
        lead = hand(match, leader)[0]
        assert match.submit(action(PLAY, leader, lead)) == OK
        follower = match.turn
        mine = hand(match, follower)
        same = [c for c in mine if dtt.suit(c) == dtt.suit(lead)]
        off = [c for c in mine if dtt.suit(c) != dtt.suit(lead)]
        if same and off:
            refused(match, action(PLAY, follower, off[0]), ILLEGAL_PLAY)
            assert match.submit(action(PLAY, follower, same[0])) == OK
            return
    pytest.fail("no deal with a follower holding both the led suit and another")


def test_out_of_range_bid():
    match = advance(new(), random.Random(8), phase_is(engine.BIDDING))
    for bid in (13, 100, 0xFFFF):
        refused(match, action(BID, 0, bid), OUT_OF_RANGE)
    assert match.submit(action(BID, 0, 12)) == OK
    assert match.submit(action(BID, 1, 0)) == OK


def test_already_placed():
    match = new()
    first = card(H, 3)
    assert match.submit(action(REVEAL, TABLE, first)) == OK
    refused(match, action(REVEAL, TABLE, first), ALREADY_PLACED)
    advance(match, random.Random(9), phase_is(engine.DEALING_1))
    refused(match, action(DEAL, 0, first), ALREADY_PLACED)  # face up
    dealt = value_of(match.legal_actions(TABLE)[0])
    assert match.submit(action(DEAL, 1, dealt)) == OK
    refused(match, action(DEAL, 2, dealt), ALREADY_PLACED)
    refused(match, action(DEAL, 1, dealt), ALREADY_PLACED)


def test_open_play_refuses_only_seen_cards():
    match = new(OPEN_PLAY)
    rng = random.Random(10)
    advance(match, rng, phase_is(engine.PLAYING))
    seat = match.turn
    refused(match, action(PLAY, seat, match.faceup[0]), ALREADY_PLACED)
    # Any unseen card is accepted, whoever might hold it.
    unseen = [value_of(a) for a in match.legal_actions(seat)]
    assert len(unseen) == 36
    assert match.submit(action(PLAY, seat, unseen[0])) == OK
    refused(match, action(PLAY, match.turn, unseen[0]), ALREADY_PLACED)
    # No follow obligation can be checked: an off-suit card is accepted.
    off = [c for c in unseen[1:] if dtt.suit(c) != dtt.suit(unseen[0])][0]
    assert match.submit(action(PLAY, match.turn, off)) == OK
    assert len(match.legal_actions(match.turn)) == 36 - 2


# --- Phases ---------------------------------------------------------------------------


def test_exactly_three_players():
    assert engine.DttMatch.MIN_PLAYERS == engine.DttMatch.MAX_PLAYERS == 3
    for players in (2, 4):
        with pytest.raises(ValueError):
            engine.new(players)


def test_the_table_turns_four_cards_and_fixes_trump_R10():
    match = new()
    assert match.waiting() == TABLE_BIT and match.dealer == 0
    assert len(match.legal_actions(TABLE)) == 40
    assert all(match.legal_actions(s) == [] for s in range(3))
    for c in (card(H, 3), card(S, 3), card(D, 13), card(C, 6)):  # two 3s: spades (R10)
        assert match.phase == engine.REVEALING
        assert match.submit(action(REVEAL, TABLE, c)) == OK
    assert match.trump == S
    assert match.phase == engine.DEALING_1
    assert sorted(match.inventory()) == sorted(match.all_items())

    match = new()
    for c in (card(S, 7), card(H, 7), card(D, 5), card(C, 2)):
        match.submit(action(REVEAL, TABLE, c))
    assert match.trump == dtt.NO_TRUMP


def test_deal_is_six_each_in_any_order():
    match = advance(new(), random.Random(11), phase_is(engine.DEALING_1))
    legal = match.legal_actions(TABLE)
    assert len(legal) == 36 * 3
    assert {seat_of(a) for a in legal} == {0, 1, 2}
    # Seat 2 first, all six, then the others interleaved.
    for _ in range(6):
        match.submit([a for a in match.legal_actions(TABLE) if seat_of(a) == 2][0])
    assert {seat_of(a) for a in match.legal_actions(TABLE)} == {0, 1}
    advance(match, random.Random(12), phase_is(engine.DRAFT_1))
    assert [match.packet_n[s] for s in range(3)] == [6, 6, 6]
    assert match.waiting() == 0b111 and match.pick == 0


@pytest.mark.parametrize("draft", [1, 2])
def test_packets_move_only_when_all_three_have_kept(draft):
    rng = random.Random(13)
    match = advance(new(), rng, phase_is(engine.DRAFT_1 if draft == 1 else engine.DRAFT_2))
    step = 1 if draft == 1 else -1  # left = next seat clockwise; right = previous
    for pick in range(1, 6):
        order = [2, 0, 1] if pick % 2 else [1, 2, 0]
        before = [packet(match, s) for s in range(3)]
        for n, s in enumerate(order):
            assert match.waiting() == sum(1 << x for x in order[n:])
            c = max(before[s])
            assert match.submit(action(KEEP, s, c)) == OK
            before[s].remove(c)
            if n < 2:  # nothing moves before all three have kept
                assert [packet(match, x) for x in range(3)] == before
        if pick < 5:
            assert match.pick == pick
            for s in range(3):
                assert packet(match, (s + step) % 3) == before[s]
    # The last single card joined its receiver's hand by itself.
    assert [match.hand_n[s] for s in range(3)] == ([6, 6, 6] if draft == 1 else [12] * 3)
    for s in range(3):
        assert hand(match, (s + step) % 3)[-1] == before[s][0]
    if draft == 1:
        assert match.phase == engine.BIDDING and match.waiting() == 0b111
    else:
        assert match.phase == engine.PLAYING and match.waiting() == 1 << 1


def test_bids_are_simultaneous_and_any_order():
    match = advance(new(), random.Random(14), phase_is(engine.BIDDING))
    assert [len(match.legal_actions(s)) for s in range(3)] == [13, 13, 13]
    assert match.submit(action(BID, 2, 0)) == OK
    assert match.waiting() == 0b011 and match.legal_actions(2) == []
    assert match.submit(action(BID, 0, 12)) == OK
    assert match.submit(action(BID, 1, 5)) == OK
    assert list(match.bids) == [12, 5, 0]
    assert match.phase == engine.DEALING_2 and match.waiting() == TABLE_BIT


def test_dealer_rotates_and_the_dealers_left_leads_first():
    match = new()
    rng = random.Random(15)
    seen = []
    for deal in range(3):
        advance(
            match,
            rng,
            lambda m, deal=deal: (
                m.phase == engine.PLAYING
                and m.tricks_done == 0
                and m.trick.count == 0
                and len(m.history) == deal
            ),
        )
        seen.append((match.dealer, match.turn))
        advance(match, rng, lambda m, deal=deal: len(m.history) == deal + 1)
    assert seen == [(0, 1), (1, 2), (2, 0)]
    assert match.over()


@pytest.mark.parametrize("count,deals", [(0, 3), (1, 1), (2, 2), (5, 5)])
def test_number_of_deals_R11(count, deals):
    match = play_random(new(options(0, count)), random.Random(16))
    assert len(match.history) == deals
    assert match.totals == [sum(d[s] for d in match.history) for s in range(3)]


@pytest.mark.parametrize(
    "flag,bit", [(TABLE_ROLLS, 1), (VARIANT, 2), (TABLE_ROLLS | VARIANT, 1), (0x80, 7)]
)
def test_options_dtt_does_not_read_are_refused(flag, bit):
    # d-TT rolls no die and has no variant: an option it would ignore is refused,
    # so a header never says more than the match does.
    with pytest.raises(ValueError, match="dtt has no option bit %d " % bit):
        new(flag)
    with pytest.raises(ValueError, match="dtt has no option bit"):
        new(flag | OPEN_PLAY)
    assert engine.DttMatch.OPTIONS == OPEN_PLAY


@pytest.mark.parametrize("count", [7, LONGEST, 255])
def test_more_deals_than_the_longest_are_refused(count):
    # Six deals (~654 actions) keep the journal within the longest the boot is tested with.
    with pytest.raises(ValueError, match="dtt's length is 1 to 6"):
        new(options(0, count))
    assert new(options(OPEN_PLAY, 6)).deals == 6


def test_inventory_at_every_step_in_both_modes():
    for opts in (0, OPEN_PLAY):
        match = new(opts)
        everything = sorted(match.all_items())
        assert len(everything) == 40 and len(set(everything)) == 40

        def on_step(m, a, everything=everything):
            assert sorted(m.inventory()) == everything

        play_random(match, random.Random(18), on_step=on_step)


def test_open_play_actions_are_reveals_bids_and_plays():
    match = play_random(new(OPEN_PLAY), random.Random(19))
    kinds = [kind_of(a) for a in match.journal]
    assert set(kinds) == {REVEAL, BID, PLAY}
    assert len(kinds) == 3 * (4 + 3 + 36)


@pytest.mark.parametrize("seed", range(12))
def test_open_play_gives_the_same_scores(seed):
    registered = play_random(
        new(), random.Random(seed), heuristic_chooser if seed % 2 else random_chooser
    )
    journal = text.open_play_journal(list(registered.journal), 3, 0)
    opened = new(OPEN_PLAY)
    assert opened.replay(journal) == -1
    assert opened.over()
    assert opened.history == registered.history
    assert opened.totals == registered.totals
    assert opened.standings() == registered.standings()


def test_standings_share_ties():
    match = new()
    match.totals = [10, 10, -20]
    assert match.standings() == [1, 1, 3]
    match.totals = [0, 0, 0]
    assert match.standings() == [1, 1, 1]


# --- The host side ------------------------------------------------------------------


def test_describe():
    assert text.describe(card(S, 1)) == "spades A"
    assert text.describe(card(H, 3)) == "hearts 3"
    assert text.describe(card(D, 13)) == "diamonds K"
    assert text.describe(card(C, 2)) == "clubs 2"


def test_heuristic_picks_a_legal_action_deterministically():
    for opts in (0, OPEN_PLAY):
        match = new(opts)
        rng = random.Random(20)
        while not match.over():
            seat = rng.choice(seats_waiting(match))
            legal = match.legal_actions(seat)
            if seat == TABLE:
                a = rng.choice(legal)
            else:
                a = text.heuristic(match, seat, legal, random.Random(1))
                assert a in legal
                assert a == text.heuristic(match, seat, legal, random.Random(1))
            assert match.submit(a) == OK


def test_transcript_reads_the_whole_match():
    lines = []
    match = new()

    def on_step(m, a):
        lines.extend(text.narrate(m, a))

    play_random(match, random.Random(21), heuristic_chooser, on_step)
    joined = "\n".join(lines)
    for needle in (
        "deal 1 of 3: seat 0 deals",
        "deal 3 of 3: seat 2 deals",
        "face up:",
        "draft 1, pick 1:",
        "draft 2, pick 6:",
        "bids: seat 0",
        "trick 12: seat",
        "deal 3 scored",
        "the match is over",
    ):
        assert needle in joined
    assert sum(line.startswith("trick ") for line in lines) == 36
