"""A match at the table: scans and buttons become actions, the engine takes
them, the journal records them, the table draws its own, undo takes back.

scan(), button() and undo() return what the table app must do next: an
action was taken (or taken back) when they return a reader or -1 (where a
roll the table makes next shows: the reader of the scan, or none), and
then the app calls settle() (the table's own draws, every seat's inputs
read again) and draws the frame; NOT_TAKEN when nothing was.  Settling at
the app's level rather than inside commit() keeps the engine's listing
three calls shallower on the Pico's C stack (docs/firmware.md, "The C
stack").

Every function takes the Table (app/table.py), which holds the match's
state.  An action is submitted to the engine once (legality is checked
there, once), then appended to storage (which flushes) before anything shows
it; an action storage cannot take is taken back from the match.  Undo is an
append too (storage.undo(): one UNDO record per action taken back), so the
journal stays append-only.

Besides the engine's actions the journal holds the table's records, right
after the header, stripped before the engine folds the journal: SEATS (kind
15, never a game's kind; value = the mask of the physical seats that play)
and SEED (kind 14; value = 20 bits of seed); for a game played with a set
of its own read from a file (Dicefull's challenges) SET (kind 13; value =
the set's word, the match's `set_word`); and on a board `make flash` wrote,
FIRMWARE (kind 12; value = the firmware's id, storage.firmware_id()): the
engine that accepted every record of the journal, so that a power-up on the
same firmware folds them without asking it again (app/resume.py).  The
table's own draws are a function of the seed and the journal's length
(Table.draw()), so a draw made again after a power cut gives the value the
players saw before.
"""

from micropython import const

from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MAX_SEATS, MINUS, OK, PLUS
from dicetable.app.inputs import Inputs
from dicetable.app.refusals import STORAGE_ERROR, UNKNOWN_TAG, WRONG_GAME
from dicetable.app.render import OVER, PLAY_MODE, TRICK_MS
from dicetable.games import header
from dicetable.match.actions import (
    ALREADY_PLACED,
    NOT_IN_HAND,
    NOTHING_TO_UNDO,
    OUT_OF_TURN,
    PASS,
    PLAY,
    ROLL,
    TABLE,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.actions import OK as ACCEPTED

# The table's records in the journal: action words of kinds no game uses.
SEATS_RECORD = const(0xF00000)  # | mask of the physical seats that play
SEED_RECORD = const(0xE00000)  # | the seed of the table's draws (20 bits)
SET_RECORD = const(0xD00000)  # | the word of the set a file gave (none: the built-in)
FIRMWARE_RECORD = const(0xC00000)  # | the id of the firmware that wrote the journal
SEATS_KIND = const(0xF)
SEED_KIND = const(0xE)
SET_KIND = const(0xD)
FIRMWARE_KIND = const(0xC)
SEED_BITS = const(0xFFFFF)
NOT_TAKEN = const(-2)  # scan(), button(), undo(): no action taken, nothing to settle


def new_journal(t, m, mask, seed):
    """Start the journal of match m: its header, then the seats and seed
    records, the set record of a set read from a file, and the firmware's
    (raises what storage raises)."""
    words = [SEATS_RECORD | mask, SEED_RECORD | seed]
    if getattr(m, "set_word", 0):
        words.append(SET_RECORD | m.set_word)
    if t.firmware:
        words.append(FIRMWARE_RECORD | t.firmware)
    t.storage.new_match(header(m), words)


def rewrite_journal(t):
    """Write the journal again from the engine's (after a record the engine
    refused, or an undo only partly recorded), so that later appends follow
    good records."""
    m = t.match
    if m is None:
        return
    try:
        new_journal(t, m, t._seat_mask(), t.seed)
        for a in m.journal:
            t.storage.append(a)
    except (OSError, ValueError) as e:
        t.say("journal rewrite failed: %r" % (e,))


# --- scans ----------------------------------------------------------------------------


def scan(t, reader, uid):
    """A tag put on `reader` (a seat or CENTRE) during play: commit()'s
    answer, or NOT_TAKEN."""
    ins = t.inputs
    if t.match is None or ins is None:
        return NOT_TAKEN
    p = TABLE if reader == CENTRE else t.player[reader]
    line = t.line
    if p < 0:
        t._refusal(reader, OUT_OF_TURN)
        line.add(" (seat ")
        line.num(reader)
        line.add(" is not in this match)")
        t._refused()
        return NOT_TAKEN
    found = t.registry.find(uid)
    if found < 0:
        t._refusal(reader, UNKNOWN_TAG)
        line.add(" (tag ")
        line.hex(uid)
        line.add(")")
        t._refused()
        return NOT_TAKEN
    g = found >> 16
    item = found & 0xFFFF
    if g != t.game:
        t._refusal(reader, WRONG_GAME)
        line.add(" (")
        line.add(games.title(g))
        line.add(" ")
        games.item_words(line, g, item)
        line.add(")")
        t._refused()
        return NOT_TAKEN
    cands = ins.scan(p, item)
    if len(cands) == 1:
        return commit(t, cands[0], reader)
    if cands and p != TABLE:
        t.entries[p] = t.entry_of(p, cands, True)
        line.start()
        line.add("seat ")
        line.num(reader)
        line.add(": ")
        games.item_words(line, g, item)
        line.add(", choose with -/+ and OK")
        t.said()
        t._render()
    else:
        _refuse_scan(t, reader, p, item, cands)
    return NOT_TAKEN


def _refuse_scan(t, reader, p, item, cands):
    # A scan that means no action now, refused with the engine's reason.
    if cands:
        code = WRONG_PHASE  # several meanings at the centre: no buttons there
    else:
        code = t.inputs.refusal(t.match, p, item)
    if item == t.last_ident[reader] and (
        code == NOT_IN_HAND or code == OUT_OF_TURN or code == WRONG_PHASE
    ):
        code = ALREADY_PLACED  # the item this reader took last, put back on it
    t._refusal(reader, code)
    line = t.line
    line.add(" (")
    games.item_words(line, t.game, item)
    line.add(")")
    t._refused()


# --- taking an action ----------------------------------------------------------------------


def commit(t, a, seat):
    """Take action `a`, made at physical seat `seat` (or CENTRE): the engine
    checks and takes it, storage records it (or the match gives it back).
    Where the table's next roll shows (the seat of an item's scan, else -1)
    when taken, to settle() with; NOT_TAKEN when refused."""
    m = t.match
    if m is None:
        return NOT_TAKEN
    scored = len(m.history)
    code = m.submit(a)
    if code != ACCEPTED:
        t._refusal(seat, code)
        _bracketed(t, a)
        return NOT_TAKEN
    if not _record(t, a):
        m.undo(1)
        t._refuse(seat, STORAGE_ERROR, "action not taken")
        return NOT_TAKEN
    t._clear_shows()
    _taken(t, a, scored)
    mark(t, len(m.journal) - 1, False)
    item = games.is_item_kind(t.game, kind_of(a))
    if item:
        t.last_ident[seat] = games.identity(t.game, value_of(a))
    if 0 <= seat < MAX_SEATS and t.player[seat] >= 0:
        t.entries[t.player[seat]] = None
    return seat if item else -1


def _record(t, a):
    try:
        t.storage.append(a)
    except (OSError, ValueError) as e:
        t.say("storage: %r" % (e,))
        return False
    return True


def _bracketed(t, a):
    # A refusal's line ends with the action in words; said, and shown.
    line = t.line
    line.add(" (")
    games.say_action(line, t.game, a)
    line.add(")")
    t._refused()


def _taken(t, a, scored):
    # Say what the match took and what it completed (a trick, a round with
    # `scored` rounds before it, the match).
    m = t.match
    line = t.line
    line.start()
    s = seat_of(a)
    if s == TABLE:
        line.add("table ")
    else:
        line.add("seat ")
        line.num(t.phys[s])
        line.add(" ")
    games.say_action(line, t.game, a)
    t.said()
    if kind_of(a) == PLAY and games.has_tricks(t.game) and m.trick.count == 0:
        _trick_done(t, m)
    if len(m.history) > scored:
        _scored(t, m)
    if m.over():
        t.mode = OVER
        _final(t, m)


def _scored(t, m):
    # The round's scores said, and shown as places once a trick's result is gone.
    scores = m.history[-1]
    line = t.line
    line.start()
    line.add("scored: ")
    for p in range(m.players):
        if p:
            line.add(", ")
        line.add("seat ")
        line.num(t.phys[p])
        line.add(" +" if scores[p] >= 0 else " ")
        line.num(scores[p])
    t.said()
    if not m.over():
        shown = t._score_buf
        places = shown[0]
        for p in range(m.players):
            above = 0
            for q in range(m.players):
                if scores[q] > scores[p]:
                    above += 1
            places[p] = above + 1
        shown[1] = t.now + (TRICK_MS if t.trick_show is not None else 0)
        t.score_show = shown


def _final(t, m):
    places = m.standings(t.places)
    line = t.line
    line.start()
    line.add("final: ")
    for p in range(m.players):
        if p:
            line.add(", ")
        line.add("seat ")
        line.num(t.phys[p])
        line.add(" place ")
        line.num(places[p])
        line.add(" (")
        line.num(m.totals[p])
        line.add(")")
    t.said()


def _trick_done(t, m):
    w = m.waiting()
    leader = -1
    for p in range(m.players):
        if w == 1 << p:
            leader = t.phys[p]
    winner = t.phys[m.last_winner]
    shown = t._trick_buf
    shown[0] = winner
    shown[1] = leader
    shown[2] = t.now
    t.trick_show = shown
    line = t.line
    line.start()
    line.add("trick: seat ")
    line.num(winner)
    line.add(" wins")
    if leader >= 0:
        line.add(", seat ")
        line.num(leader)
        line.add(" leads")
    t.said()


def settle(t, origin=-1):
    """Draw the table's own actions, then work out every seat's inputs (a
    value entry opens by itself where the seat is asked for a value).  A roll
    the table makes right after a scan shows at that reader (`origin`)."""
    m = t.match
    if m is None:
        return
    ins = t.inputs
    if ins is None or ins.g != t.game or len(ins.own) != m.players:
        ins = t.inputs = Inputs(t.game, m)
    else:
        ins.read(m)
    while ins.auto:
        # from the engine's own list: taken as it is, not checked again
        a = ins.auto[t.draw(len(ins.auto))]
        if not _record(t, a):
            t._refuse(CENTRE, STORAGE_ERROR, "table draw not taken")
            break
        if origin >= 0 and kind_of(a) == ROLL:
            n = games.entry_view(t.game, m, a)[0]
            shown = t._roll_buf
            shown[0] = origin
            shown[1] = 0 if n is None else n
            shown[2] = t.now
            t.roll_show = shown
        origin = -1
        scored = len(m.history)
        m.take(a)
        _taken(t, a, scored)
        mark(t, len(m.journal) - 1, True)
        ins.read(m)
    for p in range(m.players):
        _entry(t, ins, p)


def _entry(t, ins, p):
    # Seat p's value entry after a change: a choice after a scan stays while
    # the match allows every candidate; a value entry follows the values.
    e = t.entries[p]
    if e is not None and e.choice:
        for a in e.candidates:
            if not ins.allows(p, a):
                e = None
                break
        t.entries[p] = e
        return
    values = ins.values(p)
    if not values:
        t.entries[p] = None
    elif e is None or not e.same(values):
        t.entries[p] = t.entry_of(p, values, False)


def mark(t, i, drawn):
    """Note whether journal action i was the table's own draw (undo takes
    those back with the player's action before them)."""
    flags = t._drawn
    if i >> 3 >= len(flags):
        t._drawn = flags = flags + bytearray(len(flags) + 16)
    if drawn:
        flags[i >> 3] |= 1 << (i & 7)
    else:
        flags[i >> 3] &= ~(1 << (i & 7)) & 0xFF


# --- buttons -------------------------------------------------------------------------------


def button(t, seat, code):
    """A seat's button during a match or at its standings: commit()'s answer
    (or undo()'s), or NOT_TAKEN."""
    if t.match is None or t.inputs is None:
        return NOT_TAKEN
    if t.score_show is not None:
        t._clear_shows()  # the first press only puts the scores away
        t._render()
    elif t.confirm:
        _confirmed(t, seat, code)
    elif code == MINUS + LONG:
        return undo(t, seat)
    elif code == OK + LONG and seat == t.lead:
        t.confirm = True
        t.say("abandon the match? OK at seat %d confirms, any other button keeps it" % seat)
        t._render()
    elif t.mode == OVER:
        if code == OK:
            t._to_menu(True)
    else:
        return _seat_button(t, seat, code & ~LONG)
    return NOT_TAKEN


def _confirmed(t, seat, code):
    # The press after the menu seat asked to abandon the match.
    t.confirm = False
    if seat == t.lead and code == OK:
        t.say("match abandoned")
        t._to_menu(True)
    else:
        t.say("abandon cancelled")
        t._render()


def _seat_button(t, seat, code):
    # A player's -, + or OK (a long press as a short one).
    p = t.player[seat] if 0 <= seat < MAX_SEATS else -1
    if p < 0:
        t._refuse(seat, OUT_OF_TURN, "seat %d is not in this match" % seat)
        return NOT_TAKEN
    t.trick_show = None
    e = t.entries[p]
    if code == MINUS or code == PLUS:
        if e is None:
            t._refuse(seat, WRONG_PHASE if t.inputs.active(p) else OUT_OF_TURN)
            return NOT_TAKEN
        r = e.move(1 if code == PLUS else -1)
        if r != ACCEPTED:
            t._refusal(seat, r)
            t.line.add(" (lowest to" if code == MINUS else " (highest to")
            t.line.add(" ")
            games.say_action(t.line, t.game, e.current())
            t.line.add(")")
            t._refused()
            return NOT_TAKEN
        t._render()
    elif code == OK:
        if e is not None:
            return commit(t, e.current(), seat)
        return _ok(t, seat, p)
    return NOT_TAKEN


def _ok(t, seat, p):
    # OK with no value entry open: seat p passes, if it may.
    ins = t.inputs
    a = ins.pass_action(p)
    if a:
        return commit(t, a, seat)
    if not ins.active(p):
        t._refuse(seat, OUT_OF_TURN)
    elif games.has_pass(t.game):
        # the engine's reason only, for the refusal: nothing is taken
        t._refuse(seat, t.match.refusal(action(PASS, p, 0)) or WRONG_PHASE, "pass")
    else:
        t._refuse(seat, WRONG_PHASE, "scan an item")
    return NOT_TAKEN


# --- undo ----------------------------------------------------------------------------------


def undo(t, seat):
    """Take back the last action a player made and the table's draws that
    followed it, with one fold of the match; journalled (an UNDO record per
    action) before it shows.  -1 (settle, no roll to show) when taken back,
    else NOT_TAKEN."""
    m = t.match
    if m is None:
        return NOT_TAKEN
    flags = t._drawn
    last = len(m.journal) - 1
    first = last
    while first >= 0 and (flags[first >> 3] >> (first & 7)) & 1:
        first -= 1
    if first < 0:
        t._refuse(seat, NOTHING_TO_UNDO)  # nothing of the players' to take back
        return NOT_TAKEN
    done = _undo_records(t, last - first + 1)
    if done == 0:
        t._refuse(seat, STORAGE_ERROR, "undo not taken")
        return NOT_TAKEN
    _took_back(t, seat, m, first, last)
    m.undo(last - first + 1)
    if done <= last - first:
        rewrite_journal(t)  # part recorded: make storage match the match
    t.mode = PLAY_MODE
    t._clear_shows()
    for s in range(MAX_SEATS + 1):
        t.last_ident[s] = -1
    for p in range(m.players):
        t.entries[p] = None
    return -1


def _took_back(t, seat, m, first, last):
    # "seat 2 undo: took back roll 4, play red d6:4": journal actions last
    # down to first, said before the match folds without them.
    line = t.line
    line.start()
    line.add("seat ")
    line.num(seat)
    line.add(" undo: took back ")
    i = last
    while i >= first:
        games.say_action(line, t.game, m.journal[i])
        if i > first:
            line.add(", ")
        i -= 1
    t.said()


def _undo_records(t, count):
    # Up to `count` UNDO records appended: how many storage took.
    done = 0
    try:
        while done < count:
            t.storage.undo()
            done += 1
    except (OSError, ValueError) as e:
        t.say("storage: %r" % (e,))
    return done
