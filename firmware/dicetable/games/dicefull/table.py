"""Dicefull at the table: how its dice are named and shown (app/games.py asks)."""

from dicetable.app import frames as fr
from dicetable.app.table import forget_module
from dicetable.games.dicefull import picking
from dicetable.games.dicefull import rules as c
from dicetable.match.actions import ROLL, TABLE, kind_of, seat_of, value_of

# The maker's challenge set (docs/designers.md, "Your own challenge set"),
# at the root of the board's filesystem; none: the built-in set.
SET_FILE = "dicefull.txt"
_READER = "dicetable.games.dicefull.challenges"

HAS_TRICKS = False
HAS_PASS = True  # OK alone passes (picks no more this round)
# Room made for the journal when a match begins (app/table.py): the longest
# of 300 random matches at the game's own length, 228 actions in 5 players.
JOURNAL_ROOM = 256
# Room for the legal actions the table app lists (app/inputs.py): (a seat's, the
# table's, the values one seat enters, the table draws or a scan may mean), the most
# measured in random matches with and without each option: a seat: up to 20, the table:
# 22, values: 22 (the table's draws).
LEGAL_ROOM = (24, 24, 24)

KINDS = (
    "d4",
    "d6",
    "d6 pips",
    "d8",
    "d10",
    "d12",
    "d20",
    "blank d6",
    "0-2 d6",
    "doubling",
    "+- die",
    "red/black",
    "hakke",
    "digital d6",
    "double",
    "decimal",
)
_SYMBOL_RGB = {10000: fr.GREY, 10001: fr.GREEN, 10002: fr.PINK, 10100: fr.RED, 10101: fr.BLUE}


def identity(v):
    """A die without the face it shows."""
    return v & 0xFFE0


def all_items():
    """Every die a tag can be registered as."""
    return picking.dice_set()


def item_words(line, v, shown):
    """'d20', 'doubling #2' (the second such die), at the end of `line`."""
    kind = c.kind_of(v)
    if kind < len(KINDS):
        line.add(KINDS[kind])
    else:
        line.add("kind ")
        line.num(kind)
    if c.serial_of(v):
        line.add(" #")
        line.num(c.serial_of(v) + 1)


def value_words(line, kind, v):
    """False: a number entered is said as itself."""
    return False


def item_view(v):
    """The die's kind number, in white."""
    return c.kind_of(v) + 1, fr.WHITE


def entry_view(m, a):
    """A roll: a d6 (length, roll-off, the table's) as 1-6; a seat's pending
    die as the face it shows: a symbol's colour, tenths, or its value."""
    k = kind_of(a)
    v = value_of(a)
    seat = seat_of(a)
    prompt = fr.PROMPTS[k]
    if k != ROLL:
        return fr.view(v, prompt)
    if m.phase != picking.ROLLING or seat == TABLE:
        return fr.view(v + 1, prompt)
    code = c.face(c.rolled(m.pending_die(seat), v))
    if code >= c.SYMBOL:
        return fr.view(None, _SYMBOL_RGB.get(code, fr.GREY))
    if c.kind_of(m.pending_die(seat)) == c.DECIMAL:
        return fr.view(code, fr.VIOLET)  # tenths
    return fr.view(code // 10, prompt)


def ring_view(m):
    """The challenge's number in the table's set (from 1), once drawn."""
    if m.challenge != picking.NO_CHALLENGE:
        return fr.view(m.challenge + 1, fr.WHITE)
    return None


def deal_progress(m, seat):
    """No deal."""
    return None


def table_entry_seat(m):
    """The table draws its own rolls."""
    return -1


def meant_value(m, kind, ident):
    """A die means itself."""
    return ident


def prepare(t):
    """Before a match is made or resumed: the set in SET_FILE on table t's
    flash, if there is one (challenges.load(); its module is imported for
    that alone, so a table without the file pays no heap for it)."""
    fs = getattr(t.storage, "fs", None)  # a storage with no files keeps no set
    if fs is not None and fs.exists(SET_FILE):
        try:
            __import__(_READER, None, None, ("x",)).load(fs, SET_FILE, t.say)
        finally:
            forget_module(_READER)  # the set now in data.py's rows: its reader's heap given back
