"""d-TT (ᴅ-トリテ): the rules core.

Player-readable rules: docs/rules/dtt.md.  Specification: RULES.md section 4.

Item layout (one card, 6 bits used of the 16 an array('H') slot holds):

    bits 0-3   rank index by strength: 0 = 2 (weakest), 1 = 4, 2 = 5, 3 = 6,
               4 = 7, 5 = J, 6 = Q, 7 = K, 8 = 3, 9 = A (strongest)
    bits 4-5   suit: SPADES 0, HEARTS 1, DIAMONDS 2, CLUBS 3 (R10 tie order)

A higher rank index is always the stronger card, so comparing ranks needs no
table; `face()` gives the printed value (A = 1, J = 11, Q = 12, K = 13).

The core covers the deck, the trump choice, the follow obligation, the trick
result, bids, deal scoring and the final standings.  Turning the four cards,
both drafts and their passing directions, collecting the bids, who leads,
turn order, the number of deals and the journal belong to the match engine.
"""

from micropython import const

SPADES = const(0)
HEARTS = const(1)
DIAMONDS = const(2)
CLUBS = const(3)
NO_TRUMP = const(4)  # trump_suit() when no A, 3, K, Q or J is face up
ANY = const(4)  # obligation(): no suit is owed, any card may be played

TWO = const(0)
FOUR = const(1)
FIVE = const(2)
SIX = const(3)
SEVEN = const(4)
JACK = const(5)
QUEEN = const(6)
KING = const(7)
THREE = const(8)
ACE = const(9)
RANKS = const(10)
SUITS = const(4)

PLAYERS = const(3)
FACE_UP = const(4)
DRAFT_CARDS = const(6)
HAND_SIZE = const(12)
TRICKS = const(12)
MAX_BID = const(12)
DEFAULT_DEALS = const(3)  # R11: each player deals once; the engine may be set otherwise

_RANK_MASK = const(0x0F)
_SUIT_SHIFT = const(4)

# Printed value of each rank index (A = 1, J = 11, Q = 12, K = 13).
_FACES = (2, 4, 5, 6, 7, 11, 12, 13, 3, 1)


# --- Items -------------------------------------------------------------------


def card(suit, rank):
    """The card of `suit` with rank index `rank` (TWO .. ACE)."""
    return (suit << _SUIT_SHIFT) | rank


def suit(item):
    """SPADES, HEARTS, DIAMONDS or CLUBS."""
    return item >> _SUIT_SHIFT


def rank(item):
    """Rank index: higher is stronger (TWO 0 .. ACE 9)."""
    return item & _RANK_MASK


def face(item):
    """The printed value: 1 for A, 2-7, 3, 11 J, 12 Q, 13 K."""
    return _FACES[rank(item)]


def rank_of_face(value):
    """Rank index of a printed value (1 = A, 11 = J, 12 = Q, 13 = K); -1 if not in the deck."""
    for r in range(RANKS):
        if _FACES[r] == value:
            return r
    return -1


def deck():
    """All 40 cards: every suit, every rank but 10, 9 and 8."""
    cards = []
    for s in range(SUITS):
        for r in range(RANKS):
            cards.append(card(s, r))
    return cards


# --- Trump -------------------------------------------------------------------


def outranks(a, b):
    """True if face-up card `a` beats `b` for choosing trump.

    Higher rank first; equal ranks: spades, hearts, diamonds, clubs (R10).
    """
    # rank() and suit() read in place: trump_suit() asks this at the bottom
    # of a play's chain of calls on the board, where each is a frame more.
    if a & _RANK_MASK != b & _RANK_MASK:
        return a & _RANK_MASK > b & _RANK_MASK
    return a >> _SUIT_SHIFT < b >> _SUIT_SHIFT  # R10: a lower suit index comes first


def trump_suit(cards):
    """The trump suit set by the face-up `cards`, or NO_TRUMP.

    Trump is the suit of the highest-ranked card (R10 breaks equal ranks);
    if none of A, 3, K, Q, J is face up there is no trump.
    """
    best = cards[0]
    for i in range(1, len(cards)):
        if outranks(cards[i], best):
            best = cards[i]
    if rank(best) < JACK:
        return NO_TRUMP
    return suit(best)


# --- Follow obligation ---------------------------------------------------------


def in_hand(hand, n, item):
    """True if `item` is one of the first `n` items of `hand`."""
    for i in range(n):
        if hand[i] == item:
            return True
    return False


def holds_suit(hand, n, s):
    """True if the first `n` items of `hand` include a card of suit `s`."""
    # The suit read in place, not through suit(): a call per card is most of
    # what is_legal and legal_plays cost on the board.
    for i in range(n):
        if hand[i] >> _SUIT_SHIFT == s:
            return True
    return False


def owed(lead_suit, held):
    """The suit owed to a trick whose lead is of `lead_suit` by a player
    holding `held` cards of that suit: that suit, or ANY when none.  The one
    statement of the follow rule: obligation() counts the hand for it, a match
    that keeps each hand's count per suit asks it directly."""
    return lead_suit if held else ANY


def obligation(hand, n, lead):
    """The suit a player holding hand[0:n] must play to a trick led by `lead`.

    ANY when the hand holds no card of the led suit.
    """
    s = lead >> _SUIT_SHIFT
    return owed(s, holds_suit(hand, n, s))


def satisfies(s, item):
    """True if playing `item` meets the obligation `s` (a suit or ANY)."""
    return s == ANY or item >> _SUIT_SHIFT == s


def is_legal(hand, n, trick, item):
    """True if the player holding hand[0:n] may play `item` to `trick` now.

    The leader (empty trick) may play any card of the hand.
    """
    if not in_hand(hand, n, item):
        return False
    if trick.count == 0:
        return True
    s = obligation(hand, n, trick.items[0])
    return satisfies(s, item)


def legal_plays(hand, n, trick, out):
    """Write the legal items of hand[0:n] into `out`, in hand order; return how many."""
    # Copy, then compact in place: two small frames stay within the 11 words
    # MicroPython keeps on the C stack; a bigger frame goes to the heap.
    for i in range(n):
        out[i] = hand[i]
    if trick.count == 0:
        return n
    s = obligation(hand, n, trick.items[0])
    return keep_satisfying(out, n, s)


def keep_satisfying(out, n, s):
    """Compact out[0:n] to the items that meet obligation `s`, in order; return how many."""
    if s == ANY:
        return n
    k = 0
    for i in range(n):
        if out[i] >> _SUIT_SHIFT == s:
            out[k] = out[i]
            k += 1
    return k


# --- Trick result ----------------------------------------------------------------


def beats(item, best, trump):
    """True if `item`, played to a trick that `best` is winning so far, wins it
    instead: a higher card of best's suit, or a trump over a card that is not
    (`trump` a suit or NO_TRUMP).  Any other card loses, so the lead wins until
    beaten and a match can follow the winner as the cards arrive."""
    s = item >> _SUIT_SHIFT
    if s == best >> _SUIT_SHIFT:
        return (item & _RANK_MASK) > (best & _RANK_MASK)
    return s == trump


def resolve(trick, trump):
    """The winning position in a complete trick: the highest trump, else the
    highest card of the led suit.  `trump` is a suit or NO_TRUMP."""
    items = trick.items
    best = 0
    for i in range(1, trick.count):
        if beats(items[i], items[best], trump):
            best = i
    return best


# --- Bids and deal scoring -----------------------------------------------------------


def bid_ok(bid):
    """True if `bid` is a bid a player may make: 0 to 12 tricks."""
    return 0 <= bid <= MAX_BID


def made(bid, taken):
    """A player makes the bid by taking exactly that many tricks."""
    return taken == bid


# The deal's scoring runs once a deal, when its last card is played, at the
# bottom of the play's chain of calls on the board: deal_scores() calls each
# case's function directly, and they call nothing (no min(), no len(): a C
# function is a frame more on the C stack), with the players counted by
# PLAYERS.


def standing_award(cumulative, out):
    """Points by standing into `out`: the lowest cumulative total -10, the
    highest +10, the middle 0.

    Players tied for lowest or highest share the 10 (-5 or +5 each); all
    equal: nobody scores.  Used when all make their bid; negated when none do.
    """
    low = cumulative[0]
    high = low
    p = 1
    while p < PLAYERS:
        if cumulative[p] < low:
            low = cumulative[p]
        elif cumulative[p] > high:
            high = cumulative[p]
        p += 1
    p = 0
    while p < PLAYERS:
        out[p] = 0
        p += 1
    if low == high:
        return out
    lows = 0
    highs = 0
    p = 0
    while p < PLAYERS:
        if cumulative[p] == low:
            lows += 1
        elif cumulative[p] == high:
            highs += 1
        p += 1
    p = 0
    while p < PLAYERS:
        if cumulative[p] == low:
            out[p] = -(10 // lows)
        elif cumulative[p] == high:
            out[p] = 10 // highs
        p += 1
    return out


def two_made(bids, makers, out):
    """Two made it: each scores own bid + 10; the third loses both bids + 20.
    `makers` has bit p set for each player p who made the bid.  Into `out`."""
    both = 0
    p = 0
    while p < PLAYERS:
        if makers >> p & 1:
            both += bids[p]
        p += 1
    p = 0
    while p < PLAYERS:
        out[p] = bids[p] + 10 if makers >> p & 1 else -(both + 20)
        p += 1
    return out


def one_made(bids, makers, out):
    """One made it: that player scores 2 x bid + 20; each other player loses bid + 10.
    `makers` has bit p set for the player p who made the bid.  Into `out`."""
    bid = 0
    p = 0
    while p < PLAYERS:
        if makers >> p & 1:
            bid = bids[p]
        p += 1
    p = 0
    while p < PLAYERS:
        out[p] = 2 * bid + 20 if makers >> p & 1 else -(bid + 10)
        p += 1
    return out


def deal_scores(bids, taken, cumulative, out=None):
    """Each player's points for one deal (they sum to zero).

    `bids` and `taken` (tricks taken) per player; `cumulative` is each
    player's total before this deal is scored.  Into `out` (every entry
    written: the match's history row) when given, else a new list.
    """
    if out is None:
        out = [0] * PLAYERS
    makers = 0  # bit p: player p made the bid
    count = 0
    p = 0
    while p < PLAYERS:
        if made(bids[p], taken[p]):
            makers |= 1 << p
            count += 1
        p += 1
    if count == PLAYERS:
        # All made it: the leader gains, the last loses.
        return standing_award(cumulative, out)
    if count == 0:
        # Nobody made it: standing_award with the signs reversed (the last gains).
        standing_award(cumulative, out)
        p = 0
        while p < PLAYERS:
            out[p] = -out[p]
            p += 1
        return out
    if count == 1:
        return one_made(bids, makers, out)
    return two_made(bids, makers, out)


# --- Match -------------------------------------------------------------------------


def standings(totals, out=None):
    """Final place per player, 1 = winner: highest total first; equal totals
    share the place and the places below are pushed down (1, 1, 3).
    Appended to `out` (an empty list) when given, else to a new list."""
    if out is None:
        out = []
    p = 0
    while p < len(totals):  # while loops: frames within the board's 11 words
        out.append(place_of(totals, p))
        p += 1
    return out


def place_of(totals, p):
    """Player p's place in standings()."""
    place = 1
    q = 0
    while q < len(totals):
        if totals[q] > totals[p]:
            place += 1
        q += 1
    return place
