"""DTwww's random playout: the match played to its end at random, for the
designers' batches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it, and its tables can be large).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py,
tests/test_playout_dice.py).  It is faster because a phase's actions are
drawn and applied in one loop with the state in locals, written back once
per phase (what a later action overwrites is not written at all); the bag
is a list of its dice's places, so a scan is one pop; a hand's legal plays
are counted from tables of the core's legal_plays per die colour and number
and lead; a trick's winner and next leader are folded as its dice arrive
(strengths from the core's follows; tested against its resolve and
next_leader); a game is ranked once, by one key a seat ordered as the core's
ranks_above orders them (tested against its ranks).  The roll-off,
rare, and open play's plays (random_action lists them) are played by
random_action and take.
"""

from array import array

from dicetable.games.dtwww import rules as dt
from dicetable.games.dtwww.match import (
    EV_DEALT,
    EV_GAME,
    EV_TRICK,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCORE,
)
from dicetable.match.actions import DEAL, PLAY, ROLL, SEAT_SHIFT, TABLE, TABLE_BIT, action
from dicetable.rules.trick import Trick

DEAL_A = action(DEAL, 0, 0)
ROLL_A = action(ROLL, 0, 0)
TABLE_ROLL_A = action(ROLL, TABLE, 0)

# The match's `place` codes (match.py's _BAG, _HAND, _SCORE, _RETURNED).
BAG = 0
HAND = 1
SCORE = 9
RETURNED = 15

BOX = dt.box()
DICE = len(BOX)
_NUMBER_BITS = 0x1F
_DIE_BITS = 0x7FF
_IDENTITY_BITS = 0x7E0

# A die's size (item >> 5 & 7): its lowest face and how many faces it has.
LOW = [dt.lowest_face(s) for s in range(dt.D20 + 1)]
SPAN = [dt.highest_face(s) - dt.lowest_face(s) + 1 for s in range(dt.D20 + 1)]

# The same by a die's place in the box.
LOW_OF = [LOW[d >> 5 & 7] for d in BOX]
SPAN_OF = [SPAN[d >> 5 & 7] for d in BOX]

# The place of a die in the box by its identity >> 5 (no number, no declaration).
INDEX = [0] * 64
for _i in range(DICE):
    INDEX[BOX[_i] >> 5] = _i
# The action word of a play by seat.
PLAY_OF = [action(PLAY, s, 0) for s in range(dt.MAX_PLAYERS)]
EMPTY_BOX = bytes(DICE)  # every die in the bag, none public
ALL_DICE = list(range(DICE))
NO_SEATS = bytes(dt.MAX_PLAYERS)
VICTORY_POINTS = [dt.victory_points(r) for r in range(dt.MAX_PLAYERS + 1)]  # by rank
PLAYED = bytes([dt.HAND_SIZE] * dt.MAX_PLAYERS)  # every die of a hand played
# The lowest seat of a waiting() mask of seats 0-3 (not 0), else the table.
LOWEST = [TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1 for w in range(256)]


def _one_die_plays(d, lead):
    """The core's legal plays of the die `d` (any number) alone in a hand, to
    the trick led by `lead` (-1: leading), as what each adds to `d`: () when
    a hand that can follow may not play it."""
    trick = Trick(2)
    if lead >= 0:
        trick.add(0, lead)
        if not dt.die_can_follow(d, lead):
            return ()
    out = [0] * dt.MAX_PLAYS
    return tuple(out[i] - d for i in range(dt.legal_plays([d], 1, trick, out)))


def _plays():
    """Every play item of the box: each die with each face, a white die
    declared each colour."""
    out = []
    for d in BOX:
        size = d >> 5 & 7
        for v in range(LOW[size], LOW[size] + SPAN[size]):
            for colour in range(dt.RED, dt.WHITE if dt.colour(d) == dt.WHITE else dt.BLUE):
                out.append(dt.play(d | v, colour))
    return out


PLAYS = _plays()


def key(d):
    """A die item's key in the tables: its colour and number, all the core's
    legal plays read of a die (tested: each die's plays are its key's)."""
    return (d >> 3 & 0x60) | (d & _NUMBER_BITS)


def _rows(lead):
    """(counts, adds, strong) for the trick led by `lead` (-1: leading), by
    a die item in hand (each die the row of its key, so that a play reads
    no key): how many legal plays the die gives in a hand that can follow,
    what each adds to the die (a white die's declaration) and how strong
    each is in the trick (the core's takes_over: 32 - its number if it
    follows, else 0, a later play taking over an equal one)."""
    counts = [0] * 128
    none = tuple(range(0))  # (a tuple of ints, to the type checker)
    adds = [none] * 128
    strong = [none] * 128
    for item in PLAYS:
        d = item & _DIE_BITS
        plays = _one_die_plays(d, lead)
        counts[key(d)] = len(plays)
        adds[key(d)] = plays
        strong[key(d)] = tuple(
            32 - dt.number(d) if lead >= 0 and dt.follows(lead, d + a) else 0 for a in plays
        )
    return counts, adds, strong


def _lead_rows():
    """_rows(lead) by every play item a trick can be led with; the rows of
    leads the core cannot tell apart (same colour counted, same number) are
    one object."""
    rows = [LEADING] * (1 << 14)  # (no trick is led by an item not in PLAYS)
    made = {}
    for lead in PLAYS:
        k = (dt.effective_colour(lead), dt.number(lead))
        if k not in made:
            made[k] = _rows(lead)
        rows[lead] = made[k]
    return rows


KEY = [key(d) for d in range(_DIE_BITS + 1)]  # key() of every die item
LEADING = _rows(-1)
FOLLOWING = _lead_rows()
# The place in the box of a play's die, by the play item.
PLACE_OF = [INDEX[item >> 5 & 63] for item in range(1 << 14)]
# The next seat clockwise, by the number of players and the seat.
NEXT = [[s + 1 if s + 1 < n else 0 for s in range(n)] for n in range(dt.MAX_PLAYERS + 1)]


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    while True:
        p = match.phase
        if p == PHASE_PLAY and not match.open:
            _play_out(match, draw)
        elif p == PHASE_DEAL:
            _deal_out(match, draw)
        elif p == PHASE_SCORE:
            _score_out(match, draw)
        elif p == PHASE_OVER:
            return
        else:
            match.take(match.random_action(LOWEST[match.waiting()], draw))


def _deal_out(m, draw):
    """The scans and their rolls: seat after seat (the lowest waited on), each
    its 9 dice, each scan rolled at once (the table first rolls a scan left
    pending)."""
    append = m.journal.append
    place = list(m.place)
    public = list(m.public)
    hands = m.hands
    hand_n = m.hand_n
    pending = m.pending
    bag = ALL_DICE[:] if m.place == EMPTY_BOX else [i for i in range(DICE) if place[i] == BAG]
    pop = bag.pop
    nbag = len(bag)
    table = m.table_rolls
    rolled = m.roll_seat
    for s in range(m.players):
        if pending[s] and table:
            rolled = _roll_pending(m, s, TABLE_ROLL_A, draw)
    for s in range(m.players):
        if hand_n[s] == dt.HAND_SIZE and not pending[s]:
            continue
        rolled = s
        seat = s << SEAT_SHIFT
        roll = TABLE_ROLL_A if table else ROLL_A | seat
        if pending[s]:
            _roll_pending(m, s, roll, draw)
        hand = list(hands[s])
        deal = DEAL_A | seat
        place_s = HAND + s
        for j in range(hand_n[s], dt.HAND_SIZE):
            i = pop(draw(nbag))
            nbag -= 1
            d = BOX[i]
            append(d | deal)
            place[i] = place_s
            if j < 3:
                public[i] = 1
            v = LOW_OF[i] + draw(SPAN_OF[i])
            hand[j] = d | v
            append(v | roll)
        hands[s][:] = array("H", hand)
        hand_n[s] = dt.HAND_SIZE
    m.place[:] = bytes(place)
    m.public[:] = bytes(public)
    m.roll_seat = rolled
    m.event = EV_DEALT
    m.phase = PHASE_PLAY
    m.turn = m.game_leader
    m.leader = m.game_leader


def _roll_pending(m, s, roll, draw):
    """Seat s's last scan rolled (the action word `roll`); returns s."""
    hand = m.hands[s]
    j = m.hand_n[s] - 1
    d = hand[j]
    size = d >> 5 & 7
    v = LOW[size] + draw(SPAN[size])
    hand[j] = d | v
    m.pending[s] = 0
    m.journal.append(v | roll)
    return s


def _play_out(m, draw):
    """The game's tricks, each trick's winner (the core's resolve) and next
    leader (its next_leader) found by _tricks; the state written back once."""
    append = m.journal.append
    n = m.players
    hands = m.hands
    held = [list(hands[s][: m.hand_n[s]]) for s in range(n)]
    trick = m.trick
    items = list(trick.items)
    seats = list(trick.seats)
    place = list(m.place)
    count = trick.count
    # The trick's winner so far, as strong as 32 - its number (the core's
    # takes_over), and its highest number so far (its next_leader): -1 and
    # -1 before the lead.
    fold = [0, -1, 0, -1]
    for i in range(count):
        place[INDEX[items[i] >> 5 & 63]] = RETURNED  # (the winner's set apart below)
        st = 32 - dt.number(items[i]) if dt.follows(items[0], items[i]) else 0
        if st >= fold[1]:
            fold[0:2] = [i, st]
        if dt.number(items[i]) > fold[3]:
            fold[2:4] = [i, dt.number(items[i])]
    # What match.py's shifts leave past each hand's end: the hand's last die
    # at each play, written once the hands are empty.
    tails = [[] for _ in range(n)]
    seat = [(held[s], [KEY[d] for d in held[s]], tails[s].append) for s in range(n)]
    state = (seat, append, place, items, seats, NEXT[n], m.score, m.score_n)
    turn, winner = _tricks(state, count, m.turn, m.tricks_played, draw, fold)
    trick.count = 0
    for s in range(n):
        hands[s][: len(tails[s])] = array("H", tails[s][::-1])
    m.place[:] = bytes(place)
    trick.items[:] = m.last_trick_items[:] = array("H", items)
    trick.seats[:] = m.last_trick_seats[:] = bytes(seats)
    m.played_n[:] = PLAYED[:n]
    m.hand_n[:] = NO_SEATS[:n]
    m.last_trick_count = n
    m.last_winner = winner
    m.last_leader = seats[0]
    m.leader = turn
    m.turn = turn
    m.tricks_played = dt.TRICKS
    m.event = EV_TRICK
    m.phase = PHASE_SCORE
    m.score_rolled[:] = NO_SEATS[:n]


def _tricks(state, count, turn, tricks, draw, fold):
    """The game's tricks from trick `tricks` and its place `count` on, `turn`
    to play: each seat's hand a list (and its dice's keys), its plays
    counted from the tables.  A trick's winner (the core's resolve: the
    strongest, the last of equals) takes its die, and its next leader (its
    next_leader: the highest number, the first of equals) leads the next,
    each folded as the dice arrive, from `fold` (see _play_out).  Returns
    the last trick's next leader and winner."""
    seat, append, place, items, seats, after, score, score_n = state
    best, strongest, top, high = fold
    n = len(seat)
    if count:
        counts, adds, strong = FOLLOWING[items[0]]
    while tricks < dt.TRICKS:
        while count < n:
            h, hk, tail = seat[turn]
            k = 0
            if count:
                for x in hk:
                    k += counts[x]
            if k:
                r = draw(k)
                j = 0
                x = hk[0]
                while r >= counts[x]:
                    r -= counts[x]
                    j += 1
                    x = hk[j]
                item = h[j] + adds[x][r]
                if strong[x][r] >= strongest:
                    best = count
                    strongest = strong[x][r]
            else:
                # A lead, or a hand that cannot follow (its plays never take over).
                j, item = _lead(h, hk, draw)
                if not count:
                    best = 0
                    strongest = 32 - (item & _NUMBER_BITS)
                    high = -1
                    counts, adds, strong = FOLLOWING[item]
            if item & _NUMBER_BITS > high:
                top = count
                high = item & _NUMBER_BITS
            tail(h[-1])
            del h[j]
            del hk[j]
            append(item | PLAY_OF[turn])
            place[PLACE_OF[item]] = RETURNED
            items[count] = item
            seats[count] = turn
            count += 1
            turn = after[turn]
        winner = seats[best]
        d = items[best] & _DIE_BITS
        score[winner][score_n[winner]] = d
        score_n[winner] += 1
        place[INDEX[d >> 5 & 63]] = SCORE + winner
        turn = seats[top]
        tricks += 1
        count = 0
    return turn, winner


def _lead(h, hk, draw):
    """(place in the hand h, play) of a play drawn among all of h's (a white
    die gives one play per declaration)."""
    counts, adds, _ = LEADING
    k = 0
    for x in hk:
        k += counts[x]
    r = draw(k)
    if k == len(h):
        return r, h[r]
    j = 0
    x = hk[0]
    while r >= counts[x]:
        r -= counts[x]
        j += 1
        x = hk[j]
    return j, h[j] + adds[x][r]


def _score_out(m, draw):
    """The score dice's rolls, seat after seat (the lowest waited on; the
    table: clockwise from the game's leader), each seat's total kept as they
    come, then the game scored by the core once."""
    append = m.journal.append
    n = m.players
    score = m.score
    score_n = m.score_n
    score_rolled = m.score_rolled
    game_totals = m.game_totals
    table = m.table_rolls
    first = m.game_leader if table else 0
    rolled = m.roll_seat
    for s in range(first, first + n):
        if s >= n:
            s -= n
        dice = score[s]
        total = 0
        for j in range(score_rolled[s]):
            total += dice[j] & _NUMBER_BITS
        if score_rolled[s] < score_n[s]:
            rolled = s
            roll = TABLE_ROLL_A if table else ROLL_A | (s << SEAT_SHIFT)
            for j in range(score_rolled[s], score_n[s]):
                d = dice[j] & _IDENTITY_BITS
                size = d >> 5 & 7
                v = LOW[size] + draw(SPAN[size])
                dice[j] = d | v
                append(v | roll)
                total += v
        game_totals[s] = total
    m.game_counts[:] = score_n
    score_rolled[:] = score_n
    m.roll_seat = rolled
    _score_game(m)


def _score_game(m):
    """match.py's _score_game: the game's ranks (the core's, by game_ranks) and points,
    the next game's leader (the core's next_game_leader), the next game set
    up."""
    n = m.players
    ranks = game_ranks(m.game_totals, m.game_counts)
    points = game_points(ranks, m.game_totals, m.mode)
    m.game_ranks[:] = bytes(ranks)
    m.game_points[:] = array("H", points)
    totals = m.totals
    for s in range(n):
        c = m.score_n[s]
        m.game_dice[s][:c] = m.score[s][:c]
        totals[s] += points[s]
    m.history.append(points)
    m.game += 1
    m.event = EV_GAME
    if m.game < m.games:
        m.game_leader = leader = dt.next_game_leader(ranks, m.game_leader)
        m.place[:] = EMPTY_BOX
        m.public[:] = EMPTY_BOX
        for buf in (m.hand_n, m.pending, m.played_n, m.score_n, m.score_rolled):
            buf[:] = NO_SEATS[:n]
        m.trick.count = 0
        m.tricks_played = 0
        m.turn = leader
        m.leader = leader
        m.phase = PHASE_PLAY if m.open else PHASE_DEAL
        return
    m._match_end()


def game_ranks(totals, counts):
    """The core's ranks(totals, counts): 1 + the seats ranking above, from one
    key a seat that its ranks_above orders (a seat with no score die below
    every other, then the higher total, then fewer dice; tested against it)."""
    keys = [t * 16 + 15 - c if c else -1 for t, c in zip(totals, counts, strict=True)]
    order = sorted(keys, reverse=True)
    return [order.index(x) + 1 for x in keys]


def game_points(ranks, totals, mode):
    """The core's game_points(totals, counts, mode) from the game's ranks
    (the core's ranks(totals, counts)), which it would rank again: the
    victory points of each rank, or the totals themselves in the variant."""
    if mode == dt.SCORE_TOTAL:
        return list(totals)
    return [VICTORY_POINTS[r] for r in ranks]
