"""The LED legend's power-up, menu and provisioning entries (sim/legend.py)."""

import types

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.menu import FIELD_COLOURS, FIELD_NAMES
from sim.legend_entry import MENU_SEAT, RING, RING_LEDS, SEAT_LEDS, chase, entry, fill, number


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


def menu():
    e = "menu"
    power_up = (
        "From power-up until the menu or the resumed match shows: "
        "the table is reading its code, its tags and its journal."
    )
    out = [
        entry(
            "starting-ring",
            e,
            "starting",
            power_up + " The ring glows dim white.",
            RING,
            RING_LEDS,
            _starting(0, RING_LEDS),
        ),
        entry(
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
            entry(
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
        entry(
            "provision-wait",
            e,
            "provisioning: put a tag on",
            "Provisioning waits for a tag on any reader: one bright white LED runs round the ring.",
            RING,
            RING_LEDS,
            chase(fr.WHITE),
        )
    )
    out.append(
        entry(
            "menu-joined",
            e,
            "joined",
            "On the menu, a seat that has joined the match glows dim white.",
            "each seat that joined",
            SEAT_LEDS,
            fill(fr.GREY),
        )
    )
    for f, field in enumerate(FIELD_NAMES):
        words, value = FIELD_WORDS[field]
        marker = games.menu_colour(value - 1) if f == 0 else FIELD_COLOURS[f]
        out.append(
            entry(
                "menu-field-" + field,
                e,
                "menu: the %s field" % field,
                "The menu seat shows %s." % words,
                MENU_SEAT,
                SEAT_LEDS,
                number(value, marker),
            )
        )
    return out
