"""d-TT's random playout: the match played to its end at random, for the
designers' batches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it, its tables included).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py).  It is
faster because each phase runs in one loop over local names, with no call
per action: the stock's swaps, the packets' and hands' closing up, the trick
and its winner written out in place, each step named after the match's method
it stands for (the tests hold them to it, draw for draw and to the last byte
of the state).  The rules come from the core: trump from trump_suit(), the
deal's scores from deal_scores() (through the match's _score_deal), and
whether a card beats the one winning the trick and whether a hand owes the
led suit from tables made of the core's beats() and owed() at import.
"""

from dicetable.games.dtt import rules as dtt
from dicetable.games.dtt.deal import (
    BIDDING,
    DEALING_1,
    DEALING_2,
    DRAFT_1,
    DRAFT_2,
    LEFT,
    OVER,
    PICKS,
    PLAYING,
    REVEALING,
    RIGHT,
)
from dicetable.match.actions import (
    BID,
    DEAL,
    KEEP,
    PLAY,
    REVEAL,
    TABLE,
    action,
)

# Action words with value 0, for each seat: a card's or a bid's bits are ORed in.
REVEAL_A = action(REVEAL, TABLE, 0)
DEAL_A = tuple(action(DEAL, s, 0) for s in range(3))
KEEP_A = tuple(action(KEEP, s, 0) for s in range(3))
BID_A = tuple(action(BID, s, 0) for s in range(3))
PLAY_A = tuple(action(PLAY, s, 0) for s in range(3))

# Where a card is: the values of the match's where[] (its private constants:
# tests/test_engine_fast.py pins them equal).
FACE_UP = 1
PLAYED = 8

# A mask of seats 0-2 (not 0): its lowest seat, and its seats in order.
LOWEST = (-1, 0, 1, 0, 2, 0, 1, 0)
SEATS = tuple(tuple(s for s in range(3) if m >> s & 1) for m in range(8))
NEXT = (1, 2, 0)
ALL = 7
# A dealing ends when the stock is down to a multiple of this (the match's _deal).
DEALT = 3 * dtt.DRAFT_CARDS
LAST_CARD = dtt.DRAFT_CARDS - 1
TRICKS = dtt.TRICKS
FACE_UPS = dtt.FACE_UP
DECK = dtt.SUITS * dtt.RANKS
SUITS = dtt.SUITS
BIDS = dtt.MAX_BID + 1

# BEATS[trump][item << 6 | best]: the core's beats(item, best, trump), for
# every pair of card encodings (6 bits each) and every trump or NO_TRUMP.
BEATS = tuple(
    bytes(dtt.beats(i >> 6, i & 63, t) for i in range(64 * 64)) for t in range(dtt.NO_TRUMP + 1)
)
# OWES[lead][held]: a hand holding `held` cards of the led suit must play
# one of them (the core's owed()).
OWES = tuple(
    tuple(dtt.owed(s, n) != dtt.ANY for n in range(dtt.HAND_SIZE + 1)) for s in range(SUITS)
)


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    # What no later step reads is written once, when the match is over: the
    # cards' places (where[]: the last deal places all 40, face up or
    # played), the counts per suit (held[]), the stock's places (slot[], the
    # inverse of stock[]: written too before open play, whose cards come off
    # the stock by the match's own steps), the last trick and who leads.
    while True:
        p = match.phase
        if p == PLAYING:
            _play_out(match, draw)
        elif p == DEALING_1 or p == DEALING_2:
            _deal_out(match, draw)
        elif p == DRAFT_1 or p == DRAFT_2:
            _draft_out(match, p, draw)
        elif p == REVEALING:
            _reveal_out(match, draw)
        elif p == BIDDING:
            _bid_out(match, draw)
        elif p == OVER:
            _slot(match)
            return


def _slot(m):
    """Where each card stands in the stock, for every card."""
    stock = m.stock
    slot = m.slot
    for i in range(len(stock)):
        slot[stock[i]] = i


def _reveal_out(m, draw):
    # The stock's swap (the match's _unstock, but slot[]: see playout())
    # written out; after the fourth card the core's trump_suit() fixes
    # trump, as _reveal does.
    stock = m.stock
    where = m.where
    faceup = m.faceup
    journal = m.journal
    k = m.faceup_n
    if k == 0:
        bids = m.bids
        taken = m.taken
        bids[0] = bids[1] = bids[2] = 0
        taken[0] = taken[1] = taken[2] = 0
        m.tricks_done = 0
    n = m.stock_n
    while k < FACE_UPS:
        i = draw(n)
        n -= 1
        c = stock[i]
        last = stock[n]
        stock[i] = last
        stock[n] = c
        where[c] = FACE_UP
        faceup[k] = c
        k += 1
        journal.append(c | REVEAL_A)
    m.stock_n = n
    m.faceup_n = k
    m.trump = dtt.trump_suit(faceup)
    if m.open:
        m._start_bidding()
    else:
        m.phase = DEALING_1


def _deal_out(m, draw):
    # A seat short of cards and a place in the stock drawn as one pair (the
    # match's _deal_at), the card swapped out of the stock (_unstock, but
    # slot[]) into the seat's packet (_deal), until the dealing's 18 cards
    # are out.
    stock = m.stock
    packets = m.packets
    pn = m.packet_n
    journal = m.journal
    short = 0
    for s in range(3):
        if pn[s] < dtt.DRAFT_CARDS:
            short |= 1 << s
    seats = SEATS[short]
    k = len(seats)
    n = m.stock_n
    end = n - 1 - (n - 1) % DEALT
    while n > end:
        r = draw(n * k)
        seat = seats[r % k]
        i = r // k
        n -= 1
        c = stock[i]
        last = stock[n]
        stock[i] = last
        stock[n] = c
        j = pn[seat]
        packets[seat][j] = c
        pn[seat] = j + 1
        if j == LAST_CARD:
            short ^= 1 << seat
            seats = SEATS[short]
            k = len(seats)
        journal.append(c | DEAL_A[seat])
    m.stock_n = n
    m.phase = DRAFT_1 if m.phase == DEALING_1 else DRAFT_2
    m.pick = 0
    m.passed = 0
    m.to_act = ALL


def _draft_out(m, p, draw):
    # A pick at a time: the seats still to keep, lowest first, each closing
    # its packet up as _close does (the slot past the end keeps the last
    # card) and adding the card to its hand (_to_hand); then the packets pass
    # on (_pass_on).  The seats to keep at a pick hold as many cards each,
    # so the counts are written once, after the last pick, when the card
    # passed on joins each hand (_move_packets).
    packets = m.packets
    hands = m.hands
    journal = m.journal
    left = p == DRAFT_1
    step = LEFT if left else RIGHT
    seats = SEATS[m.to_act]
    n = m.packet_n[seats[0]]
    j = m.hand_n[seats[0]]
    picks = PICKS - m.pick
    for _ in range(picks):
        n -= 1
        for seat in seats:
            packet = packets[seat]
            last = packet[n]
            c = packet.pop(draw(n + 1))
            packet.insert(n, last)
            hands[seat][j] = c
            journal.append(c | KEEP_A[seat])
        j += 1
        if left:
            packets[0], packets[1], packets[2] = packets[2], packets[0], packets[1]
        else:
            packets[0], packets[1], packets[2] = packets[1], packets[2], packets[0]
        seats = SEATS[ALL]
    for s in range(3):
        m.kept[s] = hands[s][j - 1]
        hands[s][j] = packets[s][0]
        m.packet_n[s] = 0
        m.hand_n[s] = j + 1
    m.pick = PICKS
    m.passed = (m.passed + step * picks) % 3
    if left:
        m._start_bidding()
    else:
        m._start_play()


def _bid_out(m, draw):
    # The last bid goes through _bid, which says what follows.
    bids = m.bids
    journal = m.journal
    to_act = m.to_act
    while True:
        seat = LOWEST[to_act]
        b = draw(BIDS)
        if to_act == 1 << seat:
            m.to_act = to_act
            m._bid(seat, b)
            journal.append(b | BID_A[seat])
            return
        to_act ^= 1 << seat
        bids[seat] = b
        journal.append(b | BID_A[seat])


def _play_out(m, draw):
    if m.open:
        _play_open(m, draw)
    else:
        _play_hands(m, draw)


def _play_open(m, draw):
    # A card no hand was seen to hold, from the stock: the match's _play.
    _slot(m)
    journal = m.journal
    stock = m.stock
    while m.phase == PLAYING:
        seat = m.turn
        c = stock[draw(m.stock_n)]
        m._play(seat, c, -1)
        journal.append(c | PLAY_A[seat])
        if m.tricks_done == TRICKS:
            m._score_deal()  # as apply() does after the deal's last card


def _play_hands(m, draw):
    # A trick at a time.  Each hand is played from a list of its cards (live)
    # and from one list per suit, both in hand order: the core's follow rule
    # (OWES) reads how many of the led suit the hand holds, and the match's
    # draw among them (_card_at) takes the k-th.  The hand's buffer is written
    # as _close leaves it: as a hand goes from h + 1 cards to h, its slot h
    # keeps the last card (at a trick's start every hand holds 12 - tricks
    # done).  The deal's 12 tricks end the phase (_deal_played).
    journal = m.journal
    if not _trick_finished(m, draw):
        return
    hands = m.hands
    won = m.won
    won_n = m.won_n
    taken = m.taken
    beats = BEATS[m.trump]
    lives, suits = _split(m)
    played = lives[0] + lives[1] + lives[2]
    leader = m.turn
    done = m.tricks_done
    while True:
        h = TRICKS - 1 - done
        live = lives[leader]
        hands[leader][h] = live[h]
        c0 = live.pop(draw(h + 1))
        suits[leader][c0 >> 4].remove(c0)
        lead = c0 >> 4
        owes = OWES[lead]

        s1 = NEXT[leader]
        live = lives[s1]
        hands[s1][h] = live[h]
        mine = suits[s1]
        follow = mine[lead]
        count = len(follow)
        if owes[count]:
            c1 = follow.pop(draw(count))
            live.remove(c1)
        else:
            c1 = live.pop(draw(h + 1))
            mine[c1 >> 4].remove(c1)

        s2 = NEXT[s1]
        live = lives[s2]
        hands[s2][h] = live[h]
        mine = suits[s2]
        follow = mine[lead]
        count = len(follow)
        if owes[count]:
            c2 = follow.pop(draw(count))
            live.remove(c2)
        else:
            c2 = live.pop(draw(h + 1))
            mine[c2 >> 4].remove(c2)

        journal += (
            c0 | PLAY_A[leader],
            c1 | PLAY_A[s1],
            c2 | PLAY_A[s2],
        )
        best = 0
        best_c = c0
        if beats[c1 << 6 | c0]:
            best = 1
            best_c = c1
        if beats[c2 << 6 | best_c]:
            best = 2
        winner = (leader + best) % 3
        pile = won[winner]
        j = won_n[winner]
        pile[j] = c0
        pile[j + 1] = c1
        pile[j + 2] = c2
        won_n[winner] = j + 3
        taken[winner] += 1
        done += 1
        if done == TRICKS:
            _deal_played(m, (c0, c1, c2), leader, best, played)
            return
        leader = winner


def _trick_finished(m, draw):
    """Finish a trick the playout started within, by the match's own steps;
    False if that was the deal's last."""
    journal = m.journal
    while m.trick.count:
        seat = m.turn
        i = m._card_at(seat, draw)
        c = m.hands[seat][i]
        m._play(seat, c, i)
        journal.append(c | PLAY_A[seat])
        if m.tricks_done == TRICKS:
            m._score_deal()  # as apply() does after the deal's last card
            return False
    return True


def _split(m):
    """Each seat's hand as a list, and its cards of each suit, in hand order."""
    lives = []
    suits = []
    for s in range(3):
        live = m.hands[s][: m.hand_n[s]]
        mine = [[], [], [], []]
        for c in live:
            mine[c >> 4].append(c)
        lives.append(live)
        suits.append(mine)
    return lives, suits


def _deal_played(m, items, leader, best, played):
    """The last trick (`items` led by `leader`, won at place `best`) is in:
    the deal scored by the core (the match's _score_deal), and either the
    next deal set up or, the match over, what no step read written."""
    totals = m.totals
    scores = dtt.deal_scores(m.bids, m.taken, totals, m.next_row())  # history's next row
    totals[0] += scores[0]
    totals[1] += scores[1]
    totals[2] += scores[2]
    if len(m.history) < m.deals:
        m.dealer = NEXT[m.dealer]
        m.stock_n = DECK
        m.faceup_n = 0
        m.hand_n[0] = m.hand_n[1] = m.hand_n[2] = 0
        m.won_n[0] = m.won_n[1] = m.won_n[2] = 0
        m.phase = REVEALING
        return
    m.phase = OVER
    c0, c1, c2 = items
    s1 = NEXT[leader]
    s2 = NEXT[s1]
    winner = (leader, s1, s2)[best]
    last = m.last_trick_items
    last[0] = c0
    last[1] = c1
    last[2] = c2
    last = m.last_trick_seats
    last[0] = leader
    last[1] = s1
    last[2] = s2
    trick = m.trick  # the last trick's end zeroes it (Trick.clear)
    trick.items[0] = trick.items[1] = trick.items[2] = 0
    trick.seats[0] = trick.seats[1] = trick.seats[2] = 0
    m.hand_n[0] = m.hand_n[1] = m.hand_n[2] = 0
    held = m.held
    for j in range(3 * SUITS):
        held[j] = 0
    where = m.where
    for c in played:
        where[c] = PLAYED
    m.best = best
    m.last_winner = winner
    m.last_leader = leader
    m.leader = winner
    m.turn = winner
    m.tricks_done = TRICKS
