"""High card's match engine: scan three cards each, then three tricks."""

from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    MALFORMED,
    MATCH_OVER,
    NOT_IN_HAND,
    OK,
    OUT_OF_TURN,
    PLAY,
    TABLE,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import EVERY, Match, check_header, malformed
from dicetable.rules.trick import Trick
from toy_game import rules

NOWHERE = 255


class HighCardMatch(Match):
    GAME = "highcard"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 3
    OPTIONS = 0
    MAX_COUNT = 3

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        self.place = bytearray(rules.CARDS + 1)  # per card: holder seat, or NOWHERE
        self.trick = Trick(players)
        self.hand_n = bytearray(players)
        self.totals = [0] * players
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the registry's new_match on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(1)  # one row: the tricks taken, at the end
        self.reset()

    def reset(self):
        for c in range(rules.CARDS + 1):
            self.place[c] = NOWHERE
        for s in range(self.players):
            self.hand_n[s] = 0
            self.totals[s] = 0
        self.trick.clear()  # zeroed too: undo is checked against a new match
        self.reset_history()  # emptied and zeroed, its room kept
        self.turn = -1
        self.tricks_done = 0
        self.last_winner = -1

    def _dealing(self):
        return self.turn < 0

    def refusal(self, a):
        if malformed(a) or seat_of(a) >= self.players:
            return MALFORMED
        if self.over():
            return MATCH_OVER
        k, s, card = kind_of(a), seat_of(a), value_of(a)
        if not 1 <= card <= rules.CARDS:
            return UNKNOWN_ITEM
        if k == DEAL:
            if not self._dealing():
                return WRONG_PHASE
            if self.hand_n[s] == rules.HAND:
                return OUT_OF_TURN
            return OK if self.place[card] == NOWHERE else ALREADY_PLACED
        if k != PLAY:
            return WRONG_PHASE
        if self._dealing():
            return WRONG_PHASE
        if s != self.turn:
            return OUT_OF_TURN
        return OK if self.place[card] == s else NOT_IN_HAND

    # Small methods and while loops: a frame over 11 words is taken from the
    # heap at every call on the board (tests/test_board_frames.py).
    def apply(self, a):
        if kind_of(a) == DEAL:
            self._deal(seat_of(a), value_of(a))
        else:
            self._play(seat_of(a), value_of(a))

    def _deal(self, s, card):
        self.place[card] = s
        self.hand_n[s] += 1
        if sum(self.hand_n) == rules.HAND * self.players:
            self.turn = 0

    def _play(self, s, card):
        t = self.trick
        self.place[card] = NOWHERE - 1  # played
        t.add(s, card)
        if t.count < self.players:
            self.turn = (s + 1) % self.players
            return
        best = 0
        i = 1
        while i < t.count:
            if rules.beats(t.items[i], t.items[best]):
                best = i
            i += 1
        self._take(t.seats[best])

    def _take(self, winner):
        self.last_winner = winner
        self.totals[winner] += 1
        self.trick.clear()
        self.tricks_done += 1
        self.turn = winner
        if self.tricks_done == rules.HAND:
            row = self.next_row()  # history's row, made once
            s = 0
            while s < self.players:
                row[s] = self.totals[s]
                s += 1
            self.turn = -2  # over

    def waiting(self):
        if self.turn == -2:
            return 0
        if self._dealing():
            # A loop, not sum() of a generator: waiting() runs at every play,
            # and a generator is an allocation each time (tests/cases/highcard.py).
            w = 0
            for s in range(self.players):
                if self.hand_n[s] < rules.HAND:
                    w |= 1 << s
            return w
        return 1 << self.turn

    def legal_actions(self, seat, out=None):
        # Into the caller's list when given (emptied, its capacity kept).
        if out is None:
            out = []
        else:
            del out[EVERY]
        if seat == TABLE or not (self.waiting() >> seat) & 1:
            return out
        # Dealing: a card still NOWHERE, scanned; then a card the seat holds, played.
        if self._dealing():
            return self._list(out, action(DEAL, seat, 0), NOWHERE)
        return self._list(out, action(PLAY, seat, 0), seat)

    def random_action(self, seat, draw):
        """One of legal_actions(seat), each as likely, drawn without listing
        them: draw(n) returns a uniform int in [0, n).  -1 when `seat` has
        none.  Changes nothing; take() applies the action unchecked."""
        if seat == TABLE or not (self.waiting() >> seat) & 1:
            return -1
        if self._dealing():
            base, place = action(DEAL, seat, 0), NOWHERE
        else:
            base, place = action(PLAY, seat, 0), seat
        pick = draw(self._count(place))
        c = 1
        while c <= rules.CARDS:
            if self.place[c] == place:
                if pick == 0:
                    return base | c
                pick -= 1
            c += 1
        return -1

    def _count(self, place):
        n = 0
        c = 1
        while c <= rules.CARDS:
            if self.place[c] == place:
                n += 1
            c += 1
        return n

    def _list(self, out, base, place):
        """Into `out`, base | card (the action on it) of every card at `place`."""
        c = 1
        while c <= rules.CARDS:
            if self.place[c] == place:
                out.append(base | c)
            c += 1
        return out

    def hand(self, seat):
        """The cards `seat` holds."""
        return [c for c in range(1, rules.CARDS + 1) if self.place[c] == seat]

    def standings(self, out=None):
        # Into the caller's list when given (emptied, its capacity kept).
        if out is None:
            out = []
        else:
            del out[EVERY]
        totals = self.totals
        s = 0
        while s < len(totals):
            out.append(self._place(totals[s]))
            s += 1
        return out

    def _place(self, mine):
        place = 1
        t = 0
        while t < len(self.totals):
            if self.totals[t] > mine:
                place += 1
            t += 1
        return place

    def all_items(self):
        return list(range(1, rules.CARDS + 1))

    def inventory(self):
        return self.all_items()


MATCH = HighCardMatch
# new(players, options) is the class itself, not a function calling it: the
# registry's new_match then makes the match with one Python frame fewer on
# the board's C stack (tests/test_game_stack.py).
new = HighCardMatch
