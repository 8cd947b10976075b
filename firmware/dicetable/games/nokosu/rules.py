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

The per-play calls are split into small private helpers that pass the trump
and led colour packed in one int: on the board a frame of more than 11 words
is taken from the heap on every call (tests/test_board_frames.py).
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
    if number(item) == trump_number and not is_black(item):
        return trump_colour
    return colour(item)


def led_colour(trick, trump_colour, trump_number):
    """Effective colour of the lead, or NO_COLOUR while the trick is empty."""
    if trick.count == 0:
        return NO_COLOUR
    return effective_colour(trick.items[0], trump_colour, trump_number)


# The per-play context: the trump and the led colour packed in one int, so
# the helpers below pass one argument instead of three.  The low six bits are
# the card of the trump colour and number, so colour(ctx) and number(ctx)
# read the trump; the led colour sits above them.
_LED_SHIFT = const(6)


def _context(trick, trump_colour, trump_number):
    led = led_colour(trick, trump_colour, trump_number)
    return (led << _LED_SHIFT) | card(trump_colour, trump_number)


def _led(ctx):
    return ctx >> _LED_SHIFT


def _effective(item, ctx):
    return effective_colour(item, colour(ctx), number(ctx))


# ------------------------------------------------------------------- plays

_NO_ITEM = const(-1)  # no item is kept; every item is an int >= 0


def kept_die(hand, n):
    """Position of the die this hand must keep, or -1 if no die is forced yet.

    Each player keeps one die to the end, and that overrides must-follow.  A
    black die can never be played, so when one is held it is the kept die and
    every other die is free; otherwise a lone remaining die must stay.
    """
    lone = -1
    dice = 0
    for i in range(n):
        item = hand[i]
        if is_black(item):
            return i
        if is_die(item):
            dice += 1
            lone = i
    if dice == 1:
        return lone
    return -1


def _kept_item(hand, n):
    keep = kept_die(hand, n)
    if keep < 0:
        return _NO_ITEM
    return hand[keep]


def playable(item, kept):
    """May `item` be played at all, before must-follow?

    `kept` is the item its hand must keep (hand[kept_die(hand, n)]), or -1.
    """
    return item != kept and not is_black(item)


def _must_follow(ctx, items, n, kept):
    # True if items[0:n] hold a playable item of the led colour.  Must-follow
    # is judged over what may actually be played, so a kept die of the led
    # colour does not bind its owner.  An empty trick leads NO_COLOUR, which
    # no item has: the leader is free.
    for i in range(n):
        if playable(items[i], kept) and _effective(items[i], ctx) == _led(ctx):
            return True
    return False


def _holds(hand, n, item):
    for i in range(n):
        if hand[i] == item:
            return True
    return False


def _is_legal(ctx, hand, n, item):
    # Playable, and of the led colour unless the player need not follow.
    if not _holds(hand, n, item):
        return False
    kept = _kept_item(hand, n)
    if not playable(item, kept):
        return False
    return _effective(item, ctx) == _led(ctx) or not _must_follow(ctx, hand, n, kept)


def is_legal(hand, n, trick, item, trump_colour, trump_number):
    """May the player holding hand[0:n] play `item` to `trick` now?"""
    return _is_legal(_context(trick, trump_colour, trump_number), hand, n, item)


def _copy_playable(hand, n, out):
    kept = _kept_item(hand, n)
    count = 0
    for i in range(n):
        if playable(hand[i], kept):
            out[count] = hand[i]
            count += 1
    return count


def _keep_led(ctx, out, n):
    count = 0
    for i in range(n):
        if _effective(out[i], ctx) == _led(ctx):
            out[count] = out[i]
            count += 1
    return count


def _legal_plays(ctx, hand, n, out):
    # The same two rules as _is_legal, applied as two passes over `out`.
    count = _copy_playable(hand, n, out)
    if _must_follow(ctx, out, count, _NO_ITEM):  # out holds playable items only
        return _keep_led(ctx, out, count)
    return count


def legal_plays(hand, n, trick, out, trump_colour, trump_number):
    """Write the legal plays from hand[0:n] into `out` in hand order; return how many."""
    return _legal_plays(_context(trick, trump_colour, trump_number), hand, n, out)


# ------------------------------------------------------------ trick result


def tier(item, led, trump_colour, trump_number):
    """Strength tier of an item, TIER_TRUMP_BOTH (strongest) .. TIER_NONE (never wins)."""
    if number(item) == trump_number and not is_black(item):
        if colour(item) == trump_colour:
            return TIER_TRUMP_BOTH
        return TIER_TRUMP_NUMBER
    eff = effective_colour(item, trump_colour, trump_number)
    if eff == trump_colour:
        return TIER_TRUMP_COLOUR
    if eff == led:
        return TIER_LED
    return TIER_NONE


def strength(item, led, trump_colour, trump_number):
    """Comparable strength: tier first, then the higher number; 0 never wins."""
    t = tier(item, led, trump_colour, trump_number)
    if t == TIER_NONE:
        return 0
    return (t << _TIER_SHIFT) | number(item)


def _strength(item, ctx):
    return strength(item, _led(ctx), colour(ctx), number(ctx))


def _strongest(trick, ctx):
    # Equal strength means equal effective colour and number (a card and a
    # die, or two trump-number items); the one played later wins, hence `>=`.
    best = -1
    pos = 0
    for i in range(trick.count):
        s = _strength(trick.items[i], ctx)
        if s >= best:
            best = s
            pos = i
    return pos


def resolve(trick, trump_colour, trump_number):
    """Position in the trick of the winning item (the later of two equals)."""
    return _strongest(trick, _context(trick, trump_colour, trump_number))


# ----------------------------------------------------------------- scoring


def bid_of(kept):
    """The bid a kept die makes: its number; a black die bids 0."""
    return number(kept)


def missed_count(bids, tricks):
    """How many players did not take exactly their bid."""
    missed = 0
    for i in range(len(bids)):
        if tricks[i] != bids[i]:
            missed += 1
    return missed


def round_score(bid, tricks, missed):
    """One player's round score; `missed` is missed_count over all players."""
    score = tricks  # 1 point a trick, bid made or not
    if tricks == bid:
        score += 10 * missed  # exact bid: 10 per player who missed
        if bid == 0:
            score += 10  # exact zero bid: a further 10
    return score


def round_scores(bids, tricks):
    """Every player's round score, by seat, from their bids and tricks taken."""
    missed = missed_count(bids, tricks)
    return [round_score(bids[i], tricks[i], missed) for i in range(len(bids))]


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


def standings(totals, last_bids):
    """Rank of each seat after the match (1 = winner); tied players share a rank
    and the ranks below are pushed down (1, 1, 3)."""
    ranks = []
    for i in range(len(totals)):
        above = 0
        for j in range(len(totals)):
            if compare(totals[j], last_bids[j], totals[i], last_bids[i]) > 0:
                above += 1
        ranks.append(above + 1)
    return ranks


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
