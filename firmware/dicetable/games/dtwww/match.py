"""DTwww match engine: a whole match, from the first scan to the final roll-off.

Rules: docs/rules/dtwww.md ("How the table runs a match"), RULES.md section 1.
Every rule of the game is the rules core's (dicetable.games.dtwww.rules): legality,
trick winner, next leader, ranks, points, next game leader, match winners and
roll-off comparison. The engine only keeps the dice where they are, whose
input the match waits for, and the match score.

Phases of one game (a match is `count` games, default: as many as players):

  PHASE_DEAL     registered hands only. Each seat, in any order and at the same
                 time as the others, scans its 9 dice: DEAL(seat, die) with the
                 die's identity (number bits 0), then the die's rolled number
                 ROLL(seat, number), entered at the seat; with TABLE_ROLLS the
                 table draws it: ROLL(TABLE, number), before anyone scans again.
                 A seat's first 3 dice are its public dice, the next 6 private.
  PHASE_PLAY     9 tricks. The game's leader leads trick 1, then the next leader
                 of each trick (the core's next_leader); clockwise. PLAY(seat,
                 item): the die with its number; a white die carries its
                 declaration (dtwww.play). The winner keeps the die as a score
                 die; the other dice go back to the bag.
  PHASE_SCORE    every score die is rolled: ROLL(seat, number) for the seat's
                 next score die (seats at the same time, each its dice in the
                 order won); with TABLE_ROLLS ROLL(TABLE, number), seats
                 clockwise from the game's leader. Then the game is scored.
  PHASE_ROLLOFF  after the last game, when several seats share the most match
                 points: each tied seat rolls a die of its choice,
                 ROLL(seat, size << 8 | number); with TABLE_ROLLS the seat
                 chooses CHOOSE(seat, size) and the table rolls
                 ROLL(TABLE, size << 8 | number), lowest seat first. Equal best
                 rolls (same number, same size) roll again, among themselves.
  PHASE_OVER     nothing is waited for.

The first game is led by seat 0; each next game by the last-ranked seat of the
game just scored (core: next_game_leader, R3). R4: every rolled number (deal,
score die, roll-off) is a ROLL action in the journal.

Options read: OPEN_PLAY, TABLE_ROLLS, VARIANT (each game adds the dice totals,
core SCORE_TOTAL) and the count (number of games; default: players).
Final places (standings): the roll-off decides only the winner; the other seats
tied with the winner on match points share 2nd place.

OPEN_PLAY: hands are not scanned, so there is no PHASE_DEAL (no DEAL and no
deal ROLL). A PLAY is accepted when the die has not been seen this game (not
played yet, not a score die), its number is a face of it, a white die is
declared R/B/G, and a white die played to a lead follows it (the core's
open_legal: whoever holds a white die can follow, so declaring it off the lead
colour, with another number, breaks the follow rule whatever else the hand
holds). Whether a coloured die could have followed cannot be checked. Scoring
and roll-offs are the same.

After a trick completes, `trick` is empty again and the completed trick is in
`last_trick_items` / `last_trick_seats` (the first `last_trick_count` entries,
preallocated buffers), `last_winner` (seat that keeps its die), `last_leader`
(seat that led it) and `leader` (seat that leads the next trick).

random_action(seat, draw) draws one of legal_actions(seat) uniformly (draw(n):
a uniform int in [0, n)) without making the list, but in open play, whose
plays it lists (declared white dice, filtered by the lead); take() applies
it unchecked.

The engine is two classes, by phase: deal.py's DtwwwDeal (the dice's places
and the match's state; PHASE_DEAL and PHASE_PLAY) and this module's
DtwwwMatch built on it (PHASE_SCORE and the game's scoring, PHASE_ROLLOFF,
the final places), which waits, refuses, lists, draws and applies by phase.
A play's own steps are deal.py's but for what refusal, legal_actions and
random_action ask of the core themselves (the core's follow rule is then a
frame nearer the table app's call on the board's C stack).
"""

from array import array

from micropython import const

from dicetable.games.dtwww import rules as dt
from dicetable.games.dtwww.deal import (
    _BOX,
    _ROLL_A,
    BAG,
    DICE,
    NO_CHOICE,
    NO_ROLL,
    PHASE_DEAL,
    PHASE_PLAY,
    PHASE_SCORE,
    DtwwwDeal,
    _add_faces,
    _face,
)
from dicetable.match.actions import (
    CHOOSE,
    DEAL,
    ILLEGAL_PLAY,
    MALFORMED,
    MATCH_OVER,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PLAY,
    ROLL,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import append_actions, emptied, malformed

# The later phases (deal.py's PHASE_DEAL, PHASE_PLAY and PHASE_SCORE are 1 to 3).
PHASE_ROLLOFF = const(4)
PHASE_OVER = const(5)

# `event` bits of the later phases (deal.py's EV_DEALT and EV_TRICK are 1 and 2).
EV_GAME = const(4)  # a game was scored (and the next one set up)
EV_ROLLOFF = const(8)  # the final roll-off starts (tied most points)
EV_ROLLOFF_ROUND = const(16)  # a roll-off round completed
EV_OVER = const(32)  # the match is over

_UNROLLED = const(-2)  # _rolloff_best(): a contender has still to roll

ROLLOFF_SIZE_SHIFT = const(8)  # roll-off ROLL value: size << 8 | number

_PLAYS = array("H", [0] * dt.MAX_PLAYS)  # legal_plays scratch (not match state)

# The core's per-play calls by a global name: a call of `dt.is_legal` takes a
# stack word more than one of `_is_legal`, and the frames calling them are full.
_is_legal = dt.is_legal
_legal_plays = dt.legal_plays


# Action words with seat 0 and value 0: a seat's and a value's bits are ORed in.
_PLAY_A = action(PLAY, 0, 0)
_CHOOSE_A = action(CHOOSE, 0, 0)


# Every roll-off ROLL a seat may make, all sizes' faces (legal_actions lists
# them): 4 + 6 + 8 + 10 + 12 + 20, the core's sides() (tested).  A const, so
# that it takes no room in the module's globals on the board's heap.
_ROLLOFF_ROLLS = const(60)


def _rolloff_word(seat, size):
    """A roll-off ROLL of `seat` with a die of `size`, its number 0."""
    return _ROLL_A | (seat << SEAT_SHIFT) | (size << ROLLOFF_SIZE_SHIFT)


# The sides of each die size (the core's sides(): how many faces it has), and
# the core's roll_off by a global name: a roll-off comparison then calls
# nothing else, and its frame stays 9 words.
_SIDES = tuple([dt.sides(size) for size in range(dt.D4, dt.D20 + 1)])
_roll_off = dt.roll_off


def _rolloff_compare(ra, rb):
    """The core's roll_off() of two roll-off ROLL values (size << 8 | number)."""
    return _roll_off(
        ra & 0xFF, _SIDES[ra >> ROLLOFF_SIZE_SHIFT], rb & 0xFF, _SIDES[rb >> ROLLOFF_SIZE_SHIFT]
    )


def rolloff_value(size, number):
    """The value of a roll-off ROLL: the chosen die's size and the number rolled."""
    return (size << ROLLOFF_SIZE_SHIFT) | number


def rolloff_ok(value):
    """True when `value` is a roll-off roll: a die size D4..D20 and one of its faces."""
    s = value >> ROLLOFF_SIZE_SHIFT
    # The core's is_face(s, number), inline: one call less deep.
    return s <= dt.D20 and dt.lowest_face(s) <= value & 0xFF <= dt.highest_face(s)


class DtwwwMatch(DtwwwDeal):
    # --- waiting, refusing, listing, drawing, applying: by phase ---------------

    def waiting(self):
        ph = self.phase
        if ph == PHASE_PLAY:
            return 1 << self.turn
        if ph == PHASE_DEAL:
            return self._deal_waiting()
        if ph == PHASE_SCORE:
            return self._score_waiting()
        if ph == PHASE_ROLLOFF:
            return self._rolloff_waiting()
        return 0

    def refusal(self, a):
        if malformed(a):
            return MALFORMED
        ph = self.phase
        if ph == PHASE_OVER:
            return MATCH_OVER
        if not self._takes(ph, kind_of(a)):
            return WRONG_PHASE
        s = seat_of(a)
        if not self.waiting() & (1 << s):
            return OUT_OF_TURN
        if ph == PHASE_DEAL:
            return self._deal_refusal(kind_of(a), s, value_of(a))
        if ph == PHASE_SCORE:
            return self._score_refusal(s, value_of(a))
        if ph == PHASE_ROLLOFF:
            return self._rolloff_refusal(kind_of(a), s, value_of(a))
        code = self._play_refusal(s, value_of(a))
        if code != OK or self.open:
            return code
        # The follow rule over the seat's hand (the core's is_legal), asked
        # from here rather than below _play_refusal: a frame nearer the table
        # app's call on the board's C stack.
        if _is_legal(self.hands[s], self.hand_n[s], self.trick, value_of(a)):
            return OK
        return ILLEGAL_PLAY

    def _takes(self, ph, k):
        """Does phase `ph` (not over) take actions of kind `k`?"""
        if ph == PHASE_DEAL:
            return k == DEAL or k == ROLL
        if ph == PHASE_PLAY:
            return k == PLAY
        if ph == PHASE_SCORE:
            return k == ROLL
        return k == ROLL or (k == CHOOSE and self.table_rolls)

    def legal_actions(self, seat, out=None):
        out = emptied(out)
        if seat < 0 or seat > TABLE or not self.waiting() & (1 << seat):
            return out
        ph = self.phase
        if ph == PHASE_DEAL:
            self._deal_actions(out, seat)
        elif ph == PHASE_SCORE:
            self._score_actions(out, seat)
        elif ph == PHASE_ROLLOFF:
            self._rolloff_actions(out, seat)
        elif self.open:
            # Every play the table cannot disprove, die by die: each die not
            # seen this game.  (The loop here, not in a method of its own: the
            # core's follow rule is then three frames below this one.)
            i = 0
            while i < DICE:
                if self.place[i] == BAG:
                    self._open_die(out, _PLAY_A | (seat << SEAT_SHIFT), _BOX[i])
                i += 1
        else:
            i = _legal_plays(self.hands[seat], self.hand_n[seat], self.trick, _PLAYS)
            append_actions(out, _PLAY_A | (seat << SEAT_SHIFT), _PLAYS, i)
        return out

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely: draw(n) returns a
        uniform int in [0, n).  -1 when `seat` has none.  Changes nothing;
        take() applies the action unchecked."""
        if seat < 0 or seat > TABLE or not self.waiting() & (1 << seat):
            return -1
        if self.phase == PHASE_PLAY:
            if self.open:
                # Open play's plays are listed as legal_actions lists them,
                # then one drawn (a host's use: the board never draws a
                # player's play).  The loop again rather than a call of
                # legal_actions: the core's follow rule then stays three
                # frames below this one on the board's C stack.
                out = []
                k = 0
                while k < DICE:
                    if self.place[k] == BAG:
                        self._open_die(out, _PLAY_A | (seat << SEAT_SHIFT), _BOX[k])
                    k += 1
                return out[draw(len(out))]
            k = _legal_plays(self.hands[seat], self.hand_n[seat], self.trick, _PLAYS)
            return _PLAYS[draw(k)] | _PLAY_A | (seat << SEAT_SHIFT)
        if self.phase == PHASE_DEAL:
            return self._random_deal(seat, draw) | (seat << SEAT_SHIFT)
        if self.phase == PHASE_SCORE:
            return self._random_score(seat, draw) | (seat << SEAT_SHIFT)
        return self._random_rolloff(seat, draw) | (seat << SEAT_SHIFT)

    def apply(self, a):
        k = kind_of(a)
        s = seat_of(a)
        v = value_of(a)
        self.event = 0
        ph = self.phase
        if k == ROLL:
            if s == TABLE:
                s = self._table_roll_seat(ph)
            self.roll_seat = s
        # What an action completes (a trick, a game, the match, a roll-off
        # round) is taken from here, step after step, rather than each step
        # below the one before: the rules core is then at most three frames
        # below apply on the board's C stack.
        if ph == PHASE_DEAL:
            if k == DEAL:
                self._deal(s, v)
            else:
                self._deal_roll(s, v)
        elif ph == PHASE_PLAY:
            self._play(s, v)
            if self.trick.count == self.players:
                self._finish_trick(dt.resolve(self.trick))
        elif ph == PHASE_SCORE:
            if self._score_roll(s, v):  # every score die is rolled
                self._score_game()
                if self.game < self.games:
                    # R3: the game's last-ranked seat leads the next one.
                    self.game_leader = dt.next_game_leader(self.game_ranks, self.game_leader)
                    self._start_game()
                else:
                    self._match_end()
        elif k == CHOOSE:
            self.choice[s] = v
        else:
            # A roll-off roll: once every contender has rolled, those as good
            # as the best stay in and roll again, the others are out.
            self.rolls[s] = v
            s = self._rolloff_best()  # from here: the best contender
            if s != _UNROLLED:
                self._knock_out(s)
                self._rolloff_round(s)

    def _table_roll_seat(self, ph):
        """The seat a roll by the table is for, in phase `ph`."""
        if ph == PHASE_DEAL:
            return self._pending_seat()
        if ph == PHASE_SCORE:
            return self._score_seat()
        return self._rolloff_seat()

    # --- the score dice and the game's scoring ---------------------------------

    def _score_seat(self):
        """The seat whose score die the table rolls next: clockwise from the game's leader."""
        n = self.players
        for k in range(n):
            s = (self.game_leader + k) % n
            if self.score_rolled[s] < self.score_n[s]:
                return s
        return -1

    def _score_waiting(self):
        if self.table_rolls:
            return TABLE_BIT
        mask = 0
        for s in range(self.players):
            if self.score_rolled[s] < self.score_n[s]:
                mask |= 1 << s
        return mask

    def _score_refusal(self, s, v):
        if s == TABLE:
            s = self._score_seat()
        if not dt.is_face(dt.size(self.score[s][self.score_rolled[s]]), v):
            return OUT_OF_RANGE
        return OK

    def _score_actions(self, out, seat):
        s = self._score_seat() if seat == TABLE else seat
        _add_faces(out, action(ROLL, seat, 0), self.score[s][self.score_rolled[s]])

    def _random_score(self, seat, draw):
        """A score roll without its seat: a face of the next score die."""
        s = self._score_seat() if seat == TABLE else seat
        return _face(self.score[s][self.score_rolled[s]], draw) | _ROLL_A

    def _score_roll(self, s, v):
        """Seat s's next score die shows `v`; True once every score die is rolled."""
        j = self.score_rolled[s]
        self.score[s][j] = dt.rolled(self.score[s][j], v)
        self.score_rolled[s] = j + 1
        for t in range(self.players):
            if self.score_rolled[t] < self.score_n[t]:
                return False
        return True

    def _score_game(self):
        """Every score die is rolled: the game's ranks (the core's ranks) and
        points, added to the match score (apply then sets up what follows)."""
        # While loops: a range loop's stack words would take the frame past 11.
        s = 0
        while s < self.players:  # filled first: the core scores from them
            self.game_counts[s] = self.score_n[s]
            self.game_totals[s] = self._score_total(s)
            s += 1
        dt.ranks(self.game_totals, self.game_counts, self.game_ranks)
        # The core's game_points, from the ranks just made (game_points would
        # rank again): each rank's victory points, or the variant's totals,
        # into history's next row.
        points = self.next_row()
        s = 0
        while s < self.players:
            if self.mode == dt.SCORE_TOTAL:
                points[s] = self.game_totals[s]
            else:
                points[s] = dt.victory_points(self.game_ranks[s])
            self._record_game(s, points)
            s += 1
        self.game += 1
        self.event |= EV_GAME

    def _record_game(self, s, points):
        self.game_points[s] = points[s]
        for j in range(self.game_counts[s]):
            self.game_dice[s][j] = self.score[s][j]
        self.totals[s] += points[s]

    def _match_end(self):
        """The core's match_winners, counted without its list: the seats
        with the most points; one wins, several roll off."""
        best = dt.most(self.totals)
        tied = 0
        s = 0
        while s < self.players:
            if self.totals[s] == best:
                tied += 1
                w = s
            s += 1
        if tied == 1:
            self._over(w)
            return
        s = 0
        while s < self.players:
            if self.totals[s] == best:
                self.contenders[s] = 1
            s += 1
        self.phase = PHASE_ROLLOFF
        self.event |= EV_ROLLOFF

    def _over(self, seat):
        self.winner = seat
        self.phase = PHASE_OVER
        self.event |= EV_OVER

    # --- the roll-off ------------------------------------------------------------

    def _rolloff_seat(self):
        """The seat the table rolls for next in the roll-off: lowest seat that chose."""
        for s in range(self.players):
            if self.contenders[s] and self.choice[s] != NO_CHOICE and self.rolls[s] == NO_ROLL:
                return s
        return -1

    def _rolloff_waiting(self):
        mask = 0
        for s in range(self.players):
            if not self.contenders[s] or self.rolls[s] != NO_ROLL:
                continue
            if not self.table_rolls or self.choice[s] == NO_CHOICE:
                mask |= 1 << s
            else:
                mask |= TABLE_BIT
        return mask

    def _rolloff_refusal(self, k, s, v):
        if s == TABLE:
            if k != ROLL:
                return WRONG_PHASE
            t = self._rolloff_seat()
            if not rolloff_ok(v) or v >> ROLLOFF_SIZE_SHIFT != self.choice[t]:
                return OUT_OF_RANGE
            return OK
        if self.table_rolls:
            if k != CHOOSE:
                return WRONG_PHASE  # the seat chooses its die; the table rolls it
            if v > dt.D20:
                return OUT_OF_RANGE
            return OK
        if not rolloff_ok(v):
            return OUT_OF_RANGE
        return OK

    def _rolloff_actions(self, out, seat):
        if seat == TABLE:
            size = self.choice[self._rolloff_seat()]
            _add_faces(out, _rolloff_word(seat, size), size << 5)
        elif self.table_rolls:  # the seat chooses its die, D4 (0) to D20; the table rolls it
            for size in range(dt.D4, dt.D20 + 1):
                out.append(_CHOOSE_A | (seat << SEAT_SHIFT) | size)
        else:
            for size in range(dt.D4, dt.D20 + 1):
                _add_faces(out, _rolloff_word(seat, size), size << 5)

    def _random_rolloff(self, seat, draw):
        """A roll-off action without its seat: the table rolls the die chosen,
        a seat chooses a size (the table rolling) or rolls any die."""
        if seat == TABLE:
            size = self.choice[self._rolloff_seat()]
            return (size << ROLLOFF_SIZE_SHIFT | _face(size << 5, draw)) | _ROLL_A
        if self.table_rolls:
            return draw(dt.D20 + 1) | _CHOOSE_A
        k = draw(_ROLLOFF_ROLLS)
        size = dt.D4
        while k >= _SIDES[size]:
            k -= _SIDES[size]
            size += 1
        return (size << ROLLOFF_SIZE_SHIFT | (dt.lowest_face(size) + k)) | _ROLL_A

    def _rolloff_best(self):
        """The contender with the best roll (the lowest seat of equals), -1 for
        no contender, or _UNROLLED while a contender has still to roll."""
        best = -1
        t = 0
        while t < self.players:  # a range loop's stack words would make the frame bigger
            if self.contenders[t]:
                if self.rolls[t] == NO_ROLL:
                    return _UNROLLED
                if best < 0 or _rolloff_compare(self.rolls[t], self.rolls[best]) == dt.FIRST_WINS:
                    best = t
            t += 1
        return best

    def _knock_out(self, best):
        """Contenders as good as `best` (itself too) stay in and roll again;
        the others are out."""
        t = 0
        while t < self.players:  # a range loop's stack words would make the frame bigger
            if (
                self.contenders[t]
                and _rolloff_compare(self.rolls[t], self.rolls[best]) != dt.ROLL_AGAIN
            ):
                self.contenders[t] = 0
            t += 1

    def _rolloff_round(self, best):
        """Every contender has rolled and the knock-out is done: the rolls
        are put by for the record, and the roll-off is over when `best`
        alone stays in."""
        tied = 0
        for t in range(self.players):
            tied += self.contenders[t]
            self.last_rolls[t] = self.rolls[t]
            self.rolls[t] = NO_ROLL
            self.choice[t] = NO_CHOICE
        self.rolloff_rounds += 1
        self.event |= EV_ROLLOFF_ROUND
        if tied == 1:
            self._over(best)

    # --- results -----------------------------------------------------------------------

    def standings(self, out=None):
        """Final place per seat (1 = best): the winner (alone: the roll-off decides
        only first place) is 1st; players tied with the winner on match points
        share 2nd; everyone else ranks by match points, competition ranking.
        Into `out` (emptied, its room kept) when given, else a new list."""
        out = emptied(out)
        s = 0
        while s < self.players:  # while loops: frames within the board's 11 words
            out.append(self._place(s))
            s += 1
        return out

    def _place(self, s):
        """Seat s's place in standings()."""
        w = self.winner
        if s == w:
            return 1
        above = 0
        t = 0
        while t < self.players:
            if self.totals[t] > self.totals[s]:
                above += 1
            t += 1
        if w >= 0 and self.totals[w] == self.totals[s]:
            above += 1
        return above + 1


MATCH = DtwwwMatch


# new(players, options): a fresh DTwww match.  The class itself, not a
# function calling it: games.new_match's call then makes the match with one
# frame less on the board's C stack.
new = DtwwwMatch
