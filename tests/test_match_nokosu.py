"""Nokosu Dice match engine: the whole match, as the table runs it.

Scores and trick winners are recomputed here from the rules text (not from
the core); every refusal class has a concrete case that leaves the state
unchanged; the phases are pinned (R12 sizes, draw and draft order, who leads,
start-player rotation, the zero bid, the last-round tie-break); open play
gives the same history and totals as registered play.
"""

import random

import pytest
from match_helpers import play_random, random_chooser, seats_waiting, snapshot

from dicetable.games.nokosu import deal, table
from dicetable.games.nokosu import match as engine
from dicetable.games.nokosu import rules as core
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
    PICK,
    PLAY,
    ROLL,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    ZERO_BID,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.games import nokosu as text

PLAYER_COUNTS = (3, 4, 5)
RED, BLUE, YELLOW, GREEN, PURPLE, BLACK = range(6)

# RULES.md section 5 and R12, written out again: cards each, dice drawn each,
# centre dice, centre dice taken each, tricks.
R12 = {3: (9, 1, 10, 3, 12), 4: (10, 2, 13, 3, 14), 5: (8, 1, 16, 3, 11)}


# ------------------------------------------------------------------ helpers


def heuristic_chooser(match, seat, legal, rng):
    return text.heuristic(match, seat, legal, rng)


def advance(match, rng, stop, choose=random_chooser):
    """Play random actions until stop(match) holds (checked before each action)."""
    while not match.over() and not stop(match):
        seat = rng.choice(seats_waiting(match))
        legal = match.legal_actions(seat)
        a = choose(match, seat, legal, rng) if seat != TABLE else rng.choice(legal)
        assert match.submit(a) == OK
    return match


def at_phase(players, phase, seed=1, opts=0, extra=lambda m: True):
    rng = random.Random(seed)
    m = engine.new(players, opts)
    advance(m, rng, lambda m: m.phase == phase and extra(m))
    assert m.phase == phase
    return m, rng


def refused(match, a, code):
    """Assert `a` is refused with `code` and changes nothing."""
    before = snapshot(match)
    journal = list(match.journal)
    assert match.submit(a) == code, (hex(a), match.refusal(a))
    assert snapshot(match) == before
    assert match.journal == journal


def tier_by_the_text(item, led, tc, tn):
    """Strength from RULES.md section 5, independently of the core: (tier, number)."""
    if core.is_black(item):
        return (0, 0)
    c, num = core.colour(item), core.number(item)
    if num == tn:
        return (4 if c == tc else 3, num)
    if c == tc:
        return (2, num)
    if c == led:
        return (1, num)
    return (0, 0)


def winner_by_the_text(items, seats, tc, tn):
    lead = items[0]
    led = tc if core.number(lead) == tn else core.colour(lead)
    best, who = None, None
    for item, seat in zip(items, seats, strict=True):
        s = tier_by_the_text(item, led, tc, tn)
        if s[0] == 0:
            continue
        if best is None or s >= best:  # equal: the later one wins
            best, who = s, seat
    return seats[0] if who is None else who


def score_by_the_text(bids, tricks):
    missed = sum(1 for b, t in zip(bids, tricks, strict=True) if b != t)
    out = []
    for b, t in zip(bids, tricks, strict=True):
        s = t
        if b == t:
            s += 10 * missed + (10 if b == 0 else 0)
        out.append(s)
    return out


class Recorder:
    """Watches a match step by step and recomputes what the rules say."""

    def __init__(self, match):
        self.players = match.players
        self.tricks = [0] * match.players
        self.rounds = []  # (start, bids, tricks, scores by the text)
        self.leaders = []  # per round: the leader of each trick
        self.current_leaders = []
        self.winners_ok = 0

    def step(self, m, a):
        if kind_of(a) == PLAY and m.trick.count == 0:
            n = m.players
            items = list(m.last_trick_items[:n])
            seats = list(m.last_trick_seats[:n])
            expect = winner_by_the_text(items, seats, self.tc, self.tn)
            assert m.last_winner == expect, (items, seats, self.tc, self.tn)
            assert m.last_leader == seats[0]
            self.winners_ok += 1
            self.tricks[m.last_winner] += 1
            self.current_leaders.append(seats[0])
        if kind_of(a) in (PICK, ZERO_BID) and m.phase == engine.PLAYING:
            self.tc, self.tn = m.trump_colour, m.trump_number
            self.start = m.start
        if kind_of(a) == PLAY and len(m.history) > len(self.rounds):
            bids = [core.number(k) for k in m.kept]  # black dice show 0
            for k in m.kept:
                assert core.is_die(k)
            self.rounds.append(
                (self.start, bids, list(self.tricks), score_by_the_text(bids, self.tricks))
            )
            self.leaders.append(self.current_leaders)
            self.current_leaders = []
            self.tricks = [0] * self.players


def recorded_match(players, seed, opts=0, choose=random_chooser):
    m = engine.new(players, opts)
    rec = Recorder(m)
    rec.tc = rec.tn = None
    play_random(m, random.Random(seed), choose, on_step=rec.step)
    return m, rec


# ------------------------------------------------------------ scores and tricks


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_trick_winners_and_round_scores_match_an_independent_computation(players):
    for seed in range(6):
        choose = heuristic_chooser if seed % 2 else random_chooser
        m, rec = recorded_match(players, seed, choose=choose)
        assert rec.winners_ok == players * R12[players][4]
        assert len(m.history) == len(rec.rounds) == players
        for scored, (_, _bids, tricks, expect) in zip(m.history, rec.rounds, strict=True):
            assert sum(tricks) == R12[players][4]
            assert list(scored) == expect
        assert m.totals == [sum(h[s] for h in m.history) for s in range(players)]


def test_original_example_4_scores_through_the_engine_formula():
    # 5 players: A bids 3 makes 3, B bids 0 makes 0, three miss.
    assert score_by_the_text([3, 0, 2, 5, 1], [3, 0, 4, 1, 3]) == [33, 40, 4, 1, 3]
    assert core.round_scores([3, 0, 2, 5, 1], [3, 0, 4, 1, 3]) == [33, 40, 4, 1, 3]


# --------------------------------------------------------------- phases


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_r12_hands_after_the_draft(players):
    cards, drawn, centre, taken, tricks = R12[players]
    for seed in range(3):
        m, _ = at_phase(players, engine.PLAYING, seed)
        assert m.tricks_per_round == tricks
        for s in range(players):
            hand = m.hand(s)
            assert sum(1 for i in hand if not core.is_die(i)) == cards
            assert sum(1 for i in hand if core.is_die(i)) == drawn + taken
            assert len(hand) == tricks + 1
        places = dict(m.places())
        assert len(places["indicator"]) == 1
        assert "centre" not in places
        # every die drawn or rolled into the centre came from the bag
        dice_in_bag = len(core.dice_in_bag(players, m.removed))
        assert len(places.get("bag", [])) == dice_in_bag - players * drawn - centre + sum(
            1 for s in range(players) for i in m.hand(s) if core.is_black(i)
        )


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_draw_draft_and_lead_order_from_the_start_player(players):
    _, drawn, centre, taken, tricks = R12[players]
    m, rec = recorded_match(players, 7)
    journal = m.journal
    rounds = []
    current = None
    for a in journal:
        k, s, v = kind_of(a), seat_of(a), value_of(a)
        if k == CHOOSE:
            continue
        if current is None or (k == DEAL and current["plays"] == players * tricks):
            current = {"cards": 0, "draws": [], "centre": 0, "draft": [], "plays": 0, "first": None}
            rounds.append(current)
        if k == DEAL and not core.is_die(v):
            current["cards"] += 1
        elif k == DEAL and s != TABLE:
            current["draws"].append(s)
        elif k == DEAL:
            current["centre"] += 1
        elif k in (PICK, ZERO_BID):
            current["draft"].append(s)
        elif k == PLAY:
            if current["first"] is None:
                current["first"] = s
            current["plays"] += 1
    assert len(rounds) == players
    for r, info in enumerate(rounds):
        start = r % players  # seat 0 first, then clockwise
        order = [(start + 1 + i) % players for i in range(players)]
        assert info["cards"] == players * R12[players][0]
        assert info["draws"] == [s for s in order for _ in range(drawn)]
        assert info["centre"] == centre
        assert info["draft"] == order * taken
        assert info["first"] == start  # the start player leads the first trick
        leaders = rec.leaders[r]
        assert leaders[0] == start
        assert rec.rounds[r][0] == start


def test_the_trick_winner_leads_the_next_trick():
    m, rng = at_phase(4, engine.PLAYING, 3)
    seen = 0
    while not m.over() and seen < 30:
        before = m.last_trick_no
        a = rng.choice(m.legal_actions(seats_waiting(m)[0]))
        assert m.submit(a) == OK
        if m.phase == engine.PLAYING and m.last_trick_no != before and m.trick.count == 0:
            assert m.waiting() == 1 << m.last_winner
            assert m.turn == m.last_winner == m.leader
            seen += 1
    assert seen


def test_rounds_follow_the_player_count_and_the_count_option():
    for players in PLAYER_COUNTS:
        m = play_random(engine.new(players), random.Random(players))
        assert len(m.history) == players and m.over()
    m = play_random(engine.new(4, options(0, 2)), random.Random(2))
    assert len(m.history) == 2 and m.rounds == 2
    m = play_random(engine.new(3, options(0, 5)), random.Random(2))
    assert len(m.history) == 5


@pytest.mark.parametrize(
    "players,opts,why",
    [
        (4, VARIANT, "nokosu has no option bit 2 (it reads the bits in 3)"),
        (4, OPEN_PLAY | 0x40, "nokosu has no option bit 6 (it reads the bits in 3)"),
        (3, options(TABLE_ROLLS, 13), "nokosu's length is 1 to 5 (0: the game's own), not 13"),
        (2, 0, "nokosu is for 3 to 5 players, not 2"),
        (6, 0, "nokosu is for 3 to 5 players, not 6"),
    ],
)
def test_options_nokosu_does_not_read_are_refused(players, opts, why):
    with pytest.raises(ValueError) as refused:
        engine.new(players, opts)
    assert str(refused.value) == why
    assert engine.NokosuMatch.OPTIONS == OPEN_PLAY | TABLE_ROLLS


def test_three_players_the_table_chooses_the_removed_colour():
    m = engine.new(3)
    assert m.phase == engine.CHOOSING
    assert m.waiting() == TABLE_BIT
    assert m.legal_actions(TABLE) == [action(CHOOSE, TABLE, c) for c in range(5)]
    assert m.all_items() == [] and m.inventory() == []
    assert m.submit(action(CHOOSE, TABLE, GREEN)) == OK
    assert m.removed == GREEN and m.phase == engine.DEALING
    items = m.all_items()
    assert len(items) == 28 + 16 + 2
    assert sorted(m.inventory()) == sorted(items)
    assert not any(core.colour(i) == GREEN for i in items)
    assert not any(not core.is_die(i) and core.number(i) == 7 for i in items)
    # the removed colour stays out for the whole match: never chosen again
    play_random(m, random.Random(5))
    assert sum(1 for a in m.journal if kind_of(a) == CHOOSE) == 1
    assert not any(
        core.colour(value_of(a)) == GREEN
        for a in m.journal
        if kind_of(a) in (DEAL, PICK, ZERO_BID, PLAY)
    )


@pytest.mark.parametrize("players", (4, 5))
def test_four_and_five_players_use_every_item(players):
    m = engine.new(players)
    assert m.phase == engine.DEALING
    assert len(m.all_items()) == 40 + 25 + 2


def test_every_item_is_what_five_players_have_in_play():
    """The table's registrable items (table.all_items: every_item, no match
    made) are a 5-player match's all_items, in the same order."""
    assert deal.every_item() == engine.new(5).all_items()
    assert table.all_items() == deal.every_item()


@pytest.mark.parametrize("opts", (0, TABLE_ROLLS))
def test_who_rolls(opts):
    m = play_random(engine.new(5, opts), random.Random(3))
    rolls = [(i, a) for i, a in enumerate(m.journal) if kind_of(a) == ROLL]
    for i, a in rolls:
        drawn = m.journal[i - 1]
        assert kind_of(drawn) == DEAL and core.is_die(value_of(drawn))
        if seat_of(drawn) == TABLE:  # the centre: always the table
            assert seat_of(a) == TABLE
        elif opts & TABLE_ROLLS:
            assert seat_of(a) == TABLE
        else:
            assert seat_of(a) == seat_of(drawn)  # the drawing seat rolls its die


def test_a_drawn_die_waits_for_its_roll_then_the_next_draw():
    m, rng = at_phase(4, engine.DRAWING)
    seat = m.turn
    assert seat == 1 and m.waiting() == TABLE_BIT
    draw = m.legal_actions(TABLE)[0]
    assert m.submit(draw) == OK
    assert m.waiting() == 1 << seat
    assert m.legal_actions(seat) == [action(ROLL, seat, v) for v in range(1, 7)]
    assert m.submit(action(ROLL, seat, 6)) == OK
    assert core.rolled(value_of(draw), 6) in m.hand(seat)
    assert m.turn == seat and m.waiting() == TABLE_BIT  # 4 players draw 2 each


# ---------------------------------------------------------------- zero bid


def zero_bid_state(players=5, seed=2):
    m, rng = at_phase(players, engine.DRAFTING, seed)
    return m, rng


def test_zero_bid_takes_a_black_die_and_returns_a_centre_die():
    m, _ = zero_bid_state()
    seat = m.turn
    centre = m.centre()
    back = centre[0]
    bag = len(dict(m.places())["bag"])
    assert m.submit(action(ZERO_BID, seat, back)) == OK
    assert core.black_die(0) in m.hand(seat)
    assert back not in m.centre() and len(m.centre()) == len(centre) - 1
    places = dict(m.places())
    assert len(places["bag"]) == bag + 1
    assert core.rolled(back, 0) in places["bag"]  # back in the bag, unrolled
    assert m.turn == (seat + 1) % 5


def test_zero_bid_at_most_one_per_player_and_two_in_all():
    m, _ = zero_bid_state()
    first = m.turn
    assert m.submit(action(ZERO_BID, first, m.centre()[0])) == OK
    second = m.turn
    assert m.submit(action(ZERO_BID, second, m.centre()[0])) == OK
    third = m.turn
    assert not any(kind_of(a) == ZERO_BID for a in m.legal_actions(third))
    refused(m, action(ZERO_BID, third, m.centre()[0]), ILLEGAL_PLAY)  # none left
    m, _ = zero_bid_state()
    seat = m.turn
    assert m.submit(action(ZERO_BID, seat, m.centre()[0])) == OK
    # round the table back to the same seat: it may pick but not zero-bid again
    while m.turn != seat:
        assert m.submit(action(PICK, m.turn, m.centre()[0])) == OK
    assert not any(kind_of(a) == ZERO_BID for a in m.legal_actions(seat))
    refused(m, action(ZERO_BID, seat, m.centre()[0]), ILLEGAL_PLAY)


def test_a_black_die_is_kept_bids_zero_and_is_never_played():
    rng = random.Random(11)
    m = engine.new(4)

    def zero_first(match, seat, legal, rng):
        zero = [a for a in legal if kind_of(a) == ZERO_BID]
        return zero[0] if zero and seat == 1 else rng.choice(legal)

    advance(m, rng, lambda m: m.phase == engine.PLAYING, zero_first)
    black = core.black_die(0)
    assert black in m.hand(1)
    while len(m.history) == 0:
        seat = seats_waiting(m)[0]
        legal = m.legal_actions(seat)
        assert action(PLAY, seat, black) not in legal
        if seat == 1:
            refused(m, action(PLAY, 1, black), ILLEGAL_PLAY)
        assert m.submit(rng.choice(legal)) == OK
    assert m.kept[1] == black and m.last_bids[1] == 0


# --------------------------------------------------------------- standings


def test_standings_tie_break_by_the_larger_kept_die_of_the_last_round():
    m = play_random(engine.new(3), random.Random(4))
    m.totals = [50, 50, 50]
    m.last_bids = bytearray([2, 5, 0])
    assert m.standings() == [2, 1, 3]
    m.last_bids = bytearray([5, 5, 0])
    assert m.standings() == [1, 1, 3]
    m.totals = [40, 50, 50]
    assert m.standings() == [3, 1, 2]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_standings_follow_totals_then_the_last_kept_die(players):
    for seed in range(4):
        m, rec = recorded_match(players, 100 + seed)
        last_bids = rec.rounds[-1][1]
        assert list(m.last_bids) == last_bids
        key = [(m.totals[s], last_bids[s]) for s in range(players)]
        for s in range(players):
            assert m.standings()[s] == 1 + sum(1 for o in key if o > key[s])


# ------------------------------------------------------------ refusals


def test_refused_after_the_end():
    m = play_random(engine.new(3), random.Random(1))
    assert m.waiting() == 0
    for a in (action(PLAY, 0, 0), action(CHOOSE, TABLE, 0), action(ROLL, TABLE, 3)):
        refused(m, a, MATCH_OVER)
    assert all(m.legal_actions(s) == [] for s in list(range(3)) + [TABLE])


def test_refused_out_of_turn():
    m = engine.new(3)
    refused(m, action(CHOOSE, 0, RED), OUT_OF_TURN)  # a seat, not the table
    refused(m, action(CHOOSE, 5, RED), OUT_OF_TURN)  # no such seat
    m, rng = at_phase(4, engine.DEALING, extra=lambda m: m.cards_left[2] == 10)
    card = [a for a in m.legal_actions(TABLE)][0]
    refused(m, action(DEAL, 2, value_of(card)), OUT_OF_TURN)  # seat 2 holds 10 cards
    refused(m, action(DEAL, TABLE, value_of(card)), OUT_OF_TURN)
    m, rng = at_phase(4, engine.DRAWING)
    die = value_of(m.legal_actions(TABLE)[0])
    refused(m, action(DEAL, 2, die), OUT_OF_TURN)  # seat 1 draws first
    assert m.submit(action(DEAL, 1, die)) == OK
    refused(m, action(ROLL, TABLE, 4), OUT_OF_TURN)  # the seat rolls its die
    refused(m, action(ROLL, 2, 4), OUT_OF_TURN)
    m, rng = at_phase(4, engine.DRAWING, opts=TABLE_ROLLS, extra=lambda m: m.pending >= 0)
    refused(m, action(ROLL, m.turn, 4), OUT_OF_TURN)  # the table rolls
    m, rng = at_phase(4, engine.CENTRE)
    die = value_of(m.legal_actions(TABLE)[0])
    refused(m, action(DEAL, 0, die), OUT_OF_TURN)  # centre dice go to the centre
    m, rng = at_phase(4, engine.DRAFTING)
    refused(m, action(PICK, (m.turn + 1) % 4, m.centre()[0]), OUT_OF_TURN)
    m, rng = at_phase(4, engine.PLAYING)
    other = (m.turn + 1) % 4
    refused(m, action(PLAY, other, m.hand(other)[0]), OUT_OF_TURN)


def test_refused_wrong_phase():
    m = engine.new(3)
    refused(m, action(DEAL, 0, core.card(RED, 1)), WRONG_PHASE)
    m, rng = at_phase(5, engine.DEALING)
    refused(m, action(ROLL, TABLE, 3), WRONG_PHASE)
    m, rng = at_phase(5, engine.CENTRE, extra=lambda m: m.pending >= 0)
    refused(m, action(DEAL, TABLE, value_of(core.die(RED, 0, 0))), WRONG_PHASE)
    m, rng = at_phase(5, engine.DRAFTING)
    refused(m, action(PLAY, m.turn, m.centre()[0]), WRONG_PHASE)
    m, rng = at_phase(5, engine.PLAYING)
    seat = m.turn
    refused(m, action(PICK, seat, m.hand(seat)[-1]), WRONG_PHASE)
    refused(m, action(ZERO_BID, seat, m.hand(seat)[-1]), WRONG_PHASE)


def test_refused_unknown_item():
    m = engine.new(3)
    assert m.submit(action(CHOOSE, TABLE, BLUE)) == OK
    refused(m, action(DEAL, 0, core.card(BLUE, 3)), UNKNOWN_ITEM)  # removed colour
    refused(m, action(DEAL, 0, core.card(RED, 7)), UNKNOWN_ITEM)  # every 7 removed
    refused(m, action(DEAL, 0, core.die(RED, 0, 0)), UNKNOWN_ITEM)  # a die in the card deal
    refused(m, action(DEAL, 0, 0x400), UNKNOWN_ITEM)  # beyond the encoding
    refused(m, action(DEAL, 0, core.card(RED, 1) | 0x80), UNKNOWN_ITEM)  # a card with an index
    advance(m, random.Random(1), lambda m: m.phase == engine.DRAWING)
    refused(m, action(DEAL, m.turn, core.die(RED, 4, 0)), UNKNOWN_ITEM)  # 5th die removed
    refused(m, action(DEAL, m.turn, core.die(BLUE, 0, 0)), UNKNOWN_ITEM)
    refused(m, action(DEAL, m.turn, core.card(RED, 1)), UNKNOWN_ITEM)
    refused(m, action(DEAL, m.turn, core.black_die(0)), UNKNOWN_ITEM)  # never in the bag
    m, rng = at_phase(5, engine.DRAFTING)
    refused(m, action(PICK, m.turn, core.card(RED, 2)), UNKNOWN_ITEM)
    refused(m, action(ZERO_BID, m.turn, core.black_die(1)), UNKNOWN_ITEM)
    m, rng = at_phase(5, engine.PLAYING)
    refused(m, action(PLAY, m.turn, 0xFFFF), UNKNOWN_ITEM)


def test_refused_already_placed():
    m, rng = at_phase(5, engine.DEALING, extra=lambda m: m.cards_left[0] == 1)
    card = m.hand(0)[0]
    refused(m, action(DEAL, 1, card), ALREADY_PLACED)  # dealt twice
    m, rng = at_phase(5, engine.DRAWING, extra=lambda m: m.pending < 0 and m.turn == 2)
    held = [i for i in m.hand(1) if core.is_die(i)][0]
    refused(m, action(DEAL, 2, core.rolled(held, 0)), ALREADY_PLACED)  # not in the bag
    m, rng = at_phase(5, engine.DRAFTING, extra=lambda m: m.turn == 3)
    taken = [i for i in m.hand(1) if core.is_die(i) and not core.is_black(i)][-1]
    refused(m, action(PICK, 3, taken), ALREADY_PLACED)  # not in the centre
    refused(m, action(ZERO_BID, 3, taken), ALREADY_PLACED)


def test_refused_not_in_hand():
    m, rng = at_phase(5, engine.PLAYING)
    seat = m.turn
    other = (seat + 2) % 5
    for item in m.hand(other)[:3]:
        refused(m, action(PLAY, seat, item), NOT_IN_HAND)
    refused(m, action(PLAY, seat, m.item(m.indicator)), NOT_IN_HAND)  # the trump indicator
    # a card already played
    advance(m, rng, lambda m: m.trick.count == 0 and m.tricks_done == 1)
    played = [i for i in m.last_trick_items if not core.is_die(i)]
    assert played
    refused(m, action(PLAY, m.turn, played[0]), NOT_IN_HAND)


def test_refused_out_of_range():
    m = engine.new(3)
    refused(m, action(CHOOSE, TABLE, 5), OUT_OF_RANGE)  # not a colour
    m, rng = at_phase(5, engine.DRAWING, extra=lambda m: m.pending >= 0)
    seat = m.turn
    for v in (0, 7, 100):
        refused(m, action(ROLL, seat, v), OUT_OF_RANGE)
    m, rng = at_phase(5, engine.DRAWING, extra=lambda m: m.pending < 0)
    die = value_of(m.legal_actions(TABLE)[0])
    refused(m, action(DEAL, m.turn, core.rolled(die, 3)), OUT_OF_RANGE)  # not rolled yet
    m, rng = at_phase(5, engine.DRAFTING)
    shown = m.centre()[0]
    wrong = core.rolled(shown, 1 + core.number(shown) % 6)
    refused(m, action(PICK, m.turn, wrong), OUT_OF_RANGE)  # not its face
    m, rng = at_phase(5, engine.PLAYING)
    die = [i for i in m.hand(m.turn) if core.is_die(i) and not core.is_black(i)][0]
    refused(m, action(PLAY, m.turn, core.rolled(die, 1 + core.number(die) % 6)), OUT_OF_RANGE)


def find_state(players, wanted, seeds=range(40), opts=0):
    """A PLAYING state (match, seat, item) where wanted(match, seat, item) holds
    for an item of the seat on turn."""
    for seed in seeds:
        rng = random.Random(seed)
        m = engine.new(players, opts)
        while not m.over():
            if m.phase == engine.PLAYING:
                seat = m.turn
                for item in m.hand(seat):
                    if wanted(m, seat, item):
                        return m, seat, item
            s = rng.choice(seats_waiting(m))
            assert m.submit(rng.choice(m.legal_actions(s))) == OK
    raise AssertionError("no such state")


def effective(m, item):
    return core.effective_colour(item, m.trump_colour, m.trump_number)


def test_refused_illegal_play_must_follow():
    def off_colour_while_following(m, seat, item):
        if m.trick.count == 0 or core.is_black(item):
            return False
        led = core.led_colour(m.trick, m.trump_colour, m.trump_number)
        legal = [value_of(a) for a in m.legal_actions(seat)]
        return (
            effective(m, item) != led
            and item not in legal
            and any(effective(m, i) == led for i in legal)
        )

    m, seat, item = find_state(4, off_colour_while_following)
    refused(m, action(PLAY, seat, item), ILLEGAL_PLAY)


def test_refused_illegal_play_the_last_die_is_kept():
    def lone_die(m, seat, item):
        dice = [i for i in m.hand(seat) if core.is_die(i)]
        return dice == [item] and not core.is_black(item) and len(m.hand(seat)) > 1

    m, seat, item = find_state(3, lone_die)
    refused(m, action(PLAY, seat, item), ILLEGAL_PLAY)


# -------------------------------------------------------------- open play


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("flags", (0, TABLE_ROLLS))
def test_open_play_gives_identical_history_and_totals(players, flags):
    for seed in range(4):
        choose = heuristic_chooser if seed % 2 else random_chooser
        registered = play_random(engine.new(players, flags), random.Random(seed), choose)
        journal = text.open_play_journal(registered.journal, players, flags)
        assert not any(kind_of(a) == DEAL and not core.is_die(value_of(a)) for a in journal)
        opened = engine.new(players, flags | OPEN_PLAY)
        assert opened.replay(journal) == -1
        assert opened.over()
        assert opened.history == registered.history
        assert opened.totals == registered.totals
        assert opened.standings() == registered.standings()


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_open_play_keeps_the_waiting_and_legal_invariants(players):
    rng = random.Random(players)
    for _ in range(6):
        m = engine.new(players, OPEN_PLAY)
        assert m.phase != engine.DEALING

        def check(m, a):
            assert kind_of(a) != DEAL or core.is_die(value_of(a))
            waited = set(seats_waiting(m))
            for seat in list(range(players)) + [TABLE]:
                assert bool(m.legal_actions(seat)) == (seat in waited)
            assert sorted(m.inventory()) == sorted(m.all_items())

        play_random(m, rng, on_step=check)
        assert len(m.history) == players


def test_open_play_refuses_what_the_table_can_disprove():
    m, rng = at_phase(4, engine.PLAYING, opts=OPEN_PLAY)
    seat = m.turn
    assert all(core.is_die(i) for i in m.hand(seat))  # cards are not scanned
    other = (seat + 1) % 4
    refused(m, action(PLAY, seat, m.hand(other)[0]), NOT_IN_HAND)  # another seat's die
    # any card not yet played may be led
    legal = [value_of(a) for a in m.legal_actions(seat)]
    assert sum(1 for i in legal if not core.is_die(i)) == 40
    # a card already played, and a seat out of cards
    advance(m, rng, lambda m: m.tricks_done == 1 and m.trick.count == 0)
    card = [i for i in m.last_trick_items if not core.is_die(i)]
    assert card
    refused(m, action(PLAY, m.turn, card[0]), NOT_IN_HAND)
    # a seat with no card left: every card is refused
    advance(
        m,
        rng,
        lambda m: m.phase == engine.PLAYING and m.cards_left[m.turn] == 0 and m.trick.count == 0,
    )
    assert m.phase == engine.PLAYING
    unplayed = [m.item(s) for s in range(40) if m.loc[s] == engine.DECK]
    assert unplayed
    refused(m, action(PLAY, m.turn, unplayed[0]), NOT_IN_HAND)
    assert all(core.is_die(value_of(a)) for a in m.legal_actions(m.turn))

    # an off-colour card while one of the seat's own dice follows the lead
    for seed in range(60):
        rng = random.Random(seed)
        m = engine.new(4, OPEN_PLAY)
        found = None
        while not m.over() and found is None:
            if m.phase == engine.PLAYING and m.trick.count:
                seat = m.turn
                led = core.led_colour(m.trick, m.trump_colour, m.trump_number)
                dice = [value_of(a) for a in m.legal_actions(seat) if core.is_die(value_of(a))]
                if m.cards_left[seat] and any(effective(m, d) == led for d in dice):
                    cards = [m.item(s) for s in range(40) if m.loc[s] == engine.DECK]
                    off = [c for c in cards if effective(m, c) != led]
                    on = [c for c in cards if effective(m, c) == led]
                    if off and on:
                        found = (seat, off[0], on[0])
                        break
            s = rng.choice(seats_waiting(m))
            assert m.submit(rng.choice(m.legal_actions(s))) == OK
        if found:
            seat, off, on = found
            refused(m, action(PLAY, seat, off), ILLEGAL_PLAY)  # its own die follows
            assert m.refusal(action(PLAY, seat, on)) == OK  # a card of the led colour
            return
    raise AssertionError("no state found")


# ------------------------------------------------ legal actions = accepted actions

KINDS = (DEAL, PLAY, ROLL, PICK, ZERO_BID, CHOOSE, 4, 5, 6, 8, 10)


@pytest.mark.slow
@pytest.mark.parametrize("players,opts", [(3, 0), (4, TABLE_ROLLS), (5, OPEN_PLAY)])
def test_legal_actions_are_exactly_the_accepted_actions(players, opts):
    rng = random.Random(players)
    m = engine.new(players, opts)
    seen = set()
    values = list(range(0x400)) + [0x400, 0x7FF, 0xFFFF]
    while not m.over():
        key = (m.phase, m.pending >= 0, m.trick.count > 0)
        if key not in seen:
            seen.add(key)
            allowed = {a for s in list(range(players)) + [TABLE] for a in m.legal_actions(s)}
            accepted = {
                action(k, s, v)
                for k in KINDS
                for s in range(8)
                for v in values
                if m.refusal(action(k, s, v)) == OK
            }
            assert accepted == allowed
        s = rng.choice(seats_waiting(m))
        assert m.submit(rng.choice(m.legal_actions(s))) == OK
    assert len(seen) >= 6


# -------------------------------------------------------------- transcript


def test_transcript_and_heuristic():
    from sim.play import play

    out = []
    m = play("nokosu", 3, TABLE_ROLLS, ["heuristic", "random", "heuristic"], 9, out)
    joined = "\n".join(out)
    assert "setup: the table removes" in joined
    assert "round 1 of 3: seat 0 is the start player" in joined
    assert "round 3 of 3: seat 2 is the start player" in joined
    assert "trump indicator:" in joined
    assert "seat 0, the start player, leads the first trick" in joined
    assert "trick 12: seat" in joined and "round 3 scores:" in joined
    assert m.over()
    # The board's words (one vocabulary): the die's place among its colour, then its number.
    assert text.describe(core.card(RED, 7)) == "red card 7"
    assert text.describe(core.die(PURPLE, 2, 5)) == "purple die 3:5"
    assert text.describe(core.black_die(1)) == "black die 2"
