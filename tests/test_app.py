"""The table app (firmware/dicetable/app): from tags and buttons to match
actions, the journal on storage and LED frames.  No hardware: the tests call
reader_event / button / tick directly, with fake UIDs registered for every
item, and pick what to do from the engine's own legal actions.

The expected LED patterns are written out from the legend in docs/table.md
(not computed with the app's own drawing code).
"""

import ast
import pathlib
import random

import pytest
from match_helpers import snapshot

from dicetable import games as registry
from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import (
    CENTRE,
    LONG,
    MINUS,
    OK,
    PLUS,
    READER_FAULT,
    READER_OK,
    TAG_PLACED,
    TAG_REMOVED,
    TWO_TAGS,
)
from dicetable.app.menu import F_HANDS, F_LENGTH, F_ROLLS, F_SEATS, F_VARIANT
from dicetable.app.play import FIRMWARE_RECORD
from dicetable.app.registry import Registry, pack, uid_hex, unpack
from dicetable.app.rng import Rng, draw
from dicetable.app.table import (
    ERROR_MS,
    SCORE_MS,
    SEATS_RECORD,
    SEED_RECORD,
    TRICK_MS,
    Table,
    ticks_diff,
)
from dicetable.games import GAMES, header, header_refusal
from dicetable.games.dtt import match as dtt_engine
from dicetable.games.dtwww import match as dtwww_engine
from dicetable.games.dtwww import rules as dt
from dicetable.games.nokosu import match as nokosu_engine
from dicetable.match.actions import (
    ALREADY_PLACED,
    CHOOSE,
    DEAL,
    ILLEGAL_PLAY,
    MALFORMED,
    NOT_IN_HAND,
    NOTHING_TO_UNDO,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PASS,
    PICK,
    PLAY,
    ROLL,
    TABLE,
    ZERO_BID,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import LONGEST, OPEN_PLAY, TABLE_ROLLS, VARIANT, malformed, options
from sim import mpy_wasm
from sim.hw import hands
from sim.hw.hands import choose_in_menu, full_registry, uid_for
from sim.play import play

ROOT = pathlib.Path(__file__).resolve().parent.parent
APP = sorted((ROOT / "firmware" / "dicetable" / "app").glob("*.py"))

# The games this module pins by name (their numbers are the registry's).
PINNED = ("dtwww", "walzer", "dicefull", "dtt", "nokosu")
DTWWW, WALZER, DICEFULL, DTT, NOKOSU = (registry.number(key) for key in PINNED)
WIDTH = 8
RING = 12
UNDO_WORD = 0x01000000

# Colours of the legend (docs/table.md), written out.
OFF = (0, 0, 0)
IDLE = (3, 3, 3)
GREEN = (0, 48, 0)
BLUE = (0, 0, 48)
WHITE = (32, 32, 32)
RED = (48, 0, 0)
ORANGE = (48, 16, 0)
CYAN = (0, 40, 40)
DIM_CYAN = (0, 5, 5)
LIME = (20, 48, 0)
PINK = (48, 8, 24)
GREY = (8, 8, 8)
PURPLE = (32, 0, 48)
GOLD, SILVER, BRONZE, LAST = (48, 32, 0), (20, 20, 28), (40, 12, 0), (16, 0, 0)
WON = (40, 0, 0)  # a trick's winner: red, apart from every prompt for colour-blind eyes


def dim(c):
    return (c[0] >> 3, c[1] >> 3, c[2] >> 3)


def number_leds(n, marker, width=WIDTH):
    """The legend's number: tens blue, a five white, ones green, marker last."""
    leds = [BLUE] * (n // 10) + [WHITE] * ((n % 10) // 5) + [GREEN] * (n % 5)
    return leds + [OFF] * (width - 1 - len(leds)) + [marker]


def count_leds(n, colour, width=WIDTH):
    return [colour] * n + [OFF] * (width - n)


def bar(place, players, width=WIDTH):
    colour = (GOLD, SILVER, BRONZE, LAST)[min(place, 4) - 1]
    lit = max(width * (players - place + 1) // players, 1)
    return [colour] * lit + [OFF] * (width - lit)


# --- fakes -----------------------------------------------------------------------


class FakeStorage:
    """hal/storage.Storage's methods in memory: append() takes 24-bit words
    and undo() appends an UNDO word that load() folds away; statuses 0 ok,
    1 none, 2 torn, 3 corrupt; `found` says no more (hal/journal.py lists
    what it found there)."""

    found = ()

    def __init__(self):
        self.header = None
        self.words = []
        self.registry = []
        self.status = None
        self.reg_status = 0
        self.firmware = 0  # what `make flash` wrote in firmware.id (0: none)

    def firmware_id(self):
        return self.firmware

    def new_match(self, header4, words=()):
        assert len(header4) == 4
        self.header = bytes(header4)
        self.words = list(words)

    def append(self, a):
        if not 0 <= a < 1 << 24:
            raise ValueError("not an action")
        self.words.append(a)

    def undo(self):
        self.words.append(UNDO_WORD)

    def load(self):
        actions = []
        for w in self.words:
            if w == UNDO_WORD:
                actions.pop()
            else:
                actions.append(w)
        status = self.status if self.status is not None else (0 if self.header else 1)
        return self.header, actions, status

    def clear(self):
        self.header = None
        self.words = []

    def save_registry(self, records):
        self.registry = unpack(records)

    def load_registry(self):
        return pack(self.registry), self.reg_status


class Config:
    seats = [0, 1, 2, 3, 4, 5]
    LEDS_PER_SEAT = WIDTH
    RING_LEDS = RING


REGISTRY = full_registry()


class Driver:
    """A table with fake storage and every item registered, and the hands of
    the players: it turns match actions into tags and button presses."""

    def __init__(self, seed=1, registry=None, storage=None):
        self.storage = FakeStorage() if storage is None else storage
        if storage is None:
            self.storage.registry = list(REGISTRY if registry is None else registry)
        self.lines = []
        self.table = Table(
            Config, self.storage, Rng(seed), lambda line: self.lines.append(line.text())
        )
        self.now = 0
        self.rng = random.Random(seed)

    @property
    def match(self):
        return self.table.match

    def advance(self, ms):
        self.now += ms
        self.table.tick(self.now)

    def press(self, seat, code):
        self.table.button(seat, code)

    def scan(self, reader, uid):
        self.table.reader_event(TAG_PLACED, reader, uid)
        self.table.reader_event(TAG_REMOVED, reader, None)

    def scan_item(self, reader, item, g=None):
        g = self.table.game if g is None else g
        self.scan(reader, uid_for(g, games.identity(g, item)))

    def start(self, game, seats, hands=0, rolls=0, variant=0, length=0):
        """Boot, then choose everything in the menu with the buttons."""
        self.table.boot()
        presses = {F_HANDS: hands, F_ROLLS: rolls, F_VARIANT: variant, F_LENGTH: length}
        choose_in_menu(self, self.table, game, seats, presses)
        assert self.table.mode == "play", self.lines[-3:]

    def player_actions(self):
        return hands.player_actions(self.table)

    def do(self, a):
        """Make action `a` with tags and buttons."""
        hands.make(self, self.table, a)

    def step(self, pick=None):
        """One player action (the table's own draws follow by themselves)."""
        self.advance(SCORE_MS + TRICK_MS)
        acts = self.player_actions()
        a = self.rng.choice(acts) if pick is None else pick(acts)
        n = len(self.match.journal)
        self.do(a)
        assert self.match.journal[n] == a, (hex(a), self.lines[-3:])
        return a

    def until(self, done, limit=3000):
        while not done() and limit:
            self.step()
            limit -= 1
        assert done()

    def leds(self, seat):
        return self.table.leds(seat)

    def journal_folds(self):
        """The storage journal, without the table's SEATS record, folds to the
        match the table holds."""
        header, actions, _ = self.storage.load()
        assert actions[0] == SEATS_RECORD | self.table._seat_mask()
        assert actions[1] == SEED_RECORD | self.table.seed
        m = registry.part(header[0], "match").new(header[1], header[2] | header[3] << 8)
        assert m.replay(actions[2:]) == -1
        assert snapshot(m) == snapshot(self.match)


def frozen(d):
    """What must not change when an input is refused."""
    return snapshot(d.match), list(d.match.journal), list(d.storage.words)


# --- the menu ---------------------------------------------------------------------


def test_boot_with_nothing_stored_shows_the_menu():
    d = Driver()
    d.table.boot()
    t = d.table
    assert t.mode == "menu" and t.match is None
    ring = d.leds(CENTRE)
    assert ring[0:2] == [(48, 16, 0)] * 2  # DTwww's sector lit
    assert ring[2:4] == [dim((0, 16, 48))] * 2  # Walzer's dim
    assert d.leds(0) == number_leds(1, (48, 16, 0))  # game 1, in its colour
    assert t.text[0] == "MENU" and t.text[1] == ">game: DTwww"
    d.press(0, PLUS)
    assert d.leds(CENTRE)[2:4] == [(0, 16, 48)] * 2 and d.leds(0) == number_leds(2, (0, 16, 48))
    d.press(0, MINUS)
    d.press(0, MINUS)  # wraps to provisioning
    assert t.menu.game == games.count() and ">game: provision tags" in t.text
    assert d.leds(0) == number_leds(6, (48, 8, 24))


def test_menu_seats_options_and_player_count():
    d = Driver()
    t = d.table
    t.boot()
    for _ in range(DTT):
        d.press(0, PLUS)
    d.press(0, OK)
    assert t.menu.field == F_SEATS
    d.press(2, OK)  # seat 2 joins
    assert d.leds(2) == [GREY] * WIDTH and d.leds(1) == [OFF] * WIDTH
    d.press(0, OK)  # d-TT needs 3 players
    assert t.menu.field == F_SEATS
    assert d.leds(0) == count_leds(OUT_OF_RANGE, RED)
    d.press(4, OK)
    d.press(4, OK)  # joins, leaves
    d.press(5, OK)
    d.press(0, OK)
    assert t.menu.field == F_HANDS  # d-TT: no rolls, no variant field
    assert [f for f in t.menu.fields()] == [0, F_SEATS, F_HANDS, F_LENGTH]
    d.press(0, PLUS)  # open play
    d.press(0, OK)
    d.press(0, PLUS)
    d.press(0, PLUS)  # 2 deals
    d.press(0, MINUS + LONG)  # back a field, and forward again
    assert t.menu.field == F_HANDS
    d.press(0, OK)
    d.press(0, OK)
    assert t.mode == "play" and t.game == DTT
    assert t.phys == [0, 2, 5]
    assert t.match.options == options(OPEN_PLAY, 2)
    assert d.storage.words[:2] == [SEATS_RECORD | 0b100101, SEED_RECORD | t.seed]
    assert d.storage.header == header(t.match)
    assert "new match: d-TT, seats 0 2 5" in "\n".join(d.lines)


def test_menu_seat_that_does_not_play_and_every_option():
    d = Driver()
    d.start(DTWWW, [1, 3], rolls=1, variant=1, length=2)
    t = d.table
    assert t.phys == [1, 3]
    assert t.match.options == options(TABLE_ROLLS | VARIANT, 2)
    assert d.leds(0) == [OFF] * WIDTH  # the menu seat is not in the match


# --- full matches from the menu ------------------------------------------------------


def check_trick(d):
    """Right after a trick: the winner's segment red, the next leader's blue."""
    m = d.match
    w = d.table.phys[m.last_winner]
    seats = [s for s in range(m.players) if m.waiting() == 1 << s]
    leader = d.table.phys[seats[0]] if seats else -1
    if w == leader:
        assert d.leds(w) == [WON] * 4 + [BLUE] * 4
    else:
        assert d.leds(w) == [WON] * WIDTH
        if leader >= 0:
            assert d.leds(leader) == [BLUE] * WIDTH
    d.advance(TRICK_MS)
    if leader >= 0 and d.table.score_show is None:
        assert d.leds(leader) == [WHITE] * WIDTH  # its turn to play


def check_scores(d, scored):
    m = d.match
    scores = m.history[-1]
    if m.over():
        return
    d.advance(TRICK_MS)
    for p in range(m.players):
        place = 1 + sum(1 for t in scores if t > scores[p])
        assert d.leds(d.table.phys[p]) == bar(place, m.players)
    d.press(d.table.lead, OK)  # the first press puts them away
    assert d.table.score_show is None and len(d.match.history) == scored


def play_through(d, on_play=None):
    m = d.match
    tricks = scored = 0
    while d.table.mode == "play":
        a = d.step()
        if kind_of(a) == PLAY and m.trick.count == 0:
            tricks += 1
            check_trick(d)
        if len(m.history) > scored:
            scored += 1
            check_scores(d, scored)
        if on_play is not None:
            on_play(d, a)
    return tricks, scored


def check_final(d):
    m = d.match
    t = d.table
    d.advance(TRICK_MS)
    assert t.mode == "over" and m.over()
    places = m.standings()
    for p in range(m.players):
        assert d.leds(t.phys[p]) == bar(places[p], m.players)
        assert "%d. seat %d: %d" % (places[p], t.phys[p], m.totals[p]) in t.text
    assert d.leds(CENTRE) == [GOLD] * RING
    assert any(line.startswith("final: ") for line in d.lines)
    d.journal_folds()


def test_a_full_dtwww_match_from_the_menu_driven_by_tags_and_buttons():
    d = Driver(seed=7)
    d.start(DTWWW, [0, 2, 3])
    t = d.table
    m = d.match
    assert m.players == 3 and m.options == 0 and t.phys == [0, 2, 3]
    # The deal: every seat scans its dice, nothing scanned yet.
    for s in (0, 2, 3):
        assert d.leds(s) == [DIM_CYAN] * WIDTH
    assert d.leds(1) == [OFF] * WIDTH
    # Seat 0 scans a red d8; its roll is entered with -/+ (1..8) and OK.
    red_d8 = dt.die(dt.RED, dt.D8, 0, 0)
    d.scan_item(0, red_d8)
    assert m.journal == [action(DEAL, 0, red_d8)]
    assert d.leds(0) == number_leds(1, ORANGE)
    for _ in range(6):
        d.press(0, PLUS)
    assert d.leds(0) == number_leds(7, ORANGE)  # a five and two ones
    d.press(0, PLUS)
    d.press(0, OK)
    assert m.journal[-1] == action(ROLL, 0, 8) and m.hand(0) == [red_d8 | 8]
    assert d.leds(0) == [CYAN] + [DIM_CYAN] * 7  # 1 of 9 dice scanned
    assert d.storage.load()[1][2:] == m.journal  # journalled as it happened
    # The rest of the match: every seat prompt, every trick and score checked.
    seen = {"play": 0}

    def on_play(d, a):
        if m.phase == dtwww_engine.PHASE_PLAY and t.trick_show is None:
            turn = t.phys[m.turn]
            assert d.leds(turn) == [WHITE] * WIDTH
            for p in range(3):
                if p != m.turn:
                    assert d.leds(t.phys[p]) == [IDLE] * WIDTH
            seen["play"] += 1
        if m.phase == dtwww_engine.PHASE_SCORE:
            p = seat_of(a) if seat_of(a) != TABLE else 0
            e = t.entries[p]
            if e is not None:
                n, _ = games.entry_view(DTWWW, m, e.current())
                assert d.leds(t.phys[p]) == number_leds(n, ORANGE)

    tricks, scored = play_through(d, on_play)
    assert tricks == 27 and scored == 3 and seen["play"] > 20
    check_final(d)
    d.press(2, OK)  # OK: back to the menu
    assert t.mode == "menu" and d.storage.header is None


def test_a_full_nokosu_match_from_the_menu_driven_by_tags_and_buttons():
    d = Driver(seed=3)
    d.start(NOKOSU, [1, 2, 4])
    t = d.table
    m = d.match
    # 3 players: the table drew the removed colour itself, journalled.
    assert kind_of(m.journal[0]) == CHOOSE and seat_of(m.journal[0]) == TABLE
    assert d.storage.load()[1] == [SEATS_RECORD | 0b10110, SEED_RECORD | t.seed, m.journal[0]]
    assert m.phase == nokosu_engine.DEALING
    for s in (1, 2, 4):
        assert d.leds(s) == [DIM_CYAN] * WIDTH
    checked = {"centre": 0, "entry": 0, "choice": 0, "draft": 0}

    def on_play(d, a):
        ins = t.inputs
        if m.phase == nokosu_engine.CENTRE and ins.centre:
            ring = d.leds(CENTRE)
            assert sorted(set(ring)) == sorted({CYAN, dim(CYAN)})
            assert ring.count(CYAN) == 1
            checked["centre"] += 1
        if ins.entry >= 0:  # the start player enters a centre roll
            assert ins.entry == m.start
            e = t.entries[m.start]
            assert seat_of(e.current()) == TABLE and kind_of(e.current()) == ROLL
            assert d.leds(t.phys[m.start]) == number_leds(value_of(e.current()), ORANGE)
            assert dim(ORANGE) in d.leds(CENTRE)
            checked["entry"] += 1
        if m.phase == nokosu_engine.PLAYING and not checked.get("trump"):
            d.advance(TRICK_MS)
            colour = (RED, BLUE, (40, 32, 0), GREEN, (20, 0, 48))[m.trump_colour]
            assert d.leds(CENTRE) == number_leds(m.trump_number, colour, RING)
            checked["trump"] = 1
        if m.phase == nokosu_engine.DRAFTING and t.trick_show is None:
            turn = t.phys[m.turn]
            assert d.leds(turn) == [LIME] * WIDTH
            checked["draft"] += 1
            zero = [x for x in ins.seats[m.turn] if kind_of(x) == ZERO_BID]
            if zero and not checked["choice"]:
                # a centre die with a zero bid possible: pick it or zero-bid
                die = value_of(zero[0])
                d.scan_item(turn, die)
                e = t.entries[m.turn]
                assert e.choice and [kind_of(x) for x in e.candidates] == [PICK, ZERO_BID]
                assert d.leds(turn)[-1] != GREY
                d.press(turn, PLUS)
                assert d.leds(turn) == [OFF] * 7 + [GREY]  # zero bid: bids 0
                d.press(turn, MINUS)
                d.press(turn, OK)
                assert m.journal[-1] == action(PICK, m.journal and seat_of(m.journal[-1]), die)
                checked["choice"] += 1

    tricks, scored = play_through(d, on_play)
    assert scored == 3 and tricks == 3 * m.tricks_per_round
    assert min(checked.values()) > 0, checked
    check_final(d)


@pytest.mark.parametrize(
    "game,seats,kw",
    [
        (WALZER, [0, 1, 2, 3], {}),
        (WALZER, [0, 1, 2], dict(hands=1)),
        (DICEFULL, [0, 3], {}),
        (DICEFULL, [0, 1, 2, 3, 4], dict(rolls=1, variant=1)),
        (DTT, [0, 1, 2], {}),
        (DTT, [1, 3, 5], dict(hands=1, length=1)),
        (DTWWW, [0, 1, 2, 3], dict(hands=1, rolls=1, variant=1, length=1)),
        (NOKOSU, [0, 1, 2, 3, 4], dict(rolls=1, length=2)),
        (NOKOSU, [0, 1, 2, 3], dict(hands=1)),
    ],
    ids=lambda v: str(v),
)
def test_every_game_plays_to_the_end_through_the_app(game, seats, kw):
    d = Driver(seed=11)
    d.start(game, seats, **kw)
    play_through(d)
    check_final(d)


# --- refusals --------------------------------------------------------------------------


def dealt_dtwww(seed=2):
    """A DTwww match, 3 players at seats 0-2, every hand scanned and rolled."""
    d = Driver(seed=seed)
    d.start(DTWWW, [0, 1, 2])
    d.until(lambda: d.match.phase == dtwww_engine.PHASE_PLAY)
    d.advance(SCORE_MS)
    return d


def refused(d, seat, code, why, do, after=None):
    """`do` is refused with `code`: the error pattern at `seat`, the reason
    logged, nothing changed in the match, its journal or storage."""
    before = frozen(d)
    prompt = d.leds(seat)
    do()
    assert frozen(d) == before
    colour = RED if code < 16 else PURPLE
    n = code if code < 16 else code - 16
    width = RING if seat == CENTRE else WIDTH
    if n <= width:
        assert d.leds(seat) == count_leds(n, colour, width)
    assert why in d.lines[-1] and "refused" in d.lines[-1]
    d.advance(fr.BLINK_MS)
    assert d.leds(seat) == [OFF] * width  # it blinks
    d.advance(ERROR_MS - fr.BLINK_MS)
    if seat != CENTRE:
        assert d.leds(seat) == (prompt if after is None else after)  # and then goes away


def test_every_refusal_shows_at_the_seat_and_changes_nothing():
    d = dealt_dtwww()
    m = d.match
    t = d.table
    turn = m.turn
    other = (turn + 1) % 3
    hand = m.hand(other)
    refused(d, other, OUT_OF_TURN, "out of turn", lambda: d.scan_item(other, hand[0]))
    refused(d, turn, NOT_IN_HAND, "not in hand", lambda: d.scan_item(turn, hand[0]))
    refused(d, turn, 16 + 1, "unknown tag", lambda: d.scan(turn, b"\x04\x99\x99\x99"))
    walzer_card = games.all_items(WALZER)[0]
    refused(
        d, turn, 16 + 2, "another game's tag", lambda: d.scan(turn, uid_for(WALZER, walzer_card))
    )
    refused(d, turn, 16 + 3, "two tags", lambda: t.reader_event(TWO_TAGS, turn, None))
    refused(d, CENTRE, 16 + 1, "unknown tag", lambda: d.scan(CENTRE, b"\x04\x99\x99\x98"))
    refused(d, other, OUT_OF_TURN, "out of turn", lambda: d.press(other, PLUS))
    # A reader fault: the error pattern, then a steady red last LED until it answers.
    refused(
        d,
        other,
        16 + 4,
        "reader fault",
        lambda: t.reader_event(READER_FAULT, other, None),
        after=[IDLE] * 7 + [RED],
    )
    t.reader_event(READER_OK, other, None)
    assert d.leds(other) == [IDLE] * WIDTH and "answers again" in d.lines[-1]
    # An illegal follow: play on until a seat holds a die it may not play.
    while True:
        p = m.turn
        legal = {value_of(a) for a in t.inputs.seats[p]}
        bad = [x for x in m.hand(p) if dt.play(x, dt.RED) not in legal and x not in legal]
        if m.trick.count and bad:
            break
        d.step()
        d.advance(SCORE_MS)
    p = m.turn
    refused(d, t.phys[p], ILLEGAL_PLAY, "illegal play", lambda: d.scan_item(t.phys[p], bad[0]))
    # The same item again: the die just played is put back on the reader.
    a = d.step()
    s = t.phys[seat_of(a)]
    d.advance(SCORE_MS)
    refused(d, s, ALREADY_PLACED, "already placed", lambda: d.scan_item(s, value_of(a)))


@pytest.mark.parametrize(
    "game,seats,kw",
    [
        (DTWWW, [0, 1, 2], dict(hands=1)),
        (WALZER, [0, 1, 2], {}),
        (DICEFULL, [0, 1], {}),
        (DTT, [0, 1, 2], {}),
        (NOKOSU, [0, 1, 2, 3], dict(rolls=1)),
    ],
    ids=lambda v: str(v),
)
def test_no_input_at_the_table_makes_a_malformed_word(game, seats, kw):
    """MALFORMED (refusal 10) never shows at a seat: every word the table asks
    an engine about is one it built itself (a kind the game has, a player or
    the table, a 16-bit item from the registry or a value from the engine's
    own lists).  Random tags of every game and random presses at every seat
    and the centre, between the players' actions, never make one."""
    d = Driver(seed=game + 20)
    d.start(game, seats, **kw)
    asked = []
    engine_refusal = d.match.refusal

    def refusal(a):
        asked.append(a)
        return engine_refusal(a)

    d.match.refusal = refusal
    codes = []
    show = d.table._refuse
    d.table._refuse = lambda seat, code, what="": (codes.append(code), show(seat, code, what))
    rng = random.Random(game)
    for _ in range(120):
        if d.table.mode != "play":
            break
        for _ in range(3):
            reader = rng.choice(list(range(7)) + [CENTRE])
            if rng.random() < 0.5:
                uid = rng.choice(REGISTRY)[0]
                d.scan(reader, uid)
            elif reader != CENTRE:
                d.press(reader, rng.choice([MINUS, PLUS, OK]))
        a = rng.choice(d.player_actions()) if d.table.mode == "play" else None
        if a is not None and games.is_item_kind(game, kind_of(a)):
            d.do(a)  # a scan: it replaces whatever the noise chose
    assert asked and codes
    assert not [a for a in asked if malformed(a)]
    assert MALFORMED not in codes


def test_value_entry_refuses_to_go_out_of_range_and_a_rescan_is_already_placed():
    d = Driver()
    d.start(DTWWW, [0, 1])
    m = d.match
    d4 = dt.die(dt.GREEN, dt.D4, 0, 1)
    d.scan_item(1, d4)
    refused(d, 1, OUT_OF_RANGE, "lowest", lambda: d.press(1, MINUS))
    for _ in range(3):
        d.press(1, PLUS)
    assert d.leds(1) == number_leds(4, ORANGE)
    refused(d, 1, OUT_OF_RANGE, "highest", lambda: d.press(1, PLUS))
    d.press(1, OK)
    assert m.journal == [action(DEAL, 1, d4), action(ROLL, 1, 4)]
    refused(d, 0, ALREADY_PLACED, "already placed", lambda: d.scan_item(0, d4))
    refused(d, 1, ALREADY_PLACED, "already placed", lambda: d.scan_item(1, d4))
    refused(d, 2, OUT_OF_TURN, "not in this match", lambda: d.scan_item(2, d4))
    # OK with nothing to confirm: this seat is asked for a scan.
    refused(d, 0, 2, "scan an item", lambda: d.press(0, OK))


def test_dicefull_pass_is_ok_at_the_seat_and_refused_before_any_pick():
    d = Driver()
    d.start(DICEFULL, [0, 1])
    m = d.match
    assert d.leds(0) == [LIME] * WIDTH  # pick; no pass yet
    refused(d, 0, ILLEGAL_PLAY, "pass", lambda: d.press(0, OK))
    d.do(m.legal_actions(0)[0])
    d.do(m.legal_actions(1)[0])
    assert d.leds(0) == [LIME] * 7 + [PINK]  # pick or pass
    d.press(0, OK)
    assert m.journal[-1] == action(PASS, 0, 0)


def test_a_white_die_is_declared_with_minus_plus_and_ok():
    d = dealt_dtwww(seed=5)
    m = d.match
    t = d.table
    for _ in range(400):
        p = m.turn
        whites = [a for a in t.inputs.seats[p] if dt.colour(value_of(a)) == dt.WHITE]
        if whites:
            break
        d.step()
        d.advance(SCORE_MS)
    seat = t.phys[p]
    d.scan_item(seat, value_of(whites[0]))
    e = t.entries[p]
    assert e.choice and len(e.candidates) == 3
    # The colour counted as well as shown (1 red, 2 blue, 3 green): red and
    # green are one colour to red-green-blind eyes.
    assert d.leds(seat) == number_leds(1, RED)  # declared red first
    d.press(seat, PLUS)
    assert d.leds(seat) == number_leds(2, BLUE)
    d.press(seat, PLUS)
    assert d.leds(seat) == number_leds(3, GREEN)
    d.press(seat, MINUS)
    d.press(seat, OK)
    assert dt.effective_colour(value_of(m.journal[-1])) == dt.BLUE


# --- undo ----------------------------------------------------------------------------------


def test_undo_takes_back_the_last_action_and_the_journal_says_so():
    d = Driver()
    d.start(DTWWW, [0, 1, 2], rolls=1)
    m = d.match
    t = d.table
    start = frozen(d)
    d.press(1, MINUS + LONG)
    assert frozen(d) == start and "nothing to undo" in d.lines[-1]
    d.step()
    before = (snapshot(m), list(m.journal))
    d.scan_item(0, dt.die(dt.BLUE, dt.D12, 0, 0))  # the table rolls it at once
    assert [kind_of(a) for a in m.journal[-2:]] == [DEAL, ROLL]
    rolled = value_of(m.journal[-1])
    assert d.leds(0) == number_leds(rolled, ORANGE)  # the roll shows at the seat a while
    d.advance(TRICK_MS)
    assert d.leds(0)[0] == CYAN
    d.press(2, MINUS + LONG)  # any seat may undo
    assert (snapshot(m), list(m.journal)) == before  # the scan and the table's roll
    assert d.storage.words[-2:] == [UNDO_WORD, UNDO_WORD]
    assert "undo" in d.lines[-1]
    d.journal_folds()
    # After a reboot the match is where the undo left it.
    t2 = Table(Config, d.storage, Rng(3), lambda line: None)
    t2.boot()
    assert snapshot(t2.match) == snapshot(m) and t2.phys == t.phys


def test_after_a_power_up_undo_still_takes_back_the_tables_draws_with_the_action(monkeypatch):
    d = Driver()
    d.start(DTWWW, [0, 1, 2], rolls=1)
    d.step()
    d.scan_item(0, dt.die(dt.BLUE, dt.D12, 0, 0))  # a scan and the table's roll
    before_scan = list(d.match.journal[:-2])
    t2 = Table(Config, d.storage, Rng(3), lambda line: None)
    t2.boot()
    folds = []
    undo = type(t2.match).undo
    monkeypatch.setattr(type(t2.match), "undo", lambda m, n=1: folds.append(n) or undo(m, n))
    t2.button(2, MINUS + LONG)
    assert t2.match.journal == before_scan and folds == [2]  # both, in one fold
    assert d.storage.words[-2:] == [UNDO_WORD, UNDO_WORD]


def test_undo_of_an_entered_roll_reopens_the_entry_and_the_last_action_of_a_match():
    d = Driver()
    d.start(DTWWW, [0, 1], length=1)
    m = d.match
    t = d.table
    d8 = dt.die(dt.RED, dt.D8, 0, 0)
    d.scan_item(0, d8)
    d.press(0, PLUS)
    d.press(0, OK)
    d.press(0, MINUS + LONG)
    assert m.journal == [action(DEAL, 0, d8)]
    assert t.entries[0] is not None and d.leds(0) == number_leds(1, ORANGE)
    d.press(0, OK)
    d.until(lambda: t.mode == "over")
    last = m.journal[-1]
    n = len(m.journal)
    d.press(0, MINUS + LONG)
    assert t.mode == "play" and len(m.journal) == n - 1
    d.do(last)
    assert t.mode == "over"


def test_nothing_to_undo_when_only_the_table_has_drawn():
    d = Driver()
    d.start(NOKOSU, [0, 1, 2])
    m = d.match
    assert len(m.journal) == 1  # the removed colour
    before = frozen(d)
    d.press(0, MINUS + LONG)
    assert frozen(d) == before and "nothing to undo" in d.lines[-1]
    # code 9 (nothing to undo) does not fit 8 LEDs as a count: a five and four ones, in red
    assert NOTHING_TO_UNDO == 9
    assert d.leds(0) == [WHITE] + [RED] * 4 + [OFF] * 2 + [RED]


def test_abandon_asks_first():
    d = Driver()
    d.start(WALZER, [0, 1, 2])
    d.step()
    d.press(0, OK + LONG)
    assert d.leds(0) == [PINK] * WIDTH
    d.press(1, OK)  # any other button: keep playing
    assert d.table.mode == "play" and "cancelled" in d.lines[-1]
    d.press(0, OK + LONG)
    d.press(0, OK)
    assert d.table.mode == "menu" and d.storage.header is None


# --- provisioning ---------------------------------------------------------------------------


def test_provisioning_registers_tags_saves_and_exports():
    d = Driver(registry=[])
    t = d.table
    t.boot()
    d.press(0, MINUS)  # the game field wraps to provision
    d.press(0, OK)
    assert t.mode == "provision"
    ring = d.leds(CENTRE)
    assert ring.count(WHITE) == 1 and ring.count(dim(WHITE)) == RING - 1
    d.press(0, PLUS)  # no tag yet
    assert "put a tag" in d.lines[-1]
    d.advance(ERROR_MS)
    tag = b"\x04\x10\x20\x30"
    d.scan(3, tag)
    assert d.leds(3) == number_leds(1, (48, 16, 0))  # game 1: DTwww
    d.press(3, PLUS)  # Walzer
    d.press(3, OK)
    first, second = games.all_items(WALZER)[:2]
    assert "item 1 of 36: red 1" in d.lines[-1]
    assert d.leds(3) == number_leds(1, RED)  # red card 1
    d.press(3, PLUS)
    assert "red 2" in d.lines[-1] and d.leds(3) == number_leds(2, RED)
    d.press(3, OK)
    assert d.storage.registry == [(tag, WALZER, second)]
    assert "registered tag 04102030 as Walzer red 2" in d.lines[-1]
    # The next tag: red 2 is taken, so the first free item is red 1.
    tag2 = bytes([0x04, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x01])
    d.scan(CENTRE, tag2)  # shown at the menu seat
    d.press(0, OK)  # Walzer again
    assert t.provision.items[0] == first and second not in t.provision.items
    d.press(0, OK)
    assert t.export_registry() == [
        "uid_hex,game,item",
        "04aabbccddee01,walzer,%d" % first,
        "04102030,walzer,%d" % second,
    ]
    # A registered tag registered again replaces what it was.
    d.scan(3, tag)
    assert "is Walzer red 2" in d.lines[-1]
    d.press(3, OK)
    assert t.provision.items[t.provision.index] == second
    d.press(3, PLUS)
    d.press(3, OK)
    assert Registry.lookup(t.registry, tag) == (WALZER, games.all_items(WALZER)[2])
    d.press(0, OK + LONG)
    assert t.mode == "menu"
    # The registered tags play: a Walzer deal scan at seat 1.
    d.press(0, PLUS)  # provision -> DTwww -> Walzer
    d.press(0, PLUS)
    d.press(0, OK)
    for s in (1, 2):
        d.press(s, OK)
    d.press(0, OK)
    d.press(0, OK)
    d.press(0, OK)
    assert t.mode == "play"
    d.scan(1, tag)
    assert d.match.journal == [action(DEAL, 1, games.all_items(WALZER)[2])]


def test_provisioning_refuses_a_game_with_every_item_registered():
    d = Driver(registry=[e for e in REGISTRY if e[1] == DTT])
    t = d.table
    t.boot()
    d.press(0, MINUS)
    d.press(0, OK)
    d.scan(0, b"\x04\x01\x02\x03")
    for _ in range(DTT):
        d.press(0, PLUS)
    d.press(0, OK)
    assert "every d-TT item has a tag" in d.lines[-1]
    assert d.leds(0) == count_leds(ALREADY_PLACED, RED)


def test_game_facts_agree_with_the_engines():
    for g in range(len(GAMES)):
        cls = type(registry.part(g, "match").new(3, 0))
        assert games.players(g) == (cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        items = games.all_items(g)
        assert len(set(items)) == len(items)
        assert all(games.identity(g, i) == i for i in items)
    assert [len(games.all_items(registry.number(k))) for k in PINNED] == [42, 36, 16, 40, 67]


def test_the_menu_offers_exactly_what_the_engines_take():
    """games.OPTIONS and the menu's length field agree with every engine's
    OPTIONS and MAX_COUNT, and every choice the menu can make is a header the
    engine takes (games.header_refusal): the menu never offers a refusal."""
    from itertools import product

    from dicetable.app import menu as menu_mod

    assert max(games.longest(g) for g in range(games.count())) == LONGEST
    for g, name in enumerate(GAMES):
        cls = type(registry.part(g, "match").new(games.players(g)[0], 0))
        assert games.options(g) == cls.OPTIONS | registry.COUNT
        assert cls.MAX_COUNT == games.longest(g)
        low, high = games.players(g)
        m = menu_mod.Menu([0, 1, 2, 3, 4, 5, 6])
        m.game = g
        flags = [f for f in m.fields() if f in (F_HANDS, F_ROLLS, F_VARIANT)]
        assert F_LENGTH in m.fields()
        for values in product((0, 1), repeat=len(flags)):
            for length in range(games.longest(g) + 1):
                for f, v in zip(flags, values, strict=True):
                    m.values[f] = v
                m.values[F_LENGTH] = length
                for players in range(8):
                    m.joined = list(range(players))
                    why = header_refusal(name, players, m.options())
                    assert (why is None) == m._players_ok(), (name, players, m.options(), why)
        # one past the menu's range is the engine's to refuse
        assert header_refusal(name, low, options(0, cls.MAX_COUNT + 1)) is not None
        assert header_refusal(name, high, cls.OPTIONS) is None


def test_registry_export_hex_and_load_validation():
    r = Registry()
    bad = r.load(
        [(b"\x04\x01\x02\x03", 0, 5), (b"", 0, 6), (b"\x04\x09", 9, 1), (b"\x04\x05\x06\x07", 0, 5)]
    )
    assert bad == 3 and len(r) == 1
    assert uid_hex(b"\x00\xff\x10") == "00ff10"
    assert r.export_csv() == ["uid_hex,game,item", "04010203,dtwww,5"]


# --- boot ----------------------------------------------------------------------------------


def half_played(game=DTWWW, seats=(0, 2, 3), steps=60, **kw):
    d = Driver(seed=4)
    d.start(game, list(seats), **kw)
    for _ in range(steps):
        d.step()
    return d


def reboot(d, seed=9):
    lines = []
    t = Table(Config, d.storage, Rng(seed), lambda line: lines.append(line.text()))
    t.boot()
    return t, lines


def test_boot_resumes_the_match_at_its_last_committed_action():
    d = half_played()
    t, lines = reboot(d)
    assert t.mode == "play" and t.game == DTWWW and t.phys == [0, 2, 3]
    assert snapshot(t.match) == snapshot(d.match)
    assert "resumed DTwww at action %d" % len(d.match.journal) in lines
    assert t.frame == d.table.frame or t.inputs.seats == d.table.inputs.seats


def asked_of_the_engine(monkeypatch):
    """The records each later power-up asks the Nokosu engine's refusal() about."""
    asked = []
    refusal = nokosu_engine.NokosuMatch.refusal

    def counted(m, a):
        asked.append(a)
        return refusal(m, a)

    monkeypatch.setattr(nokosu_engine.NokosuMatch, "refusal", counted)
    return asked


def drawn_bits(t, n):
    """Which of the journal's first n actions table t knows as its own draws."""
    return [t._drawn[i >> 3] >> (i & 7) & 1 for i in range(n)]


def flashed_and_half_played(firmware_id, game=NOKOSU, seats=(0, 1, 2)):
    # A board `make flash` gave an id; the table read it at its power-up.
    d = Driver(seed=4)
    d.storage.firmware = firmware_id
    d.start(game, list(seats))
    for _ in range(60):
        d.step()
    return d


def test_a_journal_this_firmware_wrote_resumes_without_asking_the_engine_again(monkeypatch):
    d = flashed_and_half_played(0x5A17E)
    words = d.storage.load()[1]
    assert FIRMWARE_RECORD | 0x5A17E in words[:4]  # after SEATS and SEED
    asked = asked_of_the_engine(monkeypatch)
    t, lines = reboot(d)
    assert asked == []  # every record was accepted by this very engine when it came
    assert snapshot(t.match) == snapshot(d.match) and t.match.journal == d.match.journal
    n = len(d.match.journal)
    assert drawn_bits(t, n) == drawn_bits(d.table, n)  # the table's own draws known as before
    assert any(drawn_bits(t, n))
    assert "resumed Nokosu at action %d" % len(d.match.journal) in lines


@pytest.mark.parametrize("now", [0x00001, 0], ids=["flashed-again", "no-id-file"])
def test_a_journal_another_firmware_wrote_is_folded_checked(monkeypatch, now):
    d = flashed_and_half_played(0x5A17E)
    d.storage.firmware = now  # make flash drew a new id (or the file is gone)
    asked = asked_of_the_engine(monkeypatch)
    t, lines = reboot(d)
    assert asked == d.match.journal  # each record asked, in order
    assert snapshot(t.match) == snapshot(d.match)
    assert "resumed Nokosu at action %d" % len(d.match.journal) in lines


def test_boot_drops_a_torn_tail_and_says_so():
    d = half_played(game=NOKOSU, seats=(0, 1, 2))
    actions = d.storage.load()[1]
    d.storage.words = d.storage.words[:-1]  # the record being written is lost
    d.storage.status = 2
    t, lines = reboot(d)
    assert any("torn" in line for line in lines)
    kept = actions[2:-1]
    assert t.match.journal[: len(kept)] == kept
    assert all(seat_of(a) == TABLE for a in t.match.journal[len(kept) :])  # the table's draws


def test_boot_with_a_corrupt_journal_resumes_what_it_read():
    d = half_played()
    d.storage.status = 3
    d.storage.found = [(5, 2, 7, 0)]  # LOST: damage in segment 2, 7 records from it on
    t, lines = reboot(d)
    assert t.mode == "play" and snapshot(t.match) == snapshot(d.match)
    n = len(d.match.journal)
    assert "journal corrupt at segment 2: resumed at action %d of %d, 7 lost" % (n, n + 7) in lines


def test_boot_with_a_corrupt_registry_carries_on_with_an_empty_one():
    d = half_played()
    d.storage.reg_status = 3
    t, lines = reboot(d)
    assert len(t.registry) == 0 and any("registry corrupt" in line for line in lines)
    assert t.mode == "play"  # the match still resumes
    seat = t.phys[[p for p in range(3) if t.inputs.seats[p]][0]]
    t.reader_event(TAG_PLACED, seat, REGISTRY[0][0])
    assert "unknown tag" in lines[-1]


def test_boot_stops_at_a_record_the_engine_refuses_and_rewrites_the_journal():
    d = half_played()
    good = d.storage.load()[1]
    d.storage.words.insert(10, action(PLAY, 1, 5))  # a record that cannot be
    t, lines = reboot(d)
    assert any("refused" in line and "resumed before it" in line for line in lines)
    assert t.match.journal == good[2:10]
    assert d.storage.load()[1] == good[:10]  # rewritten: later appends follow good ones


@pytest.mark.parametrize(
    "spoil",
    [
        lambda a: a | 1 << 19,  # seat + 8: once read as the seat below, and journalled
        lambda a: a | 1 << 24,  # past the 24 bits of a word
        lambda a: a & 0xFFFFF,  # kind 0
        lambda a: a & 0xFFFFF | 13 << 20,  # kind 13: no game has it
        lambda a: a & 0xFFFFF | 15 << 20,  # the table's SEATS record: only before the first action
        lambda a: a & 0xFFFFF | 14 << 20,  # the table's SEED record: likewise
    ],
    ids=["seat-8", "bit-24", "kind-0", "kind-13", "late-seats", "late-seed"],
)
def test_boot_stops_at_a_malformed_record_and_keeps_everything_before_it(spoil):
    d = half_played()
    good = d.storage.load()[1]
    bad = spoil(good[12])
    d.storage.words[12] = bad
    t, lines = reboot(d)
    assert "journal record 12 (%#x) refused: malformed action; resumed before it" % bad in lines
    assert t.mode == "play" and t.match.journal == good[2:12]
    assert d.storage.load()[1] == good[:12]  # rewritten: later appends follow good ones


def test_boot_over_a_finished_match_shows_the_standings():
    d = Driver(seed=2)
    d.start(DICEFULL, [0, 1], length=1)
    d.until(lambda: d.table.mode == "over")
    t, _ = reboot(d)
    assert t.mode == "over"
    for p in range(2):
        assert t.leds(p) == bar(t.match.standings()[p], 2)


@pytest.mark.slow
def test_the_real_storage_on_virtual_flash_survives_a_power_cut_at_every_byte():
    """hal/storage.py over flashmodel/vflash.py: a short match through the app
    (table rolls, then an undo of a scan and its roll) with the power cut
    after every byte; after the reboot the table resumes at a state it had
    shown, or one action (and the table's roll) further."""
    storage_mod = pytest.importorskip("hal.storage")
    vflash = pytest.importorskip("flashmodel.vflash")

    def session(flash, cut):
        d = Driver(storage=storage_mod.Storage(flash))
        d.storage.save_registry(pack(REGISTRY[:42]))  # the DTwww dice
        start = flash.written
        if cut is not None:
            flash.cut_after(cut)
        shown = [[]]
        try:
            d.start(DTWWW, [0, 1], rolls=1)
            for _ in range(6):
                d.step()
                shown.append(list(d.match.journal))
            d.press(0, MINUS + LONG)
            shown.append(list(d.match.journal))
        except vflash.PowerLost:
            pass
        return d, shown, flash.written - start

    full, everything, total = session(vflash.VFlash(), None)
    assert everything[-1] == everything[-3]  # the undo took back a scan and its roll
    for cut in range(total + 1):
        flash = vflash.VFlash()
        d, shown, _ = session(flash, cut)
        t = Table(Config, storage_mod.Storage(flash.reboot()), Rng(1), lambda line: None)
        t.boot()
        journal = [] if t.match is None else list(t.match.journal)
        assert journal in shown or (
            journal[: len(shown[-1])] == shown[-1] and len(journal) <= len(shown[-1]) + 2
        ), cut
        if t.match is not None:
            assert t.phys == [0, 1] and t.mode == "play"


# --- frames, text, time ---------------------------------------------------------------------


def colours(buf):
    """The (r, g, b) of every LED of a frame (its bytes in frames.ORDER)."""
    r, g, b = fr.ORDER
    return [(buf[i + r], buf[i + g], buf[i + b]) for i in range(0, len(buf), 3)]


def test_numbers_on_short_segments_fall_back_to_binary():
    buf = bytearray(3 * 5)
    fr.number(buf, 0, 5, 3, PINK)
    assert colours(buf)[:3] == [GREEN] * 3
    fr.number(buf, 0, 5, 11, PINK)  # ten + one
    assert colours(buf)[:2] == [BLUE, GREEN]
    fr.number(buf, 0, 5, 14, PINK)  # 1 + 1 + 4 > 4 LEDs: binary 1110
    assert colours(buf)[:4] == [OFF] + [(20, 0, 48)] * 3
    fr.number(buf, 0, 5, -2, ORANGE)
    assert colours(buf)[4] == PINK  # negative: pink marker


def test_a_frame_holds_each_led_in_the_chains_byte_order():
    buf = bytearray(6)
    fr.put(buf, 0, (1, 2, 3))
    fr.fill(buf, 1, 1, (4, 5, 6))
    assert fr.ORDER == (1, 0, 2) and buf == bytes((2, 1, 3, 5, 4, 6))  # WS2812B: G, R, B


def test_frame_version_moves_only_when_the_frame_changes():
    d = Driver()
    d.start(DTT, [0, 1, 2])
    t = d.table
    v = t.frame_version
    d.advance(fr.CHASE_MS)  # the ring's chase moves
    assert t.frame_version == v + 1
    t.tick(d.now + 1)
    assert t.frame_version == v + 1  # nothing changed
    assert ticks_diff(5, 0x3FFFFFFF) == 6  # ticks wrap


def test_the_text_display_says_whose_input_is_awaited():
    d = Driver()
    d.start(DTT, [0, 1, 2])
    assert d.table.text[0] == "d-TT deal 1" and "centre: scan" in d.table.text


def test_the_readers_awaited_are_those_asked_for_an_item():
    d = Driver()
    t = d.table
    t.boot()
    assert t.mode == "menu" and t.awaited_readers() == 0  # tags mean nothing here
    d.start(DTT, [0, 1, 2])
    assert t.awaited_readers() == 1 << CENTRE  # four cards turned up
    d.until(lambda: t.match.phase == dtt_engine.PLAYING)
    p = [q for q in range(3) if t.inputs.item_kind(q)][0]
    assert t.awaited_readers() == 1 << t.phys[p]  # the seat to play

    provisioning = Driver(registry=[])
    provisioning.table.boot()
    provisioning.press(0, MINUS)  # the game field wraps to provision
    provisioning.press(0, OK)
    assert provisioning.table.awaited_readers() == (1 << (CENTRE + 1)) - 1  # any reader


# --- portable ------------------------------------------------------------------------------


def test_rng_is_deterministic_and_in_range():
    a, b = Rng(42), Rng(42)
    draws = [a.randrange(6) for _ in range(600)]
    assert draws == [b.randrange(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert Rng(0).randrange(1) == 0


def test_the_tables_draw_is_the_seeded_rng_in_small_ints_and_allocates_nothing():
    # A journal resumed on a board updated to this draw gets the values its
    # players saw: the same as the Rng it replaces, for any seed, position and n.
    pick = random.Random(3)
    cases = [
        (pick.randrange(1 << 20), pick.randrange(4000), pick.choice((1, 2, 6, 20, 22, 8191)))
        for _ in range(3000)
    ] + [(0, 0, 6), ((1 << 20) - 1, 3999, 7)]
    for seed, pos, n in cases:
        rng = Rng((seed << 12) ^ (pos * 0x9E3779B1) ^ 0x5BD1E995)
        for _ in range(4):
            rng.next32()
        assert draw(seed, pos, n) == rng.randrange(n)
    out = mpy_wasm.run(
        "import gc\nfrom dicetable.app.rng import draw\npos = before = draw(1, 1, 6)\n"
        "#: next run\nbefore = gc.mem_alloc()\nwhile pos < 500:\n    draw(0xFFFFF, pos, 20)\n"
        "    pos += 1\nprint(gc.mem_alloc() - before)"
    )
    assert out.split() == ["0"]


@pytest.mark.parametrize("path", APP, ids=lambda p: p.name)
def test_the_app_is_in_the_portable_subset(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, float)), path
        assert not (isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div))
        assert not (isinstance(node, ast.JoinedStr)), "f-string in %s" % path.name
        if isinstance(node, ast.Import):
            # sys: the table forgets the menu's module while a match runs
            assert all(
                a.name.split(".")[0] in ("micropython", "dicetable", "sys") for a in node.names
            )
        if isinstance(node, ast.ImportFrom):
            # struct: built into every MicroPython port (app/line.py copies text with it)
            assert node.module.split(".")[0] in ("micropython", "dicetable", "struct")


SESSION = r'''
from dicetable.app.registry import pack
from dicetable.app.table import Table
from dicetable.app.rng import Rng
from dicetable.app import games
from dicetable.app.events import TAG_PLACED, CENTRE, PLUS, OK
from dicetable.match.actions import TABLE, PASS, kind_of, seat_of, value_of


class Store:
    found = ()

    def __init__(self):
        self.header = None
        self.words = []
        self.registry = []

    def new_match(self, h, words=()):
        self.header = bytes(h)
        self.words = list(words)

    def append(self, a):
        self.words.append(a)

    def undo(self):
        self.words.append(0x1000000)

    def load(self):
        return self.header, [], 1

    def clear(self):
        self.header = None

    def save_registry(self, records):
        self.registry = bytearray(records)

    def load_registry(self):
        return bytearray(self.registry), 0

    def firmware_id(self):
        return 0


class Config:
    seats = [0, 1, 2, 3]
    LEDS_PER_SEAT = 8
    RING_LEDS = 12


class Session:
    """One match played step by step (MicroPython runs each step in a part
    of its own: its test build collects garbage only between parts)."""

    def __init__(self, game, presses):
        self.game = game
        self.store = store = Store()
        store.registry = pack([(bytes([4, game, item >> 8, item & 255]), game, item)
                               for item in games.all_items(game)])
        self.t = t = Table(Config, store, Rng(5), lambda line: None)
        t.boot()
        self.pick = Rng(11)
        for seat, code in presses:
            t.button(seat, code)
        self.now = 0

    def step(self):
        t = self.t
        game = self.game
        if t.mode != "play":
            return False
        self.now += 10000
        t.tick(self.now)
        ins = t.inputs
        acts = []
        for p in range(len(ins.seats)):
            acts.extend(ins.seats[p])
        acts.extend(ins.centre)
        a = acts[self.pick.randrange(len(acts))]
        k, s, v = kind_of(a), seat_of(a), value_of(a)
        if games.is_item_kind(game, k):
            r = CENTRE if s == TABLE else t.phys[s]
            ident = games.identity(game, v)
            t.reader_event(TAG_PLACED, r, bytes([4, game, ident >> 8, ident & 255]))
            p = -1 if r == CENTRE else t.player[r]
            e = t.entries[p] if p >= 0 else None
            if e is None or not e.choice:
                return True
        elif k == PASS:
            t.button(t.phys[s], OK)
            return True
        p = s if s != TABLE else games.table_entry_seat(game, t.match)
        e = t.entries[p]
        while e.candidates[e.index] != a:
            t.button(t.phys[p], PLUS)
        t.button(t.phys[p], OK)
        return True

    def finish(self):
        t = self.t
        print(self.game, t.mode, len(t.match.journal), t.match.totals, t.frame_version)
        print("".join(["%02x" % b for b in t.frame]))
        print(self.store.words, t.text)


MATCHES = [
    (0, [(0, OK), (1, OK), (2, OK), (0, OK), (0, OK), (0, OK), (0, OK), (0, OK)]),
    (4, [(0, PLUS), (0, PLUS), (0, PLUS), (0, PLUS), (0, OK), (1, OK), (2, OK), (0, OK),
         (0, OK), (0, OK), (0, OK)]),
    (2, [(0, PLUS), (0, PLUS), (0, OK), (1, OK), (0, OK), (0, PLUS), (0, OK), (0, OK),
         (0, OK)]),
]
'''


@pytest.mark.slow
def test_the_app_runs_the_same_on_micropython(capsys):
    space = {"__name__": "session"}
    exec(compile(SESSION, "session", "exec"), space)
    script = [SESSION]
    for i, (game, presses) in enumerate(space["MATCHES"]):
        session = space["Session"](game, presses)
        steps = 0
        while session.step():
            steps += 1
        session.finish()
        script.append("S = Session(*MATCHES[%d])" % i)
        script += ["S.step()"] * steps
        script.append("S.finish()")
    expected = capsys.readouterr().out
    assert expected.count(" over ") == 3
    assert mpy_wasm.run(mpy_wasm.parts(script)) == expected


def test_a_length_past_the_next_games_longest_is_cut_to_it_when_the_game_changes():
    """Dicefull takes 12 challenges, Nokosu (two steps on) 5 rounds: the menu
    never holds a length the game it shows would refuse."""
    from dicetable.app import menu as menu_mod

    m = menu_mod.Menu([0, 1, 2, 3, 4, 5, 6])
    m.game = registry.number("dicefull")
    m.values[F_LENGTH] = 12
    m.button(0, PLUS)  # the game field: d-TT
    assert m.game == registry.number("dtt") and m.values[F_LENGTH] == 6
    m.button(0, PLUS)  # Nokosu
    assert m.game == registry.number("nokosu") and m.values[F_LENGTH] == 5
    m.joined = [0, 1, 2, 3, 4]
    assert header_refusal("nokosu", 5, m.options()) is None


RESUME_BY_ID = r"""
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from dicetable.games.nokosu.match import NokosuMatch
from hal.storage import Storage
from flashmodel.norflash import NorFlash
from flashmodel.vflash import VFlash


class Config:
    seats = [0, 1, 2, 3, 4]
    LEDS_PER_SEAT = 8
    RING_LEDS = 12


ASKED = [0]
refusal = NokosuMatch.refusal


def counted(m, a):
    ASKED[0] += 1
    return refusal(m, a)


def resume(written_by):
    global flash
    st = Storage(flash)
    st.prepare()
    st.new_match(HEADER, [0xF0001F, 0xE00001, 0xC00000 | written_by])
    for a in actions:
        st.append(a)
    ASKED[0] = 0
    flash = flash.reboot()
    t = Table(Config, Storage(flash), Rng(1), lambda line: None)
    t.boot()
    print("written by %05x: asked %d, at %d, same %s"
          % (written_by, ASKED[0], len(t.match.journal), t.match.journal == actions))


NokosuMatch.refusal = counted
flash = VFlash(raw=NorFlash(16))
#: next run
for text in (b"", b"not hex\n", b"\xff\xfe\n", b"5a17e\n"):
    f = flash.open("firmware.id", "wb")
    f.write(text)
    f.close()
    print("id", Storage(flash).firmware_id())
#: next run
resume(0x5A17E)
#: next run
resume(0x00001)
"""


@pytest.mark.slow
def test_the_firmware_id_and_the_unchecked_fold_on_micropython(capsys):
    # The same on CPython and on MicroPython with the Pico's heap: the id read
    # from firmware.id, and a journal of this id folded without the engine.
    m = play("nokosu", 5, 2, ["heuristic"] * 5, 3)
    source = "HEADER = %r\nactions = %r\n" % (header(m), m.journal[:120]) + RESUME_BY_ID
    exec(compile(source, "resume", "exec"), {"__name__": "resume"})
    expected = capsys.readouterr().out
    assert expected.split("\n")[:4] == ["id 0", "id 0", "id 0", "id %d" % 0x5A17E]
    assert "written by 5a17e: asked 0, at 120, same True" in expected
    assert "written by 00001: asked 120, at 120, same True" in expected
    assert mpy_wasm.run(source) == expected
