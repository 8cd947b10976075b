"""d-TT at the table: how its cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.dtt import rules as c
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
# Room made for the journal when a match begins (app/table.py): the longest
# of 300 random matches at the game's own length, 327 actions.
JOURNAL_ROOM = 384
# Room for the legal actions the table app lists (app/inputs.py): (a seat's, the
# table's, the values one seat enters, the table draws or a scan may mean), the most
# measured in random matches with and without each option: a seat: up to 36 (open play),
# the table: 108 (a deal), values: 13.
LEGAL_ROOM = (40, 112, 16)

SUITS = ("spades", "hearts", "diamonds", "clubs")
FACES = ("", "A", "2", "3", "4", "5", "6", "7", "", "", "", "J", "Q", "K")
_RGB = (fr.BLUE, fr.RED, fr.ORANGE, fr.GREEN)

identity = None  # a card is its own identity


def all_items():
    """Every card a tag can be registered as: the deck (the match's all_items,
    without making a match for it)."""
    return c.deck()


def item_words(line, v, shown):
    """'hearts Q', 'spades A', at the end of `line`."""
    line.add(SUITS[c.suit(v)])
    line.add(" ")
    line.add(FACES[c.face(v)])


def value_words(line, kind, v):
    """False: a number entered is said as itself."""
    return False


def item_view(v):
    """The card's face in its suit's colour."""
    return c.face(v), _RGB[c.suit(v)]


def entry_view(m, a):
    """The value entered, in the prompt's colour."""
    return fr.view(value_of(a), fr.PROMPTS[kind_of(a)])


def ring_view(m):
    """Once the four cards are up: the trump suit counted, 1 spades to 4
    clubs, its last LED in the suit's colour (0, a grey LED: no trump)."""
    # Counted, not only coloured: hearts' red and diamonds' orange are too
    # close even for normal vision at the ring's brightness, and the game's
    # dimmed colour (no trump known yet) too close to spades' blue.
    if m.faceup_n == 4:
        if m.trump >= 4:
            return fr.view(0, fr.GREY)
        return fr.view(m.trump + 1, _RGB[m.trump])
    return None


def deal_progress(m, seat):
    """A packet is 6 cards."""
    return fr.view(m.packet_n[seat], 6)


def table_entry_seat(m):
    """The table draws its own values."""
    return -1


def meant_value(m, kind, ident):
    """A card means itself."""
    return ident
