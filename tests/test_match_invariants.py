"""Random complete matches of every game at every player count, checking at
every step what a player would notice if it broke (OpenSpiel-style):

- the seats waited on each have legal actions, and nobody else has any;
- legal_actions(seat, out) into a used list gives that list, holding what
  legal_actions(seat) lists, and changes nothing;
- every item of the game is in exactly one place;
- a random action that is not legal is refused and changes nothing;
- a legal action taken and undone leaves the state as it was;
- the journal, folded again from the start, gives the same state.
"""

import importlib
import random

import pytest
from match_helpers import new_match, play_random, seats_waiting, snapshot

from dicetable.games import GAMES
from dicetable.match.actions import TABLE, action, kind_of, value_of

MATCHES = 200
# The full undo check folds the journal again at every step; it runs on the
# first matches of each batch and at random steps of the rest.
FULLY_CHECKED = 3
SPOT_CHECKS = 0.02


def configurations():
    for game in GAMES:
        # Every game can be played by three, so a 3-player match names the class.
        cls = type(importlib.import_module("dicetable.games.%s.match" % game).new(3))
        for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
            yield game, players


def every_legal(match):
    seats = list(range(match.players)) + [TABLE]
    return {seat: match.legal_actions(seat) for seat in seats}


def check_waiting(match, legal):
    waited = set(seats_waiting(match))
    assert waited or match.over()
    for seat, actions in legal.items():
        assert bool(actions) == (seat in waited), (seat, waited)


def check_legal_into(match, legal):
    """legal_actions(seat, out), `out` a list used before (left long or short,
    with junk in it), returns `out` itself holding legal_actions(seat)'s list."""
    rng = random.Random(len(match.journal))  # the match's own draws stay as they were
    before = snapshot(match)
    out = [rng.choice((-1, 0, None)) for _ in range(rng.randrange(40))]
    for seat, actions in legal.items():
        assert match.legal_actions(seat, out) is out
        assert out == actions, seat
        out.append(0x7FFFFF)
    assert snapshot(match) == before


def check_inventory(match):
    assert sorted(match.inventory()) == sorted(match.all_items())


def check_refusal(match, legal, rng):
    """Random actions outside every legal set, and a waited seat's action
    claimed by a seat not waited on, are refused and change nothing."""
    allowed = {a for actions in legal.values() for a in actions}
    kinds = sorted({kind_of(a) for a in allowed}) or [1]
    bad = [
        action(
            rng.choice(kinds),
            rng.choice(list(range(match.players)) + [TABLE]),
            rng.randrange(0x10000),
        )
        for _ in range(3)
    ]
    acting = [s for s, actions in legal.items() if actions and s != TABLE]
    idle = [s for s, actions in legal.items() if not actions and s != TABLE]
    if acting and idle:
        taken = legal[acting[0]][0]
        bad.append(action(kind_of(taken), idle[0], value_of(taken)))
    before = snapshot(match)
    for a in bad:
        if a not in allowed:
            assert match.submit(a) != 0, hex(a)
    assert snapshot(match) == before


def check_undo_redo(match, legal, rng):
    seat = rng.choice([s for s, actions in legal.items() if actions])
    a = rng.choice(legal[seat])
    before = snapshot(match)
    assert match.submit(a) == 0
    after = snapshot(match)
    assert match.undo() == 0
    assert snapshot(match) == before
    assert match.submit(a) == 0
    assert snapshot(match) == after
    assert match.undo() == 0


def check_replay(match):
    again = new_match(match.GAME, match.players, match.options)
    assert again.replay(list(match.journal)) == -1
    assert snapshot(again) == snapshot(match)


@pytest.mark.slow
@pytest.mark.parametrize("game,players", list(configurations()))
def test_random_matches_keep_every_invariant(game, players):
    rng = random.Random("%s-%d" % (game, players))
    for number in range(MATCHES):
        match = new_match(game, players)
        fully = number < FULLY_CHECKED

        def on_step(match, a, fully=fully):
            legal = every_legal(match)
            check_waiting(match, legal)
            check_legal_into(match, legal)
            check_inventory(match)
            check_refusal(match, legal, rng)
            if fully or rng.random() < SPOT_CHECKS:
                check_replay(match)
                if not match.over():
                    check_undo_redo(match, legal, rng)

        play_random(match, rng, on_step=on_step)
        assert match.submit(action(2, 0, 0)) != 0  # nothing is taken after the end
        assert len(match.standings()) == players
        assert len(match.totals) == players
        check_replay(match)
