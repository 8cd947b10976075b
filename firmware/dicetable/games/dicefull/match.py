"""Dicefull (ダイスフル): the match engine (layer 3).

Player-readable rules, with "How the table runs a match": docs/rules/dicefull.md.
Specification: RULES.md section 3 (R6-R9).  Every rule the rules core holds
is asked of it: of rules.py (may this seat pick or pass, who picks next, is
picking over, who starts next round, how many challenges) and of
scoring_rules.py (who meets a challenge, leaders, roll-off); this module only
runs the phases, turns, entries and totals.

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
picking.py's DICE_SET (None: one die of every kind the core knows, serial 0).

The engine is two classes, by phase: picking.py's DicefullPicking (the
centre and the picked dice; SETUP, PICKING) and this module's DicefullMatch
built on it (the challenge, the rolls, the round's scoring, the roll-off,
the final places), which waits, refuses, lists, draws and applies by phase.
"""

from dicetable.games.dicefull import rules as core
from dicetable.games.dicefull import scoring_rules as scoring
from dicetable.games.dicefull.picking import (
    CHECK,
    NO_CHALLENGE,
    NOBODY,
    OVER,
    PICKING,
    ROLL_OFF,
    ROLLING,
    SETUP,
    DicefullPicking,
    _room,
    d6_number,
)
from dicetable.games.dicefull.scoring_rules import met_by
from dicetable.match.actions import (
    ALREADY_PLACED,
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
    append_values,
    emptied,
    fill,
    malformed,
)

# The core's met_by is also imported as a global of its own: a call of it
# takes a stack word less than one of scoring.met_by, and the frame of apply
# is full (11 words, the most the board keeps on its C stack).

# A roll-off's d6 numbers of the tied seats, and the seats they leave tied
# (the core's roll_off): module buffers, as _after_roll_off reads them once.
_VALUES = _room(core.MAX_PLAYERS)
_STILL = _room(core.MAX_PLAYERS)


class DicefullMatch(DicefullPicking):
    GAME = "dicefull"
    MIN_PLAYERS = core.MIN_PLAYERS
    MAX_PLAYERS = core.MAX_PLAYERS
    OPTIONS = TABLE_ROLLS | VARIANT

    def standings(self, out=None):
        """Final places: most VP first; among tied leaders, the roll-off order
        (the winner first; seats knocked out in the same roll-off share a place).
        Into `out` (emptied, its room kept) when given, else a new list."""
        out = emptied(out)
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

    # --- Waiting and legal actions --------------------------------------------

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

    def _waits_on(self, seat):
        if seat == TABLE:
            return (self.waiting() & TABLE_BIT) != 0
        return seat < self.players and (self.waiting() >> seat) & 1 == 1

    def legal_actions(self, seat, out=None):
        # Loops, not comprehensions, and few locals: a frame within the
        # board's C stack (tests/test_board_frames.py).
        out = emptied(out)
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

    # --- One legal action at random -------------------------------------------

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

    # --- Refusals -------------------------------------------------------------

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

    # --- Applying -------------------------------------------------------------

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
        gained = scoring.gains(
            winners, core.CHALLENGES[self.challenge], self.players, self.next_row()
        )
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
        scoring.leaders(self.totals, self.tied)
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
        scoring.roll_off(tied, _VALUES, _STILL)
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


MATCH = DicefullMatch


# new(players, options): a fresh Dicefull match for 2-5 players.  The class
# itself, not a function calling it: games.new_match's call then makes the
# match with one frame less on the board's C stack.
new = DicefullMatch
