"""The LED legend's entries of a match in play (sim/legend.py): what a seat
is asked for, numbers, results, and the centre ring."""

import types

from dicetable import games as registry
from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.games.dtwww import rules as dtwww_rules
from dicetable.match import actions as ac
from sim import gamehost
from sim.legend_entry import (
    MENU_SEAT,
    RING,
    RING_LEDS,
    SEAT_LEDS,
    chase,
    entry,
    fill,
    fill_last,
    number,
)

ASKED = "the seat asked"


def asked():
    e = "asked"
    p = fr.PROMPTS
    return [
        entry(
            "idle",
            e,
            "waiting",
            "This seat plays, but nothing is asked of it now.",
            "every seat in the match not waited on",
            SEAT_LEDS,
            fill(fr.IDLE),
        ),
        entry(
            "dark",
            e,
            "not playing",
            "A seat that is not in the match stays dark.",
            "a seat not in the match",
            SEAT_LEDS,
            fill(fr.OFF),
        ),
        entry(
            "prompt-deal",
            e,
            "scan your items for the deal",
            "Put each item dealt to you on your reader: the cyan bar grows with every "
            "scan, dim cyan is still to scan (here 3 of 6).",
            "each seat being dealt to",
            SEAT_LEDS,
            lambda buf, w: fr.progress(buf, 0, w, 3, 6, p[ac.DEAL], fr.DIM_CYAN),
        ),
        entry(
            "prompt-play",
            e,
            "your turn to play",
            "Put the item you play on your reader.",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.PLAY]),
        ),
        entry(
            "prompt-roll",
            e,
            "enter a roll",
            "Throw the die, step to its number with − / + and press OK: the value shows "
            "on the segment with an orange last LED (here 1, the lowest a die allows).",
            ASKED,
            SEAT_LEDS,
            number(1, p[ac.ROLL]),
        ),
        entry(
            "prompt-pass-item",
            e,
            "pass an item",
            "Put the item you pass to your neighbour on your reader (Walzer's pass).",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.PASS_ITEM]),
        ),
        entry(
            "prompt-keep",
            e,
            "keep a card",
            "Put the card you keep from your draft packet on your reader (d-TT).",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.KEEP]),
        ),
        entry(
            "prompt-bid",
            e,
            "enter your bid",
            "Step to your bid with − / + and press OK: the value shows with a magenta "
            "last LED (here 3).",
            ASKED,
            SEAT_LEDS,
            number(3, p[ac.BID]),
        ),
        entry(
            "prompt-pick",
            e,
            "take a die from the centre",
            "Put the die you take from the centre on your reader.",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.PICK]),
        ),
        entry(
            "prompt-pick-or-pass",
            e,
            "take a die, or pass",
            "Take a die from the centre, or press OK to pass and pick no more this "
            "round (Dicefull).",
            ASKED,
            SEAT_LEDS,
            fill_last(p[ac.PICK], p[ac.PASS]),
        ),
        entry(
            "prompt-pass",
            e,
            "pass",
            "Passing is all that is open to you: press OK.",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.PASS]),
        ),
        entry(
            "prompt-zero-bid",
            e,
            "take a die, or make a zero bid",
            "Put a centre die on your reader, then choose with − / + and OK: take it, "
            "or return it for a zero bid (Nokosu).",
            ASKED,
            SEAT_LEDS,
            fill(p[ac.ZERO_BID]),
        ),
        entry(
            "prompt-reveal",
            e,
            "turn up a card at the centre",
            "Put the face-up card on the centre reader: one bright white LED runs round "
            "the ring until it is scanned (d-TT).",
            RING,
            RING_LEDS,
            chase(p[ac.REVEAL]),
        ),
        entry(
            "prompt-choose",
            e,
            "choose",
            "Step to your choice with − / + and press OK: the value shows with a violet "
            "last LED (DTwww's roll-off die size: the die's sides, the last LED the "
            "size's colour).",
            ASKED,
            SEAT_LEDS,
            number(2, p[ac.CHOOSE]),
        ),
        entry(
            "white-die-colour",
            e,
            "the colour a white die counts as",
            "After a white die's scan (DTwww, registered hands) step with − / + to the "
            "colour it counts as and press OK: counted 1 red, 2 blue, 3 green, the last "
            "LED in that colour (here blue).",
            ASKED,
            SEAT_LEDS,
            white_die(dtwww_rules.BLUE),
        ),
    ]


def white_die(declared):
    """The draw of DTwww's own entry_view for a white d6 rolled to 4 and
    declared `declared` (a colour of its rules), with registered hands."""
    g = registry.number("dtwww")
    die = dtwww_rules.die(dtwww_rules.WHITE, dtwww_rules.D6, 4, 0)
    a = ac.action(ac.PLAY, 0, dtwww_rules.play(die, declared))
    n, marker = games.entry_view(g, types.SimpleNamespace(open=False), a)
    return number(n, marker)


def numbers():
    e = "numbers"
    roll = fr.PROMPTS[ac.ROLL]
    return [
        entry(
            "number-27",
            e,
            "a number: 27",
            "Blue LEDs are tens, a white LED five, green LEDs ones, from the first LED; "
            "the last LED says what the number is (orange: a roll).",
            "a seat (or the ring)",
            SEAT_LEDS,
            number(27, roll),
        ),
        entry(
            "number-7",
            e,
            "a number: 7",
            "A five and two ones.",
            "a seat (or the ring)",
            SEAT_LEDS,
            number(7, roll),
        ),
        entry(
            "number-0",
            e,
            "a number: 0",
            "Zero is the last LED alone.",
            "a seat (or the ring)",
            SEAT_LEDS,
            number(0, roll),
        ),
        entry(
            "number-negative",
            e,
            "a negative number: −3",
            "A pink last LED makes the number negative (a Dicefull face).",
            "a seat",
            SEAT_LEDS,
            number(-3, roll),
        ),
        entry(
            "number-binary",
            e,
            "a number in binary: 39",
            "A number needing more LEDs than the segment has shows in binary, violet, "
            "the first LED worth 1, the next 2, then 4...",
            "a seat (or the ring)",
            SEAT_LEDS,
            number(39, roll),
        ),
        entry(
            "number-too-big",
            e,
            "a number too large to show",
            "Every LED but the last violet: too large even in binary.",
            "a seat (or the ring)",
            SEAT_LEDS,
            number(1 << (SEAT_LEDS - 1), roll),
        ),
    ]


def _trick_both(buf, w):
    # render._trick: one seat both won and leads next, half each.
    fr.fill(buf, 0, w, fr.WINNER)
    fr.fill(buf, w // 2, w - w // 2, fr.LEADER)


def _place(place_no, players):
    return lambda buf, w: fr.place(buf, 0, w, place_no, players)


def results():
    e = "results"
    places = [
        (1, "1st place", "gold"),
        (2, "2nd place", "silver"),
        (3, "3rd place", "bronze"),
        (4, "4th place and below", "red"),
    ]
    out = [
        entry(
            "trick-winner",
            e,
            "won the trick",
            "The seat that won the trick shows red, steady, for 2 s (a refusal blinks).",
            "the seat that won the trick",
            SEAT_LEDS,
            fill(fr.WINNER),
        ),
        entry(
            "trick-leader",
            e,
            "leads next",
            "The seat that leads the next trick shows blue for 2 s.",
            "the seat that leads next",
            SEAT_LEDS,
            fill(fr.LEADER),
        ),
        entry(
            "trick-winner-leads",
            e,
            "won the trick and leads next",
            "One seat both won the trick and leads next: half red, half blue, for 2 s.",
            "the seat that won the trick",
            SEAT_LEDS,
            _trick_both,
        ),
        entry(
            "table-roll",
            e,
            "the table rolled for you",
            "With table rolls, the number the table rolled shows for 2 s with an orange "
            "last LED (here 4; a centre die's on the ring).",
            "the seat it rolled for",
            SEAT_LEDS,
            number(4, fr.PROMPTS[ac.ROLL]),
        ),
    ]
    for place_no, name, colour in places:
        out.append(
            entry(
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
        entry(
            "confirm-abandon",
            e,
            "abandon the match?",
            "After a long OK at the menu seat: OK abandons the match, any other button "
            "keeps playing.",
            MENU_SEAT,
            SEAT_LEDS,
            fill(fr.PINK),
        )
    )
    return out


def ring():
    e = "ring"
    p = fr.PROMPTS
    out = [
        entry(
            "centre-deal",
            e,
            "scan a die at the centre",
            "Put the centre die on the centre reader: a bright cyan LED runs round the "
            "ring until it is scanned (Nokosu).",
            RING,
            RING_LEDS,
            chase(p[ac.DEAL]),
        ),
        entry(
            "centre-entry",
            e,
            "a seat enters for the centre",
            "The start player throws the centre dice and enters each number at their "
            "seat; the ring runs orange meanwhile (Nokosu, players roll).",
            RING,
            RING_LEDS,
            chase(p[ac.ROLL]),
        ),
    ]
    out += ring_views()
    out.append(
        entry(
            "match-over",
            e,
            "the match is over",
            "The ring turns gold and every seat shows its final place; OK at any seat goes "
            "back to the menu.",
            RING,
            RING_LEDS,
            fill(fr.PLACES[0]),
        )
    )
    return out


def ring_colour(g):
    """The ring of game g with nothing else to show: the game's colour, dimmed."""
    return entry(
        "ring-colour",
        "ring",
        "the game's colour",
        "With nothing else to show, the ring glows in the game's colour, dimmed "
        "(here %s's)." % games.title(g),
        RING,
        RING_LEDS,
        fill(games.menu_colour(g), 3),
    )


def ring_draw(view):
    """How render._ring draws a game's ring_view: a colour dimmed, or a number."""
    return fill(view[1], 2) if view[0] is None else number(view[0], view[1])


def ring_views():
    """What the ring shows while the centre waits for nothing: the game's
    colour, dimmed, unless the game shows more there (each game's examples:
    its GameHost's ring_legend, drawn by its own ring_view as the table does)."""
    out = [ring_colour(0)]
    for key in registry.GAMES:
        g = registry.number(key)
        example = gamehost.host(key).ring_legend
        if example is None:
            continue
        state, name, meaning = example
        view = games.ring_view(g, types.SimpleNamespace(**state))
        out.append(entry("ring-" + key, "ring", name, meaning, RING, RING_LEDS, ring_draw(view)))
    return out
