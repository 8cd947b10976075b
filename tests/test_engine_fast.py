"""The engine's fast path: random_action(seat, draw) and take(a).

random_action(seat, draw) draws one of legal_actions(seat) without listing
them, draw(n) being a uniform int in [0, n).  Its distribution is checked
exactly: every sequence of draws it can make is walked (a draw past the
sequence walked so far branches into each of its n results), each leaf
weighs the product of 1/n of its draws, and the weights per action must be
1 / len(legal_actions(seat)) for each listed action and nothing else, at every
state of seeded random matches, for every seat and the table (a seat with no
legal action gets -1).  It must change nothing (the state's snapshot), and
take(a) of what it drew must give the state submit(a) gives.  Under
MicroPython with the Pico's heap it allocates nothing, and a playout drawn
with the same draws gives the same journal as on CPython.
"""

import importlib
import pathlib
import random
from fractions import Fraction

import pytest
from match_helpers import new_match, recorded, seats_waiting, snapshot, take_to_the_end

from dicetable.match.actions import OK, TABLE
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from sim import mpy_wasm

# The games whose engines have random_action: (players, options) to test.
FAST = {
    "dtt": ((3, 0), (3, OPEN_PLAY)),
    "walzer": ((3, 0), (4, 0), (4, OPEN_PLAY)),
    "dtwww": ((2, 0), (4, 0), (3, TABLE_ROLLS), (4, OPEN_PLAY | TABLE_ROLLS)),
    "dicefull": ((2, 0), (5, 0), (3, TABLE_ROLLS | VARIANT)),
    "nokosu": ((3, 0), (5, 0), (4, TABLE_ROLLS), (3, OPEN_PLAY)),
}
# Where random_action lists (and so allocates): the rest must take no heap.
LISTED = {("dtwww", OPEN_PLAY | TABLE_ROLLS)}


class _Branch(Exception):
    pass


def distribution(match, seat):
    """{action: probability} of match.random_action(seat, draw) over uniform
    draws, by walking every sequence of draws (the draws' own n, checked > 0)."""
    out = {}
    todo = [()]
    while todo:
        prefix = todo.pop()
        used = []

        def draw(n, prefix=prefix, used=used):
            assert n > 0, "draw(%d)" % n
            i = len(used)
            if i == len(prefix):
                raise _Branch(n)
            k, m = prefix[i]
            assert m == n, "the draws changed between two walks"
            used.append(k)
            return k

        try:
            a = match.random_action(seat, draw)
        except _Branch as branch:
            n = branch.args[0]
            todo.extend(prefix + ((k, n),) for k in range(n))
            continue
        p = Fraction(1)
        for _, n in prefix:
            p /= n
        out[a] = out.get(a, 0) + p
    return out


def check_state(match):
    """random_action's distribution for every seat and the table, here."""
    before = snapshot(match)
    for seat in list(range(match.players)) + [TABLE]:
        legal = match.legal_actions(seat)
        got = distribution(match, seat)
        if not legal:
            assert got == {-1: 1}, (seat, got)
            continue
        # A list may name an action twice (two equal dice in a centre): it is
        # then twice as likely.
        assert got == {a: Fraction(legal.count(a), len(legal)) for a in legal}, seat
    assert snapshot(match) == before, "random_action changed the match"


def cases(fast=FAST):
    for game, headers in fast.items():
        for players, options in headers:
            yield game, players, options


def random_match(game, players, options, seed, check=None):
    """A match played to its end by random_action and take: the seat acting
    drawn among those waited on, as sim/play.py draws it."""
    rng = random.Random(seed)
    match = new_match(game, players, options)
    while not match.over():
        if check is not None:
            check(match)
        seat = rng.choice(seats_waiting(match))
        a = match.random_action(seat, rng.randrange)
        assert a >= 0
        match.take(a)
    return match


def every_state_cases():
    """cases(), the listed ones marked slow: each draw of a listed random_action
    lists the ~200 plays of open play again for each of its outcomes, 5 s of CPU
    at every state of one match, and make check leaves it to make test (its
    take-is-submit test stays in make check)."""
    for game, players, options in cases():
        if (game, options) in LISTED:
            yield pytest.param(game, players, options, marks=pytest.mark.slow)
        else:
            yield game, players, options


@pytest.mark.parametrize("game,players,options", list(every_state_cases()))
def test_random_action_is_uniform_over_legal_actions_at_every_state(game, players, options):
    random_match(game, players, options, 1, check_state)


@pytest.mark.slow
@pytest.mark.parametrize("game,players,options", list(cases()))
def test_random_action_is_uniform_over_more_matches(game, players, options):
    for seed in range(2, 6):
        random_match(game, players, options, seed, check_state)


@pytest.mark.parametrize("game,players,options", list(cases()))
def test_take_of_a_random_action_is_submit(game, players, options):
    match = random_match(game, players, options, 11)
    again = new_match(game, players, options)
    for a in match.journal:
        assert again.submit(a) == OK
    assert again.journal == match.journal
    assert snapshot(again) == snapshot(match)
    assert match.history and match.over()


# The games with a playout.py beside their engine (playout(match, draw)): their
# FAST headers, and lengths of d-TT too (a one-deal match, six deals).
GAMES = pathlib.Path(__file__).resolve().parent.parent / "firmware" / "dicetable" / "games"
LENGTHS = {"dtt": ((3, 0x100), (3, 0x600))}
PLAYOUT = {
    game: headers + LENGTHS.get(game, ())
    for game, headers in FAST.items()
    if (GAMES / game / "playout.py").exists()
}


def playout(match, draw):
    importlib.import_module("dicetable.games.%s.playout" % match.GAME).playout(match, draw)


def stepped(game, players, options, draw):
    """A new match played by random_action and take: what playout() must give."""
    return take_to_the_end(new_match(game, players, options), draw)


@pytest.mark.parametrize("game,players,options", list(cases(PLAYOUT)))
def test_playout_is_random_action_and_take_draw_for_draw(game, players, options):
    for seed in range(3):
        draw, seen = recorded(seed)
        played = new_match(game, players, options)
        playout(played, draw)
        again, seen_again = recorded(seed)
        step = stepped(game, players, options, again)
        assert seen == seen_again
        assert played.journal == step.journal
        assert snapshot(played) == snapshot(step)
        refolded = new_match(game, players, options)
        assert refolded.replay(played.journal) == -1
        assert snapshot(refolded) == snapshot(played)


@pytest.mark.parametrize("game,players,options", list(cases(PLAYOUT)))
def test_playout_from_the_middle_of_a_match(game, players, options):
    half = random_match(game, players, options, 5)
    n = len(half.journal) // 2
    for start in (n // 3, n, n + 7):
        match = new_match(game, players, options)
        match.replay(half.journal[:start])
        draw, _ = recorded(start)
        playout(match, draw)
        assert match.over() and match.journal[:start] == half.journal[:start]
        refolded = new_match(game, players, options)
        assert refolded.replay(match.journal) == -1
        assert snapshot(refolded) == snapshot(match)


def test_a_seat_not_waited_on_draws_nothing():
    match = new_match("dtt", 3)

    def draw(n):
        raise AssertionError("drew for a seat with nothing to do")

    for seat in (0, 1, 2, 3, 6):
        assert match.random_action(seat, draw) == -1


# -- MicroPython, with the Pico's heap --------------------------------------------------

# A draw in small ints (a 32-bit generator would allocate a long int per
# step on MicroPython): the same on both interpreters.
LCG = """
_lcg = [12345]


def draw(n):
    x = (_lcg[0] * 75 + 74) % 65537
    _lcg[0] = x
    return x % n
"""


def lcg_draw():
    state = [12345]

    def draw(n):
        state[0] = (state[0] * 75 + 74) % 65537
        return state[0] % n

    return draw


HEAP = """
import gc
from dicetable.match.actions import TABLE, TABLE_BIT
from dicetable.games.%s.match import new
%s
m = new(%d, %d)
peak = 0
steps = 0


def seat_of_waiting(w):
    if w & TABLE_BIT:
        return TABLE
    s = 0
    while not w >> s & 1:
        s += 1
    return s


def step():
    # random_action alone 20 times (it changes nothing), its heap measured;
    # then the action taken.
    global peak, steps
    seat = seat_of_waiting(m.waiting())
    before = gc.mem_alloc()
    for _ in range(20):
        a = m.random_action(seat, draw)
    used = gc.mem_alloc() - before
    if used > peak:
        peak = used
    m.take(a)
    steps += 1
"""
STEPS = """
for _ in range(%d):
    if m.over():
        break
    step()
"""


@pytest.mark.slow
@pytest.mark.parametrize("game,players,options", list(cases()))
def test_random_action_allocates_nothing_and_plays_as_on_cpython(game, players, options):
    if (game, options) in LISTED:
        pytest.skip("random_action lists the plays here")
    parts = [HEAP % (game, LCG, players, options)]
    parts += [STEPS % 40] * 30
    parts.append("print(peak, steps, m.over(), m.journal)")
    out = mpy_wasm.run(mpy_wasm.parts(parts))
    peak, steps, over, journal = out.split(" ", 3)
    assert int(peak) == 0
    assert over == "True"
    # The same draws on CPython: the same journal.
    match = new_match(game, players, options)
    draw = lcg_draw()
    while not match.over():
        w = match.waiting()
        seat = TABLE if w & 0x80 else (w & -w).bit_length() - 1
        for _ in range(20):
            a = match.random_action(seat, draw)
        match.take(a)
    assert journal.strip() == repr(match.journal)
    assert int(steps) == len(match.journal)


def test_the_games_read_the_options_they_are_tested_with():
    for game, players, options in cases():
        cls = type(new_match(game, 3))
        assert options & ~cls.OPTIONS == 0
        assert cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS


def test_the_constants_dtt_names_for_speed_are_the_cores():
    from dicetable.games.dtt import deal, match, rules

    assert (deal.SUITS, deal._RANKS, deal._PACKET_CARDS, match._TRICKS) == (
        rules.SUITS,
        rules.RANKS,
        rules.DRAFT_CARDS,
        rules.TRICKS,
    )
    assert (match._owed, match._beats) == (rules.owed, rules.beats)


def test_the_constants_nokosus_match_spells_again_are_the_deals_and_the_cores():
    from dicetable.games.nokosu import deal, match, rules

    assert (match._CARD_SLOTS, match._DIE_SLOT0, match._BLACK_SLOT0, match._DIE_BIT) == (
        deal._CARD_SLOTS,
        deal._DIE_SLOT0,
        deal._BLACK_SLOT0,
        deal._DIE_BIT,
    )
    assert deal._DIE_BIT == rules.die(0, 0, 0)
    assert deal._CARD_SLOTS == deal._DIE_SLOT0 == deal.slot_of(rules.die(0, 0, 0))
    assert deal._BLACK_SLOT0 == deal.slot_of(rules.black_die(0))


def test_dtt_playout_reads_the_cores_rules_and_the_matchs_places():
    # The playout's tables are the core's beats() and owed() for every case,
    # and its places are the values the match writes in where[].
    from dicetable.games.dtt import deal, playout, rules

    for trump in range(rules.NO_TRUMP + 1):
        for item in rules.deck():
            for best in rules.deck():
                assert playout.BEATS[trump][item << 6 | best] == rules.beats(item, best, trump)
    for lead in range(rules.SUITS):
        for held in range(rules.HAND_SIZE + 1):
            assert playout.OWES[lead][held] == (rules.owed(lead, held) != rules.ANY)
    assert (playout.FACE_UP, playout.PLAYED, playout.ALL, playout.DECK) == (
        deal._FACE_UP,
        deal.PLAYED,
        deal._ALL,
        deal._DECK,
    )
