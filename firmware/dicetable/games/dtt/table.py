"""d-TT at the table: how its cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.dtt import rules as c
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False

SUITS = ("spades", "hearts", "diamonds", "clubs")
FACES = ("", "A", "2", "3", "4", "5", "6", "7", "", "", "", "J", "Q", "K")
_RGB = (fr.BLUE, fr.RED, fr.ORANGE, fr.GREEN)

identity = None  # a card is its own identity


def all_items():
    """Every card a tag can be registered as: the deck (the match's all_items,
    without making a match for it)."""
    return c.deck()


def item_name(v, shown):
    """'hearts Q', 'spades A'."""
    return "%s %s" % (SUITS[c.suit(v)], FACES[c.face(v)])


def value_words(kind, v):
    """None: a number entered is said as itself."""
    return None


def item_view(v):
    """The card's face in its suit's colour."""
    return c.face(v), _RGB[c.suit(v)]


def entry_view(m, a):
    """The value entered, in the prompt's colour."""
    return value_of(a), fr.PROMPTS[kind_of(a)]


def ring_view(m):
    """Once the four cards are up: the trump suit's colour (grey: no trump)."""
    if m.faceup_n == 4:
        if m.trump >= 4:
            return None, fr.GREY
        return None, _RGB[m.trump]
    return None


def deal_progress(m, seat):
    """A packet is 6 cards."""
    return m.packet_n[seat], 6


def table_entry_seat(m):
    """The table draws its own values."""
    return -1


def meant_value(m, kind, ident):
    """A card means itself."""
    return ident
