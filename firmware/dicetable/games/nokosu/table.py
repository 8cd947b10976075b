"""Nokosu Dice at the table: how its dice and cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.nokosu import deal
from dicetable.games.nokosu import rules as c
from dicetable.match.actions import PICK, PLAY, ZERO_BID, kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
# Room made for the journal when a match begins (app/table.py): the longest
# of 300 random matches at the game's own length, 760 actions in 5 players.
JOURNAL_ROOM = 896
# Room for the legal actions the table app lists (app/inputs.py): (a seat's, the
# table's, the values one seat enters, the table draws or a scan may mean), the most
# measured in random matches with and without each option: a seat: up to 45 (open play),
# the table: 200 (a deal), values: 6.
LEGAL_ROOM = (48, 200, 8)

COLOURS = ("red", "blue", "yellow", "green", "purple", "black")
_RGB = (fr.RED, fr.BLUE, fr.YELLOW, fr.GREEN, fr.VIOLET, fr.GREY)

# The engine's item layout and phases are read from deal.py, where they are
# defined: match.py imports only what its own code reads (each name a module
# imports is an entry of its dict on the board's heap).
identity = deal.identity


def all_items():
    """Every die and card a tag can be registered as (a match's all_items()
    with five players, without making a match for it)."""
    return deal.every_item()


def item_words(line, v, shown):
    """'red card 3', 'blue die 2'; shown: 'blue die 2:5'; at the end of `line`."""
    line.add(COLOURS[c.colour(v)])
    if not c.is_die(v):
        line.add(" card ")
        line.num(c.number(v))
        return
    line.add(" die ")
    line.num(c.index(v) + 1)
    if shown and c.number(v) and not c.is_black(v):
        line.add(":")
        line.num(c.number(v))


def value_words(line, kind, v):
    """False: a number entered is said as itself."""
    return False


def item_view(v):
    """A die's index or a card's number, in its colour."""
    if c.is_die(v):
        return c.index(v) + 1, _RGB[c.colour(v)]
    return c.number(v), _RGB[c.colour(v)]


def entry_view(m, a):
    """A zero bid: 0 in grey; a pick or a play: the number in its colour."""
    k = kind_of(a)
    v = value_of(a)
    if k == ZERO_BID:
        return fr.view(0, fr.GREY)
    if k == PICK or k == PLAY:
        return fr.view(c.number(v), _RGB[c.colour(v)])
    return fr.view(v, fr.PROMPTS[k])


def ring_view(m):
    """The trump (its number in its colour) once it is known."""
    if m.trump_number >= 0:
        return fr.view(m.trump_number, _RGB[m.trump_colour])
    return None


def deal_progress(m, seat):
    """Cards dealt, or dice drawn, of those due."""
    if m.phase == deal.DEALING:
        return fr.view(m.cards_left[seat], m.cards_each)
    if m.phase == deal.DRAWING:
        return fr.view(m.drawn_each - m.left, m.drawn_each)
    return None


def table_entry_seat(m):
    """With the players rolling, the round's start player throws the centre
    dice and enters each one at their seat."""
    if m.phase == deal.CENTRE and m.pending >= 0 and not m.table_rolls:
        return m.start
    return -1


def meant_value(m, kind, ident):
    """A die as it stands in its slot (with its number), else itself."""
    slot = deal.slot_of(ident)
    if slot >= 0:
        return m.item(slot)
    return ident
