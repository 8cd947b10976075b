"""Provisioning: a tag put on any reader becomes an item of a game, chosen
with the buttons, and the registry is saved at once.

The table holds a Provisioning (and this module) only in provisioning mode,
as it does the menu: a match does not need this code on the Pico's heap.
docs/table.md ("Provisioning") is the maker's page.

    WAIT_TAG     the ring chases white until a tag is put on a reader
    CHOOSE_GAME  - and + step through the games (the ring's sector), OK
    CHOOSE_ITEM  - and + step through the game's items without a tag (and
                 the one the tag already is), OK registers it
"""

from micropython import const

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import LONG, MINUS, OK, PLUS
from dicetable.app.refusals import STORAGE_ERROR
from dicetable.app.registry import uid_hex
from dicetable.games import GAMES
from dicetable.match.actions import ALREADY_PLACED, OUT_OF_RANGE, WRONG_PHASE

WAIT_TAG = const(0)
CHOOSE_GAME = const(1)
CHOOSE_ITEM = const(2)


class Provisioning:
    """The tag in hand and the choice so far, for the table `t`."""

    def __init__(self, t):
        self.t = t
        self.stage = WAIT_TAG
        self.uid = b""
        self.reader = -1
        self.game = 0
        self.items = []  # the items offered for the tag in hand
        self.index = 0
        self._all = {}  # game -> all its items, listed once

    def _game_items(self, g):
        items = self._all.get(g)
        if items is None:
            items = games.all_items(g)
            self._all[g] = items
        return items

    def _free_items(self, g):
        """Items of game g with no tag, plus the one the tag in hand already is."""
        registry = self.t.registry
        taken = registry.registered(g)
        mine = registry.lookup(self.uid)
        return [
            i
            for i in self._game_items(g)
            if i not in taken or (mine is not None and mine == (g, i))
        ]

    def tag(self, reader, uid):
        """A tag put on a reader: it is the one to register."""
        t = self.t
        self.uid = bytes(uid)
        self.reader = reader
        found = t.registry.lookup(uid)
        if found is not None:
            self.game = found[0]
            t.say(
                "tag %s is %s %s: choose again to replace it"
                % (uid_hex(uid), games.title(found[0]), games.item_name(found[0], found[1]))
            )
        else:
            t.say("tag %s: choose the game with -/+, OK" % uid_hex(uid))
        self.stage = CHOOSE_GAME

    def button(self, seat, code):
        """A button: returns a refusal (code, why) or None."""
        t = self.t
        stage = self.stage
        if stage == WAIT_TAG:
            return WRONG_PHASE, "put a tag on a reader first"
        if code == MINUS + LONG:
            self.stage = CHOOSE_GAME if stage == CHOOSE_ITEM else WAIT_TAG
            return None
        step = 1 if code == PLUS else -1 if code == MINUS else 0
        if stage == CHOOSE_GAME:
            if step:
                self.game = (self.game + step) % len(GAMES)
            elif code == OK:
                items = self._free_items(self.game)
                if not items:
                    return ALREADY_PLACED, "every %s item has a tag" % games.title(self.game)
                self.items = items
                self.index = 0
                mine = t.registry.lookup(self.uid)
                if mine is not None and mine[0] == self.game:
                    self.index = items.index(mine[1])
                self.stage = CHOOSE_ITEM
                self._say_item()
            return None
        if step:
            i = self.index + step
            if i < 0 or i >= len(self.items):
                return OUT_OF_RANGE, "no more items"
            self.index = i
            self._say_item()
        elif code == OK:
            refusal = self._register()
            if refusal is not None:
                return refusal
            self.stage = WAIT_TAG
        return None

    def _register(self):
        # The tag in hand as the item shown, saved; the old registry kept if
        # the save fails.
        t = self.t
        g = self.game
        item = self.items[self.index]
        registry = t.registry
        before = registry.records  # add() makes new records
        registry.add(self.uid, g, item)
        try:
            t.storage.save_registry(registry.records)
        except (OSError, ValueError) as e:
            registry.records = before
            return STORAGE_ERROR, "registry not saved: %r" % (e,)
        t.say(
            "registered tag %s as %s %s"
            % (uid_hex(self.uid), games.title(g), games.item_name(g, item))
        )
        return None

    def _say_item(self):
        g = self.game
        self.t.say(
            "item %d of %d: %s"
            % (self.index + 1, len(self.items), games.item_name(g, self.items[self.index]))
        )

    def render(self, buf, lay, lines):
        """The frame (and the display's lines unless None) for the stage."""
        t = self.t
        if self.stage == WAIT_TAG:
            fr.chase(buf, lay.ring, lay.ring_leds, t.now, fr.WHITE)
            t._soon(t.now + fr.CHASE_MS - t.now % fr.CHASE_MS)
            if lines is not None:
                lines.extend(("PROVISION", "put a tag on", "any reader", "long OK: menu"))
            return
        g = self.game
        fr.sectors(buf, lay.ring, lay.ring_leds, games.count() + 1, g, games.menu_colour)
        seat = self.reader if self.reader in t.seats else t.lead
        first = lay.first(seat)
        if lines is not None:
            lines.extend(("PROVISION", "tag " + uid_hex(self.uid), "game: " + games.title(g)))
        if self.stage == CHOOSE_GAME:
            fr.number(buf, first, lay.width, g + 1, games.menu_colour(g))
        else:
            item = self.items[self.index]
            n, c = games.item_view(g, item)
            fr.number(buf, first, lay.width, n, c)
            if lines is not None:
                lines.append(
                    "%d/%d %s" % (self.index + 1, len(self.items), games.item_name(g, item))
                )
