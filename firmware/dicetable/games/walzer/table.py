"""Seltsam-Walzer at the table: how its cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.walzer import rules as c
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
# Room made for the journal when a match begins (app/table.py): the longest
# of 300 random matches at the game's own length, 320 actions in 4 players.
JOURNAL_ROOM = 384
# Room for the legal actions the table app lists (app/inputs.py): (a seat's, the
# table's, the values one seat enters, the table draws or a scan may mean), the most
# measured in random matches with and without each option: a seat: up to 36 (open play),
# the table: 144 (a deal), values: none.
LEGAL_ROOM = (40, 144, 4)

COLOURS = ("red", "blue", "green", "X")
_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.GREY)

identity = None  # a card is its own identity


def all_items():
    """Every card a tag can be registered as: the deck (the match's all_items,
    without making a match for it)."""
    return c.deck()


def item_words(line, v, shown):
    """'red 7', 'X2' (the second X card), at the end of `line`."""
    if c.is_x(v):
        line.add("X")
        line.num(c.copy(v) + 1)
        return
    line.add(COLOURS[c.colour(v)])
    line.add(" ")
    line.num(c.number(v))


def value_words(line, kind, v):
    """False: a number entered is said as itself."""
    return False


def item_view(v):
    """The card's number in its colour."""
    return c.number(v), _RGB[c.colour(v)]


def entry_view(m, a):
    """The value entered, in the prompt's colour."""
    return fr.view(value_of(a), fr.PROMPTS[kind_of(a)])


def ring_view(m):
    """Nothing shown on the ring between inputs."""
    return None


def deal_progress(m, seat):
    """Cards scanned into the hand, of the round's hand size."""
    return fr.view(m.hand_n[seat], m.hand_size)


def table_entry_seat(m):
    """The table draws its own values."""
    return -1


def meant_value(m, kind, ident):
    """A card means itself."""
    return ident
