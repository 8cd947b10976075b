"""The tag registry: which physical item each RFID tag is.

An entry is (uid bytes, game index, item): the game in engine.GAMES order and
the item's identity in that game's rules-core encoding (games.identity: a die
without its rolled number, a card as printed).  Storage keeps the entries
(hal/storage.py save_registry / load_registry); the host tools read them as
CSV (export_csv).
"""

from dicetable.match.engine import GAMES

_HEX = "0123456789abcdef"


def uid_hex(uid):
    """A UID as lower-case hex ('04a1b2c3'); bytes.hex() is not on every port."""
    return "".join([_HEX[b >> 4] + _HEX[b & 15] for b in uid])


class Registry:
    """UID -> (game, item), at most one tag per item of a game."""

    def __init__(self):
        self.tags = {}

    def load(self, entries):
        """Replace the registry by `entries`; returns how many were invalid and
        skipped (a bad game index, an empty UID or a second tag for an item)."""
        self.tags = {}
        bad = 0
        for entry in entries:
            try:
                uid, game, item = entry
                uid = bytes(uid)
                ok = 0 < len(uid) <= 10 and 0 <= game < len(GAMES) and 0 <= item <= 0xFFFF
            except (TypeError, ValueError):
                ok = False
            if not ok or self.owner(game, item) is not None:
                bad += 1
                continue
            self.tags[uid] = (game, item)
        return bad

    def lookup(self, uid):
        """(game, item) of a tag, or None for a tag not registered."""
        return self.tags.get(bytes(uid))

    def owner(self, game, item):
        """The UID registered for an item, or None."""
        for uid in self.tags:
            if self.tags[uid] == (game, item):
                return uid
        return None

    def add(self, uid, game, item):
        """Register a tag as an item: replaces what the tag was, and takes the
        item from any other tag that had it."""
        other = self.owner(game, item)
        if other is not None:
            del self.tags[other]
        self.tags[bytes(uid)] = (game, item)

    def registered(self, game):
        """The items of a game that have a tag."""
        return [self.tags[uid][1] for uid in self.tags if self.tags[uid][0] == game]

    def entries(self):
        """[(uid, game, item)] sorted by game, item: what storage saves."""
        out = [(uid, self.tags[uid][0], self.tags[uid][1]) for uid in self.tags]
        out.sort(key=lambda e: (e[1], e[2], e[0]))
        return out

    def export_csv(self):
        """CSV lines for the host tools: a header, then uid_hex,game,item
        (game by name, item as a decimal int of the rules-core encoding)."""
        lines = ["uid_hex,game,item"]
        for uid, game, item in self.entries():
            lines.append("%s,%s,%d" % (uid_hex(uid), GAMES[game], item))
        return lines

    def __len__(self):
        return len(self.tags)
