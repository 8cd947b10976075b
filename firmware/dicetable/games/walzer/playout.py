"""Seltsam-Walzer's random playout: the match played to its end at random,
for the designers' batches and the benches (never flashed: host_tools.flash
and firmware/manifest.py leave every game's playout.py out, so the board's
heap never holds it).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py).  It is
faster because a phase's actions are drawn and applied in one loop with the
state in locals: the undealt cards a list in deck order, each hand a list in
deck order with its count per colour (in open play the unplayed cards, any
seat's), so that a card drawn among those the follow rule allows (a
colour's run and the X cards at the end) is found by its index, without a
walk of the hand; the trick's result reckoned as the cards arrive and a
round's scores once a round, from the core's rules
(tests/test_playout_cards.py checks them against the core's resolve() and
round_scores()).  A round's state stays in locals from its deal to its
scores: the places the engine keeps per card are written only in the last
round, which the final state shows.
"""

from dicetable.games.walzer import rules as walzer
from dicetable.games.walzer.deal import (
    _DECK,
    _SLOTS,
    DEALING,
    IN_HAND,
    NOWHERE,
    OVER,
    PASSED,
    PASSING,
    WON,
)
from dicetable.match.actions import DEAL, PASS_ITEM, PLAY, action

_X = walzer.X
# Per card value: its slot in the deck and its colour (the core's).
_SLOT = [_SLOTS[v] - 1 for v in range(256)]
_COLOUR = [walzer.colour(v) for v in range(256)]
# The colour a lead card obliges a hand holding that colour to follow (the
# X cards follow anything), or ANY: the core's obligation() over a hand of the
# lead alone.
_OWED = [walzer.obligation([v], 1, v) for v in range(256)]
_OPEN_OWED = [walzer.ANY] * 256  # open play: the table checks no follow rule
# A card's key in a trick led by a card: an X card's _X_KEY; a coloured
# card's number where it can win (the lead's colour; after an X lead, every
# colour), else -1.
_X_KEY = -2
_KEYS = [
    [
        _X_KEY if walzer.is_x(v) else walzer.number(v) if c == _X or walzer.colour(v) == c else -1
        for v in range(256)
    ]
    for c in range(_X + 1)
]
_KEY = [_KEYS[walzer.colour(v)] for v in range(256)]
# A coloured card counted (bit 7) and summed (bits 0-6) in its colour's field
# of 12 bits: a seat's won cards are one int, its scores read from it.
_FIELD = 12
_PACK = [
    0 if walzer.colour(v) == _X else (128 | walzer.number(v)) << (_FIELD * walzer.colour(v))
    for v in range(256)
]
# The core's multiplier() per colour: a colour's score is its cards' count,
# or their sum for the fewest held, times it (colour_score(); a seat holding
# none scores 0 either way).
_MULTIPLIER = [walzer.multiplier(c) for c in range(_X)]
# A hand: one list in deck order (a card's value orders it: red, blue,
# green, then the X cards), with its count per colour, a fifth always 0
# (count[ANY]: nothing owed): a colour's cards are one run of the list.
_ANY = walzer.ANY


def _words(kind):
    return [action(kind, s, 0) for s in range(8)]


_DEAL_W = _words(DEAL)
_PASS_W = _words(PASS_ITEM)
_PLAY_W = _words(PLAY)


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    m = match
    if m.phase == OVER:
        return
    n = m.players
    journal = m.journal.append
    nxt = [(s + 1) % n for s in range(n)]
    hands, rest, passed, won = _places(m)
    if m.open:
        hands = [rest] * n
    counts = _counts(hands)
    passes = list(m.passed_n)
    t = m.trick
    items = list(t.items)
    seats = list(t.seats)
    early = t.count
    phase = m.phase
    while True:
        if phase == DEALING:
            _deal(draw, journal, rest, hands, m.hand_size)
            counts = _counts(hands)
        if phase <= PASSING:
            _pass(draw, journal, hands, counts, passed, passes, nxt)
            m.turn = m.dealer
        seat = _tricks(m, draw, journal, hands, counts, nxt, items, seats, early, won)
        _score(m, won)
        if m.round >= m.rounds:
            break
        # The next round, as _start_round makes it.
        m.dealer = nxt[m.dealer]
        m.turn = m.dealer
        m.tricks_done = 0
        if m.open:
            hands = [list(_DECK)] * n
            counts = _counts(hands)
        else:
            phase = DEALING
            rest = list(_DECK)
            hands = [[] for _ in range(n)]
        passes = [0] * n
        won = [0] * n
        early = 0
    _end(m, items, seats, seat)


def _places(m):
    """The round so far, from the places: each hand, the undealt (open
    play: unplayed) cards, the cards being passed (card | passer << 8), each
    seat's won cards."""
    hands = [[] for _ in range(m.players)]
    rest = []
    passed = []
    won = [0] * m.players
    for i in range(len(_DECK)):
        w = m.place[i]
        v = _DECK[i]
        if w == NOWHERE:
            rest.append(v)
        elif w & ~7 == IN_HAND:
            hands[w & 7].append(v)
        elif w & ~7 == PASSED:
            passed.append(v | (w & 7) << 8)
        elif w & ~7 == WON:
            won[w & 7] += _PACK[v]
    return hands, rest, passed, won


def _counts(hands):
    """Each hand in deck order, and its count per colour (hands shared by
    every seat, open play's, share their counts)."""
    counts = []
    for h in hands:
        if counts and h is hands[0]:
            counts.append(counts[0])
            continue
        h.sort()
        count = [0] * (_ANY + 1)
        for v in h:
            count[_COLOUR[v]] += 1
        counts.append(count)
    return counts


def _tricks(m, draw, journal, hands, counts, nxt, items, seats, early, won):
    """The round's tricks to its end (the last round's won cards placed):
    the last winner."""
    owes = _OPEN_OWED if m.open else _OWED
    place = m.place if m.round + 1 >= m.rounds else None
    seat = m.turn
    for _ in range(m.tricks_done, m.hand_size):
        seat = _trick(draw, journal, hands, counts, owes, nxt, items, seats, early, seat, won)
        early = 0
        if place is not None:
            for j in range(len(nxt)):
                place[_SLOT[items[j]]] = WON | seat
    return seat


def _deal(draw, journal, rest, hands, size):
    """The table deals every undealt card: one draw over the (card, seat
    short of cards) pairs, the card by r // short, the seat by r % short."""
    short = [s for s in range(len(hands)) if len(hands[s]) < size]
    k = len(short)
    left = len(rest)
    words = _DEAL_W
    while left:
        r = draw(left * k)
        seat = short[r % k]
        v = rest.pop(r // k)
        h = hands[seat]
        h.append(v)
        journal(v | words[seat])
        left -= 1
        if len(h) == size:
            short.remove(seat)
            k -= 1


def _pass(draw, journal, hands, counts, passed, passes, nxt):
    """Each seat in turn (the lowest waited on) passes its cards, each drawn
    over its hand in deck order; then each takes those from its right."""
    for s in range(len(hands)):
        h = hands[s]
        for _ in range(passes[s], walzer.PASS_CARDS):
            v = h.pop(draw(len(h)))
            counts[s][_COLOUR[v]] -= 1
            journal(v | _PASS_W[s])
            passed.append(v | s << 8)
    for x in passed:
        v = x & 0xFF
        s = nxt[x >> 8]
        hands[s].append(v)
        hands[s].sort()
        counts[s][_COLOUR[v]] += 1
    passed.clear()


def _trick(draw, journal, hands, counts, owes, nxt, items, seats, early, seat, won):
    """A trick played from `seat` (its first `early` cards already in
    items/seats): its winner, whose won cards take the trick's."""
    n = len(nxt)
    owed = _ANY
    pack = 0
    for tc in range(n):
        if tc < early:
            v = items[tc]
            seat = seats[tc]
        else:
            h = hands[seat]
            count = counts[seat]
            owing = count[owed]
            if owing:
                # The owed colour's run, then the X cards' (the list's end).
                xc = count[_X]
                k = draw(owing + xc)
                if k >= owing:
                    k += len(h) - xc - owing
                elif owed:
                    k += count[0] if owed == 1 else count[0] + count[1]
                v = h.pop(k)
            else:
                v = h.pop(draw(len(h)))
            count[_COLOUR[v]] -= 1
            journal(v | _PLAY_W[seat])
            items[tc] = v
            seats[tc] = seat
        # The result as the cards arrive (the core's resolve()): exactly one
        # X wins; else the best card by the lead's key, the later of equals;
        # all X: the last.
        if tc == 0:
            owed = owes[v]
            key = _KEY[v]
            xs = 0
            high = -1
            best = seat
        if key[v] == _X_KEY:
            xs += 1
            if xs == 1:
                first = seat
        elif key[v] >= high:
            high = key[v]
            best = seat
        pack += _PACK[v]
        seat = nxt[seat]
    if xs == 1:
        best = first
    elif high < 0:
        best = seats[n - 1]
    won[best] += pack
    return best


def _score(m, won):
    """The round's scores from each seat's won cards, added: the core's
    round_scores(), its fewest() called, its colour_score() in one line
    (tests/test_playout_cards.py checks them against round_scores())."""
    n = m.players
    scores = m.next_row()  # history's next row, as the match's _score_round
    for c in range(_X):
        fields = [won[s] >> (_FIELD * c) & 0xFFF for s in range(n)]
        least = walzer.fewest([f >> 7 for f in fields])
        mult = _MULTIPLIER[c]
        for s in range(n):
            f = fields[s]
            scores[s] += ((f & 0x7F) if f >> 7 == least else f >> 7) * mult
    for s in range(n):
        m.totals[s] += scores[s]
    m.round += 1


def _end(m, items, seats, winner):
    """What the last trick and the last round leave (_finish_trick,
    _score_round): the match over."""
    t = m.trick
    for j in range(m.players):
        t.items[j] = t.seats[j] = 0  # the last trick's end zeroes it (Trick.clear)
        m.last_trick_items[j] = items[j]
        m.last_trick_seats[j] = seats[j]
        m.hand_n[j] = 0
        m.passed_n[j] = 0
    t.count = 0
    m.last_winner = winner
    m.last_leader = seats[0]
    m.tricks_done = m.hand_size
    m.last_trick_no = m.hand_size
    m.phase = OVER
    m.turn = -1
