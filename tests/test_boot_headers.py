"""The table always boots, whatever header the journal on flash has.

On the virtual table (sim/hw: the board's own storage on virtual flash), a
journal is written with every game x every player count 0-255 x no option
and every single option bit (0-15), plus seeded random option words and game
numbers past the games; then the table powers up (a fresh Storage and Table
over that flash, as after a power cycle).  Every header the game's engine
takes (games.header_refusal() says None) resumes at its first action; every
header it refuses boots to the menu after one log line that says why (the
engine's own line), and the journal stays on flash as it was: nothing is
deleted until a player starts a new match, which a sample of refused
headers then does with the buttons.  A sample of refused headers boots the
same under MicroPython with the Pico's heap.
"""

import random

import pytest
from every_game import match_source, match_sources, rules_sources

from dicetable import games as registry
from dicetable.app import games
from dicetable.app.events import CENTRE, OK
from dicetable.app.rng import Rng
from dicetable.app.table import SEATS_RECORD, SEED_RECORD, Table
from dicetable.games import GAMES, header_refusal, journal_header_refusal
from hal.storage import Storage
from sim import mpy_wasm
from sim.hw import hands
from sim.hw.rig import Config, VirtualTable

SEATS = (0, 1, 2, 3, 4)
SEED = 0x1234
RANDOM_WORDS = 700  # random option words per game (and as many game numbers past 4)
SINGLE_OPTIONS = [0] + [1 << bit for bit in range(16)]


def header(g, players, opts):
    return bytes((g, players, opts & 0xFF, opts >> 8))


def words_for(players):
    return (SEATS_RECORD | (1 << min(players, len(SEATS))) - 1, SEED_RECORD | SEED)


class Rig:
    """One virtual table whose flash is rewritten for every boot: the journal
    is written by the board's own storage, then a fresh Storage and Table
    over the same flash power up."""

    def __init__(self):
        self.vt = VirtualTable(seats=SEATS)
        self.vt.boot()
        self.config = Config(list(SEATS), 8, 16)
        self.lines = []

    def boot(self, head, words):
        self.vt.storage.new_match(head, words)
        self.lines = []
        storage = Storage(self.vt.flash, segments=4)
        table = Table(self.config, storage, Rng(7), lambda line: self.lines.append(line.text()))
        table.boot()
        return table, storage


@pytest.fixture(scope="module")
def rig():
    return Rig()


def check_boot(rig, g, players, opts):
    head = header(g, players, opts)
    words = words_for(players)
    why = journal_header_refusal(head)
    if g < len(GAMES):
        assert why == header_refusal(GAMES[g], players, opts)
    table, storage = rig.boot(head, words)
    if why is None:
        assert table.mode in ("play", "over"), (head, rig.lines)
        assert "resumed %s at action 0" % games.title(g) in rig.lines, rig.lines
        m = table.match
        assert (m.GAME, m.players, m.options) == (GAMES[g], players, opts)
        assert table.phys == list(SEATS[:players])
    else:
        assert table.mode == "menu" and table.match is None, (head, rig.lines)
        assert rig.lines[-2:] == [
            "journal not resumed: %s; choose a new match" % why,
            "menu: choose the game with -/+ and OK at seat 0",
        ], rig.lines
        # Nothing deleted: the journal on flash is as it was written.
        assert storage.load() == (head, list(words), 0)
    return why


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_player_count_and_single_option_bit_boots(rig, game):
    g = GAMES.index(game)
    taken = 0
    for players in range(256):
        for opts in SINGLE_OPTIONS:
            taken += check_boot(rig, g, players, opts) is None
    cls = registry.part(g, "match").MATCH
    reads = bin(cls.OPTIONS).count("1")
    counts = cls.MAX_PLAYERS - cls.MIN_PLAYERS + 1
    # no option, the flags it reads and the single length bits up to its longest
    # (lengths 1, 2, 4, 8 of bits 8-11)
    lengths = len([bit for bit in range(8, 16) if 1 << (bit - 8) <= cls.MAX_COUNT])
    assert taken == counts * (1 + reads + lengths)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_random_option_words_boot(rig, game):
    g = GAMES.index(game)
    cls = registry.part(g, "match").MATCH
    rng = random.Random("boot-%s" % game)
    taken = 0
    for i in range(RANDOM_WORDS):
        if i % 2:
            players = rng.randrange(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)
        else:
            players = rng.randrange(256)
        if i % 3 == 0:  # flags the game reads and a length up to 15: half are taken
            opts = (rng.randrange(256) & cls.OPTIONS) | rng.randrange(16) << 8
        else:
            opts = rng.randrange(1 << 16)
        taken += check_boot(rig, g, players, opts) is None
    assert 0 < taken < RANDOM_WORDS


@pytest.mark.slow
def test_game_numbers_past_the_games_boot_to_the_menu(rig):
    rng = random.Random("boot-games")
    for g in list(range(len(GAMES), 256)) + [rng.randrange(5, 256) for _ in range(RANDOM_WORDS)]:
        players = rng.randrange(256)
        opts = rng.randrange(1 << 16)
        assert check_boot(rig, g, players, opts) == (
            "no game %d: the games are 0 to 4 (dtwww, walzer, dicefull, dtt, nokosu)" % g
        )


def test_the_issue_header_dicefull_with_0_players_boots_to_the_menu(rig):
    table, storage = rig.boot(header(2, 0, 0), words_for(0))
    assert table.mode == "menu"
    assert (
        "journal not resumed: dicefull is for 2 to 5 players, not 0; choose a new match"
        in rig.lines
    )


REFUSED_SAMPLE = [
    (2, 0, 0),  # the issue: Dicefull with 0 players (ZeroDivisionError once)
    (0, 3, 1 << 3),  # DTwww with an option bit no game has
    (1, 3, 2),  # Walzer told to roll dice
    (3, 3, 13 << 8),  # d-TT, 13 deals
    (4, 9, 0),  # Nokosu for 9
    (4, 4, 4),  # Nokosu's variant (it has none)
    (7, 3, 0),  # no game 7
]


@pytest.mark.parametrize("g,players,opts", REFUSED_SAMPLE)
def test_after_a_refused_header_a_new_match_starts_and_replaces_the_journal(g, players, opts):
    vt = VirtualTable(seats=SEATS)
    vt.storage.new_match(header(g, players, opts), words_for(players))
    vt = VirtualTable(seats=SEATS, flash=vt.flash.reboot())  # power up
    vt.boot()
    t = vt.table
    assert t.mode == "menu"
    assert any(line.startswith("journal not resumed: ") for line in vt.lines)
    assert vt.leds(CENTRE) == t.leds(CENTRE)  # the menu reached the LEDs
    assert vt.storage.load()[0] == header(g, players, opts)  # still on flash
    hands.choose_in_menu(vt, t, 1, (0, 1, 2))  # Walzer for seats 0-2
    assert t.mode == "play" and t.match.GAME == "walzer"
    head, actions, status = vt.storage.load()
    assert (head, status) == (registry.header(t.match), 0)  # the new match replaced the old
    # And it resumes after the next power cycle.
    again = VirtualTable(seats=SEATS, flash=vt.flash.reboot())
    again.boot()
    assert again.table.mode == "play" and again.table.match.GAME == "walzer"
    vt.press(0, OK)  # the table answers its buttons


MICROPYTHON = """
from dicetable.app.table import Table, SEATS_RECORD, SEED_RECORD
from dicetable.app.rng import Rng
from hal.storage import Storage
from sim.hw.rig import Config, VirtualTable
import sys
vt = VirtualTable(seats=(0, 1, 2, 3, 4))
config = Config([0, 1, 2, 3, 4], 8, 16)
"""

ONE_BOOT = """
head = %r
vt.storage.new_match(head, (SEATS_RECORD | 7, SEED_RECORD | 5))
lines = []
storage = Storage(vt.flash, segments=4)
t = Table(config, storage, Rng(7), lambda line: lines.append(line.text()))
t.boot()
games = [n for n in sys.modules if n.startswith("dicetable.games.")]
print(t.mode, storage.load()[0] == head, [l for l in lines if l.startswith("j")], sorted(games))
t = storage = lines = None
"""


def test_refused_headers_boot_to_the_menu_under_micropython_with_the_picos_heap():
    heads = [header(*h) for h in REFUSED_SAMPLE] + [header(0, 3, 0)]
    out = mpy_wasm.run(mpy_wasm.parts([MICROPYTHON] + [ONE_BOOT % (h,) for h in heads]))
    expected = []
    for g, players, opts in REFUSED_SAMPLE:
        why = journal_header_refusal(header(g, players, opts))
        # a game imported only to refuse its header is forgotten again
        line = "journal not resumed: %s; choose a new match" % why
        expected.append("menu True %r []" % ([line],))
    # The match resumed holds its game's package: the engine's modules, the
    # rules core's, the table's part (not the simulator's playout).
    files = (
        match_sources("dtwww")
        + rules_sources("dtwww")
        + [match_source("dtwww").parent / "table.py"]
    )
    held = sorted(["dicetable.games.dtwww"] + ["dicetable.games.dtwww." + f.stem for f in files])
    expected.append("play True [] %r" % (held,))
    assert out.splitlines() == expected
