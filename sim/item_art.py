"""Every item of every game drawn as SVG markup: a die as a die (its colour,
its size as its outline, its number once rolled, a white die's declared
colour as a band), a card as a card (its colour or suit, its rank).  One
drawing for the web page (sim/web/view.py puts it in the state JSON) and
the docs' picture of the games' boxes (tools/pictures.py, docs/img/items.svg).

look(g, v, shown) reads an item value of game g with the game's own rules
module into a Look (`shown`: with the number it was rolled to, as
games.item_name's `shown` says it); svg(look) draws it.  The markup is self-contained (no ids, no
classes, no fonts fetched), so that many can sit on one page.
"""

from collections import namedtuple
from functools import lru_cache
from xml.sax.saxutils import escape

from dicetable.app import games
from dicetable.games import GAMES
from dicetable.games.dicefull import rules as dicefull
from dicetable.games.dicefull import table as dicefull_table
from dicetable.games.dtt import rules as dtt
from dicetable.games.dtt import table as dtt_table
from dicetable.games.dtwww import rules as dtwww
from dicetable.games.dtwww import table as dtwww_table
from dicetable.games.nokosu import rules as nokosu
from dicetable.games.nokosu import table as nokosu_table
from dicetable.games.walzer import rules as walzer

SIZE = 48  # px: an item's width and height

# What the colours look like on a screen (the items' own, not the LEDs').
PAINT = {
    "red": "#d8343a",
    "blue": "#2f6fd6",
    "green": "#2e9e4f",
    "yellow": "#e8c12c",
    "purple": "#8a4fc4",
    "black": "#2a2a2a",
    "white": "#f4f2ec",
    "orange": "#e8822c",
    "grey": "#8f959c",
}
INK = {"white": "#222", "yellow": "#222"}  # dark text on light colours; else white
# A Look's colour is a name of PAINT, or a CSS colour of its own (_any_game).

SUIT_MARKS = ("\u2660", "\u2665", "\u2666", "\u2663")  # spades, hearts, diamonds, clubs
SUIT_PAINT = ("black", "red", "orange", "green")  # d-TT's four suits as printed

# A die's outline by its sides: the shape its face has (a d4 a triangle, a d8
# a diamond...), as points on a 0-100 square.
OUTLINES = {
    4: "50,6 96,90 4,90",
    6: None,  # a rounded square
    8: "50,3 97,50 50,97 3,50",
    10: "50,3 95,38 80,95 20,95 5,38",
    12: "50,3 96,36 78,95 22,95 4,36",
    20: "50,2 93,26 93,74 50,98 7,74 7,26",
}

# A die, a card, or a die whose shape is a kind's name (Dicefull's special dice).
Look = namedtuple("Look", "shape sides colour big small band")


def _die(sides, colour, big, small, band=None):
    return Look("die", sides, colour, big, small, band)


def _card(colour, big, small):
    return Look("card", 0, colour, big, small, None)


def _dtwww(v, shown):
    colour = dtwww_table.COLOURS[dtwww.colour(v)]
    sides = dtwww.sides(dtwww.size(v))
    number = dtwww.number(v)
    band = None
    if v >> 13:  # a white die played with a declared colour
        band = dtwww_table.COLOURS[dtwww.effective_colour(v)]
    return _die(sides, colour, str(number) if shown else "", "d%d" % sides, band)


def _nokosu(v, shown):
    colour = nokosu_table.COLOURS[nokosu.colour(v)]
    if not nokosu.is_die(v):
        return _card(colour, str(nokosu.number(v)), "")
    number = nokosu.number(v)
    big = str(number) if shown and number and not nokosu.is_black(v) else ""
    return _die(6, colour, big, "die %d" % (nokosu.index(v) + 1))


def _walzer(v, shown):
    if walzer.is_x(v):
        return _card("grey", "X", "X%d" % (walzer.copy(v) + 1))
    colour = ("red", "blue", "green")[walzer.colour(v)]
    return _card(colour, str(walzer.number(v)), "")


def _dtt(v, shown):
    suit = dtt.suit(v)
    return _card(SUIT_PAINT[suit], dtt_table.FACES[dtt.face(v)], SUIT_MARKS[suit])


def _dicefull(v, shown):
    kind = dicefull_table.KINDS[dicefull.kind_of(v)]
    sides = int(kind[1:]) if kind[:1] == "d" and kind[1:].isdigit() else 6
    serial = dicefull.serial_of(v)
    small = "#%d" % (serial + 1) if serial else ""  # a second die of a kind
    if len(kind) > 3:  # 'd6 pips', 'doubling': the name small, under no number
        return _die(sides, "white", "", kind[:9] + (" " + small if small else ""))
    return _die(sides, "white", kind, small)


LOOKS = {
    "dicefull": _dicefull,
    "dtt": _dtt,
    "dtwww": _dtwww,
    "nokosu": _nokosu,
    "walzer": _walzer,
}


def _any_game(g, v):
    # A game this module does not know yet (a new one, tools/new_game.py):
    # a card with the number and colour the table shows it with while
    # provisioning, the LED's colour lifted to full brightness.
    number, rgb = games.item_view(g, v)
    top = max(max(rgb), 1)
    colour = "#%02x%02x%02x" % tuple(min(255, c * 255 // top) for c in rgb)
    return _card(colour, "" if number is None else str(number), "")


def look(g, v, shown=False):
    """Item value v of game g (numbered as in dicetable.games.GAMES) as a
    Look; `shown` adds the number a die was rolled to (a d10 shows 0)."""
    drawn = LOOKS.get(GAMES[g])
    return _any_game(g, v) if drawn is None else drawn(v, shown)


def _text(x, y, size, fill, words, weight="bold", anchor="middle"):
    return (
        '<text x="%s" y="%s" font-size="%d" font-weight="%s" fill="%s" text-anchor="%s" '
        'font-family="system-ui,sans-serif">%s</text>'
        % (x, y, size, weight, fill, anchor, escape(words))
    )


def _die_svg(lk):
    fill = PAINT.get(lk.colour, lk.colour)
    ink = INK.get(lk.colour, "#fff")
    edge = "#111" if lk.colour != "black" else "#777"
    outline = OUTLINES.get(lk.sides)
    paint = 'fill="%s" stroke="%s" stroke-width="4" stroke-linejoin="round"' % (fill, edge)
    if outline is None:
        parts = ['<rect x="6" y="6" width="88" height="88" rx="16" %s/>' % paint]
    else:
        parts = ['<polygon points="%s" %s/>' % (outline, paint)]
    if lk.band:
        parts.append(
            '<circle cx="50" cy="54" r="22" fill="none" stroke="%s" stroke-width="9"/>'
            % PAINT[lk.band]
        )
    big = 42 if len(lk.big) <= 2 else 26
    if lk.big:
        parts.append(_text(50, 66, big, ink, lk.big))
    if lk.small:
        small = 20 if len(lk.small) <= 5 else 14
        parts.append(_text(50, 88 if lk.sides != 4 else 84, small, ink, lk.small, "normal"))
    return parts


def _card_svg(lk):
    fill = PAINT.get(lk.colour, lk.colour)
    parts = [
        '<rect x="14" y="3" width="72" height="94" rx="9" fill="#fbfaf6" stroke="%s" '
        'stroke-width="5"/>' % fill,
        '<rect x="22" y="11" width="56" height="78" rx="5" fill="%s" opacity="0.18"/>' % fill,
    ]
    ink = fill if lk.colour not in ("yellow", "white") else "#7a6510"
    parts.append(_text(50, 62, 40 if len(lk.big) <= 2 else 30, ink, lk.big))
    if lk.small:
        parts.append(_text(50, 86, 20, ink, lk.small, "normal"))
    return parts


def svg(lk, size=SIZE, x=None, y=None):
    """A Look as an <svg> element `size` px square (at x, y when nested in a
    bigger picture)."""
    parts = _die_svg(lk) if lk.shape == "die" else _card_svg(lk)
    at = "" if x is None else ' x="%d" y="%d"' % (x, y)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="%d" height="%d"%s '
        'aria-hidden="true">%s</svg>' % (size, size, at, "".join(parts))
    )


@lru_cache(maxsize=4096)
def item_svg(g, v, shown=False):
    """Item value v of game g drawn (cached: the page asks for the same
    items at every change of the table)."""
    return svg(look(g, v, shown))


def group_of(g, ident):
    """The group a box's item is listed in: its colour or suit (Walzer's X
    cards theirs), or a Dicefull die's kind."""
    key = GAMES[g]
    if key not in LOOKS:
        return "items"
    lk = look(g, ident)
    if key == "dtt":
        return dtt_table.SUITS[dtt.suit(ident)]
    if key == "nokosu":
        return "%s %s" % (lk.colour, "dice" if lk.shape == "die" else "cards")
    if key == "dicefull":
        return "dice"
    if key == "walzer" and walzer.is_x(ident):
        return "X"
    return lk.colour


def box_svg(columns=18, size=40, gap=4):
    """Every game's box, a row of items per group, titled: docs/img/items.svg."""
    rows = []  # (title, [svg])
    for g in range(len(GAMES)):
        groups = {}
        for ident in games.all_items(g):
            groups.setdefault(group_of(g, ident), []).append(ident)
        rows.append(("%s: %d items" % (games.title(g), len(games.all_items(g))), None, g))
        for name, idents in groups.items():
            for start in range(0, len(idents), columns):
                rows.append((name if start == 0 else "", idents[start : start + columns], g))
    label = 110
    width = label + columns * (size + gap)
    out = []
    y = 8
    for row in rows:
        if row[1] is None:
            out.append(_text(8, y + 18, 16, "#222", row[0], "bold", "start"))
            y += 26
            continue
        name, idents, g = row
        out.append(_text(8, y + size // 2 + 5, 13, "#444", name, "normal", "start"))
        for i, ident in enumerate(idents):
            out.append(svg(look(g, ident), size, label + i * (size + gap), y))
        y += size + gap
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
        '<rect width="100%%" height="100%%" fill="#ffffff"/>' % (width, y + 8, width, y + 8)
    )
    return head + "".join(out) + "</svg>\n"
