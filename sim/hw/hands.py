"""The players' hands: a match action made with tags and buttons, as a person
at the table would make it.  Used by the bots that fill seats in the
interactive simulator and by the tests that play whole matches through the
table app.

`surface` is anything with scan(reader, uid) and press(seat, code): the app
itself (tests of the app) or a VirtualTable (the whole board on virtual
hardware).
"""

from dicetable.app import games
from dicetable.app.events import CENTRE, MINUS, OK, PLUS
from dicetable.match.actions import PASS, TABLE, kind_of, seat_of, value_of


def uid_for(game, item):
    """The UID the test tags and the simulator's bag of items carry."""
    return bytes([0x04, game, item >> 8, item & 0xFF])


def full_registry():
    """Registry entries for a tag on every item of every game."""
    return [
        (uid_for(g, item), g, item) for g in range(games.count()) for item in games.all_items(g)
    ]


def player_actions(table):
    """Every action the players (and the centre) may make now, as the app offers them."""
    ins = table.inputs
    out = []
    for acts in ins.seats:
        out.extend(acts)
    return out + ins.centre


def make(surface, table, a):
    """Make action `a`: scan its item at the right reader, or enter its value
    with −, + and OK at the seat that enters it."""
    g = table.game
    k, s, v = kind_of(a), seat_of(a), value_of(a)
    if games.is_item_kind(g, k):
        reader = CENTRE if s == TABLE else table.phys[s]
        surface.scan(reader, uid_for(g, games.identity(g, v)))
        if reader != CENTRE:
            e = table.entries[table.player[reader]]
            if e is not None and e.choice:
                choose(surface, table, table.player[reader], a)
    elif k == PASS:
        surface.press(table.phys[s], OK)
    else:
        choose(surface, table, s if s != TABLE else games.table_entry_seat(g, table.match), a)


def choose(surface, table, player, a):
    """Step the player's open entry to `a` with − and +, then OK."""
    e = table.entries[player]
    seat = table.phys[player]
    target = e.candidates.index(a)
    while e.index < target:
        surface.press(seat, PLUS)
    while e.index > target:
        surface.press(seat, MINUS)
    surface.press(seat, OK)


def choose_in_menu(surface, table, game, seats, presses=None):
    """The start-up menu, chosen with the buttons as a person would: the game
    with + at the menu's seat, OK at every other seat that plays (the menu's
    seat leaves with − if it does not), then each option field stepped up
    presses[field] times (default: left as it is) and confirmed with OK."""
    lead = table.lead
    for _ in range(game):
        surface.press(lead, PLUS)
    surface.press(lead, OK)
    for s in seats:
        if s != lead:
            surface.press(s, OK)
    if lead not in seats:
        surface.press(lead, MINUS)
    surface.press(lead, OK)
    while table.mode == "menu":
        for _ in range((presses or {}).get(table.menu.field, 0)):
            surface.press(lead, PLUS)
        surface.press(lead, OK)
