"""DTwww's match engine, a game up to its score dice: the deal (PHASE_DEAL)
and the tricks (PHASE_PLAY).

DtwwwDeal keeps every die where it is (`place`, the hands, the score dice)
and the match's state, made here as every phase reads it, and answers what a
reader asks of the dice (inventory, hand, score_dice).  match.py's DtwwwMatch
is built on it: the score dice rolled, the game's scoring, the roll-off, the
final places and every action taken to its phase (its docstring says how a
match runs).  Two modules, not one: one would be past the project's 600
lines a file and 400 a class.  A module is heap on the board (its globals,
its class), so the private numbers here are const() (folded, not stored) and
a name is in both modules' globals only where both modules' methods read it.
"""

from array import array

from micropython import const

from dicetable.games.dtwww import rules as dt
from dicetable.match.actions import (
    ALREADY_PLACED,
    DEAL,
    ILLEGAL_PLAY,
    NOT_IN_HAND,
    OK,
    OUT_OF_RANGE,
    ROLL,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    UNKNOWN_ITEM,
    WRONG_PHASE,
    action,
)
from dicetable.match.engine import (
    OPEN_PLAY,
    TABLE_ROLLS,
    VARIANT,
    Match,
    check_header,
    fill,
)
from dicetable.rules.trick import Trick

PHASE_DEAL = const(1)
PHASE_PLAY = const(2)
PHASE_SCORE = const(3)
# match.py's PHASE_ROLLOFF (4) and PHASE_OVER (5) follow: only its methods
# set or read them.

# `event` bits: what the last applied action completed (for transcripts); the
# later phases' bits (4 to 32) are match.py's, where they are set.
EV_DEALT = const(1)  # every hand is registered: play starts
EV_TRICK = const(2)  # a trick completed

NO_ROLL = const(0xFFFF)  # `rolls` entry: this seat has not rolled this round
NO_CHOICE = const(0xFF)  # `choice` entry: no die chosen yet

DICE = const(42)
_NUMBER_BITS = const(0x1F)
_IDENTITY_BITS = const(0x7E0)  # size, colour, copy: the die without its number

# `place` of each die, by box index
BAG = const(0)  # in the bag, not seen this game
_HAND = const(1)  # 1 + seat: in that seat's hand (registered hands)
_TRICK = const(8)  # in the current trick
_SCORE = const(9)  # 9 + seat: that seat's score die
_RETURNED = const(15)  # back in the bag, played this game

_BOX = dt.box()


def _index_table():
    table = bytearray(b"\xff" * 64)
    for i in range(DICE):
        table[_BOX[i] >> 5] = i
    return table


_INDEX = _index_table()  # die identity >> 5 -> index in box(), 0xFF for no such die


def die_index(d):
    """Index in box() of the die `d` (any number, no declaration); -1 for no such die."""
    if d >> 11:
        return -1
    i = _INDEX[d >> 5]
    return -1 if i == 0xFF else i


def identity(item):
    """The physical die of an item, number bits cleared (what inventory compares)."""
    return item & _IDENTITY_BITS


def faces(size):
    """The numbers a die of `size` can show, lowest first."""
    return range(dt.lowest_face(size), dt.highest_face(size) + 1)


def _add_faces(out, base, d):
    """Append to `out` the action word `base` with each face of die `d` ORed
    into its value (lowest first)."""
    # base's value bits are 0, so base | face is base + face: the words are
    # counted up in base itself, the frame then 7 words (248 B of C stack).
    size = dt.size(d)
    d = dt.highest_face(size) | base  # from here: the highest face's word
    base = dt.lowest_face(size) | base
    while base <= d:
        out.append(base)
        base += 1


def _lowest_face(d):
    return dt.lowest_face(dt.size(d))


def _highest_face(d):
    return dt.highest_face(dt.size(d))


# Action words with seat 0 and value 0: a seat's and a value's bits are ORed in.
_ROLL_A = action(ROLL, 0, 0)
_DEAL_A = action(DEAL, 0, 0)


def _face(d, draw):
    """A face of die `d` (its size's), each as likely."""
    d = dt.size(d)
    low = dt.lowest_face(d)
    return low + draw(dt.highest_face(d) - low + 1)


class DtwwwDeal(Match):
    # The match's header here, beside the check of it in __init__: match.py
    # then imports none of the option flags.
    GAME = "dtwww"
    MIN_PLAYERS = dt.MIN_PLAYERS
    MAX_PLAYERS = dt.MAX_PLAYERS
    OPTIONS = OPEN_PLAY | TABLE_ROLLS | VARIANT
    # Its longest journal no longer than a 5-player Nokosu match's (~760
    # actions), the longest the boot is tested with (tests/test_boot_full_table.py).
    MAX_COUNT = 6

    # --- state -------------------------------------------------------------

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        n = players
        self.totals = [0] * n
        # dice
        self.place = bytearray(DICE)
        self.public = bytearray(DICE)  # 1: a public die (a seat's first 3 scans)
        self.hands = [array("H", [0] * dt.HAND_SIZE) for _ in range(n)]
        self.hand_n = bytearray(n)
        self.pending = bytearray(n)  # 1: the seat's last scanned die awaits its roll
        self.played_n = bytearray(n)  # dice each seat has played this game
        self.score = [array("H", [0] * dt.TRICKS) for _ in range(n)]
        self.score_n = bytearray(n)
        self.score_rolled = bytearray(n)
        # tricks
        self.trick = Trick(n)
        self.last_trick_items = array("H", [0] * n)
        self.last_trick_seats = bytearray(n)
        # the last game scored
        self.game_totals = array("H", [0] * n)
        self.game_counts = bytearray(n)
        self.game_ranks = bytearray(n)
        self.game_points = array("H", [0] * n)
        self.game_dice = [array("H", [0] * dt.TRICKS) for _ in range(n)]  # as rolled
        # final
        self.contenders = bytearray(n)
        self.choice = bytearray(n)
        self.rolls = array("H", [0] * n)
        self.last_rolls = array("H", [0] * n)
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the table app's call (games.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(self.count_option(n))  # a row per game
        self.reset()

    def reset(self):
        self.open = self.flag(OPEN_PLAY)
        self.table_rolls = self.flag(TABLE_ROLLS)
        self.mode = dt.SCORE_TOTAL if self.flag(VARIANT) else dt.SCORE_VP
        self.games = self.count_option(self.players)
        fill(self.totals, 0)
        self.reset_history()
        self.game = 0  # games scored so far
        self.game_leader = 0  # seat leading the current game's first trick
        self.event = 0
        for s in range(self.players):
            fill(self.hands[s], 0)
            fill(self.score[s], 0)
            fill(self.game_dice[s], 0)
        self.last_winner = -1
        self.last_leader = -1
        fill(self.last_trick_items, 0)
        fill(self.last_trick_seats, 0)
        self.last_trick_count = 0
        fill(self.game_totals, 0)
        fill(self.game_counts, 0)
        fill(self.game_ranks, 0)
        fill(self.game_points, 0)
        self.roll_seat = -1  # the seat the last ROLL was for (TABLE rolls too)
        fill(self.contenders, 0)
        fill(self.choice, NO_CHOICE)
        fill(self.rolls, NO_ROLL)
        fill(self.last_rolls, NO_ROLL)
        self.rolloff_rounds = 0
        self.winner = -1
        self._start_game()

    def _start_game(self):
        for i in range(DICE):
            self.place[i] = BAG
            self.public[i] = 0
        for s in range(self.players):
            self.hand_n[s] = 0
            self.pending[s] = 0
            self.played_n[s] = 0
            self.score_n[s] = 0
            self.score_rolled[s] = 0
        self.trick.clear()
        self.tricks_played = 0
        self.turn = self.game_leader
        self.leader = self.game_leader
        self.phase = PHASE_PLAY if self.open else PHASE_DEAL

    # --- the deal ------------------------------------------------------------

    def _pending_seat(self):
        for s in range(self.players):
            if self.pending[s]:
                return s
        return -1

    def _deal_waiting(self):
        mask = 0
        for s in range(self.players):
            if self.pending[s]:
                if self.table_rolls:
                    return TABLE_BIT  # the table rolls the die just scanned
                mask |= 1 << s  # the seat enters its roll
            elif self.hand_n[s] < dt.HAND_SIZE:
                mask |= 1 << s  # the seat scans its next die
        return mask

    def _deal_refusal(self, k, s, v):
        if s == TABLE:
            if k != ROLL:
                return WRONG_PHASE
            s = self._pending_seat()
        elif (k == ROLL) != (self.pending[s] == 1) or (k == ROLL and self.table_rolls):
            return WRONG_PHASE  # a roll is awaited from this seat, or a scan
        if k == ROLL:  # a face of the die scanned last
            d = self.hands[s][self.hand_n[s] - 1]
            if not dt.is_face(dt.size(d), v):
                return OUT_OF_RANGE
            return OK
        i = die_index(v)
        if i < 0 or v & _NUMBER_BITS:
            return UNKNOWN_ITEM
        if self.place[i] != BAG:
            return ALREADY_PLACED
        return OK

    def _deal_actions(self, out, seat):
        s = self._pending_seat() if seat == TABLE else seat
        if seat == TABLE or self.pending[s]:  # the roll of the die scanned last
            _add_faces(out, _ROLL_A | (seat << SEAT_SHIFT), self.hands[s][self.hand_n[s] - 1])
            return
        for i in range(DICE):  # a scan: every die still in the bag
            if self.place[i] == BAG:
                out.append(_BOX[i] | _DEAL_A | (seat << SEAT_SHIFT))

    def _random_deal(self, seat, draw):
        """A deal action without its seat: the roll of the die just scanned,
        or a die from the bag."""
        s = self._pending_seat() if seat == TABLE else seat
        if seat == TABLE or self.pending[s]:
            return _face(self.hands[s][self.hand_n[s] - 1], draw) | _ROLL_A
        return self._random_bag(draw) | _DEAL_A

    def _random_bag(self, draw):
        """A die still in the bag, each as likely."""
        k = 0
        for i in range(DICE):
            if self.place[i] == BAG:
                k += 1
        k = draw(k)
        for i in range(DICE):
            if self.place[i] == BAG:
                if k == 0:
                    return _BOX[i]
                k -= 1
        return -1

    def _deal(self, s, d):
        i = die_index(d)
        j = self.hand_n[s]
        self.hands[s][j] = d
        self.hand_n[s] = j + 1
        self.place[i] = _HAND + s
        self.public[i] = 1 if j < 3 else 0
        self.pending[s] = 1

    def _deal_roll(self, s, v):
        j = self.hand_n[s] - 1
        self.hands[s][j] = dt.rolled(self.hands[s][j], v)
        self.pending[s] = 0
        for t in range(self.players):
            if self.pending[t] or self.hand_n[t] < dt.HAND_SIZE:
                return
        self.phase = PHASE_PLAY
        self.turn = self.game_leader
        self.leader = self.game_leader
        self.event |= EV_DEALT

    # --- the tricks ----------------------------------------------------------

    def _play_refusal(self, s, v):
        if v >> 14:
            return UNKNOWN_ITEM
        i = die_index(v & _IDENTITY_BITS)
        if i < 0:
            return UNKNOWN_ITEM
        if not dt.is_face(dt.size(v), dt.number(v)):
            return OUT_OF_RANGE
        if not dt.declaration_ok(v):
            return ILLEGAL_PLAY
        if self.open:
            if self.place[i] != BAG or self.played_n[s] >= dt.HAND_SIZE:
                return NOT_IN_HAND
            if not dt.open_legal(self.trick, v):
                return ILLEGAL_PLAY  # a white die shows its holder could follow
            return OK
        if not dt.in_hand(self.hands[s], self.hand_n[s], v):
            return NOT_IN_HAND
        return OK  # refusal() then asks the core whether it follows

    def _open_die(self, out, base, d):
        """Open play: every play of die `d` (not seen this game) the table
        cannot disprove, as the action word `base` (a PLAY of the seat on
        turn) with the play as its value: each face; a white die each face
        declared each colour the core's open_legal allows."""
        # d + face is d | face (a die of the box has no number bits).  While
        # loops and d reused: the frame stays within 11 words.
        item = d + _lowest_face(d)
        d += _highest_face(d) + 1  # from here: past the last face
        if dt.colour(item) != dt.WHITE:
            while item < d:
                out.append(item | base)
                item += 1
            return
        while item < d:
            c = dt.RED
            while c < dt.WHITE:
                p = dt.play(item, c)
                if dt.open_legal(self.trick, p):
                    out.append(p | base)
                c += 1
            item += 1

    def _play(self, s, item):
        """Seat s plays `item` to the trick (apply then finishes a full one)."""
        d = dt.die_of(item)
        if not self.open:
            self._from_hand(s, d)
        self.played_n[s] += 1
        self.place[die_index(d & _IDENTITY_BITS)] = _TRICK
        self.trick.add(s, item)
        if self.trick.count < self.players:
            self.turn = (self.turn + 1) % self.players

    def _from_hand(self, s, d):
        """Take die `d` out of seat s's hand, keeping the order."""
        hand = self.hands[s]
        n = self.hand_n[s]
        j = 0
        while hand[j] != d:
            j += 1
        while j < n - 1:
            hand[j] = hand[j + 1]
            j += 1
        self.hand_n[s] = n - 1

    def _finish_trick(self, w):
        """The trick is complete and the die at position `w` takes it (the
        core's resolve, asked by apply): the trick to the last trick's record,
        the winner's die to its score dice, the others back to the bag."""
        t = self.trick
        i = 0
        while i < t.count:  # a range loop's stack words would take the frame past 11
            self.last_trick_items[i] = t.items[i]
            self.last_trick_seats[i] = t.seats[i]
            # die_index() of a die known to be one, inline: its box index
            self.place[_INDEX[(t.items[i] & _IDENTITY_BITS) >> 5]] = _RETURNED
            i += 1
        i = t.seats[w]  # from here: the winner, who keeps the die as a score die
        d = dt.die_of(t.items[w])
        self.score[i][self.score_n[i]] = d
        self.score_n[i] += 1
        self.place[_INDEX[(d & _IDENTITY_BITS) >> 5]] = _SCORE + i
        self.last_trick_count = t.count
        self.last_winner = i
        self.last_leader = t.seats[0]
        self.leader = t.seats[dt.next_leader(t)]
        self.turn = self.leader
        t.clear()
        self.tricks_played += 1
        self.event |= EV_TRICK
        if self.tricks_played == dt.TRICKS:
            self.phase = PHASE_SCORE
            for s in range(self.players):
                self.score_rolled[s] = 0

    # --- the dice, as readers ask ---------------------------------------------------

    def all_items(self):
        """The 42 dice of the box, unrolled (rules-core identities, number 0)."""
        return list(_BOX)

    def inventory(self):
        """Every die where it is now, by identity (number bits cleared, as in
        all_items(); `identity(item)`): the hands, the current trick, the score
        piles and the bag. A test compares sorted(inventory()) with
        sorted(all_items()) directly. The dice with their current numbers are
        in hand(seat) and score_dice(seat). In open play the hands are not
        known: undrawn and unplayed dice are all in the bag."""
        out = []
        for s in range(self.players):
            for j in range(self.hand_n[s]):
                out.append(self.hands[s][j] & _IDENTITY_BITS)
        for i in range(self.trick.count):
            out.append(self.trick.items[i] & _IDENTITY_BITS)
        for s in range(self.players):
            for j in range(self.score_n[s]):
                out.append(self.score[s][j] & _IDENTITY_BITS)
        for i in range(DICE):
            if self.place[i] == BAG or self.place[i] == _RETURNED:
                out.append(_BOX[i])
        return out

    def _score_total(self, s):
        """The numbers of seat s's score dice, added up (match.py's scoring
        asks: the number's mask is a const of this module)."""
        total = 0
        for j in range(self.score_n[s]):
            total += self.score[s][j] & _NUMBER_BITS  # dt.number(), inline
        return total

    def score_dice(self, seat):
        """The seat's score dice this game, in the order won (current numbers)."""
        return [self.score[seat][j] for j in range(self.score_n[seat])]

    def hand(self, seat):
        """The seat's dice in hand (registered hands), in scan order."""
        return [self.hands[seat][j] for j in range(self.hand_n[seat])]
