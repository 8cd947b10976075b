"""d-TT's match engine, a deal up to its tricks: the four cards turned up
(REVEALING), both dealings and drafts (DEALING_1, DRAFT_1, DEALING_2,
DRAFT_2) and the bids (BIDDING).

DttDeal keeps every card where it is (`where`, the stock, the hands, the
draft packets) and the match's state, made here as every phase reads it.
match.py's DttMatch is built on it: the tricks, the deal's scoring and every
action taken to its phase (its docstring says how a match runs).
"""

from micropython import const

from dicetable.games.dtt import rules as dtt
from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    NOT_IN_HAND,
    OK,
    OUT_OF_TURN,
    SEAT_SHIFT,
    TABLE,
    UNKNOWN_ITEM,
    action,
    seat_of,
    value_of,
)
from dicetable.match.engine import OPEN_PLAY, Match, check_header, fill
from dicetable.rules.trick import Trick

# Phases.
REVEALING = const(0)
DEALING_1 = const(1)
DRAFT_1 = const(2)
BIDDING = const(3)
DEALING_2 = const(4)
DRAFT_2 = const(5)
PLAYING = const(6)
OVER = const(7)

FIRST_DEALER = const(0)
PICKS = const(5)  # KEEP picks per draft; the 6th card comes by itself
LEFT = const(1)  # draft 1: a packet goes from seat s to s + 1
RIGHT = const(2)  # draft 2: from s to s - 1 (= s + 2 with 3 players)

# Where a card is: where[card] (one byte per card encoding, 64 slots).
_STOCK = const(0)  # undealt; in open play also "in some hand, unseen"
_FACE_UP = const(1)
HAND = const(2)  # 2, 3, 4: seat's kept cards
# 5, 6, 7: the draft packet dealt to seat 0, 1, 2, held now by seat
# (that + passed) % 3, so that passing the packets rewrites no card's place.
_PACKET = const(5)
PLAYED = const(8)  # to a trick this deal: on the table or in a won pile

_VOID = const(255)  # a slot of `where` that is no card (rank index 10-15)
_SLOTS = const(64)  # `where` is indexed by the card's own encoding
_ALL = const(7)  # every seat's bit
_DECK = const(40)
SUIT_SHIFT = const(4)  # the core's encoding: a card's suit in bits 4-5
# The core's numbers and per-play calls the hot paths use, as names of this
# module: one lookup, not two, at every play (and folded on the board).
SUITS = const(4)  # dtt.SUITS
_RANKS = const(10)  # dtt.RANKS
_PACKET_CARDS = const(6)  # dtt.DRAFT_CARDS


def is_card(value):
    """True if `value` is a card of the d-TT deck (core encoding)."""
    return (value >> 4) < dtt.SUITS and (value & 0x0F) < dtt.RANKS


def _close(buf, i, n):
    """Remove buf[i] from buf[0:n] keeping the order of the rest; return n - 1."""
    n -= 1
    for j in range(i, n):
        buf[j] = buf[j + 1]
    return n


def _pass_on(buf, step):
    """Move buf[s] to buf[s + step] (mod 3) for every seat, in place: the
    draft runs on every refold, so passing the packets must not allocate."""
    if step == LEFT:
        last = buf[2]
        buf[2] = buf[1]
        buf[1] = buf[0]
        buf[0] = last
    else:
        first = buf[0]
        buf[0] = buf[1]
        buf[1] = buf[2]
        buf[2] = first


class DttDeal(Match):
    """A deal up to its tricks (DttMatch's base): the cards' places and the
    phases REVEALING to DRAFT_2."""

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        # Lists, not bytearrays: CPython's subscripts of a list are its fast
        # ones (twice an array's speed in a playout), and on the board a list
        # of small ints is as free of allocation; it costs 4 bytes a slot.
        # The slots that are no card are never written again (every place
        # written is a card's): reset leaves them, here and in slot[].
        self.where = [_VOID] * _SLOTS
        self.faceup = [0] * dtt.FACE_UP
        self.hands = [[0] * dtt.HAND_SIZE for _ in range(3)]
        self.hand_n = [0] * 3
        self.packets = [[0] * dtt.DRAFT_CARDS for _ in range(3)]
        self.packet_n = [0] * 3
        self.kept = [0] * 3
        self.bids = [0] * 3
        self.taken = [0] * 3
        self.won = [[0] * (3 * dtt.TRICKS) for _ in range(3)]
        self.won_n = [0] * 3
        self.trick = Trick(3)
        self.last_trick_items = [0] * 3
        self.last_trick_seats = [0] * 3
        self.stock = [0] * _DECK
        self.slot = [0] * _SLOTS
        self.held = [0] * (3 * dtt.SUITS)
        self.totals = [0, 0, 0]
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the table app's call (games.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(self.count_option(dtt.DEFAULT_DEALS))  # a row per deal
        self.reset(True)

    def reset(self, fresh=False):
        """The state before the first action.  `fresh`: the buffers were just
        made (a new match), all zeros, and are left as they are: a new match
        costs 40 % less, and the designers' lab makes one for every match it
        plays (docs/performance.md, "The lab's random matches")."""
        self.open = self.flag(OPEN_PLAY)
        self.deals = self.count_option(dtt.DEFAULT_DEALS)
        self.phase = REVEALING
        self.dealer = FIRST_DEALER
        self._restock()
        self.best = 0
        self.faceup_n = 0
        self.trump = dtt.NO_TRUMP
        if not fresh:
            fill(self.held, 0)
            fill(self.faceup, 0)
            # One loop over the seats for every per-seat buffer: every refold runs this.
            for s in range(3):
                fill(self.hands[s], 0)
                fill(self.packets[s], 0)
                fill(self.won[s], 0)
                self.hand_n[s] = self.packet_n[s] = self.kept[s] = 0
                self.bids[s] = self.taken[s] = self.won_n[s] = self.totals[s] = 0
                self.last_trick_items[s] = self.last_trick_seats[s] = 0
            self.trick.clear()
            self.reset_history()
        self.pick = 0
        self.passed = 0
        self.to_act = 0
        self.tricks_done = 0
        self.leader = (FIRST_DEALER + 1) % 3
        self.turn = self.leader
        self.last_winner = -1
        self.last_leader = -1

    def _restock(self):
        """Every card in the stock, in the order of the encoding."""
        # The buffers as locals (every refold and every new match runs this),
        # in one loop: a frame within the 11 words the board keeps on the C stack.
        where = self.where
        stock = self.stock
        slot = self.slot
        c = 0
        for i in range(_DECK):
            where[c] = _STOCK
            stock[i] = c
            slot[c] = i
            c += 1
            if c & 0x0F == _RANKS:  # past a suit's last rank: the next suit's first
                c += (1 << SUIT_SHIFT) - _RANKS
        self.stock_n = _DECK

    # --- What exists ----------------------------------------------------------

    def all_items(self):
        """The 40 cards (core encoding)."""
        return dtt.deck()

    def inventory(self):
        """Every card in its place right now, gathered from the containers
        themselves: undealt (in open play: undealt or unseen in some hand),
        face up, each hand, each draft packet, the trick, each won pile.
        Cards have no changing state: compare the items as they are."""
        out = []
        for c in range(_SLOTS):
            if self.where[c] == _STOCK:
                out.append(c)
        for i in range(self.faceup_n):
            out.append(self.faceup[i])
        for s in range(3):
            for i in range(self.hand_n[s]):
                out.append(self.hands[s][i])
            for i in range(self.packet_n[s]):
                out.append(self.packets[s][i])
            for i in range(self.won_n[s]):
                out.append(self.won[s][i])
        for i in range(self.trick.count):
            out.append(self.trick.items[i])
        return out

    # --- The deal's actions, listed and drawn ---------------------------------

    def _stock_actions(self, base, out):
        """The action `base` for every card still in the stock."""
        for c in range(_SLOTS):
            if self.where[c] == _STOCK:
                out.append(c | base)

    def _deals(self, out):
        """Every card for every seat short of cards: the table app lists them
        per dealt card, so the inner loop is an OR."""
        for c in range(_SLOTS):
            if self.where[c] == _STOCK:
                self._deal_to_short(c, out)

    def _deal_to_short(self, c, out):
        deal = action(DEAL, 0, c)
        for s in range(3):
            if self.packet_n[s] < dtt.DRAFT_CARDS:
                out.append((s << SEAT_SHIFT) | deal)

    def _deal_at(self, draw):
        """A seat short of cards and a place in the stock, drawn as one pair
        (legal_actions lists every pair): seat << 8 | place."""
        pn = self.packet_n
        short = (pn[0] < _PACKET_CARDS) + (pn[1] < _PACKET_CARDS) + (pn[2] < _PACKET_CARDS)
        r = draw(self.stock_n * short)
        seat = r % short
        if short < 3:
            seat = self._short_seat(seat)
        return seat << 8 | r // short

    def _short_seat(self, k):
        """The `k`-th seat (from 0) still short of cards."""
        for s in range(3):
            if self.packet_n[s] < dtt.DRAFT_CARDS:
                if k == 0:
                    return s
                k -= 1
        return -1

    # --- Refusals (never change anything) -------------------------------------

    def _reveal_refusal(self, a):
        if seat_of(a) != TABLE:
            return OUT_OF_TURN
        return self._stock_refusal(value_of(a))

    def _deal_refusal(self, a):
        seat = seat_of(a)
        if seat >= 3 or self.packet_n[seat] >= dtt.DRAFT_CARDS:
            return OUT_OF_TURN
        return self._stock_refusal(value_of(a))

    def _stock_refusal(self, value):
        """A card that must still be in the stock (undealt; open play: unseen)."""
        if not is_card(value):
            return UNKNOWN_ITEM
        if self.where[value] != _STOCK:
            return ALREADY_PLACED
        return OK

    def _keep_refusal(self, seat, value):
        if not is_card(value):
            return UNKNOWN_ITEM
        if self.where[value] != _PACKET + (seat + 3 - self.passed) % 3:
            return NOT_IN_HAND
        return OK

    # --- Taking an action -----------------------------------------------------

    def _bid(self, seat, bid):
        self.bids[seat] = bid
        self.to_act &= ~(1 << seat)
        if self.to_act == 0:
            if self.open:
                self._start_play()
            else:
                self.phase = DEALING_2

    def _reveal(self, c):
        if self.faceup_n == 0:
            # A new deal: the last deal's numbers were kept readable until now.
            for s in range(3):
                self.bids[s] = 0
                self.taken[s] = 0
            self.tricks_done = 0
        self._unstock(self.slot[c])
        self.where[c] = _FACE_UP
        self.faceup[self.faceup_n] = c
        self.faceup_n += 1
        if self.faceup_n == dtt.FACE_UP:
            self.trump = dtt.trump_suit(self.faceup)
            if self.open:
                self._start_bidding()
            else:
                self.phase = DEALING_1

    def _unstock(self, i):
        """Take stock[i] out of the stock and return it: it changes places
        with the last card, so stock[] stays all the deck and the next deal
        restocks it in place."""
        stock = self.stock
        slot = self.slot
        n = self.stock_n - 1
        self.stock_n = n
        c = stock[i]
        last = stock[n]
        stock[i] = last
        slot[last] = i
        stock[n] = c
        slot[c] = n
        return c

    def _deal(self, seat, i):
        """Deal stock[i] to `seat`; return the card."""
        c = self._unstock(i)
        self.where[c] = _PACKET + seat  # passed is 0 until the draft
        pn = self.packet_n
        n = pn[seat]
        self.packets[seat][n] = c
        pn[seat] = n + 1
        # Each dealing takes 18 of the 36 cards the face-up four leave: it is
        # over when the stock is down to 18, then to 0.
        if self.stock_n % (3 * _PACKET_CARDS) == 0:
            self.phase = DRAFT_1 if self.phase == DEALING_1 else DRAFT_2
            self.pick = 0
            self.passed = 0
            self.to_act = _ALL
        return c

    def _keep(self, seat, i):
        """`seat` keeps the card at place i of its packet; return the card.
        The packet's order is kept: legal_actions lists in packet order."""
        packet = self.packets[seat]
        c = packet[i]
        self.packet_n[seat] = _close(packet, i, self.packet_n[seat])
        self._to_hand(seat, c)
        self.kept[seat] = c
        self.to_act &= ~(1 << seat)
        return c

    def _move_packets(self):
        """Everyone has kept: the packets move on together."""
        self.pick += 1
        step = LEFT if self.phase == DRAFT_1 else RIGHT
        _pass_on(self.packets, step)
        _pass_on(self.packet_n, step)
        self.passed = (self.passed + step) % 3
        if self.pick < PICKS:
            self.to_act = _ALL
            return
        # The one card passed on after the last pick joins the hand by itself.
        for s in range(3):
            c = self.packets[s][0]
            self.packet_n[s] = 0
            self._to_hand(s, c)
        if self.phase == DRAFT_1:
            self._start_bidding()
        else:
            self._start_play()

    def _to_hand(self, seat, c):
        self.where[c] = HAND + seat
        hn = self.hand_n
        n = hn[seat]
        self.hands[seat][n] = c
        hn[seat] = n + 1
        self.held[seat * SUITS + (c >> SUIT_SHIFT)] += 1

    def _start_bidding(self):
        self.phase = BIDDING
        self.to_act = _ALL

    def _start_play(self):
        self.phase = PLAYING
        self.to_act = 0
        self.leader = (self.dealer + 1) % 3
        self.turn = self.leader
        self.trick.clear()

    def _next_deal(self):
        """Every card back to the stock for the next deal; the dealer moves clockwise."""
        self.dealer = (self.dealer + 1) % 3
        for i in range(_DECK):
            self.where[self.stock[i]] = _STOCK
        self.stock_n = _DECK
        self.faceup_n = 0
        for s in range(3):
            self.hand_n[s] = 0
            self.packet_n[s] = 0
            self.won_n[s] = 0
        self.phase = REVEALING
