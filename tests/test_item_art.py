"""The items drawn (sim/item_art.py): every item of every game is well-formed
SVG, a die drawn as a die with its size, colour and rolled number, a white
die with its declared colour, a card as a card; docs/img/items.svg shows
every game's whole box (its staleness: tests/test_legend.py)."""

import xml.etree.ElementTree as ET

from dicetable.app import games
from dicetable.games import GAMES
from dicetable.games.dtwww import rules as dtwww
from dicetable.games.nokosu import rules as nokosu
from sim import item_art

SVG = "{http://www.w3.org/2000/svg}"


def words(markup):
    return [t.text for t in ET.fromstring(markup).iter(SVG + "text")]


def test_every_item_of_every_game_is_drawn():
    for g in range(len(GAMES)):
        for ident in games.all_items(g):
            root = ET.fromstring(item_art.item_svg(g, ident))
            assert root.tag == SVG + "svg" and root.get("viewBox") == "0 0 100 100"
            lk = item_art.look(g, ident)
            assert lk.shape in ("die", "card") and lk.colour in item_art.PAINT, (GAMES[g], lk)
            assert item_art.group_of(g, ident)


def test_a_die_shows_its_size_colour_and_number_once_rolled():
    g = GAMES.index("dtwww")
    die = dtwww.die(dtwww.GREEN, 2, 0, 0)  # a green d8
    assert item_art.look(g, die) == item_art.Look("die", 8, "green", "", "d8", None)
    rolled = dtwww.rolled(die, 7)
    assert words(item_art.item_svg(g, rolled, True)) == ["7", "d8"]
    assert 'points="%s"' % item_art.OUTLINES[8] in item_art.item_svg(g, rolled, True)
    # A d10 rolled to 0 shows it; the same die in the box shows no number.
    d10 = dtwww.die(dtwww.RED, 3, 0, 0)
    assert words(item_art.item_svg(g, d10, True)) == ["0", "d10"]
    assert words(item_art.item_svg(g, d10)) == ["d10"]


def test_a_white_die_shows_its_declared_colour():
    g = GAMES.index("dtwww")
    white = dtwww.rolled(dtwww.die(dtwww.WHITE, 1, 0, 0), 4)
    declared = dtwww.play(white, dtwww.BLUE)
    lk = item_art.look(g, declared, True)
    assert (lk.colour, lk.band, lk.big) == ("white", "blue", "4")
    assert item_art.PAINT["blue"] in item_art.item_svg(g, declared, True)


def test_a_card_shows_its_suit_and_rank():
    g = GAMES.index("dtt")
    marks = {item_art.look(g, v).small for v in games.all_items(g)}
    assert marks == set(item_art.SUIT_MARKS)
    g = GAMES.index("nokosu")
    card = nokosu.card(nokosu.YELLOW, 5)
    assert item_art.look(g, card) == item_art.Look("card", 0, "yellow", "5", "", None)


def test_the_docs_picture_holds_every_box():
    svg = item_art.box_svg()
    root = ET.fromstring(svg)
    drawn = len([e for e in root.iter(SVG + "svg")]) - 1  # the items, in the picture's own
    assert drawn == sum(len(games.all_items(g)) for g in range(len(GAMES)))
    for g in range(len(GAMES)):
        assert "%s: %d items" % (games.title(g), len(games.all_items(g))) in svg


def test_a_game_it_does_not_know_is_drawn_from_its_table_view(monkeypatch):
    # A new game (tools/new_game.py) is on the page at once: cards with the
    # number and colour its table.py's item_view gives, in one group.
    g = GAMES.index("walzer")
    monkeypatch.delitem(item_art.LOOKS, "walzer")
    for ident in games.all_items(g):
        lk = item_art.look(g, ident)
        number, _ = games.item_view(g, ident)
        assert (lk.shape, lk.big) == ("card", str(number))
        assert lk.colour.startswith("#") and item_art.group_of(g, ident) == "items"
        ET.fromstring(item_art.svg(lk))
