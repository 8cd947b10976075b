"""The table app's one door to a game: its facts and its table module.

A game's facts (title, players, options, longest length, the kinds that
carry a scanned item) are its entry in dicetable.games, read without loading
any of its code; how its items and actions meet the table (names, LED views,
deal progress, who enters a table roll) is its package's table.py, imported
when first asked: each function here asks part(g, "table") itself, a call
less on the Pico's C stack under the frame's drawing, which reaches them at
every play.  Games are numbered as in dicetable.games.GAMES.
"""

from dicetable.app.frames import PROVISION_RGB
from dicetable.app.line import words
from dicetable.games import (
    FEWEST,
    GAMES,
    ITEM_KINDS,
    LENGTH_WORD,
    LONGEST,
    MENU_RGB,
    MOST,
    OPTIONS,
    TITLE,
    VARIANT_WORD,
    fact,
    part,
)
from dicetable.match.actions import KIND_NAMES, PASS, kind_of, value_of


def title(g):
    """Game g's name as the table shows and logs it ('Walzer')."""
    return fact(g, TITLE)


def count():
    """How many games are registered."""
    return len(GAMES)


def menu_colour(i):
    """The colour of sector i of the menu ring: game i's, or provisioning's
    (the sector after the last game)."""
    return PROVISION_RGB if i == len(GAMES) else fact(i, MENU_RGB)


def players(g):
    """(fewest, most) players game g takes."""
    return fact(g, FEWEST), fact(g, MOST)


def options(g):
    """The option bits game g reads, with COUNT when it takes a length."""
    return fact(g, OPTIONS)


def longest(g):
    """The longest length game g takes (its engine's MAX_COUNT)."""
    return fact(g, LONGEST)


def length_word(g):
    """What game g's length counts ('rounds')."""
    return fact(g, LENGTH_WORD)


def variant_word(g):
    """The name of game g's published variant ('' for none)."""
    return fact(g, VARIANT_WORD)


def item_kinds(g):
    """Bit mask of the action kinds that carry a scanned item (1 << kind)."""
    return fact(g, ITEM_KINDS)


def prepare(g, t):
    """Before a match of game g is made or resumed on table t: its modules
    imported one at a time, those the others import first, so that no
    import runs inside another on the Pico's C stack (each nested import
    costs it ~600 B: docs/firmware.md, "The C stack"); then the game's own
    data on flash read, if it keeps any (Dicefull: a challenge set)."""
    import dicetable.rules.trick  # noqa: F401 - the match of most games imports it

    part(g, "rules")
    part(g, "match")
    read = getattr(part(g, "table"), "prepare", None)
    if read is not None:
        read(t)


def is_item_kind(g, kind):
    """True when actions of `kind` carry a physical item in game g."""
    return (fact(g, ITEM_KINDS) >> kind) & 1 == 1


def identity(g, value):
    """The physical item an action value stands for (what a tag registers):
    DTwww clears the number and declaration bits, Nokosu a die's number,
    Dicefull the face bits; Walzer and d-TT cards are their own identity."""
    f = part(g, "table").identity
    return value if f is None else f(value)


def identity_function(g):
    """identity() of game g as a function of the value alone, or None where
    a value is its own identity (cards): for a loop over many actions."""
    return part(g, "table").identity


def all_items(g):
    """Every item of game g a tag can be registered as (provisioning)."""
    return part(g, "table").all_items()


def item_name(g, v, shown=False):
    """An item in words ('red d6', 'blue 11', 'hearts Q'); `shown` adds a
    rolled number or a declaration the value carries.  A str: for the
    menu, provisioning and the host (a play writes item_words())."""
    return words(part(g, "table").item_words, v, shown)


def item_words(line, g, v, shown=False):
    """item_name() written at the end of `line` (app/line.py): no heap."""
    part(g, "table").item_words(line, v, shown)


def action_words(g, a):
    """An action in words, without who takes it ('play red d6:4', 'bid 3'),
    as a str: for the host (a play writes say_action())."""
    return words(say_action, g, a)


def say_action(line, g, a):
    """action_words() written at the end of `line` (app/line.py): no heap."""
    k = kind_of(a)
    v = value_of(a)
    line.add(kind_word(k))
    if is_item_kind(g, k):
        line.add(" ")
        part(g, "table").item_words(line, v, True)
    elif k != PASS and not part(g, "table").value_words(line, k, v):
        line.add(" ")
        line.num(v)


def kind_word(kind):
    """The action kind in words (text display)."""
    return KIND_NAMES[kind] if 0 < kind < len(KIND_NAMES) else "?"


def item_view(g, v):
    """(number, colour) an item is shown with while provisioning: the die's
    sides or the card's number, in the item's colour."""
    return part(g, "table").item_view(v)


def entry_view(g, m, a):
    """(number or None, marker colour) for an action chosen with -/+: the
    value entered (a roll shows the die's number, a bid the bid), or for a
    choice between actions on one item what differs (a white die's declared
    colour, pick or zero bid, the number in open play)."""
    return part(g, "table").entry_view(m, a)


def ring_view(g, m):
    """(number or None, colour) the ring shows while the centre waits for
    nothing (d-TT's trump suit, Nokosu's trump, Dicefull's challenge), or None."""
    return part(g, "table").ring_view(m)


def deal_progress(g, m, seat):
    """(have, need) of a seat's scans in a deal (the LEDs fill), or None."""
    return part(g, "table").deal_progress(m, seat)


def table_entry_seat(g, m):
    """The seat that enters a TABLE value the players throw themselves, or -1
    when the table draws its TABLE values from its own random source."""
    return part(g, "table").table_entry_seat(m)


def meant_value(g, m, kind, ident):
    """The value an action of `kind` with the item `ident` would carry now
    (a die as it shows, a white die declared red), so that the engine can
    say why it refuses it."""
    return part(g, "table").meant_value(m, kind, ident)


def has_tricks(g):
    """True for the trick-taking games (a PLAY may complete a trick)."""
    return part(g, "table").HAS_TRICKS


def journal_room(g):
    """The actions game g's journal has room for when a match begins (a
    longer one grows): the longest match measured at its own length."""
    return part(g, "table").JOURNAL_ROOM


def legal_room(g):
    """(a seat's, the table's, a value entry's) most actions at once in game
    g, as measured: the room the table app makes for them (a longer list
    grows)."""
    return part(g, "table").LEGAL_ROOM


def has_pass(g):
    """True when OK alone is an action of the game (Dicefull's pass)."""
    return part(g, "table").HAS_PASS
