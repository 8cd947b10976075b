"""Nokosu Dice on the host: item names, transcript lines, the heuristic bot,
and the open-play journal of a registered match."""

import functools

from dicetable.games.nokosu import match as engine
from dicetable.games.nokosu import rules as core
from dicetable.games.nokosu import table
from dicetable.games.nokosu.deal import HAND, every_item
from dicetable.games.nokosu.table import COLOURS as COLOUR_NAMES
from dicetable.match.actions import (
    CHOOSE,
    DEAL,
    PICK,
    PLAY,
    ROLL,
    TABLE,
    ZERO_BID,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.rules.trick import Trick
from sim import ismcts
from sim.gamehost import GameHost, describe_of, nothing

# describe(item): 'red card 7', 'red die 2:4' (the second red die, showing 4), 'red die 2'
# (not rolled yet), 'black die 1': the table's words (table.item_words), as
# the board logs it.
describe = describe_of(table)


def _items(items):
    return ", ".join(describe(i) for i in items) or "nothing"


def _sorted(items):
    # cards first, by colour and number; then dice likewise
    return sorted(
        items, key=lambda i: (core.is_die(i), core.colour(i), core.number(i), core.index(i))
    )


def _round_header(match):
    return "round %d of %d: seat %d is the start player" % (
        match.round + 1,
        match.rounds,
        match.start,
    )


def narrate(match, a):
    """Transcript lines for action `a`, just accepted by `match`."""
    k = kind_of(a)
    lines = []
    if len(match.journal) == 1 and k != CHOOSE:
        lines.append(_round_header(match))
    narrator = {
        CHOOSE: _narrate_setup,
        DEAL: _narrate_deal,
        ROLL: _narrate_roll,
        PICK: _narrate_pick,
        ZERO_BID: _narrate_pick,
        PLAY: _narrate_play,
    }.get(k)
    if narrator is not None:
        narrator(match, a, lines)
    return lines


def _narrate_setup(match, a, lines):
    lines.append(
        "setup: the table removes %s (its cards and dice), every 7, and one die "
        "of each other colour" % COLOUR_NAMES[value_of(a)]
    )
    lines.append(_round_header(match))


def _narrate_deal(match, a, lines):
    if not core.is_die(value_of(a)) and match.phase != engine.DEALING:
        lines.append("cards dealt:")
        for s in range(match.players):
            lines.append("  seat %d: %s" % (s, _items(_sorted(match.hand(s)))))


def _narrate_roll(match, a, lines):
    die = value_of(match.journal[-2])  # the DEAL just before: the die rolled
    if seat_of(match.journal[-2]) != TABLE:
        owner = seat_of(match.journal[-2])
        shown = core.rolled(die, value_of(a))
        roller = "the table rolls" if seat_of(a) == TABLE else "rolls"
        lines.append(
            "seat %d draws a %s die from the bag, %s %d"
            % (owner, COLOUR_NAMES[core.colour(die)], roller, core.number(shown))
        )
    elif match.phase == engine.DRAFTING:
        centre = _sorted(match.centre())
        lines.append(
            "seat %d, the start player, rolls %d dice into the centre: %s"
            % (match.start, len(centre), _items(centre))
        )


def _narrate_pick(match, a, lines):
    seat, v = seat_of(a), value_of(a)
    if kind_of(a) == PICK:
        lines.append("seat %d takes %s from the centre" % (seat, describe(v)))
    else:
        lines.append(
            "seat %d bids zero: takes a black die and returns %s to the bag" % (seat, describe(v))
        )
    if match.phase == engine.PLAYING:
        ind = match.item(match.indicator)
        lines.append(
            "trump indicator: %s; %s is trump and every %d counts as %s"
            % (
                describe(ind),
                COLOUR_NAMES[match.trump_colour],
                match.trump_number,
                COLOUR_NAMES[match.trump_colour],
            )
        )
        for s in range(match.players):
            dice = [i for i in match.hand(s) if core.is_die(i)]
            lines.append("  seat %d dice: %s" % (s, _items(_sorted(dice))))
        lines.append("seat %d, the start player, leads the first trick" % match.turn)


def _narrate_play(match, a, lines):
    lines.append("seat %d plays %s" % (seat_of(a), describe(value_of(a))))
    if match.trick.count == 0:  # the trick is complete
        lines.extend(_trick_lines(match))


def _count(n, noun):
    return "%d %s%s" % (n, noun, "" if n == 1 else "s")


def _trick_lines(match):
    w = match.last_winner
    won_with = 0
    for i in range(match.players):
        if match.last_trick_seats[i] == w:
            won_with = match.last_trick_items[i]
    lines = []
    text = "trick %d: seat %d wins with %s" % (match.last_trick_no, w, describe(won_with))
    if match.last_trick_no < match.tricks_per_round:
        lines.append(text + "; seat %d leads next" % w)
        return lines
    lines.append(text)
    scores = match.history[-1]
    lines.append("round %d scores:" % len(match.history))
    for s in range(match.players):
        kept = match.kept[s]
        lines.append(
            "  seat %d: kept %s (bid %d), took %s: %s, total %d"
            % (
                s,
                describe(kept),
                match.last_bids[s],
                _count(match.last_tricks[s], "trick"),
                _count(scores[s], "point"),
                match.totals[s],
            )
        )
    if not match.over():
        lines.append(_round_header(match))
    return lines


# ---------------------------------------------------------------- the bot


def _closest(dice, target):
    return min(dice, key=lambda d: (abs(core.number(d) - target), -core.number(d), d))


def _draft(match, seat, legal, rng):
    hand = match.hand(seat)
    # A rough trick estimate: about one trick for every two high items.
    strong = sum(1 for i in hand if not core.is_black(i) and core.number(i) >= 5)
    if match.open:  # the cards are not known to the table: count an average hand
        strong += match.cards_each * 3 // 8
    estimate = strong // 2
    zero = [a for a in legal if kind_of(a) == ZERO_BID]
    picks = [a for a in legal if kind_of(a) == PICK]
    if zero and estimate == 0 and not any(core.is_black(i) for i in hand):
        # Return the highest centre die, so no one else gets it.
        best = max(core.number(value_of(a)) for a in zero)
        return rng.choice([a for a in zero if core.number(value_of(a)) == best])
    dice = [i for i in hand if core.is_die(i) and not core.is_black(i)]
    if not any(core.number(d) == estimate for d in dice):
        bid_dice = [a for a in picks if core.number(value_of(a)) == estimate]
        if bid_dice:
            return rng.choice(bid_dice)
    best = max(core.number(value_of(a)) for a in picks)
    return rng.choice([a for a in picks if core.number(value_of(a)) == best])


# The rules core's facts of an item that _plan and _play ask at every play of
# every playout, looked up by value (items are 10 bits: _ITEM_VALUES) instead of
# asked: the core's calls were most of the heuristic's time.
_ITEM_VALUES = range(1 << 10)
_BLACK = bytes(core.is_black(i) for i in _ITEM_VALUES)
_DIE = bytes(core.is_die(i) for i in _ITEM_VALUES)


@functools.cache
def _strong(tc, tn):
    """Per item value, 1 for an item _plan counts as strong under this trump
    (a trump number, or a trump colour of 4 or more), else 0."""
    out = bytearray(len(_ITEM_VALUES))
    for i in _ITEM_VALUES:
        t = core.tier(i, core.NO_COLOUR, tc, tn)
        trump_colour_high = t == core.TIER_TRUMP_COLOUR and core.number(i) >= 4
        out[i] = t >= core.TIER_TRUMP_NUMBER or trump_colour_high
    return bytes(out)


@functools.cache
def _powers(led, tc, tn):
    """Per item value, its strength (the core's) in a trick led `led` under
    this trump; led NO_COLOUR: an item leading, in its own effective colour."""
    if led == core.NO_COLOUR:
        return tuple(
            core.strength(i, core.effective_colour(i, tc, tn), tc, tn) for i in _ITEM_VALUES
        )
    return tuple(core.strength(i, led, tc, tn) for i in _ITEM_VALUES)


def _plan(match, seat, hand):
    """(the item to keep, the bid it makes) for this seat now."""
    for i in hand:
        if _BLACK[i]:
            return i, 0
    strong = sum(map(_strong(match.trump_colour, match.trump_number).__getitem__, hand))
    keep = _closest([i for i in hand if _DIE[i]], match.tricks[seat] + strong)
    return keep, core.number(keep)


_IDENTITY = every_item()  # slot by slot, as the engine lays out its places


def _hand(match, seat):
    """match.hand(seat) in the same (slot) order, found with bytearray.find
    over the engine's places: its loop over every slot was a tenth of a
    Nokosu playout, called at every play."""
    loc, face, where = match.loc, match.face, HAND + seat
    out = []
    slot = loc.find(where)
    while slot >= 0:
        out.append(_IDENTITY[slot] | face[slot])
        slot = loc.find(where, slot + 1)
    return out


def _play(match, seat, legal):
    tc, tn = match.trump_colour, match.trump_number
    keep, bid = _plan(match, seat, _hand(match, seat))
    values = [value_of(a) for a in legal]
    plays = list(values)
    if len(plays) > 1 and keep in plays:
        plays.remove(keep)
    trick = match.trick
    if trick.count == 0:
        power = _powers(core.NO_COLOUR, tc, tn)
        wins = plays
    else:
        power = _powers(core.led_colour(trick, tc, tn), tc, tn)
        best = max(power[trick.items[j]] for j in range(trick.count))
        wins = [i for i in plays if power[i] > 0 and power[i] >= best]

    def strength_order(i):
        return (power[i], core.number(i), i)

    # Every key ends with the item itself, so each minimum and maximum is one
    # item whatever the order the plays come in.
    need = bid - match.tricks[seat]
    if need > 0:
        if trick.count == 0:
            choice = max(plays, key=strength_order)  # lead the strongest
        elif wins:
            choice = min(wins, key=strength_order)  # win cheaply
        else:
            choice = min(plays, key=lambda i: (core.number(i), i))  # shed the lowest
    else:
        losers = [i for i in plays if i not in wins]
        if trick.count == 0 or not losers:
            choice = min(plays, key=strength_order)  # lead (or play) the weakest
        else:
            choice = max(losers, key=lambda i: (core.number(i), i))  # dump the highest loser
    return legal[values.index(choice)]


def heuristic(match, seat, legal, rng):
    """Draft toward a die that matches the hand's strength (zero-bid with a
    weak hand); in play keep the die closest to the tricks expected, win
    cheaply while short of the bid, otherwise dump the highest loser."""
    k = kind_of(legal[0])
    if match.phase == engine.DRAFTING:
        return _draft(match, seat, legal, rng)
    if match.phase == engine.PLAYING and k == PLAY:
        return _play(match, seat, legal)
    return rng.choice(legal)  # a roll (or anything else: chance)


def open_play_journal(journal, players, options):
    """The same match's journal in open play: the card deal is dropped (cards
    are not scanned); the dice draws, rolls, picks, zero bids and plays stay."""
    return [a for a in journal if not (kind_of(a) == DEAL and not core.is_die(value_of(a)))]


# --- the ISMCTS bot's tuning (sim/ismcts.py), chosen by measurement (docs/bots.md,
# "What was measured"): the smallest budget measured to beat the heuristic.

ISMCTS_PLAYOUTS = 100


# --- what a seat sees: determinizations for the ISMCTS bot (sim/ismcts.py) -------------
#
# Dice lie face up and every action but the card deal is public, so a seat sees
# everything but the other seats' cards (and, with three players, the card
# left out of the deal).  A finished round hides nothing: every card dealt is
# played face up (only a die is kept), and the card left out is the one never
# played.

HIDDEN_DECISIONS = ()  # every decision (pick, zero bid, play) is public


def observe(match, seat, a):
    """Action `a`, just taken, as `seat` sees it (the search tree's key): the
    action itself, or its kind and seat alone for a card dealt to another seat."""
    if kind_of(a) == DEAL and seat_of(a) not in (seat, TABLE) and not core.is_die(value_of(a)):
        return ismcts.masked(a)
    return a


def only_chance_left(match):
    """Never: a round ends with a play (sim/ismcts.py asks)."""
    return False


def view(match, seat, rng):
    """(prefix, sample): the journal of the finished rounds as `seat` can know
    it, and sample(rng), the round in progress with the other seats' cards
    drawn among the deals consistent with what `seat` saw (its own cards,
    every item played, and who could not follow)."""
    journal = match.journal
    if match.open:  # the engine holds no cards: nothing is hidden in it
        return list(journal), nothing
    starts = _round_starts(journal)
    prefix = list(journal[: starts[0]]) if starts else list(journal)
    for i in range(len(starts) - 1):
        done = _RoundView(journal[starts[i] : starts[i + 1]], seat, match, current=False)
        prefix += done.journal([[] for _ in range(match.players)])
    if not starts:
        return prefix, nothing
    return prefix, _RoundView(journal[starts[-1] :], seat, match, current=True).sample


def _is_card_deal(a):
    return kind_of(a) == DEAL and not core.is_die(value_of(a))


def _round_starts(journal):
    """Where each round's card deal begins in a registered journal."""
    return [
        i
        for i, a in enumerate(journal)
        if _is_card_deal(a) and (i == 0 or not _is_card_deal(journal[i - 1]))
    ]


class _RoundView:
    """One round's actions as `seat` knows them, and how to fill in the rest."""

    def __init__(self, actions, seat, match, current):
        n = match.players
        self.actions, self.seat, self.n = actions, seat, n
        deals = [a for a in actions if _is_card_deal(a)]
        self.dealt = [sum(1 for a in deals if seat_of(a) == s) for s in range(n)]
        self.mine = [value_of(a) for a in deals if seat_of(a) == seat]
        plays = [a for a in actions if kind_of(a) == PLAY]
        self.plays = [
            [value_of(a) for a in plays if seat_of(a) == s and not core.is_die(value_of(a))]
            for s in range(n)
        ]
        self.cards = core.cards_in_play(n, match.removed)
        self.finished = len(plays) == n * match.tricks_per_round
        self.deal_over = sum(self.dealt) == n * match.cards_each
        self.holding = [match.cards_left[s] for s in range(n)]
        trump = (match.trump_colour, match.trump_number)
        self.forbidden = _voids(actions, seat, n, self.cards, trump) if current else None

    def sample(self, rng):
        """The round's actions with the hidden cards drawn (see view)."""
        if self.finished:
            return self.journal([[] for _ in range(self.n)])
        n, me = self.n, self.seat
        seen = set(self.mine)
        for s in range(n):
            seen.update(self.plays[s])
        pool = [c for c in self.cards if c not in seen]
        if self.deal_over:
            slots = [s for s in range(n) if s != me for _ in range(self.holding[s])]
        else:
            slots = [s for s in range(n) if s != me for _ in range(self.dealt[s])]
        slots += [-1] * (len(pool) - len(slots))  # not dealt (yet, or at all)
        forbidden = self.forbidden
        assert forbidden is not None  # drawn only in the round in progress

        def weight(card, s):
            return 0 if s >= 0 and card in forbidden[s] else 1

        hands = [[] for _ in range(n)]
        for s, c in zip(slots, ismcts.deal_hidden(pool, slots, weight, rng), strict=True):
            if s >= 0:
                hands[s].append(c)
        return self.journal(hands)

    def journal(self, hands):
        """The round's actions for `hands`, the cards each other seat holds now
        (before the deal is over: has been dealt so far), plus its plays."""
        rest = [sorted(hands[s] + self.plays[s]) for s in range(self.n)]
        out = []
        for a in self.actions:
            s = seat_of(a)
            if _is_card_deal(a) and s != self.seat:
                a = action(DEAL, s, rest[s].pop(0))
            out.append(a)
        return out


def _voids(actions, seat, n, cards, trump):
    """Per seat, the cards it showed it does not hold: a card that would have
    made its play illegal (the rules core's is_legal over its dice then, which
    are public, the item played and that card).  `trump`: the round's trump
    colour and number, known once the plays begin."""
    forbidden = [set() for _ in range(n)]
    dice = [[] for _ in range(n)]
    trick = Trick(n)
    for a in _dice_moves(actions, dice):
        s, v = seat_of(a), value_of(a)
        if s != seat and trick.count and not _follows(trick, v, trump):
            known = dice[s] + ([] if core.is_die(v) else [v])
            for c in cards:
                if c != v and not core.is_legal(known + [c], len(known) + 1, trick, v, *trump):
                    forbidden[s].add(c)
        if core.is_die(v):
            dice[s].remove(v)
        trick.add(s, v)
        if trick.count == n:
            trick.clear()
    return forbidden


def _follows(trick, item, trump):
    """Is `item` of the colour led (then its play shows nothing of the hand)?"""
    return core.effective_colour(item, *trump) == core.led_colour(trick, *trump)


def _dice_moves(actions, dice):
    """The round's plays, in order, with `dice` (per seat, the dice it holds,
    as they show) kept up to date before each is yielded."""
    drawn = blacks = 0
    for a in actions:
        k, s, v = kind_of(a), seat_of(a), value_of(a)
        if k == DEAL and core.is_die(v) and s != TABLE:
            drawn = (s, v)
        elif k == ROLL and drawn:
            dice[drawn[0]].append(core.rolled(drawn[1], v))
            drawn = 0
        elif k == PICK:
            dice[s].append(v)
        elif k == ZERO_BID:
            dice[s].append(core.black_die(blacks))  # the lower-numbered one left
            blacks += 1
        elif k == PLAY:
            yield a


def centre(match):
    """The centre's dice (sim/table_view.py)."""
    return list(match.centre())


# The game as the simulator knows it (sim/gamehost.py):
# the cards in hand are hidden; cards are dealt and dice rolled.
# The LED legend's example of what the ring shows in a match of this game.
RING_LEGEND = (
    {"trump_number": 3, "trump_colour": 0},
    "the trump",
    "Nokosu: the trump number in the trump's colour (here red 3).",
)

HOST = GameHost(
    "nokosu",
    hidden_hands=True,
    chance=True,
    narrate=narrate,
    ring_legend=RING_LEGEND,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    centre=centre,
    hidden_decisions=HIDDEN_DECISIONS,
    ismcts_playouts=ISMCTS_PLAYOUTS,
    only_chance_left=only_chance_left,
    open_play_journal=open_play_journal,
)
