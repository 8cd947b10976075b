"""Power-up: the registry and the journal read back, the match resumed at
its last committed action, or the menu offered.  Bad data is logged, never
fatal.

The table imports this module for boot() and forgets it afterwards: a match
does not need its code on the Pico's heap.
"""

from dicetable.app import games
from dicetable.app.play import (
    FIRMWARE_KIND,
    SEATS_KIND,
    SEED_BITS,
    SEED_KIND,
    SET_KIND,
    mark,
    rewrite_journal,
)
from dicetable.app.refusals import refusal_name
from dicetable.games import GAMES, forget, journal_header_refusal, new_match
from dicetable.match.actions import OK as ACCEPTED
from dicetable.match.actions import TABLE, kind_of, seat_of

# Load statuses, as hal/storage.py numbers them.
STATUS_OK = 0
STATUS_NONE = 1
STATUS_TORN = 2
STATUS_CORRUPT = 3


def boot(t):
    """Load table t's registry and journal: resume the match or show the menu."""
    t.firmware = t.storage.firmware_id()
    _registry(t)
    loaded = _journal(t)
    if loaded is None:
        t._to_menu(False)
        return
    header, actions, torn, lost = loaded
    games.prepare(header[0], t)
    m = new_match(GAMES[header[0]], header[1], header[2] | (header[3] << 8))
    t.room_for(header[0], m)
    why = _set_refusal(m, actions)
    if why is not None:
        # Kept on flash as it is, like a journal whose header is refused.
        t.say("journal not resumed: %s; choose a new match" % why)
        t._to_menu(False)
        return
    mask, seed, rewrite = _fold(t, header[0], m, actions)
    if torn:
        t.say("journal: torn last record dropped")  # storage cuts it off
    if lost is not None:
        n = len(m.journal)
        t.say(
            "journal corrupt at segment %d: resumed at action %d of %d, %d lost"
            % (lost[1], n, n + lost[2], lost[2])
        )
    players = header[1]
    seats = [s for s in t.seats if (mask >> s) & 1]
    if len(seats) != players:
        seats = t.seats[:players]
    if len(seats) != players:
        t.say(
            "journal needs %d seats, the table has %d: choose a new match" % (players, len(t.seats))
        )
        t._to_menu(False)
        return
    t.say("resumed %s at action %d" % (games.title(header[0]), len(m.journal)))
    if seed < 0:
        seed = t.rng.randrange(SEED_BITS + 1)
        rewrite = True
    t.seed = seed
    t._begin(header[0], m, seats)
    if rewrite:
        rewrite_journal(t)


def status_word(status):
    """'ok', 'torn' or 'corrupt' from a storage load status (hal/storage.py's
    numbers; words are read too).  No journal or registry yet counts as ok."""
    if status is None or status is True or status == STATUS_OK or status == STATUS_NONE:
        return "ok"
    if status == STATUS_TORN:
        return "torn"
    if status == STATUS_CORRUPT:
        return "corrupt"
    text = str(status).lower()
    if "torn" in text:
        return "torn"
    if "corrupt" in text or "bad" in text:
        return "corrupt"
    return "ok"


def _registry(t):
    try:
        records, status = t.storage.load_registry()
    except Exception as e:  # noqa: BLE001 - boot must go on whatever storage does
        records, status = bytearray(), "corrupt: %r" % (e,)
    word = status_word(status)
    if word == "corrupt":
        records = bytearray()
    bad = t.registry.adopt(records)
    if word != "ok":
        t.say("registry %s: carrying on with %d tags" % (word, len(t.registry)))
    if bad:
        t.say("registry: %d invalid entries skipped" % bad)
    t.say("registry: %d tags" % len(t.registry))


def _journal(t):
    # (header, actions, torn, the LOST entry or None) of a journal a game
    # takes, or None (said why).  Every damage the load found is said.
    try:
        header, actions, status = t.storage.load()
        found = t.storage.found
    except Exception as e:  # noqa: BLE001
        header, actions, status, found = None, [], "corrupt: %r" % (e,), ()
    word = status_word(status)
    lost = None
    if found:
        from dicetable.app.journal_lines import say_found

        lost = say_found(t, found, header is None)
        if lost is False:
            return None
    if header is None:
        if word == "corrupt":
            t.say("journal corrupt: no match to resume; choose a new match")
        return None
    why = header_refusal(header)
    if why is not None:
        # Not resumed, not deleted: the journal stays on flash as it is
        # until a player starts a new match (nothing is lost unasked).
        t.say("journal not resumed: %s; choose a new match" % why)
        return None
    return header, actions, word == "torn", lost


def _fold(t, g, m, actions):
    # The journal's actions into match m: (seats mask, seed or -1, whether
    # the journal must be written again: it held a record the engine refused).
    mask = 0
    seed = -1
    written_by = 0
    n = len(actions)
    i = 0
    # The table's records come before the match's first action (a later one
    # is malformed, as is any word the engine cannot read: the engine says so).
    while i < n and FIRMWARE_KIND <= actions[i] >> 20 <= SEATS_KIND:
        if actions[i] >> 20 == SEATS_KIND:
            mask = actions[i] & 0xFFFF
        elif actions[i] >> 20 == SEED_KIND:
            seed = actions[i] & SEED_BITS
        elif actions[i] >> 20 == FIRMWARE_KIND:
            written_by = actions[i] & SEED_BITS
        i += 1  # a SET record was checked before the fold (_set_refusal)
    # A journal this very firmware wrote holds only records its engine
    # accepted: asking again would be most of the power-up's time.  Any
    # other is asked record by record, as submit() does, but without its
    # call: a frame less on the power-up's chain, the deepest of the board's.
    checked = not written_by or written_by != t.firmware
    # Only the table's own draws are marked: the table's bits start clear.
    t._drawn = bytearray(((n - i) >> 3) + 1)
    while i < n:
        a = actions[i]
        # The table's own draws: its actions with no item that no seat
        # enters (Inputs(g, m).auto of the state before, without listing
        # its actions).
        drawn = (
            seat_of(a) == TABLE
            and not games.is_item_kind(g, kind_of(a))
            and games.table_entry_seat(g, m) < 0
        )
        code = m.refusal(a) if checked else ACCEPTED
        if code != ACCEPTED:
            t.say(
                "journal record %d (%#x) refused: %s; resumed before it"
                % (i, a, refusal_name(code))
            )
            return mask, seed, True
        m.take(a)
        if drawn:
            mark(t, len(m.journal) - 1, True)
        i += 1
    return mask, seed, False


def _set_refusal(m, actions):
    # Why match m, made with the set on hand, cannot fold these actions: the
    # journal's SET record (none: the built-in set) names another set.
    recorded = 0
    for a in actions:
        if a >> 20 == SET_KIND:
            recorded = a & SEED_BITS
        elif not FIRMWARE_KIND <= a >> 20 <= SEATS_KIND:
            break  # the table's records come before the match's first action
    here = getattr(m, "set_word", 0)
    if recorded == here:
        return None
    return "played with %s, the table has %s" % (_set_name(recorded), _set_name(here))


def _set_name(word):
    return "set %05x from a file" % word if word else "the built-in set"


def header_refusal(header):
    """games.journal_header_refusal() of a journal's header, never raising.
    A game imported only to hear it refuse the header is forgotten again:
    the board holds only the game it plays."""
    import sys

    try:
        g = header[0] if header[0] < len(GAMES) else -1
        new = g >= 0 and "dicetable.games." + GAMES[g] not in sys.modules
        why = journal_header_refusal(header)
    except (IndexError, ValueError, TypeError) as e:
        return "header unreadable (%r)" % (e,)
    if why is not None and new:
        forget(g)
    return why
