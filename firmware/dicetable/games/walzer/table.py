"""Seltsam-Walzer at the table: how its cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.walzer import rules as c
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False

COLOURS = ("red", "blue", "green", "X")
_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.GREY)

identity = None  # a card is its own identity


def all_items():
    """Every card a tag can be registered as: the deck (the match's all_items,
    without making a match for it)."""
    return c.deck()


def item_name(v, shown):
    """'red 7', 'X2' (the second X card)."""
    if c.is_x(v):
        return "X%d" % (c.copy(v) + 1)
    return "%s %d" % (COLOURS[c.colour(v)], c.number(v))


def value_words(kind, v):
    """None: a number entered is said as itself."""
    return None


def item_view(v):
    """The card's number in its colour."""
    return c.number(v), _RGB[c.colour(v)]


def entry_view(m, a):
    """The value entered, in the prompt's colour."""
    return value_of(a), fr.PROMPTS[kind_of(a)]


def ring_view(m):
    """Nothing shown on the ring between inputs."""
    return None


def deal_progress(m, seat):
    """Cards scanned into the hand, of the round's hand size."""
    return m.hand_n[seat], m.hand_size


def table_entry_seat(m):
    """The table draws its own values."""
    return -1


def meant_value(m, kind, ident):
    """A card means itself."""
    return ident
