"""Nokosu Dice (ノコスダイス): rules core.

Cards and dice form one hand; must-follow trick-taking with a trump colour and
a trump number read from the centre indicator die; each player keeps one die
unplayed to the end and its number is their bid.  See docs/rules/nokosu.md.

Item layout (an int below 2**10, stored in array('H')):

    bits 0-2  number   cards 0-7; dice 1-6 once rolled (0 = not rolled yet);
                       a black die always 0 (its bid)
    bits 3-5  colour   RED 0, BLUE 1, YELLOW 2, GREEN 3, PURPLE 4, BLACK 5
    bit  6    kind     0 card, 1 die
    bits 7-9  index    which physical die of its colour (0-4; black 0-1);
                       always 0 for cards (one card per colour and number)

A die keeps its identity (colour, index) and carries its rolled number, so
two dice of one colour showing the same number are still distinct items.

Trump: trump_colour = colour(indicator), trump_number = number(indicator);
every per-play call takes them as two plain ints.

The per-play rules take the trump and the led colour packed in one int, the
trick's context (context()): on the board a frame of more than 11 words is
taken from the heap on every call (tests/test_board_frames.py), and every
Python call nests about 250 bytes of C stack, with the table's whole chain of
calls held to a budget (sim/pico.py).  So the match engine asks the context
forms (is_legal_in, legal_plays_in) directly, each rule reads an item's
fields inline (a shift and a mask, as colour() and number() do) and calls at
most one level down; is_legal, legal_plays and resolve, with the trump as
two ints, are the same rules for everyone else.
"""

from micropython import const

RED = const(0)
BLUE = const(1)
YELLOW = const(2)
GREEN = const(3)
PURPLE = const(4)
BLACK = const(5)
NO_COLOUR = const(7)  # the led colour of an empty trick; no item has it

COLOURS = const(5)  # RED..PURPLE; black dice are not a suit
CARD = const(0)
DIE = const(1)

CARD_LOW = const(0)
CARD_HIGH = const(7)
DIE_LOW = const(1)
DIE_HIGH = const(6)
DICE_PER_COLOUR = const(5)
BLACK_DICE = const(2)

_NUMBER_MASK = const(0x07)
_COLOUR_SHIFT = const(3)
_COLOUR_MASK = const(0x07)
_KIND_SHIFT = const(6)
_DIE_BIT = const(0x40)
_INDEX_SHIFT = const(7)
_INDEX_MASK = const(0x07)

# Strength tiers, strongest first (original section 5, example 3).
TIER_TRUMP_BOTH = const(4)  # trump colour and trump number as printed
TIER_TRUMP_NUMBER = const(3)  # any other item showing the trump number
TIER_TRUMP_COLOUR = const(2)
TIER_LED = const(1)
TIER_NONE = const(0)  # other colours never win
_TIER_SHIFT = const(3)  # strength = tier * 8 + number; numbers are 0-7


# ---------------------------------------------------------------- encoding


def card(colour, number):
    """The card of this colour (RED..PURPLE) and number (0-7)."""
    return (colour << _COLOUR_SHIFT) | number


def die(colour, index, number):
    """Die `index` (0-4) of a colour (RED..PURPLE) showing `number` (1-6, 0 unrolled)."""
    return _DIE_BIT | (index << _INDEX_SHIFT) | (colour << _COLOUR_SHIFT) | number


def black_die(index):
    """Black zero-bid die 0 or 1; it has no number and bids 0."""
    return _DIE_BIT | (index << _INDEX_SHIFT) | (BLACK << _COLOUR_SHIFT)


def rolled(die_item, number):
    """The same physical die, now showing `number` (its face never changes after)."""
    return (die_item & ~_NUMBER_MASK) | number


def kind(item):
    """CARD or DIE."""
    return (item & _DIE_BIT) >> _KIND_SHIFT


def colour(item):
    """Printed colour: RED..PURPLE, or BLACK."""
    return (item >> _COLOUR_SHIFT) & _COLOUR_MASK


def number(item):
    """Printed (card) or shown (die) number; 0 for a black die."""
    return item & _NUMBER_MASK


def index(item):
    """Which physical die of its colour this is; 0 for every card."""
    return (item >> _INDEX_SHIFT) & _INDEX_MASK


def is_die(item):
    """True for any die, black included."""
    return (item & _DIE_BIT) != 0


def is_black(item):
    """True for a black zero-bid die."""
    return colour(item) == BLACK


# ------------------------------------------------------------------ colour


def effective_colour(item, trump_colour, trump_number):
    """The colour an item counts as: any item showing the trump number is trump colour.

    A black die has no number, so it is always BLACK.
    """
    return _effective(item, (trump_colour << _COLOUR_SHIFT) | trump_number)


def led_colour(trick, trump_colour, trump_number):
    """Effective colour of the lead, or NO_COLOUR while the trick is empty."""
    return context(trick, trump_colour, trump_number) >> _LED_SHIFT


# The per-play context: the trump and the led colour packed in one int, so
# that the rules below pass one argument instead of three.  The low six bits
# are the card of the trump colour and number, so colour(ctx) and number(ctx)
# read the trump; the led colour sits above them.
_LED_SHIFT = const(6)


def context(trick, trump_colour, trump_number):
    """The context every per-play rule takes: `trick`'s led colour (the lead's
    effective colour, NO_COLOUR while it is empty) and the trump, in one int."""
    trump = (trump_colour << _COLOUR_SHIFT) | trump_number  # card(trump_colour, trump_number)
    if trick.count == 0:
        return (NO_COLOUR << _LED_SHIFT) | trump  # the leader is free
    return (_effective(trick.items[0], trump) << _LED_SHIFT) | trump


def _effective(item, ctx):
    # effective_colour() under the trump of a context: an item showing the
    # trump number counts as the trump colour, but a black die (it has no
    # number) is always BLACK.
    c = (item >> _COLOUR_SHIFT) & _COLOUR_MASK
    if item & _NUMBER_MASK == ctx & _NUMBER_MASK and c != BLACK:
        return (ctx >> _COLOUR_SHIFT) & _COLOUR_MASK
    return c


# ------------------------------------------------------------------- plays

_NO_ITEM = const(-1)  # no item is kept; every item is an int >= 0


def kept_die(hand, n):
    """Position of the die this hand must keep, or -1 if no die is forced yet.

    Each player keeps one die to the end, and that overrides must-follow.  A
    black die can never be played, so when one is held it is the kept die and
    every other die is free; otherwise a lone remaining die must stay.
    """
    lone = -1  # the position of the one die seen so far; -2 once there are two
    i = 0
    while i < n:  # a range loop's stack words would make the frame bigger
        item = hand[i]
        if (item >> _COLOUR_SHIFT) & _COLOUR_MASK == BLACK:
            return i
        if item & _DIE_BIT:
            lone = i if lone == -1 else -2
        i += 1
    return lone if lone >= 0 else -1


def playable(item, kept):
    """May `item` be played at all, before must-follow?

    `kept` is the item its hand must keep (hand[kept_die(hand, n)]), or -1.
    """
    return item != kept and (item >> _COLOUR_SHIFT) & _COLOUR_MASK != BLACK


def is_legal_in(ctx, hand, n, item):
    """May the player holding hand[0:n] play `item` now (`ctx`: the trick's
    context())?  Held, playable, and of the led colour unless no playable
    item of the hand is."""
    i = 0
    while i < n and hand[i] != item:
        i += 1
    if i == n:
        return False  # not in the hand
    kept = kept_die(hand, n)
    if kept >= 0:
        kept = hand[kept]  # from here: the kept item itself
    if not playable(item, kept):
        return False
    if _effective(item, ctx) == ctx >> _LED_SHIFT:
        return True
    # Must follow, judged over what may actually be played: a kept die of
    # the led colour does not bind its owner.  An empty trick leads
    # NO_COLOUR, which no item has: the leader is free.
    i = 0
    while i < n:
        if playable(hand[i], kept) and _effective(hand[i], ctx) == ctx >> _LED_SHIFT:
            return False
        i += 1
    return True


def is_legal(hand, n, trick, item, trump_colour, trump_number):
    """May the player holding hand[0:n] play `item` to `trick` now?"""
    return is_legal_in(context(trick, trump_colour, trump_number), hand, n, item)


def legal_plays_in(ctx, hand, n, out):
    """Write the legal plays from hand[0:n] into `out` in hand order (`ctx`:
    the trick's context()); return how many.  The same two rules as
    is_legal_in, applied as two passes over `out`."""
    kept = kept_die(hand, n)
    if kept >= 0:
        kept = hand[kept]  # from here: the kept item itself
    count = 0
    i = 0
    while i < n:  # while loops: range loops' stack words would take the frame past 11
        if playable(hand[i], kept):
            out[count] = hand[i]
            count += 1
        i += 1
    # Must follow: when any of them is of the led colour, only those.
    n = 0  # from here: how many of them are
    i = 0
    while i < count:
        if _effective(out[i], ctx) == ctx >> _LED_SHIFT:
            out[n] = out[i]
            n += 1
        i += 1
    return n if n else count


def legal_plays(hand, n, trick, out, trump_colour, trump_number):
    """Write the legal plays from hand[0:n] into `out` in hand order; return how many."""
    return legal_plays_in(context(trick, trump_colour, trump_number), hand, n, out)


# ------------------------------------------------------------ trick result


def _strength(item, ctx):
    # Comparable strength (strength()) under a context: the tier first, then
    # the higher number; 0 never wins.  The tiers, strongest first (original
    # section 5, example 3): trump colour and number as printed, any other
    # item showing the trump number, the trump colour, the led colour; other
    # colours never win.
    num = item & _NUMBER_MASK
    c = (item >> _COLOUR_SHIFT) & _COLOUR_MASK
    if num == ctx & _NUMBER_MASK and c != BLACK:
        if c == (ctx >> _COLOUR_SHIFT) & _COLOUR_MASK:
            return (TIER_TRUMP_BOTH << _TIER_SHIFT) | num
        return (TIER_TRUMP_NUMBER << _TIER_SHIFT) | num
    if c == (ctx >> _COLOUR_SHIFT) & _COLOUR_MASK:
        return (TIER_TRUMP_COLOUR << _TIER_SHIFT) | num
    if c == ctx >> _LED_SHIFT:
        return (TIER_LED << _TIER_SHIFT) | num
    return 0  # TIER_NONE


def strength(item, led, trump_colour, trump_number):
    """Comparable strength: tier first, then the higher number; 0 never wins."""
    return _strength(item, (led << _LED_SHIFT) | (trump_colour << _COLOUR_SHIFT) | trump_number)


def tier(item, led, trump_colour, trump_number):
    """Strength tier of an item, TIER_TRUMP_BOTH (strongest) .. TIER_NONE (never wins)."""
    return strength(item, led, trump_colour, trump_number) >> _TIER_SHIFT


def _strongest(trick, ctx):
    # Equal strength means equal effective colour and number (a card and a
    # die, or two trump-number items); the one played later wins, hence `>=`.
    best = -1
    pos = 0
    i = 0
    while i < trick.count:  # a range loop's stack words would make the frame bigger
        s = _strength(trick.items[i], ctx)
        if s >= best:
            best = s
            pos = i
        i += 1
    return pos


def resolve(trick, trump_colour, trump_number):
    """Position in the trick of the winning item (the later of two equals)."""
    return _strongest(trick, context(trick, trump_colour, trump_number))


# ----------------------------------------------------------------- scoring


def bid_of(kept):
    """The bid a kept die makes: its number; a black die bids 0."""
    return kept & _NUMBER_MASK


def missed_count(bids, tricks):
    """How many players did not take exactly their bid."""
    missed = 0
    i = 0
    for bid in bids:  # over the bids, not range(len()): no call below this frame
        if tricks[i] != bid:
            missed += 1
        i += 1
    return missed


def round_score(bid, tricks, missed):
    """One player's round score; `missed` is missed_count over all players."""
    score = tricks  # 1 point a trick, bid made or not
    if tricks == bid:
        score += 10 * missed  # exact bid: 10 per player who missed
        if bid == 0:
            score += 10  # exact zero bid: a further 10
    return score


def round_scores(bids, tricks, out=None):
    """Every player's round score, by seat, from their bids and tricks taken.
    Into `out` (one entry per player written: the match's history row) when
    given, else a new list."""
    missed = missed_count(bids, tricks)
    # A while loop, not a comprehension (a closure: a frame more on the
    # board's C stack) nor a range loop (its stack words would take the
    # frame past 11).
    if out is None:
        out = [0] * len(bids)
    i = 0
    while i < len(bids):
        out[i] = round_score(bids[i], tricks[i], missed)
        i += 1
    return out


def compare(total_a, last_bid_a, total_b, last_bid_b):
    """1 if player a ranks above b, -1 if below, 0 if tied.

    Higher total first; a tie goes to the larger die kept in the last round
    (black counts 0); equal there too stays a tie (rules silent: shared).
    """
    if total_a != total_b:
        return 1 if total_a > total_b else -1
    if last_bid_a != last_bid_b:
        return 1 if last_bid_a > last_bid_b else -1
    return 0


def standings(totals, last_bids, out=None):
    """Rank of each seat after the match (1 = winner); tied players share a rank
    and the ranks below are pushed down (1, 1, 3).  Appended to `out` (an
    empty list) when given, else to a new list."""
    if out is None:
        out = []
    i = 0
    while i < len(totals):  # while loops: frames within the board's 11 words
        out.append(rank_of(totals, last_bids, i))
        i += 1
    return out


def rank_of(totals, last_bids, i):
    """Seat i's rank in standings()."""
    above = 0
    j = 0
    while j < len(totals):
        if compare(totals[j], last_bids[j], totals[i], last_bids[i]) > 0:
            above += 1
        j += 1
    return above + 1


# ------------------------------------------------------------------- setup

# R12: the setup per player count.  The original prints only the 5-player
# values (its ☆ marks); 3 and 4 players follow the earlier 3-4 player edition.
# Every count in play comes from here, never from a literal in the logic.
MIN_PLAYERS = const(3)
MAX_PLAYERS = const(5)

SETUP_CARDS_EACH = const(0)  # cards dealt to each player
SETUP_DICE_DRAWN = const(1)  # dice each player draws from the bag and rolls
SETUP_CENTRE = const(2)  # dice the start player rolls into the centre
SETUP_TAKEN_EACH = const(3)  # centre dice each player takes (one stays: trump)
SETUP_ITEMS = const(4)  # hand size: cards + drawn + taken
SETUP_TRICKS = const(5)  # tricks in a round: every item but the kept die
SETUP_HIGH_CARD = const(6)  # highest card number in play
SETUP_COLOURS_REMOVED = const(7)  # colours taken out entirely (cards and dice)
SETUP_DICE_REMOVED = const(8)  # dice removed from each remaining colour

SETUP = (
    # cards drawn centre taken items tricks high-card colours-out dice-out
    (9, 1, 10, 3, 13, 12, 6, 1, 1),  # 3 players (R12)
    (10, 2, 13, 3, 15, 14, 7, 0, 0),  # 4 players (R12)
    (8, 1, 16, 3, 12, 11, 7, 0, 0),  # 5 players (original's ☆ values)
)


def setup(players):
    """The R12 setup row for 3, 4 or 5 players (index it with SETUP_*)."""
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise ValueError()
    return SETUP[players - MIN_PLAYERS]


def in_play(item, players, removed):
    """True when `item` (a die's face ignored) is in play with `players` and
    the colour `removed` taken out at setup (NO_COLOUR when none is): R12.
    Exactly the items cards_in_play, dice_in_bag and black_dice list."""
    row = setup(players)
    c = (item >> _COLOUR_SHIFT) & _COLOUR_MASK
    if c == BLACK:
        return True  # the black dice, beside the bag in every setup
    if c == removed:
        return False  # 3 players: the removed colour, cards and dice
    if item & _DIE_BIT:  # a die: fewer of each colour with 3 players
        return (item >> _INDEX_SHIFT) & _INDEX_MASK < DICE_PER_COLOUR - row[SETUP_DICE_REMOVED]
    return item & _NUMBER_MASK <= row[SETUP_HIGH_CARD]  # a card: 3 players, no 7s


def colours_in_play(players, removed):
    """The suit colours used; `removed` is the colour taken out at setup when
    the row removes one (3 players, R12), else NO_COLOUR."""
    row = setup(players)
    if row[SETUP_COLOURS_REMOVED]:
        if removed < 0 or removed >= COLOURS:
            raise ValueError()
    elif removed != NO_COLOUR:
        raise ValueError()
    return [c for c in range(COLOURS) if c != removed]


def cards_in_play(players, removed):
    """Every card in play for this player count, colour by colour, low to high.

    R12: with 3 players the removed colour and every 7 stay in the box.
    """
    high = setup(players)[SETUP_HIGH_CARD]
    return [
        card(c, num) for c in colours_in_play(players, removed) for num in range(CARD_LOW, high + 1)
    ]


def dice_in_bag(players, removed):
    """Every coloured die that goes into the bag, unrolled (number 0).

    R12: with 3 players one die of each remaining colour also stays in the
    box; which one is immaterial, so the highest-indexed one goes.
    """
    per_colour = DICE_PER_COLOUR - setup(players)[SETUP_DICE_REMOVED]
    return [die(c, i, 0) for c in colours_in_play(players, removed) for i in range(per_colour)]


def black_dice():
    """The black zero-bid dice, kept beside the bag (never in it)."""
    return [black_die(i) for i in range(BLACK_DICE)]
