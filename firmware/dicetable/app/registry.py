"""The tag registry: which physical item each RFID tag is.

An entry is (uid bytes, game index, item): the game in engine.GAMES order and
the item's identity in that game's rules-core encoding (games.identity: a die
without its rolled number, a card as printed).  Storage keeps the entries
(hal/storage.py save_registry / load_registry); the host tools read them as
CSV (export_csv).

Two dicts, one per direction, hold the registry: loading it is linear in the
number of tags, and each tag costs an int key and an int value rather than
a tuple (game << 16 | item packs both).
"""

from dicetable.match.engine import GAMES

_HEX = "0123456789abcdef"
_ITEM_BITS = 16


def uid_hex(uid):
    """A UID as lower-case hex ('04a1b2c3'); bytes.hex() is not on every port."""
    return "".join([_HEX[b >> 4] + _HEX[b & 15] for b in uid])


class Registry:
    """UID -> (game, item), at most one tag per item of a game."""

    def __init__(self):
        self._items = {}        # uid bytes -> game << 16 | item
        self._uids = {}         # game << 16 | item -> uid bytes

    def load(self, entries):
        """Replace the registry by `entries`; returns how many were invalid and
        skipped (a bad game index, an empty UID or a second tag for an item)."""
        self._items = {}
        self._uids = {}
        bad = 0
        for entry in entries:
            try:
                uid, game, item = entry
                if type(uid) is not bytes:
                    uid = bytes(uid)
                ok = 0 < len(uid) <= 10 and 0 <= game < len(GAMES) and 0 <= item <= 0xFFFF
            except (TypeError, ValueError):
                ok = False
            if not ok or (game << _ITEM_BITS | item) in self._uids:
                bad += 1
                continue
            self._put(uid, game << _ITEM_BITS | item)
        return bad

    def _put(self, uid, key):
        old = self._items.get(uid)
        if old is not None:
            del self._uids[old]
        self._items[uid] = key
        self._uids[key] = uid

    def lookup(self, uid):
        """(game, item) of a tag, or None for a tag not registered."""
        key = self._items.get(uid if type(uid) is bytes else bytes(uid))
        if key is None:
            return None
        return key >> _ITEM_BITS, key & 0xFFFF

    def owner(self, game, item):
        """The UID registered for an item, or None."""
        return self._uids.get(game << _ITEM_BITS | item)

    def add(self, uid, game, item):
        """Register a tag as an item: replaces what the tag was, and takes the
        item from any other tag that had it."""
        key = game << _ITEM_BITS | item
        other = self._uids.get(key)
        if other is not None:
            del self._items[other]
        self._put(bytes(uid), key)

    def registered(self, game):
        """The items of a game that have a tag."""
        return [key & 0xFFFF for key in self._uids if key >> _ITEM_BITS == game]

    def entries(self):
        """[(uid, game, item)] sorted by game, item: what storage saves."""
        keys = sorted(self._uids)
        return [(self._uids[key], key >> _ITEM_BITS, key & 0xFFFF) for key in keys]

    def export_csv(self):
        """CSV lines for the host tools: a header, then uid_hex,game,item
        (game by name, item as a decimal int of the rules-core encoding)."""
        lines = ["uid_hex,game,item"]
        for uid, game, item in self.entries():
            lines.append("%s,%s,%d" % (uid_hex(uid), GAMES[game], item))
        return lines

    def __len__(self):
        return len(self._items)
