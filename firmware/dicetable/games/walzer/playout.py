"""Seltsam-Walzer's random playout: the match played to its end at random,
for the designers' batches and the benches (never flashed: host_tools.flash
and firmware/manifest.py leave every game's playout.py out, so the board's
heap never holds it).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py).  It is
faster because a phase's actions are drawn and applied in one loop with the
state in locals: the undealt cards (or, in open play, the unplayed ones) a
list in deck order, each hand four lists by colour in deck order (the follow
rule is then one list and the X cards: no walk of the hand), the trick's
result and a round's scores reckoned once a trick and once a round from the
core's rules (tests/test_playout_cards.py checks them against the core's
resolve() and round_scores()).  A round's state stays in locals from its
deal to its scores: the places the engine keeps per card are written only
in the last round, which the final state shows.
"""

from dicetable.games.walzer import rules as walzer
from dicetable.games.walzer.match import (
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
# A hand: its four colours' lists in deck order, an empty list (hand[ANY]:
# nothing owed) and how many cards it holds.
_EMPTY = walzer.ANY
_HELD = walzer.ANY + 1


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
    owner, rest, passed, won = _places(m)
    if m.open:
        hands = [_hands(owner, 1)[0]] * n
    else:
        hands = _hands(owner, n, IN_HAND)
    held = list(m.hand_n)
    passes = list(m.passed_n)
    t = m.trick
    items = list(t.items)
    seats = list(t.seats)
    early = t.count
    phase = m.phase
    while True:
        if phase == DEALING:
            _deal(draw, journal, rest, owner, held, m.hand_size)
            hands = _hands(owner, n, IN_HAND)
        if phase <= PASSING:
            _pass(draw, journal, hands, passed, passes, nxt)
            m.turn = m.dealer
        seat = _tricks(m, draw, journal, hands, nxt, items, seats, early, won)
        _score(m, won)
        if m.round >= m.rounds:
            break
        # The next round, as _start_round makes it.
        m.dealer = nxt[m.dealer]
        m.turn = m.dealer
        m.tricks_done = 0
        if m.open:
            hands = [_hands(_ALL, 1)[0]] * n
        else:
            phase = DEALING
            rest = list(_DECK)
        held = [0] * n
        passes = [0] * n
        won = [0] * n
        early = 0
    _end(m, items, seats, seat)


def _places(m):
    """The round so far, from the places: who holds each dealt card (by card
    value), the undealt cards, the cards being passed (card | passer << 8),
    each seat's won cards."""
    owner = bytearray(256)
    rest = []
    passed = []
    won = [0] * m.players
    for i in range(len(_DECK)):
        w = m.place[i]
        v = _DECK[i]
        owner[v] = w
        if w == NOWHERE:
            rest.append(v)
        elif w & ~7 == PASSED:
            passed.append(v | (w & 7) << 8)
        elif w & ~7 == WON:
            won[w & 7] += _PACK[v]
    return owner, rest, passed, won


def _tricks(m, draw, journal, hands, nxt, items, seats, early, won):
    """The round's tricks to its end (the last round's won cards placed):
    the last winner."""
    owes = _OPEN_OWED if m.open else _OWED
    place = m.place if m.round + 1 >= m.rounds else None
    seat = m.turn
    for _ in range(m.tricks_done, m.hand_size):
        seat = _trick(draw, journal, hands, owes, nxt, items, seats, early, seat, won)
        early = 0
        if place is not None:
            for j in range(len(nxt)):
                place[_SLOT[items[j]]] = WON | seat
    return seat


def _hands(where, n, base=NOWHERE):
    """n hands, seat s's of the cards whose where[card] is base | s: its
    colours' lists in deck order, an empty list (hand[ANY]: nothing owed)
    and how many cards it holds."""
    hands = [[[], [], [], [], [], 0] for _ in range(n)]
    for v in _DECK:
        s = where[v] - base
        if 0 <= s < n:
            h = hands[s]
            h[_COLOUR[v]].append(v)
            h[_HELD] += 1
    return hands


_ALL = bytes(256)  # every card NOWHERE: a hand of the whole deck


def _take(h, k):
    """Take the k-th card of hand `h` in deck order out of it."""
    for f in h:
        if k < len(f):
            return f.pop(k)
        k -= len(f)
    return -1


def _deal(draw, journal, rest, owner, held, size):
    """The table deals every undealt card: one draw over the (card, seat
    short of cards) pairs, the card by r // short, the seat by r % short."""
    short = [s for s in range(len(held)) if held[s] < size]
    k = len(short)
    left = len(rest)
    words = _DEAL_W
    while left:
        r = draw(left * k)
        seat = short[r % k]
        v = rest.pop(r // k)
        owner[v] = IN_HAND | seat
        journal(v | words[seat])
        left -= 1
        held[seat] += 1
        if held[seat] == size:
            short.remove(seat)
            k -= 1


def _pass(draw, journal, hands, passed, passes, nxt):
    """Each seat in turn (the lowest waited on) passes its cards, each drawn
    over its hand in deck order; then each takes those from its right."""
    for s in range(len(hands)):
        h = hands[s]
        for _ in range(passes[s], walzer.PASS_CARDS):
            v = _take(h, draw(h[_HELD]))
            h[_HELD] -= 1
            journal(v | _PASS_W[s])
            passed.append(v | s << 8)
    for x in passed:
        v = x & 0xFF
        h = hands[nxt[x >> 8]]
        f = h[_COLOUR[v]]
        f.append(v)
        f.sort()
        h[_HELD] += 1
    passed.clear()


def _trick(draw, journal, hands, owes, nxt, items, seats, early, seat, won):
    """A trick played from `seat` (its first `early` cards already in
    items/seats): its winner, whose won cards take the trick's."""
    n = len(nxt)
    owed = _EMPTY
    pack = 0
    for tc in range(n):
        if tc < early:
            v = items[tc]
            seat = seats[tc]
        else:
            h = hands[seat]
            f = h[owed]
            if f:
                xc = h[_X]
                k = draw(len(f) + len(xc))
                v = f.pop(k) if k < len(f) else xc.pop(k - len(f))
            else:
                k = draw(h[_HELD])
                c = 0
                while k >= len(h[c]):
                    k -= len(h[c])
                    c += 1
                v = h[c].pop(k)
            h[_HELD] -= 1
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
    scores = [0] * n
    for c in range(_X):
        fields = [won[s] >> (_FIELD * c) & 0xFFF for s in range(n)]
        least = walzer.fewest([f >> 7 for f in fields])
        mult = _MULTIPLIER[c]
        for s in range(n):
            f = fields[s]
            scores[s] += ((f & 0x7F) if f >> 7 == least else f >> 7) * mult
    for s in range(n):
        m.totals[s] += scores[s]
    m.history.append(scores)
    m.round += 1


def _end(m, items, seats, winner):
    """What the last trick and the last round leave (_finish_trick,
    _score_round): the match over."""
    t = m.trick
    for j in range(m.players):
        t.items[j] = items[j]
        t.seats[j] = seats[j]
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
