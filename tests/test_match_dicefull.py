"""The Dicefull match engine: phases, turns, the start player (R6), game length,
the challenge deck, roll entry, scoring against an independent reference,
the roll-off, refusals, and open play.

Rules: docs/rules/dicefull.md ("How the table runs a match").
"""

import random
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import pytest
from match_helpers import play_random, seats_waiting, snapshot

from dicetable.games import header_refusal
from dicetable.games.dicefull import match as engine
from dicetable.games.dicefull import picking
from dicetable.games.dicefull import rules as df
from dicetable.games.dicefull import scoring_rules as scoring
from dicetable.match.actions import (
    ALREADY_PLACED,
    ILLEGAL_PLAY,
    MATCH_OVER,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PASS,
    PICK,
    REVEAL,
    ROLL,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    value_of,
)
from dicetable.match.engine import LONGEST, OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.games import dicefull as text

ALL_OPTIONS = (
    0,
    TABLE_ROLLS,
    VARIANT,
    VARIANT | TABLE_ROLLS,
    options(0, 3),
    options(TABLE_ROLLS, 12),
    options(VARIANT, 1),
)


def die(kind, serial=0):
    return df.die(kind, serial)


def ok(match, a):
    code = match.submit(a)
    assert code == OK, (hex(a), code)


def pick(match, seat, kind):
    ok(match, action(PICK, seat, die(kind)))


def pas(match, seat):
    ok(match, action(PASS, seat, 0))


def refused(match, a, code):
    """`a` is refused with `code` and changes nothing."""
    before = snapshot(match)
    journal = list(match.journal)
    assert match.refusal(a) == code
    assert match.submit(a) == code
    assert snapshot(match) == before
    assert match.journal == journal


def roll_everything(match, value=lambda seat, d: 0):
    """Enter a result for every die still to roll: value(seat, die) is the face index."""
    while match.phase == engine.ROLLING:
        seat = seats_waiting(match)[0]
        target = seat if seat != TABLE else match._rolling_seat(TABLE)
        ok(match, action(ROLL, seat, value(target, match.pending_die(target))))


def face_of(kind, number):
    """The face index of `number` (a printed whole number) on a die of `kind`."""
    return list(df.KINDS[kind][1]).index(number * 10)


# --- Independent reference: printed faces and brute force over the ± signs ---------

ONE_TO = lambda top: " ".join(str(i) for i in range(1, top + 1))  # noqa: E731
PRINTED = {
    df.D4: ONE_TO(4),
    df.D6: ONE_TO(6),
    df.D6_PIPS: ONE_TO(6),
    df.D8: ONE_TO(8),
    df.D10: "0 1 2 3 4 5 6 7 8 9",
    df.D12: ONE_TO(12),
    df.D20: ONE_TO(20),
    df.BLANK_D6: "blank " * 6,
    df.ZERO_TWO: "0 0 1 1 2 2",
    df.DOUBLING: "2 4 8 16 32 64",
    df.PLUS_MINUS: "+ + - - blank blank",
    df.RED_BLACK: "red red red black black black",
    df.HAKKE: "3 4 4 5 5 6",
    df.DIGITAL: ONE_TO(6),
    df.DOUBLE: ONE_TO(6),
    df.DECIMAL: "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9",
}
SYMBOLS = {df.BLANK: "blank", df.PLUS: "+", df.MINUS: "-", df.RED: "red", df.BLACK: "black"}


def printed(result):
    """The printed face of a result, read from its bits: kind 5-9, face 0-4."""
    token = PRINTED[(result >> 5) & 31].split()[result & 31]
    return token if token in SYMBOLS.values() else Fraction(token)


def number_lists(faces):
    numbers = [f for f in faces if not isinstance(f, str)]
    signs = [f for f in faces if f in ("+", "-")]
    for chosen in product([None] + list(permutations(range(len(numbers)), 2)), repeat=len(signs)):
        used = [i for pair in chosen if pair for i in pair]
        if len(used) != len(set(used)):
            continue
        made = [
            numbers[a] + numbers[b] if sign == "+" else numbers[a] - numbers[b]
            for sign, pair in zip(signs, chosen, strict=True)
            if pair
            for a, b in [pair]
        ]
        yield [x for i, x in enumerate(numbers) if i not in used] + made


def ref_count(faces, nums, v):
    if v < df.SYMBOL:
        return nums.count(Fraction(v, 10))
    if v == df.ANY_NUMBER:
        return len(nums)
    symbols = [f for f in faces if isinstance(f, str)]
    if v == df.NO_VALUE:
        return len(symbols)
    if v == df.ANY_COLOUR:
        return sum(f in ("red", "black") for f in symbols)
    return symbols.count(SYMBOLS[v])


def ref_threshold(row, faces, nums):
    test, k, v = row[1], row[2], row[3]
    t = Fraction(k, 10)
    if test == df.COUNT_AT_LEAST:
        return ref_count(faces, nums, v) >= k
    if test == df.COUNT_EXACTLY:
        return ref_count(faces, nums, v) == k
    if not nums:
        return False
    return {
        df.HIGH_AT_LEAST: lambda: max(nums) >= t,
        df.LOW_AT_MOST: lambda: min(nums) <= t,
        df.ALL_AT_LEAST: lambda: len(nums) >= max(v, 1) and min(nums) >= t,
        df.ALL_AT_MOST: lambda: len(nums) >= max(v, 1) and max(nums) <= t,
        df.TOTAL_AT_LEAST: lambda: sum(nums) >= t,
        df.TOTAL_AT_MOST: lambda: sum(nums) <= t,
        df.TOTAL_EXACTLY: lambda: sum(nums) == t,
        df.TOTAL_MULTIPLE: lambda: (sum(nums) / t).denominator == 1,
        df.SAME_AT_LEAST: lambda: max(Counter(nums).values()) >= k,
        df.ALL_DIFFERENT: lambda: len(nums) >= k and len(set(nums)) == len(nums),
    }[test]()


def ref_key(row, nums):
    if not nums:
        return None
    return {
        df.MOST_TOTAL: lambda: sum(nums),
        df.LEAST_TOTAL: lambda: -sum(nums),
        df.MOST_SINGLE: lambda: max(nums),
        df.LEAST_SINGLE: lambda: -min(nums),
        df.CLOSEST_TOTAL: lambda: -abs(sum(nums) - Fraction(row[2], 10)),
    }[row[1]]()


def reference_gains(row, rolls):
    """VP per seat for challenge `row`, rolls[seat] the seat's results."""
    faces = [[printed(r) for r in results] for results in rolls]
    if row[1] <= df.CLOSEST_TOTAL:  # the five comparison tests
        best = []
        for f in faces:
            keys = [ref_key(row, nums) for nums in number_lists(f)] if f else []
            keys = [key for key in keys if key is not None]
            best.append(max(keys) if keys else None)
        top = max((b for b in best if b is not None), default=None)
        met = [b is not None and b == top for b in best]
    else:
        met = [
            bool(f) and any(ref_threshold(row, f, nums) for nums in number_lists(f)) for f in faces
        ]
    return [row[4] if m else 0 for m in met]


# --- Start player, picking, R6 ------------------------------------------------------


def test_seat_0_starts_and_nobody_passes_before_a_first_pick():
    m = engine.new(3)
    assert m.phase == engine.PICKING and m.start == 0 and m.waiting() == 1
    assert (
        sorted(m.inventory())
        == sorted(m.all_items())
        == sorted(die(k) for k in range(len(df.KINDS)))
    )
    assert action(PASS, 0, 0) not in m.legal_actions(0)
    refused(m, action(PASS, 0, 0), ILLEGAL_PLAY)
    pick(m, 0, df.D20)
    refused(m, action(PASS, 1, 0), ILLEGAL_PLAY)
    pick(m, 1, df.D6)
    pick(m, 2, df.D8)
    assert m.waiting() == 1 and action(PASS, 0, 0) in m.legal_actions(0)


def test_the_first_passer_starts_the_next_round():
    m = engine.new(3)
    for seat, kind in ((0, df.D4), (1, df.D6), (2, df.D8), (0, df.D10)):
        pick(m, seat, kind)
    pas(m, 1)  # the first to pass
    pick(m, 2, df.D12)
    pas(m, 0)
    pas(m, 2)
    assert m.phase == engine.CHECK and m.waiting() == TABLE_BIT and m.first_passer == 1
    ok(m, action(REVEAL, TABLE, 0))
    roll_everything(m)
    assert m.phase == engine.PICKING and m.start == 1 and m.turn == 1 and m.waiting() == 2
    assert m.last_leader == 0 and m.last_first_passer == 1


def test_a_hard_pass_is_skipped_and_the_last_picker_picks_to_the_limit():
    m = engine.new(2)
    pick(m, 0, df.D4)
    pick(m, 1, df.D6)
    pas(m, 0)
    refused(m, action(PICK, 0, die(df.D8)), OUT_OF_TURN)
    kinds = [df.D8, df.D10, df.D12, df.D20, df.DOUBLE]
    for kind in kinds:  # seat 1 picks alone, to 6 dice
        assert m.waiting() == 2
        pick(m, 1, kind)
    assert m.held[1] == 6 and m.phase == engine.CHECK


def test_r6_nobody_passed_the_start_player_stays():
    m = engine.new(2)
    for i in range(12):  # both reach the limit of 6 without passing
        ok(m, m.legal_actions(i % 2)[0])
    assert m.phase == engine.CHECK and list(m.held) == [6, 6] and m.ncentre == 4
    ok(m, action(REVEAL, TABLE, 5))
    roll_everything(m)
    assert m.start == 0 and m.last_first_passer == engine.NOBODY and m.waiting() == 1


def test_r6_five_players_the_centre_empties_and_picking_ends():
    m = engine.new(5)
    assert m.limit == 5
    for i in range(16):  # 16 dice: seat 0 gets a fourth, then empty
        seat = i % 5
        assert m.phase == engine.PICKING and m.turn == seat
        ok(m, [a for a in m.legal_actions(seat) if kind_of(a) == PICK][0])
    assert m.ncentre == 0 and m.phase == engine.CHECK and list(m.held) == [4, 3, 3, 3, 3]
    ok(m, action(REVEAL, TABLE, 0))
    roll_everything(m)
    assert m.start == 0 and m.ncentre == 16  # start stays, dice back to the centre


def test_five_players_limit_five_ends_the_picker():
    m = engine.new(5)
    for seat in range(5):
        ok(m, m.legal_actions(seat)[0])
    ok(m, m.legal_actions(0)[0])
    for seat in range(1, 5):
        pas(m, seat)
    for _ in range(3):  # seat 0 picks alone: its third, fourth, fifth
        assert m.waiting() == 1
        ok(m, m.legal_actions(0)[0])
    # At the limit of 5, seat 0 takes no more turns: picking is over.
    assert m.held[0] == 5 and m.phase == engine.CHECK and m.first_passer == 1


def test_a_die_held_by_another_seat_is_already_placed():
    m = engine.new(2)
    pick(m, 0, df.D20)
    refused(m, action(PICK, 1, die(df.D20)), ALREADY_PLACED)
    assert action(PICK, 1, die(df.D20)) not in m.legal_actions(1)


# --- Game length ----------------------------------------------------------------------


def test_a_first_game_has_six_challenges():
    m = play_random(engine.new(3), random.Random(1))
    assert m.rounds == 6 and len(m.history) == 6
    assert len([a for a in m.journal if kind_of(a) == REVEAL]) == 6


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_variant_the_seat_right_of_the_start_rolls_2d6(players):
    m = engine.new(players, VARIANT)
    roller = players - 1
    assert m.phase == engine.SETUP and m.waiting() == 1 << roller
    assert m.legal_actions(roller) == [action(ROLL, roller, v) for v in range(6)]
    refused(m, action(ROLL, 0, 2), OUT_OF_TURN)
    refused(m, action(ROLL, roller, 6), OUT_OF_RANGE)
    refused(m, action(PICK, roller, die(df.D6)), WRONG_PHASE)
    ok(m, action(ROLL, roller, 3))  # a 4
    assert m.phase == engine.SETUP
    ok(m, action(ROLL, roller, 4))  # a 5
    assert m.rounds == 9 and m.phase == engine.PICKING and m.waiting() == 1
    play_random(m, random.Random(players))
    assert len(m.history) == 9


def test_variant_with_table_rolls_the_table_rolls_the_2d6():
    m = engine.new(4, VARIANT | TABLE_ROLLS)
    assert m.waiting() == TABLE_BIT and m.legal_actions(3) == []
    refused(m, action(ROLL, 3, 0), OUT_OF_TURN)
    ok(m, action(ROLL, TABLE, 0))
    ok(m, action(ROLL, TABLE, 0))
    assert m.rounds == 2  # double 1: the shortest game


def test_the_length_option_overrides_the_first_game_and_the_variant():
    m = engine.new(3, options(VARIANT, 4))
    assert m.phase == engine.PICKING and m.rounds == 4
    assert engine.new(3, options(0, LONGEST)).rounds == LONGEST
    play_random(m, random.Random(2))
    assert len(m.history) == 4


@pytest.mark.parametrize("count", [LONGEST + 1, len(df.CHALLENGES), 200, 255])
def test_a_length_over_the_longest_is_refused_not_cut_down(count):
    # The longest game the original plays is 12 challenges (a 2d6); a longer
    # length was once cut to the challenge set's size without a word.
    with pytest.raises(ValueError, match="dicefull's length is 1 to 12 .* not %d" % count):
        engine.new(3, options(0, count))
    assert LONGEST <= len(df.CHALLENGES)  # every length the table takes has its challenges


@pytest.mark.parametrize("flag", [OPEN_PLAY, 8, 0x80])
def test_options_dicefull_does_not_read_are_refused(flag):
    # No hidden hand: open play would be registered play under another name.
    bit = flag.bit_length() - 1
    with pytest.raises(ValueError, match="dicefull has no option bit %d" % bit):
        engine.new(3, flag | TABLE_ROLLS)


# --- Challenges, rolls, scoring --------------------------------------------------------


def _to_check(m):
    while m.phase == engine.PICKING:
        seat = m.turn
        legal = m.legal_actions(seat)
        passes = [a for a in legal if kind_of(a) == PASS]
        ok(m, passes[0] if passes else legal[0])


def test_the_table_reveals_each_challenge_once_per_game():
    m = engine.new(2, options(0, LONGEST))
    seen = []
    while not m.over():
        if m.phase == engine.CHECK:
            legal = m.legal_actions(TABLE)
            assert legal == [
                action(REVEAL, TABLE, c) for c in range(len(df.CHALLENGES)) if c not in seen
            ]
            for c in seen[-2:]:
                refused(m, action(REVEAL, TABLE, c), ALREADY_PLACED)
            refused(m, action(REVEAL, TABLE, len(df.CHALLENGES)), UNKNOWN_ITEM)
            refused(m, action(PICK, TABLE, die(df.D4)), WRONG_PHASE)
            refused(m, action(REVEAL, 0, legal[0] & 0xFFFF), OUT_OF_TURN)
            a = legal[len(legal) // 2]
            ok(m, a)
            seen.append(value_of(a))
        elif m.phase == engine.PICKING:
            _to_check(m)
        else:
            seat = seats_waiting(m)[0]
            legal = m.legal_actions(seat)
            ok(m, legal[seat % len(legal)])  # a roll-off ends: seats roll apart
    assert len(set(seen)) == len(seen) == LONGEST


def test_results_are_face_indices_and_the_double_die_gives_two():
    m = engine.new(2)
    pick(m, 0, df.DOUBLE)
    pick(m, 1, df.D4)
    pick(m, 0, df.D10)
    pas(m, 1)
    pas(m, 0)
    ok(m, action(REVEAL, TABLE, 13))  # a pair
    assert m.waiting() == 0b11  # both seats enter at once
    assert m.legal_actions(1) == [action(ROLL, 1, v) for v in range(4)]
    refused(m, action(ROLL, 1, 4), OUT_OF_RANGE)  # a d4 has 4 faces: 0-3
    refused(m, action(PICK, 1, die(df.D6)), WRONG_PHASE)
    refused(m, action(PASS, 0, 0), WRONG_PHASE)
    refused(m, action(ROLL, TABLE, 0), OUT_OF_TURN)
    ok(m, action(ROLL, 1, 2))  # d4 shows 3
    assert m.waiting() == 0b01
    refused(m, action(ROLL, 1, 0), OUT_OF_TURN)  # nothing left to roll
    assert m.pending_die(0) == die(df.DOUBLE)
    ok(m, action(ROLL, 0, face_of(df.DOUBLE, 4)))
    assert m.pending_die(0) == die(df.DOUBLE)  # its second result
    ok(m, action(ROLL, 0, face_of(df.DOUBLE, 4)))
    assert m.pending_die(0) == die(df.D10)
    refused(m, action(ROLL, 0, 10), OUT_OF_RANGE)
    ok(m, action(ROLL, 0, 0))  # d10 face index 0 shows 0
    assert list(m.rolls[0][:3]) == [df.rolled(die(df.DOUBLE), 3)] * 2 + [df.rolled(die(df.D10), 0)]
    assert df.face(m.rolls[0][2]) == 0
    # Seat 0 has 4, 4 and 0: a pair; seat 1 a single 3.
    assert m.history == [[1, 0]] and m.totals == [1, 0] and m.last_winners == [0]
    assert m.phase == engine.PICKING and m.ncentre == len(m.dice) and list(m.held) == [0, 0]


def test_table_rolls_every_die_from_the_start_player_clockwise():
    m = engine.new(3, TABLE_ROLLS)
    for seat, kind in ((0, df.D4), (1, df.DOUBLE), (2, df.D8)):
        pick(m, seat, kind)
    pas(m, 0)
    pas(m, 1)
    pick(m, 2, df.D20)
    pas(m, 2)
    ok(m, action(REVEAL, TABLE, 0))  # highest total
    assert m.waiting() == TABLE_BIT and all(m.legal_actions(s) == [] for s in range(3))
    refused(m, action(ROLL, 0, 0), OUT_OF_TURN)
    order = []
    while m.phase == engine.ROLLING:
        seat = m._rolling_seat(TABLE)
        order.append((seat, df.kind_of(m.pending_die(seat))))
        assert m.legal_actions(TABLE) == [
            action(ROLL, TABLE, v) for v in range(df.face_count(order[-1][1]))
        ]
        ok(m, m.legal_actions(TABLE)[-1])  # every die shows its highest face
    assert order == [(0, df.D4), (1, df.DOUBLE), (1, df.DOUBLE), (2, df.D8), (2, df.D20)]
    assert m.history == [[0, 0, 2]]  # 4; 6 + 6; 8 + 20


def test_a_challenge_nobody_meets_scores_nothing_and_the_comparison_ties_share():
    m = engine.new(3, options(0, 2))
    for seat, kind in ((0, df.D6), (1, df.D6_PIPS), (2, df.BLANK_D6)):
        pick(m, seat, kind)
    for seat in range(3):
        pas(m, seat)
    ok(m, action(REVEAL, TABLE, 2))  # highest single number
    roll_everything(m, lambda seat, d: 5)  # 6, 6 and a blank
    assert m.history[-1] == [1, 1, 0] and m.last_winners == [0, 1]
    assert m.start == 0
    _to_check(m)  # each picks one die (d4, d6, pip d6) and passes
    ok(m, action(REVEAL, TABLE, 12))  # a 64
    roll_everything(m, lambda seat, d: 0)
    assert m.history[-1] == [0, 0, 0] and m.last_winners == []
    assert m.phase == engine.ROLL_OFF and m.tied == [0, 1]


def _record_rounds(m, rounds):
    """on_step hook: each time a round is scored, keep its challenge, every
    seat's dice picked (from the Trick) and its results."""

    def on_step(match, a):
        if len(match.history) > len(rounds):
            t = match.trick
            picked = [
                [t.items[i] for i in range(t.count) if t.seats[i] == s]
                for s in range(match.players)
            ]
            results = [
                [match.rolls[s][i] for i in range(match.nres[s])] for s in range(match.players)
            ]
            rounds.append((match.last_challenge, picked, results, list(match.history[-1])))

    return on_step


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_round_scores_as_an_independent_reference(players):
    rng = random.Random(players)
    for number in range(14):
        opts = ALL_OPTIONS[number % len(ALL_OPTIONS)]
        m = engine.new(players, opts)
        rounds = []
        choose = random_or_heuristic(number)
        play_random(m, rng, choose, _record_rounds(m, rounds))
        assert len(rounds) == m.rounds == len(m.history)
        assert len({c for c, _, _, _ in rounds}) == m.rounds  # no repeated challenge
        for challenge, picked, results, gained in rounds:
            for seat in range(players):
                # One result per die picked (two for the double die), in pick order.
                expect = [
                    d for d in picked[seat] for _ in range(2 if df.kind_of(d) == df.DOUBLE else 1)
                ]
                assert [r & ~0x1F for r in results[seat]] == expect
                assert 1 <= len(picked[seat]) <= m.limit or not picked[seat]
            assert gained == reference_gains(df.CHALLENGES[challenge], results)
        assert m.totals == [sum(g[s] for g in m.history) for s in range(players)]
        check_standings(m)


def random_or_heuristic(number):
    if number % 2:
        return lambda match, seat, legal, rng: rng.choice(legal)
    return text.heuristic


def check_standings(m):
    places = m.standings()
    top = max(m.totals)
    leaders = [s for s in range(m.players) if m.totals[s] == top]
    assert places.count(1) == 1 and m.totals[places.index(1)] == top
    assert m.winner == places.index(1)
    for s in range(m.players):
        better = sum(1 for o in range(m.players) if m.totals[o] > m.totals[s])
        if s not in leaders:
            assert places[s] == better + 1
        else:
            assert places[s] <= len(leaders)
    assert (m.phase == engine.OVER) and m.waiting() == 0


# --- The roll-off ------------------------------------------------------------------------


def _one_round_all_zero(players, opts=0):
    """A one-challenge game that nobody meets: everyone ends on 0 VP."""
    m = engine.new(players, options(opts, 1))
    _to_check(m)
    ok(m, action(REVEAL, TABLE, 12))  # a 64
    roll_everything(m, lambda seat, d: 0)  # a doubling cube would show 2
    assert m.totals == [0] * players
    return m


def test_a_tie_goes_to_a_roll_off_and_equal_rolls_roll_again():
    m = _one_round_all_zero(2)
    assert m.phase == engine.ROLL_OFF and m.tied == [0, 1] and m.waiting() == 0b11
    assert m.legal_actions(0) == [action(ROLL, 0, v) for v in range(6)]
    refused(m, action(ROLL, 0, 6), OUT_OF_RANGE)
    refused(m, action(PICK, 0, die(df.D6)), WRONG_PHASE)
    ok(m, action(ROLL, 1, 4))
    refused(m, action(ROLL, 1, 4), OUT_OF_TURN)  # one roll each
    ok(m, action(ROLL, 0, 4))  # 5 and 5: again
    assert m.phase == engine.ROLL_OFF and m.waiting() == 0b11
    ok(m, action(ROLL, 0, 1))
    ok(m, action(ROLL, 1, 3))  # 2 against 4
    assert m.over() and m.winner == 1 and m.standings() == [2, 1]
    refused(m, action(ROLL, 0, 0), MATCH_OVER)
    refused(m, action(PICK, 1, die(df.D4)), MATCH_OVER)


def test_a_three_way_roll_off_places_the_knocked_out_by_the_order_they_left():
    m = _one_round_all_zero(4, 0)
    assert m.tied == [0, 1, 2, 3]
    for seat, v in ((0, 5), (1, 5), (2, 0), (3, 0)):  # 6, 6, 1, 1
        ok(m, action(ROLL, seat, v))
    assert m.tied == [0, 1] and m.waiting() == 0b11
    ok(m, action(ROLL, 0, 2))
    ok(m, action(ROLL, 1, 3))
    assert m.winner == 1 and m.standings() == [2, 1, 3, 3]


def test_the_table_rolls_the_roll_off_in_seat_order():
    m = _one_round_all_zero(3, TABLE_ROLLS)
    assert m.waiting() == TABLE_BIT and m.legal_actions(0) == []
    for v in (2, 5, 5):  # seat 0: 3, seat 1: 6, seat 2: 6
        ok(m, action(ROLL, TABLE, v))
    assert m.tied == [1, 2]
    ok(m, action(ROLL, TABLE, 5))
    ok(m, action(ROLL, TABLE, 0))
    assert m.winner == 1 and m.standings() == [3, 1, 2]


def test_one_leader_needs_no_roll_off():
    m = engine.new(2, options(0, 1))
    pick(m, 0, df.D20)
    pick(m, 1, df.D4)
    pas(m, 0)
    pas(m, 1)
    ok(m, action(REVEAL, TABLE, 0))  # highest total
    roll_everything(m, lambda seat, d: 0)  # 1 against 1: a tie ...
    assert m.phase == engine.ROLL_OFF
    m.undo()
    ok(m, action(ROLL, 1, 3))  # ... but 1 against 4: seat 1 leads
    assert m.over() and m.standings() == [2, 1] and m.winner == 1


# --- Refusals, legality, determinism -------------------------------------------------------


def test_refusals_in_the_pick_phase():
    m = engine.new(3)
    refused(m, action(PICK, 1, die(df.D4)), OUT_OF_TURN)
    refused(m, action(PICK, 5, die(df.D4)), OUT_OF_TURN)  # no such seat
    refused(m, action(PICK, TABLE, die(df.D4)), OUT_OF_TURN)
    refused(m, action(ROLL, 0, 0), WRONG_PHASE)
    refused(m, action(REVEAL, 0, 0), WRONG_PHASE)
    refused(m, action(PICK, 0, die(df.D4, 1)), UNKNOWN_ITEM)  # a second d4: not in the set
    refused(m, action(PICK, 0, df.rolled(die(df.D4), 2)), UNKNOWN_ITEM)
    refused(m, action(PICK, 0, df.PASS), UNKNOWN_ITEM)
    pick(m, 0, df.D4)
    pick(m, 1, df.D6)
    pick(m, 2, df.D8)
    refused(m, action(PASS, 0, 1), OUT_OF_RANGE)  # a pass carries no value
    refused(m, action(PICK, 0, die(df.D6)), ALREADY_PLACED)
    refused(m, action(PICK, 0, die(df.D4)), ALREADY_PLACED)  # already its own


@pytest.mark.slow
def test_an_action_is_accepted_exactly_when_it_is_listed_as_legal():
    rng = random.Random(5)
    values = sorted(set(picking.dice_set()) | set(range(40)) | {df.PASS, 0x1234})
    checked = 0
    for players, opts in ((2, VARIANT), (3, TABLE_ROLLS), (5, 0), (4, VARIANT | TABLE_ROLLS)):
        m = engine.new(players, opts)
        while not m.over():
            if rng.random() < 0.15:
                before = snapshot(m)
                legal = {a for s in list(range(players)) + [TABLE] for a in m.legal_actions(s)}
                for kind in range(13):
                    for seat in range(8):
                        for v in values:
                            a = action(kind, seat, v)
                            assert (m.refusal(a) == OK) == (a in legal), hex(a)
                assert snapshot(m) == before
                checked += 1
            seat = rng.choice(seats_waiting(m))
            ok(m, rng.choice(m.legal_actions(seat)))
    assert checked > 20


def test_waiting_seats_and_legal_actions_agree_and_every_die_is_somewhere():
    rng = random.Random(9)
    for players in (2, 3, 4, 5):
        for opts in ALL_OPTIONS:

            def step(match, a, players=players):
                assert sorted(match.inventory()) == sorted(match.all_items())
                waited = seats_waiting(match)
                for seat in list(range(players)) + [TABLE]:
                    assert bool(match.legal_actions(seat)) == (seat in waited)

            m = play_random(engine.new(players, opts), rng, on_step=step)
            again = engine.new(players, opts)
            assert again.replay(list(m.journal)) == -1
            assert snapshot(again) == snapshot(m)


def test_undo_takes_back_a_pick():
    m = engine.new(2)
    pick(m, 0, df.D20)
    before = snapshot(m)
    pick(m, 1, df.D12)
    assert m.undo() == OK and snapshot(m) == before


def test_a_custom_dice_set(monkeypatch):
    monkeypatch.setattr(picking, "DICE_SET", [die(df.D6, 0), die(df.D6, 1), die(df.DOUBLE, 0)])
    m = engine.new(2, options(0, 2))
    assert sorted(m.all_items()) == sorted(picking.DICE_SET)
    refused(m, action(PICK, 0, die(df.D20)), UNKNOWN_ITEM)
    ok(m, action(PICK, 0, die(df.D6, 1)))
    ok(m, action(PICK, 1, die(df.DOUBLE)))
    ok(m, action(PICK, 0, die(df.D6, 0)))  # R6: the centre is empty
    assert m.phase == engine.CHECK
    ok(m, action(REVEAL, TABLE, 13))  # a pair
    roll_everything(m, lambda seat, d: 2)  # 3, 3 and 3, 3
    assert m.history == [[1, 1]]
    play_random(m, random.Random(1))


# --- Open play and the host side -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_there_is_no_open_play(players):
    # Dicefull has no hidden hand (every die is picked from the open centre onto
    # the seat's reader), so open play would be registered play under another
    # name: the engine refuses the option, and the menu never offers it.
    for opts in (OPEN_PLAY, OPEN_PLAY | TABLE_ROLLS | VARIANT):
        assert (
            header_refusal("dicefull", players, opts)
            == "dicefull has no option bit 0 (it reads the bits in 6)"
        )
        with pytest.raises(ValueError):
            engine.new(players, opts)
    assert engine.DicefullMatch.OPTIONS == TABLE_ROLLS | VARIANT


def test_heuristic_plays_legally_and_narration_reads():
    rng = random.Random(3)
    for players in (2, 5):
        for opts in ALL_OPTIONS:
            m = engine.new(players, opts)
            lines = []
            while not m.over():
                seat = rng.choice(seats_waiting(m))
                legal = m.legal_actions(seat)
                a = rng.choice(legal) if seat == TABLE else text.heuristic(m, seat, legal, rng)
                assert a in legal
                ok(m, a)
                lines.extend(text.narrate(m, a))
            assert all(isinstance(line, str) for line in lines)
            assert sum("revealed" in line for line in lines) == m.rounds
            assert any("game over" in line for line in lines)
            assert any("roll-off" in line for line in lines) == (len(scoring.leaders(m.totals)) > 1)


def test_describe():
    assert text.describe(die(df.D20)) == "d20"
    assert text.describe(die(df.D6, 2)) == "d6 #3"  # the third d6, as the board names it
    assert text.describe_result(df.rolled(die(df.DECIMAL), 5)) == "decimal:0.5"
    assert text.describe_result(df.rolled(die(df.DOUBLING), 5)) == "doubling:64"
    assert text.describe_result(df.rolled(die(df.PLUS_MINUS), 2)) == "+- die:-"
    assert text.tenths(-3) == "-0.3" and text.tenths(210) == "21"
    assert text.challenge_text(df.CHALLENGES[9]) == "a total of -0.1 or less (special, 3 VP)"
