"""The Match base: a game's state is a pure fold over its journal.

A game module subclasses Match and supplies five methods:

    reset()             the state before the first action
    refusal(a)          why action `a` cannot be taken now (a refusal code),
                        or OK; it must not change anything.  It starts with
                        `if malformed(a): return MALFORMED`, so that no bit
                        of a word is ever ignored (a seat 8-15 read as
                        seat - 8, a kind no game has)
    apply(a)            take an action that refusal() accepted
    waiting()           bit mask of the seats whose input the match waits
                        for (TABLE_BIT for the table: dealing, turning up,
                        rolling); 0 once the match is over
    legal_actions(seat, out=None)
                        every action `seat` may take now, in a list: `out`
                        when given (emptied with `del out[EVERY]`, which
                        keeps the list's capacity, then filled and
                        returned), else a new one.  With an `out` long
                        enough it allocates nothing on MicroPython: the
                        table app lists into its own lists at every play
                        (tests/test_match_legal_heap.py).  It changes
                        nothing
    random_action(seat, draw)
                        one of legal_actions(seat), each as likely (an action
                        the list names twice, twice as likely), drawn without
                        making the list: draw(n) returns a uniform int in
                        [0, n) (random.randrange, the board's Rng.randrange);
                        -1 when the seat has none; it changes nothing.  The
                        table's deals, draws and rolls are its random actions
                        too (seat TABLE).  Every game's, tested exactly in
                        tests/test_engine_fast.py

and the results: `totals` (match score per seat), `history` (one list of
scores per seat for each game, round or deal scored so far) and

    standings(out=None)
                        final place per seat (1 = winner), once over(): in
                        `out` when given (emptied with `del out[EVERY]`,
                        then filled and returned), else a new list.  Into a
                        list of the caller's it allocates nothing on
                        MicroPython (the table lists the places at the
                        match's end and at every frame of the standings)

History is made of rows made once (make_history() in __init__, with
room for the longest match the header allows): reset() empties it and
zeroes every row (reset_history()), and scoring a round writes into the
row next_row() appends.  A row is the same list from then on (an undo
and its refold write it again, the same scores): a caller keeping one
past an undo that takes its round back sees it zeroed.

Everything else comes from the journal: submit() asks refusal() and
applies and records (take() records an action already known legal: what
legal_actions() listed or random_action() drew, unchecked), undo()
folds the journal again without its last actions, and a saved journal
restores the same state on any interpreter.

A game's class says what a match may be: MIN_PLAYERS, MAX_PLAYERS, OPTIONS
(the option flags it reads) and MAX_COUNT (the longest length).  Its
__init__ first calls check_header(), which raises ValueError with
refusal_of_header()'s line for anything else: a header a game would ignore
or could not play (0 players, an option bit it does not read, 200 games)
never reaches its arithmetic.

A random playout is random_action() and take() until the match waits for
nobody; a game's playout.py (never flashed), where it has one, plays the
same draw for draw (the table, else the lowest seat waited on) in its own
loops.  Every door that makes a match from outside
(the menu, a journal at boot, a match file, a restore) asks
dicetable.games.header_refusal() first and says its line: the registry packs
and reads a journal's header (the game's number is its place there), so this
module knows nothing of the games.

A game makes its buffers once, in __init__ (after refusing a header it
does not take), and reset() only writes into them: undo folds the whole
journal again, so a reset that allocated would cost the heap its buffers
anew at every undo (the board undoes a player's action and the table's
draws after it in a row).  After reset() the state must be exactly a new
match's: undo is checked against the state the actions first gave.  So
no action allocates either, a round's end included: the scores go into
history's rows and the rules core's scoring writes into buffers the match
made, and the journal's room, made once by the table, is kept by undo
(tests/test_match_round_heap.py plays every game under MicroPython).
"""

from micropython import const

from dicetable.match.actions import CHOOSE, NOTHING_TO_UNDO, OK

# Option bits of a journal header (options() packs them with a length).
OPEN_PLAY = const(1)  # hands are not scanned: accept what cannot be disproved
TABLE_ROLLS = const(2)  # the table rolls for the players instead of their entries
VARIANT = const(4)  # the game's published variant (each game says which)
COUNT = const(0x100)  # the length field (bits 8-15): set when a game reads it

_COUNT_SHIFT = const(8)  # bits 8-15: a count overriding the game's default length
LONGEST = const(12)  # the longest length any game takes (each game's MAX_COUNT)
_SEAT_HIGH = const(0x80000)  # bit 19: no seat number uses it

HEADER = const(4)  # journal bytes: game, players, options (2 bytes)


class _Slicer:
    def __getitem__(self, key):
        return key


# The slice `:`, made once (MicroPython has no slice()): `del out[EVERY]`
# empties a list in place and keeps its capacity, as `del out[:]` does, but
# `del out[:]` makes its slice on the heap at every call (16 B under
# MicroPython), and out.clear() gives the capacity back.
EVERY = _Slicer()[:]
# The slice `-1:`, made once: `del out[LAST]` takes a list's last item off
# and keeps its capacity.  out.pop() and `del out[-1]` give the capacity back
# as the list shrinks (and regrowing allocates), and `del out[n:]` or
# `out[n:] = ()` makes its slice on the heap at every call (16 B).
LAST = _Slicer()[-1:]
del _Slicer


def emptied(out):
    """The list a method fills: the caller's `out` emptied with its room kept,
    or a new list when it gives none (the methods' `out=None`)."""
    if out is None:
        return []
    del out[EVERY]
    return out


def fill(buf, value):
    """Set every entry of `buf` (a bytearray, array or list) to `value`, in place."""
    for i in range(len(buf)):
        buf[i] = value


def places_of(scores):
    """Competition places (1 = best) of scores, the higher the better: tied
    scores share the higher place and push the ones below down (1, 1, 3)."""
    out = []
    for s in scores:
        above = 0
        for t in scores:
            if t > s:
                above += 1
        out.append(above + 1)
    return out


def append_actions(out, base, items, n):
    """Append to `out` the action word `base` (action(kind, seat, 0)) with
    each of items[0:n] as its value: item | base is action(kind, seat, item)
    for any 16-bit item.  (A frame of 11 words: legal_actions() calls it.)"""
    for j in range(n):
        out.append(items[j] | base)


def append_values(out, base, n):
    """Append to `out` the action word `base` with each value 0 to n - 1."""
    for v in range(n):
        out.append(v | base)


def options(flags, count):
    """Pack option flags and a length override (0 = the game's default)."""
    return flags | (count << _COUNT_SHIFT)


def refusal_of_header(cls, players, options):
    """Why a match of game class `cls` cannot have `players` and `options`
    (one line naming what would be right), or None.  Every door that makes a
    match (the menu, a journal's header at boot, a match file, a restore) asks
    this, so a header no game takes never reaches a game's arithmetic."""
    name = cls.GAME
    if not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
        if cls.MIN_PLAYERS == cls.MAX_PLAYERS:
            return "%s is for exactly %d players, not %d" % (name, cls.MIN_PLAYERS, players)
        return "%s is for %d to %d players, not %d" % (
            name,
            cls.MIN_PLAYERS,
            cls.MAX_PLAYERS,
            players,
        )
    if not 0 <= options <= 0xFFFF:
        return "options are 16 bits (0 to 65535), not %d" % options
    extra = options & ((1 << _COUNT_SHIFT) - 1) & ~cls.OPTIONS
    if extra:
        bit = 0
        while not extra >> bit & 1:
            bit += 1
        return "%s has no option bit %d (it reads the bits in %d)" % (name, bit, cls.OPTIONS)
    count = options >> _COUNT_SHIFT
    if count > cls.MAX_COUNT:
        return "%s's length is 1 to %d (0: the game's own), not %d" % (name, cls.MAX_COUNT, count)
    return None


def check_header(cls, players, options):
    """Raise ValueError with refusal_of_header()'s line if there is one."""
    why = refusal_of_header(cls, players, options)
    if why is not None:
        raise ValueError(why)


def malformed(a):
    """True when a bit of action word `a` means nothing: below 0, above bit 23,
    a kind no game has, or bit 19 (seats are 0-7)."""
    return a < 0 or a >> 24 != 0 or a & _SEAT_HIGH != 0 or not 0 < a >> 20 <= CHOOSE


class Match:
    """A match of one game: the state a fold of its journal gives (see above)."""

    GAME = ""
    MIN_PLAYERS = 0
    MAX_PLAYERS = 0
    OPTIONS = 0  # the option flags (bits 0-7) the game reads
    MAX_COUNT = LONGEST  # the longest length its options may ask for (see each game)

    def __init__(self, players, options=0):
        self.players = players
        self.options = options
        self.journal = []
        self.reset()

    # What each game supplies (see the module docstring).
    def reset(self):
        """Write the state before the first action into the buffers."""
        raise NotImplementedError

    def refusal(self, a):
        """Why action `a` cannot be taken now (a refusal code), or OK."""
        raise NotImplementedError

    def apply(self, a):
        """Take action `a`, which refusal() accepted."""
        raise NotImplementedError

    def waiting(self):
        """Bit mask of the seats (TABLE_BIT: the table) the match waits for."""
        raise NotImplementedError

    def legal_actions(self, seat, out=None):
        """Every action `seat` may take now: into `out` (emptied first, then
        returned) when given, else into a new list."""
        raise NotImplementedError

    # History's rows (see the module docstring).
    def make_history(self, rounds):
        """In __init__: `rounds` rows of one score per seat, made once, and
        history with room for them all (empty: reset() starts it)."""
        rows = []
        for _ in range(rounds):
            rows.append([0] * self.players)
        self._rows = rows
        self.history = [None] * rounds
        del self.history[EVERY]

    def reset_history(self):
        """In reset(): history emptied, its room kept, and every row zeroed."""
        del self.history[EVERY]
        rows = self._rows
        # Not fill(): reset() runs under a new match's __init__, and a call
        # less keeps that chain within the games' C-stack budget.  Not `for`:
        # its iterator takes four frame words.
        i = 0
        while i < len(rows):
            row = rows[i]
            j = 0
            while j < len(row):
                row[j] = 0
                j += 1
            i += 1

    def next_row(self):
        """The next round's row, zeros, appended to history: the round's
        scores are written into it (the table reads history[-1] after)."""
        row = self._rows[len(self.history)]
        self.history.append(row)
        return row

    def flag(self, bit):
        """True when the option `bit` is set."""
        return (self.options & bit) != 0

    def count_option(self, default):
        """The length the options ask for, or `default`."""
        return (self.options >> _COUNT_SHIFT) or default

    def over(self):
        """True once the match waits for nobody."""
        return self.waiting() == 0

    def submit(self, a):
        """Take action `a` if the rules allow it; return OK or the refusal code.
        A refused action changes nothing (a malformed word is refused
        with MALFORMED by the game's refusal())."""
        code = self.refusal(a)
        if code == OK:
            # take()'s two steps, spelled out: the table app's call then
            # reaches the game's apply() one frame sooner on the board's C stack.
            self.apply(a)
            self.journal.append(a)
        return code

    def take(self, a):
        """Apply and journal action `a`, which refusal() has just accepted or
        legal_actions() listed: its legality is not checked again."""
        self.apply(a)
        self.journal.append(a)

    def undo(self, count=1):
        """Take back the last `count` accepted actions with one fold of the
        journal without them.  NOTHING_TO_UNDO, and nothing changes, when the
        journal holds fewer (or count is below 1)."""
        kept = self.journal
        if count < 1 or len(kept) < count:
            return NOTHING_TO_UNDO
        # One item at a time through a slice made once: pop() gives a list's
        # room back as it shrinks, and a slice stored (kept[n:] = ()) makes
        # its slice on the heap (16 B); the table makes the journal's room
        # once (app/table.py), and cutting it allocates nothing (see LAST).
        while count:
            del kept[LAST]
            count -= 1
        self.reset()
        # An index, not `for a in kept`: a for loop's iterator takes four
        # words of the frame, and every game's apply() runs below this one.
        while count < len(kept):
            self.apply(kept[count])
            count += 1
        return OK

    def replay(self, journal):
        """Submit every action of `journal` in order.  Returns -1 when all were
        accepted, else the index of the first refused one (the state then holds
        everything before it: a damaged journal never loses what came first)."""
        for i in range(len(journal)):
            if self.submit(journal[i]) != OK:
                return i
        return -1


def journal_actions(data):
    """The actions in journal bytes (a trailing partial record is ignored)."""
    actions = []
    for i in range(HEADER, len(data) - 3, 4):
        actions.append(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24))
    return actions
