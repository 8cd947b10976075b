"""A match file opened on the web page: the checks it must pass, and a fresh
table whose flash holds its first actions, powered up, so that the firmware
resumes the journal as the board resumes one."""

from dicetable.app.inputs import Inputs
from dicetable.app.play import SET_RECORD
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, part
from dicetable.match.actions import REFUSAL_NAMES
from sim import matchfile
from sim.web.requests import ActError
from sim.web.webtable import new_table


def table_drawn(game, players, options_word, actions):
    """Per action of a match file: True when the table drew it itself (the
    firmware draws those at once, right after the action before)."""
    g = GAMES.index(game)
    m = part(g, "match").new(players, options_word)
    out = []
    for a in actions:
        out.append(bool(Inputs(g, m).auto))
        m.submit(a)
    return out


def check_file(mf, name):
    """Refuse a match file whose actions the rules refuse (ActError, one line)."""
    g = GAMES.index(mf.game)
    m = part(g, "match").new(mf.players, mf.options)
    for i, a in enumerate(mf.actions):
        code = m.submit(a)
        if code:
            raise ActError(
                "%s:%d: action %d, %r, refused: %s"
                % (name, mf.lines[i], i + 1, matchfile.format_action(a), REFUSAL_NAMES[code])
            )


def booted_at(mf, drawn, n, seed):
    """(the table booted from the file's header and first n actions, n): the
    table's draws right after them come too (the firmware makes those at once)."""
    while n < len(drawn) and drawn[n]:
        n += 1
    g = GAMES.index(mf.game)
    vt = new_table(seed)
    header = bytes((g, mf.players, mf.options & 0xFF, mf.options >> 8))
    mask = (1 << mf.players) - 1
    records = (SEATS_RECORD | mask, SEED_RECORD | seed)
    if mf.challenges:  # without it the firmware would not resume with a file's set
        records += (SET_RECORD | mf.challenges,)
    vt.storage.new_match(header, records)
    for a in mf.actions[:n]:
        vt.storage.append(a)
    vt.boot()
    return vt, n
