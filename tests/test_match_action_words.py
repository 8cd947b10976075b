"""Every bit of an action word means something, or the action is refused.

An action word is kind << 20 | seat << 16 | value (actions.py): bits 24 and up,
bit 19 (seats are 0-7) and kinds 0 and 12-15 mean nothing in any game
(engine.malformed: MALFORMED), and each game checks the kind, seat and value
bits it reads.  Along random complete matches of every game registered (the
toy game too: every_game.KEYS), with every set of options it reads, every bit
of a legal action is flipped in turn (and random words are tried): the engine
refuses the word and nothing changes (state, journal), or the word is itself
one of the actions the engine lists as legal.
A malformed word is never journalled, and refusal() and submit() agree.
"""

import random

import pytest
from every_game import KEYS, match_class, registered
from match_helpers import seats_waiting, snapshot

from dicetable.match.actions import MALFORMED, OK, TABLE
from dicetable.match.engine import malformed, options

MATCHES = 2  # per game and set of options


def option_sets(cls):
    """Every set of the flags the game reads, with a short length (1) so that
    a match is quick, and the game's own length for the first set."""
    flags = [f for f in (1, 2, 4) if cls.OPTIONS & f]
    for mask in range(1 << len(flags)):
        chosen = 0
        for i, f in enumerate(flags):
            if mask >> i & 1:
                chosen |= f
        yield options(chosen, 0 if mask == 0 else 1)


def configurations():
    for game in KEYS:
        with registered(game):
            cls = match_class(game)
        for opts in option_sets(cls):
            yield game, opts


def every_legal(match):
    out = set()
    for seat in list(range(match.players)) + [TABLE]:
        out.update(match.legal_actions(seat))
    return out


def check_word(match, w, legal, before, journal):
    code = match.refusal(w)
    assert match.submit(w) == code, hex(w)
    if malformed(w):
        assert code == MALFORMED, hex(w)
    if code == OK:
        assert w in legal, "accepted but not legal: %#x" % w
        assert match.journal[-1] == w
        match.undo()
    else:
        assert w not in legal, "legal but refused (%d): %#x" % (code, w)
        assert match.journal == journal, hex(w)
    assert snapshot(match) == before, hex(w)


def random_words(rng, players):
    """Words of every shape: any 32 bits, any kind and seat with any value,
    negative numbers."""
    words = [rng.getrandbits(32), rng.getrandbits(24), -rng.getrandbits(20) - 1]
    for _ in range(3):
        kind = rng.randrange(16)
        seat = rng.choice([rng.randrange(16), rng.randrange(players), TABLE])
        words.append(kind << 20 | seat << 16 | rng.getrandbits(16))
    return words


@pytest.mark.slow
@pytest.mark.parametrize("game,opts", list(configurations()))
def test_every_flipped_bit_is_refused_or_another_legal_action(game, opts):
    cls = match_class(game)
    rng = random.Random("%s-%d" % (game, opts))
    checked = accepted = 0
    for number in range(MATCHES):
        players = cls.MIN_PLAYERS + number % (cls.MAX_PLAYERS - cls.MIN_PLAYERS + 1)
        match = cls(players, opts)
        while not match.over():
            legal = every_legal(match)
            seat = rng.choice(seats_waiting(match))
            a = rng.choice(match.legal_actions(seat))
            before = snapshot(match)
            journal = list(match.journal)
            for w in [a ^ (1 << bit) for bit in range(32)] + random_words(rng, players):
                check_word(match, w, legal, before, journal)
                checked += 1
                accepted += w in legal
            assert match.submit(a) == OK
        for w in [rng.getrandbits(32) for _ in range(8)]:
            assert match.submit(w) != OK  # nothing is taken after the end
        assert not any(malformed(w) for w in match.journal)
    assert checked > 1000 and accepted < checked


@pytest.mark.parametrize("game", KEYS)
def test_seats_8_to_15_are_not_seats_0_to_7(game):
    # Bit 19 was once ignored: seat 9 played as seat 1, journalled as given.
    cls = match_class(game)
    match = cls(cls.MAX_PLAYERS, 0)
    for _ in range(30):
        if match.over():
            break
        for seat in seats_waiting(match):
            for a in match.legal_actions(seat)[:5]:
                high = a | 1 << 19
                before = snapshot(match)
                assert match.refusal(high) == MALFORMED
                assert match.submit(high) == MALFORMED
                assert snapshot(match) == before and high not in match.journal
        seat = seats_waiting(match)[0]
        assert match.submit(match.legal_actions(seat)[0]) == OK


@pytest.mark.parametrize(
    "word,why",
    [
        (0, "kind 0"),
        (12 << 20, "kind 12"),
        (15 << 20 | 7 << 16, "kind 15 (the table's SEATS)"),
        (14 << 20, "kind 14 (the table's SEED)"),
        (2 << 20 | 1 << 19, "seat 8"),
        (2 << 20 | 15 << 16, "seat 15"),
        (1 << 24 | 2 << 20, "bit 24"),
        (1 << 31 | 2 << 20, "bit 31"),
        (-1, "negative"),
        (1 << 40, "past 32 bits"),
    ],
)
def test_words_no_game_reads_are_malformed(word, why):
    assert malformed(word), why
    for game in KEYS:
        with registered(game):
            cls = match_class(game)
        match = cls(cls.MIN_PLAYERS, 0)
        assert match.refusal(word) == MALFORMED and match.submit(word) == MALFORMED
        assert match.journal == []


def test_every_kind_and_seat_a_game_reads_is_well_formed():
    for kind in range(1, 12):
        for seat in range(8):
            assert not malformed(kind << 20 | seat << 16 | 0xFFFF)
            assert not malformed(kind << 20 | seat << 16)
