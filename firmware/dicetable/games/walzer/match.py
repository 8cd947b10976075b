"""Seltsam-Walzer (へんてこワルツ): the match engine.

Player-readable rules: docs/rules/walzer.md ("How the table runs a match").
Specification: RULES.md section 2.  Every rule the rules core holds (follow
obligation, trick result, round scoring, deal sizes, final places) is called
from dicetable.games.walzer.rules; this module keeps the turns, the places of the
cards and the score across the match.

Phases of one round (as many rounds as players; the count option overrides):

    DEALING   the table deals all 36 cards: DEAL actions, seat field = the
              seat receiving the card, any order; waiting() = TABLE_BIT
    PASSING   every seat passes 2 cards to the left at the same time:
              PASS_ITEM actions, any seat, any order; a passed card leaves
              the hand at once but the cards arrive only when every seat
              has passed both
    PLAYING   tricks: the dealer leads the first, then the last trick's
              winner; PLAY actions, clockwise, one seat at a time
    OVER      the match has ended (waiting() = 0)

The first dealer is seat 0; the dealer moves one seat clockwise per round.

OPEN_PLAY (hands not scanned): there is no DEALING and no PASSING phase; a
round starts at PLAYING, the dealer leading.  A PLAY is accepted from the
seat on turn for any card not yet played this round; the follow obligation
is not checked (the table cannot see the hands).  Tricks and scoring are the
same as in registered play.  Options read (OPTIONS): OPEN_PLAY and the count
field (number of rounds, default = players, at most 12).  TABLE_ROLLS and
VARIANT are refused (check_header).

Refusals: MATCH_OVER after the end; WRONG_PHASE for a kind the phase does
not take; OUT_OF_TURN for a seat not waited on (a DEAL to a seat that is
not playing or already holds its full hand, a third PASS_ITEM, a PLAY off
turn); UNKNOWN_ITEM for a value that is not one of the 36 cards;
ALREADY_PLACED for a card dealt twice (open play: a card already played
this round); NOT_IN_HAND for a pass or play of a card the seat does not
hold; ILLEGAL_PLAY for a play that breaks the follow obligation.

State a transcript reads: `phase`, `round` (0-based, rounds played so far),
`dealer`, `turn` (the seat to play, -1 outside PLAYING), `tricks_done` in
the round, `place` (one byte per card in deck order: NOWHERE, or IN_HAND /
PASSED / IN_TRICK / WON | seat), `hand_n` and `passed_n` per seat; hand(),
passed_cards() and won_pile() list them.

After each completed trick: last_winner, last_leader, last_trick_no
(1-based within its round) and the preallocated buffers last_trick_items /
last_trick_seats (play order) hold it; `trick` itself is cleared at once.

random_action(seat, draw) draws one of legal_actions(seat) uniformly without
making the list (draw(n): a uniform int in [0, n)); take() applies it
unchecked.

The engine is two classes, by phase: deal.py's WalzerDeal (the cards'
places; DEALING, PASSING) and this module's WalzerMatch built on it (the
tricks, the round's scoring, the final places), which waits, refuses, lists,
draws and applies by phase.
"""

from dicetable.games.walzer import rules as walzer
from dicetable.games.walzer.deal import (
    _DECK,
    _HAND,
    CARDS,
    DEALING,
    IN_HAND,
    IN_TRICK,
    NOWHERE,
    OVER,
    PASSED,
    PASSING,
    PLAYING,
    SEAT_MASK,
    WON,
    WalzerDeal,
    slot,
)
from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    ILLEGAL_PLAY,
    MALFORMED,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_TURN,
    PASS_ITEM,
    PLAY,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import EVERY, OPEN_PLAY, append_actions, emptied, malformed

# Action words with seat 0 and value 0: a seat's and a card's bits are ORed in.
_PASS_A = action(PASS_ITEM, 0, 0)
_PLAY_A = action(PLAY, 0, 0)


class WalzerMatch(WalzerDeal):
    GAME = "walzer"
    MIN_PLAYERS = walzer.MIN_PLAYERS
    MAX_PLAYERS = walzer.MAX_PLAYERS
    OPTIONS = OPEN_PLAY
    # Its longest journal no longer than a 5-player Nokosu match's (~760
    # actions), the longest the boot is tested with (tests/test_boot_full_table.py).
    MAX_COUNT = 9

    # --- the tricks and the round's end ----------------------------------------

    def _finish_trick(self, won):
        """The trick is complete and the card at position `won` takes it (the
        core's resolve, asked by apply)."""
        t = self.trick
        winner = t.seats[won]
        i = 0
        while i < t.count:  # a range loop's stack words would take the frame past 11
            self.last_trick_items[i] = t.items[i]
            self.last_trick_seats[i] = t.seats[i]
            self.place[slot(t.items[i])] = WON | winner
            i += 1
        self.last_winner = winner
        self.last_leader = t.seats[0]
        self.tricks_done += 1
        self.last_trick_no = self.tricks_done
        t.clear()
        self.turn = winner  # the winner leads the next trick

    def _gather_piles(self):
        """Every trick of the round is played: each seat's won pile, for the
        core's round_scores (apply asks it)."""
        # The won piles in one pass over the deck (deck order, as won_pile()
        # lists them), in a while loop: a range loop's stack words would take
        # the frame past 11.
        piles = self._piles
        i = 0
        while i < CARDS:
            p = self.place[i]
            if p & ~SEAT_MASK == WON:
                piles[p & SEAT_MASK].append(_DECK[i])
            i += 1

    def _score_round(self):
        """The round's scores (history's last row, the core's round_scores
        written into it by apply) added to the totals; the piles emptied."""
        scores = self.history[-1]
        piles = self._piles
        i = 0
        while i < self.players:
            del piles[i][EVERY]  # emptied, its room kept
            self.totals[i] += scores[i]
            i += 1
        self.round += 1
        if self.round >= self.rounds:
            self.phase = OVER  # the last round's won piles stay where they are
            self.turn = -1
            return
        self.dealer = (self.dealer + 1) % self.players  # clockwise

    def standings(self, out=None):
        """Final place per seat (1 = best): highest total; tie -> higher score
        in the last round; still tied -> shared place (1, 1, 3).  Into `out`
        (emptied, its room kept) when given, else a new list."""
        out = emptied(out)
        # Before any round is scored every total is 0: the zero row ties them too.
        last = self.history[-1] if self.history else self._rows[0]
        return walzer.standings(self.totals, last, out)

    # --- the Match interface --------------------------------------------------

    def waiting(self):
        if self.phase == DEALING:
            return TABLE_BIT
        if self.phase == PASSING:
            mask = 0
            for s in range(self.players):
                if self.passed_n[s] < walzer.PASS_CARDS:
                    mask |= 1 << s
            return mask
        if self.phase == PLAYING:
            return 1 << self.turn
        return 0

    def refusal(self, a):
        if malformed(a):
            return MALFORMED
        ph = self.phase
        if ph == DEALING:
            return self._deal_refusal(a)
        if ph == PASSING:
            return self._pass_refusal(a)
        if ph != PLAYING:
            return MATCH_OVER
        code = self._play_refusal(a)
        if code != OK or self.open:
            return code
        # The follow obligation over the seat's hand (the core's is_legal),
        # asked from here rather than below _play_refusal: a frame nearer the
        # table app's call on the board's C stack.
        if walzer.is_legal(_HAND, self._gather(IN_HAND | self.turn), self.trick, value_of(a)):
            return OK
        return ILLEGAL_PLAY

    def _play_refusal(self, a):
        """A play's kind, turn and card (OK: refusal() then asks the core
        whether the card follows)."""
        if kind_of(a) != PLAY:
            return WRONG_PHASE
        s = seat_of(a)
        if s != self.turn:
            return OUT_OF_TURN
        i = slot(value_of(a))
        if i < 0:
            return UNKNOWN_ITEM
        if self.open:
            # Open play: any card not yet seen this round could be in the hand.
            if self.place[i] != NOWHERE:
                return ALREADY_PLACED
            return OK
        if self.place[i] != (IN_HAND | s):
            return NOT_IN_HAND
        return OK

    def apply(self, a):
        k = kind_of(a)
        s = seat_of(a)
        v = value_of(a)
        i = slot(v)
        if k == DEAL:
            self.place[i] = IN_HAND | s
            self.hand_n[s] += 1
            if self._all_dealt():
                self.phase = PASSING
        elif k == PASS_ITEM:
            self.place[i] = PASSED | s
            self.hand_n[s] -= 1
            self.passed_n[s] += 1
            if self.waiting() == 0:
                self._finish_pass()
        elif k == PLAY:
            if not self.open:
                self.hand_n[s] -= 1
            self.place[i] = IN_TRICK | s
            self.trick.add(s, v)
            if self.trick.count < self.players:
                self.turn = (s + 1) % self.players  # clockwise
                return
            # The trick is complete, then maybe the round, then maybe the
            # match: each step called from here, not one below the other, so
            # that the deepest is a frame or two nearer the table app's call on
            # the board's C stack.
            self._finish_trick(walzer.resolve(self.trick))
            if self.tricks_done < self.hand_size:
                return
            # The round's scores, from here too: the core's round_scores of
            # the won piles, written into history's next row.
            self._gather_piles()
            walzer.round_scores(self._piles, self.next_row())
            self._score_round()
            if self.phase != OVER:
                self._start_round()

    def legal_actions(self, seat, out=None):
        out = emptied(out)
        ph = self.phase
        if ph == DEALING:
            if seat == TABLE:
                self._deals(out)
        elif seat >= self.players:
            pass
        elif ph == PASSING:
            if self.passed_n[seat] < walzer.PASS_CARDS:
                n = self._gather(IN_HAND | seat)
                append_actions(out, _PASS_A | (seat << SEAT_SHIFT), _HAND, n)
        elif ph == PLAYING and seat == self.turn:
            # Open play: any card not played yet this round; else the core's
            # legal plays of the hand, compacted in place.
            n = self._gather(NOWHERE if self.open else IN_HAND | seat)
            if not self.open:
                n = walzer.legal_plays(_HAND, n, self.trick, _HAND)
            append_actions(out, _PLAY_A | (seat << SEAT_SHIFT), _HAND, n)
        return out

    # --- One legal action at random, none listed ------------------------------

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely, drawn without listing
        them: draw(n) returns a uniform int in [0, n).  -1 when `seat` has
        none.  Changes nothing; take() applies the action unchecked."""
        ph = self.phase
        if ph == PLAYING:
            if seat != self.turn:
                return -1
            # The cards legal_actions lists, in its order, and one drawn.
            n = self._gather(NOWHERE if self.open else IN_HAND | seat)
            if not self.open:
                n = walzer.legal_plays(_HAND, n, self.trick, _HAND)
            return _HAND[draw(n)] | _PLAY_A | (seat << SEAT_SHIFT)
        if ph == PASSING:
            if seat >= self.players or self.passed_n[seat] >= walzer.PASS_CARDS:
                return -1
            n = self._gather(IN_HAND | seat)  # the hand in deck order, as listed
            return _HAND[draw(n)] | _PASS_A | (seat << SEAT_SHIFT)
        if ph != DEALING or seat != TABLE:
            return -1
        return self._random_deal(draw)


MATCH = WalzerMatch


# new(players, options): a fresh Seltsam-Walzer match for 3 or 4 players.  The
# class itself, not a function calling it: games.new_match's call then makes
# the match with one frame less on the board's C stack.
new = WalzerMatch
