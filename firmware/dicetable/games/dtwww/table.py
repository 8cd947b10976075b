"""DTwww at the table: how its dice are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.games.dtwww import match as engine
from dicetable.games.dtwww import rules as c
from dicetable.games.dtwww.deal import identity  # noqa: F401 - the app reads it here
from dicetable.match.actions import CHOOSE, PLAY, ROLL, kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
# Room made for the journal when a match begins (app/table.py): the longest
# of 300 random matches at the game's own length, 472 actions in 4 players.
JOURNAL_ROOM = 512
# Room for the legal actions the table app lists (app/inputs.py): (a seat's, the
# table's, the values one seat enters, the table draws or a scan may mean), the most
# measured in random matches with and without each option: a seat: up to 60 (a roll-off:
# every size and face), the table: 20, values: 60; open play lists up to 540 plays for a
# seat, and that list grows once.
LEGAL_ROOM = (64, 24, 64)

COLOURS = ("red", "blue", "green", "white")
SIZES = ("d4", "d6", "d8", "d10", "d12", "d20")
_RGB = (fr.RED, fr.BLUE, fr.GREEN, fr.WHITE)
_SIZE_RGB = (fr.RED, fr.ORANGE, fr.YELLOW, fr.GREEN, fr.BLUE, fr.VIOLET)


def all_items():
    """Every die a tag can be registered as: the box (the match's all_items,
    without making a match for it)."""
    return c.box()


def item_words(line, v, shown):
    """'red d6'; shown: 'red d6:4', a white die declared 'white d8:5 as
    green'; at the end of `line`."""
    line.add(COLOURS[c.colour(v)])
    line.add(" ")
    line.add(SIZES[c.size(v)])
    if shown:
        line.add(":")
        line.num(c.number(v))
        if v >> 13:
            line.add(" as ")
            line.add(COLOURS[c.effective_colour(v)])


def value_words(line, kind, v):
    """A roll-off's roll names its die (' d20:7' after 'roll'); False: the
    number alone."""
    if kind == ROLL and v >> 8:
        line.add(" d")
        line.num(c.sides(v >> 8))
        line.add(":")
        line.num(v & 0xFF)
        return True
    return False


def item_view(v):
    """The die's sides in its colour."""
    return c.sides(c.size(v)), _RGB[c.colour(v)]


def entry_view(m, a):
    """A played die: its number in the colour it counts as (a white die's
    declaration with registered hands: the colour counted, 1 red, 2 blue,
    3 green); a size chosen: its sides; a roll-off roll: the number in the
    die's size colour."""
    k = kind_of(a)
    v = value_of(a)
    if k == PLAY:
        if v >> 13 and not m.open:
            # Counted, not only coloured: red and green are one colour to
            # red-green-blind eyes.  The number is the die's, fixed by now.
            return fr.view(c.effective_colour(v) + 1, _RGB[c.effective_colour(v)])
        return fr.view(c.number(v), _RGB[c.effective_colour(v)])
    if k == CHOOSE:
        return fr.view(c.sides(v), _SIZE_RGB[v % 6])
    if k == ROLL and m.phase == engine.PHASE_ROLLOFF:
        return fr.view(v & 0xFF, _SIZE_RGB[(v >> 8) % 6])
    return fr.view(v, fr.PROMPTS[k])


def ring_view(m):
    """Nothing shown on the ring between inputs."""
    return None


def deal_progress(m, seat):
    """A hand is 9 dice."""
    return fr.view(m.hand_n[seat], 9)


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
