"""The card games' random playouts (games/walzer/playout.py, games/nokosu/playout.py).

tests/test_engine_fast.py plays each game's FAST headers; here every header
the engines accept (player counts, open play, table rolls, lengths) is played
by playout() and by random_action and take, draw for draw, from the start and
from the middle of every phase.  Where a playout reckons a rule itself rather
than calling the core each time (Walzer's follow rule, trick winner and round
scores; Nokosu's legal plays, strengths and trick winner), its reckoning is
checked against the core's over every case, or over every case of a smaller
deck and many random ones of the whole.
"""

import itertools
import random

import pytest
from match_helpers import new_match, recorded, snapshot, take_to_the_end

from dicetable.games.nokosu import match as nokosu_match
from dicetable.games.nokosu import playout as nokosu_playout
from dicetable.games.nokosu import rules as nokosu
from dicetable.games.walzer import match as walzer_match
from dicetable.games.walzer import playout as walzer_playout
from dicetable.games.walzer import rules as walzer
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, options
from dicetable.rules.trick import Trick

PLAYOUTS = {"walzer": walzer_playout.playout, "nokosu": nokosu_playout.playout}


def headers(cls):
    """Every player count and option flag the class reads, at its own length,
    the shortest and the longest."""
    flags = [
        f for f in (0, OPEN_PLAY, TABLE_ROLLS, OPEN_PLAY | TABLE_ROLLS) if f & ~cls.OPTIONS == 0
    ]
    for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        for f in flags:
            for count in (0, 1, cls.MAX_COUNT):
                yield players, options(f, count)


HEADERS = [
    (game, players, opts)
    for game, cls in (("walzer", walzer_match.MATCH), ("nokosu", nokosu_match.MATCH))
    for players, opts in headers(cls)
]


def same_from(game, players, opts, journal, seed):
    """playout() and stepping give the same draws, journal and state from the
    match `journal` makes."""
    played = new_match(game, players, opts)
    step = new_match(game, players, opts)
    for a in journal:  # a playout's own journal: its refold is checked once, below
        played.take(a)
        step.take(a)
    draw, seen = recorded(seed)
    PLAYOUTS[game](played, draw)
    again, seen_again = recorded(seed)
    take_to_the_end(step, again)
    assert seen == seen_again
    assert played.journal == step.journal
    assert snapshot(played) == snapshot(step)
    return played


@pytest.mark.parametrize("game,players,opts", HEADERS)
def test_playout_is_random_action_and_take_at_every_header(game, players, opts):
    for seed in range(2):
        match = same_from(game, players, opts, [], seed)
        assert match.over() and match.history
        refolded = new_match(game, players, opts)
        assert refolded.replay(match.journal) == -1
        assert snapshot(refolded) == snapshot(match)


@pytest.mark.slow
@pytest.mark.parametrize("game,players,opts", [h for h in HEADERS if h[2] >> 8 != 1])
def test_playout_from_every_phase_of_a_match(game, players, opts):
    whole = same_from(game, players, opts, [], 7).journal
    # From the first action and the middle of each phase of the first round
    # and the last (the rounds between start as the last does).
    starts = set()
    match = new_match(game, players, opts)
    begun = {}
    for i, a in enumerate(whole):
        if match.round in (0, match.rounds - 1):
            begun.setdefault((match.round, match.phase), []).append(i)
        match.take(a)
    for at in begun.values():
        starts.update((at[0], at[len(at) // 2]))
    for start in sorted(starts):
        same_from(game, players, opts, whole[:start], start)


def test_a_match_over_is_left_as_it_is():
    for game in PLAYOUTS:
        match = same_from(game, 3, 0, [], 1)
        before = snapshot(match), list(match.journal)

        def draw(n):
            raise AssertionError("drew in a match over")

        PLAYOUTS[game](match, draw)
        assert (snapshot(match), match.journal) == before


# -- Seltsam-Walzer's reckoning against its core ----------------------------------------


def walzer_trick_winner(cards):
    """The playout's winner of a complete trick of `cards` led by seat 0."""
    n = len(cards)
    nxt = [(s + 1) % n for s in range(n)]
    won = [0] * n

    def draw(k):
        raise AssertionError("a complete trick draws nothing")

    return walzer_playout._trick(
        draw, None, None, None, walzer_playout._OWED, nxt, list(cards), list(range(n)), n, 0, won
    )


def walzer_core_winner(cards):
    trick = Trick(len(cards))
    for s, c in enumerate(cards):
        trick.add(s, c)
    return trick.seats[walzer.resolve(trick)]


def test_walzer_trick_winner_is_the_cores_for_every_three_card_trick():
    for cards in itertools.permutations(walzer.deck(), 3):
        assert walzer_trick_winner(cards) == walzer_core_winner(cards), cards


def test_walzer_trick_winner_is_the_cores_for_every_four_card_trick_of_a_small_deck():
    # Numbers 1-4 of every colour and the three X: every order of numbers,
    # colours and X cards a four-card trick can show.
    small = [c for c in walzer.deck() if walzer.is_x(c) or walzer.number(c) <= 4]
    for cards in itertools.permutations(small, 4):
        assert walzer_trick_winner(cards) == walzer_core_winner(cards), cards


def test_walzer_trick_winner_is_the_cores_for_random_four_card_tricks():
    rng = random.Random(4)
    for _ in range(20000):
        cards = rng.sample(walzer.deck(), 4)
        assert walzer_trick_winner(cards) == walzer_core_winner(cards), cards


class _Stop(Exception):
    pass


def drawn_by_one(k):
    """A draw that returns k once and stops the play at the next draw; the
    list of what was drawn over."""
    drawn = []

    def draw(n):
        if drawn:
            raise _Stop()
        drawn.append(n)
        return k

    return draw, drawn


def each_draw(play):
    """play(draw) for every draw its one draw can make: the action each
    journals, in draw order."""
    got = []
    k = 0
    while True:
        draw, drawn = drawn_by_one(k)
        journal = []
        try:
            play(draw, journal.append)
        except _Stop:
            pass
        got.append(journal[0] & 0xFFFF)
        k += 1
        if k == drawn[0]:
            return got


def walzer_follows(lead, hand):
    """The cards the playout may follow `lead` with from `hand`."""

    def play(draw, journal):
        hands = [[], list(hand)]
        counts = walzer_playout._counts(hands)
        walzer_playout._trick(
            draw,
            journal,
            hands,
            counts,
            walzer_playout._OWED,
            [1, 0],
            [lead, 0],
            [0, 1],
            1,
            0,
            [0, 0],
        )

    return each_draw(play)


def test_walzer_hands_in_value_order_are_in_deck_order():
    # The playout sorts a hand by value to keep it in the core's deck order.
    assert sorted(walzer.deck()) == walzer.deck()


def test_walzer_follow_rule_is_the_cores_for_every_lead():
    rng = random.Random(5)
    deck = walzer.deck()
    for lead in deck:
        rest = [c for c in deck if c != lead]
        for size in range(1, 13):
            for _ in range(4):
                hand = sorted(rng.sample(rest, size), key=deck.index)
                trick = Trick(2)
                trick.add(0, lead)
                out = list(hand)
                n = walzer.legal_plays(hand, len(hand), trick, out)
                assert walzer_follows(lead, hand) == out[:n], (lead, hand)


def test_walzer_round_scores_are_the_cores():
    rng = random.Random(6)
    deck = walzer.deck()
    for players in (3, 4):
        for trial in range(500):
            # Some cards won by nobody yet, some seats winning nothing.
            winners = rng.sample(range(players), rng.randrange(1, players + 1))
            piles = [[] for _ in range(players)]
            for c in deck:
                if rng.randrange(4) >= trial % 4:
                    piles[rng.choice(winners)].append(c)
            won = [sum(walzer_playout._PACK[c] for c in pile) for pile in piles]
            match = new_match("walzer", players)
            walzer_playout._score(match, won)
            assert match.history == [walzer.round_scores(piles)]


# -- Nokosu Dice's reckoning against its core ---------------------------------------------

TRUMPS = [(c, k) for c in range(nokosu.COLOURS) for k in range(nokosu.DIE_LOW, nokosu.DIE_HIGH + 1)]


def every_item():
    """Every item a match can show: the cards, each coloured die with each face,
    the black dice."""
    items = [nokosu.card(c, k) for c in range(nokosu.COLOURS) for k in range(8)]
    for c in range(nokosu.COLOURS):
        for i in range(nokosu.DICE_PER_COLOUR):
            items += [nokosu.die(c, i, f) for f in range(nokosu.DIE_LOW, nokosu.DIE_HIGH + 1)]
    return items + nokosu.black_dice()


def test_nokosu_strengths_are_the_cores_for_every_item_trump_and_lead():
    for tc, tn in TRUMPS:
        eff, other, own = nokosu_playout._tables(nokosu.card(tc, tn))
        for v in every_item():
            assert eff[v] == nokosu.effective_colour(v, tc, tn)
            for led in list(range(nokosu.COLOURS)) + [nokosu.NO_COLOUR]:
                got = own[v] if eff[v] == led else other[v]
                assert got == nokosu.strength(v, led, tc, tn), (v, tc, tn, led)


def nokosu_match_with(hands, trump):
    """A 5-player match in play whose seats hold `hands` (seat: items) under
    `trump` (colour, number)."""
    m = new_match("nokosu", 5)
    m.trump_colour, m.trump_number = trump
    for s in range(nokosu_match.SLOTS):
        m.loc[s] = nokosu_match.BOX
    for seat, items in hands.items():
        for v in items:
            s = nokosu_match.slot_of(v)
            m.loc[s] = nokosu_match.HAND + seat
            m.face[s] = nokosu.number(v) if nokosu.is_die(v) else 0
    return m


def nokosu_hand_state(m):
    items, split, dice, black = nokosu_playout._hands(m)
    lone = [nokosu_playout._lone(items[s], dice[s], black[s]) for s in range(m.players)]
    return items, split, dice, black, lone


def test_nokosu_trick_winner_is_the_cores():
    rng = random.Random(8)
    items = every_item()[:-2]
    for tc, tn in TRUMPS:
        tables = nokosu_playout._tables(nokosu.card(tc, tn))
        for _ in range(400):
            n = rng.choice((3, 4, 5))
            trick = Trick(n)
            for s, v in enumerate(rng.sample(items, n)):
                trick.add(s, v)
            hand = ([[]] * n, None, None, None, None)
            got = nokosu_playout._trick(
                None, None, hand, tables, list(trick.items), list(trick.seats), n, 0
            )
            assert got == trick.seats[nokosu.resolve(trick, tc, tn)]


def nokosu_plays(m, lead):
    """What the playout may play from seat 0 to a trick `lead` (None: seat 0
    leads), in a trick of seats 0 and 1."""
    tables = nokosu_playout._tables(nokosu.card(m.trump_colour, m.trump_number))

    def play(draw, journal):
        two = tuple(x[:2] for x in nokosu_hand_state(m))
        if lead is None:
            nokosu_playout._trick(draw, journal, two, tables, [0, 0], [0, 0], 0, 0)
        else:
            nokosu_playout._trick(draw, journal, two, tables, [lead, 0], [1, 0], 1, 1)

    return each_draw(play)


def test_nokosu_legal_plays_are_the_cores():
    rng = random.Random(9)
    cards = every_item()[:40]
    dice = [
        nokosu.die(c, i, 0) for c in range(nokosu.COLOURS) for i in range(nokosu.DICE_PER_COLOUR)
    ]
    for trial in range(2000):
        tc, tn = rng.choice(TRUMPS)
        hand = rng.sample(cards, rng.randrange(0, 11))
        for d in rng.sample(dice, rng.randrange(1, 4)):
            hand.append(nokosu.rolled(d, rng.randrange(nokosu.DIE_LOW, nokosu.DIE_HIGH + 1)))
        if trial % 3 == 0:
            hand.append(nokosu.black_die(trial % 2))
        others = [v for v in cards if v not in hand]
        lead = rng.choice(others + [None])
        m = nokosu_match_with({0: hand}, (tc, tn))
        ordered = sorted(hand, key=nokosu_match.slot_of)
        trick = Trick(2)
        if lead is not None:
            trick.add(1, lead)
        out = list(ordered)
        n = nokosu.legal_plays(ordered, len(ordered), trick, out, tc, tn)
        if n == 0:
            continue
        assert nokosu_plays(m, lead) == out[:n], (hand, lead, tc, tn)
