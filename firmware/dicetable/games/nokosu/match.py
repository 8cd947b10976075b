"""Nokosu Dice (ノコスダイス): the match engine.

Player-readable rules: docs/rules/nokosu.md ("How the table runs a match").
Specification: RULES.md section 5.  Every rule the rules core holds (item
encoding, the R12 setup table and the sets in play, legality with must-follow
and keep-a-die, the trick result, round scoring, final places) is called from
dicetable.games.nokosu.rules; this module keeps the turns, the place of every item,
the dice faces and the score across the match.

Seats are 0..n-1 clockwise; "left" is the next seat clockwise.  The first
start player is seat 0; the start player moves one seat clockwise per round.

Phases (`phase`), one round after another (as many rounds as players; the
count option overrides):

    CHOOSING  3 players, once, before the first round: the table chooses the
              colour removed from the match (R12): CHOOSE, seat TABLE, value
              the colour (RED 0 .. PURPLE 4).  waiting() = TABLE_BIT
    DEALING   the cards: DEAL actions, seat field = the seat receiving the
              card (the player's scan), any card to any seat still short of
              cards, in any order.  waiting() = TABLE_BIT
    DRAWING   from the start player's left, clockwise, each seat in turn
              draws the R12 count of dice from the bag, one at a time: DEAL,
              seat field = that seat, value = the die's identity (number
              bits 0), a table action (waiting() = TABLE_BIT); then ROLL of
              its face (1-6) by that seat (waiting() = the seat's bit), or
              by the table when TABLE_ROLLS (seat TABLE, TABLE_BIT)
    CENTRE    the start player's centre dice, one at a time: DEAL, seat
              field TABLE (the centre), value the die's identity, then ROLL,
              seat TABLE.  Both are always table actions (the centre's own
              entry), whoever throws the dice.  waiting() = TABLE_BIT
    DRAFTING  from the start player's left, clockwise, each seat in turn
              (waiting() = its bit) takes one centre die: PICK, value the
              die as it shows; or declares a zero bid: ZERO_BID, value the
              centre die it returns to the bag, and takes a black die (the
              lower-numbered one left beside the bag).  A seat holding a
              black die cannot zero-bid again; with both black dice taken
              nobody can.  The draft ends when one centre die is left: it is
              the trump indicator (its colour and number are trump_colour,
              trump_number).  Every seat takes the R12 count.
    PLAYING   tricks, one seat at a time (waiting() = its bit): PLAY, value
              the item (a die as it shows).  The start player leads the
              first trick (the original names no one; see the rules page);
              then the last trick's winner leads.  After the R12 number of
              tricks every seat holds exactly its kept die: the round is
              scored and the next begins (or the match ends).
    OVER      the match has ended; waiting() = 0

OPEN_PLAY (cards not scanned): there is no DEALING phase (a round starts at
DRAWING, every seat counted as holding its cards).  Everything about the
dice stays, because dice lie face up and the kept die is the bid: CHOOSE,
the dice DEALs and ROLLs, PICK and ZERO_BID are the same actions as in
registered play.  A PLAY of a card is accepted from the seat on turn for any
card in play not yet played this round while the seat still has cards; a
PLAY of a die only for that seat's own dice; and the rules core's legality
is checked over what the table can see: the seat's dice plus the card
played.  So the black die and the last die are never accepted, and an
off-colour item is refused while one of the seat's own playable dice
follows the led colour; a card of the led colour, or any card or die when
the seat's dice cannot follow, is accepted (the hidden cards may be void).
Tricks and scoring are the same as in registered play.

Options read (OPTIONS): OPEN_PLAY, TABLE_ROLLS (the players' drawn dice
rolled by the table) and the count field (rounds, default = players, at most
12).  VARIANT, like any other option, is refused (check_header).

Refusals: MATCH_OVER after the end.  OUT_OF_TURN: a seat not waited on (for
a DEAL, the table must be waited on and the receiving seat must be the one
owed an item: a seat short of cards in the deal, the drawing seat, TABLE for
the centre).  WRONG_PHASE: a kind the phase does not take now.
UNKNOWN_ITEM: a value that is not an item of this match (bits outside the
encoding; with 3 players the removed colour, every 7 and each colour's fifth
die) or the wrong sort of item (a die in the card deal; a card or a black
die drawn, picked or returned).  ALREADY_PLACED: an item dealt, drawn or
picked that is not where it must come from (the deck, the bag, the centre).
NOT_IN_HAND: a play of an item that is not the seat's.  OUT_OF_RANGE: a
roll outside 1-6, a colour outside RED..PURPLE, a die value whose number
bits differ from the die's face (0 before its roll).  ILLEGAL_PLAY: the
core refuses the play (must-follow, the kept die, a black die), or a zero
bid by a seat already holding a black die or with none left.

After each completed trick: last_winner, last_leader, last_trick_no (1-based
within its round) and the preallocated buffers last_trick_items /
last_trick_seats (play order, dice as they show) hold it, until the next
trick completes (so the last trick of a round is still there once the round
is scored); `trick` itself is cleared at once and holds the trick in
progress.  After each scored
round: kept (the kept item per seat, as it shows), last_bids, last_tricks.

legal_actions(seat) and random_action(seat, draw) read one enumeration of the
legal actions, _legal() (open play's plays: _open_plays()): their items
gathered into a module buffer and the action words they go with (every item
with every word), so that drawing one uniformly (draw(n): a uniform int in
[0, n)) makes no list; take() applies it unchecked.

On the board every Python call nests about 250 bytes of C stack, and every
chain below the table app's call into the match is held to a budget
(tools/bench/bench_stack.py): so what an action completes (a trick, a round,
the match) is taken step after step in apply(), and the core's per-play rules
are asked from the method just below refusal(), legal_actions() and
random_action(), never deeper.

The engine is two classes, by phase: deal.py's NokosuDeal (the items'
places and faces; CHOOSING, DEALING, DRAWING, CENTRE and DRAFTING started
and their actions taken) and this module's NokosuMatch built on it (the
tricks, the round's scoring, the final places), which waits, refuses, lists,
draws and applies by phase, the phases of deal.py's included: their action
kinds and refusal codes are then globals of this module only, on the
board's heap.
"""

from array import array

from micropython import const

from dicetable.games.nokosu import rules as core
from dicetable.games.nokosu.deal import (
    _IDENTITY,
    BAG,
    BOX,
    CENTRE,
    CHOOSING,
    DEALING,
    DECK,
    DRAFTING,
    DRAWING,
    HAND,
    IN_CENTRE,
    IN_TRICK,
    OVER,
    PLAYING,
    SLOTS,
    WON,
    NokosuDeal,
    slot_of,
)
from dicetable.match.actions import (
    ALREADY_PLACED,
    CHOOSE,
    DEAL,
    ILLEGAL_PLAY,
    MALFORMED,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PICK,
    PLAY,
    ROLL,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    ZERO_BID,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import (
    OPEN_PLAY,
    TABLE_ROLLS,
    append_actions,
    emptied,
    malformed,
)

# deal.py's slot layout and the core's die bit (deal.py's copy of it), spelt
# again: their consts are private, so the board stores none of them to import,
# and these are folded into the code with no entry in this module's dict
# (tests/test_engine_fast.py holds them to deal.py's).
_CARD_SLOTS = const(40)  # deal._CARD_SLOTS
_DIE_SLOT0 = const(40)  # deal._DIE_SLOT0
_BLACK_SLOT0 = const(65)  # deal._BLACK_SLOT0
_DIE_BIT = const(0x40)  # deal._DIE_BIT
_HAND_MAX = const(16)  # the largest hand (15 items, 4 players) plus one card

# Scratch for the core's per-play calls: module-level, so that asking for the
# legal actions never changes a match's attributes.  _out also takes the items
# of the legal actions (the deck's cards, the bag's dice, the centre's, the
# legal plays, the faces of a roll); _words their action words, value 0 (a
# seat's DEALs, a PICK and its ZERO_BID), _form[0] how many, and _form[1]
# whether the words go outer (seat by seat, the deal) or inner (each die's
# PICK, then its ZERO_BID).
_hand = array("H", [0] * _HAND_MAX)
# Action words with seat 0 and value 0: a seat's bits are ORed in (a call of
# action() would be a frame more on the board's C stack).
_DEAL_A = action(DEAL, 0, 0)
_PICK_A = action(PICK, 0, 0)
_ZERO_BID_A = action(ZERO_BID, 0, 0)
_out = array("H", [0] * SLOTS)
_words = [0] * 8
_form = [1, 0]

# The core's per-play calls, one global each: a call of `core.is_legal_in`
# takes a stack word more than one of `_is_legal_in`, and these frames are full.
_context = core.context
_is_legal_in = core.is_legal_in
_legal_plays_in = core.legal_plays_in


def _values(low, high):
    """The values low to high - 1 into _out; how many."""
    for v in range(low, high):
        _out[v - low] = v
    return high - low


def _word(n, k):
    """The k-th legal action of those _legal() left, n items."""
    m = _form[0]
    if _form[1]:
        return _out[k % n] | _words[k // n]
    return _out[k // m] | _words[k % m]


class NokosuMatch(NokosuDeal):
    GAME = "nokosu"
    MIN_PLAYERS = core.MIN_PLAYERS
    MAX_PLAYERS = core.MAX_PLAYERS
    OPTIONS = OPEN_PLAY | TABLE_ROLLS
    # Five rounds of five players (~760 actions) is the longest journal of any
    # game: the one the boot is tested with (tests/test_boot_full_table.py).
    MAX_COUNT = 5

    def _finish_trick(self, won):
        """The trick is complete and the item at position `won` takes it (the
        core's resolve, asked by apply)."""
        t = self.trick
        winner = t.seats[won]
        i = 0
        while i < t.count:  # a range loop's stack words would take the frame past 11
            self.last_trick_items[i] = t.items[i]
            self.last_trick_seats[i] = t.seats[i]
            self.loc[slot_of(t.items[i])] = WON + winner
            i += 1
        self.last_winner = winner
        self.last_leader = t.seats[0]
        self.tricks[winner] += 1
        self.tricks_done += 1
        self.last_trick_no = self.tricks_done
        t.clear()
        self.turn = winner  # the winner leads the next trick
        self.leader = winner

    def _take_bids(self):
        """The round's tricks are played: each seat's kept die is its bid."""
        for seat in range(self.players):
            self._collect(HAND + seat, _hand)  # exactly the kept die is left
            self.kept[seat] = _hand[0]
            self.last_bids[seat] = core.bid_of(_hand[0])
            self.last_tricks[seat] = self.tricks[seat]

    def _score_round(self):
        """The round's scores (history's last row, the core's round_scores
        written into it by apply) added up; the match over after the last
        round (else apply starts the next)."""
        n = self.players
        scores = self.history[-1]
        for seat in range(n):
            self.totals[seat] += scores[seat]
        self.round += 1
        if self.round >= self.rounds:
            self.phase = OVER
            self.turn = -1
            self.leader = -1
        else:
            self.start = (self.start + 1) % n

    def _roller(self):
        return TABLE if self.table_rolls or self.phase == CENTRE else self.turn

    def waiting(self):
        p = self.phase
        if p == OVER:
            return 0
        if p == DRAWING and self.pending >= 0 and not self.table_rolls:
            return 1 << self.turn
        if p == DRAFTING or p == PLAYING:
            return 1 << self.turn
        return TABLE_BIT

    def _draw_receiver(self):
        return TABLE if self.phase == CENTRE else self.turn

    def refusal(self, a):
        if malformed(a):
            return MALFORMED
        p = self.phase
        if p == OVER:
            return MATCH_OVER
        seat = seat_of(a)
        if seat >= self.players and seat != TABLE:
            return OUT_OF_TURN
        # A DEAL is the table's action, whoever receives it; any other action
        # is its seat's (the table's when the seat is TABLE).
        if kind_of(a) == DEAL or seat == TABLE:
            if not self.waiting() & TABLE_BIT:
                return OUT_OF_TURN
        elif not self.waiting() & (1 << seat):
            return OUT_OF_TURN
        if p == CHOOSING:
            return self._choose_refusal(a)
        if p == DEALING:
            return self._deal_refusal(a)
        if p == DRAWING or p == CENTRE:
            return self._draw_refusal(a)
        if p == DRAFTING:
            return self._draft_refusal(a)
        code = self._play_refusal(a)
        if code != OK:
            return code
        # Must follow, keep a die, black dice: the core's legality, asked from
        # here rather than below _play_refusal, a frame nearer the table app's
        # call on the board's C stack.
        return OK if self._legal_play(a) else ILLEGAL_PLAY

    def _choose_refusal(self, a):
        if kind_of(a) != CHOOSE:
            return WRONG_PHASE
        return OK if value_of(a) < core.COLOURS else OUT_OF_RANGE

    def _deal_refusal(self, a):
        if kind_of(a) != DEAL:
            return WRONG_PHASE
        seat = seat_of(a)
        if seat == TABLE or self.cards_left[seat] >= self.cards_each:
            return OUT_OF_TURN
        slot = slot_of(value_of(a))
        if slot < 0 or slot >= _CARD_SLOTS or self.loc[slot] == BOX:
            return UNKNOWN_ITEM
        return OK if self.loc[slot] == DECK else ALREADY_PLACED

    def _draw_refusal(self, a):
        if self.pending >= 0:
            if kind_of(a) != ROLL:
                return WRONG_PHASE
            return OK if core.DIE_LOW <= value_of(a) <= core.DIE_HIGH else OUT_OF_RANGE
        if kind_of(a) != DEAL:
            return WRONG_PHASE
        if seat_of(a) != self._draw_receiver():
            return OUT_OF_TURN
        return self._die_refusal(value_of(a), BAG)

    def _draft_refusal(self, a):
        k = kind_of(a)
        if k == ZERO_BID:
            if self._holds_black(seat_of(a)) or self._free_black() < 0:
                return ILLEGAL_PLAY
        elif k != PICK:
            return WRONG_PHASE
        return self._die_refusal(value_of(a), IN_CENTRE)

    def _play_refusal(self, a):
        if kind_of(a) != PLAY:
            return WRONG_PHASE
        seat = seat_of(a)
        v = value_of(a)
        slot = slot_of(v)
        if slot < 0 or self.loc[slot] == BOX:
            return UNKNOWN_ITEM
        if self.open and slot < _CARD_SLOTS:
            if self.loc[slot] != DECK or self.cards_left[seat] == 0:
                return NOT_IN_HAND
        elif self.loc[slot] != HAND + seat:
            return NOT_IN_HAND
        if v != self.item(slot):
            return OUT_OF_RANGE
        return OK  # refusal() then asks the core whether the play is legal

    def _die_refusal(self, v, where):
        """A coloured die that must come from `where`, its face as it shows."""
        slot = slot_of(v)
        if slot < 0 or not _DIE_SLOT0 <= slot < _BLACK_SLOT0 or self.loc[slot] == BOX:
            return UNKNOWN_ITEM
        if self.loc[slot] != where:
            return ALREADY_PLACED
        return OK if v == _IDENTITY[slot] | self.face[slot] else OUT_OF_RANGE  # item(), inline

    def _legal_play(self, a):
        """The core's legality of play `a` over what the table knows of its
        seat's hand: all of it (registered), or its dice plus the card played
        (open play)."""
        n = self._collect(HAND + seat_of(a), _hand)
        if self.open and not value_of(a) & _DIE_BIT:
            _hand[n] = value_of(a)
            n += 1
        return _is_legal_in(
            _context(self.trick, self.trump_colour, self.trump_number), _hand, n, value_of(a)
        )

    def apply(self, a):
        p = self.phase
        if p == CHOOSING:
            self.removed = value_of(a)
            self._configure()
            self._start_round()
        elif p == DEALING:
            self._deal(seat_of(a), value_of(a))
        elif p == DRAWING or p == CENTRE:
            if kind_of(a) == DEAL:
                self._draw(seat_of(a), slot_of(value_of(a)))
            else:
                self._roll(value_of(a))
        elif p == DRAFTING:
            self._take(kind_of(a), seat_of(a), slot_of(value_of(a)))
            if not self.takes:
                self._start_play()  # the one die left is the trump indicator
        else:
            self._play(seat_of(a), value_of(a))
            if self.trick.count < self.players:
                return
            # The trick is complete, then maybe the round, then maybe the
            # match: each step called from here, not one below the other, so
            # that the core's rules run a frame or two nearer the table app's
            # call on the board's C stack.
            self._finish_trick(core.resolve(self.trick, self.trump_colour, self.trump_number))
            if self.tricks_done < self.tricks_per_round:
                return
            self._take_bids()
            # The core's round_scores into history's next row, then added up.
            core.round_scores(self.last_bids, self.last_tricks, self.next_row())
            self._score_round()
            if self.phase != OVER:
                self._start_round()

    def _play(self, seat, v):
        slot = slot_of(v)
        if slot < _CARD_SLOTS:
            self.cards_left[seat] -= 1
        self.loc[slot] = IN_TRICK
        if self.trick.count == 0:
            self.leader = seat
        self.trick.add(seat, v)
        if self.trick.count < self.players:
            self.turn = (self.turn + 1) % self.players

    def legal_actions(self, seat, out=None):
        out = emptied(out)
        n = self._open_plays() if self._open_turn(seat) else self._legal(seat)
        b = 0
        if _form[1] or _form[0] == 1:
            # Word by word, each with every item: the append in a loop of its own.
            while b < _form[0]:
                append_actions(out, _words[b], _out, n)
                b += 1
            return out
        while b < n * _form[0]:  # each die's PICK, then its ZERO_BID
            out.append(_word(n, b))
            b += 1
        return out

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely, drawn without listing
        them: draw(n) returns a uniform int in [0, n).  -1 when `seat` has
        none.  Changes nothing; take() applies it unchecked."""
        n = self._open_plays() if self._open_turn(seat) else self._legal(seat)
        if n == 0:
            return -1
        return _word(n, draw(n * _form[0]))

    def _legal(self, seat):
        """The legal actions of `seat` now: their items into _out (how many:
        returned), their words into _words (see _form)."""
        p = self.phase
        _form[0] = 1
        _form[1] = 0
        if p == OVER or not self.waiting() & (TABLE_BIT if seat == TABLE else 1 << seat):
            return 0
        if p == CHOOSING:
            _words[0] = action(CHOOSE, TABLE, 0)
            return _values(0, core.COLOURS)
        if p == DEALING:
            self._deal_words()
            return self._collect(DECK, _out)
        if p == DRAWING or p == CENTRE:
            if self.pending >= 0:
                _words[0] = action(ROLL, self._roller(), 0)
                return _values(core.DIE_LOW, core.DIE_HIGH + 1)
            _words[0] = action(DEAL, self._draw_receiver(), 0)
            return self._collect(BAG, _out)
        if p == DRAFTING:
            # Each centre die's PICK, then its ZERO_BID when the seat may.
            _words[0] = _PICK_A | (seat << SEAT_SHIFT)
            if not self._holds_black(seat) and self._free_black() >= 0:
                _words[1] = _ZERO_BID_A | (seat << SEAT_SHIFT)
                _form[0] = 2
            return self._collect(IN_CENTRE, _out)
        # The core's legal plays of the seat's hand (open play's plays are
        # _open_plays', which legal_actions and random_action call instead).
        _words[0] = action(PLAY, seat, 0)
        n = self._collect(HAND + seat, _hand)
        return _legal_plays_in(
            _context(self.trick, self.trump_colour, self.trump_number), _hand, n, _out
        )

    def _deal_words(self):
        """Every deck card to every seat short of cards, seat by seat."""
        m = 0
        for s in range(self.players):
            if self.cards_left[s] < self.cards_each:
                _words[m] = _DEAL_A | (s << SEAT_SHIFT)
                m += 1
        _form[0] = m
        _form[1] = 1

    def _open_turn(self, seat):
        """True when `seat` is on turn to play in open play: legal_actions and
        random_action then list its plays themselves (_open_plays), not below
        _legal, so that the core's legality is a frame nearer their caller on
        the board's C stack."""
        return self.open and self.phase == PLAYING and seat == self.turn

    def _open_plays(self):
        """Open play: the items the table cannot refuse the seat on turn, into
        _out in slot order (how many: returned): the cards in play not played
        yet (while it has cards) and its own dice, each if the core allows it
        over what the table sees of the hand, the seat's dice and that card."""
        _form[0] = 1
        _form[1] = 0
        _words[0] = action(PLAY, self.turn, 0)
        n = self._collect(HAND + self.turn, _hand)  # the seat's dice
        ctx = _context(self.trick, self.trump_colour, self.trump_number)
        k = 0
        slot = 0  # while loops: range loops' stack words would take the frame past 11
        if self.cards_left[self.turn]:
            while slot < _CARD_SLOTS:  # the cards first: their slots are the lowest
                if self.loc[slot] == DECK:
                    _hand[n] = _IDENTITY[slot]  # a card beside the dice
                    if _is_legal_in(ctx, _hand, n + 1, _IDENTITY[slot]):
                        _out[k] = _IDENTITY[slot]
                        k += 1
                slot += 1
        slot = 0  # from here: a position among the seat's dice
        while slot < n:
            if _is_legal_in(ctx, _hand, n, _hand[slot]):
                _out[k] = _hand[slot]
                k += 1
            slot += 1
        return k

    def hand(self, seat):
        """The items a seat holds now, as they show (open play: its dice only)."""
        # Gathered as every legality check gathers them: no comprehension of
        # its own (this module's code is at the heap's tightest margin).
        return list(_hand[: self._collect(HAND + seat, _hand)])

    def centre(self):
        """The centre dice not yet taken, as they show."""
        return list(_out[: self._collect(IN_CENTRE, _out)])

    def standings(self, out=None):
        """Final places (1 = best): the higher total; a tie goes to the larger
        die kept in the last round (black 0); equal there too, shared.  Into
        `out` (emptied, its room kept) when given, else a new list."""
        out = emptied(out)
        return core.standings(self.totals, self.last_bids, out)


MATCH = NokosuMatch


# new(players, options): a fresh Nokosu Dice match.  The class itself, not a
# function calling it: games.new_match's call then makes the match with one
# frame less on the board's C stack.
new = NokosuMatch
