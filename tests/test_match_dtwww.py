"""DTwww match engine (firmware/dicetable/games/dtwww/match.py, on deal.py): game-specific tests.

Rules: docs/rules/dtwww.md, "How the table runs a match". The references in
this file recompute trick results, ranks, points and leaders from the rule
text by sorting, independently of the rules core the engine calls.
"""

import random

import pytest
from match_helpers import play_random, seats_waiting, snapshot

from dicetable.games.dtwww import deal as D
from dicetable.games.dtwww import match as M
from dicetable.games.dtwww import rules as dt
from dicetable.match.actions import (
    ALREADY_PLACED,
    CHOOSE,
    DEAL,
    ILLEGAL_PLAY,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PASS,
    PLAY,
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
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.games import dtwww as text

R, B, G, W = dt.RED, dt.BLUE, dt.GREEN, dt.WHITE
D4, D6, D8, D10, D12, D20 = range(6)


def die(colour, size, number, copy=0):
    return dt.die(colour, size, number, copy)


def ident(d):
    return d & ~31


def must(match, a):
    code = match.submit(a)
    assert code == OK, (hex(a), code)


def refused(match, a, code):
    """`a` is refused with `code` and the state is unchanged."""
    before = snapshot(match)
    journal = list(match.journal)
    assert match.submit(a) == code
    assert snapshot(match) == before
    assert match.journal == journal


def deal(match, hands):
    """Scan and roll every seat's dice (hands: rolled dice per seat), seat by seat."""
    roller = TABLE if match.table_rolls else None
    for seat, hand in enumerate(hands):
        for d in hand:
            must(match, action(DEAL, seat, ident(d)))
            must(match, action(ROLL, seat if roller is None else roller, dt.number(d)))


def first_legal(match):
    seat = seats_waiting(match)[0]
    return match.legal_actions(seat)[0]


def play_out_tricks(match):
    while match.phase == M.PHASE_PLAY:
        must(match, first_legal(match))


def score_rolls(match, number_of):
    """Roll every score die: number_of(die) gives the number entered."""
    while match.phase == M.PHASE_SCORE:
        seat = seats_waiting(match)[0]
        roller = seat
        if seat == TABLE:  # the table rolls seats clockwise from the game's leader
            seat = [
                (match.game_leader + k) % match.players
                for k in range(match.players)
                if match.score_rolled[(match.game_leader + k) % match.players]
                < match.score_n[(match.game_leader + k) % match.players]
            ][0]
        d = match.score[seat][match.score_rolled[seat]]
        must(match, action(ROLL, roller, number_of(d)))


# --- a scripted match: each game one seat takes every trick ---------------------------------

HIGH = (
    (D20, 20, 0),
    (D20, 19, 1),
    (D12, 12, 0),
    (D12, 11, 1),
    (D10, 9, 0),
    (D10, 8, 1),
    (D8, 8, 0),
    (D8, 7, 1),
    (D6, 6, 0),
)
LOW = (
    (D4, 1, 0),
    (D4, 2, 1),
    (D6, 1, 0),
    (D6, 2, 1),
    (D8, 1, 0),
    (D8, 2, 1),
    (D10, 0, 0),
    (D10, 0, 1),
    (D12, 1, 0),
)


def sweep_hands(players, sweeper):
    """Seat `sweeper` holds 9 high dice of its colour; every other seat 9 low dice of
    its own colour (seat s has colour s). Nobody else can follow (other colour, other
    number), so the sweeper wins every trick and, holding the highest numbers,
    leads every next one."""
    hands = []
    for s in range(players):
        table = HIGH if s == sweeper else LOW
        hands.append([die(s, size, number, copy) for size, number, copy in table])
    return hands


def sweep_game(match, sweeper, roll=lambda d: dt.highest_face(dt.size(d))):
    assert match.game_leader == sweeper
    if not match.open:
        deal(match, sweep_hands(match.players, sweeper))
    else:
        hands = sweep_hands(match.players, sweeper)
        while match.phase == M.PHASE_PLAY:
            s = match.turn
            d = hands[s].pop(0)
            must(match, action(PLAY, s, d))
    play_out_tricks(match)
    assert match.score_n[sweeper] == 9
    assert sum(match.score_n) == 9
    score_rolls(match, roll)


def test_scripted_match_r2_r3_and_a_roll_off():
    """Three players, three games, each swept by its leader. R2: the two seats with no
    score die share the last rank (1 VP each, 2nd place); R3: the next game is led by
    the first of them clockwise from the game's leader - seat 1 after seat 0, then
    seat 2 after seat 1 (not seat 0, the lower seat number). All end on 4 points: the
    roll-off, roll again on the same number and die, then fewer faces wins."""
    m = M.new(3)
    assert m.game_leader == 0 and m.phase == M.PHASE_DEAL
    sweep_game(m, 0)
    assert m.history == [[2, 1, 1]] and list(m.game_ranks) == [1, 2, 2]
    assert m.game_leader == 1  # R3: first clockwise from seat 0
    sweep_game(m, 1)
    assert m.history[-1] == [1, 2, 1]
    assert m.game_leader == 2  # R3: from seat 1: seat 2, not seat 0
    sweep_game(m, 2)
    assert m.history[-1] == [1, 1, 2] and m.totals == [4, 4, 4]
    assert m.phase == M.PHASE_ROLLOFF and m.waiting() == 0b111
    must(m, action(ROLL, 0, M.rolloff_value(D6, 5)))
    must(m, action(ROLL, 1, M.rolloff_value(D20, 5)))  # same number, more faces: out
    refused(m, action(ROLL, 1, M.rolloff_value(D20, 5)), OUT_OF_TURN)
    must(m, action(ROLL, 2, M.rolloff_value(D6, 5)))
    assert m.phase == M.PHASE_ROLLOFF and list(m.contenders) == [1, 0, 1]
    assert m.waiting() == 0b101  # seats 0 and 2 roll again
    must(m, action(ROLL, 2, M.rolloff_value(D20, 4)))
    must(m, action(ROLL, 0, M.rolloff_value(D4, 4)))  # equal number: fewer faces wins
    assert m.over() and m.winner == 0 and m.rolloff_rounds == 2
    assert m.standings() == [1, 2, 2]
    refused(m, action(PLAY, 0, 0), MATCH_OVER)
    refused(m, action(ROLL, 1, M.rolloff_value(D20, 20)), MATCH_OVER)


def test_scripted_match_with_the_table_rolling():
    """TABLE_ROLLS: the table rolls every die at the deal and every score die; in the
    roll-off each tied seat chooses its die (CHOOSE) and the table rolls it."""
    m = M.new(3, TABLE_ROLLS)
    for g in range(3):
        sweep_game(m, g)
    assert m.totals == [4, 4, 4] and m.phase == M.PHASE_ROLLOFF
    assert m.waiting() == 0b111
    refused(m, action(ROLL, 0, M.rolloff_value(D20, 3)), WRONG_PHASE)  # the table rolls
    refused(m, action(CHOOSE, 0, 6), OUT_OF_RANGE)
    refused(m, action(ROLL, TABLE, M.rolloff_value(D20, 3)), OUT_OF_TURN)
    must(m, action(CHOOSE, 1, D8))
    assert m.waiting() == 0b101 | TABLE_BIT
    assert m.legal_actions(TABLE) == [
        action(ROLL, TABLE, M.rolloff_value(D8, v)) for v in range(1, 9)
    ]
    refused(m, action(ROLL, TABLE, M.rolloff_value(D20, 3)), OUT_OF_RANGE)  # not the d8
    refused(m, action(ROLL, TABLE, M.rolloff_value(D8, 9)), OUT_OF_RANGE)
    refused(m, action(CHOOSE, TABLE, D8), WRONG_PHASE)
    must(m, action(ROLL, TABLE, M.rolloff_value(D8, 8)))
    must(m, action(CHOOSE, 2, D20))
    must(m, action(CHOOSE, 0, D4))
    must(m, action(ROLL, TABLE, M.rolloff_value(D4, 4)))  # seat 0 first: lowest seat
    assert m.rolls[0] != M.NO_ROLL and m.rolls[2] == M.NO_ROLL
    must(m, action(ROLL, TABLE, M.rolloff_value(D20, 17)))
    assert m.over() and m.winner == 2 and m.standings() == [2, 2, 1]


def test_scripted_match_variant_adds_the_dice_totals():
    """VARIANT: each game adds each seat's score-dice total (0 without a score die);
    ranks still choose the next leader (R3); ties on total roll off."""
    m = M.new(3, VARIANT)
    sweep_game(m, 0, roll=lambda d: dt.lowest_face(dt.size(d)))
    assert m.history == [[9 - 2, 0, 0]]  # two d10 show 0, seven dice show 1
    assert m.game_leader == 1
    sweep_game(m, 1, roll=lambda d: 1 if dt.size(d) != D10 else 0)
    sweep_game(m, 2, roll=lambda d: 1 if dt.size(d) != D10 else 3)
    assert m.history[-1] == [0, 0, 13]
    assert m.totals == [7, 7, 13] and m.over() and m.standings() == [2, 2, 1]


def test_count_option_sets_the_number_of_games():
    m = M.new(3, options(0, 1))
    assert m.games == 1
    sweep_game(m, 0)
    assert m.over() and m.history == [[2, 1, 1]] and m.standings() == [1, 2, 2]
    assert M.new(4).games == 4 and M.new(2, options(VARIANT, 5)).games == 5


def test_open_play_scripted_match_same_results():
    """Open play: no deal; the same plays score the same."""
    reg, opn = M.new(3), M.new(3, OPEN_PLAY)
    assert opn.phase == M.PHASE_PLAY and opn.waiting() == 1
    for g in range(3):
        sweep_game(reg, g)
        sweep_game(opn, g)
    assert opn.history == reg.history and opn.totals == reg.totals


# --- the deal ------------------------------------------------------------------------------------


def test_deal_is_simultaneous_scan_then_roll():
    m = M.new(2)
    assert m.waiting() == 0b11
    d = die(R, D6, 0)
    must(m, action(DEAL, 1, d))
    # seat 1 now owes that die's number; seat 0 may still scan
    assert m.legal_actions(1) == [action(ROLL, 1, v) for v in range(1, 7)]
    assert m.waiting() == 0b11
    refused(m, action(DEAL, 1, die(B, D6, 0)), WRONG_PHASE)
    refused(m, action(ROLL, 1, 7), OUT_OF_RANGE)
    refused(m, action(ROLL, 1, 0), OUT_OF_RANGE)
    refused(m, action(ROLL, 0, 3), WRONG_PHASE)
    refused(m, action(ROLL, TABLE, 3), OUT_OF_TURN)
    refused(m, action(DEAL, 0, d), ALREADY_PLACED)
    must(m, action(DEAL, 0, die(R, D10, 0)))
    must(m, action(ROLL, 0, 0))  # a d10 shows 0
    must(m, action(ROLL, 1, 6))
    assert m.hand(0) == [die(R, D10, 0)] and m.hand(1) == [die(R, D6, 6)]
    assert m.public[D.die_index(die(R, D10, 0))] == 1


def test_deal_with_the_table_rolling_waits_on_the_table():
    m = M.new(3, TABLE_ROLLS)
    must(m, action(DEAL, 2, die(W, D20, 0)))
    assert m.waiting() == TABLE_BIT
    assert m.legal_actions(TABLE) == [action(ROLL, TABLE, v) for v in range(1, 21)]
    assert m.legal_actions(2) == [] and m.legal_actions(0) == []
    refused(m, action(DEAL, 0, die(R, D4, 0)), OUT_OF_TURN)
    refused(m, action(ROLL, 2, 5), OUT_OF_TURN)
    refused(m, action(DEAL, TABLE, die(R, D4, 0)), WRONG_PHASE)
    refused(m, action(ROLL, TABLE, 21), OUT_OF_RANGE)
    must(m, action(ROLL, TABLE, 20))
    assert m.hand(2) == [die(W, D20, 20)] and m.waiting() == 0b111
    refused(m, action(ROLL, 2, 5), WRONG_PHASE)  # the seat never enters rolls


def test_deal_refusals_unknown_and_already_placed():
    m = M.new(4)
    refused(m, action(DEAL, 0, die(W, D6, 0, 1)), UNKNOWN_ITEM)  # one white die per size
    refused(m, action(DEAL, 0, (6 << 5)), UNKNOWN_ITEM)  # no size 6
    refused(m, action(DEAL, 0, die(R, D6, 3)), UNKNOWN_ITEM)  # a scan carries no number
    refused(m, action(DEAL, 0, 1 << 11), UNKNOWN_ITEM)
    refused(m, action(PLAY, 0, die(R, D6, 3)), WRONG_PHASE)
    refused(m, action(CHOOSE, 0, 0), WRONG_PHASE)
    refused(m, action(DEAL, 5, die(R, D6, 0)), OUT_OF_TURN)  # no seat 5 at 4 players
    must(m, action(DEAL, 3, die(G, D8, 0, 1)))
    must(m, action(ROLL, 3, 8))
    refused(m, action(DEAL, 1, die(G, D8, 0, 1)), ALREADY_PLACED)
    refused(m, action(DEAL, 3, die(G, D8, 0, 1)), ALREADY_PLACED)


def test_a_full_hand_is_not_waited_on_and_play_starts_with_seat_0():
    m = M.new(2)
    hands = sweep_hands(2, 1)
    deal(m, hands[:1] + [[]])
    assert m.waiting() == 0b10 and m.hand_n[0] == 9
    assert m.legal_actions(0) == []
    refused(m, action(DEAL, 0, die(W, D4, 0)), OUT_OF_TURN)
    for d in hands[1]:
        must(m, action(DEAL, 1, ident(d)))
        must(m, action(ROLL, 1, dt.number(d)))
    assert m.phase == M.PHASE_PLAY and m.turn == 0 and m.leader == 0  # first game: seat 0
    assert m.event & D.EV_DEALT
    assert [m.public[D.die_index(d)] for d in m.hand(0)] == [1, 1, 1] + [0] * 6


# --- playing -------------------------------------------------------------------------------------


def dealt_match(hands, opts=0):
    m = M.new(len(hands), opts)
    if not m.open:
        deal(m, hands)
    return m


def test_play_refusals_and_white_declarations():
    hands = [
        [die(R, D6, 3), die(W, D8, 5), die(B, D4, 2)]
        + [die(B, D20, n, c) for n, c in ((11, 0), (12, 1))]
        + [die(G, D20, 13), die(G, D12, 9), die(G, D10, 7), die(G, D8, 6)],
        [
            die(R, D8, 4),
            die(R, D10, 3),
            die(B, D6, 6),
            die(B, D8, 8),
            die(B, D10, 9),
            die(G, D4, 4),
            die(G, D6, 5),
            die(R, D12, 12),
            die(W, D10, 1),
        ],
    ]
    m = dealt_match(hands)
    assert m.turn == 0
    refused(m, action(PLAY, 1, die(R, D8, 4)), OUT_OF_TURN)
    refused(m, action(DEAL, 0, die(R, D4, 0)), WRONG_PHASE)
    refused(m, action(ROLL, 0, 3), WRONG_PHASE)
    refused(m, action(PLAY, 0, die(R, D8, 4)), NOT_IN_HAND)  # seat 1's die
    refused(m, action(PLAY, 0, die(R, D6, 4)), NOT_IN_HAND)  # shows 3, not 4
    refused(m, action(PLAY, 0, die(R, D6, 3, 1)), NOT_IN_HAND)  # the other red d6
    refused(m, action(PLAY, 0, die(R, D6, 7)), OUT_OF_RANGE)  # no 7 on a d6
    refused(m, action(PLAY, 0, die(W, D8, 5)), ILLEGAL_PLAY)  # white undeclared
    refused(m, action(PLAY, 0, dt.play(die(W, D8, 5), W)), ILLEGAL_PLAY)  # declared white
    refused(m, action(PLAY, 0, die(R, D6, 3) | (4 << 11)), ILLEGAL_PLAY)  # red "declared"
    refused(m, action(PLAY, 0, die(W, D6, 3, 1)), UNKNOWN_ITEM)
    refused(m, action(PLAY, 0, 1 << 14 | die(R, D6, 3)), UNKNOWN_ITEM)
    legal = m.legal_actions(0)
    assert len(legal) == 8 + 3  # any die; the white one three ways
    must(m, action(PLAY, 0, dt.play(die(W, D8, 5), B)))  # white led, declared blue
    # seat 1 holds blue dice: must follow blue (or the number 5; or its white as blue)
    follow = {value_of(a) for a in m.legal_actions(1)}
    assert follow == {
        die(B, D6, 6),
        die(B, D8, 8),
        die(B, D10, 9),
        die(G, D6, 5),
        dt.play(die(W, D10, 1), B),
    }
    refused(m, action(PLAY, 1, die(R, D8, 4)), ILLEGAL_PLAY)
    refused(m, action(PLAY, 1, dt.play(die(W, D10, 1), R)), ILLEGAL_PLAY)
    must(m, action(PLAY, 1, die(G, D6, 5)))  # follows by number, later: wins
    assert m.last_winner == 1 and m.last_leader == 0
    assert m.leader == 0 and m.turn == 0  # equal highest 5: the first leads
    assert list(m.last_trick_items[:2]) == [dt.play(die(W, D8, 5), B), die(G, D6, 5)]
    assert m.score_dice(1) == [die(G, D6, 5)] and m.trick.count == 0
    # the score die is out of play; the led white die went back to the bag
    refused(m, action(PLAY, 0, die(G, D6, 5)), NOT_IN_HAND)
    refused(m, action(PLAY, 0, dt.play(die(W, D8, 5), R)), NOT_IN_HAND)


def test_trick_winner_keeps_the_die_and_the_highest_leads_next():
    hands = [
        [die(R, D20, 20), die(R, D4, 1)]
        + [die(G, D12, n, c) for n, c in ((3, 0), (4, 1))]
        + [die(G, D20, n, c) for n, c in ((5, 0), (6, 1))]
        + [die(G, D8, 7), die(G, D10, 8), die(G, D6, 2)],
        [die(R, D12, 2), die(B, D20, 17)]
        + [die(B, D4, 1)]
        + [die(B, D6, n, c) for n, c in ((1, 0), (2, 1))]
        + [die(B, D8, 3), die(B, D10, 4), die(B, D12, 5), die(W, D4, 4)],
        [die(R, D6, 6), die(G, D4, 3)]
        + [die(W, D20, 19)]
        + [die(R, D8, n, c) for n, c in ((1, 0), (2, 1))]
        + [die(R, D10, 5), die(R, D12, 9, 1), die(B, D20, 12, 1), die(G, D4, 2, 1)],
    ]
    m = dealt_match(hands)
    must(m, action(PLAY, 0, die(R, D20, 20)))
    must(m, action(PLAY, 1, die(R, D12, 2)))
    must(m, action(PLAY, 2, die(R, D6, 6)))
    assert (m.last_winner, m.leader) == (1, 0)  # lowest red wins; the 20 leads next
    assert m.score_dice(1) == [die(R, D12, 2)]
    # seat 0 leads again; seat 1's 17 does not follow green 3 and cannot win
    must(m, action(PLAY, 0, die(G, D12, 3)))
    refused(m, action(PLAY, 1, die(B, D20, 17)), ILLEGAL_PLAY)  # the white must be green
    must(m, action(PLAY, 1, dt.play(die(W, D4, 4), G)))
    must(m, action(PLAY, 2, die(G, D4, 3)))  # equal lowest 3: the later wins
    assert (m.last_winner, m.leader) == (2, 1)
    assert m.turn == 1


# --- random matches checked against the rule text -------------------------------------------


def ref_follows(lead, item):
    return dt.effective_colour(item) == dt.effective_colour(lead) or dt.number(item) == dt.number(
        lead
    )


def ref_trick(items):
    """(winner position, next leader position) by sorting (RULES.md section 1)."""
    followers = [i for i in range(len(items)) if i == 0 or ref_follows(items[0], items[i])]
    winner = sorted(followers, key=lambda i: (dt.number(items[i]), -i))[0]
    leader = sorted(range(len(items)), key=lambda i: (-dt.number(items[i]), i))[0]
    return winner, leader


def ref_ranks(totals, counts):
    keys = [(c > 0, t, -c) for t, c in zip(totals, counts, strict=True)]  # R2, total, fewer dice
    ordered = sorted(keys, reverse=True)
    return [ordered.index(k) + 1 for k in keys]  # R1: competition ranks


def ref_points(totals, counts, variant):
    if variant:
        return list(totals)
    return [{1: 2, 2: 1, 3: 1}.get(r, 0) for r in ref_ranks(totals, counts)]


def ref_next_leader(ranks, leader):
    n = len(ranks)
    last = max(ranks)
    return [(leader + k) % n for k in range(n) if ranks[(leader + k) % n] == last][0]  # R3


class Recorder:
    """Follows a match action by action and checks every trick and every game
    against the references; keeps what a later assertion needs."""

    def __init__(self, match):
        self.m = match
        self.won = [[] for _ in range(match.players)]  # dice won this game, per seat
        self.rolled = [[] for _ in range(match.players)]  # score ROLL values this game
        self.leader = 0
        self.trick_leader = 0

    def step(self, m, a):
        k, s, v = kind_of(a), seat_of(a), value_of(a)
        if k == PLAY:
            assert s == (self.trick_leader + m.trick.count - 1) % m.players or m.event & D.EV_TRICK
        if (
            k == ROLL
            and not m.event & D.EV_DEALT
            and (m.phase == M.PHASE_SCORE or m.event & M.EV_GAME)
        ):
            self.rolled[m.roll_seat].append(v)
        if (
            k == ROLL
            and not m.event & M.EV_GAME
            and (m.phase == M.PHASE_DEAL or m.event & D.EV_DEALT)
        ):
            d = m.hands[m.roll_seat][m.hand_n[m.roll_seat] - 1]
            assert dt.number(d) == v  # R4: the journalled roll is the die's
        if m.event & D.EV_TRICK:
            n = m.last_trick_count
            items = list(m.last_trick_items[:n])
            seats = list(m.last_trick_seats[:n])
            assert seats == [(self.trick_leader + i) % n for i in range(n)]
            w, nl = ref_trick(items)
            assert (m.last_winner, m.leader, m.last_leader) == (seats[w], seats[nl], seats[0])
            self.won[seats[w]].append(dt.die_of(items[w]))
            self.trick_leader = m.leader
        if m.event & M.EV_GAME:
            self.check_game(m)
        if m.event & D.EV_DEALT:
            self.trick_leader = m.leader
            assert m.leader == self.leader

    def check_game(self, m):
        n = m.players
        dice = [list(m.game_dice[s][: m.game_counts[s]]) for s in range(n)]
        # the score dice are the dice that won, each with the number rolled for it (R4)
        assert [[ident(d) for d in ds] for ds in dice] == [
            [ident(d) for d in ws] for ws in self.won
        ]
        assert [[dt.number(d) for d in ds] for ds in dice] == self.rolled
        totals = [sum(r) for r in self.rolled]
        counts = [len(r) for r in self.rolled]
        assert sum(counts) == dt.TRICKS
        assert list(m.game_totals) == totals
        ranks = ref_ranks(totals, counts)
        assert list(m.game_ranks) == ranks
        assert m.history[m.game - 1] == ref_points(totals, counts, m.flag(VARIANT))
        nxt = ref_next_leader(ranks, self.leader)
        if m.game < m.games:
            assert m.game_leader == nxt
        self.leader = nxt
        self.trick_leader = nxt
        self.won = [[] for _ in range(n)]
        self.rolled = [[] for _ in range(n)]


def ref_standings(totals, winner):
    places = []
    for s in range(len(totals)):
        if s == winner:
            places.append(1)
        else:
            places.append(1 + sum(t > totals[s] for t in totals) + (totals[s] == totals[winner]))
    return places


CONFIGS = [
    (n, o)
    for n in (2, 3, 4)
    for o in (0, TABLE_ROLLS, VARIANT, OPEN_PLAY, OPEN_PLAY | TABLE_ROLLS | VARIANT)
]


@pytest.mark.slow
@pytest.mark.parametrize("players,opts", CONFIGS)
def test_random_matches_score_as_the_rule_text(players, opts):
    rng = random.Random("dtwww-%d-%d" % (players, opts))
    for _ in range(20):
        m = M.new(players, opts)
        rec = Recorder(m)
        play_random(m, rng, on_step=rec.step)
        assert m.game == m.games == players and len(m.history) == players
        assert m.totals == [sum(h[s] for h in m.history) for s in range(players)]
        best = max(m.totals)
        tied = [s for s in range(players) if m.totals[s] == best]
        assert m.winner in tied
        assert (m.rolloff_rounds > 0) == (len(tied) > 1)
        assert m.standings() == ref_standings(m.totals, m.winner)
        # R4: every rolled number is a ROLL in the journal
        rolls = [a for a in m.journal if kind_of(a) == ROLL]
        deal_rolls = 0 if m.open else dt.HAND_SIZE * players * players
        assert len(rolls) >= deal_rolls + dt.TRICKS * players
        assert all((seat_of(a) == TABLE) == m.table_rolls for a in rolls)
    # (the scripted tests above pin R3 ties and roll-offs; here they occur by chance)


def test_roll_off_journal_and_rounds():
    """Each roll-off round: every contender rolls once; the round's rolls are kept
    in last_rolls; only those tied for the best roll again."""
    rng = random.Random(7)
    seen_again = False

    def d4_roll_off(m, seat, legal, rng):  # a d4: equal rolls are likely
        if m.phase == M.PHASE_ROLLOFF:
            legal = [a for a in legal if value_of(a) >> 8 == D4]
        return rng.choice(legal)

    for _ in range(40):
        m = M.new(2)
        rounds = []

        def step(m, a, rounds=rounds):
            if m.event & M.EV_ROLLOFF_ROUND:
                rounds.append(list(m.last_rolls))

        play_random(m, rng, d4_roll_off, step)
        for i, r in enumerate(rounds):
            rolled = [v for v in r if v != M.NO_ROLL]
            assert all(M.rolloff_ok(v) for v in rolled)
            if i + 1 < len(rounds):
                assert len(set(rolled)) == 1  # same number on the same kind of die
                seen_again = True
        if rounds:
            last = rounds[-1]
            other = 1 - m.winner
            a, b = last[m.winner], last[other]
            assert (a & 0xFF, -dt.sides(a >> 8)) > (b & 0xFF, -dt.sides(b >> 8))
    assert seen_again


def test_the_roll_offs_count_of_rolls_is_every_face_of_every_size():
    """random_action draws a seat's roll-off roll among _ROLLOFF_ROLLS (a const
    in the engine): every face of every size, the core's sides() of each."""
    sizes = range(dt.D4, dt.D20 + 1)
    assert M._ROLLOFF_ROLLS == sum(len(D.faces(size)) for size in sizes)
    assert M._ROLLOFF_ROLLS == sum(dt.sides(size) for size in sizes)


# --- open play ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("opts", (0, TABLE_ROLLS, VARIANT | TABLE_ROLLS))
def test_open_play_gives_the_same_history_and_totals(players, opts):
    rng = random.Random(players * 10 + opts)
    for _ in range(4):
        m = play_random(
            M.new(players, opts), rng, choose=lambda m, s, legal, r: text.heuristic(m, s, legal, r)
        )
        journal = text.open_play_journal(m.journal, players, opts)
        assert not [a for a in journal if kind_of(a) == DEAL]
        assert len(journal) == len(m.journal) - 2 * dt.HAND_SIZE * players * players
        o = M.new(players, opts | OPEN_PLAY)
        assert o.replay(journal) == -1 and o.over()
        assert (o.history, o.totals, o.standings()) == (m.history, m.totals, m.standings())


def test_open_play_accepts_what_it_cannot_disprove():
    """No deal; any unseen die with any face, white ones declared; whether a
    coloured die could have followed is not checked; a die seen this game
    (played, or a score die) is refused."""
    m = M.new(2, OPEN_PLAY)
    assert m.phase == M.PHASE_PLAY and m.waiting() == 1
    refused(m, action(DEAL, 0, die(R, D6, 0)), WRONG_PHASE)
    refused(m, action(ROLL, 0, 3), WRONG_PHASE)
    faces = 4 + 6 + 8 + 10 + 12 + 20
    assert len(m.legal_actions(0)) == 6 * faces + 3 * faces  # R/B/G two of each; white x3
    refused(m, action(PLAY, 0, die(R, D6, 7)), OUT_OF_RANGE)
    refused(m, action(PLAY, 0, die(W, D6, 2)), ILLEGAL_PLAY)
    refused(m, action(PLAY, 1, die(R, D6, 2)), OUT_OF_TURN)
    must(m, action(PLAY, 0, die(R, D6, 2)))
    refused(m, action(PLAY, 1, die(R, D6, 2)), NOT_IN_HAND)  # seen
    refused(m, action(PLAY, 1, die(R, D6, 5)), NOT_IN_HAND)  # same die, other face
    must(m, action(PLAY, 1, die(B, D4, 1)))  # does not follow: accepted, cannot win
    assert m.last_winner == 0 and m.leader == 0
    refused(m, action(PLAY, 0, die(B, D4, 1)), NOT_IN_HAND)  # back in the bag, seen
    refused(m, action(PLAY, 0, die(R, D6, 2)), NOT_IN_HAND)  # a score die


def test_open_play_refuses_a_white_die_declared_off_the_lead_as_registered_play_does():
    """Issue 10: whoever holds a white die can follow (by declaring it the lead
    colour), so a white die declared another colour, not showing the lead's
    number, breaks the follow rule whatever else the hand holds: refused
    (ILLEGAL_PLAY) in open play as in registered play."""
    m = M.new(3, OPEN_PLAY)
    must(m, action(PLAY, 0, die(B, D12, 9)))  # seat 0 leads a blue d12
    white = die(W, D6, 3)
    refused(m, action(PLAY, 1, dt.play(white, R)), ILLEGAL_PLAY)  # declared red: refused
    refused(m, action(PLAY, 1, dt.play(white, G)), ILLEGAL_PLAY)
    offered = [a for a in m.legal_actions(1) if dt.die_of(value_of(a)) == white]
    assert offered == [action(PLAY, 1, dt.play(white, B))]  # the only choice listed
    must(m, action(PLAY, 1, dt.play(white, B)))  # declared blue: follows
    must(m, action(PLAY, 2, die(R, D8, 4)))  # a coloured die off the lead: cannot be disproved
    # Registered play refuses the same declarations, whatever else the hand holds.
    lead = die(B, D12, 9)
    box = [
        dt.rolled(d, dt.lowest_face(dt.size(d)))
        for d in dt.box()
        if ident(d) not in (ident(lead), ident(white))
    ]
    red_green = [d for d in box if dt.colour(d) in (R, G)]  # seat 1 holds no blue, no 9
    others = [d for d in box if d not in red_green[:8]]
    hands = [[lead] + others[:8], [white] + red_green[:8], others[8:17]]
    reg = M.new(3)
    deal(reg, hands)
    must(reg, action(PLAY, 0, lead))
    refused(reg, action(PLAY, 1, dt.play(white, R)), ILLEGAL_PLAY)
    refused(reg, action(PLAY, 1, dt.play(white, G)), ILLEGAL_PLAY)
    must(reg, action(PLAY, 1, dt.play(white, B)))


def test_open_play_journal_drops_exactly_the_deal():
    m = play_random(M.new(3, TABLE_ROLLS), random.Random(3))
    journal = text.open_play_journal(m.journal, 3, TABLE_ROLLS)
    dropped = [a for a in m.journal if a not in journal]
    assert {kind_of(a) for a in dropped} == {DEAL, ROLL}
    assert sum(kind_of(a) == DEAL for a in m.journal) == 3 * 9 * 3


# --- what the generic tests cannot see ----------------------------------------------------------


def legal_set(m):
    return {a for s in list(range(m.players)) + [TABLE] for a in m.legal_actions(s)}


def check_complement(m, values):
    """refusal(a) == OK exactly for the listed legal actions, over `values` for every
    kind and seat; refusal() changes nothing."""
    legal = legal_set(m)
    before = snapshot(m)
    for kind in (DEAL, PLAY, ROLL, PASS, CHOOSE):
        for seat in list(range(m.players)) + [m.players, TABLE]:
            for v in values:
                a = action(kind, seat, v)
                assert (m.refusal(a) == OK) == (a in legal), (kind, seat, hex(v))
    assert snapshot(m) == before


@pytest.mark.slow
@pytest.mark.parametrize("opts", (0, TABLE_ROLLS, OPEN_PLAY))
def test_refusal_accepts_exactly_the_legal_actions(opts):
    rng = random.Random(opts)
    m = M.new(3, opts)
    values = list(range(0, 1 << 14, 7)) + [a for a in range(0, 0x600)] + [0xFFFF, 0x4000]
    seen = set()
    step = 0

    def on_step(m, a):
        nonlocal step
        step += 1
        key = (m.phase, m.trick.count > 0)
        if key not in seen or step % 97 == 0:
            seen.add(key)
            extra = [value_of(x) for x in legal_set(m)]
            check_complement(m, values + extra)

    play_random(m, rng, on_step=on_step)
    assert {M.PHASE_PLAY, M.PHASE_SCORE, M.PHASE_OVER} <= {p for p, _ in seen}


def test_inventory_places_every_die_once_with_its_number():
    m = M.new(4)
    rng = random.Random(11)

    def on_step(m, a):
        inv = m.inventory()
        assert sorted(inv) == sorted(m.all_items())
        if not any(m.pending):
            held = [d for s in range(4) for d in m.hand(s) + m.score_dice(s)]
            assert all(dt.is_face(dt.size(d), dt.number(d)) for d in held)

    play_random(m, rng, on_step=on_step)
    assert sorted(m.all_items()) == sorted(dt.box())


def test_players_range():
    with pytest.raises(ValueError):
        M.new(1)
    with pytest.raises(ValueError):
        M.new(5)
    assert M.DtwwwMatch.MIN_PLAYERS == 2 and M.DtwwwMatch.MAX_PLAYERS == 4


# --- host side: transcript and bot ----------------------------------------------------------


def test_describe():
    assert text.describe(die(R, D6, 4)) == "red d6:4"
    assert text.describe(dt.play(die(W, D8, 3), B)) == "white d8:3 as blue"
    assert text.describe(die(G, D10, 0, 1)) == "green d10:0"


def test_transcript_tells_the_match():
    from sim.play import play

    out = []
    m = play("dtwww", 3, TABLE_ROLLS, ["heuristic", "random", "heuristic"], 5, out)
    body = "\n".join(out)
    assert "game 1: every hand is registered" in body
    assert "trick 1: seat" in body and "leads next" in body
    assert "game 3 scored:" in body and "(last-ranked) leads" in body
    assert m.over()


def test_heuristic_is_legal_and_deterministic():
    for opts in (0, TABLE_ROLLS, OPEN_PLAY):
        journals = []
        for _ in range(2):
            m = play_random(
                M.new(4, opts),
                random.Random(5),
                choose=lambda m, s, legal, r: text.heuristic(m, s, legal, r),
            )
            journals.append(m.journal)
        assert journals[0] == journals[1]


def test_heuristic_beats_random_play():
    from sim.play import play

    wins = 0
    for seed in range(30):
        m = play("dtwww", 3, 0, ["heuristic", "random", "random"], seed)
        wins += m.standings()[0] == 1
    assert wins > 10  # a random seat would win about a third


@pytest.mark.parametrize("opts", [0, TABLE_ROLLS])
def test_r4_every_roll_is_journalled_so_the_match_replays_identically(opts):
    """R4: rolls entered at the seat, or drawn by the table when it rolls, are
    journal actions; folding the journal again gives the same match."""
    m = play_random(M.new(3, opts), random.Random(4))
    rolls = [a for a in m.journal if kind_of(a) == ROLL]
    assert rolls
    assert all((seat_of(a) == TABLE) == bool(opts & TABLE_ROLLS) for a in rolls)
    again = M.new(3, opts)
    assert again.replay(list(m.journal)) == -1
    assert (again.history, again.totals, again.standings()) == (m.history, m.totals, m.standings())


def test_open_plays_checks_keep_their_frames_on_the_c_stack():
    """The check a play makes (the engine's refusal and _play_refusal; the
    core's open_legal in open play) takes no frame from the board's heap: a
    frame over 11 words would (sim/mpy_code.py)."""
    import pathlib

    from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames

    firmware = pathlib.Path(__file__).resolve().parent.parent / "firmware" / "dicetable"
    for path, names in (
        (firmware / "games" / "dtwww" / "rules.py", {"open_legal", "follows"}),
        (firmware / "games" / "dtwww" / "match.py", {"refusal"}),
        (firmware / "games" / "dtwww" / "deal.py", {"_play_refusal"}),
    ):
        frames = {
            name: frame_words(n_state, n_exc)
            for name, n_state, n_exc in function_frames(path)
            if name in names
        }
        assert set(frames) == names
        assert {n: w for n, w in frames.items() if w > C_STACK_FRAME_WORDS} == {}
