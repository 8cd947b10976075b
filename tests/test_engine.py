"""The journal machinery every game shares: bytes and back, undo, damaged journals."""

import random

import pytest
from every_game import KEYS, match_class
from match_helpers import journal_bytes, new_match, play_random, snapshot

from dicetable.games import header_refusal, journal_header, journal_header_refusal
from dicetable.match.actions import NOTHING_TO_UNDO, OK
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, journal_actions, options


def played(game, options=0, seed=3):
    return play_random(new_match(game, 3, options), random.Random(seed))


@pytest.mark.parametrize("game", KEYS)
def test_journal_bytes_restore_the_same_match(game):
    flags = match_class(game).OPTIONS  # every option the game reads
    match = played(game, flags)
    data = journal_bytes(match)
    name, players, options = journal_header(data)
    assert (name, players, options) == (game, 3, flags)
    again = new_match(name, players, options)
    assert again.replay(journal_actions(data)) == -1
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize("game", KEYS)
def test_a_torn_last_record_is_dropped_and_the_rest_restores(game):
    match = played(game)
    data = journal_bytes(match)
    actions = journal_actions(data[:-2])  # power cut inside the last record
    assert actions == match.journal[:-1]
    again = new_match(game, 3)
    assert again.replay(actions) == -1
    match.undo()
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize("game", KEYS)
def test_a_corrupt_action_stops_the_replay_and_keeps_what_came_before(game):
    flags = match_class(game).OPTIONS & OPEN_PLAY  # open play where the game has it
    match = played(game, flags)
    journal = list(match.journal)
    bad = len(journal) // 2
    journal[bad] = 0x7FFFFFF  # no such action in any game
    again = new_match(game, 3, flags)
    assert again.replay(journal) == bad
    assert again.journal == match.journal[:bad]


def test_undo_with_nothing_to_undo_is_refused():
    match = new_match("walzer", 3)
    before = snapshot(match)
    assert match.undo() == NOTHING_TO_UNDO
    assert snapshot(match) == before


@pytest.mark.parametrize("game", KEYS)
def test_undo_all_the_way_back_gives_a_new_match(game):
    match = played(game)
    fresh = snapshot(new_match(game, 3))
    for _ in range(min(40, len(match.journal))):
        assert match.undo() == OK
    while match.journal:
        match.undo()
    assert snapshot(match) == fresh


# --- headers: every door that makes a match asks header_refusal() ------------------------


@pytest.mark.parametrize("game", KEYS)
def test_every_header_a_game_refuses_says_why_and_raises_on_new(game):
    cls = match_class(game)
    for players in range(256):
        for opts in [0] + [1 << bit for bit in range(16)]:
            why = header_refusal(game, players, opts)
            taken = (
                cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS
                and (opts & 0xFF & ~cls.OPTIONS) == 0
                and opts >> 8 <= cls.MAX_COUNT
            )
            assert (why is None) == taken, (players, opts, why)
            if why is None:
                m = new_match(game, players, opts)
                assert (m.players, m.options) == (players, opts)
            else:
                assert "\n" not in why and why.startswith(game) or why.startswith("options")
                with pytest.raises(ValueError) as refused:
                    new_match(game, players, opts)
                assert str(refused.value) == why


def test_header_refusal_lines():
    assert header_refusal("dicefull", 0, 0) == "dicefull is for 2 to 5 players, not 0"
    assert header_refusal("dtt", 4, 0) == "dtt is for exactly 3 players, not 4"
    assert header_refusal("nokosu", 3, 4) == "nokosu has no option bit 2 (it reads the bits in 3)"
    assert (
        header_refusal("walzer", 3, 1 << 8 | 0x80)
        == "walzer has no option bit 7 (it reads the bits in 1)"
    )
    assert (
        header_refusal("dtwww", 2, options(0, 13))
        == "dtwww's length is 1 to 6 (0: the game's own), not 13"
    )
    assert header_refusal("dtwww", 2, 1 << 16) == "options are 16 bits (0 to 65535), not 65536"
    assert header_refusal("dtwww", 2, -1) == "options are 16 bits (0 to 65535), not -1"
    assert (
        header_refusal("chess", 2, 0)
        == "no game 'chess': the games are dtwww, walzer, dicefull, dtt, nokosu"
    )
    assert header_refusal("dtwww", 4, OPEN_PLAY | options(TABLE_ROLLS | VARIANT, 6)) is None


def test_journal_header_refusal_reads_the_four_bytes():
    assert journal_header_refusal(bytes((2, 0, 0, 0))) == "dicefull is for 2 to 5 players, not 0"
    assert (
        journal_header_refusal(bytes((5, 3, 0, 0)))
        == "no game 5: the games are 0 to 4 (dtwww, walzer, dicefull, dtt, nokosu)"
    )
    assert journal_header_refusal(bytes((0, 3))) == "a journal header is 4 bytes, not 2"
    assert journal_header_refusal(bytes((3, 3, 1, 5))) is None
    assert journal_header(bytes((3, 3, 1, 5))) == ("dtt", 3, 0x501)
