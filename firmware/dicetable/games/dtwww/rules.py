"""DTwww (ダイストリテクソワロス): dice trick-taking for 2-4 players.

Rules: docs/rules/dtwww.md (from RULES.md section 1 and original 000).

An item is one die, in a hand or played to a trick, packed in 14 bits:

    bit   13   | 12 11 |  10  |  9 8   |  7 6 5  | 4 3 2 1 0
        DECL   | decl  | copy | colour |  size   |  number

    number  0..20  the rolled face (a d10 shows 0-9, every other die 1..sides)
    size    0..5   D4, D6, D8, D10, D12, D20
    colour  0..3   RED, BLUE, GREEN, WHITE: the die's own colour
    copy    0..1   which of the two red/blue/green dice of that size (white: 0)
    DECL    1 only on a *play* of a white die: decl then holds the declared
            colour (RED, BLUE or GREEN); a die in hand and any non-white play
            have bits 11-13 clear.

Bits 0-10 are the die itself (`die_of`): a play is found in the hand by them.
The per-play calls (is_legal, legal_plays, resolve, next_leader) allocate
nothing: index loops, ints and bools only. They are split into small helpers
because on the RP2040 a frame over 11 words is taken from the heap on every
call (tests/test_board_frames.py).

On the board every Python call also nests about 250 bytes of C stack, and the
table's whole chain of calls must stay within a budget (sim/pico.py): so the
rules a play runs through read a die's fields inline (a shift and a mask, as
colour() and number() do), and none of them is more than two calls deep
(is_legal -> can_follow -> follows, resolve -> takes_over -> follows).
"""

from micropython import const

RED = const(0)
BLUE = const(1)
GREEN = const(2)
WHITE = const(3)

D4 = const(0)
D6 = const(1)
D8 = const(2)
D10 = const(3)
D12 = const(4)
D20 = const(5)

MIN_PLAYERS = const(2)
MAX_PLAYERS = const(4)
HAND_SIZE = const(9)  # dice per player at the deal
TRICKS = const(9)  # tricks per game
MAX_PLAYS = const(27)  # legal_plays output room for a full hand: 3 per die

# game_points modes
SCORE_VP = const(0)  # victory points by rank (the standard game)
SCORE_TOTAL = const(1)  # ☆得点計算ヴァリアント: the dice total itself

# roll_off results
FIRST_WINS = const(1)
SECOND_WINS = const(-1)
ROLL_AGAIN = const(0)

_NUMBER_MASK = const(0x1F)
_SIZE_SHIFT = const(5)
_SIZE_MASK = const(0x7)
_COLOUR_SHIFT = const(8)
_COLOUR_MASK = const(0x3)
_COPY_SHIFT = const(10)
_DIE_MASK = const(0x7FF)
_DECL_SHIFT = const(11)
_DECL_FLAG = const(4)  # bit 13, seen from bit 11


# --- encoding -------------------------------------------------------------


def die(colour, size, number, copy):
    """The item for one die: colour RED..WHITE, size D4..D20, rolled number, copy 0/1."""
    return number | (size << _SIZE_SHIFT) | (colour << _COLOUR_SHIFT) | (copy << _COPY_SHIFT)


def play(die, declared):
    """The item played for `die`: a white die carries `declared` (RED, BLUE or GREEN);
    any other die is played as it is and `declared` is ignored."""
    if (die >> _COLOUR_SHIFT) & _COLOUR_MASK != WHITE:
        return die
    # `+` not `|`: an out-of-range declaration stays invalid instead of aliasing a colour.
    return die | ((_DECL_FLAG + declared) << _DECL_SHIFT)


def rolled(die, number):
    """The same physical die showing `number` (the deal rolls each die once)."""
    return (die & ~_NUMBER_MASK & _DIE_MASK) | number


def number(item):
    """The rolled number on the die."""
    return item & _NUMBER_MASK


def size(item):
    """The die's size, D4..D20."""
    return (item >> _SIZE_SHIFT) & _SIZE_MASK


def colour(item):
    """The die's own colour, RED..WHITE (a white die stays WHITE when declared)."""
    return (item >> _COLOUR_SHIFT) & _COLOUR_MASK


def copy_of(item):
    """Which of the two dice of that colour and size (0 or 1; white dice are 0)."""
    return (item >> _COPY_SHIFT) & 1


def die_of(item):
    """The die of a play, without its declaration: what the hand holds."""
    return item & _DIE_MASK


def effective_colour(item):
    """The colour a die counts as: the declared colour of a played white die,
    otherwise the die's own colour (WHITE for a white die not yet played)."""
    extra = item >> _DECL_SHIFT
    if extra & _DECL_FLAG:
        return extra & _COLOUR_MASK
    return (item >> _COLOUR_SHIFT) & _COLOUR_MASK


def sides(size):
    """Number of faces of a die of `size` (d4..d20)."""
    if size == D20:
        return 20
    return 4 + 2 * size


def lowest_face(size):
    """The lowest number a die of `size` can show: a d10 shows 0-9, the others start at 1."""
    if size == D10:
        return 0
    return 1


def highest_face(size):
    """The highest number a die of `size` can show: its sides(), but a d10's 9."""
    if size == D10:
        return 9
    if size == D20:
        return 20
    return 4 + 2 * size


def is_face(size, number):
    """True when a die of `size` can show `number` (range check for entered rolls)."""
    return lowest_face(size) <= number <= highest_face(size)


def box():
    """The 42 dice of the game, unrolled (number 0; see `rolled`): red, blue and
    green two of each size (copy 0 and 1), white one of each size."""
    dice = []
    for c in range(RED, WHITE + 1):
        for s in range(D4, D20 + 1):
            dice.append(die(c, s, 0, 0))
            if c != WHITE:
                dice.append(die(c, s, 0, 1))
    return dice


# --- playing a die ----------------------------------------------------------


def declaration_ok(item):
    """A white die is played declared red, blue or green, never white; any other
    die is played with no declaration."""
    extra = item >> _DECL_SHIFT
    if (item >> _COLOUR_SHIFT) & _COLOUR_MASK != WHITE:
        return extra == 0
    return _DECL_FLAG + RED <= extra <= _DECL_FLAG + GREEN


def follows(lead, item):
    """True when the played `item` follows `lead`: same (effective) colour or same
    number, or both. A white die counts as its declared colour on either side."""
    if (item ^ lead) & _NUMBER_MASK == 0:
        return True  # the same number
    # Each one's effective_colour(), inline: the declared colour of a played
    # white die (under the DECL flag), else the die's own colour; both are
    # read in the two bits above the shift.
    led = _DECL_SHIFT if (lead >> _DECL_SHIFT) & _DECL_FLAG else _COLOUR_SHIFT
    played = _DECL_SHIFT if (item >> _DECL_SHIFT) & _DECL_FLAG else _COLOUR_SHIFT
    return ((lead >> led) ^ (item >> played)) & _COLOUR_MASK == 0


def can_follow(hand, n, lead):
    """True when any of the first n dice of `hand` can follow `lead`. A white die
    in hand counts as a die of every colour (it can be declared the lead colour),
    so a hand holding one can always follow."""
    i = 0
    while i < n:  # a range loop's stack words would take the frame past 9 (256 B)
        d = hand[i]
        # die_can_follow(d, lead), inline
        if (d >> _COLOUR_SHIFT) & _COLOUR_MASK == WHITE or follows(lead, d):
            return True
        i += 1
    return False


def die_can_follow(d, lead):
    """True when the die `d`, in hand, can be played to follow `lead`: a white
    die can always be declared the lead colour."""
    return (d >> _COLOUR_SHIFT) & _COLOUR_MASK == WHITE or follows(lead, d)


def in_hand(hand, n, item):
    """True when the die of the play `item` is among the first n dice of `hand`."""
    d = item & _DIE_MASK  # die_of(item)
    for i in range(n):
        if hand[i] == d:
            return True
    return False


def is_legal(hand, n, trick, item):
    """True when playing `item` (built with `play`) from the n dice of `hand` to
    `trick` is allowed: the die is in hand, a white die is declared R/B/G, the
    leader plays anything, and a follower who can follow must follow."""
    if not in_hand(hand, n, item) or not declaration_ok(item):
        return False
    if trick.count == 0:
        return True
    lead = trick.items[0]
    return follows(lead, item) or not can_follow(hand, n, lead)


def open_legal(trick, item):
    """is_legal() for a hand nobody has shown (open play): True when some hand
    holding the die of `item` may play it to `trick`.  A coloured die that
    does not follow may come from a hand that cannot follow; a white die
    cannot: its holder can always follow (by declaring it the lead colour),
    so a white die declared another colour, not showing the lead's number, is
    refused exactly as with the hand known."""
    if not declaration_ok(item):
        return False
    if trick.count == 0 or (item >> _COLOUR_SHIFT) & _COLOUR_MASK != WHITE:
        return True
    return follows(trick.items[0], item)


def legal_plays(hand, n, trick, out):
    """Write every legal play for the n dice of `hand` into `out` (room for 3 * n
    items, MAX_PLAYS for a full hand) and return how many. Order: hand order; a
    white die appears once per legal declaration, RED, BLUE, GREEN. `out` past
    the returned count is scratch: it may hold plays that were filtered out."""
    k = all_plays(hand, n, out)
    if trick.count == 0:
        return k
    lead = trick.items[0]
    if not can_follow(hand, n, lead):
        return k
    return keep_following(out, k, lead)


def all_plays(hand, n, out):
    """Write every play of the n dice of `hand` into `out`, following or not,
    and return how many: add_plays() of each die, inline (one call less deep)."""
    k = 0
    i = 0
    while i < n:  # while loops: two range loops' stack words would take the frame past 11
        d = hand[i]
        if (d >> _COLOUR_SHIFT) & _COLOUR_MASK != WHITE:
            out[k] = d
            k += 1
        else:
            c = RED
            while c < WHITE:  # once per declaration RED, BLUE, GREEN
                out[k] = play(d, c)
                k += 1
                c += 1
        i += 1
    return k


def add_plays(d, out, k):
    """Write the plays of the die `d` into `out` from position k and return the
    position after them: a white die once per declaration RED, BLUE, GREEN."""
    if (d >> _COLOUR_SHIFT) & _COLOUR_MASK != WHITE:
        out[k] = d
        return k + 1
    for c in range(RED, WHITE):
        out[k] = play(d, c)
        k += 1
    return k


def keep_following(out, k, lead):
    """Keep, in order, only the first k plays in `out` that follow `lead`;
    return how many remain."""
    kept = 0
    i = 0
    while i < k:  # a range loop's stack words would take the frame past 9 (256 B)
        if follows(lead, out[i]):
            out[kept] = out[i]
            kept += 1
        i += 1
    return kept


# --- trick result -----------------------------------------------------------


def resolve(trick):
    """Position of the trick's winner: the lowest number among the followers (the
    leader and every die matching the lead's colour or number); equal lowest
    numbers -> the one played last. A die that does not follow never wins."""
    items = trick.items
    best = 0
    for i in range(1, trick.count):
        if takes_over(items[0], items[i], items[best]):
            best = i
    return best


def takes_over(lead, item, best):
    """True when `item`, played after `best`, beats it: it follows `lead` and its
    number is lower or equal (among equal numbers the later die is stronger)."""
    return follows(lead, item) and item & _NUMBER_MASK <= best & _NUMBER_MASK


def next_leader(trick):
    """Position of the next trick's leader: the highest number among ALL dice
    played, colour and following ignored; equal highest -> the one played first."""
    items = trick.items
    best = 0
    for i in range(1, trick.count):
        # `>`: among equal numbers the earlier die is weaker.
        if items[i] & _NUMBER_MASK > items[best] & _NUMBER_MASK:
            best = i
    return best


# --- scoring a game ---------------------------------------------------------


def ranks_above(total_a, count_a, total_b, count_b):
    """True when a player whose score dice show total_a on count_a dice ranks above
    one with total_b on count_b: higher total, then fewer score dice. R2: any
    player who took a trick ranks above every player who took none."""
    if (count_a > 0) != (count_b > 0):
        return count_a > 0  # R2
    if total_a != total_b:
        return total_a > total_b
    return count_a < count_b


def ranks(totals, counts, out=None):
    """Each player's rank (1 = best) from their score-dice totals and counts, by seat.
    Players who cannot be told apart share a rank and push the ranks below down
    (standard competition ranking: 1,1,3 / 1,2,2,4 / 1,2,3,3,5; R1: never 1,1,3,3,4).
    R2: players with no score die share the rank below everyone who took a trick.
    Into `out` (one entry per player written: the match's game_ranks) when
    given, else a new list."""
    if out is None:
        out = [0] * len(totals)
    i = 0
    while i < len(totals):  # while loops: frames within the board's 11 words
        out[i] = rank_of(totals, counts, i)
        i += 1
    return out


def rank_of(totals, counts, i):
    """Player i's rank in ranks()."""
    above = 0
    j = 0
    while j < len(totals):
        if ranks_above(totals[j], counts[j], totals[i], counts[i]):
            above += 1
        j += 1
    return above + 1  # R1: rank = 1 + players strictly above


def victory_points(rank):
    """Victory points for a game rank: 1st 2, 2nd 1, 3rd 1, 4th and below 0."""
    if rank == 1:
        return 2
    if rank <= 3:
        return 1
    return 0


def game_points(totals, counts, mode):
    """What each seat adds to its match score for one game: victory points by rank
    (SCORE_VP), or the dice total itself in the variant (SCORE_TOTAL)."""
    result = []
    if mode == SCORE_TOTAL:
        for i in range(len(totals)):
            result.append(totals[i])
        return result
    game_ranks = ranks(totals, counts)
    for i in range(len(game_ranks)):
        result.append(victory_points(game_ranks[i]))
    return result


def next_game_leader(game_ranks, leader):
    """Seat that leads the next game: the last-ranked player of the game just scored
    (by rank, not by match score). R3: if several share last rank, the first of them
    clockwise from `leader`, the seat that led the game just played, that seat itself
    being the first candidate."""
    n = len(game_ranks)
    last = 0
    for i in range(n):
        if game_ranks[i] > last:
            last = game_ranks[i]
    for k in range(n):
        seat = (leader + k) % n  # R3: k = 0 is the leader seat itself
        if game_ranks[seat] == last:
            return seat
    return leader


# --- end of the match -------------------------------------------------------


def most(points):
    """The most match points any seat has: match_winners() are the seats
    holding them (the match counts them without a list)."""
    best = points[0]
    for i in range(len(points)):
        if points[i] > best:
            best = points[i]
    return best


def match_winners(points):
    """Seats with the most match points (victory points, or dice totals in the
    variant). More than one -> they roll off (`roll_off`)."""
    best = most(points)
    winners = []
    for i in range(len(points)):
        if points[i] == best:
            winners.append(i)
    return winners


def roll_off(number_a, sides_a, number_b, sides_b):
    """Compare two roll-off rolls, each a number on a die of `sides` faces chosen by
    its player: higher number wins; equal -> fewer faces wins; still equal ->
    ROLL_AGAIN. Returns FIRST_WINS, SECOND_WINS or ROLL_AGAIN."""
    if number_a != number_b:
        return FIRST_WINS if number_a > number_b else SECOND_WINS
    if sides_a != sides_b:
        return FIRST_WINS if sides_a < sides_b else SECOND_WINS
    return ROLL_AGAIN
