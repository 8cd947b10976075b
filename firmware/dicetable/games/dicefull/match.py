"""Dicefull (ダイスフル): the match engine (layer 3).

Player-readable rules, with "How the table runs a match": docs/rules/dicefull.md.
Specification: RULES.md section 3 (R6-R9).  Every rule the rules core holds
(may this seat pick or pass, who picks next, is picking over, who starts next
round, how many challenges, who meets a challenge, leaders, roll-off) is asked
of the rules core (rules/dicefull.py); this module only runs the phases,
turns, entries and totals.

A match is one game: one round per challenge.  Phases, in order:

    SETUP     VARIANT only, no count: the game-length 2d6, two ROLL actions
              (value = d6 face index 0-5) by the seat right of the start
              player, or by TABLE with TABLE_ROLLS.
    PICKING   the seat whose turn it is: PICK die (from the centre) or PASS
              (value 0; only holding a die; a hard pass).  The first round of
              turns is the original's step 1 (nobody holds a die, so nobody
              may pass), the rest is step 2 (pick or pass).
    CHECK     TABLE: REVEAL challenge index (into CHALLENGES), any challenge
              not yet revealed this game.
    ROLLING   every seat holding dice, at once: ROLL face index for its next
              unrolled result (dice in pick order; the double die takes two
              ROLLs).  With TABLE_ROLLS: TABLE rolls them all, seats from the
              start player clockwise, each seat's dice in pick order.  When
              every result is in, the round is scored, dice go back to the
              centre, and the next round starts (or the game ends).
    ROLL_OFF  VP tie at the end: every tied seat at once ROLLs a d6 (face
              index 0-5, i.e. the number minus 1); TABLE with TABLE_ROLLS (tied
              seats in seat order).  Seats still tied roll again.
    OVER      nothing is waited for.

Options read (OPTIONS): TABLE_ROLLS, VARIANT, the count (number of
challenges, 1 to engine.LONGEST = 12, the longest game a 2d6 gives; it
overrides both the first game's 6 and the VARIANT 2d6).  There is no open
play: Dicefull has no hidden hand (every die is taken from the open centre
and lies on its seat's reader, and the table must know each die's kind to
read its roll), so OPEN_PLAY, like any other option, is refused
(check_header).

First start player: seat 0.  The centre's dice are fixed by configuration:
DICE_SET below (None: one die of every kind the core knows, serial 0).
"""

from array import array

from micropython import const

from dicetable.games.dicefull import data
from dicetable.games.dicefull import rules as core
from dicetable.games.dicefull.rules import is_legal, met_by
from dicetable.match.actions import (
    ALREADY_PLACED,
    ILLEGAL_PLAY,
    MALFORMED,
    MATCH_OVER,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PASS,
    PICK,
    REVEAL,
    ROLL,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import (
    EVERY,
    TABLE_ROLLS,
    VARIANT,
    Match,
    append_values,
    check_header,
    fill,
    malformed,
)
from dicetable.rules.trick import Trick

# The core's is_legal and met_by are also imported as globals of their own: a
# call of one takes a stack word less than one of core.is_legal, and the
# frames of _pick_refusal and apply are full (11 words, the most the board
# keeps on its C stack).

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


# A roll-off's d6 numbers of the tied seats, and the seats they leave tied
# (the core's roll_off): module buffers, as _after_roll_off reads them once.
_VALUES = _room(core.MAX_PLAYERS)
_STILL = _room(core.MAX_PLAYERS)


class DicefullMatch(Match):
    GAME = "dicefull"
    MIN_PLAYERS = core.MIN_PLAYERS
    MAX_PLAYERS = core.MAX_PLAYERS
    OPTIONS = TABLE_ROLLS | VARIANT

    # --- State ----------------------------------------------------------------

    def __init__(self, players, options=0):
        check_header(DicefullMatch, players, options)
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
        # nearer the table app's call (engine.new_match) on the board's C stack.
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

    def standings(self, out=None):
        """Final places: most VP first; among tied leaders, the roll-off order
        (the winner first; seats knocked out in the same roll-off share a place).
        Into `out` (emptied, its room kept) when given, else a new list."""
        if out is None:
            out = []
        else:
            del out[EVERY]
        s = 0
        while s < self.players:  # while loops: frames within the board's 11 words
            out.append(self._place(s))
            s += 1
        return out

    def _place(self, s):
        """Seat s's place in standings()."""
        totals = self.totals
        stage = self.stage
        place = 1
        o = 0
        while o < self.players:
            # (totals, stage) compared without a tuple per comparison
            if totals[o] > totals[s] or (totals[o] == totals[s] and stage[o] > stage[s]):
                place += 1
            o += 1
        return place

    # --- Waiting and legal actions -----------------------------------------------

    def waiting(self):
        phase = self.phase
        if phase == OVER:
            return 0
        if phase == SETUP:
            if self.flag(TABLE_ROLLS):
                return TABLE_BIT
            return 1 << self.length_roller()
        if phase == PICKING:
            return 1 << self.turn
        if phase == CHECK or self.flag(TABLE_ROLLS):
            return TABLE_BIT
        mask = 0
        for s in range(self.players):
            if phase == ROLLING and self.nres[s] < self.need[s]:
                mask |= 1 << s
            elif phase == ROLL_OFF and s in self.tied and not self.off_done[s]:
                mask |= 1 << s
        return mask

    def length_roller(self):
        """The seat right of the start player: rolls the VARIANT 2d6."""
        return (self.start - 1) % self.players

    def _waits_on(self, seat):
        if seat == TABLE:
            return (self.waiting() & TABLE_BIT) != 0
        return seat < self.players and (self.waiting() >> seat) & 1 == 1

    def legal_actions(self, seat, out=None):
        # Loops, not comprehensions, and few locals: a frame within the
        # board's C stack (tests/test_board_frames.py).
        if out is None:
            out = []
        else:
            del out[EVERY]
        if not self._waits_on(seat):
            return out
        i = 0
        if self.phase == PICKING:
            # Every die of the centre in centre order, then PASS: each one
            # _pick_refusal (so the core's is_legal) accepts.
            while i < self.ncentre:
                if self._pick_refusal(seat, action(PICK, seat, 0) | self.centre[i]) == OK:
                    out.append(action(PICK, seat, 0) | self.centre[i])
                i += 1
            if self._pick_refusal(seat, action(PASS, seat, 0)) == OK:
                out.append(action(PASS, seat, 0))
        elif self.phase == CHECK:
            while i < len(self.used):
                if not self.used[i]:
                    out.append(action(REVEAL, TABLE, i))
                i += 1
        else:
            append_values(out, action(ROLL, seat, 0), self._roll_faces(seat))
        return out

    def _roll_faces(self, seat):
        """Faces of the die the next ROLL from `seat` is for."""
        if self.phase == ROLLING:
            return core.face_count(core.kind_of(self.pending_die(self._rolling_seat(seat))))
        return core.face_count(core.D6)

    def _rolling_seat(self, seat):
        """The seat whose die a ROLL from `seat` is for (TABLE rolls in order)."""
        if seat != TABLE:
            return seat
        if self.phase == ROLLING:
            for step in range(self.players):
                s = (self.start + step) % self.players
                if self.nres[s] < self.need[s]:
                    return s
        else:
            for s in self.tied:
                if not self.off_done[s]:
                    return s
        return NOBODY

    def pending_die(self, seat):
        """The die of `seat` whose result the match waits for (double die: two):
        the first die i whose dice 0..i give more results than are entered."""
        i = 0
        while i < self.held[seat]:
            if self.nres[seat] < core.result_count(self.hands[seat], i + 1):
                return self.hands[seat][i]
            i += 1
        return self.hands[seat][0]

    # --- One legal action at random -------------------------------------------------

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely (draw(n): a uniform int
        in [0, n)), without making the list: a pick among the centre's places
        the core accepts (gathered in a module buffer) or passing, an unused
        challenge, a face of the die rolled.  -1 when `seat` has none.
        Changes nothing; take() applies it unchecked."""
        if not self._waits_on(seat):
            return -1
        if self.phase == PICKING:
            return self._random_pick(seat, draw)
        if self.phase == CHECK:
            k = draw(len(self.used) - sum(self.used))
            i = 0
            while self.used[i] or k:
                if not self.used[i]:
                    k -= 1
                i += 1
            return action(REVEAL, TABLE, i)
        return draw(self._roll_faces(seat)) | action(ROLL, seat, 0)

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

    # --- Refusals -------------------------------------------------------------------

    def refusal(self, a):
        if malformed(a):
            return MALFORMED
        if self.phase == OVER:
            return MATCH_OVER
        seat = seat_of(a)
        if not self._waits_on(seat):
            return OUT_OF_TURN
        kind = kind_of(a)
        value = value_of(a)
        phase = self.phase
        if phase == PICKING:
            if kind == PICK or kind == PASS:
                return self._pick_refusal(seat, a)
            return WRONG_PHASE
        if phase == CHECK:
            if kind != REVEAL:
                return WRONG_PHASE
            if value >= len(self.used):
                return UNKNOWN_ITEM
            if self.used[value]:
                return ALREADY_PLACED  # no repeats within a game
            return OK
        if kind != ROLL:
            return WRONG_PHASE
        if value >= self._roll_faces(seat):
            return OUT_OF_RANGE
        return OK

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

    # --- Applying ---------------------------------------------------------------

    def apply(self, a):
        value = value_of(a)
        phase = self.phase
        self.acted_phase = phase
        if phase == SETUP:
            self._length_roll(value)
        elif phase == PICKING:
            if kind_of(a) == PICK:
                self._pick(seat_of(a), value)
            else:
                self._pass(seat_of(a))
            # Called from here, not from _pick and _pass: the core's turn rule
            # then runs a frame nearer the table app's call on the C stack.
            self._next_turn(seat_of(a))
        elif phase == CHECK:
            self.used[value] = 1
            self.challenge = value
            self.phase = ROLLING
            fill(self.nres, 0)
        else:
            self._roll(self._rolling_seat(seat_of(a)), value)
        if self.phase == ROLLING and self._all_rolled():
            # Every result of the round is in (or no seat has a die to roll).
            # Who meets the challenge is asked of the core from here, and the
            # round scored after: below a method of the match, the whole
            # evaluation would run a frame deeper on the board's C stack.
            # The seats meeting it go into last_winners (emptied, its room kept).
            del self.last_winners[EVERY]
            met_by(self.rolls, self.nres, core.CHALLENGES[self.challenge], self.last_winners)
            self._score_round()

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

    def _roll(self, s, value):
        """A ROLL for seat s: its pending die's result (ROLLING), or its d6 in
        the roll-off (ROLL_OFF)."""
        self.last_roll_seat = s
        if self.phase == ROLLING:
            self.last_result = core.rolled(self.pending_die(s), value)
            self.rolls[s][self.nres[s]] = self.last_result
            self.nres[s] += 1
        else:
            self.off_values[s] = value
            self.off_done[s] = 1
            self._after_roll_off()

    def _all_rolled(self):
        """True once every seat's results for the round are in."""
        for s in range(self.players):
            if self.nres[s] < self.need[s]:
                return False
        return True

    def _score_round(self):
        """Score the round: last_winners met its challenge (the core's met_by,
        asked by apply); their gains go into history's next row."""
        winners = self.last_winners
        gained = core.gains(winners, core.CHALLENGES[self.challenge], self.players, self.next_row())
        self.last_winner = winners[0] if winners else NOBODY
        self.last_challenge = self.challenge
        self.last_leader = self.start
        self.last_first_passer = self.first_passer
        for s in range(self.players):
            self.totals[s] += gained[s]
        self.round += 1
        self.start = core.next_start(self.first_passer, self.start)  # R6
        self.challenge = NO_CHALLENGE
        if self.round < self.rounds:
            self._start_round()
            return
        self._start_round()  # the dice go back to the centre
        self.turn = NOBODY
        del self.tied[EVERY]
        core.leaders(self.totals, self.tied)
        if len(self.tied) > 1:
            self.phase = ROLL_OFF
        else:
            self._finish(self.tied[0])

    def _after_roll_off(self):
        if self._rolling_seat(TABLE) != NOBODY:
            return  # a tied seat has still to roll
        # Few locals, no comprehension: a frame within the board's C stack.
        # The tied seats' d6 numbers into _VALUES, then the seats still tied
        # into _STILL (the core's roll_off): module buffers.
        tied = self.tied
        del _VALUES[EVERY]
        i = 0
        while i < len(tied):
            _VALUES.append(d6_number(self.off_values[tied[i]]))
            i += 1
        del _STILL[EVERY]
        core.roll_off(tied, _VALUES, _STILL)
        if len(_STILL) == 1:
            self._finish(_STILL[0])
            return
        del tied[EVERY]  # still tied: they roll again
        i = 0
        while i < len(_STILL):
            tied.append(_STILL[i])
            self.stage[_STILL[i]] += 1
            self.off_done[_STILL[i]] = 0
            i += 1

    def _finish(self, seat):
        self.winner = seat
        self.stage[seat] += 1
        self.phase = OVER


def _find(buf, count, item):
    """Position of `item` among the first `count` of `buf`, or -1.
    (MicroPython's array has no `in`.)"""
    for i in range(count):
        if buf[i] == item:
            return i
    return -1


MATCH = DicefullMatch


# new(players, options): a fresh Dicefull match for 2-5 players.  The class
# itself, not a function calling it: engine.new_match's call then makes the
# match with one frame less on the board's C stack.
new = DicefullMatch
