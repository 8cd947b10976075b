"""d-TT (ᴅ-トリテ): the match engine (layer 3).

Player-readable: docs/rules/dtt.md, section "How the table runs a match".
Specification: RULES.md section 4 (R10, R11).  Every rule the rules core
holds (trump choice, follow obligation, trick result, bid range, deal
scoring, standings) is called from dicetable.games.dtt.rules, never re-written.

Exactly 3 players.  The first dealer is seat 0; the dealer moves clockwise
(seat + 1) after each deal.  A match is count_option(3) deals (R11).

One deal, phase by phase (registered hands, the default):

    REVEALING   the table turns up 4 cards:        REVEAL, seat TABLE, card
                (after the 4th the core's trump_suit() fixes trump, R10)
    DEALING_1   6 cards to each seat, any order:   DEAL, seat = receiver, card
    DRAFT_1     5 picks, all three at once:        KEEP, seat, card of its packet
                a pick ends when all three have kept; the packets then pass
                LEFT (seat s -> s + 1); after the 5th pick the single card
                passed on joins the receiver's hand by itself (no choice)
    BIDDING     all three at once, 0..12:          BID, seat, bid
    DEALING_2   as DEALING_1
    DRAFT_2     as DRAFT_1, packets pass RIGHT (seat s -> s - 1)
    PLAYING     12 tricks, the dealer's left leads the first, clockwise,
                follow suit; the winner leads next: PLAY, seat, card
    then the deal is scored (core deal_scores with the totals before it),
    and the next deal starts (REVEALING) or the match is OVER.

OPEN_PLAY (hands are not scanned): the deal and both drafts happen off the
table and are private, so there are no DEAL and no KEEP actions; a deal is
REVEALING -> BIDDING -> PLAYING.  The face-up cards (centre reader), the
bids (seat buttons) and every card played are public, so REVEAL, BID and
PLAY remain.  A PLAY is accepted from the seat whose turn it is for any card
not turned up and not already played this deal (every such card is in some
hand); the follow obligation cannot be checked.  Tricks are resolved and
deals scored exactly as with registered hands.

Options read (OPTIONS): OPEN_PLAY and the count field (number of deals, at
most 12).  TABLE_ROLLS and VARIANT have no meaning in d-TT and are refused
(check_header).

Attributes a transcript reads: phase, dealer, trump, faceup[0:faceup_n],
bids, taken, tricks_done, leader, turn (whose turn in PLAYING), to_act (the
seats still to keep or bid), pick (picks finished in the current draft),
kept (the card each seat kept at the latest pick), trick (the core's Trick,
cleared as soon as a trick is complete), last_trick_items /
last_trick_seats / last_winner / last_leader (copies of the latest complete
trick, kept until the next one completes), totals, history.  The last
deal's bids, taken and tricks_done stay readable after it is scored, until
the next deal's first card is turned up.

Kept as the actions come, so that nothing per play is derived again (each is
written by apply() and read by random_action(), refusal() and the trick's
end): stock[0:stock_n], the cards still in the stock in no order (slot[c]:
where card c stands in it; stock[stock_n:] holds the cards dealt, so that
the stock is whole again by its count); held[seat * 4 + suit], how many cards
of that suit a seat's hand holds (the follow rule needs no walk of the hand);
best, the position of the card winning the trick so far (the core's beats(),
as each card arrives).

random_action(seat, draw) draws one of legal_actions(seat) uniformly without
listing them (draw(n): a uniform int in [0, n)); take() applies it unchecked.
The designers' random playout (one loop a phase) is playout.py's, beside
this module: never imported on the board.
"""

from array import array

from micropython import const

from dicetable.games.dtt import rules as dtt
from dicetable.match.actions import (
    ALREADY_PLACED,
    BID,
    DEAL,
    ILLEGAL_PLAY,
    KEEP,
    KIND_SHIFT,
    MALFORMED,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    PLAY,
    REVEAL,
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
from dicetable.match.engine import (
    EVERY,
    OPEN_PLAY,
    Match,
    append_actions,
    append_values,
    check_header,
    fill,
    malformed,
)
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
_HAND = const(2)  # 2, 3, 4: seat's kept cards
# 5, 6, 7: the draft packet dealt to seat 0, 1, 2, held now by seat
# (that + passed) % 3, so that passing the packets rewrites no card's place.
_PACKET = const(5)
_PLAYED = const(8)  # to a trick this deal: on the table or in a won pile

_VOID = const(255)  # a slot of `where` that is no card (rank index 10-15)
_SLOTS = const(64)  # `where` is indexed by the card's own encoding
_ALL = const(7)  # every seat's bit
_DECK = const(40)
_SUIT_SHIFT = const(4)  # the core's encoding: a card's suit in bits 4-5
# The core's numbers and per-play calls the hot paths use, as names of this
# module: one lookup, not two, at every play (and folded on the board).
_SUITS = const(4)  # dtt.SUITS
_RANKS = const(10)  # dtt.RANKS
_PACKET_CARDS = const(6)  # dtt.DRAFT_CARDS
_TRICKS = const(12)  # dtt.TRICKS
_owed = dtt.owed
_beats = dtt.beats

# Action words with seat 0 and value 0: a seat's or a card's bits are ORed in.
_REVEAL_A = action(REVEAL, TABLE, 0)
_DEAL_A = action(DEAL, 0, 0)
_KEEP_A = action(KEEP, 0, 0)
_BID_A = action(BID, 0, 0)
_PLAY_A = action(PLAY, 0, 0)

_PLAYS = array("H", [0] * dtt.HAND_SIZE)  # legal_plays scratch (not match state)


def is_card(value):
    """True if `value` is a card of the d-TT deck (core encoding)."""
    return (value >> 4) < dtt.SUITS and (value & 0x0F) < dtt.RANKS


def _index(buf, item):
    """Where `item`, which is there, stands in `buf`."""
    i = 0
    while buf[i] != item:
        i += 1
    return i


def _close(buf, i, n):
    """Remove buf[i] from buf[0:n] keeping the order of the rest; return n - 1."""
    n -= 1
    for j in range(i, n):
        buf[j] = buf[j + 1]
    return n


def _nth_of_suit(hand, s, k):
    """Where the `k`-th card (from 0) of suit `s` stands in `hand`, which holds more."""
    i = 0
    while True:
        if hand[i] >> _SUIT_SHIFT == s:
            if k == 0:
                return i
            k -= 1
        i += 1


_NEXT = (1, 2, 0)  # the seat after each: clockwise


def _copy3(buf, src):
    buf[0] = src[0]
    buf[1] = src[1]
    buf[2] = src[2]


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


class DttMatch(Match):
    GAME = "dtt"
    MIN_PLAYERS = 3
    MAX_PLAYERS = 3
    OPTIONS = OPEN_PLAY
    # Its longest journal no longer than a 5-player Nokosu match's (~760
    # actions), the longest the boot is tested with (tests/test_boot_full_table.py).
    MAX_COUNT = 6

    def __init__(self, players, options=0):
        check_header(DttMatch, players, options)
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
        # nearer the table app's call (engine.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(self.count_option(dtt.DEFAULT_DEALS))  # a row per deal
        self.reset()

    def reset(self):
        self.open = self.flag(OPEN_PLAY)
        self.deals = self.count_option(dtt.DEFAULT_DEALS)
        self.phase = REVEALING
        self.dealer = FIRST_DEALER
        self._restock()
        fill(self.held, 0)
        self.best = 0
        fill(self.faceup, 0)
        self.faceup_n = 0
        self.trump = dtt.NO_TRUMP
        # One loop over the seats for every per-seat buffer: a new match
        # and every refold runs this.
        trick = self.trick
        for s in range(3):
            fill(self.hands[s], 0)
            fill(self.packets[s], 0)
            fill(self.won[s], 0)
            self.hand_n[s] = self.packet_n[s] = self.kept[s] = 0
            self.bids[s] = self.taken[s] = self.won_n[s] = self.totals[s] = 0
            self.last_trick_items[s] = self.last_trick_seats[s] = 0
        self.pick = 0
        self.passed = 0
        self.to_act = 0
        trick.clear()
        self.tricks_done = 0
        self.leader = (FIRST_DEALER + 1) % 3
        self.turn = self.leader
        self.last_winner = -1
        self.last_leader = -1
        self.reset_history()

    def _restock(self):
        """Every card in the stock, in the order of the encoding."""
        # The buffers as locals (every refold and every new match runs this),
        # in one loop: a frame within the 11 words the board keeps on the C stack.
        where = self.where
        stock = self.stock
        slot = self.slot
        for i in range(_DECK):
            c = (i // _RANKS) << _SUIT_SHIFT | i % _RANKS
            where[c] = _STOCK
            stock[i] = c
            slot[c] = i
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

    def standings(self, out=None):
        """Final place per seat (the core's standings): into `out` (emptied,
        its room kept) when given, else a new list."""
        if out is None:
            out = []
        else:
            del out[EVERY]
        return dtt.standings(self.totals, out)

    # --- Whose input ------------------------------------------------------------

    def waiting(self):
        p = self.phase
        if p == REVEALING or p == DEALING_1 or p == DEALING_2:
            return TABLE_BIT
        if p == PLAYING:
            return 1 << self.turn
        if p == OVER:
            return 0
        return self.to_act

    def _kind(self):
        p = self.phase
        if p == REVEALING:
            return REVEAL
        if p == DEALING_1 or p == DEALING_2:
            return DEAL
        if p == DRAFT_1 or p == DRAFT_2:
            return KEEP
        if p == BIDDING:
            return BID
        if p == PLAYING:
            return PLAY
        return 0

    def legal_actions(self, seat, out=None):
        if out is None:
            out = []
        else:
            del out[EVERY]
        bit = TABLE_BIT if seat == TABLE else (1 << seat)
        if seat > TABLE or not (self.waiting() & bit):
            return out
        p = self.phase
        if p == REVEALING:
            self._stock_actions(action(REVEAL, TABLE, 0), out)
        elif p == DEALING_1 or p == DEALING_2:
            self._deals(out)
        elif p == DRAFT_1 or p == DRAFT_2:
            append_actions(out, action(KEEP, seat, 0), self.packets[seat], self.packet_n[seat])
        elif p == BIDDING:
            append_values(out, action(BID, seat, 0), dtt.MAX_BID + 1)
        elif p == PLAYING:
            if self.open:
                self._stock_actions(action(PLAY, seat, 0), out)
            else:
                self._legal_plays(seat, out)
        return out

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

    def _legal_plays(self, seat, out):
        # Into the module's scratch, not the hand: legal_actions() must not
        # change the state, and a buffer made here would take the heap at
        # every call.
        n = dtt.legal_plays(self.hands[seat], self.hand_n[seat], self.trick, _PLAYS)
        append_actions(out, action(PLAY, seat, 0), _PLAYS, n)

    # --- One legal action at random, none listed ----------------------------------

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely, drawn without listing
        them: draw(n) returns a uniform int in [0, n) (random.randrange, the
        board's Rng.randrange).  -1 when `seat` has none.  Changes nothing;
        take() applies the action without checking it again."""
        p = self.phase
        if p == PLAYING:
            if seat != self.turn:
                return -1
            if self.open:
                c = self.stock[draw(self.stock_n)]
            else:
                c = self.hands[seat][self._card_at(seat, draw)]
            return c | _PLAY_A | (seat << SEAT_SHIFT)
        if p == DRAFT_1 or p == DRAFT_2:
            if not self.to_act >> seat & 1:
                return -1
            return self.packets[seat][draw(self.packet_n[seat])] | _KEEP_A | (seat << SEAT_SHIFT)
        if p == BIDDING:
            if not self.to_act >> seat & 1:
                return -1
            return draw(dtt.MAX_BID + 1) | _BID_A | (seat << SEAT_SHIFT)
        if seat != TABLE or p == OVER:
            return -1
        if p == REVEALING:
            return self.stock[draw(self.stock_n)] | _REVEAL_A
        x = self._deal_at(draw)
        return self.stock[x & 0xFF] | _DEAL_A | ((x >> 8) << SEAT_SHIFT)

    def _card_at(self, seat, draw):
        """Where a card `seat` may play stands in its hand, drawn among them:
        of the led suit while the hand holds one (the core's owed()), else any."""
        if self.trick.count:
            lead = self.trick.items[0] >> _SUIT_SHIFT
            n = self.held[seat * _SUITS + lead]
            if _owed(lead, n) != dtt.ANY:
                return _nth_of_suit(self.hands[seat], lead, draw(n))
        return draw(self.hand_n[seat])

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

    # --- Refusals (never change anything) ------------------------------------------

    def refusal(self, a):
        if malformed(a):
            return MALFORMED
        if self.phase == OVER:
            return MATCH_OVER
        kind = kind_of(a)
        if kind != self._kind():
            return WRONG_PHASE
        if kind == REVEAL:
            return self._reveal_refusal(a)
        if kind == DEAL:
            return self._deal_refusal(a)
        seat = seat_of(a)
        if seat >= 3 or not (self.waiting() & (1 << seat)):
            return OUT_OF_TURN
        if kind == BID:
            return OK if dtt.bid_ok(value_of(a)) else OUT_OF_RANGE
        if kind == KEEP:
            return self._keep_refusal(seat, value_of(a))
        return self._play_refusal(seat, value_of(a))

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

    def _play_refusal(self, seat, value):
        if self.open:
            return self._stock_refusal(value)
        if not is_card(value):
            return UNKNOWN_ITEM
        if self.where[value] != _HAND + seat:
            return NOT_IN_HAND
        if self.trick.count and not dtt.satisfies(self._owed(seat), value):
            return ILLEGAL_PLAY
        return OK

    def _owed(self, seat):
        """The suit `seat` owes the trick (it is not empty), or ANY: the core's
        follow rule over the hand's count of the led suit.  With where[]
        saying the card is in the hand, it is all is_legal() would find."""
        lead = self.trick.items[0] >> _SUIT_SHIFT
        return _owed(lead, self.held[seat * _SUITS + lead])

    # --- Taking an action -----------------------------------------------------------

    # Each card action is applied by where its card stands (_deal, _keep,
    # _play take a place): apply() finds it, a playout knows it.

    def apply(self, a):
        # The fields read in place (as kind_of, seat_of, value_of do): apply
        # runs for every action of every refold.
        kind = a >> KIND_SHIFT
        seat = (a >> SEAT_SHIFT) & 7
        c = a & 0xFFFF
        if kind == PLAY:
            a = -1  # where the card stands in the hand: nowhere in open play
            if not self.open:
                a = _index(self.hands[seat], c)
            self._play(seat, c, a)
            if self.tricks_done == _TRICKS:
                # The deal's last card: the deal is scored from here, not
                # below _play and _finish_trick, two frames nearer the table
                # app's call on the board's C stack.
                self._score_deal()
        elif kind == DEAL:
            self._deal(seat, self.slot[c])
        elif kind == KEEP:
            self._keep(seat, _index(self.packets[seat], c))
            if self.to_act == 0:
                # Everyone has kept: the packets move on from here, a frame
                # nearer the table app's call on the board's C stack.
                self._move_packets()
        elif kind == REVEAL:
            self._reveal(c)
        elif kind == BID:
            self._bid(seat, c)

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
        self.where[c] = _HAND + seat
        hn = self.hand_n
        n = hn[seat]
        self.hands[seat][n] = c
        hn[seat] = n + 1
        self.held[seat * _SUITS + (c >> _SUIT_SHIFT)] += 1

    def _start_bidding(self):
        self.phase = BIDDING
        self.to_act = _ALL

    def _start_play(self):
        self.phase = PLAYING
        self.to_act = 0
        self.leader = (self.dealer + 1) % 3
        self.turn = self.leader
        self.trick.clear()

    def _play(self, seat, c, i):
        """`seat` plays card `c`, at place i of its hand (its order kept:
        legal_actions lists in hand order), or from the stock in open play
        (i = -1: a card no hand was seen to hold)."""
        if i < 0:
            self._unstock(self.slot[c])
        else:
            buf = self.hands[seat]
            self.hand_n[seat] = _close(buf, i, self.hand_n[seat])
            self.held[seat * _SUITS + (c >> _SUIT_SHIFT)] -= 1
        self.where[c] = _PLAYED
        buf = self.trick
        n = buf.count
        if n == 0:
            self.best = 0
        elif _beats(c, buf.items[self.best], self.trump):
            self.best = n
        buf.add(seat, c)
        if n < 2:
            self.turn = _NEXT[seat]
        else:
            self._finish_trick(buf.items, buf.seats)

    def _finish_trick(self, items, seats):
        winner = seats[self.best]
        won = self.won[winner]
        n = self.won_n[winner]
        won[n] = items[0]
        won[n + 1] = items[1]
        won[n + 2] = items[2]
        self.won_n[winner] = n + 3
        _copy3(self.last_trick_items, items)
        _copy3(self.last_trick_seats, seats)
        self.last_winner = winner
        self.last_leader = seats[0]
        self.taken[winner] += 1
        self.tricks_done += 1
        self.trick.clear()
        self.leader = winner
        self.turn = winner

    def _score_deal(self):
        """The deal's 12 tricks are in (apply, or a playout, calls this)."""
        # Into history's next row (made once, with the match).
        scores = dtt.deal_scores(self.bids, self.taken, self.totals, self.next_row())
        for s in range(3):
            self.totals[s] += scores[s]
        if len(self.history) >= self.deals:
            self.phase = OVER
            return
        # Every card goes back for the next deal; the dealer moves clockwise.
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


MATCH = DttMatch


# new(players, options): a fresh d-TT match (players must be 3).  The class
# itself, not a function calling it: engine.new_match's call then makes the
# match with one frame less on the board's C stack.
new = DttMatch
