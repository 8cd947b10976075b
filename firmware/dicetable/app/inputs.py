"""From the engine's legal actions to what each seat's reader and buttons
may do now, generically: no rule of any game is here.

The engine says who is waited on (`waiting()`, TABLE_BIT for the table) and
every legal action per seat.  A seat's inputs may make:
  - its own legal actions;
  - the table's legal actions that carry an item *for* that seat (a card or
    die dealt to it: the player scans it at their own reader);
  - the table's value actions when the game says that seat enters them
    (games.table_entry_seat: Nokosu's centre dice thrown by the start player).
The centre reader makes the table's item actions for the centre itself
(a face-up card, a centre die).  The table's remaining actions are drawn by
the table's random source (a roll when the table rolls, Dicefull's challenge,
Nokosu's removed colour).
"""

from dicetable.app import games
from dicetable.match.actions import (
    KIND_SHIFT,
    OK,
    OUT_OF_TURN,
    PASS,
    PLAY,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import EVERY


def _room(n):
    # An empty list with room for n words (emptied with `del l[EVERY]`,
    # which keeps it: match/engine.py).
    out = [0] * n
    del out[EVERY]
    return out


class Inputs:
    """What every seat and the centre may do in the match's current state.

    The app keeps one per match and reads the match again after every action
    (read(m)), a call one level below the app's: on the Pico a class call and
    a comprehension there would cost the C stack 360 B more on the app's
    deepest path (docs/firmware.md, "The C stack").  Inputs(g, m) makes one
    and reads m at once, for the simulator and the tests.

    Its lists are made once, with the room the game says it needs
    (games.legal_room: a longer list grows once and keeps its room), and
    the engine fills them in place: reading a match after a play
    allocates nothing.  What it returns (own[p], table, values(), scan())
    is good until the next read.

    The engine's lists are kept as they are and read in place: while the
    table deals, its list holds every card for every seat, and copying it per
    seat cost kilobytes per action.  One pass over the table's list notes
    what each seat and the centre are asked for, so that drawing a frame asks
    nothing of the lists again.  `seats` and `centre` give the same as lists,
    for the simulator and the tests."""

    def __init__(self, g, m):
        self.g = g
        self._kinds = games.item_kinds(g)
        n = m.players
        seat, table, values = games.legal_room(g)
        self.auto = _room(values)  # the table's own draws (a roll, a challenge, a colour)
        self.table = _room(table)
        self.own = [_room(seat) for _ in range(n)]
        self._found = _room(values)  # scan()'s answer
        self._values = _room(values)  # values()' answer, when it is not own[p]
        self._kind = bytearray(n)  # per seat: the first item kind of its own actions
        self._pass = [0] * n  # ... and its PASS
        self._dealt = bytearray(n)  # ... the item kind dealt to it
        self.read(m)

    def read(self, m):
        """What every seat may do in match m's state now."""
        w = m.waiting()
        table = self.table
        if w & TABLE_BIT:
            m.legal_actions(TABLE, table)
        else:
            del table[EVERY]
        entry = games.table_entry_seat(self.g, m) if table else -1
        self.entry = entry  # the player entering the table's values, or -1
        own = self.own
        kinds = self._kinds
        for p in range(m.players):
            acts = own[p]
            if w & (1 << p):
                m.legal_actions(p, acts)
            else:
                del acts[EVERY]
            self._kind[p] = 0
            self._pass[p] = 0
            self._dealt[p] = 0
            for a in acts:
                k = kind_of(a)
                if k == PASS:
                    self._pass[p] = a
                elif not self._kind[p] and (kinds >> k) & 1:
                    self._kind[p] = k
        self._note_table(entry)

    def _note_table(self, entry):
        # What the table's actions ask of the centre and of each seat, and
        # which of them the table draws itself.
        del self.auto[EVERY]
        self._centre = 0  # the item kind the centre is asked for
        self._value = 0  # the kind of the table's first value action
        kinds = self._kinds
        shift = SEAT_SHIFT
        for a in self.table:
            # kind_of() and seat_of() inlined: the loop runs per action listed.
            k = a >> KIND_SHIFT
            if (kinds >> k) & 1:
                s = (a >> shift) & 7
                if s == TABLE:
                    if not self._centre:
                        self._centre = k
                elif not self._dealt[s]:
                    self._dealt[s] = k
            else:
                if not self._value:
                    self._value = k
                if entry < 0:
                    self.auto.append(a)

    def _item(self, a):
        return (self._kinds >> kind_of(a)) & 1

    def _makes(self, a, p):
        # A table action p makes: an item dealt to p, or a value p enters.
        if self._item(a):
            return seat_of(a) == p
        return p == self.entry

    def active(self, p):
        """True when seat p may do anything now."""
        return bool(self.own[p]) or p == self.entry or self._dealt[p] != 0

    def allows(self, p, a):
        """True when seat p may make action a now."""
        return a in self.own[p] or (a in self.table and self._makes(a, p))

    def item_kind(self, p):
        """The kind of item action seat p is asked for (0: none)."""
        return self._kind[p] or self._dealt[p]

    def centre_kind(self):
        """The kind of item the centre reader is asked for (0: none)."""
        return self._centre

    def dealing(self):
        """True when the table waits for items dealt at the seats."""
        for k in self._dealt:
            if k:
                return True
        return False

    def entry_kind(self):
        """The kind of value the entry seat enters for the table (0: none)."""
        e = self.entry
        if e < 0:
            return 0
        acts = self.own[e]
        return kind_of(acts[0]) if acts else self._value

    def values(self, p):
        """Seat p's value actions (a roll, bid, choice), as the engine lists them."""
        own = self.own[p]
        for a in own:
            if kind_of(a) == PASS or self._item(a):
                break
        else:
            if p != self.entry:
                return own  # the engine's list as it is: no copy
        out = self._values
        del out[EVERY]
        for a in own:
            if kind_of(a) != PASS and not self._item(a):
                out.append(a)
        if p == self.entry:
            for a in self.table:
                if not self._item(a):
                    out.append(a)
        return out

    def pass_action(self, p):
        """Seat p's PASS action, or 0 when it may not pass now."""
        return self._pass[p]

    def scan(self, p, ident):
        """The actions seat p's scan of item `ident` may mean (p = TABLE: the
        centre reader, which also takes an item the table deals to a seat
        when only one seat can receive it, e.g. Nokosu's drawn dice)."""
        found = self._found
        del found[EVERY]
        if p != TABLE:
            self._matching(self.own[p], ident, -1)
            if self._dealt[p]:
                self._table_matching(self._dealt[p], p, ident)
            return found
        if self._centre:
            self._table_matching(self._centre, TABLE, ident)
        if not found and self.dealing():
            self._matching(self.table, ident, -1)
            for a in found:
                if seat_of(a) != seat_of(found[0]):
                    del found[EVERY]
                    break
        return found

    def _table_matching(self, k, seat, ident):
        # The table's item actions for `ident` made by `seat` (k: the kind it
        # makes), onto scan()'s answer.  A deal lists every card for every
        # seat: the action whose value is the item itself is looked for
        # first, in C; an item that shows a face (a rolled die) is never
        # listed as itself as well, so only a miss needs the loop over the list.
        a = action(k, seat, ident)
        if a in self.table:
            self._found.append(a)
        else:
            self._matching(self.table, ident, seat)

    def _matching(self, acts, ident, seat):
        # Item actions among acts for `ident` (made by `seat`, unless -1),
        # onto scan()'s answer.
        kinds = self._kinds
        same = games.identity_function(self.g)
        out = self._found
        shift = SEAT_SHIFT
        for a in acts:
            if (kinds >> (a >> KIND_SHIFT)) & 1 and (seat < 0 or (a >> shift) & 7 == seat):
                v = value_of(a)
                if (v if same is None else same(v)) == ident:
                    out.append(a)

    def refusal(self, m, p, ident):
        """Why a scan of `ident` at seat p (TABLE: centre) means nothing now:
        OUT_OF_TURN when the seat is not asked for anything; otherwise the
        engine's own answer to the action the player meant (the kind the seat
        is asked for, with this item).  Never changes the match."""
        if p == TABLE:
            k = self._centre
            if not k:
                # the table waits for scans at the seats (a deal): not here
                return WRONG_PHASE if self.dealing() else OUT_OF_TURN
        else:
            if not self.active(p):
                return OUT_OF_TURN
            k = self.item_kind(p) or PLAY  # asked for a value: the engine says WRONG_PHASE
        a = action(k, p, games.meant_value(self.g, m, k, ident))
        code = m.refusal(a)
        # the engine would take it although it did not list it: say so, take nothing
        return code if code != OK else WRONG_PHASE

    @property
    def seats(self):
        """Per seat, every action it may make (its own, then the table's it makes)."""
        return [
            list(self.own[p]) + [a for a in self.table if self._makes(a, p)]
            for p in range(len(self.own))
        ]

    @property
    def centre(self):
        """The table's item actions for the centre reader."""
        return [a for a in self.table if self._item(a) and seat_of(a) == TABLE]
