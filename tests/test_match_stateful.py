"""The match invariants as a Hypothesis state machine, so that a failure
shrinks to a minimal journal.

test_match_invariants.py plays long seeded random matches and checks at every
step; when it fails, the step is often hundreds of actions deep.  Here the
same invariants are checked by a RuleBasedStateMachine whose steps are play
(legal actions of the seats waited on, the table included), refuse (a random
word, or a legal one with its seat, value or kind changed, that no legal set
holds), undo (of 0 to 4 actions, redone or not) and refold (the journal saved
as bytes and restored into a fresh match), with the waiting/legal-actions and
inventory invariants checked after every action.  When one breaks,
Hypothesis shrinks the run to the fewest steps that still break it: a short
game header and journal.  Every assertion message carries the header and the
journal as hex words, ready to paste:

    new_match("walzer", 3, 0x101).replay([0x100001, ...])

To reproduce a failure: run this file again
(`.venv/bin/python -m pytest tests/test_match_stateful.py -n 0`);
Hypothesis replays the failing example it saved in .hypothesis/ first, and
prints the steps (state.start(...), state.play(picks=[...]), ...).  The self-check
tests at the end break the engine's undo on purpose and pin that the machine
catches it and shrinks it to a journal of a few actions.
"""

import re

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from match_helpers import journal_bytes, seats_waiting, snapshot

from dicetable.games import GAMES, journal_header, journal_header_refusal, new_match
from dicetable.match.actions import NOTHING_TO_UNDO, OK, TABLE, action, kind_of, seat_of, value_of
from dicetable.match.engine import journal_actions, options

# The state machine's runs and the self-check's shrinking take seconds: make test only.
pytestmark = pytest.mark.slow

SHORTEST = 2  # lengths (the count option) drawn: 1 to this, so that matches end
PLAYS = 12  # the most actions one play step takes


def match_class(game):
    """The class of `game`'s matches (found through new_match only: the game
    modules are not imported by name here)."""
    for players in range(1, 9):
        try:
            return type(new_match(game, players))
        except ValueError:
            pass
    raise AssertionError("no player count makes a %s match" % game)


CLASSES = {game: match_class(game) for game in tuple(GAMES)}  # before any test registers more


def headers(game):
    """(game, players, options) for `game`: any player count it takes, any
    of the option flags it reads, a short length."""
    cls = CLASSES[game]
    return st.tuples(
        st.just(game),
        st.integers(cls.MIN_PLAYERS, cls.MAX_PLAYERS),
        st.builds(
            options,
            st.integers(0, 0xFF).map(lambda f: f & cls.OPTIONS),
            st.integers(1, min(SHORTEST, cls.MAX_COUNT)),
        ),
    )


HEADERS = {game: headers(game) for game in CLASSES}


def hex_words(journal):
    return "[%s]" % ", ".join("0x%06x" % a for a in journal)


class MatchMachine(RuleBasedStateMachine):
    """One match, driven by the rules below; `snaps[n]` is the snapshot the
    match had with n actions in its journal (what an undo back to n must give).
    Snapshots are compared into a bool first (`same`): pytest's diff of two
    pickles says nothing, and costs the shrinker time at every failing run."""

    def where(self, journal=None):
        """The header and journal as code: the current journal, or the one
        `journal` the match had before the step that failed."""
        when = "now" if journal is None else "before this step"
        journal = self.match.journal if journal is None else journal
        return "\n%d action(s) %s: new_match(%r, %d, 0x%x).replay(%s)" % (
            len(journal),
            when,
            self.game,
            self.players,
            self.options,
            hex_words(journal),
        )

    def legal_by_seat(self):
        """Every seat's legal actions, the table (TABLE) last.  Asked once per
        journal (the state is a fold of it; a step that changed the state
        without journalling fails on its own snapshot check)."""
        journal = tuple(self.match.journal)
        if self.cached[0] != journal:
            seats = list(range(self.players)) + [TABLE]
            self.cached = (journal, {seat: self.match.legal_actions(seat) for seat in seats})
        return self.cached[1]

    def legal(self):
        """The union of the legal actions of the seats waited on, in seat order."""
        legal = self.legal_by_seat()
        return [a for seat in seats_waiting(self.match) for a in legal[seat]]

    def allowed(self):
        return {a for actions in self.legal_by_seat().values() for a in actions}

    def check_refused(self, word):
        """`word` is refused and changes nothing (journal included)."""
        before = snapshot(self.match)
        journal = list(self.match.journal)
        code = self.match.submit(word)
        assert code != OK, "0x%x was accepted though no seat lists it" % word + self.where()
        same = snapshot(self.match) == before and self.match.journal == journal
        assert same, "refusing 0x%x (code %d) changed the match" % (word, code) + self.where(
            journal
        )

    # --- making the match --------------------------------------------------------------

    @initialize(header=st.sampled_from(tuple(CLASSES)).flatmap(HEADERS.__getitem__))
    def start(self, header):
        self.game, self.players, self.options = header
        self.match = new_match(*header)
        self.snaps = [snapshot(self.match)]
        self.cached = (None, None)

    # --- steps ---------------------------------------------------------------------------

    @precondition(lambda self: not self.match.over())
    @rule(picks=st.lists(st.integers(0, 0xFFFF), min_size=1, max_size=PLAYS))
    def play(self, picks):
        """Legal actions of seats waited on (the table included), each the
        pick-th (modulo) of their union, are accepted; the invariants are
        checked after each.  (Several a step, so that matches get deep
        enough to end; shrinking drops the picks a failure does not need.)"""
        for pick in picks:
            if self.match.over():
                return
            legal = self.legal()
            a = legal[pick % len(legal)]
            code = self.match.submit(a)
            assert code == OK, "legal 0x%x refused (code %d)" % (a, code) + self.where()
            assert self.match.journal[-1] == a, "0x%x not journalled" % a + self.where()
            self.snaps.append(snapshot(self.match))
            self.seats_waited_on_have_actions_and_nobody_else()
            self.every_item_in_exactly_one_place()

    @rule(word=st.integers(-1, (1 << 24) - 1) | st.integers(1 << 24, (1 << 32) - 1))
    def refuse(self, word):
        """Any word no seat lists is refused and changes nothing."""
        if word not in self.allowed():
            self.check_refused(word)

    @precondition(lambda self: not self.match.over())
    @rule(
        pick=st.integers(0, 0xFFFF),
        how=st.sampled_from(("seat", "value", "kind")),
        other=st.integers(0, 0xFFFF),
    )
    def refuse_near_miss(self, pick, how, other):
        """A legal action with its seat, value or kind changed (a word a
        player could well send) is refused unless some seat lists it."""
        legal = self.legal()
        a = legal[pick % len(legal)]
        seat, kind, value = seat_of(a), kind_of(a), value_of(a)
        if how == "seat":
            seat = other % 8
        elif how == "value":
            value = (value + other) & 0xFFFF
        else:
            kind = other % 16
        word = action(kind, seat, value)
        if word not in self.allowed():
            self.check_refused(word)

    @rule(count=st.integers(0, 4), redo=st.booleans())
    def undo(self, count, redo):
        """Undoing `count` actions gives the state they were taken from (and
        NOTHING_TO_UNDO, changing nothing, for 0 or more than the journal
        holds); taking them again gives the state they gave."""
        match = self.match
        journal = list(match.journal)
        n = len(journal)
        before = snapshot(match)
        code = match.undo(count)
        if count < 1 or count > n:
            assert code == NOTHING_TO_UNDO, "undo(%d) gave %d" % (count, code) + self.where()
            same = snapshot(match) == before and match.journal == journal
            assert same, "a refused undo(%d) changed the match" % count + self.where(journal)
            return
        assert code == OK, "undo(%d) refused (code %d)" % (count, code) + self.where(journal)
        assert match.journal == journal[: n - count], "undo(%d) left the journal %s" % (
            count,
            hex_words(match.journal),
        ) + self.where(journal)
        same = snapshot(match) == self.snaps[n - count]
        assert same, "undo(%d) did not give the state before the last %d action(s)" % (
            count,
            count,
        ) + self.where(journal)
        undone = self.snaps[n - count + 1 :]
        del self.snaps[n - count + 1 :]
        if redo:
            for a, snap in zip(journal[n - count :], undone, strict=True):
                code = match.submit(a)
                assert code == OK, "0x%x refused again after undo (code %d)" % (a, code) + (
                    self.where(journal)
                )
                same = snapshot(match) == snap
                assert same, "0x%x taken again after undo gave another state" % a + self.where(
                    journal
                )
                self.snaps.append(snap)

    @rule()
    def refold(self):
        """The journal saved as bytes and restored into a fresh match gives
        the same state (what a restore at power-up does)."""
        data = journal_bytes(self.match)
        why = journal_header_refusal(data)
        assert why is None, why + self.where()
        again = new_match(*journal_header(data))
        stop = again.replay(journal_actions(data))
        assert stop == -1, "the restore refused action %d" % stop + self.where()
        assert again.journal == self.match.journal, "the restore's journal differs" + (self.where())
        same = snapshot(again) == snapshot(self.match)
        assert same, "the journal folded again gives another state" + self.where()

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def seats_waited_on_have_actions_and_nobody_else(self):
        waited = set(seats_waiting(self.match))
        for seat, actions in self.legal_by_seat().items():
            assert bool(actions) == (seat in waited), (
                "seat %d: %d legal action(s), waited on: %s" % (seat, len(actions), sorted(waited))
                + self.where()
            )
            for a in actions if seat != TABLE else ():  # the table deals to seats
                assert seat_of(a) == seat, (
                    "seat %d lists 0x%x, an action of seat %d" % (seat, a, seat_of(a))
                    + self.where()
                )

    @invariant()
    def every_item_in_exactly_one_place(self):
        assert sorted(self.match.inventory()) == sorted(self.match.all_items()), (
            "inventory() is not all_items()" + self.where()
        )

    @precondition(lambda self: self.match.over())
    @invariant()
    def a_finished_match_has_standings(self):
        assert len(self.match.standings()) == self.players, "standings" + self.where()
        assert len(self.match.totals) == self.players, "totals" + self.where()


MatchMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=60, deadline=None)
TestMatchMachine = MatchMachine.TestCase


# --- self-check: the machine catches a broken undo, and shrinks it ---------------------

FIRST = next(iter(CLASSES))


class OneHeaderMachine(MatchMachine):
    """The same machine on one small header (the first game, fewest players,
    no options, length 1), so that the self-check's shrinking stays quick."""

    @initialize(header=st.just((FIRST, CLASSES[FIRST].MIN_PLAYERS, options(0, 1))))
    def start(self, header):
        MatchMachine.start(self, header)


def undo_without_folding(self, count=1):
    """Drops the journal's last actions but never folds it again."""
    if count < 1 or len(self.journal) < count:
        return NOTHING_TO_UNDO
    del self.journal[len(self.journal) - count :]
    return OK


def undo_one_only(real):
    """`real` undo, taking back one action whatever count asks (an off-by-one)."""

    def undo(self, count=1):
        return real(self, 1 if 1 <= count <= len(self.journal) else count)

    return undo


@pytest.mark.parametrize("broken,actions", [("forgets the fold", 1), ("only one", 2)])
def test_the_machine_catches_a_broken_undo_and_shrinks_it(monkeypatch, broken, actions):
    """A broken undo in every game's class fails the machine, and Hypothesis
    shrinks the failure to a journal of a few actions (1 or 2 are needed)."""
    for cls in CLASSES.values():
        if broken == "forgets the fold":
            monkeypatch.setattr(cls, "undo", undo_without_folding)
        else:
            monkeypatch.setattr(cls, "undo", undo_one_only(cls.undo))
    with pytest.raises(AssertionError) as caught:
        run_state_machine_as_test(
            OneHeaderMachine,
            settings=settings(
                max_examples=200,
                stateful_step_count=20,
                deadline=None,
                database=None,
                derandomize=True,
                report_multiple_bugs=False,
                phases=(Phase.generate, Phase.shrink),
            ),
        )
    message = str(caught.value)
    assert "undo(" in message, message
    # Shrunk: the journal before the failing undo holds the actions it takes
    # back and at most a couple more (the shrinker does not always drop every
    # step it could), out of the dozens a run takes.
    journals = re.findall(r"\b(\d+) action\(s\) before this step: new_match\(", message)
    assert len(journals) == 1 and int(journals[0]) <= actions + 2, message
    # And Hypothesis printed the steps that break it.
    steps = "\n".join(getattr(caught.value, "__notes__", []))
    assert "state.undo(count=" in steps, steps
