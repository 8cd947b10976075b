"""The Match base: a game's state is a pure fold over its journal.

A game module subclasses Match and supplies five methods:

    reset()             the state before the first action
    refusal(a)          why action `a` cannot be taken now (a refusal code),
                        or OK; it must not change anything
    apply(a)            take an action that refusal() accepted
    waiting()           bit mask of the seats whose input the match waits
                        for (TABLE_BIT for the table: dealing, turning up,
                        rolling); 0 once the match is over
    legal_actions(seat) every action `seat` may take now (a list)

and the results: `totals` (match score per seat), `history` (one list of
scores per seat for each game, round or deal scored so far) and
standings() (final place per seat, 1 = winner, once over()).

Everything else comes from the journal: submit() refuses or applies and
records (take() records an action already known legal), undo() folds the
journal again without its last actions, and a saved journal restores the
same state on any interpreter.

A game makes its buffers once, in __init__ (after refusing a player count
it does not take), and reset() only writes into them: undo folds the whole
journal again, so a reset that allocated would cost the heap its buffers
anew at every undo (the board undoes a player's action and the table's
draws after it in a row).  After reset() the state must be exactly a new
match's: undo is checked against the state the actions first gave.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

from dicetable.match.actions import OK, NOTHING_TO_UNDO

# Option bits shared by the games (each game's module says which it reads).
OPEN_PLAY = const(1)     # hands are not scanned: accept what cannot be disproved
TABLE_ROLLS = const(2)   # the table rolls for the players instead of their entries
VARIANT = const(4)       # the game's published variant (each game says which)
_COUNT_SHIFT = const(8)  # bits 8-15: a count overriding the game's default length

GAMES = ("dtwww", "walzer", "dicefull", "dtt", "nokosu")
_HEADER = const(4)       # journal bytes: game, players, options (2 bytes)


def fill(buf, value):
    """Set every entry of `buf` (a bytearray, array or list) to `value`, in place."""
    for i in range(len(buf)):
        buf[i] = value


def options(flags, count):
    """Pack option flags and a length override (0 = the game's default)."""
    return flags | (count << _COUNT_SHIFT)


class Match:
    GAME = ""

    def __init__(self, players, options=0):
        self.players = players
        self.options = options
        self.journal = []
        self.reset()

    # What each game supplies (see the module docstring).
    def reset(self):
        raise NotImplementedError

    def refusal(self, a):
        raise NotImplementedError

    def apply(self, a):
        raise NotImplementedError

    def waiting(self):
        raise NotImplementedError

    def legal_actions(self, seat):
        raise NotImplementedError

    def flag(self, bit):
        return (self.options & bit) != 0

    def count_option(self, default):
        """The length the options ask for, or `default`."""
        return (self.options >> _COUNT_SHIFT) or default

    def over(self):
        return self.waiting() == 0

    def submit(self, a):
        """Take action `a` if the rules allow it; return OK or the refusal code.
        A refused action changes nothing."""
        code = self.refusal(a)
        if code == OK:
            self.take(a)
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
        while count:
            kept.pop()
            count -= 1
        self.reset()
        for a in kept:
            self.apply(a)
        return OK

    def replay(self, journal):
        """Submit every action of `journal` in order.  Returns -1 when all were
        accepted, else the index of the first refused one (the state then holds
        everything before it: a damaged journal never loses what came first)."""
        for i in range(len(journal)):
            if self.submit(journal[i]) != OK:
                return i
        return -1

    def header(self):
        """The journal's 4-byte header: game, players, options (low byte, high byte)."""
        return bytes((GAMES.index(self.GAME), self.players, self.options & 0xFF,
                      self.options >> 8))

    def journal_bytes(self):
        """The match as bytes: a 4-byte header, then 4 bytes per action, little-endian."""
        out = bytearray(_HEADER + 4 * len(self.journal))
        out[:_HEADER] = self.header()
        for i in range(len(self.journal)):
            a = self.journal[i]
            for b in range(4):
                out[_HEADER + 4 * i + b] = (a >> (8 * b)) & 0xFF
        return out


def journal_header(data):
    """(game name, players, options) from journal bytes."""
    return GAMES[data[0]], data[1], data[2] | (data[3] << 8)


def journal_actions(data):
    """The actions in journal bytes (a trailing partial record is ignored)."""
    actions = []
    for i in range(_HEADER, len(data) - 3, 4):
        actions.append(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24))
    return actions
