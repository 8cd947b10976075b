"""Helpers for match-engine tests: playing a match out, and comparing states."""

import pickle
import random

from dicetable.games import (
    header,
    new_match,  # noqa: F401  (the tests' one way to make a match)
)
from dicetable.match.actions import TABLE, TABLE_BIT


def journal_bytes(match):
    """The match as a journal file holds it: its header, then 4 bytes per
    action, little-endian (engine.journal_actions reads them back)."""
    out = bytearray(header(match))
    for a in match.journal:
        out += a.to_bytes(4, "little")
    return out


def seats_waiting(match):
    """The seats (TABLE included) whose input the match waits for, in order."""
    mask = match.waiting()
    seats = [s for s in range(match.players) if mask & (1 << s)]
    if mask & TABLE_BIT:
        seats.append(TABLE)
    return seats


def snapshot(match):
    """Everything the match holds except its journal, as comparable bytes
    (buffers, lists and the trick object included, deeply)."""
    state = {name: value for name, value in vars(match).items() if name != "journal"}
    return pickle.dumps(state, protocol=4)


def random_chooser(match, seat, legal, rng):
    return rng.choice(legal)


def play_random(match, rng, choose=random_chooser, on_step=None):
    """Play `match` to its end: the table and every seat choose with `choose`
    (seat, legal actions, rng) -> action; the seat acting is drawn among
    those waited on.  on_step(match, action) runs after each accepted action."""
    while not match.over():
        seat = rng.choice(seats_waiting(match))
        legal = match.legal_actions(seat)
        a = choose(match, seat, legal, rng) if seat != TABLE else rng.choice(legal)
        code = match.submit(a)
        assert code == 0, (a, code)
        if on_step is not None:
            on_step(match, a)
    return match


def recorded(seed):
    """A draw from random.Random(seed) (draw(n): a uniform int in [0, n)) and
    the list of the (n, result) pairs it drew."""
    rng = random.Random(seed)
    seen = []

    def draw(n):
        seen.append((n, rng.randrange(n)))
        return seen[-1][1]

    return draw, seen


def take_to_the_end(match, draw):
    """`match` played on by random_action and take, the table else the lowest
    seat waited on acting: what a game's playout() must give, draw for draw."""
    while not match.over():
        w = match.waiting()
        seat = TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1
        match.take(match.random_action(seat, draw))
    return match
