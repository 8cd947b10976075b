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
from itertools import combinations_with_replacement, permutations, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dicetable.games.dicefull import rules as df
from dicetable.games.dicefull import scoring_rules as scoring

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
        return scoring.NO_SCORE if scoring.is_comparison(test) else 0
    if scoring.is_comparison(test):
        keys = [reference_key(test, k, nums) for nums in number_choices(faces)]
        keys = [key for key in keys if key is not None]
        return max(keys) if keys else scoring.NO_SCORE
    return int(any(reference_meets(test, k, v, faces, nums) for nums in number_choices(faces)))


def reference_met_by(all_faces, test, k, v):
    scores = [reference_evaluate(f, test, k, v) for f in all_faces]
    if scoring.is_comparison(test):
        top = max(scores)
        return [] if top == scoring.NO_SCORE else [s for s, x in enumerate(scores) if x == top]
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


def test_the_scoring_rules_copy_the_cores_figures():
    # scoring_rules.py inlines the figures it reads of rules.py and data.py
    # as constants of its own (_NAME for NAME): they must stay theirs.
    from_rules = ("MAX_PLAYERS", "MAX_RESULTS", "_FACE_MASK", "_KIND_SHIFT", "_KIND_MASK")
    from_data = (
        "SYMBOL PLUS MINUS COLOUR COLOUR_LAST ANY_NUMBER ANY_COLOUR NO_VALUE"
        " MOST_TOTAL LEAST_TOTAL MOST_SINGLE LEAST_SINGLE CLOSEST_TOTAL HIGH_AT_LEAST"
        " LOW_AT_MOST TOTAL_AT_LEAST TOTAL_AT_MOST TOTAL_EXACTLY SAME_AT_LEAST COUNT_AT_LEAST"
    ).split()
    copies = {("_" + name).replace("__", "_"): getattr(df, name) for name in from_rules}
    copies["_ROW_FACES"] = df._ROW_FACES
    copies.update({"_" + name: getattr(df, name) for name in from_data})
    fields = {"TEST": df.TEST, "K": df.K, "V": df.V, "VP": df.VP}
    copies.update({"_CHALLENGE_" + name: value for name, value in fields.items()})
    assert {name: getattr(scoring, name) for name in copies} == copies


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
    assert scoring.evaluate(results, len(results), test, k, v) == reference_evaluate(
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
    assert scoring.evaluate(results, len(results), test, k, v) == reference_evaluate(
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
    assert scoring.evaluate(results, n, df.COUNT_AT_LEAST, nums.count(x), int(x * 10)) == 1
    assert scoring.evaluate(results, n, df.TOTAL_EXACTLY, int(sum(nums) * 10), 0) == 1
    assert scoring.evaluate(results, n, df.SAME_AT_LEAST, max(Counter(nums).values()), 0) == 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(a_roll(), min_size=2, max_size=5), st.sampled_from(df.CHALLENGES))
def test_shipped_challenges_award_as_the_reference(seats, challenge):
    """Every shipped challenge: the seats meeting it and the VP they gain."""
    family, test, k, v, vp = challenge
    rolls = [core_results(d) for d in seats]
    counts = [len(r) for r in rolls]
    expected = reference_met_by([reference_results(d) for d in seats], test, k, v)
    assert scoring.met_by(rolls, counts, challenge) == expected
    assert scoring.award(rolls, counts, challenge) == [
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
    assert scoring.evaluate(results, len(results), test, k, v) == scoring.evaluate(
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
    assert scoring.evaluate(with_signs, len(with_signs), test, k, v) >= scoring.evaluate(
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
    assert scoring.evaluate(before, len(before), test, k, v) == scoring.evaluate(
        after, len(after), test, k, v
    )


# --- The ± search as a loop, against the recursion it replaced -------------------------

# The core searched the uses of the ± signs recursively, three frames per sign,
# until that search became a loop over explicit state (the board's C stack has
# no room for a recursion).  The recursive evaluator, as the core had it, is
# kept here, and only here, as the reference the loop must agree with.
# One roll under evaluation.  Module buffers, so that the search allocates nothing.
_rec_num = array("i", [0] * df.MAX_RESULTS)  # the roll's numbers, in tenths (R7), for _rec_search
_rec_used = bytearray(df.MAX_RESULTS)  # _rec_num[i] is an operand of a ± sign (all clear
# between searches: _rec_pairs clears what it sets)
_rec_combo = array("i", [0] * df.MAX_RESULTS)  # numbers made by ± signs so far
_rec_work = array("i", [0] * df.MAX_RESULTS)  # the numbers read, then those one choice leaves
_rec_first = bytearray(df.MAX_RESULTS)  # per sign: the first number of its pair
_rec_ctx = array("i", [0] * 8)  # the evaluation's ints, below
_TEST = 0
_K = 1
_V = 2
_SYMBOLS = 3  # results showing v, when v is a symbol or df.NO_VALUE/df.ANY_COLOUR
_NUMBERS = 4  # numbers in _rec_num
_PLUSES = 5  # + signs; signs 0.._PLUSES-1 are +, the rest -
_SIGNS = 6
_ENOUGH = 7  # a score this high ends the search (1 for threshold tests)


def recursive_evaluate(results, n, test, k, v):
    """The best result of the roll `results` (n results) for test (k, v), R9.

    Threshold test: 1 if the player can meet it, else 0.  Comparison test:
    the player's score for it, higher is better (the total, minus the total,
    the highest number, minus the lowest number, minus the distance to k), or
    scoring.NO_SCORE for a player with no number.
    """
    if n == 0:  # a player without dice meets nothing and has no number
        return scoring.NO_SCORE if scoring.is_comparison(test) else 0
    _rec_read_roll(results, n, v)
    if not _rec_ctx[_SIGNS]:
        # Most rolls show no sign: their numbers, as read, are the only choice.
        return _rec_score(test, k, v, _rec_ctx[_NUMBERS])
    _rec_ctx[_TEST] = test
    _rec_ctx[_K] = k
    _rec_ctx[_V] = v
    _rec_ctx[_ENOUGH] = -scoring.NO_SCORE if scoring.is_comparison(test) else 1
    df._copy(_rec_work, _rec_ctx[_NUMBERS], _rec_num)  # _rec_search reads them from _rec_num
    return _rec_search(0, 0)


def _rec_evaluate_row(results, n, challenge):
    """recursive_evaluate() for a CHALLENGES row (family, test, k, v, vp)."""
    return recursive_evaluate(results, n, challenge[df.TEST], challenge[df.K], challenge[df.V])


def _rec_read_roll(results, n, v):
    """The roll's numbers into _rec_work, _rec_ctx[_NUMBERS] of them; its signs and
    the faces showing symbol `v` counted in _rec_ctx.  The + signs are counted
    apart so that _rec_search can take them first."""
    _rec_ctx[_PLUSES] = 0
    _rec_ctx[_SIGNS] = 0
    _rec_ctx[_SYMBOLS] = 0
    m = 0
    i = 0
    while i < n:
        # face(), spelled out: this loop is most of a roll's evaluation.
        code = results[i]
        code = df.KINDS[(code >> df._KIND_SHIFT) & df._KIND_MASK][df._ROW_FACES][
            code & df._FACE_MASK
        ]
        if code < df.SYMBOL:
            _rec_work[m] = code
            m += 1
        else:
            _rec_add_symbol(code, v)
        i += 1
    _rec_ctx[_NUMBERS] = m


def _rec_add_symbol(code, v):
    """Count a face with no number: a sign, and whether it shows `v` for the
    COUNT tests (any such face for df.NO_VALUE, a colour for df.ANY_COLOUR, which
    no face is, else the face `v` itself)."""
    if code == df.PLUS:
        _rec_ctx[_PLUSES] += 1
        _rec_ctx[_SIGNS] += 1
    elif code == df.MINUS:
        _rec_ctx[_SIGNS] += 1
    if v == df.NO_VALUE or code == v or (v == df.ANY_COLOUR and df.is_colour(code)):
        _rec_ctx[_SYMBOLS] += 1


# The search for the best use of the ± signs (R9).  Signs are numbered + first,
# then -.  Alike signs are interchangeable, so each set of pairs is tried once:
# a sign after an alike sign only takes a pair whose first number comes after
# that sign's, and once one is left unused the rest of its kind are too.
# _rec_first[sign] is the first number of the sign's pair (NUMBERS if unused).


def _rec_search(sign, made):
    """Best score using signs sign.., with `made` numbers already made by the
    earlier signs."""
    if sign == _rec_ctx[_SIGNS]:
        return _rec_leaf(made)
    _rec_first[sign] = _rec_ctx[_NUMBERS]
    best = _rec_search(sign + 1, made)
    i = _rec_start(sign)
    while i < _rec_ctx[_NUMBERS] and best < _rec_ctx[_ENOUGH]:
        if not _rec_used[i]:
            _rec_first[sign] = i
            best = _rec_better(best, _rec_pairs(sign, made, i))
        i += 1
    return best


def _rec_start(sign):
    """The first number `sign` may take as the first of its pair."""
    if sign == 0 or (sign < _rec_ctx[_PLUSES]) != (sign - 1 < _rec_ctx[_PLUSES]):
        return 0
    return _rec_first[sign - 1] + 1


def _rec_pairs(sign, made, i):
    """Best score with `sign` joining number i to each later unused number."""
    best = scoring.NO_SCORE
    _rec_used[i] = 1
    j = i + 1
    while j < _rec_ctx[_NUMBERS] and best < _rec_ctx[_ENOUGH]:
        if not _rec_used[j]:
            _rec_used[j] = 1
            best = _rec_better(best, _rec_join(sign, made, j))
            _rec_used[j] = 0
        j += 1
    _rec_used[i] = 0
    return best


def _rec_join(sign, made, j):
    """Best score with `sign` joining its first number a and number j, b:
    a + b for +, the better of a - b and b - a for -."""
    if sign < _rec_ctx[_PLUSES]:
        _rec_combo[made] = _rec_num[_rec_first[sign]] + _rec_num[j]
        return _rec_search(sign + 1, made + 1)
    _rec_combo[made] = _rec_num[_rec_first[sign]] - _rec_num[j]
    best = _rec_search(sign + 1, made + 1)
    _rec_combo[made] = -_rec_combo[made]
    return _rec_better(best, _rec_search(sign + 1, made + 1))


def _rec_better(x, y):
    """The larger of two ints (max() of two, spelled out)."""
    if x > y:
        return x
    return y


def _rec_leaf(made):
    """Score the numbers left by one choice of ± signs: the unused numbers of
    the roll, then the numbers the signs made."""
    d = 0
    i = 0
    while i < _rec_ctx[_NUMBERS]:
        if not _rec_used[i]:
            _rec_work[d] = _rec_num[i]
            d += 1
        i += 1
    i = 0
    while i < made:
        _rec_work[d] = _rec_combo[i]
        d += 1
        i += 1
    return _rec_score(_rec_ctx[_TEST], _rec_ctx[_K], _rec_ctx[_V], d)


def _rec_score(test, k, v, d):
    """Score of the d numbers in _rec_work for one test: one branch per test, the
    threshold tests' in _rec_holds."""
    if test == df.COUNT_AT_LEAST:
        return 1 if _rec_count(v, d) >= k else 0
    if test == df.COUNT_EXACTLY:
        return 1 if _rec_count(v, d) == k else 0
    if d == 0:
        # No number: no total, no highest or lowest (blank is never 0).
        return scoring.NO_SCORE if scoring.is_comparison(test) else 0
    if test > df.CLOSEST_TOTAL:  # a threshold test (not is_comparison)
        return 1 if _rec_holds(test, k, v, d) else 0
    if test == df.MOST_TOTAL:
        return _rec_total(d)
    if test == df.LEAST_TOTAL:
        return -_rec_total(d)
    if test == df.MOST_SINGLE:
        return _rec_highest(d)
    if test == df.LEAST_SINGLE:
        return -_rec_lowest(d)
    return -abs(_rec_total(d) - k)  # df.CLOSEST_TOTAL


def _rec_holds(test, k, v, d):
    """Does the threshold test hold for the d numbers in _rec_work (d >= 1)."""
    if test == df.HIGH_AT_LEAST:
        return _rec_highest(d) >= k
    if test == df.LOW_AT_MOST:
        return _rec_lowest(d) <= k
    if test == df.ALL_AT_LEAST:
        return d >= v and _rec_lowest(d) >= k
    if test == df.ALL_AT_MOST:
        return d >= v and _rec_highest(d) <= k
    if test == df.TOTAL_AT_LEAST:
        return _rec_total(d) >= k
    if test == df.TOTAL_AT_MOST:
        return _rec_total(d) <= k
    if test == df.TOTAL_EXACTLY:
        return _rec_total(d) == k
    if test == df.TOTAL_MULTIPLE:
        return k > 0 and _rec_total(d) % k == 0
    if test == df.SAME_AT_LEAST:
        return _rec_most_alike(d) >= k
    if test == df.ALL_DIFFERENT:
        return d >= k and _rec_most_alike(d) == 1
    return False


def _rec_total(d):
    """Sum of the numbers."""
    total = 0
    i = 0
    while i < d:
        total += _rec_work[i]
        i += 1
    return total


def _rec_highest(d):
    """The highest number (d >= 1)."""
    best = _rec_work[0]
    i = 1
    while i < d:
        if _rec_work[i] > best:
            best = _rec_work[i]
        i += 1
    return best


def _rec_lowest(d):
    """The lowest number (d >= 1); blanks are not numbers, so never the lowest."""
    best = _rec_work[0]
    i = 1
    while i < d:
        if _rec_work[i] < best:
            best = _rec_work[i]
        i += 1
    return best


def _rec_most_alike(d):
    """How many numbers the most frequent number has (d >= 1)."""
    most = 0
    i = 0
    while i < d:
        most = _rec_better(most, _rec_occurrences(_rec_work[i], d))
        i += 1
    return most


def _rec_occurrences(x, d):
    """How many of the numbers equal x."""
    count = 0
    i = 0
    while i < d:
        if _rec_work[i] == x:
            count += 1
        i += 1
    return count


def _rec_count(v, d):
    """Results showing v: a number (after ± signs), df.ANY_NUMBER, or a symbol code."""
    if v < df.SYMBOL:
        return _rec_occurrences(v, d)
    if v == df.ANY_NUMBER:
        return d
    return _rec_ctx[_SYMBOLS]


# --- Scoring a round and the game ---------------------------------------------------


def recursive_met_by(rolls, counts, challenge):
    """Seats that meet `challenge` (a CHALLENGES row); rolls[s] holds counts[s] results.

    Threshold test: every seat that can meet it.  Comparison test: every seat
    with the best score (all of them on a tie); nobody if no seat has a number.
    """
    top = _rec_top_score(rolls, counts, challenge)
    if top == scoring.NO_SCORE:
        return []
    return _rec_seats_scoring(rolls, counts, challenge, top)


def _rec_top_score(rolls, counts, challenge):
    """The score that meets the challenge: 1 for a threshold test, the best
    seat's score for a comparison."""
    if not scoring.is_comparison(challenge[df.TEST]):
        return 1
    top = scoring.NO_SCORE
    seat = 0
    while seat < len(rolls):
        top = _rec_better(top, _rec_evaluate_row(rolls[seat], counts[seat], challenge))
        seat += 1
    return top


def _rec_seats_scoring(rolls, counts, challenge, top):
    seats = []
    seat = 0
    while seat < len(rolls):
        if _rec_evaluate_row(rolls[seat], counts[seat], challenge) == top:
            seats.append(seat)
        seat += 1
    return seats


def recursive_award(rolls, counts, challenge):
    """Victory points each seat gains this round: the challenge's df.VP to each seat
    that meets it, 0 to the others."""
    gained = [0] * len(rolls)
    for seat in recursive_met_by(rolls, counts, challenge):
        gained[seat] = challenge[df.VP]
    return gained


# Faces that show each number or symbol of the exhaustive comparison: (kind, face index).
SHOWS = {
    0: (df.D10, 0),
    5: (df.DECIMAL, 5),
    10: (df.D6, 0),
    20: (df.D6, 1),
    30: (df.D6, 2),
    60: (df.D6, 5),
    df.PLUS: (df.PLUS_MINUS, 0),
    df.MINUS: (df.PLUS_MINUS, 2),
    df.BLANK: (df.PLUS_MINUS, 4),
    df.RED: (df.RED_BLACK, 0),
}
# Every test, with the k and v that make it turn on the numbers above: each
# shipped challenge's, and more.
TESTS_KV = sorted(
    {(ch[df.TEST], ch[df.K], ch[df.V]) for ch in df.CHALLENGES}
    | {
        (df.MOST_SINGLE, 0, 0),
        (df.LEAST_SINGLE, 0, 0),
        (df.CLOSEST_TOTAL, 0, 0),
        (df.CLOSEST_TOTAL, 45, 0),
        (df.HIGH_AT_LEAST, 70, 0),
        (df.HIGH_AT_LEAST, 90, 0),
        (df.LOW_AT_MOST, -10, 0),
        (df.LOW_AT_MOST, 0, 0),
        (df.ALL_AT_LEAST, 20, 2),
        (df.ALL_AT_LEAST, 5, 3),
        (df.ALL_AT_MOST, 30, 2),
        (df.ALL_AT_MOST, 0, 1),
        (df.TOTAL_AT_LEAST, 100, 0),
        (df.TOTAL_AT_MOST, 0, 0),
        (df.TOTAL_EXACTLY, 50, 0),
        (df.TOTAL_EXACTLY, -50, 0),
        (df.TOTAL_EXACTLY, 125, 0),
        (df.TOTAL_MULTIPLE, 30, 0),
        (df.TOTAL_MULTIPLE, 50, 0),
        (df.SAME_AT_LEAST, 4, 0),
        (df.ALL_DIFFERENT, 2, 0),
        (df.ALL_DIFFERENT, 3, 0),
        (df.COUNT_AT_LEAST, 2, 30),
        (df.COUNT_AT_LEAST, 2, 10),
        (df.COUNT_EXACTLY, 1, 50),
        (df.COUNT_EXACTLY, 2, 0),
        (df.COUNT_EXACTLY, 1, df.MINUS),
        (df.COUNT_AT_LEAST, 2, df.NO_VALUE),
        (df.COUNT_AT_LEAST, 1, df.ANY_COLOUR),
        (df.COUNT_EXACTLY, 3, df.ANY_NUMBER),
    }
)


def shown(codes):
    """The results showing `codes` (numbers in tenths, or symbols), one die each."""
    out = array("H", [0] * len(codes))
    for serial, code in enumerate(codes):
        kind, index = SHOWS[code]
        out[serial] = df.rolled(df.die(kind, serial), index)
    return out


COUNT_TESTS_KV = [t for t in TESTS_KV if t[0] in (df.COUNT_AT_LEAST, df.COUNT_EXACTLY)]


def small_rolls():
    """Every roll of up to four numbers from SHOWS with up to three signs (+
    and - in every mix), with the tests to try it on: every test, and the
    COUNT tests (the only ones a face with no number changes) again with a
    blank and with a red face added."""
    numbers = [c for c in SHOWS if c < df.SYMBOL]
    for count in range(5):
        for nums in combinations_with_replacement(numbers, count):
            for pluses in range(4):
                for minuses in range(4 - pluses):
                    signs = (df.PLUS,) * pluses + (df.MINUS,) * minuses
                    # Signs first and last, the numbers between: in the roll's order.
                    codes = signs[: len(signs) // 2] + nums + signs[len(signs) // 2 :]
                    yield codes, TESTS_KV
                    yield codes + (df.BLANK,), COUNT_TESTS_KV
                    yield codes + (df.RED,), COUNT_TESTS_KV


@pytest.mark.slow
def test_the_loop_finds_what_the_recursion_found_for_every_small_roll():
    """R9: the iterative search gives the recursive one's result for every
    small roll and every test (numbers 0, 0.5, 1, 2, 3 and 6; 0 to 3 signs)."""
    rolls = 0
    for codes, tests in small_rolls():
        results = shown(codes)
        n = len(results)
        for test, k, v in tests:
            assert scoring.evaluate(results, n, test, k, v) == recursive_evaluate(
                results, n, test, k, v
            ), (codes, test, k, v)
        rolls += 1
    assert rolls == 210 * 10 * 3


@st.composite
def a_big_roll(draw):
    """Any dice up to the results evaluate() takes (MAX_RESULTS), up to four
    ± dice among them: a table's own dice set may hold several."""
    signs = draw(st.integers(0, 4))
    others = draw(
        st.lists(a_die([k for k in KINDS if k != df.PLUS_MINUS]), max_size=df.MAX_RESULTS // 2)
    )
    pm = [(df.PLUS_MINUS, draw(st.integers(0, 5)), 0) for _ in range(signs)]
    dice = draw(st.permutations(others + pm))
    faces = reference_results(dice)
    assume(len(faces) <= df.MAX_RESULTS)
    numbers = sum(1 for f in faces if not isinstance(f, str))
    assume((numbers * numbers) ** sum(1 for f in faces if f in ("+", "-")) <= 200000)
    return dice


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(a_big_roll(), a_test())
def test_the_loop_finds_what_the_recursion_found_for_any_roll(dice, test_kv):
    """R9: the same, on a large sample of any rolls the dice can show."""
    test, k, v = test_kv
    results = core_results(dice)
    n = len(results)
    assert scoring.evaluate(results, n, test, k, v) == recursive_evaluate(results, n, test, k, v)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(a_big_roll(), max_size=5), st.sampled_from(df.CHALLENGES))
def test_met_by_and_award_are_the_recursions(seats, challenge):
    """A round's seats and VP, each seat's roll now evaluated once, as the
    recursive core gave them (it evaluated each twice in a comparison)."""
    rolls = [core_results(d) for d in seats]
    counts = [len(r) for r in rolls]
    assert scoring.met_by(rolls, counts, challenge) == recursive_met_by(rolls, counts, challenge)
    assert scoring.award(rolls, counts, challenge) == recursive_award(rolls, counts, challenge)


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
    top = scoring.leaders(values)
    assert top and all(values[s] == max(values) for s in top)
    assert set(top) == {s for s in seats if values[s] == max(values)}
    dice = [1 + v % 6 for v in values]
    still = scoring.roll_off(seats, dice)
    assert still == [s for s in seats if dice[s] == max(dice)]
