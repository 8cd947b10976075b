"""Nokosu Dice's match engine, a round up to its tricks: the colour removed
(CHOOSING), the cards dealt (DEALING), the dice drawn and rolled (DRAWING,
CENTRE) and the draft (DRAFTING), which ends in the trump indicator.

NokosuDeal keeps the place of every item (`loc`, one byte a slot) and every
die's face, and the match's state, made here as every phase reads it; it
starts each phase and takes the actions of these five.  match.py's
NokosuMatch is built on it: the tricks, the round's scoring, and what every
phase waits for, refuses and offers (its docstring says how a match runs).
Those refusals and listings of the phases here are match.py's too, so that
the action kinds and refusal codes are the globals of one module on the
board's heap, not of two (this module imports only PICK).
"""

from array import array

from micropython import const

from dicetable.games.nokosu import rules as core
from dicetable.match.actions import PICK
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, Match, check_header, fill
from dicetable.rules.trick import Trick

# Phases.
CHOOSING = const(0)
DEALING = const(1)
DRAWING = const(2)
CENTRE = const(3)
DRAFTING = const(4)
PLAYING = const(5)
OVER = const(6)

_FIRST_START = const(0)  # the first round's start player

# Places of an item (loc[slot]).
BOX = const(0)  # not in this match's configuration
DECK = const(1)  # a card not dealt (open play: not yet played)
BAG = const(2)  # a coloured die in the bag
BESIDE = const(3)  # a black die beside the bag
IN_CENTRE = const(4)  # a die in the centre, not yet taken
INDICATOR = const(5)  # the trump indicator
IN_TRICK = const(6)  # played to the trick in progress
HAND = const(8)  # HAND + seat: held by a seat (cards hidden, dice in front)
WON = const(16)  # WON + seat: in a trick that seat took

# Slots: one per physical item.  Cards colour*8 + number (0-39), coloured
# dice 40 + colour*5 + index (40-64), black dice 65-66.
_CARD_SLOTS = const(40)
_DIE_SLOT0 = const(40)
_BLACK_SLOT0 = const(65)
SLOTS = const(67)
_ENCODING_BITS = const(0x3FF)  # the core's items use bits 0-9

# The core's item layout (rules.py), read inline by slot_of(): it runs on
# every play, and the core's colour(), index() and number() would each be a
# call below it on the board's C stack.
_NUMBER_MASK = const(0x07)
_COLOUR_SHIFT = const(3)
_DIE_BIT = const(0x40)
_INDEX_SHIFT = const(7)
_FIELD_MASK = const(0x07)  # a colour's or an index's bits


def slot_of(item):
    """The slot of an item value, its die face ignored; -1 if no such item."""
    if item & ~_ENCODING_BITS:
        return -1
    c = (item >> _COLOUR_SHIFT) & _FIELD_MASK  # core.colour(item)
    i = (item >> _INDEX_SHIFT) & _FIELD_MASK  # core.index(item)
    if not item & _DIE_BIT:
        if i != 0 or c >= core.COLOURS:
            return -1
        return c * 8 + (item & _NUMBER_MASK)
    if c == core.BLACK:
        if i >= core.BLACK_DICE or item & _NUMBER_MASK != 0:
            return -1
        return _BLACK_SLOT0 + i
    if c >= core.COLOURS or i >= core.DICE_PER_COLOUR:
        return -1
    return _DIE_SLOT0 + c * core.DICE_PER_COLOUR + i


def identity(item):
    """A physical item without its die face: cards as printed, dice number 0."""
    if core.is_die(item):
        return core.rolled(item, 0)
    return item


def _slot_identity(slot):
    if slot < _CARD_SLOTS:
        return core.card(slot >> 3, slot & 7)
    if slot < _BLACK_SLOT0:
        d = slot - _DIE_SLOT0
        return core.die(d // core.DICE_PER_COLOUR, d % core.DICE_PER_COLOUR, 0)
    return core.black_die(slot - _BLACK_SLOT0)


# The identity of the item in each slot; a die's face is or-ed in (item()).
_IDENTITY = tuple([_slot_identity(s) for s in range(SLOTS)])
del _slot_identity  # its code, needed no more, goes back to the heap


def every_item():
    """Every physical item, slot by slot, as identities (dice number 0): what
    a tag can be registered as, and what five players have in play (R12)."""
    return list(_IDENTITY)


def _configurations(players):
    """Per slot, a bit for every configuration that puts its item in play:
    bit c for colour c removed (3 players, R12), bit 0 when none is.  Made
    once per match, so that configuring a round (at every refold) only
    reads it; asked of the core's in_play, item by item (the core's lists
    of the sets are three calls deeper on the board's C stack)."""
    sets = bytearray(SLOTS)
    if core.setup(players)[core.SETUP_COLOURS_REMOVED]:
        for c in range(core.COLOURS):
            for s in range(SLOTS):
                if core.in_play(_IDENTITY[s], players, c):
                    sets[s] |= 1 << c
    else:
        for s in range(SLOTS):
            if core.in_play(_IDENTITY[s], players, core.NO_COLOUR):
                sets[s] = 1
    return sets


class NokosuDeal(Match):
    """A round up to its tricks (NokosuMatch's base): the items' places and
    faces, and the phases CHOOSING to DRAFTING."""

    def __init__(self, players, options=0):
        check_header(type(self), players, options)
        n = players
        self.in_play = _configurations(n)  # per slot: with which colour removed
        self.loc = bytearray(SLOTS)
        self.face = bytearray(SLOTS)
        self.cards_left = bytearray(n)
        self.tricks = bytearray(n)
        self.trick = Trick(n)
        self.last_trick_items = array("H", [0] * n)
        self.last_trick_seats = bytearray(n)
        self.kept = array("H", [0] * n)
        self.last_bids = bytearray(n)
        self.last_tricks = bytearray(n)
        self.totals = [0] * n
        # Match.__init__'s steps, spelled out: reset() then runs a frame
        # nearer the table app's call (games.new_match) on the board's C stack.
        self.players = players
        self.options = options
        self.journal = []
        self.make_history(self.count_option(n))  # a row per round
        self.reset()

    def reset(self):
        self.open = self.flag(OPEN_PLAY)
        self.table_rolls = self.flag(TABLE_ROLLS)
        row = core.setup(self.players)
        self.cards_each = row[core.SETUP_CARDS_EACH]
        self.drawn_each = row[core.SETUP_DICE_DRAWN]
        self.centre_dice = row[core.SETUP_CENTRE]
        self.taken_each = row[core.SETUP_TAKEN_EACH]
        self.tricks_per_round = row[core.SETUP_TRICKS]
        self.rounds = self.count_option(self.players)
        self.removed = core.NO_COLOUR
        self.removes_colour = row[core.SETUP_COLOURS_REMOVED] != 0
        fill(self.loc, BOX)  # every slot starts in the box
        fill(self.face, 0)  # a coloured die's face, 0 unrolled
        fill(self.cards_left, 0)  # cards a seat holds
        fill(self.tricks, 0)  # tricks taken this round
        self.trick.clear()
        fill(self.last_trick_items, 0)
        fill(self.last_trick_seats, 0)
        self.last_winner = -1
        self.last_leader = -1
        self.last_trick_no = 0
        fill(self.kept, 0)  # the kept item per seat, last scored round
        fill(self.last_bids, 0)  # the kept die's number (black 0)
        fill(self.last_tricks, 0)
        fill(self.totals, 0)
        self.reset_history()
        self.round = 0  # rounds scored so far
        self.start = _FIRST_START
        self.turn = -1  # the seat on turn (draw, draft, play)
        self.leader = -1  # the seat that led the trick in progress
        self.pending = -1  # slot of a drawn die awaiting its roll
        self.left = 0  # dice still to draw (this seat / the centre)
        self.takes = 0  # centre dice still to take this round
        self.trump_colour = core.NO_COLOUR
        self.trump_number = -1
        self.indicator = -1  # slot of the trump indicator
        self.tricks_done = 0
        if self.removes_colour:
            self.phase = CHOOSING
        else:
            self._configure()
            self._start_round()

    # --- items and places ------------------------------------------------------

    def _configure(self):
        """Put every item of this configuration in play (R12 sets from the core)."""
        bit = 1 << self.removed if self.removes_colour else 1
        for slot in range(SLOTS):
            if self.in_play[slot] & bit:
                self.loc[slot] = DECK

    def item(self, slot):
        """The item in a slot as it is now (a die with its face)."""
        return _IDENTITY[slot] | self.face[slot]

    def all_items(self):
        """Every physical item of this configuration, as identities (dice
        number 0): the R12 cards and bag dice from the core, and the two black
        dice.  With 3 players, empty until the removed colour is chosen."""
        if self.removed == core.NO_COLOUR and self.removes_colour:
            return []
        n = self.players
        return (
            core.cards_in_play(n, self.removed)
            + core.dice_in_bag(n, self.removed)
            + core.black_dice()
        )

    def inventory(self):
        """Every item in every place now: deck, bag, beside the bag, centre,
        indicator, trick in progress, hands, won tricks.  Items are listed as
        identities (a die's number bits cleared, as all_items() lists them), so
        the test compares sorted(inventory()) == sorted(all_items()) directly;
        the faces as they show are in places(), hand(seat), centre()."""
        out = []
        for slot in range(SLOTS):
            if self.loc[slot] != BOX:
                out.append(_IDENTITY[slot])
        return out

    def places(self):
        """[(place name, items as they show)], every place that holds an item."""
        names = {
            DECK: "deck",
            BAG: "bag",
            BESIDE: "beside the bag",
            IN_CENTRE: "centre",
            INDICATOR: "indicator",
            IN_TRICK: "trick",
        }
        found = {}
        for slot in range(SLOTS):
            where = self.loc[slot]
            if where == BOX:
                continue
            if where >= WON:
                name = "won %d" % (where - WON)
            elif where >= HAND:
                name = "hand %d" % (where - HAND)
            else:
                name = names[where]
            found.setdefault(name, []).append(self.item(slot))
        return sorted(found.items())

    def _collect(self, want, buf):
        """Copy the items whose place is `want` into `buf`, as they show, in
        slot order; return how many."""
        # Every legality check and listing starts here: item() inlined, the
        # buffers in locals.
        n = 0
        loc = self.loc
        face = self.face
        for s in range(SLOTS):
            if loc[s] == want:
                buf[n] = _IDENTITY[s] | face[s]
                n += 1
        return n

    def _holds_black(self, seat):
        for s in range(_BLACK_SLOT0, SLOTS):
            if self.loc[s] == HAND + seat:
                return True
        return False

    def _free_black(self):
        """Slot of the lower-numbered black die beside the bag, or -1."""
        for s in range(_BLACK_SLOT0, SLOTS):
            if self.loc[s] == BESIDE:
                return s
        return -1

    # --- round structure ---------------------------------------------------------

    def _start_round(self):
        for s in range(SLOTS):
            if self.loc[s] != BOX:
                if s < _CARD_SLOTS:
                    self.loc[s] = DECK
                elif s < _BLACK_SLOT0:
                    self.loc[s] = BAG
                else:
                    self.loc[s] = BESIDE
            self.face[s] = 0
        for seat in range(self.players):
            self.tricks[seat] = 0
            self.cards_left[seat] = 0
        self.trick.clear()
        self.tricks_done = 0
        self.trump_colour = core.NO_COLOUR
        self.trump_number = -1
        self.indicator = -1
        self.pending = -1
        self.leader = -1
        if self.open:
            for seat in range(self.players):
                self.cards_left[seat] = self.cards_each
            self._start_draw()
        else:
            self.phase = DEALING
            self.turn = -1

    def _start_draw(self):
        self.phase = DRAWING
        self.turn = (self.start + 1) % self.players
        self.left = self.drawn_each

    def _start_centre(self):
        self.phase = CENTRE
        self.turn = self.start
        self.left = self.centre_dice

    def _start_draft(self):
        self.phase = DRAFTING
        self.turn = (self.start + 1) % self.players
        self.takes = self.taken_each * self.players

    def _start_play(self):
        for s in range(SLOTS):
            if self.loc[s] == IN_CENTRE:  # the one die left (R12 counts)
                self.loc[s] = INDICATOR
                self.indicator = s
        ind = _IDENTITY[self.indicator] | self.face[self.indicator]  # item(), inline
        self.trump_colour = core.colour(ind)
        self.trump_number = core.number(ind)
        self.phase = PLAYING
        self.turn = self.start  # the start player leads the first trick
        self.leader = self.start

    # --- taking an action of those phases ----------------------------------------

    def _deal(self, seat, v):
        self.loc[slot_of(v)] = HAND + seat
        self.cards_left[seat] += 1
        for s in range(self.players):
            if self.cards_left[s] < self.cards_each:
                return
        self._start_draw()

    def _draw(self, seat, slot):
        self.pending = slot
        self.loc[slot] = IN_CENTRE if self.phase == CENTRE else HAND + seat

    def _roll(self, v):
        self.face[self.pending] = v
        self.pending = -1
        self.left -= 1
        if self.left:
            return
        if self.phase == CENTRE:
            self._start_draft()
        elif self.turn == self.start:
            self._start_centre()
        else:
            self.turn = (self.turn + 1) % self.players
            self.left = self.drawn_each

    def _take(self, k, seat, slot):
        if k == PICK:
            self.loc[slot] = HAND + seat
        else:  # ZERO_BID: a black die in, the chosen centre die back to the bag
            self.loc[self._free_black()] = HAND + seat
            self.loc[slot] = BAG
            self.face[slot] = 0
        self.takes -= 1
        if self.takes:
            self.turn = (self.turn + 1) % self.players
