"""The LED legend: every pattern the table draws, what it means, where it shows.

entries() is the one list the pictures (tools/pictures.py writes
docs/img/led-legend.svg) and the simulator's web page read.  Every entry's
LEDs are drawn by the firmware's own pattern code (dicetable/app/frames.py:
fill, number, refusal, progress, place, sectors, chase, PROMPTS...) into a
bytearray and read back through frames.ORDER, never typed in here, so the
legend cannot drift from what the board shows.  The words say when each
pattern shows, as dicetable/app/render.py (and menu.py, provision.py) decide.

An entry is a dict (plain lists and strings: JSON as it is):

    key      short id, unique: "prompt-play", "refusal-5", "menu-dtwww"...
    group    the section it belongs to (GROUPS gives the titles, in order)
    name     a few words: "your turn to play"
    meaning  one sentence a player understands
    where    which LEDs show it: "the seat asked", "the centre ring"...
    leds     [[r, g, b], ...]: one frame of the segment (a seat's LEDs, or the ring's)
    blink    the other frame of a blinking pattern, or None
"""

import types

import table_config

from dicetable import games as registry
from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.menu import FIELD_COLOURS, FIELD_NAMES
from dicetable.app.refusals import STORAGE_ERROR, UNKNOWN_TAG, refusal_name
from dicetable.match import actions as ac

SEAT_LEDS = table_config.LEDS_PER_SEAT
RING_LEDS = table_config.RING_LEDS
BLINK_MS = fr.BLINK_MS  # a blinking pattern's half-period: `leds`, then `blink`
CHASE_MS = fr.CHASE_MS  # a chase's step: its bright LED moves on one

GROUPS = (
    ("asked", "What a seat is asked for"),
    ("numbers", "Numbers"),
    ("results", "Results"),
    ("refusals", "Refusals (the error pattern)"),
    ("codes", "Every refusal code"),
    ("ring", "The centre ring"),
    ("menu", "Power-up, the menu and provisioning"),
)

ASKED = "the seat asked"
RING = "the centre ring"
MENU_SEAT = "the menu seat"
REFUSED_AT = "the seat where it happened (the ring for the centre reader)"


def read(buf, width):
    """The (r, g, b) of each of `width` LEDs of a frame, read through frames.ORDER."""
    r, g, b = fr.ORDER
    return [[buf[3 * i + r], buf[3 * i + g], buf[3 * i + b]] for i in range(width)]


def frame(width, draw):
    """The LEDs `draw(buf, width)` lights on a segment of `width` LEDs (a fresh, dark buffer)."""
    buf = bytearray(3 * width)
    draw(buf, width)
    return read(buf, width)


def _entry(key, group, name, meaning, where, width, draw, blink=None):
    return {
        "key": key,
        "group": group,
        "name": name,
        "meaning": meaning,
        "where": where,
        "leds": frame(width, draw),
        "blink": None if blink is None else frame(width, blink),
    }


def _fill(colour, shift=0):
    return lambda buf, w: fr.fill(buf, 0, w, colour, shift)


def _number(n, marker):
    return lambda buf, w: fr.number(buf, 0, w, n, marker)


def _fill_last(colour, last):
    # A fill with its last LED another colour (a pick that may pass, a reader fault).
    def draw(buf, w):
        fr.fill(buf, 0, w, colour)
        fr.put(buf, w - 1, last)

    return draw


def _chase(colour):
    return lambda buf, w: fr.chase(buf, 0, w, 0, colour)


def _asked():
    e = "asked"
    p = fr.PROMPTS
    return [
        _entry(
            "idle",
            e,
            "waiting",
            "This seat plays, but nothing is asked of it now.",
            "every seat in the match not waited on",
            SEAT_LEDS,
            _fill(fr.IDLE),
        ),
        _entry(
            "dark",
            e,
            "not playing",
            "A seat that is not in the match stays dark.",
            "a seat not in the match",
            SEAT_LEDS,
            _fill(fr.OFF),
        ),
        _entry(
            "prompt-deal",
            e,
            "scan your items for the deal",
            "Put each item dealt to you on your reader: the cyan bar grows with every "
            "scan, dim cyan is still to scan (here 3 of 6).",
            "each seat being dealt to",
            SEAT_LEDS,
            lambda buf, w: fr.progress(buf, 0, w, 3, 6, p[ac.DEAL], fr.DIM_CYAN),
        ),
        _entry(
            "prompt-play",
            e,
            "your turn to play",
            "Put the item you play on your reader.",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.PLAY]),
        ),
        _entry(
            "prompt-roll",
            e,
            "enter a roll",
            "Throw the die, step to its number with − / + and press OK: the value shows "
            "on the segment with an orange last LED (here 1, the lowest a die allows).",
            ASKED,
            SEAT_LEDS,
            _number(1, p[ac.ROLL]),
        ),
        _entry(
            "prompt-pass-item",
            e,
            "pass an item",
            "Put the item you pass to your neighbour on your reader (Walzer's pass).",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.PASS_ITEM]),
        ),
        _entry(
            "prompt-keep",
            e,
            "keep a card",
            "Put the card you keep from your draft packet on your reader (d-TT).",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.KEEP]),
        ),
        _entry(
            "prompt-bid",
            e,
            "enter your bid",
            "Step to your bid with − / + and press OK: the value shows with a magenta "
            "last LED (here 3).",
            ASKED,
            SEAT_LEDS,
            _number(3, p[ac.BID]),
        ),
        _entry(
            "prompt-pick",
            e,
            "take a die from the centre",
            "Put the die you take from the centre on your reader.",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.PICK]),
        ),
        _entry(
            "prompt-pick-or-pass",
            e,
            "take a die, or pass",
            "Take a die from the centre, or press OK to pass and pick no more this "
            "round (Dicefull).",
            ASKED,
            SEAT_LEDS,
            _fill_last(p[ac.PICK], p[ac.PASS]),
        ),
        _entry(
            "prompt-pass",
            e,
            "pass",
            "Passing is all that is open to you: press OK.",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.PASS]),
        ),
        _entry(
            "prompt-zero-bid",
            e,
            "take a die, or make a zero bid",
            "Put a centre die on your reader, then choose with − / + and OK: take it, "
            "or return it for a zero bid (Nokosu).",
            ASKED,
            SEAT_LEDS,
            _fill(p[ac.ZERO_BID]),
        ),
        _entry(
            "prompt-reveal",
            e,
            "turn up a card at the centre",
            "Put the face-up card on the centre reader: one bright white LED runs round "
            "the ring until it is scanned (d-TT).",
            RING,
            RING_LEDS,
            _chase(p[ac.REVEAL]),
        ),
        _entry(
            "prompt-choose",
            e,
            "choose",
            "Step to your choice with − / + and press OK: the value shows with a violet "
            "last LED (DTwww's roll-off die size: the die's sides, the last LED the "
            "size's colour).",
            ASKED,
            SEAT_LEDS,
            _number(2, p[ac.CHOOSE]),
        ),
    ]


def _numbers():
    e = "numbers"
    roll = fr.PROMPTS[ac.ROLL]
    return [
        _entry(
            "number-27",
            e,
            "a number: 27",
            "Blue LEDs are tens, a white LED five, green LEDs ones, from the first LED; "
            "the last LED says what the number is (orange: a roll).",
            "a seat (or the ring)",
            SEAT_LEDS,
            _number(27, roll),
        ),
        _entry(
            "number-7",
            e,
            "a number: 7",
            "A five and two ones.",
            "a seat (or the ring)",
            SEAT_LEDS,
            _number(7, roll),
        ),
        _entry(
            "number-0",
            e,
            "a number: 0",
            "Zero is the last LED alone.",
            "a seat (or the ring)",
            SEAT_LEDS,
            _number(0, roll),
        ),
        _entry(
            "number-negative",
            e,
            "a negative number: −3",
            "A pink last LED makes the number negative (a Dicefull face).",
            "a seat",
            SEAT_LEDS,
            _number(-3, roll),
        ),
        _entry(
            "number-binary",
            e,
            "a number in binary: 39",
            "A number needing more LEDs than the segment has shows in binary, violet, "
            "the first LED worth 1, the next 2, then 4...",
            "a seat (or the ring)",
            SEAT_LEDS,
            _number(39, roll),
        ),
        _entry(
            "number-too-big",
            e,
            "a number too large to show",
            "Every LED but the last violet: too large even in binary.",
            "a seat (or the ring)",
            SEAT_LEDS,
            _number(1 << (SEAT_LEDS - 1), roll),
        ),
    ]


def _trick_both(buf, w):
    # render._trick: one seat both won and leads next, half each.
    fr.fill(buf, 0, w, fr.WINNER)
    fr.fill(buf, w // 2, w - w // 2, fr.LEADER)


def _place(place_no, players):
    return lambda buf, w: fr.place(buf, 0, w, place_no, players)


def _results():
    e = "results"
    places = [
        (1, "1st place", "gold"),
        (2, "2nd place", "silver"),
        (3, "3rd place", "bronze"),
        (4, "4th place and below", "red"),
    ]
    out = [
        _entry(
            "trick-winner",
            e,
            "won the trick",
            "The seat that won the trick shows green for 2 s.",
            "the seat that won the trick",
            SEAT_LEDS,
            _fill(fr.WINNER),
        ),
        _entry(
            "trick-leader",
            e,
            "leads next",
            "The seat that leads the next trick shows blue for 2 s.",
            "the seat that leads next",
            SEAT_LEDS,
            _fill(fr.LEADER),
        ),
        _entry(
            "trick-winner-leads",
            e,
            "won the trick and leads next",
            "One seat both won the trick and leads next: half green, half blue, for 2 s.",
            "the seat that won the trick",
            SEAT_LEDS,
            _trick_both,
        ),
        _entry(
            "table-roll",
            e,
            "the table rolled for you",
            "With table rolls, the number the table rolled shows for 2 s with an orange "
            "last LED (here 4; a centre die's on the ring).",
            "the seat it rolled for",
            SEAT_LEDS,
            _number(4, fr.PROMPTS[ac.ROLL]),
        ),
    ]
    for place_no, name, colour in places:
        out.append(
            _entry(
                "place-%d" % place_no,
                e,
                name,
                "A seat's place when a game, round or deal is scored (for 8 s, or until a "
                "button) and at the match's end: a %s bar, longer the better the place "
                "(here of 4 players)." % colour,
                "every seat that plays",
                SEAT_LEDS,
                _place(place_no, 4),
            )
        )
    out.append(
        _entry(
            "confirm-abandon",
            e,
            "abandon the match?",
            "After a long OK at the menu seat: OK abandons the match, any other button "
            "keeps playing.",
            MENU_SEAT,
            SEAT_LEDS,
            _fill(fr.PINK),
        )
    )
    return out


def _refusal(code, lit=True):
    return lambda buf, w: fr.refusal(buf, 0, w, code, lit)


# Each refusal code in a player's words (docs/table.md, "Refusals").
WHY = {
    ac.OUT_OF_TURN: "Nothing is asked of this seat now.",
    ac.WRONG_PHASE: "The seat is asked for something else (e.g. OK when a scan is awaited).",
    ac.UNKNOWN_ITEM: "The item is not one of this match's.",
    ac.NOT_IN_HAND: "The item is not in your hand (or not yours to pass, keep or take).",
    ac.ILLEGAL_PLAY: "A rule forbids it (follow, keep a die, pick limit, pass before picking...).",
    ac.OUT_OF_RANGE: "− below the lowest or + above the highest value allowed.",
    ac.ALREADY_PLACED: "The item is already dealt, played or taken (or you just put it down).",
    ac.MATCH_OVER: "The match is over.",
    ac.NOTHING_TO_UNDO: "There is nothing to undo.",
    ac.MALFORMED: "Never at a seat: only a damaged journal's record, named in the log at power-up.",
    UNKNOWN_TAG: "The tag is not registered (see provisioning).",
    UNKNOWN_TAG + 1: "The tag is registered for a different game.",
    UNKNOWN_TAG + 2: "Two tags are on the reader at once.",
    UNKNOWN_TAG + 3: "The reader stopped answering (its last LED then stays red until it "
    "answers again).",
    STORAGE_ERROR: "The action could not be written, so it was not taken.",
}


def refusal_codes():
    """Every refusal code the table can show: the engine's (1 up), then the table's own."""
    return list(range(1, len(ac.REFUSAL_NAMES))) + list(range(UNKNOWN_TAG, STORAGE_ERROR + 1))


def _refusals():
    e = "refusals"
    return [
        _entry(
            "refusal-engine",
            e,
            "refused by the match",
            "The match refused what you did and nothing changed: red LEDs count why "
            "(here 5, illegal play), blinking for 2 s.",
            REFUSED_AT,
            SEAT_LEDS,
            _refusal(ac.ILLEGAL_PLAY),
            _refusal(ac.ILLEGAL_PLAY, False),
        ),
        _entry(
            "refusal-table",
            e,
            "refused by the table",
            "The table could not use the tag at all: purple LEDs count why (here 1, "
            "unknown tag), blinking for 2 s.",
            REFUSED_AT,
            SEAT_LEDS,
            _refusal(UNKNOWN_TAG),
            _refusal(UNKNOWN_TAG, False),
        ),
        _entry(
            "reader-fault",
            e,
            "reader not answering",
            "The seat's last LED stays red, over whatever the seat shows, until its "
            "reader answers again.",
            "the seat whose reader failed (or the ring)",
            SEAT_LEDS,
            _fill_last(fr.IDLE, fr.ERROR),
        ),
    ]


def _codes():
    out = []
    for code in refusal_codes():
        table = code >= fr.APP_CODES
        count = code - fr.APP_CODES if table else code
        why = WHY.get(code, refusal_name(code))
        if count > SEAT_LEDS:
            why += " (Shown as a number: more than the segment's %d LEDs.)" % SEAT_LEDS
        out.append(
            _entry(
                "refusal-%d" % code,
                "codes",
                "%d %s: %s" % (count, "purple" if table else "red", refusal_name(code)),
                why,
                REFUSED_AT,
                SEAT_LEDS,
                _refusal(code),
                _refusal(code, False),
            )
        )
    return out


def _ring():
    e = "ring"
    p = fr.PROMPTS
    out = [
        _entry(
            "centre-deal",
            e,
            "scan a die at the centre",
            "Put the centre die on the centre reader: a bright cyan LED runs round the "
            "ring until it is scanned (Nokosu).",
            RING,
            RING_LEDS,
            _chase(p[ac.DEAL]),
        ),
        _entry(
            "centre-entry",
            e,
            "a seat enters for the centre",
            "The start player throws the centre dice and enters each number at their "
            "seat; the ring runs orange meanwhile (Nokosu, players roll).",
            RING,
            RING_LEDS,
            _chase(p[ac.ROLL]),
        ),
    ]
    out += [_ring_view(*view) for view in RING_VIEWS]
    out.append(
        _entry(
            "match-over",
            e,
            "the match is over",
            "The ring turns gold and every seat shows its final place; OK at any seat goes "
            "back to the menu.",
            RING,
            RING_LEDS,
            _fill(fr.PLACES[0]),
        )
    )
    return out


# What the ring shows while the centre waits for nothing: each game's own
# ring_view() of a match in the state given (only the fields it reads).
RING_VIEWS = (
    (
        "dtwww",
        {},
        "the game's colour",
        "With nothing else to show, the ring glows in the game's colour, dimmed (here DTwww's).",
    ),
    (
        "dtt",
        {"faceup_n": 4, "trump": 0},
        "the trump suit",
        "d-TT, once the four cards are up: the ring glows in the trump suit's colour "
        "(here spades; grey: no trump).",
    ),
    (
        "dicefull",
        {"challenge": 6},
        "the challenge",
        "Dicefull: the challenge card's number, the last LED white (here 7).",
    ),
    (
        "nokosu",
        {"trump_number": 3, "trump_colour": 0},
        "the trump",
        "Nokosu: the trump number in the trump's colour (here red 3).",
    ),
)


def _ring_view(key, state, name, meaning):
    # render._ring: the game's ring view of a match in `state`, drawn as the table draws it.
    g = registry.number(key)
    view = games.ring_view(g, types.SimpleNamespace(**state))
    if view is None:
        draw = _fill(games.menu_colour(g), 3)
    elif view[0] is None:
        draw = _fill(view[1], 2)
    else:
        draw = _number(view[0], view[1])
    return _entry("ring-" + key, "ring", name, meaning, RING, RING_LEDS, draw)


def _sectors(chosen):
    n = games.count() + 1  # the games, then provisioning
    return lambda buf, w: fr.sectors(buf, 0, w, n, chosen, games.menu_colour)


# What the menu seat's number means on each field (menu.py's fields), and the
# value shown as an example.
FIELD_WORDS = {
    "game": ("the chosen game's number, the last LED in its colour (here 1, DTwww)", 1),
    "seats": ("how many seats play (other seats join or leave with OK)", 3),
    "hands": ("1 registered hands, 2 open play; the last LED cyan", 1),
    "rolls": ("1 the players roll, 2 the table rolls; the last LED orange", 2),
    "variant": ("1 standard, 2 the game's variant; the last LED magenta", 1),
    "length": ("the match's length, 0 for the game's default; the last LED yellow", 0),
}


def _starting(seat_leds, ring_leds):
    # frames.starting() on a table of one seat: its segment, or (no seat
    # LEDs) the ring alone.
    config = types.SimpleNamespace(seats=(0,), LEDS_PER_SEAT=seat_leds, RING_LEDS=ring_leds)
    return lambda buf, w: fr.starting(buf, config)


def _menu():
    e = "menu"
    power_up = (
        "From power-up until the menu or the resumed match shows: "
        "the table is reading its code, its tags and its journal."
    )
    out = [
        _entry(
            "starting-ring",
            e,
            "starting",
            power_up + " The ring glows dim white.",
            RING,
            RING_LEDS,
            _starting(0, RING_LEDS),
        ),
        _entry(
            "starting-seat",
            e,
            "starting",
            power_up + " Each seat's first LED glows dim white.",
            "every seat",
            SEAT_LEDS,
            _starting(SEAT_LEDS, 0),
        ),
    ]
    for g in range(games.count() + 1):
        provision = g == games.count()
        title = "provision tags" if provision else games.title(g)
        out.append(
            _entry(
                "menu-provision" if provision else "menu-" + games.GAMES[g],
                e,
                "menu: %s chosen" % title,
                "The menu's ring has a sector per game and one for provisioning; the "
                "chosen one is bright (here %s)." % title,
                RING,
                RING_LEDS,
                _sectors(g),
            )
        )
    out.append(
        _entry(
            "provision-wait",
            e,
            "provisioning: put a tag on",
            "Provisioning waits for a tag on any reader: one bright white LED runs round the ring.",
            RING,
            RING_LEDS,
            _chase(fr.WHITE),
        )
    )
    out.append(
        _entry(
            "menu-joined",
            e,
            "joined",
            "On the menu, a seat that has joined the match glows dim white.",
            "each seat that joined",
            SEAT_LEDS,
            _fill(fr.GREY),
        )
    )
    for f, field in enumerate(FIELD_NAMES):
        words, value = FIELD_WORDS[field]
        marker = games.menu_colour(value - 1) if f == 0 else FIELD_COLOURS[f]
        out.append(
            _entry(
                "menu-field-" + field,
                e,
                "menu: the %s field" % field,
                "The menu seat shows %s." % words,
                MENU_SEAT,
                SEAT_LEDS,
                _number(value, marker),
            )
        )
    return out


def css(rgb):
    """An LED colour for a screen, "#rrggbb": each channel v (0-255, the table's
    colours stay at 64 and below) as 255 * (v / 64) ** 0.6, so that a dim LED
    (an idle seat's 3) stays visible and still darker than a bright one."""
    return "#" + "".join("%02x" % min(255, round(255 * (v / 64) ** 0.6)) for v in rgb)


def entries():
    """Every pattern of the LED language, in GROUPS order (see the module's docstring)."""
    return _asked() + _numbers() + _results() + _refusals() + _codes() + _ring() + _menu()


def groups():
    """[(group, title)] in the order entries() gives them."""
    return list(GROUPS)
