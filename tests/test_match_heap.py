"""Undo on the board's heap: a refold allocates nothing.

Match.undo() folds the whole journal again (reset(), then apply() of every
action kept).  Every game makes its buffers once, when the match is made,
history's rows included, and its rules core scores into them, so a refold
allocates nothing, however many rounds it scores again; nor does cutting
the journal (its room is kept).  Measured under real MicroPython with the
Pico's heap, for every game registered (every_game.KEYS: the toy game too)
at its largest player count, at points of a complete match; undo(count) is
checked against that many single undos on CPython and MicroPython.
(tests/test_match_round_heap.py plays whole matches with undos under
MicroPython.)
"""

import pytest
from every_game import KEYS, match_sources, package, parsed
from match_helpers import new_match, snapshot

from dicetable.match.actions import NOTHING_TO_UNDO, OK
from sim import mpy_wasm
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames, reached, source
from sim.play import play


def largest(game):
    return type(new_match(game, 3)).MAX_PLAYERS


def longest_journal(game):
    players = largest(game)
    return players, list(play(game, players, 0, ["heuristic"] * players, 1).journal)


def replayed(game, players, actions, cls=None):
    match = (cls or type(new_match(game, 3)))(players, 0)
    assert match.replay(actions) == -1
    return match


def first_scored(game, players, journal):
    """The index of the action that scores the first round."""
    match = new_match(game, players)
    for i, a in enumerate(journal):
        match.submit(a)
        if match.history:
            return i
    raise AssertionError("nothing scored")


def points(game, players, journal):
    """Journal lengths to undo at: early, just after the first round is
    scored (the refold scores it again; at the end where a game scores only
    there, as High card does), mid-match, one action before the end, and over."""
    n = len(journal)
    return sorted({12, min(first_scored(game, players, journal) + 4, n), n // 2, n - 1, n})


# -- CPython: undo(count) ---------------------------------------------------------


def counting_class(game):
    """The game's match class, counting the resets and applies of a fold."""
    base = type(new_match(game, 3))

    class Counting(base):
        resets = 0
        applies = 0

        def reset(self, *fresh):  # d-TT's new match says its buffers are fresh
            Counting.resets += 1
            base.reset(self, *fresh)

        def apply(self, a):
            Counting.applies += 1
            base.apply(self, a)

    return Counting


@pytest.mark.slow
@pytest.mark.parametrize("game", KEYS)
def test_undo_of_a_count_is_that_many_undos_in_one_fold(game):
    players, journal = longest_journal(game)
    cls = counting_class(game)
    for end in points(game, players, journal):
        for count in (1, 2, 3, 7):
            single = replayed(game, players, journal[:end])
            for _ in range(count):
                assert single.undo() == OK
            many = replayed(game, players, journal[:end], cls)
            cls.resets = cls.applies = 0
            assert many.undo(count) == OK
            assert (cls.resets, cls.applies) == (1, end - count)
            assert many.journal == single.journal == journal[: end - count]
            assert snapshot(many) == snapshot(single)


@pytest.mark.parametrize("game", KEYS)
def test_a_count_the_journal_does_not_hold_is_refused_and_changes_nothing(game):
    players, journal = longest_journal(game)
    match = replayed(game, players, journal[:5])
    before = snapshot(match)
    for count in (6, 500, 0, -1):
        assert match.undo(count) == NOTHING_TO_UNDO
        assert match.journal == journal[:5]
        assert snapshot(match) == before
    assert match.undo(5) == OK
    assert snapshot(match) == snapshot(new_match(game, players))
    assert match.undo(1) == NOTHING_TO_UNDO


@pytest.mark.parametrize("game", KEYS)
def test_a_player_count_the_game_refuses_makes_no_match(game):
    cls = type(new_match(game, 3))
    for players in (cls.MIN_PLAYERS - 1, cls.MAX_PLAYERS + 1):
        with pytest.raises(ValueError):
            cls(players, 0)


# -- MicroPython, with the Pico's heap ------------------------------------------------

SETUP = """
import gc
from array import array
from %s.match import new
m = new(%d, 0)
m2 = new(%d, 0)


def undo_bytes(match, count):
    before = gc.mem_alloc()
    if match.undo(count) != 0:
        raise ValueError("undo refused")
    return gc.mem_alloc() - before


def flat(v):
    if isinstance(v, (list, tuple, bytearray, array)):
        return [flat(x) for x in v]
    if hasattr(v, "__dict__"):
        return digest(v)
    return v


def digest(obj):
    d = obj.__dict__
    return [(k, flat(d[k])) for k in sorted(d)]


def check():
    # m undoes one action, then three at once; m2 the three one by one.
    back = m.journal[-3:]
    one = undo_bytes(m, 1)
    one_rounds = len(m.history)
    m.submit(back[2])
    three = undo_bytes(m, 3)
    three_rounds = len(m.history)
    for _ in range(3):
        m2.undo()
    same = digest(m) == digest(m2)
    for a in back:
        m.submit(a)
        m2.submit(a)
    print(len(m.journal), one, one_rounds, three, three_rounds, same)
"""
CHUNK = 40  # actions per part: the list literal is compiled on the heap


def heap_script(game, players, journal, ends):
    parts = [SETUP % (package(game), players, players)]
    done = 0
    for end in ends:
        while done < end:
            chunk = journal[done : min(done + CHUNK, end)]
            parts.append("for a in %r:\n    m.submit(a)\n    m2.submit(a)" % (chunk,))
            done += len(chunk)
        parts.append("check()")
    return mpy_wasm.parts(parts)


@pytest.mark.slow
@pytest.mark.parametrize("game", KEYS)
def test_undo_allocates_nothing_under_micropython(game):
    players, journal = longest_journal(game)
    ends = points(game, players, journal)
    out = mpy_wasm.run(heap_script(game, players, journal, ends)).split()
    rows = [out[i : i + 6] for i in range(0, len(out), 6)]
    assert [int(r[0]) for r in rows] == ends
    for end, one, _, three, _, same in rows:
        assert same == "True", end
        assert (one, three) == ("0", "0"), end
    # Late: rounds scored again, and still nothing (two, or all but the last,
    # which an undo takes back: High card scores its one at its last action).
    rounds = len(replayed(game, players, journal).history)
    assert max(int(r[2]) for r in rows) >= min(2, rounds - 1)


# -- the board: frames on the C stack ----------------------------------------------------


@pytest.mark.parametrize(
    "module,roots",
    [(game, ("reset",)) for game in KEYS]
    + [("engine", ("undo", "fill", "flag", "count_option", "reset_history"))],
)
def test_undo_and_every_reset_keep_their_frames_on_the_c_stack(module, roots):
    # A frame over 11 words is taken from the heap at every call on the board
    # (see sim/mpy_code.py), which gc.mem_alloc in the WebAssembly build cannot see.
    # Every module of a game's engine (split by phase, a layer a module).
    paths = [source("match", module)] if module == "engine" else match_sources(module)
    names, _ = reached(parsed(paths), roots)
    assert set(roots) <= names
    frames = {
        name: frame_words(n_state, n_exc)
        for path in paths
        for name, n_state, n_exc in function_frames(path)
        if name in names
    }
    assert {n: w for n, w in frames.items() if w > C_STACK_FRAME_WORDS} == {}
