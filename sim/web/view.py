"""The state JSON of the web page: what a VirtualTable shows, read generically.

Everything here reads; nothing presses, scans or lets time pass.  The LEDs
are the strip's last frame (after the current limiter), as VirtualTable.leds()
returns them; the items, hands, trick and scores are read from the table app
and the match engine with the games' own names (games.item_name).  The keys
are documented in docs/web.md ("The state JSON"); keep them stable.
"""

from dicetable.app import games
from dicetable.app.events import CENTRE
from dicetable.app.menu import FIELD_NAMES
from dicetable.app.refusals import refusal_name
from dicetable.games import GAMES
from dicetable.match.actions import PLAY, TABLE, kind_of, seat_of, value_of
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from sim import item_art
from sim.hw import hands
from sim.table_view import centre_of, hand_of, trick_plays

COUNT_BIT = 0x100  # dicetable.games.COUNT: the game takes a length


def game_facts():
    """The games as the new-match form offers them (the menu's facts)."""
    out = []
    for g in range(len(GAMES)):
        low, high = games.players(g)
        bits = games.options(g)
        out.append(
            {
                "key": GAMES[g],
                "title": games.title(g),
                "fewest": low,
                "most": high,
                "open_play": bool(bits & OPEN_PLAY),
                "table_rolls": bool(bits & TABLE_ROLLS),
                "variant": bool(bits & VARIANT),
                "variant_word": games.variant_word(g),
                "longest": games.longest(g) if bits & COUNT_BIT else 0,
                "length_word": games.length_word(g),
            }
        )
    return out


def rgb_list(leds):
    return [[r, g, b] for r, g, b in leds]


def name(g, v):
    """An item as it shows (a rolled number or a declaration included)."""
    return games.item_name(g, v, True)


def in_match(t):
    """True while the table holds a match (playing, or its standings)."""
    return t.match is not None and t.inputs is not None and t.mode in ("play", "over")


def piece(g, v, shown=True):
    """Item value v of game g as the page draws it: {uid, name, art}, the
    uid its tag's, the name and the art with its rolled number or
    declaration when `shown` (in play; the box's items are as made)."""
    ident = games.identity(g, v)
    return {
        "uid": hands.uid_for(g, ident).hex(),
        "name": games.item_name(g, v, shown),
        "art": item_art.item_svg(g, v, shown),
    }


def seat_items(t, acts):
    """The items among actions `acts` (one entry per physical item), as
    [{uid, name}] in the order the engine lists them (their art is the
    box's, or the hand's)."""
    g = t.game
    seen = set()
    out = []
    for a in acts:
        if not games.is_item_kind(g, kind_of(a)):
            continue
        ident = games.identity(g, value_of(a))
        if ident in seen:
            continue
        seen.add(ident)
        out.append({"uid": hands.uid_for(g, ident).hex(), "name": games.item_name(g, ident)})
    return out


def box_of(g):
    """Every item of game g's box, grouped by colour, suit or kind, as
    [{group, items: [{uid, name, art}]}] in the box's order."""
    groups = {}
    for ident in games.all_items(g):
        groups.setdefault(item_art.group_of(g, ident), []).append(piece(g, ident, False))
    return [{"group": k, "items": v} for k, v in groups.items()]


def box_order(g):
    """Each item of game g's box (an identity) to its place in the box."""
    return {ident: i for i, ident in enumerate(games.all_items(g))}


def sorted_hand(g, values):
    """A hand as the page lists it: in the box's order (by colour or suit,
    then size or number)."""
    order = box_order(g)
    return [
        piece(g, v)
        for v in sorted(values, key=lambda v: (order.get(games.identity(g, v), len(order)), v))
    ]


def trick_of(t):
    """The trick on the table: [{seat (physical), item}] in play order."""
    g = t.game
    return [
        {"seat": s, "item": name(g, v), "art": item_art.item_svg(g, v, True)}
        for s, v in trick_plays(t)
    ]


def status(t):
    """The game, round and trick in words."""
    if t.mode == "menu" and t.menu is not None:
        menu = t.menu
        return "menu: " + ", ".join(
            "%s %s" % (FIELD_NAMES[f], menu.describe(f)) for f in menu.fields()
        )
    if t.mode == "provision":
        return "provisioning tags"
    if not in_match(t):
        return t.mode
    g, m = t.game, t.match
    word = games.length_word(g)
    if m.over():
        return "%s over after %d %s" % (games.title(g), len(m.history), word)
    words = "%s, %s %d" % (games.title(g), word[:-1], len(m.history) + 1)
    done = getattr(m, "tricks_done", getattr(m, "tricks_played", None))
    if games.has_tricks(g) and done is not None and (done or m.trick.count or playing(t)):
        words += ", trick %d" % (done + 1)
    return words


def playing(t):
    """True when a seat is asked to play an item (the tricks have begun)."""
    ins = t.inputs
    return any(ins.item_kind(p) == PLAY for p in range(len(t.phys)))


def title(t):
    if t.game >= 0 and t.match is not None:
        return games.title(t.game)
    return {"menu": "Menu", "provision": "Provisioning"}.get(t.mode, "")


def seat_keys(s):
    """Seat s's keys while it plays no match (the mirror's empty view too)."""
    return {
        "seat": s,
        "player": None,
        "bot": None,
        "items": [],
        "hand": [],
        "awaited": False,
        "entry": None,
        "pieces": [],
        "box": False,
        "refused": None,
    }


def no_match():
    """The match's keys while the table holds none (the mirror's empty view too)."""
    return {
        "players": [],
        "scores": [],
        "history": [],
        "standings": None,
        "trick": [],
        "centre": [],
        "centre_items": [],
        "centre_pieces": [],
        "box": [],
        "journal_length": 0,
    }


def seat_view(vt, s, bots, refused):
    """One physical seat: its LEDs, who plays it and what it may put down;
    `refused` is the seat's last scan refused ({uid, code}) or None."""
    t = vt.table
    p = t.player[s]
    out = seat_keys(s)
    out["leds"] = rgb_list(vt.leds(s))
    if p < 0 or not in_match(t):
        return out
    out["player"] = p
    out["bot"] = bots.get(s, "human")
    g, m, ins = t.game, t.match, t.inputs
    if t.mode == "play":
        out["items"] = seat_items(t, ins.seats[p])
        out["awaited"] = bool(ins.active(p))
    held = hand_of(m, p)
    out["hand"] = [name(g, v) for v in held]
    out["pieces"] = sorted_hand(g, held)
    in_hand = {it["uid"] for it in out["pieces"]}
    out["box"] = any(it["uid"] not in in_hand for it in out["items"])
    # The refusal's words stay on the item while its LED pattern shows.
    if refused is not None and t.err_code[s] == refused["code"]:
        out["refused"] = {"uid": refused["uid"], "words": refusal_name(refused["code"])}
    e = t.entries[p]
    if e is not None:
        out["entry"] = games.action_words(g, e.current())
    return out


def match_view(t):
    """Scores, history, standings and the items in the centre."""
    if not in_match(t):
        return no_match()
    m = t.match
    return {
        "players": list(t.phys),
        "scores": list(m.totals),
        "history": [list(row) for row in m.history],
        "standings": list(m.standings()) if m.over() else None,
        "trick": trick_of(t),
        "centre": [name(t.game, v) for v in centre_of(m)],
        "centre_items": seat_items(t, t.inputs.centre) if t.mode == "play" else [],
        "centre_pieces": [piece(t.game, v) for v in centre_of(m)],
        "box": [],
        "journal_length": len(m.journal),
    }


def state(vt, bots, extra, refused=None):
    """The state JSON (without its version) of VirtualTable vt; `bots` maps a
    physical seat to its bot, `extra` adds the session's own keys, `refused`
    maps a seat to its last scan refused ({uid, code})."""
    t = vt.table
    refused = refused or {}
    seats = [seat_view(vt, s, bots, refused.get(s)) for s in t.seats]
    out = {
        "mode": t.mode,
        "title": title(t),
        "status": status(t),
        "text": list(t.text),
        "seats": seats,
        "ring": rgb_list(vt.leds(CENTRE)),
    }
    out.update(match_view(t))
    if out["centre_items"] or any(seat["box"] for seat in seats):
        out["box"] = box_of(t.game)  # the table asks for scans from the box
    out["log"] = list(vt.lines)
    out.update(extra)
    return out


def acting_seat(t, a):
    """The physical seat that makes action `a` (CENTRE for the centre reader's
    scans: the dealer's, made by the bots)."""
    s = seat_of(a)
    if s != TABLE:
        return t.phys[s]
    if games.is_item_kind(t.game, kind_of(a)):
        return CENTRE
    entry = games.table_entry_seat(t.game, t.match)
    return t.phys[entry] if entry >= 0 else CENTRE
