"""What a request from the web page holds, checked: ActError, one line, for
anything missing or wrong, before the session changes anything."""

import json

from dicetable.app import games
from dicetable.app.events import LONG, MINUS, OK, PLUS
from dicetable.app.menu import F_HANDS, F_LENGTH, F_ROLLS, F_VARIANT
from dicetable.games import GAMES, header_refusal
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options
from sim.web import view

BOTS = ("human", "random", "heuristic")
BUTTONS = {"minus": MINUS, "plus": PLUS, "ok": OK}
FLAGS = (
    ("open_play", OPEN_PLAY, F_HANDS, "open play"),
    ("table_rolls", TABLE_ROLLS, F_ROLLS, "table rolls"),
    ("variant", VARIANT, F_VARIANT, "variant"),
)


class ActError(ValueError):
    """A request the session cannot take: one line saying what is wrong."""


def field(request, key, kind, default=None):
    """request[key] of type `kind` (bool is no int here); ActError if missing."""
    if key not in request:
        if default is not None:
            return default
        raise ActError("%r needs %r" % (request.get("do"), key))
    value = request[key]
    wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
    if wrong:
        what = {int: "a whole number", bool: "true or false", str: "text", list: "a list"}
        raise ActError("%r is %s, not %s" % (key, what.get(kind, kind.__name__), shown(value)))
    return value


def shown(value, width=30):
    text = json.dumps(value)
    return text if len(text) <= width else text[:width] + "..."


def chosen_seats(seats, table_seats):
    """A new match's seats (the request's list), sorted; ActError for a seat
    not in `table_seats`, or one twice."""
    right = "seats are %s, each once" % ", ".join(str(s) for s in table_seats)
    for s in seats:
        if not isinstance(s, int) or isinstance(s, bool) or s not in table_seats:
            raise ActError("no seat %s (%s)" % (shown(s), right))
    if len(set(seats)) != len(seats):
        raise ActError("a seat twice in %s (%s)" % (shown(seats), right))
    return sorted(seats)


def option_values(request, g, players):
    """The menu's option fields' values (by field) a new match of game g asks
    for; ActError for an option the game does not read or a length out of range."""
    flags = 0
    values = {}
    reads = games.options(g)
    for key, bit, menu_field, words in FLAGS:
        on = field(request, key, bool, False)
        if on and not reads & bit:
            raise ActError("%s has no %s" % (GAMES[g], words))
        values[menu_field] = int(on)
        flags |= bit if on else 0
    length = field(request, "length", int, 0)
    if length and not reads & view.COUNT_BIT:
        raise ActError("%s has no length to choose" % GAMES[g])
    if not 0 <= length <= games.longest(g):
        raise ActError(
            "length %d is out of range (0, the game's own, to %d %s)"
            % (length, games.longest(g), games.length_word(g))
        )
    why = header_refusal(GAMES[g], players, options(flags, length))
    if why:
        raise ActError(why)
    values[F_LENGTH] = length
    return values


def pressed(request):
    """The button a press asks for (with LONG for a long press)."""
    button = field(request, "button", str)
    if button not in BUTTONS:
        raise ActError("no button %s (buttons are minus, plus, ok)" % shown(button))
    long = field(request, "long", bool, False)
    return BUTTONS[button] | (LONG if long else 0)


def scanned_uid(request):
    """The UID (bytes) of the tag a scan puts on the reader."""
    text = field(request, "uid", str)
    try:
        uid = bytes.fromhex(text)
    except ValueError:
        uid = b""
    if len(uid) not in (4, 7):
        raise ActError("uid %s is not 4 or 7 bytes in hex (e.g. 04010013)" % shown(text))
    return uid
