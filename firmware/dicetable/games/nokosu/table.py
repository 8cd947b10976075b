"""Nokosu Dice at the table: how its dice and cards are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.nokosu import match as engine
from dicetable.games.nokosu import rules as c
from dicetable.match.actions import PICK, PLAY, ZERO_BID, kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False

COLOURS = ("red", "blue", "yellow", "green", "purple", "black")
_RGB = (fr.RED, fr.BLUE, fr.YELLOW, fr.GREEN, fr.VIOLET, fr.GREY)

identity = engine.identity


def all_items():
    """Every die and card a tag can be registered as (a match's all_items()
    with five players, without making a match for it)."""
    return engine.every_item()


def item_name(v, shown):
    """'red card 3', 'blue die 2'; shown: 'blue die 2:5'."""
    colour = COLOURS[c.colour(v)]
    if not c.is_die(v):
        return "%s card %d" % (colour, c.number(v))
    text = "%s die %d" % (colour, c.index(v) + 1)
    if shown and c.number(v) and not c.is_black(v):
        text += ":%d" % c.number(v)
    return text


def value_words(kind, v):
    """None: a number entered is said as itself."""
    return None


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
        return 0, fr.GREY
    if k == PICK or k == PLAY:
        return c.number(v), _RGB[c.colour(v)]
    return v, fr.PROMPTS[k]


def ring_view(m):
    """The trump (its number in its colour) once it is known."""
    if m.trump_number >= 0:
        return m.trump_number, _RGB[m.trump_colour]
    return None


def deal_progress(m, seat):
    """Cards dealt, or dice drawn, of those due."""
    if m.phase == engine.DEALING:
        return m.cards_left[seat], m.cards_each
    if m.phase == engine.DRAWING:
        return m.drawn_each - m.left, m.drawn_each
    return None


def table_entry_seat(m):
    """With the players rolling, the round's start player throws the centre
    dice and enters each one at their seat."""
    if m.phase == engine.CENTRE and m.pending >= 0 and not m.table_rolls:
        return m.start
    return -1


def meant_value(m, kind, ident):
    """A die as it stands in its slot (with its number), else itself."""
    slot = engine.slot_of(ident)
    if slot >= 0:
        return m.item(slot)
    return ident
