"""Dicefull's match engine, a round up to its challenge: the game's length
rolled (SETUP, VARIANT) and the picking (PICKING).

DicefullPicking keeps the centre, each seat's picked dice and results, and
the match's state, made here as every phase reads it.  match.py's
DicefullMatch is built on it: the challenge, the rolls, the round's scoring,
the roll-off and every action taken to its phase (its docstring says how a
match runs).
"""

from array import array

from micropython import const

from dicetable.games.dicefull import data
from dicetable.games.dicefull import rules as core
from dicetable.games.dicefull.rules import is_legal
from dicetable.match.actions import (
    ALREADY_PLACED,
    ILLEGAL_PLAY,
    OK,
    OUT_OF_RANGE,
    PASS,
    PICK,
    UNKNOWN_ITEM,
    action,
    kind_of,
    value_of,
)
from dicetable.match.engine import EVERY, VARIANT, Match, check_header, fill
from dicetable.rules.trick import Trick

# The core's is_legal is also imported as a global of its own: a call of it
# takes a stack word less than one of core.is_legal, and the frame of
# _pick_refusal is full (11 words, the most the board keeps on its C stack).

# Phases.
SETUP = const(0)
PICKING = const(1)
CHECK = const(2)
ROLLING = const(3)
ROLL_OFF = const(4)
OVER = const(5)

NOBODY = const(255)  # no seat (the core's NOBODY)
NO_CHALLENGE = const(0xFFFF)  # no challenge revealed yet

# The dice in the centre, as configuration: None means one die of every kind
# in the core's KINDS table (serial 0), in kind order.  A table with another
# set assigns a list of distinct die items (core.die(kind, serial)) here
# before starting a match.
DICE_SET = None


def dice_set():
    """The die items the centre holds at the start of every round."""
    if DICE_SET is not None:
        return list(DICE_SET)
    return [core.die(kind, 0) for kind in range(len(core.KINDS))]


# The die the game-length 2d6 and the roll-off are rolled with: a d6, whose
# face index i shows the number i + 1.
_D6 = core.die(core.D6, 0)


def d6_number(index):
    """The number (1-6) a d6 ROLL of face index `index` shows."""
    return core.face(core.rolled(_D6, index)) // 10


# The centre's places random_action may pick, gathered (the module's buffer:
# drawing changes nothing of the match); _PASSING stands for passing.
_PICKS = bytearray(64)  # a centre of up to 63 dice
_PASSING = const(255)


def _room(n):
    """An empty list with room for `n` items: filled and emptied (del
    out[EVERY]) without allocating."""
    out = [0] * n
    del out[EVERY]
    return out


def _find(buf, count, item):
    """Position of `item` among the first `count` of `buf`, or -1.
    (MicroPython's array has no `in`.)"""
    for i in range(count):
        if buf[i] == item:
            return i
    return -1


class DicefullPicking(Match):
    """A round up to its challenge (DicefullMatch's base): the centre, the
    picked dice, and the phases SETUP and PICKING."""

    # --- State ----------------------------------------------------------------

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        n = players
        self.dice = array("H", dice_set())  # the centre set, read once per match
        dice = len(self.dice)
        self.limit = core.pick_limit(n)
        self.centre = array("H", self.dice)
        self.hands = [array("H", [0] * self.limit) for _ in range(n)]
        self.held = bytearray(n)
        self.passed = bytearray(n)
        self.rolls = [array("H", [0] * core.MAX_RESULTS) for _ in range(n)]
        self.nres = bytearray(n)  # results entered this round
        self.need = bytearray(n)  # results this round's dice give
        self.used = bytearray(len(core.CHALLENGES))
        self.set_word = data.SET_WORD  # which set `used` counts: the journal keeps it
        self.length_rolls = bytearray(2)
        self.totals = [0] * n
        # The round's picks in order (a Trick: seat, die); kept after the
        # round is scored until the next round's first pick.
        self.trick = Trick(dice)
        # Lists with room for every seat, filled by the core: emptied, never made anew.
        self.last_winners = _room(n)  # seats that met the last challenge
        self.tied = _room(n)  # seats in the current roll-off
        self.off_values = bytearray(n)  # their d6 face indices
        self.off_done = bytearray(n)
        self.stage = [0] * n  # roll-off rounds survived (standings)
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the table app's call (games.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        # A row per round: the count, else the first game's 6 or the
        # VARIANT's 2d6 (12 at most), no more than the challenges.
        longest = core.challenge_count(not self.flag(VARIANT), 12)
        self.make_history(min(self.count_option(longest), len(core.CHALLENGES)))
        self.reset()

    def reset(self):
        # Full also while the VARIANT's 2d6 are rolled, before the first round.
        for i in range(len(self.dice)):
            self.centre[i] = self.dice[i]
        self.ncentre = len(self.dice)
        for s in range(self.players):
            fill(self.hands[s], 0)
            fill(self.rolls[s], 0)
        fill(self.held, 0)
        fill(self.passed, 0)
        fill(self.nres, 0)
        fill(self.need, 0)
        fill(self.used, 0)
        self.challenge = NO_CHALLENGE
        fill(self.length_rolls, 0)
        self.nlength = 0
        self.start = 0  # first start player: seat 0
        self.turn = NOBODY
        self.first_passer = NOBODY
        self.round = 0  # rounds scored
        fill(self.totals, 0)
        self.reset_history()
        self.trick.clear()
        self.last_leader = NOBODY  # start player of the round last scored
        self.last_first_passer = NOBODY  # its first passer (NOBODY: none, R6)
        del self.last_winners[EVERY]  # the core's list: emptied, its room kept
        self.last_winner = NOBODY  # the first of them, or NOBODY
        self.last_challenge = NO_CHALLENGE
        self.last_roll_seat = NOBODY  # whose die the last ROLL was for
        self.last_result = 0  # that result (die with face index)
        self.acted_phase = SETUP  # the phase the last action was taken in
        del self.tied[EVERY]  # the core's too
        fill(self.off_values, 0)
        fill(self.off_done, 0)
        fill(self.stage, 0)
        self.winner = NOBODY
        count = self.count_option(0)
        if count:
            self.rounds = min(count, len(core.CHALLENGES))
        elif self.flag(VARIANT):
            self.rounds = 0
            self.phase = SETUP
            return
        else:
            self.rounds = min(core.challenge_count(True, 0), len(core.CHALLENGES))
        self._start_round()

    @property
    def last_trick_items(self):
        """The picks of the round being played, or of the round last scored
        until the next round's first pick (the Trick is kept)."""
        return self.trick.items

    @property
    def last_trick_seats(self):
        """Who made each of those picks."""
        return self.trick.seats

    def all_items(self):
        """Every die of this match's centre set (identities: face bits 0)."""
        return list(self.dice)

    def inventory(self):
        """Every die where it is now: the centre, then each seat's picked dice.
        Identities (face bits 0): a rolled die's results are in `rolls`, so the
        test compares sorted(inventory()) with sorted(all_items()) directly."""
        out = [self.centre[i] for i in range(self.ncentre)]
        for s in range(self.players):
            for i in range(self.held[s]):
                out.append(self.hands[s][i])
        return out

    # --- The game's length and the picking ------------------------------------

    def length_roller(self):
        """The seat right of the start player: rolls the VARIANT 2d6."""
        return (self.start - 1) % self.players

    def _length_roll(self, value):
        self.length_rolls[self.nlength] = value
        self.nlength += 1
        if self.nlength == 2:
            total = d6_number(self.length_rolls[0]) + d6_number(self.length_rolls[1])
            self.rounds = min(core.challenge_count(False, total), len(core.CHALLENGES))
            self._start_round()

    def _start_round(self):
        for s in range(self.players):
            self.held[s] = 0
            self.passed[s] = 0
        for i in range(len(self.dice)):  # every die back to the centre
            self.centre[i] = self.dice[i]
        self.ncentre = len(self.dice)
        self.first_passer = NOBODY
        self.turn = self.start
        self.phase = PICKING

    def _pick_refusal(self, seat, a):
        """Refusal of the PICK or PASS `a` from `seat`, whose turn it is."""
        if kind_of(a) == PASS:
            if value_of(a) != 0:
                return OUT_OF_RANGE
        elif _find(self.dice, len(self.dice), value_of(a)) < 0:
            return UNKNOWN_ITEM
        elif _find(self.centre, self.ncentre, value_of(a)) < 0:
            return ALREADY_PLACED  # taken already, by this seat or another
        if not is_legal(
            self.hands[seat],
            self.held[seat],
            self.centre,
            self.ncentre,
            core.PASS if kind_of(a) == PASS else value_of(a),
            self.passed[seat],
            self.players,
        ):
            return ILLEGAL_PLAY  # (a PASS: no die held yet)
        return OK

    def _random_pick(self, seat, draw):
        n = 0
        i = 0
        while i < self.ncentre:
            a = action(PICK, seat, 0) | self.centre[i]
            if self._pick_refusal(seat, a) == OK:
                _PICKS[n] = i
                n += 1
            i += 1
        a = action(PASS, seat, 0)
        if self._pick_refusal(seat, a) == OK:
            _PICKS[n] = _PASSING
            n += 1
        i = _PICKS[draw(n)]
        if i == _PASSING:
            return a
        return action(PICK, seat, 0) | self.centre[i]

    def _pick(self, seat, item):
        if self.ncentre == len(self.dice):
            self.trick.clear()  # the round's first pick
        i = _find(self.centre, self.ncentre, item)
        while i < self.ncentre - 1:
            self.centre[i] = self.centre[i + 1]
            i += 1
        self.ncentre -= 1
        self.hands[seat][self.held[seat]] = item
        self.held[seat] += 1
        self.trick.add(seat, item)

    def _pass(self, seat):
        self.passed[seat] = 1
        if self.first_passer == NOBODY:
            self.first_passer = seat  # the next round's start player

    def _next_turn(self, seat):
        """After `seat` picked or passed: the next seat to pick or, when
        nobody picks next (the core's picking_over()), the challenge's turn."""
        self.turn = core.next_picker(seat, self.held, self.passed, self.players, self.ncentre)
        if self.turn == NOBODY:
            self.phase = CHECK
            for s in range(self.players):
                self.need[s] = core.result_count(self.hands[s], self.held[s])
