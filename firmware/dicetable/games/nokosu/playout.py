"""Nokosu Dice's random playout: the match played to its end at random, for
the designers' batches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py).  It is
faster because a phase's actions are drawn and applied in one loop with the
state in locals: the deck, the bag and the centre lists in slot order; each
hand kept whole and split by effective colour (the trump known once the
draft is over), with its kept die known, so must-follow is one list and the
kept die skipped, no walk of the hand; the trick's winner as the items
arrive, by strengths the core's strength() gives (tables per trump, made
once).  Open play's plays (the hidden cards any seat may hold) and the
3-player colour choice are random_action and take themselves.
"""

from dicetable.games.nokosu import rules as core
from dicetable.games.nokosu.deal import (
    _IDENTITY,
    BAG,
    BESIDE,
    CENTRE,
    DEALING,
    DECK,
    DRAFTING,
    DRAWING,
    HAND,
    IN_CENTRE,
    OVER,
    PLAYING,
    SLOTS,
    WON,
    slot_of,
)
from dicetable.match.actions import (
    DEAL,
    PICK,
    PLAY,
    ROLL,
    TABLE,
    TABLE_BIT,
    ZERO_BID,
    action,
)

# The engine's slots: the cards', then the coloured dice', then the black
# dice' (its own names are consts, not importable on the board).
_DIE_BIT = core.die(0, 0, 0)
_CARD_SLOTS = _DIE_SLOT0 = slot_of(_DIE_BIT)
_BLACK_SLOT0 = slot_of(core.black_die(0))
# The table, else the lowest seat of a waiting() mask.
LOWEST = [TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1 for w in range(256)]
# Per item value (a die with its face): its slot (-1: none).
_SLOT = [slot_of(v) for v in range(1024)]


def _words(kind):
    return [action(kind, s, 0) for s in range(8)]


_DEAL_W = _words(DEAL)
_ROLL_W = _words(ROLL)
_PICK_W = _words(PICK)
_ZERO_W = _words(ZERO_BID)
_PLAY_W = _words(PLAY)

# Per trump (card(trump colour, trump number)): per item value, its effective
# colour, its strength in a trick led by another colour and its strength in
# a trick led by its own effective colour (the core's effective_colour() and
# strength()), made the first time a trump is met.
_TRUMPS = {}


def _tables(trump):
    t = _TRUMPS.get(trump)
    if t is None:
        tc = core.colour(trump)
        tn = core.number(trump)
        eff = [0] * 1024
        other = [0] * 1024
        own = [0] * 1024
        for s in range(SLOTS):
            for f in range(core.DIE_HIGH + 1):
                v = _IDENTITY[s] | f
                eff[v] = core.effective_colour(v, tc, tn)
                other[v] = core.strength(v, core.NO_COLOUR, tc, tn)
                own[v] = core.strength(v, eff[v], tc, tn)
        t = _TRUMPS[trump] = (eff, other, own)
    return t


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    m = match
    while True:
        p = m.phase
        if p == PLAYING and not m.open:
            _play_out(m, draw)
        elif p == DEALING:
            _deal_out(m, draw)
        elif p == DRAWING or p == CENTRE:
            _draw_out(m, draw)
        elif p == DRAFTING:
            _draft_out(m, draw)
        elif p == OVER:
            return
        else:
            m.take(m.random_action(LOWEST[m.waiting()], draw))


def _deal_out(m, draw):
    """Every deck card to a seat short of cards: one draw over the (seat,
    card) pairs, the seat by r // cards, the card by r % cards."""
    loc = m.loc
    left = m.cards_left
    each = m.cards_each
    journal = m.journal.append
    deck = [s for s in range(_CARD_SLOTS) if loc[s] == DECK]
    short = [s for s in range(m.players) if left[s] < each]
    k = len(deck)
    pairs = k * len(short)
    words = _DEAL_W
    while pairs:
        r = draw(pairs)
        seat = short[r // k]
        s = deck.pop(r % k)
        loc[s] = HAND + seat
        journal(_IDENTITY[s] | words[seat])
        left[seat] += 1
        if left[seat] == each:
            short.remove(seat)
        k -= 1
        pairs = k * len(short)
    m._start_draw()


def _draw_out(m, draw):
    """The seats' dice from the bag, each drawn and rolled, then the centre's
    (_draw, _roll)."""
    loc = m.loc
    face = m.face
    journal = m.journal.append
    bag = [s for s in range(_DIE_SLOT0, _BLACK_SLOT0) if loc[s] == BAG]
    centre = m.phase == CENTRE
    turn = m.turn
    left = m.left
    s = m.pending
    while True:
        if s < 0:
            s = bag.pop(draw(len(bag)))
            if centre:
                loc[s] = IN_CENTRE
                journal(_IDENTITY[s] | _DEAL_W[TABLE])
            else:
                loc[s] = HAND + turn
                journal(_IDENTITY[s] | _DEAL_W[turn])
        v = core.DIE_LOW + draw(core.DIE_HIGH - core.DIE_LOW + 1)
        roller = TABLE if centre or m.table_rolls else turn
        journal(v | _ROLL_W[roller])
        face[s] = v
        s = -1
        left -= 1
        if left:
            continue
        if centre:
            break
        if turn == m.start:
            centre = True
            turn = m.start
            left = m.centre_dice
        else:
            turn = (turn + 1) % m.players
            left = m.drawn_each
    m.pending = -1
    m.left = 0
    m.turn = turn
    m._start_draft()


def _draft_out(m, draw):
    """Each seat in turn takes a centre die, or returns one for a black die
    while it may (_take); the die left is the trump indicator."""
    loc = m.loc
    face = m.face
    journal = m.journal.append
    n = m.players
    centre = [s for s in range(_DIE_SLOT0, _BLACK_SLOT0) if loc[s] == IN_CENTRE]
    blacks = [s for s in range(_BLACK_SLOT0, SLOTS) if loc[s] == BESIDE]
    holds = [False] * n
    for s in range(_BLACK_SLOT0, SLOTS):
        if HAND <= loc[s] < HAND + n:
            holds[loc[s] - HAND] = True
    turn = m.turn
    for _ in range(m.takes):
        ways = 2 if blacks and not holds[turn] else 1
        k = draw(len(centre) * ways)
        s = centre.pop(k // ways)
        if k % ways:
            loc[blacks.pop(0)] = HAND + turn
            holds[turn] = True
            journal(_IDENTITY[s] | face[s] | _ZERO_W[turn])
            loc[s] = BAG
            face[s] = 0
        else:
            journal(_IDENTITY[s] | face[s] | _PICK_W[turn])
            loc[s] = HAND + turn
        turn = turn + 1 if turn + 1 < n else 0
    m.takes = 0
    m._start_play()


def _hands(m):
    """Each seat's playable items (all but a black die) in slot order, the
    same split by effective colour, its coloured dice counted, whether it
    holds a black die."""
    n = m.players
    loc = m.loc
    face = m.face
    eff = _tables(core.card(m.trump_colour, m.trump_number))[0]
    items = [[] for _ in range(n)]
    split = [[[], [], [], [], []] for _ in range(n)]
    dice = [0] * n
    black = [False] * n
    for s in range(SLOTS):
        w = loc[s] - HAND
        if 0 <= w < n:
            if s >= _BLACK_SLOT0:
                black[w] = True
                continue
            v = _IDENTITY[s] | face[s]
            items[w].append(v)
            split[w][eff[v]].append(v)
            if s >= _DIE_SLOT0:
                dice[w] += 1
    return items, split, dice, black


def _lone(items, dice, black):
    """The die a hand must keep and may not play (the core's kept_die()
    without a black die held: a lone die), or -1."""
    if black or dice != 1:
        return -1
    for v in items:
        if v & _DIE_BIT:
            return v
    return -1


def _play_out(m, draw):
    """The round's tricks to the end, then its scores (and the next round
    started, or the match over), as _finish_trick and _score_round do."""
    n = m.players
    loc = m.loc
    journal = m.journal.append
    tables = _tables(core.card(m.trump_colour, m.trump_number))
    items, split, dice, black = _hands(m)
    hand = (items, split, dice, black, [_lone(items[s], dice[s], black[s]) for s in range(n)])
    t = m.trick
    tr = list(t.items)
    ts = list(t.seats)
    early = t.count
    seat = m.turn
    for _ in range(m.tricks_done, m.tricks_per_round):
        seat = _trick(draw, journal, hand, tables, tr, ts, early, seat)
        early = 0
        for j in range(n):
            loc[_SLOT[tr[j]]] = WON + seat
        m.tricks[seat] += 1
    for j in range(n):
        t.items[j] = t.seats[j] = 0  # the last trick's end zeroes it (Trick.clear)
        m.last_trick_items[j] = tr[j]
        m.last_trick_seats[j] = ts[j]
        m.cards_left[j] = 0
    t.count = 0
    m.last_winner = seat
    m.last_leader = ts[0]
    m.tricks_done = m.tricks_per_round
    m.last_trick_no = m.tricks_done
    m.turn = seat
    m.leader = seat
    _score(m, items, black)


def _trick(draw, journal, hand, tables, tr, ts, early, seat):
    """A trick played from `seat` (its first `early` items already in tr/ts):
    its winner."""
    items, split, dice, black, lone = hand
    eff, other, own = tables
    n = len(items)
    led = -1
    best = -1
    for tc in range(n):
        if tc < early:
            v = tr[tc]
            seat = ts[tc]
        else:
            # The core's legal plays: the playable items (all but the kept
            # die), only those of the led colour if there are any.
            mine = items[seat]
            kept = lone[seat]
            src = mine
            if led >= 0:
                f = split[seat][led]
                if len(f) > (kept >= 0 and eff[kept] == led):
                    src = f
            skip = kept >= 0 and (src is mine or eff[kept] == led)
            k = draw(len(src) - skip)
            if skip and k >= src.index(kept):
                k += 1
            v = src.pop(k)
            if src is mine:
                split[seat][eff[v]].remove(v)
            else:
                mine.remove(v)
            if v & _DIE_BIT:
                dice[seat] -= 1
                lone[seat] = _lone(mine, dice[seat], black[seat])
            journal(v | _PLAY_W[seat])
            tr[tc] = v
            ts[tc] = seat
        # The winner as the items arrive: the strongest, the later of equals
        # (the core's resolve()).
        if tc == 0:
            led = eff[v]
        s = own[v] if eff[v] == led else other[v]
        if s >= best:
            best = s
            win = seat
        seat = seat + 1 if seat + 1 < n else 0
    return win


def _score(m, items, black):
    """The kept dice and the round's scores (the core's bid_of() and
    round_scores()); the next round started, or the match over."""
    n = m.players
    for seat in range(n):
        if black[seat]:
            s = _BLACK_SLOT0 if m.loc[_BLACK_SLOT0] == HAND + seat else _BLACK_SLOT0 + 1
            kept = _IDENTITY[s]
        else:
            kept = items[seat][0]
        m.kept[seat] = kept
        m.last_bids[seat] = core.bid_of(kept)
        m.last_tricks[seat] = m.tricks[seat]
    scores = core.round_scores(m.last_bids, m.last_tricks, m.next_row())  # history's next row
    for seat in range(n):
        m.totals[seat] += scores[seat]
    m.round += 1
    if m.round >= m.rounds:
        m.phase = OVER
        m.turn = -1
        m.leader = -1
    else:
        m.start = (m.start + 1) % n
        m._start_round()
