"""Seltsam-Walzer's match engine, a round up to its tricks: the cards dealt
(DEALING) and passed (PASSING), and where every card is.

WalzerDeal keeps the place of every card (`place`, one byte a card in deck
order) and the match's state, made here as every phase reads it.
match.py's WalzerMatch is built on it: the tricks, the round's scoring and
every action taken to its phase (its docstring says how a match runs).
"""

from micropython import const

from dicetable.games.walzer import rules as walzer
from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    NOT_IN_HAND,
    OK,
    OUT_OF_TURN,
    PASS_ITEM,
    SEAT_SHIFT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import EVERY, OPEN_PLAY, Match, check_header, fill
from dicetable.rules.trick import Trick

# Phases.
DEALING = const(0)
PASSING = const(1)
PLAYING = const(2)
OVER = const(3)

FIRST_DEALER = const(0)

# Where a card is: one byte per card, a place kind | the seat it belongs to.
NOWHERE = const(0)  # undealt (registered play) or not yet played (open play)
IN_HAND = const(8)  # in seat's hand
PASSED = const(16)  # passed by seat, on its way to the left neighbour
IN_TRICK = const(24)  # in the current trick, played by seat
WON = const(32)  # in seat's won pile
SEAT_MASK = const(7)

# The deck once, in the core's order; a card's slot is its index here.
_DECK = walzer.deck()
CARDS = const(36)  # len(_DECK): a constant, so that no loop over the deck calls len()
_SLOTS = bytearray(256)  # card value -> slot + 1; 0 = not a card of this game
for _i in range(CARDS):
    _SLOTS[_DECK[_i]] = _i + 1


# The cards of one place gathered in deck order (_gather): a hand for the
# core's legality and the legal actions, or the cards open play has not seen
# (36 at most).  The module's, not the match's: asking must not change the
# match's state, and a list made per play would cost the heap.
_HAND = bytearray(CARDS)

# Action words with seat 0 and value 0: a seat's and a card's bits are ORed in.
_DEAL_A = action(DEAL, 0, 0)


def slot(v):
    """A card's index in the deck, or -1 if `v` is not one of the 36 cards."""
    if v < 0 or v > 255:
        return -1
    return _SLOTS[v] - 1


class WalzerDeal(Match):
    """A round up to its tricks (WalzerMatch's base): the cards' places and
    the phases DEALING and PASSING."""

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        n = players
        self.place = bytearray(len(_DECK))
        self.hand_n = bytearray(n)
        self.passed_n = bytearray(n)
        self.trick = Trick(n)
        self.last_trick_items = bytearray(n)  # every card fits a byte
        self.last_trick_seats = bytearray(n)
        self.totals = [0] * n
        # Each seat's won pile while a round is scored, emptied after (its
        # room kept): lists kept for the match, each with room for the whole
        # deck, as a refold scores every round again.
        self._piles = [[0] * CARDS for _ in range(n)]
        for pile in self._piles:
            del pile[EVERY]
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the table app's call (games.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(self.count_option(walzer.rounds(n)))
        self.reset()

    def reset(self):
        n = self.players
        self.open = self.flag(OPEN_PLAY)
        self.hand_size = walzer.hand_size(n)
        self.rounds = self.count_option(walzer.rounds(n))
        self.trick.clear()
        fill(self.last_trick_items, 0)
        fill(self.last_trick_seats, 0)
        self.last_winner = -1
        self.last_leader = -1
        self.last_trick_no = 0
        fill(self.totals, 0)
        self.reset_history()
        self.round = 0
        self.dealer = FIRST_DEALER
        self._start_round()

    # --- a round up to its tricks ---------------------------------------------

    def _start_round(self):
        # The trick is empty: reset() clears it, and so does every trick's end.
        for i in range(CARDS):
            self.place[i] = NOWHERE
        for s in range(self.players):
            self.hand_n[s] = 0
            self.passed_n[s] = 0
        self.tricks_done = 0
        if self.open:
            self.phase = PLAYING
            self.turn = self.dealer  # the dealer leads the first trick
        else:
            self.phase = DEALING
            self.turn = -1

    def _all_dealt(self):
        for s in range(self.players):
            if self.hand_n[s] < self.hand_size:
                return False
        return True

    def _finish_pass(self):
        """Every seat has passed: each takes the 2 cards from its right."""
        for i in range(CARDS):
            p = self.place[i]
            if (p & ~SEAT_MASK) == PASSED:
                p = ((p & SEAT_MASK) + 1) % self.players  # the left neighbour
                self.place[i] = IN_HAND | p
                self.hand_n[p] += 1
        for s in range(self.players):
            self.passed_n[s] = 0
        self.phase = PLAYING
        self.turn = self.dealer  # the dealer leads the first trick

    # --- refusals -------------------------------------------------------------

    def _deal_refusal(self, a):
        if kind_of(a) != DEAL:
            return WRONG_PHASE
        s = seat_of(a)
        if s >= self.players or self.hand_n[s] >= self.hand_size:
            return OUT_OF_TURN
        i = slot(value_of(a))
        if i < 0:
            return UNKNOWN_ITEM
        if self.place[i] != NOWHERE:
            return ALREADY_PLACED
        return OK

    def _pass_refusal(self, a):
        if kind_of(a) != PASS_ITEM:
            return WRONG_PHASE
        s = seat_of(a)
        if s >= self.players or self.passed_n[s] >= walzer.PASS_CARDS:
            return OUT_OF_TURN
        i = slot(value_of(a))
        if i < 0:
            return UNKNOWN_ITEM
        if self.place[i] != (IN_HAND | s):
            return NOT_IN_HAND
        return OK

    # --- the deal's actions, listed and drawn ---------------------------------

    def _deals(self, out):
        """Every card for every seat short of cards: the table app lists them
        per dealt card, so the inner loop is an OR.  While loops: two range
        loops' stack words would take the frame past 11."""
        i = 0
        while i < CARDS:
            if self.place[i] == NOWHERE:
                s = 0
                while s < self.players:
                    if self.hand_n[s] < self.hand_size:
                        out.append(_DECK[i] | _DEAL_A | (s << SEAT_SHIFT))
                    s += 1
            i += 1

    def _random_deal(self, draw):
        """A card not dealt yet, to a seat short of cards: one draw over their
        pairs, as legal_actions lists them."""
        short = self._short_seat(-1)
        r = draw(self._count(NOWHERE) * short)
        seat = self._short_seat(r % short)
        return _DECK[self._nth(NOWHERE, r // short)] | _DEAL_A | (seat << SEAT_SHIFT)

    def _short_seat(self, k):
        """The `k`-th seat (from 0) short of cards; k = -1: how many are."""
        n = 0
        for s in range(self.players):
            if self.hand_n[s] < self.hand_size:
                if n == k:
                    return s
                n += 1
        return n

    def _count(self, where):
        k = 0
        for i in range(CARDS):
            if self.place[i] == where:
                k += 1
        return k

    def _nth(self, where, k):
        """The slot of the `k`-th card (from 0, deck order) whose place is `where`."""
        for i in range(CARDS):
            if self.place[i] == where:
                if k == 0:
                    return i
                k -= 1
        return -1

    def _gather(self, where):
        """The cards whose place is `where` into _HAND, in deck order; how many."""
        n = 0
        for i in range(CARDS):
            if self.place[i] == where:
                _HAND[n] = _DECK[i]
                n += 1
        return n

    # --- places and inventory -------------------------------------------------

    def _cards(self, where, out):
        """`out` with the cards whose place is `where` appended, in deck order."""
        for i in range(CARDS):
            if self.place[i] == where:
                out.append(_DECK[i])
        return out

    def hand(self, seat):
        """Seat's hand in registered play, in deck order (colour, then number)."""
        return self._cards(IN_HAND | seat, [])

    def passed_cards(self, seat):
        """The cards seat has passed and the left neighbour has not yet taken."""
        return self._cards(PASSED | seat, [])

    def won_pile(self, seat):
        """The cards seat has won this round (the last round's, once over)."""
        return self._cards(WON | seat, [])

    def all_items(self):
        """The 36 cards (the rules core's encoding)."""
        return walzer.deck()

    def inventory(self):
        """Every card in its place right now: the undealt deck (open play: the
        cards not yet played, in the unseen hands), each hand, the cards being
        passed, the trick (read from the Trick buffer itself) and each won
        pile.  Cards never change, so the test compares the card values
        themselves with all_items()."""
        out = self._cards(NOWHERE, [])
        for s in range(self.players):
            out.extend(self.hand(s))
            out.extend(self.passed_cards(s))
            out.extend(self.won_pile(s))
        for j in range(self.trick.count):
            out.append(self.trick.items[j])
        return out
