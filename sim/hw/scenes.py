"""What people do at the table, as worlds for a VirtualPico (sim/hw/vpico.py):
the players' tags and buttons, the maker's flash, in virtual time.

    Hands(pico)                 the surface sim/hw/hands.py makes actions on:
                                a tag put down and taken away, a press
    until(pico, test)           wait until test() holds
    logged(pico, text)          wait until a log line holds `text`
    write_flash(pico, ...)      the registry and a journal on the flash, written
                                with the firmware's own hal.storage, as the
                                table would have left them
    AppHands(table)             the same for the table app alone, no hardware
    choose(surface, game, n)    a match chosen in the menu with the buttons
    to_the_end(surface)         a match played to its end by random players:
                                every action one the table offers, an undo and
                                a refusal now and then
    matches(surface, [(g, n)])  matches from the menu, one after the other
    provision(surface)          the maker's provisioning, from the menu
    metered(world, ...)         a VirtualPico's power-up run by `world`, its C
                                stack metered (sim/cstack.py)
    SCENES, scene(name)         the table's days the C stack is held to:
                                (StackMeter, VirtualPico) of one
"""

import importlib
import random

from dicetable.games import GAMES
from sim.hw import hands

SETTLE_MS = 150  # a tag lies on a reader this long, and is away this long after
TAP_MS = 40  # a short press (over the 20 ms debounce)
HOLD_MS = 800  # a long press (over the 600 ms threshold)
LONG = 4  # dicetable.app.events.LONG


class Hands:
    """Tags and buttons at a VirtualPico's table, for sim/hw/hands.py."""

    def __init__(self, pico):
        self.pico = pico

    @property
    def table(self):
        return self.pico.table

    def wait(self, ms):
        self.pico.wait(ms)

    def scan(self, reader, uid):
        self.pico.place(reader, uid)
        self.pico.wait(SETTLE_MS)
        self.pico.remove(reader)
        self.pico.wait(SETTLE_MS)

    def press(self, seat, code):
        self.pico.press(seat, code & 3, HOLD_MS if code & LONG else TAP_MS)


class AppHands:
    """The same for the table app alone, no hardware: a tag's events and a
    press go straight to it, and time passes by its tick()."""

    def __init__(self, table):
        self.table = table
        self.now = 0

    def wait(self, ms):
        self.now += ms
        self.table.tick(self.now)

    def scan(self, reader, uid):
        self.table.reader_event(1, reader, uid)  # events.TAG_PLACED
        self.wait(SETTLE_MS)
        self.table.reader_event(2, reader, None)  # events.TAG_REMOVED
        self.wait(SETTLE_MS)

    def press(self, seat, code):
        self.table.button(seat, code)
        self.wait(TAP_MS + 60)


def until(pico, test, step_ms=10, limit_ms=30_000):
    """Wait until test() holds; AssertionError after limit_ms."""
    waited = 0
    while not test():
        if waited >= limit_ms:
            raise AssertionError("still waiting after %d ms" % limit_ms)
        pico.wait(step_ms)
        waited += step_ms


def logged(pico, text, limit_ms=30_000):
    """Wait until a log line holds `text`: that line."""
    found = []

    def seen():
        for line in pico.lines():
            if text in line:
                found.append(line)
                return True
        return False

    until(pico, seen, limit_ms=limit_ms)
    return found[0]


def write_flash(pico, registry=(), header=None, words=(), actions=()):
    """The registry's entries ((uid, game, item) each) and a match's journal on
    the flash, by the firmware's own storage."""
    with pico.firmware_modules():
        storage = importlib.import_module("hal.storage").Storage(pico.flash)
        pack = importlib.import_module("dicetable.app.registry").pack
        storage.prepare()
        if registry:
            storage.save_registry(pack(registry))
        if header is not None:
            storage.new_match(bytes(header), list(words))
            for a in actions:
                storage.append(a)


def choose(surface, game, players):
    """A match chosen in the menu with the buttons, whatever the menu kept of
    the last one: the game stepped to with +, the first `players` seats
    joined (OK at another seat toggles it; + and - on the seats field the
    menu seat's own), every option left as it is."""
    t = surface.table
    lead = t.lead
    seats = t.seats[:players]
    while t.menu.game != game:
        surface.press(lead, 1)  # PLUS
    surface.press(lead, 2)  # OK: the seats
    for s in t.seats:
        if s != lead and (s in t.menu.joined) != (s in seats):
            surface.press(s, 2)
    if (lead in t.menu.joined) != (lead in seats):
        surface.press(lead, 1 if lead in seats else 0)
    while t.mode == "menu":
        surface.press(lead, 2)


def refuse(surface, rng):
    """Something the table refuses, as players do: a tag out of turn, a tag it
    does not know, a tag of another game, two tags at once, a button of a
    seat with nothing to do."""
    t = surface.table
    idle = [s for s in t.phys if not t.inputs.item_kind(t.player[s])]
    what = rng.randrange(4)
    if what == 0 and idle:
        g = t.game
        item = rng.choice(list(_items(g)))
        surface.scan(rng.choice(idle), hands.uid_for(g, item))
    elif what == 1:
        surface.scan(rng.choice(t.phys), bytes([0x04, 0xEE, rng.randrange(256), 0x01]))
    elif what == 2:
        other = (t.game + 1) % 5
        surface.scan(rng.choice(t.phys), hands.uid_for(other, next(iter(_items(other)))))
    elif idle:
        surface.press(rng.choice(idle), 1)


def _items(g):
    from dicetable.app import games

    return games.all_items(g)


def to_the_end(surface, seed=1, undo_every=9, refuse_every=7, limit=5000):
    """The match in play to its end: every move an action the table offers,
    chosen at random, made with tags and buttons; an undo every `undo_every`
    moves, a refusal every `refuse_every`; the standings put away with OK."""
    rng = random.Random(seed)
    for k in range(1, limit):
        t = surface.table
        if t.mode == "over":
            surface.press(t.lead, 2)
            return
        if t.mode != "play":
            return
        if k % refuse_every == 0:
            refuse(surface, rng)
        elif k % undo_every == 0 and t.match.journal:
            surface.press(t.lead, 0 | LONG)
        elif t.score_show is not None:
            surface.press(t.lead, 2)
        else:
            acts = hands.player_actions(t)
            if acts:
                hands.make(surface, t, acts[rng.randrange(len(acts))])
            else:
                surface.wait(500)
    raise AssertionError("the match did not end in %d moves" % limit)


def provision(surface, reader=1):
    """Provisioning from the menu, as a maker does it: a tag already
    registered put down and registered again as its own item, then a new
    tag, for which no item is free on a fully tagged table (refused); a long
    OK leaves for the menu."""
    t = surface.table
    surface.press(t.lead, 0)  # the game field wraps round to provisioning
    surface.press(t.lead, 2)
    assert t.mode == "provision", t.mode
    g = 0
    item = next(iter(_items(g)))
    surface.scan(reader, hands.uid_for(g, item))
    surface.press(t.lead, 2)  # its game
    surface.press(t.lead, 2)  # its item: saved
    surface.scan(reader, bytes([0x04, 0xEE, 0x51, 0x01]))
    surface.press(t.lead, 2)  # a game with every item tagged: refused
    surface.press(t.lead, 2 | LONG)
    assert t.mode == "menu", t.mode


def matches(surface, games_players, seed=1):
    """Each (game, players) chosen in the menu and played to its end, the
    standings put away, back to the menu for the next."""
    for g, n in games_players:
        choose(surface, g, n)
        to_the_end(surface, seed=seed)
        assert surface.table.mode == "menu", surface.table.mode


def metered(world, registry=True, journal=None, maintenance=False, keep=5, firmware=None):
    """(StackMeter, VirtualPico) of a power-up of the firmware run by world(pico):
    the flash holding a tag for every item of every game (`registry`) and
    `journal`, a (header, words, actions) of a match to resume."""
    from sim.cstack import StackMeter
    from sim.hw.vpico import FIRMWARE, VirtualPico

    firmware = FIRMWARE if firmware is None else firmware
    pico = VirtualPico(firmware)
    header, words, actions = (None, (), ()) if journal is None else journal
    write_flash(pico, hands.full_registry() if registry else (), header, words, actions)
    meter = StackMeter(firmware, keep=keep)
    with meter:
        pico.power_up(world, maintenance)
    return meter, pico


NOKOSU = 4
SEATS_RECORD = 0xF00000  # dicetable.app.play's table records
SEED_RECORD = 0xE00000

# Every game from the menu to its end at its fewest and most players (the
# first with provisioning before), the power-up and resume of the longest
# journal, maintenance mode: tests/test_board_stack.py and bench_stack.py.
SCENES = tuple(GAMES) + ("longest journal", "maintenance")


def scene(name, keep=5):
    """(StackMeter, VirtualPico) of one of SCENES."""
    from sim.play import play, player_range

    if name == "maintenance":
        return metered(lambda p: p.wait(1000), maintenance=True, keep=keep)
    if name == "longest journal":
        # A 5-player Nokosu match one action before its end: the longest
        # journal of any game, on a table with a tag for every item.
        journal = play("nokosu", 5, 0, ["heuristic"] * 5, 1).journal[:-1]

        def resume(p):
            logged(p, "resumed Nokosu at action %d" % len(journal))
            to_the_end(Hands(p), seed=2)

        header = ([NOKOSU, 5, 0, 0], [SEATS_RECORD | 0x1F, SEED_RECORD | 1], journal)
        return metered(resume, journal=header, keep=keep)
    game = GAMES.index(name)
    low, high = player_range(name)

    def day(p):
        surface = Hands(p)
        logged(p, "menu:")
        if game == 0:
            provision(surface)
        matches(surface, [(game, low), (game, min(high, 5))], seed=game)

    return metered(day, keep=keep)
