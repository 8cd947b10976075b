"""Seltsam-Walzer (へんてこワルツ): the rules core.

Player-readable rules: docs/rules/walzer.md.  Specification: RULES.md section 2.

Item layout (one card, 8 bits used of the 16 an array('H') slot holds):

    bits 0-3   number: 1-14 red, 1-11 blue, 1-8 green; 0 for an X
    bits 4-5   colour: RED 0, BLUE 1, GREEN 2, X 3 (the black X cards)
    bits 6-7   copy:   0-2, which of the three X cards (0 for coloured cards)

No card encodes to 0 (red has no 0), so 0 never names a card.

The core covers the deck, the follow obligation, the trick result, round
scoring, the deal sizes and the final standings.  Who deals and leads, the
deal itself, the simultaneous pass, turn order and the journal belong to the
match engine.

On the board every Python call nests about 250 bytes of C stack, and the
table's whole chain of calls must stay within a budget (sim/pico.py): so the
rules a play runs through read a card's fields inline (a shift and a mask,
as colour() and number() do) instead of calling colour(), number() or is_x(),
and each rule is one function that calls at most one level below it.
"""

from micropython import const

RED = const(0)
BLUE = const(1)
GREEN = const(2)
X = const(3)
ANY = const(4)  # obligation(): no colour is owed, any card may be played

X_COPIES = const(3)
PASS_CARDS = const(2)
MIN_PLAYERS = const(3)
MAX_PLAYERS = const(4)

_NUMBER_MASK = const(0x0F)
_COLOUR_SHIFT = const(4)
_COLOUR_MASK = const(3)
_COPY_SHIFT = const(6)

# Points multiplier per colour (RED, BLUE, GREEN, X): red 1, blue 2, green 3;
# an X scores nothing.  multiplier() and colour_score() read it.
MULTIPLIERS = (1, 2, 3, 0)


# --- Items -------------------------------------------------------------------


def card(colour, number):
    """The coloured card `colour` (RED, BLUE, GREEN) numbered `number`."""
    return (colour << _COLOUR_SHIFT) | number


def x_card(copy):
    """The X card with copy index `copy` (0, 1 or 2)."""
    return (copy << _COPY_SHIFT) | (X << _COLOUR_SHIFT)


def colour(item):
    """RED, BLUE, GREEN or X."""
    return (item >> _COLOUR_SHIFT) & _COLOUR_MASK


def number(item):
    """The printed number; 0 for an X, which has none."""
    return item & _NUMBER_MASK


def copy(item):
    """Which of the three X cards this is; 0 for a coloured card."""
    return item >> _COPY_SHIFT


def is_x(item):
    """True for the black X cards."""
    return (item >> _COLOUR_SHIFT) & _COLOUR_MASK == X


def top_number(c):
    """The highest number printed in `colour`: red 14, blue 11, green 8; 0 for X."""
    if c == RED:
        return 14
    if c == BLUE:
        return 11
    if c == GREEN:
        return 8
    return 0


def deck():
    """All 36 cards: red 1-14, blue 1-11, green 1-8, then the three X."""
    cards = []
    for c in range(X):
        for k in range(1, top_number(c) + 1):
            cards.append(card(c, k))
    for k in range(X_COPIES):
        cards.append(x_card(k))
    return cards


# --- Deal --------------------------------------------------------------------


def hand_size(players):
    """Cards dealt to each player: the whole deck, 12 each with 3 players, 9 with 4."""
    return 36 // players


def rounds(players):
    """Rounds in a match: one per player, so each player deals once."""
    return players


# --- Follow obligation ---------------------------------------------------------


def in_hand(hand, n, item):
    """True if `item` is one of the first `n` items of `hand`."""
    for i in range(n):
        if hand[i] == item:
            return True
    return False


def obligation(hand, n, lead):
    """The colour a player holding hand[0:n] must play to a trick led by `lead`.

    ANY when the lead is an X (any card may follow an X lead) or when the
    hand holds no card of the lead colour.
    """
    c = (lead >> _COLOUR_SHIFT) & _COLOUR_MASK
    if c != X:
        for i in range(n):
            if (hand[i] >> _COLOUR_SHIFT) & _COLOUR_MASK == c:
                return c  # the hand holds the lead colour: it must follow
    return ANY


def satisfies(c, item):
    """True if playing `item` meets the obligation `c` (a colour or ANY).

    An X may be played at any time, even by a player holding the lead colour.
    """
    k = (item >> _COLOUR_SHIFT) & _COLOUR_MASK
    return c == ANY or k == X or k == c


def is_legal(hand, n, trick, item):
    """True if the player holding hand[0:n] may play `item` to `trick` now.

    The leader (empty trick) may play any card of the hand.
    """
    if not in_hand(hand, n, item):
        return False
    if trick.count == 0:
        return True
    return satisfies(obligation(hand, n, trick.items[0]), item)


def legal_plays(hand, n, trick, out):
    """Write the legal items of hand[0:n] into `out`, in hand order; return how many.
    `out` may be `hand` itself (compacted in place)."""
    # Copy, then compact in place: two small frames stay within the 11 words
    # MicroPython keeps on the C stack; a bigger frame goes to the heap.
    for i in range(n):
        out[i] = hand[i]
    if trick.count == 0:
        return n
    c = obligation(hand, n, trick.items[0])
    return keep_satisfying(out, n, c)


def keep_satisfying(out, n, c):
    """Compact out[0:n] to the items that meet obligation `c`, in order; return how many."""
    k = 0
    for i in range(n):
        if satisfies(c, out[i]):
            out[k] = out[i]
            k += 1
    return k


# --- Trick result ----------------------------------------------------------------


def count_x(trick):
    """How many X cards are in the trick."""
    k = 0
    for i in range(trick.count):
        if (trick.items[i] >> _COLOUR_SHIFT) & _COLOUR_MASK == X:
            k += 1
    return k


def first_x(trick):
    """Position of the first X in the trick (-1 if none)."""
    for i in range(trick.count):
        if (trick.items[i] >> _COLOUR_SHIFT) & _COLOUR_MASK == X:
            return i
    return -1


def highest_of_colour(trick, c):
    """Position of the highest card of colour `c` in the trick (-1 if none)."""
    items = trick.items
    best = -1
    top = -1  # its number
    for i in range(trick.count):
        item = items[i]
        if (item >> _COLOUR_SHIFT) & _COLOUR_MASK == c and item & _NUMBER_MASK > top:
            best = i
            top = item & _NUMBER_MASK
    return best


def highest_number_later_wins(trick):
    """Position of the highest non-X card of any colour; equal numbers: the later (-1 if none)."""
    items = trick.items
    best = -1
    top = -1  # its number
    for i in range(trick.count):
        item = items[i]
        if (item >> _COLOUR_SHIFT) & _COLOUR_MASK != X and item & _NUMBER_MASK >= top:
            best = i
            top = item & _NUMBER_MASK
    return best


def resolve(trick):
    """The winning position in a complete trick.

    Exactly one X: it wins.  Lead not X (with none or two or more X): the
    highest card of the lead colour.  X led with two or more X: the highest
    non-X number of any colour, later wins on equal numbers; if every card is
    an X, the last one played wins (R5).
    """
    xs = count_x(trick)
    if xs == 1:
        return first_x(trick)
    led = (trick.items[0] >> _COLOUR_SHIFT) & _COLOUR_MASK
    if led != X:
        return highest_of_colour(trick, led)
    best = highest_number_later_wins(trick)
    if best < 0:
        return trick.count - 1  # R5: all X, the X played last wins
    return best


# --- Round scoring -----------------------------------------------------------------


def multiplier(c):
    """Points multiplier of a colour: red 1, blue 2, green 3; X scores nothing."""
    return MULTIPLIERS[c]


def fewest(counts):
    """The fewest cards of one colour held by anyone who holds at least one.

    Players with no card of the colour never count as fewest (ex1, ex2).
    0 if nobody holds the colour.
    """
    least = 0
    for k in counts:
        least = fewer(k, least)
    return least


def fewer(count, least):
    """fewest() so far, `least`, once a player holding `count` cards of the
    colour is counted too."""
    if count > 0 and (least == 0 or count < least):
        return count
    return least


def colour_score(c, count, total, least):
    """One player's score for colour `c`, holding `count` cards summing to `total`.

    Holding the fewest (`least`, ties all count): the sum of the numbers;
    otherwise the number of cards; times the colour's multiplier.
    """
    if count == 0:
        return 0
    if count == least:
        return total * MULTIPLIERS[c]
    return count * MULTIPLIERS[c]


def colour_count(cards, c):
    """How many of `cards` (a list of cards) are of colour `c`."""
    k = 0
    for item in cards:
        if (item >> _COLOUR_SHIFT) & _COLOUR_MASK == c:
            k += 1
    return k


def colour_total(cards, c):
    """The numbers of the `cards` of colour `c`, added up."""
    total = 0
    for item in cards:
        if (item >> _COLOUR_SHIFT) & _COLOUR_MASK == c:
            total += item & _NUMBER_MASK
    return total


def round_scores(taken, out=None):
    """Round score per player; `taken[p]` lists the cards player p won in tricks.

    Into `out` (its first len(taken) entries written) when given, else a
    new list: the match writes a round into its history's row, allocating
    nothing (a colour's counts are counted again where they are used, not
    kept in lists).  While loops, and a colour per call of add_colour():
    frames within the 11 words the board keeps on its C stack."""
    if out is None:
        out = [0] * len(taken)
    c = 0
    while c < len(taken):  # (c a player here, to keep the frame small)
        out[c] = 0
        c += 1
    c = 0
    while c < X:
        add_colour(taken, c, out)
        c += 1
    return out


def add_colour(taken, c, out):
    """Each player's score for colour `c` added to out[p]."""
    least = 0
    p = 0
    while p < len(taken):
        least = fewer(colour_count(taken[p], c), least)
        p += 1
    p = 0
    while p < len(taken):
        t = colour_total(taken[p], c)
        t = colour_score(c, colour_count(taken[p], c), t, least)
        out[p] += t
        p += 1


# --- Match -------------------------------------------------------------------------


def standings(totals, last_round, out=None):
    """Final place per player, 1 = winner.

    Highest total first; equal totals: the higher score in the last round;
    still equal: the same place (shared), the places below pushed down
    (1, 1, 3).  Appended to `out` (an empty list) when given, else to a new
    list.
    """
    if out is None:
        out = []
    p = 0
    while p < len(totals):
        out.append(place_of(totals, last_round, p))
        p += 1
    return out


def place_of(totals, last_round, p):
    """Player p's place in standings()."""
    place = 1
    q = 0
    while q < len(totals):
        if totals[q] > totals[p] or (totals[q] == totals[p] and last_round[q] > last_round[p]):
            place += 1
        q += 1
    return place
