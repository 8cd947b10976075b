"""What the table app knows of each game: facts, names and views, no rules.

The rules live in the match engines and rules cores; this module only says
how a game's items and actions meet the table: which action kinds carry a
physical item (a tag scan), what identity a tag stands for, which options the
game reads, how an item or an entered value is named and shown on LEDs, who
enters a table roll the players throw themselves.  Games are numbered as in
engine.GAMES; a game's modules are imported on first use (the board then
holds only the game being played).
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

from dicetable.match.actions import (
    TABLE, DEAL, PLAY, ROLL, PASS_ITEM, KEEP, PICK, PASS, ZERO_BID, REVEAL, CHOOSE,
    KIND_NAMES, kind_of, seat_of, value_of)
from dicetable.match.engine import GAMES, OPEN_PLAY, TABLE_ROLLS, VARIANT
from dicetable.app import frames as fr

DTWWW = const(0)
WALZER = const(1)
DICEFULL = const(2)
DTT = const(3)
NOKOSU = const(4)

TITLES = ("DTwww", "Walzer", "Dicefull", "d-TT", "Nokosu")
PLAYERS = ((2, 4), (3, 4), (2, 5), (3, 3), (3, 5))   # (fewest, most), as the engines

COUNT = const(0x100)      # option "length" (the engine's count field)
# The options each game reads: its engine's OPTIONS, with COUNT; and the
# longest length it takes, its engine's MAX_COUNT.  Kept here, not read from
# the engines, so that the menu imports no game (tests/test_app.py checks
# they agree).
OPTIONS = (OPEN_PLAY | TABLE_ROLLS | VARIANT | COUNT, OPEN_PLAY | COUNT,
           TABLE_ROLLS | VARIANT | COUNT, OPEN_PLAY | COUNT, OPEN_PLAY | TABLE_ROLLS | COUNT)
MAX_LENGTHS = (6, 9, 12, 6, 5)
VARIANT_NAMES = ("dice total", "", "2d6 length", "", "")
LENGTH_NAMES = ("games", "rounds", "challenges", "deals", "rounds")

# Action kinds whose value is a physical item (scanned); bit = 1 << kind.
ITEM_KINDS = ((1 << DEAL) | (1 << PLAY),
              (1 << DEAL) | (1 << PASS_ITEM) | (1 << PLAY),
              1 << PICK,
              (1 << REVEAL) | (1 << DEAL) | (1 << KEEP) | (1 << PLAY),
              (1 << DEAL) | (1 << PICK) | (1 << ZERO_BID) | (1 << PLAY))

_MODULES = {}


def module(path):
    """A module of the package by dotted name, imported once."""
    m = _MODULES.get(path)
    if m is None:
        m = __import__(path, None, None, ("new",))
        _MODULES[path] = m
    return m


def engine(g):
    """The match-engine module of game g."""
    return module("dicetable.match." + GAMES[g])


def core(g):
    """The rules-core module of game g."""
    return module("dicetable.rules." + GAMES[g])


def new_match(g, players, options):
    """A fresh match of game g."""
    return engine(g).new(players, options)


def is_item_kind(g, kind):
    """True when actions of `kind` carry a physical item in game g."""
    return (ITEM_KINDS[g] >> kind) & 1 == 1


def identity(g, value):
    """The physical item an action value stands for (what a tag registers):
    DTwww clears the number and declaration bits, Nokosu a die's number,
    Dicefull the face bits; Walzer and d-TT cards are their own identity."""
    f = identity_function(g)
    return value if f is None else f(value)


def _dicefull_identity(value):
    return value & 0xFFE0


def identity_function(g):
    """identity() of game g as a function of the value alone, or None where
    a value is its own identity (cards): for a loop over many actions."""
    if g == DTWWW or g == NOKOSU:
        return engine(g).identity
    if g == DICEFULL:
        return _dicefull_identity
    return None


def all_items(g):
    """Every item of game g a tag can be registered as (provisioning)."""
    if g == DICEFULL:
        return engine(g).dice_set()
    return new_match(g, PLAYERS[g][1], 0).all_items()


# --- names (log, text display) ---------------------------------------------

_DT_COLOURS = ("red", "blue", "green", "white")
_DT_SIZES = ("d4", "d6", "d8", "d10", "d12", "d20")
_WZ_COLOURS = ("red", "blue", "green", "X")
_TT_SUITS = ("spades", "hearts", "diamonds", "clubs")
_TT_FACES = ("", "A", "2", "3", "4", "5", "6", "7", "", "", "", "J", "Q", "K")
_NK_COLOURS = ("red", "blue", "yellow", "green", "purple", "black")
_DF_KINDS = ("d4", "d6", "d6 pips", "d8", "d10", "d12", "d20", "blank d6", "0-2 d6",
             "doubling", "+- die", "red/black", "hakke", "digital d6", "double", "decimal")


def item_name(g, v, shown=False):
    """An item in words ('red d6', 'blue 11', 'hearts Q'); `shown` adds a
    rolled number or a declaration the value carries."""
    c = core(g)
    if g == DTWWW:
        text = "%s %s" % (_DT_COLOURS[c.colour(v)], _DT_SIZES[c.size(v)])
        if shown:
            text += ":%d" % c.number(v)
            if v >> 13:
                text += " as " + _DT_COLOURS[c.effective_colour(v)]
        return text
    if g == WALZER:
        if c.is_x(v):
            return "X%d" % (c.copy(v) + 1)
        return "%s %d" % (_WZ_COLOURS[c.colour(v)], c.number(v))
    if g == DTT:
        return "%s %s" % (_TT_SUITS[c.suit(v)], _TT_FACES[c.face(v)])
    if g == NOKOSU:
        colour = _NK_COLOURS[c.colour(v)]
        if not c.is_die(v):
            return "%s card %d" % (colour, c.number(v))
        text = "%s die %d" % (colour, c.index(v) + 1)
        if shown and c.number(v) and not c.is_black(v):
            text += ":%d" % c.number(v)
        return text
    kind = c.kind_of(v)
    text = _DF_KINDS[kind] if kind < len(_DF_KINDS) else "kind %d" % kind
    if c.serial_of(v):
        text += " #%d" % (c.serial_of(v) + 1)
    return text


def action_words(g, a):
    """An action in words, without who takes it ('play red d6:4', 'bid 3')."""
    k = kind_of(a)
    v = value_of(a)
    name = kind_word(k)
    if is_item_kind(g, k):
        return "%s %s" % (name, item_name(g, v, True))
    if k == PASS:
        return name
    if g == DTWWW and k == ROLL and v >> 8:
        return "roll d%d:%d" % (core(g).sides(v >> 8), v & 0xFF)
    return "%s %d" % (name, v)


# --- LED views ----------------------------------------------------------------

_DT_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.WHITE)
_WZ_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.GREY)
_TT_RGB = (fr.BLUE, fr.RED, fr.ORANGE, fr.GREEN)
_NK_RGB = (fr.RED, fr.BLUE, fr.YELLOW, fr.GREEN, fr.VIOLET, fr.GREY)
_SIZE_RGB = (fr.RED, fr.ORANGE, fr.YELLOW, fr.GREEN, fr.BLUE, fr.VIOLET)


def item_view(g, v):
    """(number, colour) an item is shown with while provisioning: the die's
    sides or the card's number, in the item's colour."""
    c = core(g)
    if g == DTWWW:
        return c.sides(c.size(v)), _DT_RGB[c.colour(v)]
    if g == WALZER:
        return c.number(v), _WZ_RGB[c.colour(v)]
    if g == DTT:
        return c.face(v), _TT_RGB[c.suit(v)]
    if g == NOKOSU:
        if c.is_die(v):
            return c.index(v) + 1, _NK_RGB[c.colour(v)]
        return c.number(v), _NK_RGB[c.colour(v)]
    return c.kind_of(v) + 1, fr.WHITE


def entry_view(g, m, a):
    """(number or None, marker colour) for an action chosen with -/+: the
    value entered (a roll shows the die's number, a bid the bid), or for a
    choice between actions on one item what differs (a white die's declared
    colour, pick or zero bid, the number in open play)."""
    k = kind_of(a)
    v = value_of(a)
    if g == DTWWW:
        return _dtwww_entry(m, k, v)
    if g == NOKOSU:
        return _nokosu_entry(k, v)
    if g == DICEFULL and k == ROLL:
        return _dicefull_roll(m, seat_of(a), v)
    return v, fr.PROMPTS[k]


def _dtwww_entry(m, k, v):
    c = core(DTWWW)
    if k == PLAY:
        return c.number(v), _DT_RGB[c.effective_colour(v)]
    if k == CHOOSE:
        return c.sides(v), _SIZE_RGB[v % 6]
    if k == ROLL and m.phase == engine(DTWWW).PHASE_ROLLOFF:
        return v & 0xFF, _SIZE_RGB[(v >> 8) % 6]
    return v, fr.PROMPTS[k]


def _nokosu_entry(k, v):
    c = core(NOKOSU)
    if k == ZERO_BID:
        return 0, fr.GREY
    if k == PICK or k == PLAY:
        return c.number(v), _NK_RGB[c.colour(v)]
    return v, fr.PROMPTS[k]


def _dicefull_roll(m, seat, v):
    # A Dicefull roll: a d6 (game length, roll-off, the table's), or the face
    # a seat's pending die shows (a symbol, tenths, or its value).
    prompt = fr.PROMPTS[ROLL]
    if m.phase != engine(DICEFULL).ROLLING or seat == TABLE:
        return v + 1, prompt
    c = core(DICEFULL)
    code = c.face(c.rolled(m.pending_die(seat), v))
    if code >= c.SYMBOL:
        return None, _DF_SYMBOL_RGB.get(code, fr.GREY)
    if c.kind_of(m.pending_die(seat)) == c.DECIMAL:
        return code, fr.VIOLET         # tenths
    return code // 10, prompt


_DF_SYMBOL_RGB = {10000: fr.GREY, 10001: fr.GREEN, 10002: fr.PINK, 10100: fr.RED,
                  10101: fr.BLUE}


def ring_view(g, m):
    """(number or None, colour) the ring shows while the centre waits for
    nothing: d-TT's trump suit, Nokosu's trump (number, colour), Dicefull's
    challenge (its number in the table's set, from 1); None for the others."""
    if g == DTT and m.faceup_n == 4:
        if m.trump >= 4:
            return None, fr.GREY           # no trump
        return None, _TT_RGB[m.trump]
    if g == NOKOSU and m.trump_number >= 0:
        return m.trump_number, _NK_RGB[m.trump_colour]
    if g == DICEFULL and m.challenge != engine(g).NO_CHALLENGE:
        return m.challenge + 1, fr.WHITE
    return None


# --- how the table meets the match ----------------------------------------------

def deal_progress(g, m, seat):
    """(have, need) of a seat's scans in a deal (the LEDs fill), or None."""
    if g == DTWWW:
        return m.hand_n[seat], 9
    if g == WALZER:
        return m.hand_n[seat], m.hand_size
    if g == DTT:
        return m.packet_n[seat], 6
    if g == NOKOSU:
        e = engine(g)
        if m.phase == e.DEALING:
            return m.cards_left[seat], m.cards_each
        if m.phase == e.DRAWING:
            return m.drawn_each - m.left, m.drawn_each
    return None


def table_entry_seat(g, m):
    """The seat that enters a TABLE value the players throw themselves, or -1
    when the table draws its TABLE values from its own random source.  Only
    Nokosu has one: with players rolling, the centre dice are thrown by the
    round's start player, who enters each one at their seat."""
    if g == NOKOSU:
        e = engine(g)
        if m.phase == e.CENTRE and m.pending >= 0 and not m.table_rolls:
            return m.start
    return -1


def meant_value(g, m, kind, ident):
    """The value an action of `kind` with the item `ident` would carry now
    (a die as it shows, a white die declared red), so that the engine can
    say why it refuses it."""
    if g == DTWWW and kind == PLAY:
        c = core(g)
        for s in range(m.players):
            for d in m.hand(s):
                if identity(g, d) == ident:
                    return c.play(d, c.RED)
        return c.play(ident | c.lowest_face(c.size(ident)), c.RED)
    if g == NOKOSU:
        slot = engine(g).slot_of(ident)
        if slot >= 0:
            return m.item(slot)
    return ident


def has_tricks(g):
    """True for the trick-taking games (a PLAY may complete a trick)."""
    return g != DICEFULL


def has_pass(g):
    """True when OK alone is an action of the game (Dicefull's pass)."""
    return g == DICEFULL


def kind_word(kind):
    """The action kind in words (text display)."""
    return KIND_NAMES[kind] if 0 < kind < len(KIND_NAMES) else "?"

