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
    TABLE, TABLE_BIT, PASS, PLAY, OK, OUT_OF_TURN, WRONG_PHASE, action, kind_of, seat_of,
    value_of)


def table_draws(g, m):
    """True when the table draws its next action itself (Inputs(g, m).auto is
    not empty), found without building Inputs."""
    if not m.waiting() & TABLE_BIT:
        return False
    table = m.legal_actions(TABLE)
    if not table or games.table_entry_seat(g, m) >= 0:
        return False
    for a in table:
        if not games.is_item_kind(g, kind_of(a)):
            return True
    return False


class Inputs:
    """What every seat and the centre may do in the match's current state."""

    def __init__(self, g, m):
        self.g = g
        w = m.waiting()
        table = m.legal_actions(TABLE) if w & TABLE_BIT else []
        entry = games.table_entry_seat(g, m) if table else -1
        self.entry = entry   # the player entering the table's values, or -1
        self.seats = []
        self.centre = []
        self.dealt = []      # the table's item actions for a seat
        self.auto = []
        for p in range(m.players):
            self.seats.append(m.legal_actions(p) if w & (1 << p) else [])
        for a in table:
            s = seat_of(a)
            if games.is_item_kind(g, kind_of(a)):
                if s == TABLE:
                    self.centre.append(a)
                else:
                    self.seats[s].append(a)
                    self.dealt.append(a)
            elif entry >= 0:
                self.seats[entry].append(a)
            else:
                self.auto.append(a)

    def item_kind(self, p):
        """The kind of item action seat p is asked for (0: none)."""
        for a in self.seats[p]:
            k = kind_of(a)
            if games.is_item_kind(self.g, k):
                return k
        return 0

    def values(self, p):
        """Seat p's value actions (a roll, bid, choice), as the engine lists them."""
        return [a for a in self.seats[p]
                if kind_of(a) != PASS and not games.is_item_kind(self.g, kind_of(a))]

    def pass_action(self, p):
        """Seat p's PASS action, or 0 when it may not pass now."""
        for a in self.seats[p]:
            if kind_of(a) == PASS:
                return a
        return 0

    def scan(self, p, ident):
        """The actions seat p's scan of item `ident` may mean (p = TABLE: the
        centre reader, which also takes an item the table deals to a seat
        when only one seat can receive it, e.g. Nokosu's drawn dice)."""
        if p == TABLE:
            found = self._matching(self.centre, ident)
            if not found:
                found = self._matching(self.dealt, ident)
                for a in found:
                    if seat_of(a) != seat_of(found[0]):
                        return []
            return found
        return self._matching(self.seats[p], ident)

    def _matching(self, acts, ident):
        return [a for a in acts
                if games.is_item_kind(self.g, kind_of(a))
                and games.identity(self.g, value_of(a)) == ident]

    def refusal(self, m, p, ident):
        """Why a scan of `ident` at seat p (TABLE: centre) means nothing now:
        OUT_OF_TURN when the seat is not asked for anything; otherwise the
        engine's own answer to the action the player meant (the kind the seat
        is asked for, with this item).  Never changes the match."""
        if p == TABLE:
            if not self.centre:
                # the table waits for scans at the seats (a deal): not here
                return WRONG_PHASE if self.dealt else OUT_OF_TURN
            k = kind_of(self.centre[0])
        else:
            if not self.seats[p]:
                return OUT_OF_TURN
            k = self.item_kind(p) or PLAY    # asked for a value: the engine says WRONG_PHASE
        a = action(k, p, games.meant_value(self.g, m, k, ident))
        code = m.refusal(a)
        # the engine would take it although it did not list it: say so, take nothing
        return code if code != OK else WRONG_PHASE
