"""The journal machinery every game shares: bytes and back, undo, damaged journals."""

import random

import pytest

from dicetable.match.actions import NOTHING_TO_UNDO, OK
from dicetable.match.engine import GAMES, OPEN_PLAY, TABLE_ROLLS, journal_actions, journal_header
from match_helpers import new_match, play_random, snapshot


def played(game, options=0, seed=3):
    return play_random(new_match(game, 3, options), random.Random(seed))


@pytest.mark.parametrize("game", GAMES)
def test_journal_bytes_restore_the_same_match(game):
    match = played(game, TABLE_ROLLS)
    data = match.journal_bytes()
    name, players, options = journal_header(data)
    assert (name, players, options) == (game, 3, TABLE_ROLLS)
    again = new_match(name, players, options)
    assert again.replay(journal_actions(data)) == -1
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize("game", GAMES)
def test_a_torn_last_record_is_dropped_and_the_rest_restores(game):
    match = played(game)
    data = match.journal_bytes()
    actions = journal_actions(data[:-2])   # power cut inside the last record
    assert actions == match.journal[:-1]
    again = new_match(game, 3)
    assert again.replay(actions) == -1
    match.undo()
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize("game", GAMES)
def test_a_corrupt_action_stops_the_replay_and_keeps_what_came_before(game):
    match = played(game, OPEN_PLAY)
    journal = list(match.journal)
    bad = len(journal) // 2
    journal[bad] = 0x7FFFFFF          # no such action in any game
    again = new_match(game, 3, OPEN_PLAY)
    assert again.replay(journal) == bad
    assert again.journal == match.journal[:bad]


def test_undo_with_nothing_to_undo_is_refused():
    match = new_match("walzer", 3)
    before = snapshot(match)
    assert match.undo() == NOTHING_TO_UNDO
    assert snapshot(match) == before


@pytest.mark.parametrize("game", GAMES)
def test_undo_all_the_way_back_gives_a_new_match(game):
    match = played(game)
    fresh = snapshot(new_match(game, 3))
    for _ in range(min(40, len(match.journal))):
        assert match.undo() == OK
    while match.journal:
        match.undo()
    assert snapshot(match) == fresh
