"""What the web page's mirror (sim/web/mirror.py) shows of the board's match:
a replica, a fresh virtual table whose flash gets the board's journal and
which is then powered up, so that the firmware resumes it as the board itself
would after a power cut; or, with no match to show, an empty view."""

from dicetable.app import games
from dicetable.app.play import SET_RECORD
from dicetable.app.table import SEED_BITS
from dicetable.games.dicefull import data as dicefull_data
from sim.web import view
from sim.web.webtable import SEATS, new_table


def replica(header, seats_word, seed_word, actions):
    """A fresh virtual table whose flash holds the journal, powered up: the
    firmware resumes it (as sim/web/replay.py's booted_at() does for a match file).
    ValueError when it did not resume the whole journal."""
    vt = new_table(seed_word & SEED_BITS)
    words = (seats_word, seed_word)
    if dicefull_data.SET_WORD:  # match() found the board's SET word equal to it
        words += (SET_RECORD | dicefull_data.SET_WORD,)
    vt.storage.new_match(bytes(header), words)
    for a in actions:
        vt.storage.append(a)
    vt.boot()
    t = vt.table
    m = t.match
    if m is None or not view.in_match(t) or list(m.journal[: len(actions)]) != list(actions):
        raise ValueError("the firmware did not resume it (%s)" % t.last_line)
    return vt


def replica_view(vt):
    """The state's keys the replica gives (all but the LEDs and the log): as
    the page shows a virtual table, less what the mirror cannot know."""
    out = view.state(vt, {}, {})
    for seat in out["seats"]:
        seat.update(bot=None, items=[], entry=None, box=False, refused=None)
    out["centre_items"] = []
    out["box"] = []
    out["text"] = replica_text(vt.table)
    del out["log"], out["ring"]
    return out


def replica_text(t):
    """The replica's text display without its last line (the replica's own
    latest log line: the board's goes there) and without the values its
    entries show (the board's are not known)."""
    lines = list(t.text)
    if lines and t.last_line and lines[-1] == t.last_line:
        lines.pop()
    for p, e in enumerate(t.entries):
        if e is not None:
            s = t.phys[p]
            shown = "s%d %s" % (s, games.action_words(t.game, e.current()))
            lines = [
                "s%d enters a value (not known to the mirror)" % s if x == shown else x
                for x in lines
            ]
    return lines


def empty_view(status):
    """The state's keys with no match to show (before the first keyframe, or
    "@k -"): the mirror cannot tell the board's menu from provisioning."""
    out = {
        "mode": "none",
        "title": "",
        "status": status,
        "text": [],
        "seats": [view.seat_keys(s) for s in SEATS],
    }
    out.update(view.no_match())
    return out
