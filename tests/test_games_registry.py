"""dicetable.games is the one place a game is registered: each game's entry
agrees with its engine, its package has every part the table, the simulator
and the docs ask for, and a new game added through register() alone is
offered by the menu, played on the virtual table and narrated by the
simulator (tests/toy_game/, "High card")."""

import pathlib
import random
import subprocess
import sys

import every_game
import pytest

from dicetable import games as registry
from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import CENTRE, MINUS, PLUS
from dicetable.app.inputs import Inputs
from dicetable.app.registry import pack
from dicetable.games import header_refusal, new_match
from dicetable.match.actions import PLAY, TABLE, TABLE_BIT, kind_of
from dicetable.match.engine import OPEN_PLAY
from sim import gamehost, ismcts, mpy_wasm
from sim.__main__ import main
from sim.hw import hands
from sim.hw.rig import VirtualTable
from sim.play import play

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE_FUNCTIONS = (
    "all_items",
    "item_words",
    "value_words",
    "item_view",
    "entry_view",
    "ring_view",
    "deal_progress",
    "table_entry_seat",
    "meant_value",
)
HOST_FUNCTIONS = ("describe", "narrate", "heuristic")


@pytest.mark.parametrize("key", list(registry.GAMES))
def test_each_entry_agrees_with_its_engine_and_its_package_is_complete(key):
    g = registry.number(key)
    cls = registry.part(g, "match").MATCH
    assert cls.GAME == key
    assert games.players(g) == (cls.MIN_PLAYERS, cls.MAX_PLAYERS)
    assert games.options(g) == cls.OPTIONS | registry.COUNT
    assert games.longest(g) == cls.MAX_COUNT
    table = registry.part(g, "table")
    for name in TABLE_FUNCTIONS:
        assert callable(getattr(table, name)), name
    assert table.identity is None or callable(table.identity)
    assert isinstance(table.HAS_TRICKS, bool) and isinstance(table.HAS_PASS, bool)
    host = gamehost.host(key)
    for name in HOST_FUNCTIONS:
        assert callable(getattr(host, name)), name
    assert (ROOT / "docs" / "rules" / (key + ".md")).exists()


def test_one_vocabulary_the_simulator_names_items_as_the_board_does():
    for g in range(games.count()):
        host = gamehost.host(registry.GAMES[g])
        for item in games.all_items(g):
            assert host.describe(item) == games.item_name(g, item, True)
    assert games.title(1) == "Walzer"
    assert "hearts Q" in [games.item_name(3, card) for card in games.all_items(3)]


def test_a_key_is_registered_once():
    with pytest.raises(ValueError, match="registered already"):
        registry.register(("dtt",) + registry._ENTRIES[3][1:], "dicetable.games.dtt")


@pytest.fixture
def high_card():
    with every_game.registered("highcard") as g:
        yield g
    assert registry.number("highcard") == -1


def test_a_toy_game_added_through_the_registry_alone_is_played_on_the_virtual_table(high_card):
    g = high_card
    assert registry.GAMES[g] == "highcard" and g == len(registry.GAMES) - 1
    assert header_refusal("highcard", 4, 0) == "highcard is for 2 to 3 players, not 4"
    vt = VirtualTable(seats=(0, 1, 2, 3, 4))
    vt.storage.save_registry(pack(hands.full_registry()))  # its cards are tagged too
    vt.boot()
    t = vt.table
    for _ in range(g):
        vt.press(t.lead, PLUS)  # the menu offers it after the table's games
    assert ">game: High card" in t.text
    assert vt.leds(CENTRE)[len(vt.leds(CENTRE)) * g // (g + 2)] == (40, 40, 40)
    for _ in range(g):
        vt.press(t.lead, MINUS)  # back to the first game
    hands.choose_in_menu(vt, t, g, (0, 2, 4))
    assert t.mode == "play" and t.match.GAME == "highcard"
    assert vt.leds(2) == [fr.DIM_CYAN] * 8  # the deal: scan your cards
    rng = random.Random(3)
    tricks = 0
    while t.mode == "play":
        while t.trick_show is not None:
            vt.wait(100)
        a = rng.choice(hands.player_actions(t))
        n = len(t.match.journal)
        hands.make(vt, t, a)
        assert t.match.journal[n] == a, vt.lines[-3:]
        if kind_of(a) == PLAY and t.match.trick.count == 0:
            tricks += 1
            assert vt.leds(t.phys[t.match.last_winner])[0] == fr.WINNER
    vt.wait(3000)
    assert tricks == 3 and t.mode == "over"
    assert any("deal card" in line for line in vt.lines)  # the table's log names its cards
    assert sum(t.match.totals) == 3
    header, actions, status = vt.storage.load()
    assert status == 0 and header[0] == g and actions[2:] == t.match.journal


def test_the_simulator_plays_and_narrates_a_registered_game(high_card):
    out = []
    match = play("highcard", 3, 0, ("heuristic", "random", "heuristic"), 4, out)
    assert match.over() and out[0] == "High card, 3 players, registered hands, seed 4"
    assert sum(line.endswith("wins the trick") for line in out) == 3
    assert new_match("highcard", 2).players == 2


NO_VIEW = (
    "python -m sim: error: game highcard gives no view: ismcts cannot play it"
    " (docs/architecture.md lists what the bots need)\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "highcard", "--bots", "ismcts"],
        ["--game", "highcard", "--bots", "heuristic,ismcts:20"],
        ["--game", "highcard", "--bots", "ismcts", "--matches", "2", "--jobs", "1"],
        ["balance", "--game", "highcard", "--bots", "ismcts", "--out", "{dir}"],
    ],
    ids=["bare", "one-seat", "batch", "balance"],
)
def test_ismcts_on_a_game_without_the_parts_it_needs_is_one_line(
    high_card, argv, capsys, tmp_path, monkeypatch
):
    # High card without its view, as a designer's game before it gives what
    # the search needs: the search refuses it before anything is played or
    # written (the heuristic bot plays it: the one-seat case).
    monkeypatch.setattr(gamehost.host("highcard"), "view", None)
    status = main([a.replace("{dir}", str(tmp_path / "out")) for a in argv])
    out, err = capsys.readouterr()
    assert (status, out, err) == (2, "", NO_VIEW)
    assert not (tmp_path / "out").exists()
    with pytest.raises(gamehost.CannotPlay, match="^game highcard gives no view: ismcts"):
        ismcts.choose(new_match("highcard", 2), 0, random.Random(1))


def test_ismcts_plays_a_registered_game_with_its_own_parts(high_card, monkeypatch):
    # High card's view draws the other seats' hands (tests/toy_game/host.py).
    monkeypatch.setattr(gamehost.host("highcard"), "ismcts_playouts", 20)
    assert gamehost.refusal("highcard", "ismcts") is None
    assert ismcts.game_playouts("highcard") == 20 and ismcts.game_options("highcard") == {}
    out = []
    match = play("highcard", 3, 0, ("ismcts", "heuristic", "ismcts:30"), 5, out)
    assert match.over() and sum(line.endswith("wins the trick") for line in out) == 3


def test_every_game_of_the_table_gives_what_every_bot_needs():
    for key in registry.GAMES:
        for bot in ("random", "heuristic", "ismcts"):
            assert gamehost.refusal(key, bot) is None, (key, bot)


# The per-game tests: each runs once per game of every_game.KEYS.
PER_GAME = {
    "test_conformance.py": ("test_every_registered_game_has_its_conformance_cases", "test_cases"),
    "test_micropython.py": ("test_micropython_matches_cpython",),
    "test_golden.py": ("test_transcript_is_the_reviewed_one",),
    "test_engine.py": ("test_undo_all_the_way_back_gives_a_new_match",),
    "test_match_heap.py": (
        "test_undo_of_a_count_is_that_many_undos_in_one_fold",
        "test_undo_allocates_nothing_under_micropython",
        "test_undo_and_every_reset_keep_their_frames_on_the_c_stack",
    ),
    "test_match_action_words.py": (
        "test_every_flipped_bit_is_refused_or_another_legal_action",
        "test_seats_8_to_15_are_not_seats_0_to_7",
    ),
    "test_board_frames.py": (
        "test_per_play_frames_fit_on_the_c_stack",
        "test_every_play_of_a_match_keeps_its_frames_on_the_c_stack",
    ),
    "test_game_stack.py": (
        "test_no_function_of_the_rules_core_reaches_itself",
        "test_every_chain_below_the_app_fits_the_games_budget",
    ),
}


@pytest.mark.slow
def test_a_sixth_game_registered_gets_every_per_game_test():
    # High card is registered after the table's games: the per-game tests are
    # collected for it as for them, with no test naming it.
    assert every_game.KEYS == list(registry.GAMES) + ["highcard"]
    tests = pathlib.Path(__file__).resolve().parent
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-o",
            "addopts=",
            "-p",
            "no:randomly",
        ]
        + [str(tests / name) for name in PER_GAME],
        capture_output=True,
        text=True,
        check=True,
        cwd=tests.parent,
    ).stdout
    ids = [line.split("::", 1)[1] for line in out.splitlines() if "::" in line]
    for functions in PER_GAME.values():
        for function in functions:
            for key in every_game.KEYS:
                assert any(i.startswith(function + "[") and key in i for i in ids), (
                    "%s does not run on %s" % (function, key)
                )


PART_HEAP = """
import gc
from dicetable import games
games.part(3, "table")
for n in (1000, 10000):
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(n):
        games.part(3, "table")
    print(gc.mem_alloc() - before)
"""


def test_part_after_the_first_call_allocates_nothing_on_micropython():
    # The app asks part(g, "table") at every play; under MicroPython with
    # the Pico's heap, 1000 and 10000 calls allocate at most one 16-byte block
    # between them (seen: 0 and 16), never a block per call.
    few, many = (int(n) for n in mpy_wasm.run(PART_HEAP).split())
    assert few <= 16 and many <= 16


@pytest.mark.parametrize("key", list(registry.GAMES))
def test_the_rooms_a_game_declares_hold_what_its_matches_list(key):
    # The table app makes its lists once with these rooms (app/inputs.py,
    # app/table.py): a list that outgrows its room allocates in the middle
    # of play.  Random matches at every player count, with no option and
    # with each option the game reads (DTwww's open play excepted: its
    # seat lists are documented to grow once).
    g = registry.number(key)
    seat_room, table_room, values_room = games.legal_room(g)
    flags = [0] + [1 << b for b in range(8) if games.options(g) >> b & 1]
    fewest, most = games.players(g)
    longest = 0
    for players in range(fewest, min(most, 5) + 1):
        for flag in flags:
            for seed in range(6):
                rnd = random.Random(seed)
                m = new_match(key, players, flag)
                while not m.over():
                    ins = Inputs(g, m)
                    assert len(ins.table) <= table_room
                    assert len(ins.auto) <= values_room
                    grows = key == "dtwww" and flag == OPEN_PLAY
                    for p in range(players):
                        assert grows or len(ins.own[p]) <= seat_room
                        assert len(ins.values(p)) <= values_room
                    w = m.waiting()
                    s = TABLE if w & TABLE_BIT else next(p for p in range(players) if w >> p & 1)
                    m.take(m.random_action(s, rnd.randrange))
                if flag == 0:
                    longest = max(longest, len(m.journal))
    assert longest <= registry.part(g, "table").JOURNAL_ROOM


def test_the_architecture_page_lists_every_part_of_a_game():
    page = (ROOT / "docs" / "architecture.md").read_text()
    checklist = page.split("### What a game supplies")[1].split("\n## ")[0]
    for name in sorted(gamehost.PARTS) + ["hidden_hands", "chance"]:
        assert "`%s" % name in checklist, name
