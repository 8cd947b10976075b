"""Seltsam-Walzer on the host: card names, transcript lines and the heuristic bot."""

import functools

from dicetable.games.walzer import match as engine
from dicetable.games.walzer import rules as walzer
from dicetable.games.walzer import table
from dicetable.match.actions import DEAL, PASS_ITEM, PLAY, action, kind_of, seat_of, value_of
from dicetable.rules.trick import Trick
from sim import ismcts
from sim.gamehost import GameHost, describe_of, nothing

# describe(item): 'red 7', 'blue 11', 'X2': the table's words (table.item_words),
# as the board logs it.
describe = describe_of(table)


def sort_key(item):
    return (walzer.colour(item), walzer.number(item), walzer.copy(item))


def describe_cards(items):
    items = sorted(items, key=sort_key)
    return ", ".join(describe(c) for c in items) if items else "nothing"


def _round_header(match):
    return "round %d of %d: seat %d deals" % (match.round + 1, match.rounds, match.dealer)


def _hand_lines(match):
    return ["  seat %d holds %s" % (s, describe_cards(match.hand(s))) for s in range(match.players)]


def _piles_before_last_trick(match):
    """Each seat's won pile of the round just scored.  The engine empties the
    piles when the next round starts, so fold the journal again up to the
    last play and add the last trick."""
    prior = engine.new(match.players, match.options)
    prior.replay(match.journal[:-1])
    piles = [prior.won_pile(s) for s in range(match.players)]
    piles[match.last_winner].extend(match.last_trick_items[i] for i in range(match.players))
    return piles


def _colour_scores(piles):
    """Per seat, the score of each colour (the rules core's colour_score)."""
    out = [[0, 0, 0] for _ in piles]
    for col in range(walzer.X):
        counts = [sum(1 for c in pile if walzer.colour(c) == col) for pile in piles]
        sums = [sum(walzer.number(c) for c in pile if walzer.colour(c) == col) for pile in piles]
        least = walzer.fewest(counts)
        for s in range(len(piles)):
            out[s][col] = walzer.colour_score(col, counts[s], sums[s], least)
    return out


def _round_lines(match):
    """The round just scored: what each seat took, its score and the totals."""
    scores = match.history[-1]
    piles = _piles_before_last_trick(match)
    parts = _colour_scores(piles)
    lines = [
        "round %d scored (fewest of a colour: sum of numbers; others: count;"
        " red x1, blue x2, green x3):" % len(match.history)
    ]
    for s in range(match.players):
        lines.append("  seat %d took %s" % (s, describe_cards(piles[s])))
        lines.append(
            "    red %d + blue %d + green %d = %d points, total %d"
            % (parts[s][0], parts[s][1], parts[s][2], scores[s], match.totals[s])
        )
    if match.open and not match.over():
        lines.append(_round_header(match) + " (open play: hands not scanned)")
        lines.append("seat %d (the dealer) leads trick 1" % match.dealer)
    return lines


def narrate(match, a):
    """Transcript lines for action `a`, just accepted by `match`."""
    k = kind_of(a)
    seat = seat_of(a)
    card = value_of(a)
    lines = []
    if k == DEAL:
        if sum(match.hand_n) == 1:
            lines.append(_round_header(match))
        if match.phase == engine.PASSING:
            lines.append("the deal is complete, %d cards each:" % match.hand_size)
            lines.extend(_hand_lines(match))
        return lines
    if k == PASS_ITEM:
        lines.append(
            "seat %d passes %s to seat %d" % (seat, describe(card), (seat + 1) % match.players)
        )
        if match.phase == engine.PLAYING:
            lines.append("every seat has passed and takes the 2 cards from its right:")
            lines.extend(_hand_lines(match))
            lines.append("seat %d (the dealer) leads trick 1" % match.dealer)
        return lines
    if k != PLAY:
        return lines
    if match.open and len(match.journal) == 1:
        lines.append(_round_header(match) + " (open play: hands not scanned)")
    lines.append(
        "seat %d %s %s" % (seat, "leads" if match.trick.count == 1 else "plays", describe(card))
    )
    if match.trick.count:
        return lines
    # The trick is complete; the engine copied it to last_trick_* and cleared it.
    won = [match.last_trick_items[i] for i in range(match.players)]
    best = [
        match.last_trick_items[i]
        for i in range(match.players)
        if match.last_trick_seats[i] == match.last_winner
    ][0]
    line = "trick %d: seat %d wins with %s, taking %s" % (
        match.last_trick_no,
        match.last_winner,
        describe(best),
        describe_cards(won),
    )
    if match.last_trick_no < match.hand_size:
        line += "; seat %d leads next" % match.last_winner
    lines.append(line)
    if match.last_trick_no == match.hand_size:
        lines.extend(_round_lines(match))
    return lines


# --- the heuristic bot --------------------------------------------------------------

WORTH_TAKING = 12  # numbers in the trick (times the multipliers) worth winning it for


def _winners(match, cards):
    """The cards that, added to the trick as it stands, would win it so far."""
    t = match.trick
    trial = Trick(match.players)
    for i in range(t.count):
        trial.add(t.seats[i], t.items[i])
    out = []
    for card in cards:
        trial.add(match.turn, card)
        if walzer.resolve(trial) == t.count:
            out.append(card)
        trial.count -= 1  # the next card tried in its place: one copy of the trick a decision
    return out


def _worth(items):
    return sum(walzer.number(c) * walzer.multiplier(walzer.colour(c)) for c in items)


@functools.cache  # a function of the card alone, asked for at every play of every playout
def _cheapness(card):
    # Low numbers first; an X last, as it is the surest way to win a trick.
    return (
        walzer.is_x(card),
        walzer.number(card) * walzer.multiplier(walzer.colour(card)),
        sort_key(card),
    )


def heuristic(match, seat, legal, rng):
    """Pass the two cheapest coloured cards of the longest colour; lead the
    cheapest card; follow by winning cheaply a trick worth taking, else by
    dropping the cheapest card that loses.  In open play the engine knows no
    hand: the bot plays so from a hand drawn among the unseen cards (a
    stand-in only)."""
    kinds = {kind_of(a) for a in legal}
    if PASS_ITEM in kinds:
        hand = [value_of(a) for a in legal]
        counts = [sum(1 for c in hand if walzer.colour(c) == col) for col in range(4)]
        return min(
            legal,
            key=lambda a: (
                walzer.is_x(value_of(a)),
                -counts[walzer.colour(value_of(a))],
                walzer.number(value_of(a)),
                sort_key(value_of(a)),
            ),
        )
    if PLAY not in kinds:
        return rng.choice(legal)
    cards = [value_of(a) for a in legal if kind_of(a) == PLAY]
    if match.open:
        # The engine holds no hand in open play: every unseen card is legal.
        # As many of them as the seat still holds, drawn, stand in for its
        # hand, or every match of heuristic seats would be the same one.
        cards = rng.sample(cards, min(len(cards), match.hand_size - match.tricks_done))
    if match.trick.count == 0:
        return _play(seat, min(cards, key=_cheapness))
    in_trick = [match.trick.items[i] for i in range(match.trick.count)]
    winners = _winners(match, cards)
    losers = [c for c in cards if c not in winners]
    if winners and (_worth(in_trick) >= WORTH_TAKING or not losers):
        return _play(seat, min(winners, key=_cheapness))
    return _play(seat, min(losers or cards, key=_cheapness))


def _play(seat, card):
    return action(PLAY, seat, card)


def open_play_journal(journal, players, options):
    """The same match in open play: no deal and no pass, only the plays."""
    return [a for a in journal if kind_of(a) == PLAY]


# --- the ISMCTS bot's tuning (sim/ismcts.py), chosen by measurement (docs/bots.md,
# "What was measured"): the smallest budget measured to beat the heuristic.

ISMCTS_PLAYOUTS = 100


# --- what a seat sees: determinizations for the ISMCTS bot (sim/ismcts.py) -------------
#
# A seat sees its own deal and passes, the two cards its right neighbour passes
# it (when they arrive) and every card played.  Hidden: the other hands, and
# the cards the others pass.  A finished round hides nothing that matters:
# every card was played face up, so each seat's hand after the pass is known.

HIDDEN_DECISIONS = (PASS_ITEM,)  # another seat's pass: its card is not seen


def observe(match, seat, a):
    """Action `a`, just taken, as `seat` sees it (the search tree's key): the
    action itself, or its kind and seat alone when its card is hidden; the
    pass that completes the exchange also shows `seat` its new hand."""
    k = kind_of(a)
    key = a if k == PLAY or seat_of(a) == seat else ismcts.masked(a)
    if k == PASS_ITEM and match.phase == engine.PLAYING:
        return (key, tuple(match.hand(seat)))
    return key


def only_chance_left(match):
    """Never: a round ends with a play (sim/ismcts.py asks)."""
    return False


def view(match, seat, rng):
    """(prefix, sample): the journal of the finished rounds as `seat` can know
    it, and sample(rng), the round in progress with every card `seat` cannot
    see drawn among the deals consistent with what it saw (its own cards,
    the cards passed to it, every card played and who could not follow).
    Another seat's pass in an exchange still open is left out: the search
    makes it again, unseen, as that seat's decision."""
    journal = match.journal
    if match.open:  # the engine holds no hand: nothing is hidden in it
        return list(journal), nothing
    starts = _round_starts(journal)
    prefix = []
    for i in range(len(starts) - 1):
        done = _RoundView(journal[starts[i] : starts[i + 1]], seat, match, finished=True)
        prefix += done.journal([[] for _ in range(match.players)])
    current = _RoundView(journal[starts[-1] :] if starts else [], seat, match, finished=False)
    return prefix, current.sample


def _round_starts(journal):
    """Where each round's deal begins in a registered journal."""
    return [
        i
        for i, a in enumerate(journal)
        if kind_of(a) == DEAL and (i == 0 or kind_of(journal[i - 1]) != DEAL)
    ]


def _any(card, place):
    return 1


class _RoundView:
    """One round's actions as `seat` knows them, and how to fill in the rest."""

    def __init__(self, actions, seat, match, finished):
        n = match.players
        finished = finished or sum(1 for a in actions if kind_of(a) == PLAY) == len(walzer.deck())
        self.actions, self.seat, self.n = actions, seat, n
        self.plays = [
            [value_of(a) for a in actions if kind_of(a) == PLAY and seat_of(a) == s]
            for s in range(n)
        ]
        self.dealt = [
            sum(1 for a in actions if kind_of(a) == DEAL and seat_of(a) == s) for s in range(n)
        ]
        self.mine = [value_of(a) for a in actions if kind_of(a) == DEAL and seat_of(a) == seat]
        self.passes = [
            value_of(a) for a in actions if kind_of(a) == PASS_ITEM and seat_of(a) == seat
        ]
        self.playing = finished or match.phase in (engine.PLAYING, engine.OVER)
        self.holding = [0] * n if finished else [match.hand_n[s] for s in range(n)]
        self.hand = [] if finished else match.hand(seat)
        self.forbidden = None if finished else ismcts.voids(actions, seat, n, _unfollowed)

    def sample(self, rng):
        """The round's actions with the hidden cards drawn (see view)."""
        if self.playing:
            return self.journal(self._hands(rng))
        slots = [s for s in range(self.n) if s != self.seat for _ in range(self.dealt[s])]
        pool = [c for c in walzer.deck() if c not in self.mine]
        slots += [-1] * (len(pool) - len(slots))  # the cards not dealt yet
        deals = [[] for _ in range(self.n)]
        for s, c in zip(slots, ismcts.deal_hidden(pool, slots, _any, rng), strict=True):
            if s >= 0:
                deals[s].append(c)
        mine = [a for a in self.actions if kind_of(a) == PASS_ITEM and seat_of(a) == self.seat]
        return self._deals(deals) + mine

    def _hands(self, rng):
        """Each seat's hand now: what `seat` knows (its own hand, the cards it
        passed left and not yet played), the rest drawn."""
        n, me = self.n, self.seat
        hands = [[] for _ in range(n)]
        hands[me] = list(self.hand)
        left = (me + 1) % n
        hands[left] = [c for c in self.passes if c not in self.plays[left]]
        seen = set(self.hand) | set(self.passes)
        for s in range(n):
            seen.update(self.plays[s])
        pool = [c for c in walzer.deck() if c not in seen]
        slots = [s for s in range(n) for _ in range(self.holding[s] - len(hands[s]))]
        forbidden = self.forbidden
        assert forbidden is not None  # drawn only in the round in progress

        def weight(card, s):
            return 0 if card in forbidden[s] else 1

        for s, c in zip(slots, ismcts.deal_hidden(pool, slots, weight, rng), strict=True):
            hands[s].append(c)
        return hands

    def journal(self, hands):
        """The round's actions for `hands`, each seat's hand now (all empty
        for a finished round): a seat's hand after the exchange is its hand
        now and its plays; a pass `seat` did not see is any two cards of the
        receiver's hand (the state after the exchange is the same whichever
        they were)."""
        n, me = self.n, self.seat
        after = [sorted(hands[s] + self.plays[s], key=sort_key) for s in range(n)]
        kept = [c for c in self.mine if c not in self.passes]
        passed = [after[(s + 1) % n][: walzer.PASS_CARDS] for s in range(n)]
        passed[me] = list(self.passes)
        passed[(me - 1) % n] = [c for c in after[me] if c not in kept]  # what `seat` received
        deals = [
            [c for c in after[s] if c not in passed[(s - 1) % n]] + passed[s] for s in range(n)
        ]
        out = self._deals(deals) + self._replaced(PASS_ITEM, passed)
        return out + [a for a in self.actions if kind_of(a) == PLAY]

    def _deals(self, deals):
        return self._replaced(DEAL, deals)

    def _replaced(self, kind, cards):
        """The round's actions of `kind` in their order: `seat`'s as they
        were, each other seat's with the next of its `cards`."""
        out = []
        rest = [list(c) for c in cards]
        for a in self.actions:
            if kind_of(a) != kind:
                continue
            s = seat_of(a)
            out.append(a if s == self.seat else action(kind, s, rest[s].pop(0)))
        return out


def _unfollowed(trick, v):
    """The cards whose holding would have obliged a seat to follow where it
    played `v` (the rules core's is_legal over a hand of `v` and that card)."""
    return [c for c in walzer.deck() if c != v and not walzer.is_legal([v, c], 2, trick, v)]


# The game as the simulator knows it (sim/gamehost.py):
# hands and passes are hidden; the cards are shuffled.
HOST = GameHost(
    "walzer",
    hidden_hands=True,
    chance=True,
    narrate=narrate,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    hidden_decisions=HIDDEN_DECISIONS,
    ismcts_playouts=ISMCTS_PLAYOUTS,
    only_chance_left=only_chance_left,
    open_play_journal=open_play_journal,
)
