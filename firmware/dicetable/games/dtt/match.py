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

The engine is two classes, by phase: deal.py's DttDeal (the cards' places;
REVEALING, the dealings, the drafts and BIDDING) and this module's DttMatch
built on it (the tricks, the deal's scoring, the final places), which waits,
refuses, lists, draws and applies by phase.
"""

from array import array

from micropython import const

from dicetable.games.dtt import rules as dtt
from dicetable.games.dtt.deal import (
    BIDDING,
    DEALING_1,
    DEALING_2,
    DRAFT_1,
    DRAFT_2,
    HAND,
    OVER,
    PICKS,  # noqa: F401 - host.py reads it here
    PLAYED,
    PLAYING,
    REVEALING,
    SUIT_SHIFT,
    SUITS,
    DttDeal,
    _close,
    is_card,
)
from dicetable.match.actions import (
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
from dicetable.match.engine import OPEN_PLAY, append_actions, append_values, emptied, malformed

# The core's numbers and per-play calls the hot paths use, as names of this
# module: one lookup, not two, at every play (and folded on the board).
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


def _index(buf, item):
    """Where `item`, which is there, stands in `buf`."""
    i = 0
    while buf[i] != item:
        i += 1
    return i


def _nth_of_suit(hand, s, k):
    """Where the `k`-th card (from 0) of suit `s` stands in `hand`, which holds more."""
    i = 0
    while True:
        if hand[i] >> SUIT_SHIFT == s:
            if k == 0:
                return i
            k -= 1
        i += 1


_NEXT = (1, 2, 0)  # the seat after each: clockwise


def _copy3(buf, src):
    buf[0] = src[0]
    buf[1] = src[1]
    buf[2] = src[2]


class DttMatch(DttDeal):
    GAME = "dtt"
    MIN_PLAYERS = 3
    MAX_PLAYERS = 3
    OPTIONS = OPEN_PLAY
    # Its longest journal no longer than a 5-player Nokosu match's (~760
    # actions), the longest the boot is tested with (tests/test_boot_full_table.py).
    MAX_COUNT = 6

    def standings(self, out=None):
        """Final place per seat (the core's standings): into `out` (emptied,
        its room kept) when given, else a new list."""
        out = emptied(out)
        return dtt.standings(self.totals, out)

    # --- Whose input ----------------------------------------------------------

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
        out = emptied(out)
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

    def _legal_plays(self, seat, out):
        # Into the module's scratch, not the hand: legal_actions() must not
        # change the state, and a buffer made here would take the heap at
        # every call.
        n = dtt.legal_plays(self.hands[seat], self.hand_n[seat], self.trick, _PLAYS)
        append_actions(out, action(PLAY, seat, 0), _PLAYS, n)

    # --- One legal action at random, none listed ------------------------------

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
            lead = self.trick.items[0] >> SUIT_SHIFT
            n = self.held[seat * SUITS + lead]
            if _owed(lead, n) != dtt.ANY:
                return _nth_of_suit(self.hands[seat], lead, draw(n))
        return draw(self.hand_n[seat])

    # --- Refusals (never change anything) -------------------------------------

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

    def _play_refusal(self, seat, value):
        if self.open:
            return self._stock_refusal(value)
        if not is_card(value):
            return UNKNOWN_ITEM
        if self.where[value] != HAND + seat:
            return NOT_IN_HAND
        if self.trick.count and not dtt.satisfies(self._owed(seat), value):
            return ILLEGAL_PLAY
        return OK

    def _owed(self, seat):
        """The suit `seat` owes the trick (it is not empty), or ANY: the core's
        follow rule over the hand's count of the led suit.  With where[]
        saying the card is in the hand, it is all is_legal() would find."""
        lead = self.trick.items[0] >> SUIT_SHIFT
        return _owed(lead, self.held[seat * SUITS + lead])

    # --- Taking an action -----------------------------------------------------

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

    def _play(self, seat, c, i):
        """`seat` plays card `c`, at place i of its hand (its order kept:
        legal_actions lists in hand order), or from the stock in open play
        (i = -1: a card no hand was seen to hold)."""
        if i < 0:
            self._unstock(self.slot[c])
        else:
            buf = self.hands[seat]
            self.hand_n[seat] = _close(buf, i, self.hand_n[seat])
            self.held[seat * SUITS + (c >> SUIT_SHIFT)] -= 1
        self.where[c] = PLAYED
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
        self._next_deal()


MATCH = DttMatch


# new(players, options): a fresh d-TT match (players must be 3).  The class
# itself, not a function calling it: games.new_match's call then makes the
# match with one frame less on the board's C stack.
new = DttMatch
