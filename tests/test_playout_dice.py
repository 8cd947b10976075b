"""DTwww's and Dicefull's playout.py over every header their engines take.

tests/test_engine_fast.py plays each game's playout over its few FAST
headers.  Here every header (player counts, OPEN_PLAY, TABLE_ROLLS,
VARIANT, lengths) is played out draw for draw against random_action and
take, from the start and from states in the middle, and every decision a
playout makes from its own tables or loops rather than by a call of the
rules core is checked against the core's, case by case.
"""

import itertools
import random
from array import array

import pytest
from match_helpers import new_match, recorded, snapshot, take_to_the_end

from dicetable.games.dicefull import playout as dicefull_playout
from dicetable.games.dicefull import rules as core
from dicetable.games.dicefull import scoring_rules as scoring
from dicetable.games.dtwww import playout as dtwww_playout
from dicetable.games.dtwww import rules as dt
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options, places_of
from dicetable.rules.trick import Trick

PLAYOUTS = {"dtwww": dtwww_playout.playout, "dicefull": dicefull_playout.playout}


def headers(game, players, flags, counts):
    return [(game, n, options(f, c)) for n, f, c in itertools.product(players, flags, counts)]


def flag_sets(*flags):
    return [
        sum(chosen) for k in range(len(flags) + 1) for chosen in itertools.combinations(flags, k)
    ]


# Every header the engines take, by the classes they read: each player count,
# each set of option flags, the game's own length, the shortest and the
# longest (DTwww: MAX_COUNT 6 games; Dicefull: 12 challenges, the most a 2d6
# gives, and 1).
HEADERS = headers("dtwww", (2, 3, 4), flag_sets(OPEN_PLAY, TABLE_ROLLS, VARIANT), (0, 1, 6))
HEADERS += headers("dicefull", (2, 3, 4, 5), flag_sets(TABLE_ROLLS, VARIANT), (0, 1, 12))


def ids(header):
    return "%s-%d-%#x" % header


def check_from(game, players, opts, journal, seed):
    """The match after `journal`, played out and stepped out with the same
    draws: the same draws, journal and state, and a journal the rules take."""
    played = new_match(game, players, opts)
    stepped = new_match(game, players, opts)
    assert played.replay(journal) == -1 and stepped.replay(journal) == -1
    draw, seen = recorded(seed)
    PLAYOUTS[game](played, draw)
    again, seen_again = recorded(seed)
    take_to_the_end(stepped, again)
    assert seen == seen_again
    assert played.journal == stepped.journal
    assert snapshot(played) == snapshot(stepped)
    refolded = new_match(game, players, opts)
    assert refolded.replay(played.journal) == -1
    assert snapshot(refolded) == snapshot(played)
    return played


@pytest.mark.parametrize("game,players,opts", HEADERS, ids=[ids(h) for h in HEADERS])
def test_playout_is_random_action_and_take_for_every_header(game, players, opts):
    whole = check_from(game, players, opts, [], players * 1000 + opts)
    assert whole.over() and whole.history
    n = len(whole.journal)
    for start in (1, n // 4, n // 2 + 1, n - 2):
        check_from(game, players, opts, whole.journal[:start], start)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game,players,opts",
    [("dtwww", 4, 0), ("dtwww", 3, TABLE_ROLLS | VARIANT), ("dicefull", 5, 0)]
    + [("dicefull", 3, TABLE_ROLLS | VARIANT), ("dtwww", 2, OPEN_PLAY)],
)
def test_playout_from_every_state_of_a_match(game, players, opts):
    whole = check_from(game, players, opts, [], 7)
    for start in range(0, len(whole.journal), 3):
        check_from(game, players, opts, whole.journal[:start], start)


@pytest.mark.slow
@pytest.mark.parametrize("game,players", [("dtwww", 4), ("dicefull", 5), ("dicefull", 2)])
def test_playout_over_many_seeds(game, players):
    for seed in range(40):
        check_from(game, players, 0, [], seed)


# -- DTwww: the tables against the core ------------------------------------------------


def table_plays(hand, lead):
    """A hand's legal plays as _tricks and _lead draw them: the following
    plays counted from the lead's row, else every play, in hand order."""
    leading_counts, leading_adds = dtwww_playout.LEADING
    counts, adds = leading_counts, leading_adds
    keys = [dtwww_playout.key(d) for d in hand]
    if lead >= 0:
        counts, adds = dtwww_playout.FOLLOWING[lead]
        if not sum(counts[x] for x in keys):
            counts, adds = leading_counts, leading_adds
    return [d + adds[x][r] for d, x in zip(hand, keys, strict=True) for r in range(counts[x])]


def core_plays(hand, lead):
    trick = Trick(2)
    if lead >= 0:
        trick.add(0, lead)
    out = [0] * dt.MAX_PLAYS
    return out[: dt.legal_plays(hand, len(hand), trick, out)]


def rolled_dice():
    """Every die of the box showing each of its faces."""
    return [
        d | v
        for d in dt.box()
        for v in range(dt.lowest_face(dt.size(d)), dt.highest_face(dt.size(d)) + 1)
    ]


@pytest.mark.slow
def test_dtwww_tables_give_the_cores_legal_plays_of_every_die_to_every_lead():
    dice = rolled_dice()
    for lead in [-1] + dtwww_playout.PLAYS:
        for d in dice:
            assert table_plays([d], lead) == core_plays([d], lead), (lead, d)


def test_dtwww_tables_give_the_cores_legal_plays_of_random_hands():
    rng = random.Random(3)
    by_die = {}
    for d in rolled_dice():
        by_die.setdefault(d & 0x7E0, []).append(d)
    for _ in range(5000):
        hand = [
            rng.choice(by_die[identity])
            for identity in rng.sample(sorted(by_die), rng.randint(1, 9))
        ]
        lead = rng.choice([-1] + dtwww_playout.PLAYS)
        assert table_plays(hand, lead) == core_plays(hand, lead)


def test_dtwww_white_keys_are_the_white_dice_and_always_follow():
    # _tricks takes a hand without a white die to give one play a die when it
    # leads, and a hand that cannot follow to hold no white die.
    for item in dtwww_playout.PLAYS:
        x = dtwww_playout.key(item & 0x7FF)
        assert (x >= dtwww_playout.WHITE_KEY) == (dt.colour(item) == dt.WHITE)
        assert dtwww_playout.LEADING[0][x] == (3 if x >= dtwww_playout.WHITE_KEY else 1)
    for lead in dtwww_playout.PLAYS:
        counts, _ = dtwww_playout.FOLLOWING[lead]
        for d in rolled_dice():
            if dt.colour(d) == dt.WHITE:
                assert counts[dtwww_playout.key(d)] >= 1, (lead, d)


@pytest.mark.slow
def test_dtwww_a_listed_follow_takes_over_by_its_number_alone():
    # A hand that can follow plays a die the tables list; _tricks lets it take
    # over the winner so far (which follows the lead) when its number is at
    # most the winner's: the core's takes_over, for one winner of each number.
    rows = {}
    for lead in dtwww_playout.PLAYS:
        rows.setdefault(id(dtwww_playout.FOLLOWING[lead]), lead)
    for lead in rows.values():
        counts, adds = dtwww_playout.FOLLOWING[lead]
        listed = [
            d + adds[dtwww_playout.key(d)][r]
            for d in rolled_dice()
            for r in range(counts[dtwww_playout.key(d)])
        ]
        bests = {dt.number(item): item for item in listed + [lead]}
        for item in listed:
            assert dt.follows(lead, item), (lead, item)
            for best in bests.values():
                took = dt.number(item) <= dt.number(best)
                assert took == dt.takes_over(lead, item, best), (lead, item, best)


def fold(items):
    """_tricks' fold: the winner (a play that follows at most the winner's
    number, the last of equals) and next leader (highest number, first of
    equals) as the plays arrive."""
    lead = items[0]
    best, low, top, high = 0, dt.number(lead), 0, dt.number(lead)
    for i, item in enumerate(items[1:], 1):
        if dt.follows(lead, item) and dt.number(item) <= low:
            best, low = i, dt.number(item)
        if dt.number(item) > high:
            top, high = i, dt.number(item)
    return best, top


def test_dtwww_fold_is_the_cores_resolve_and_next_leader():
    # Any plays after the lead: one that follows (as every play listed to a
    # hand that can follow does) is weighed by its number, one that does not
    # (a hand that cannot follow) never wins.
    rng = random.Random(5)
    plays = dtwww_playout.PLAYS
    for lead in plays:
        for _ in range(15):
            items = [lead] + rng.sample(plays, rng.randint(1, 3))
            trick = Trick(4)
            for i, item in enumerate(items):
                trick.add(i, item)
            assert fold(items) == (dt.resolve(trick), dt.next_leader(trick))


def test_dtwww_game_ranks_and_points_are_the_cores():
    # Totals and counts at their extremes too: 9 score dice, 9 d20s' 180, a
    # d10's 0 on a score die.
    for players in (2, 3, 4):
        for counts in itertools.product((0, 1, 2, 9), repeat=players):
            for totals in itertools.product((0, 3, 5, 180), repeat=players):
                totals = [t if c else 0 for t, c in zip(totals, counts, strict=True)]
                keys = [dtwww_playout.rank_key(t, c) for t, c in zip(totals, counts, strict=True)]
                ranks = places_of(keys)
                assert ranks == dt.ranks(totals, counts)
                for mode in (dt.SCORE_VP, dt.SCORE_TOTAL):
                    got = dtwww_playout.game_points(ranks, totals, mode)
                    assert got == dt.game_points(totals, counts, mode)


def test_dtwww_index_and_faces_are_the_boxs():
    box = dt.box()
    for item in dtwww_playout.PLAYS:
        assert box[dtwww_playout.INDEX[item >> 5 & 63]] == item & 0x7E0
    for i, d in enumerate(box):
        size = dt.size(d)
        assert dtwww_playout.LOW_OF[i] == dt.lowest_face(size)
        assert dtwww_playout.LOW_OF[i] + dtwww_playout.SPAN_OF[i] - 1 == dt.highest_face(size)


# -- Dicefull: the turn, the picks and the challenge against the core ------------------


def test_dicefull_next_picker_is_the_cores():
    for players in range(core.MIN_PLAYERS, core.MAX_PLAYERS + 1):
        limit = core.pick_limit(players)
        for held in itertools.product((0, limit - 1, limit), repeat=players):
            for passed in itertools.product((0, 1), repeat=players):
                for seat in range(players):
                    expected = core.next_picker(seat, held, passed, players, 1)
                    if core.picking_over(held, passed, players, 1):
                        expected = core.NOBODY
                    got = dicefull_playout.next_picker(seat, held, passed, players, limit)
                    assert got == expected, (players, held, passed, seat)


def test_dicefull_picks_drawn_are_the_cores_legal_plays():
    # _pick_out draws over the centre's places, then passing for a seat
    # holding a die: what the core lists for a seat not done.
    dice = [core.die(kind, 0) for kind in range(len(core.KINDS))]
    out = array("H", [0] * (len(dice) + 1))
    for players in range(core.MIN_PLAYERS, core.MAX_PLAYERS + 1):
        for held in range(core.pick_limit(players)):
            hand = array("H", dice[:held])
            for c in range(1, len(dice) + 1):
                centre = array("H", dice[len(dice) - c :])
                k = core.legal_plays(hand, held, centre, c, out, 0, players)
                drawn = list(centre) + ([core.PASS] if held else [])
                assert list(out[:k]) == drawn


def random_rolls(rng, players):
    rolls = []
    counts = bytearray(players)
    for s in range(players):
        results = array("H", [0] * core.MAX_RESULTS)
        n = 0
        for _ in range(rng.randint(0, 5)):
            kind = rng.randrange(len(core.KINDS))
            for _ in range(core.results_per_die(kind)):
                results[n] = core.rolled(core.die(kind, 0), rng.randrange(core.face_count(kind)))
                n += 1
        rolls.append(results)
        counts[s] = n
    return rolls, counts


def test_dicefull_met_by_is_the_cores_for_every_challenge():
    rng = random.Random(9)
    for row in core.CHALLENGES:
        for _ in range(150):
            rolls, counts = random_rolls(rng, rng.randint(2, 5))
            assert dicefull_playout.met_by(rolls, counts, row) == scoring.met_by(rolls, counts, row)
