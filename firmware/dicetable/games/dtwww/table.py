"""DTwww at the table: how its dice are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.dtwww import match as engine
from dicetable.games.dtwww import rules as c
from dicetable.match.actions import CHOOSE, PLAY, ROLL, kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False

COLOURS = ("red", "blue", "green", "white")
SIZES = ("d4", "d6", "d8", "d10", "d12", "d20")
_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.WHITE)
_SIZE_RGB = (fr.RED, fr.ORANGE, fr.YELLOW, fr.GREEN, fr.BLUE, fr.VIOLET)

identity = engine.identity


def all_items():
    """Every die a tag can be registered as: the box (the match's all_items,
    without making a match for it)."""
    return c.box()


def item_name(v, shown):
    """'red d6'; shown: 'red d6:4', a white die declared 'white d8:5 as green'."""
    text = "%s %s" % (COLOURS[c.colour(v)], SIZES[c.size(v)])
    if shown:
        text += ":%d" % c.number(v)
        if v >> 13:
            text += " as " + COLOURS[c.effective_colour(v)]
    return text


def value_words(kind, v):
    """A roll-off's roll names its die ('roll d20:7'); None: the number alone."""
    if kind == ROLL and v >> 8:
        return "roll d%d:%d" % (c.sides(v >> 8), v & 0xFF)
    return None


def item_view(v):
    """The die's sides in its colour."""
    return c.sides(c.size(v)), _RGB[c.colour(v)]


def entry_view(m, a):
    """A played die: its number in the colour it counts as; a size chosen:
    its sides; a roll-off roll: the number in the die's size colour."""
    k = kind_of(a)
    v = value_of(a)
    if k == PLAY:
        return c.number(v), _RGB[c.effective_colour(v)]
    if k == CHOOSE:
        return c.sides(v), _SIZE_RGB[v % 6]
    if k == ROLL and m.phase == engine.PHASE_ROLLOFF:
        return v & 0xFF, _SIZE_RGB[(v >> 8) % 6]
    return v, fr.PROMPTS[k]


def ring_view(m):
    """Nothing shown on the ring between inputs."""
    return None


def deal_progress(m, seat):
    """A hand is 9 dice."""
    return m.hand_n[seat], 9


def table_entry_seat(m):
    """The table draws its own rolls."""
    return -1


def meant_value(m, kind, ident):
    """A die as it shows in a hand (declared red) for a play, else itself."""
    if kind != PLAY:
        return ident
    for s in range(m.players):
        for d in m.hand(s):
            if identity(d) == ident:
                return c.play(d, c.RED)
    return c.play(ident | c.lowest_face(c.size(ident)), c.RED)
