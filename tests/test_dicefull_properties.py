"""Property tests for the Dicefull rules core (CPython, hypothesis).

The core is compared with plain references written here from RULES.md
section 3 and the original: face tables as printed (with Fractions, so the
decimal die is 0.3 and not 3 tenths), every way of using the ± signs tried by
brute force with itertools, tests computed with sum/max/min/Counter.  Whole
random pick phases check the pick-phase rules together.
"""

from array import array
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dicetable.games.dicefull import rules as df

# --- Reference face tables, as printed on the dice --------------------------------

ONE_TO = lambda top: " ".join(str(i) for i in range(1, top + 1))  # noqa: E731
PRINTED = {
    df.D4: ONE_TO(4),
    df.D6: ONE_TO(6),
    df.D6_PIPS: ONE_TO(6),
    df.D8: ONE_TO(8),
    df.D10: "0 1 2 3 4 5 6 7 8 9",
    df.D12: ONE_TO(12),
    df.D20: ONE_TO(20),
    df.BLANK_D6: "blank blank blank blank blank blank",
    df.ZERO_TWO: "0 0 1 1 2 2",
    df.DOUBLING: "2 4 8 16 32 64",
    df.PLUS_MINUS: "+ + - - blank blank",
    df.RED_BLACK: "red red red black black black",
    df.HAKKE: "3 4 4 5 5 6",
    df.DIGITAL: ONE_TO(6),
    df.DOUBLE: ONE_TO(6),
    df.DECIMAL: "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9",
}
SYMBOLS = {"blank", "+", "-", "red", "black"}
COLOURS = {"red", "black"}
SYMBOL_CODE = {df.BLANK: "blank", df.PLUS: "+", df.MINUS: "-", df.RED: "red", df.BLACK: "black"}
KINDS = sorted(PRINTED)


def printed_face(kind, index):
    token = PRINTED[kind].split()[index]
    return token if token in SYMBOLS else Fraction(token)


def reference_results(dice):
    """Printed faces of a roll: dice is [(kind, index, index2)], index2 for the double die."""
    faces = []
    for kind, i, j in dice:
        faces.append(printed_face(kind, i))
        if kind == df.DOUBLE:
            faces.append(printed_face(kind, j))
    return faces


def core_results(dice):
    items = []
    for serial, (kind, i, j) in enumerate(dice):
        items.append(df.rolled(df.die(kind, serial), i))
        if kind == df.DOUBLE:
            items.append(df.rolled(df.die(kind, serial), j))
    return array("H", items)


# --- Reference evaluation -----------------------------------------------------------


def number_choices(faces):
    """Every list of numbers a player can make: each +/- face may join two
    printed numbers (a+b, or a-b either way), each number once, or stay unused."""
    numbers = [f for f in faces if not isinstance(f, str)]
    signs = [f for f in faces if f in ("+", "-")]
    pairs = [None] + list(permutations(range(len(numbers)), 2))
    for chosen in product(pairs, repeat=len(signs)):
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


def reference_count(faces, nums, v):
    if v < df.SYMBOL:
        return nums.count(Fraction(v, 10))
    if v == df.ANY_NUMBER:
        return len(nums)
    symbols = [f for f in faces if isinstance(f, str)]
    if v == df.NO_VALUE:
        return len(symbols)
    if v == df.ANY_COLOUR:
        return sum(f in COLOURS for f in symbols)
    return symbols.count(SYMBOL_CODE[v])


def reference_meets(test, k, v, faces, nums):
    """Threshold tests, as the doc words them; k, v numbers are tenths."""
    tk = Fraction(k, 10)
    if test == df.COUNT_AT_LEAST:
        return reference_count(faces, nums, v) >= k
    if test == df.COUNT_EXACTLY:
        return reference_count(faces, nums, v) == k
    if not nums:
        return False
    return {
        df.HIGH_AT_LEAST: lambda: max(nums) >= tk,
        df.LOW_AT_MOST: lambda: min(nums) <= tk,
        df.ALL_AT_LEAST: lambda: len(nums) >= v and min(nums) >= tk,
        df.ALL_AT_MOST: lambda: len(nums) >= v and max(nums) <= tk,
        df.TOTAL_AT_LEAST: lambda: sum(nums) >= tk,
        df.TOTAL_AT_MOST: lambda: sum(nums) <= tk,
        df.TOTAL_EXACTLY: lambda: sum(nums) == tk,
        df.TOTAL_MULTIPLE: lambda: (sum(nums) / tk).denominator == 1,
        df.SAME_AT_LEAST: lambda: max(Counter(nums).values()) >= k,
        df.ALL_DIFFERENT: lambda: len(nums) >= k and len(set(nums)) == len(nums),
    }[test]()


def reference_key(test, k, nums):
    """Comparison tests: a key where higher is better, in tenths as the core has it."""
    if not nums:
        return None
    value = {
        df.MOST_TOTAL: lambda: sum(nums),
        df.LEAST_TOTAL: lambda: -sum(nums),
        df.MOST_SINGLE: lambda: max(nums),
        df.LEAST_SINGLE: lambda: -min(nums),
        df.CLOSEST_TOTAL: lambda: -abs(sum(nums) - Fraction(k, 10)),
    }[test]()
    return int(value * 10)


def reference_evaluate(faces, test, k, v):
    if not faces:
        return df.NO_SCORE if df.is_comparison(test) else 0
    if df.is_comparison(test):
        keys = [reference_key(test, k, nums) for nums in number_choices(faces)]
        keys = [key for key in keys if key is not None]
        return max(keys) if keys else df.NO_SCORE
    return int(any(reference_meets(test, k, v, faces, nums) for nums in number_choices(faces)))


def reference_met_by(all_faces, test, k, v):
    scores = [reference_evaluate(f, test, k, v) for f in all_faces]
    if df.is_comparison(test):
        top = max(scores)
        return [] if top == df.NO_SCORE else [s for s, x in enumerate(scores) if x == top]
    return [s for s, x in enumerate(scores) if x]


# --- Strategies -------------------------------------------------------------------


@st.composite
def a_die(draw, kinds=KINDS):
    kind = draw(st.sampled_from(kinds))
    faces = len(PRINTED[kind].split())
    return (kind, draw(st.integers(0, faces - 1)), draw(st.integers(0, faces - 1)))


@st.composite
def a_roll(draw):
    """Up to 6 dice (the pick limit), small enough for the brute-force reference."""
    signs = draw(st.integers(0, 3))
    others = draw(st.lists(a_die([k for k in KINDS if k != df.PLUS_MINUS]), max_size=6 - signs))
    pm = [(df.PLUS_MINUS, draw(st.integers(0, 5)), 0) for _ in range(signs)]
    dice = draw(st.permutations(others + pm))
    numbers = sum(1 for f in reference_results(dice) if not isinstance(f, str))
    assume((numbers * numbers) ** signs <= 5000)
    return dice


NUMBER_VALUES = st.integers(-20, 700)
V_CODES = st.one_of(
    st.sampled_from([0, 5, 10, 20, 30, 40, 50, 60, 640]),
    st.sampled_from(
        [df.BLANK, df.PLUS, df.MINUS, df.RED, df.BLACK, df.ANY_NUMBER, df.ANY_COLOUR, df.NO_VALUE]
    ),
)


@st.composite
def a_test(draw):
    test = draw(st.integers(0, df.TEST_COUNT - 1))
    if test in (df.COUNT_AT_LEAST, df.COUNT_EXACTLY):
        return test, draw(st.integers(0, 4)), draw(V_CODES)
    if test in (df.SAME_AT_LEAST, df.ALL_DIFFERENT):
        return test, draw(st.integers(1, 6)), 0
    if test == df.TOTAL_MULTIPLE:
        return test, draw(st.sampled_from([10, 20, 50, 100, 5])), 0
    if test in (df.ALL_AT_LEAST, df.ALL_AT_MOST):
        return test, draw(st.sampled_from([0, 10, 20, 30, 40, 50])), draw(st.integers(0, 4))
    return test, draw(st.one_of(NUMBER_VALUES, st.sampled_from([-1, 0, 5, 50, 210]))), 0


# --- Faces, items, data ---------------------------------------------------------------


def test_face_tables_are_the_printed_faces_in_tenths():
    """R7, R8: every face code is 10 x the printed number, or the printed symbol."""
    for kind in KINDS:
        for i, printed in enumerate(PRINTED[kind].split()):
            code = df.face(df.rolled(df.die(kind, 0), i))
            if printed in SYMBOLS:
                assert not df.is_number(code) and SYMBOL_CODE[code] == printed
            else:
                assert df.is_number(code) and Fraction(code, 10) == Fraction(printed)
        assert df.results_per_die(kind) == (2 if kind == df.DOUBLE else 1)


@given(st.sampled_from(KINDS), st.integers(0, 63), st.integers(0, 31))
def test_items_pack_into_16_bits_and_unpack(kind, serial, index):
    d = df.die(kind, serial)
    r = df.rolled(d, index)
    assert 0 <= d < r + 1 <= 0x10000 and r != df.PASS and d != df.PASS
    assert (df.kind_of(r), df.serial_of(r), df.face_index(r)) == (kind, serial, index)
    assert (df.kind_of(d), df.serial_of(d), df.face_index(d)) == (kind, serial, 0)


def test_challenge_set_r9():
    """R9: at least 12 challenges, two or more per family, every row well formed."""
    families = Counter(ch[df.FAMILY] for ch in df.CHALLENGES)
    assert len(df.CHALLENGES) >= 12
    assert all(families[f] >= 2 for f in range(df.FAMILY_COUNT))
    for _family, test, k, _v, vp in df.CHALLENGES:
        assert 0 <= test < df.TEST_COUNT and vp >= 1
        assert not (test == df.TOTAL_MULTIPLE and k <= 0)


# --- Evaluation --------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(a_roll(), a_test())
def test_evaluate_equals_brute_force_reference(dice, test_kv):
    """R7, R9: the core's best result equals the reference's, for every test."""
    test, k, v = test_kv
    results = core_results(dice)
    assert df.evaluate(results, len(results), test, k, v) == reference_evaluate(
        reference_results(dice), test, k, v
    )


SMALL_NUMBER_DICE = [df.D4, df.ZERO_TWO, df.DOUBLE, df.DECIMAL]


@st.composite
def a_sign_heavy_roll(draw):
    """Two or three signs and small numbers, so that many choices tie or clash."""
    signs = [(df.PLUS_MINUS, draw(st.integers(0, 3)), 0) for _ in range(draw(st.integers(2, 3)))]
    others = draw(st.lists(a_die(SMALL_NUMBER_DICE), min_size=2, max_size=6 - len(signs)))
    dice = draw(st.permutations(others + signs))
    numbers = sum(1 for f in reference_results(dice) if not isinstance(f, str))
    assume((numbers * numbers) ** len(signs) <= 5000)
    return dice


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    a_sign_heavy_roll(),
    st.sampled_from(
        [
            df.COUNT_AT_LEAST,
            df.TOTAL_EXACTLY,
            df.SAME_AT_LEAST,
            df.ALL_DIFFERENT,
            df.LEAST_SINGLE,
            df.MOST_SINGLE,
        ]
    ),
    st.integers(-4, 8),
    st.integers(-4, 8),
)
def test_several_signs_equal_brute_force_reference(dice, test, k, v):
    """R9 with two or three signs: every set of pairs is tried."""
    if test == df.COUNT_AT_LEAST:
        k, v = 2 + abs(k) % 2, v * 10
    elif test in (df.SAME_AT_LEAST, df.ALL_DIFFERENT):
        k = 2 + abs(k) % 3
    else:
        k = k * 10
    results = core_results(dice)
    assert df.evaluate(results, len(results), test, k, v) == reference_evaluate(
        reference_results(dice), test, k, v
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(a_sign_heavy_roll(), st.data())
def test_every_allowed_choice_is_found(dice, data):
    """R9: pick any one way the rules allow to use the signs; the core finds a
    choice at least as good for its most common number and for its total."""
    faces = reference_results(dice)
    choices = list(number_choices(faces))
    nums = data.draw(st.sampled_from(choices))
    assume(nums)
    x = data.draw(st.sampled_from(nums))
    results = core_results(dice)
    n = len(results)
    assert df.evaluate(results, n, df.COUNT_AT_LEAST, nums.count(x), int(x * 10)) == 1
    assert df.evaluate(results, n, df.TOTAL_EXACTLY, int(sum(nums) * 10), 0) == 1
    assert df.evaluate(results, n, df.SAME_AT_LEAST, max(Counter(nums).values()), 0) == 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(a_roll(), min_size=2, max_size=5), st.sampled_from(df.CHALLENGES))
def test_shipped_challenges_award_as_the_reference(seats, challenge):
    """Every shipped challenge: the seats meeting it and the VP they gain."""
    family, test, k, v, vp = challenge
    rolls = [core_results(d) for d in seats]
    counts = [len(r) for r in rolls]
    expected = reference_met_by([reference_results(d) for d in seats], test, k, v)
    assert df.met_by(rolls, counts, challenge) == expected
    assert df.award(rolls, counts, challenge) == [
        vp if s in expected else 0 for s in range(len(seats))
    ]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(a_roll(), a_test(), st.randoms(use_true_random=False))
def test_result_order_does_not_matter(dice, test_kv, rnd):
    test, k, v = test_kv
    results = core_results(dice)
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert df.evaluate(results, len(results), test, k, v) == df.evaluate(
        array("H", shuffled), len(shuffled), test, k, v
    )


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(a_roll(), a_test())
def test_a_sign_never_hurts(dice, test_kv):
    """R9: using a sign is optional, so turning a +/- face into a blank face can
    only lower the best result (COUNT tests on symbols excepted: they count faces)."""
    test, k, v = test_kv
    assume(
        not (
            test in (df.COUNT_AT_LEAST, df.COUNT_EXACTLY) and v >= df.SYMBOL and v != df.ANY_NUMBER
        )
    )
    blanked = [(kind, 4 if kind == df.PLUS_MINUS else i, j) for kind, i, j in dice]
    with_signs = core_results(dice)
    without = core_results(blanked)
    if test == df.COUNT_EXACTLY:
        return  # an exact count can go either way; the reference test covers it
    assert df.evaluate(with_signs, len(with_signs), test, k, v) >= df.evaluate(
        without, len(without), test, k, v
    )


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    a_roll(),
    a_test(),
    st.sampled_from([(df.BLANK_D6, 0), (df.RED_BLACK, 0), (df.RED_BLACK, 5), (df.PLUS_MINUS, 5)]),
)
def test_no_value_faces_are_never_numbers(dice, test_kv, extra):
    """A blank or colour face adds no number: no total, never the minimum."""
    test, k, v = test_kv
    assume(test not in (df.COUNT_AT_LEAST, df.COUNT_EXACTLY) and dice)
    before = core_results(dice)
    after = core_results(dice + [(extra[0], extra[1], 0)])
    assert df.evaluate(before, len(before), test, k, v) == df.evaluate(
        after, len(after), test, k, v
    )


# --- Pick phase -----------------------------------------------------------------------


def reference_legal(n, centre, action, passed, players):
    limit = 5 if players == 5 else 6
    if passed or n >= limit or not centre:
        return False
    return n >= 1 if action == df.PASS else action in centre


CENTRE_DICE = [df.die(k, s) for k in KINDS for s in range(3)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 7),
    st.lists(st.sampled_from(CENTRE_DICE), max_size=20, unique=True),
    st.booleans(),
    st.integers(df.MIN_PLAYERS, df.MAX_PLAYERS),
)
def test_is_legal_agrees_with_legal_plays_and_the_reference(n, centre, passed, players):
    hand = array("H", [df.die(df.D6, i) for i in range(n)])
    out = array("H", [0] * 32)
    count = df.legal_plays(hand, n, array("H", centre), len(centre), out, int(passed), players)
    listed = list(out[:count])
    for action in CENTRE_DICE + [df.PASS]:
        legal = df.is_legal(hand, n, array("H", centre), len(centre), action, int(passed), players)
        assert legal == reference_legal(n, centre, action, passed, players)
        assert legal == (action in listed)
    assert len(listed) == len(set(listed))
    if centre and not passed and n < df.pick_limit(players):
        assert count >= 1


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(df.MIN_PLAYERS, df.MAX_PLAYERS), st.integers(0, 40), st.data())
def test_whole_pick_phase(players, centre_size, data):
    """Random legal actions until picking ends: limits hold, every seat gets a
    first pick while dice last, and the start marker goes as the rules say (R6)."""
    start = data.draw(st.integers(0, players - 1))
    centre = [df.die(df.D6, i) for i in range(centre_size)]
    held = bytearray(players)
    passed = bytearray(players)
    first_passer = df.NOBODY
    seat = start
    order = []
    while not df.picking_over(held, passed, players, len(centre)):
        assert seat != df.NOBODY
        out = array("H", [0] * 48)
        count = df.legal_plays(
            array("H", [0] * 6),
            held[seat],
            array("H", centre),
            len(centre),
            out,
            passed[seat],
            players,
        )
        assert count >= 1
        action = data.draw(st.sampled_from(list(out[:count])))
        order.append(seat)
        if action == df.PASS:
            passed[seat] = 1
            if first_passer == df.NOBODY:
                first_passer = seat
        else:
            centre.remove(action)
            held[seat] += 1
        seat = df.next_picker(seat, held, passed, players, len(centre))
    assert df.next_picker(start, held, passed, players, len(centre)) == df.NOBODY
    limit = df.pick_limit(players)
    assert all(h <= limit for h in held)
    assert sum(held) + len(centre) == centre_size
    assert not centre or all(passed[s] or held[s] == limit for s in range(players))
    # The first lap goes clockwise from the start player, one pick each.
    first_lap = [(start + i) % players for i in range(min(players, centre_size))]
    assert order[: len(first_lap)] == first_lap
    assert all(h >= 1 for h in held) or not centre
    expected_start = start if first_passer == df.NOBODY else first_passer
    assert df.next_start(first_passer, start) == expected_start


@given(st.integers(df.MIN_PLAYERS, df.MAX_PLAYERS), st.data())
def test_next_picker_is_nobody_exactly_when_picking_is_over(players, data):
    held = bytearray(data.draw(st.lists(st.integers(0, 6), min_size=players, max_size=players)))
    passed = bytearray(data.draw(st.lists(st.integers(0, 1), min_size=players, max_size=players)))
    centre = data.draw(st.integers(0, 5))
    seat = data.draw(st.integers(0, players - 1))
    nxt = df.next_picker(seat, held, passed, players, centre)
    assert (nxt == df.NOBODY) == df.picking_over(held, passed, players, centre)
    if nxt != df.NOBODY:
        assert not df.is_done(held[nxt], passed[nxt], players)
        between = [(seat + i) % players for i in range(1, (nxt - seat) % players or players)]
        assert all(df.is_done(held[s], passed[s], players) for s in between)


@given(st.booleans(), st.integers(1, 6), st.integers(1, 6))
def test_game_length(first_game, a, b):
    count = df.challenge_count(first_game, a + b)
    assert count == (6 if first_game else a + b) and 2 <= count <= 12


@given(st.lists(st.integers(0, 30), min_size=2, max_size=5))
def test_leaders_and_roll_off(values):
    seats = list(range(len(values)))
    top = df.leaders(values)
    assert top and all(values[s] == max(values) for s in top)
    assert set(top) == {s for s in seats if values[s] == max(values)}
    dice = [1 + v % 6 for v in values]
    still = df.roll_off(seats, dice)
    assert still == [s for s in seats if dice[s] == max(dice)]
