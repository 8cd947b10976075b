"""DTwww's random playout: the match played to its end at random, for the
batches of random matches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it, and its tables can be large).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py,
tests/test_playout_dice.py).  It is faster because a phase's actions are
drawn and applied in one loop with the state in locals: the deal hands its
dice to the play phase as lists, whose places and hands are written once
when the tricks are over, the score's dice are written where they land,
and a trick's dice are not written at all (the last trick is read back
from the journal).  The bag is a list of its dice's
places, so a scan is one pop.  A hand's legal plays are counted from
tables of the core's legal_plays per die colour and number and lead
(tested), the play drawn found by a walk of the hand (a lead from a hand
without a white die, or a hand that cannot follow, is one draw among its
dice); a trick's winner and next leader are folded as its dice arrive (a
follow weighed by its number alone; tested against the core's takes_over,
resolve and next_leader).  A game is ranked
once, by one key a seat ordered as the core's ranks_above orders them
(tested against its ranks).  The roll-off, rare, and open play's plays
(random_action lists them) are played by random_action and take.
"""

from array import array

from dicetable.games.dtwww import rules as dt
from dicetable.games.dtwww.deal import (
    EV_DEALT,
    EV_TRICK,
    PHASE_DEAL,
    PHASE_PLAY,
    PHASE_SCORE,
)
from dicetable.games.dtwww.match import EV_GAME, PHASE_OVER
from dicetable.match.actions import DEAL, PLAY, ROLL, SEAT_SHIFT, TABLE, TABLE_BIT, action
from dicetable.match.engine import places_of
from dicetable.rules.trick import Trick

DEAL_A = action(DEAL, 0, 0)
ROLL_A = action(ROLL, 0, 0)
TABLE_ROLL_A = action(ROLL, TABLE, 0)

# The match's `place` codes (deal.py's BAG, _HAND, _SCORE, _RETURNED).
BAG = 0
HAND = 1
SCORE = 9
RETURNED = 15

BOX = dt.box()
DICE = len(BOX)
_NUMBER_BITS = 0x1F
_DIE_BITS = 0x7FF
_IDENTITY_BITS = 0x7E0
_VALUE_BITS = 0xFFFF

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
ALL_RETURNED = bytes([RETURNED] * DICE)
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
    """(counts, adds) for the trick led by `lead` (-1: leading), by the key
    of a die in hand: how many legal plays the die gives in a hand that can
    follow, and what each adds to the die (a white die's declaration)."""
    counts = [0] * 128
    none = tuple(range(0))  # (a tuple of ints, to the type checker)
    adds = [none] * 128
    for x, d in KEYED.items():
        plays = _one_die_plays(d, lead)
        counts[x] = len(plays)
        adds[x] = plays
    return counts, adds


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
KEYED = {key(item): item & _DIE_BITS for item in PLAYS}  # a die of each key
WHITE_KEY = dt.WHITE << 5  # the keys of white dice, and only theirs, are at least this
LEADING = _rows(-1)
FOLLOWING = _lead_rows()
# The seats clockwise from a seat, by the number of players and the seat.
CLOCKWISE = [[[(s + i) % n for i in range(n)] for s in range(n)] for n in range(dt.MAX_PLAYERS + 1)]
# The seats after a trick's leader, clockwise, by the number of players and the leader.
FOLLOWERS = [
    [[(s + i) % n for i in range(1, n)] for s in range(n)] for n in range(dt.MAX_PLAYERS + 1)
]
# A die's place code after the play phase, by its place code before it.
AFTER_PLAY = bytes(RETURNED if HAND <= p < SCORE else p for p in range(256))


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    while True:
        p = match.phase
        if p == PHASE_PLAY and not match.open:
            _play_out(match, draw, None)
        elif p == PHASE_DEAL:
            _play_out(match, draw, _deal_out(match, draw))
        elif p == PHASE_SCORE:
            _score_out(match, draw)
        elif p == PHASE_OVER:
            return
        else:
            match.take(match.random_action(LOWEST[match.waiting()], draw))


def _deal_out(m, draw):
    """The scans and their rolls: seat after seat (the lowest waited on), each
    its 9 dice, each scan rolled at once (the table first rolls a scan left
    pending).  Returns the hands dealt, as lists, and the bag: _play_out plays
    them at once, so neither the hands nor the places of the dice scanned
    here are written to the match."""
    append = m.journal.append
    place = m.place
    public = m.public
    hand_n = m.hand_n
    pending = m.pending
    box = BOX
    low_of = LOW_OF
    span_of = SPAN_OF
    key = KEY
    bag = ALL_DICE[:] if place == EMPTY_BOX else [i for i in range(DICE) if place[i] == BAG]
    pop = bag.pop
    table = m.table_rolls
    rolled = m.roll_seat
    if table:
        for s in range(m.players):
            if pending[s]:
                rolled = _roll_pending(m, s, TABLE_ROLL_A, draw)
    held = []
    for s in range(m.players):
        first = hand_n[s]
        if pending[s] and not table:
            rolled = _roll_pending(m, s, ROLL_A | (s << SEAT_SHIFT), draw)
        hand, keys = _hand_of(m, s) if first else ([], [])
        held.append((hand, keys))
        if first == dt.HAND_SIZE:
            continue
        rolled = s
        seat = s << SEAT_SHIFT
        roll = TABLE_ROLL_A if table else ROLL_A | seat
        hold = hand.append
        keep = keys.append
        deal = DEAL_A | seat
        # The bag holds `top - j` dice at the hand's j-th scan.
        top = len(bag) + first
        for j in range(first, dt.HAND_SIZE):
            i = pop(draw(top - j))
            d = box[i]
            append(d | deal)
            if j < 3:
                public[i] = 1
            v = low_of[i] + draw(span_of[i])
            d |= v
            hold(d)
            keep(key[d])
            append(v | roll)
        hand_n[s] = dt.HAND_SIZE
    m.roll_seat = rolled
    m.event = EV_DEALT
    m.phase = PHASE_PLAY
    m.turn = m.game_leader
    m.leader = m.game_leader
    return held, bag


def _hand_of(m, s):
    """Seat s's dice in hand, as the match holds them, in a list, and their
    keys in another."""
    hand = m.hands[s].tolist()[: m.hand_n[s]]
    return hand, [KEY[d] for d in hand]


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


def _play_out(m, draw, dealt):
    """The game's tricks, played by _tricks (which sets each trick's winning
    die apart as it is won), from the hands and bag _deal_out just dealt, or
    else (None) from the match's; the rest of the state written back once."""
    n = m.players
    hands = m.hands
    trick = m.trick
    place = m.place
    # Every die in a hand or the trick goes back to the bag, but the tricks'
    # winners (set apart by _tricks as each trick is won).
    if dealt is None:
        place[:] = place.translate(AFTER_PLAY)
        held = [_hand_of(m, s) for s in range(n)]
    else:
        held, bag = dealt
        place[:] = ALL_RETURNED
        for i in bag:
            place[i] = BAG
    # What deal.py's shifts leave past each hand's end: the hand's last die
    # at each play, written once the hands are empty.
    tails = [[] for _ in range(n)]
    seat = []
    whites = []
    for s in range(n):
        hand, keys = held[s]
        seat.append((hand, keys, tails[s].append))
        whites.append(len([x for x in keys if x >= WHITE_KEY]))
    turn, winner = _tricks(m, seat, whites, draw)
    for s in range(n):
        t = tails[s]
        t.reverse()
        hands[s][: len(t)] = array("H", t)
    # The last trick's plays are the journal's last n actions.
    last = m.journal[-n:]
    items = trick.items
    seats = trick.seats
    last_items = m.last_trick_items
    last_seats = m.last_trick_seats
    for i in range(n):
        a = last[i]
        last_items[i] = a & _VALUE_BITS
        last_seats[i] = a >> SEAT_SHIFT & 15
        items[i] = seats[i] = 0  # the last trick's end zeroes it (Trick.clear)
    trick.count = 0
    m.played_n[:] = PLAYED[:n]
    m.hand_n[:] = NO_SEATS[:n]
    m.last_trick_count = n
    m.last_winner = winner
    m.last_leader = last[0] >> SEAT_SHIFT & 15
    m.leader = turn
    m.turn = turn
    m.tricks_played = dt.TRICKS
    m.event = EV_TRICK
    m.phase = PHASE_SCORE
    m.score_rolled[:] = NO_SEATS[:n]


def _tricks(m, seat, whites, draw):
    """m's tricks from where its trick stands, each seat's hand a list (with
    its dice's keys and the append of its tail; whites[s]: how many white
    dice seat s holds), its plays counted from the tables.  A trick's winner (the core's
    resolve: the strongest, the last of equals) takes its die, and its next
    leader (its next_leader: the highest number, the first of equals) leads
    the next, each folded as the dice arrive.  A hand that can follow plays
    a die that follows, as strong as the lower its number; a hand that
    cannot holds no white die, so each of its dice is one play.  Returns the
    last trick's next leader and winner."""
    append = m.journal.append
    place = m.place
    score = m.score
    score_n = m.score_n
    trick = m.trick
    count = trick.count
    turn = m.turn
    followers = FOLLOWERS[len(seat)]
    if count:
        best, won, low, top, high = _under_way(trick)
        counts, adds = FOLLOWING[trick.items[0]]
        todo = followers[trick.seats[0]][count - 1 :]
    for _ in range(m.tricks_played, dt.TRICKS):
        if count:
            count = 0
        else:
            h, hk, tail = seat[turn]
            if whites[turn]:
                j, item = _lead_white(h, hk, whites, turn, draw)
            else:
                j = draw(len(h))
                item = h[j]
            tail(h[-1])
            del h[j]
            del hk[j]
            append(item | PLAY_OF[turn])
            counts, adds = FOLLOWING[item]
            best = top = turn
            won = item
            high = low = item & _NUMBER_BITS
            todo = followers[turn]
        for s in todo:
            h, hk, tail = seat[s]
            k = 0
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
                if x < WHITE_KEY:
                    item = h[j]
                else:
                    item = h[j] + adds[x][r]
                    whites[s] -= 1
                v = item & _NUMBER_BITS
                if v <= low:
                    best = s
                    won = item
                    low = v
            else:
                j = draw(len(h))
                item = h[j]
                v = item & _NUMBER_BITS
            if v > high:
                top = s
                high = v
            tail(h[-1])
            del h[j]
            del hk[j]
            append(item | PLAY_OF[s])
        d = won & _DIE_BITS
        score[best][score_n[best]] = d
        score_n[best] += 1
        place[INDEX[d >> 5 & 63]] = SCORE + best
        turn = top
    return turn, best


def _lead_white(h, hk, whites, s, draw):
    """(place in the hand h, play) of a lead drawn among all of h's plays,
    h (seat s's, its dice's keys hk) holding a white die (one play per
    declaration); a white die drawn is one fewer in whites[s]."""
    counts, adds = LEADING
    k = 0
    for x in hk:
        k += counts[x]
    r = draw(k)
    j = 0
    x = hk[0]
    while r >= counts[x]:
        r -= counts[x]
        j += 1
        x = hk[j]
    if x < WHITE_KEY:
        return j, h[j]
    whites[s] -= 1
    return j, h[j] + adds[x][r]


def _under_way(trick):
    """The trick under way folded as _tricks folds it: its winner so far, that
    seat's play and its number, the seat of its highest number and that
    number."""
    items = trick.items
    seats = trick.seats
    lead = items[0]
    best = top = seats[0]
    won = lead
    high = low = lead & _NUMBER_BITS
    for i in range(1, trick.count):
        item = items[i]
        v = item & _NUMBER_BITS
        if dt.follows(lead, item) and v <= low:
            best = seats[i]
            won = item
            low = v
        if v > high:
            top = seats[i]
            high = v
    return best, won, low, top, high


def _score_out(m, draw):
    """The score dice's rolls, seat after seat (the lowest waited on; the
    table: clockwise from the game's leader), each seat's total kept as they
    come, then the game scored by the core once."""
    append = m.journal.append
    n = m.players
    score = m.score
    score_n = m.score_n
    score_rolled = m.score_rolled
    game_dice = m.game_dice
    table = m.table_rolls
    rolled = m.roll_seat
    totals = [0] * n
    keys = [-1] * n  # rank_key() of each seat, as its total comes
    for s in CLOCKWISE[n][m.game_leader if table else 0]:
        c = score_n[s]
        if not c:
            continue
        dice = score[s]
        done = score_rolled[s]
        total = 0
        for j in range(done):
            total += dice[j] & _NUMBER_BITS
        if done < c:
            rolled = s
            roll = TABLE_ROLL_A if table else ROLL_A | (s << SEAT_SHIFT)
            for j in range(done, c):
                d = dice[j] & _IDENTITY_BITS
                size = d >> 5 & 7
                v = LOW[size] + draw(SPAN[size])
                dice[j] = d | v
                append(v | roll)
                total += v
        totals[s] = total
        keys[s] = rank_key(total, c)
        game_dice[s][:c] = dice[:c]
    m.game_totals[:] = array("H", totals)
    m.game_counts[:] = score_n
    score_rolled[:] = score_n
    m.roll_seat = rolled
    _score_game(m, totals, places_of(keys))


def _score_game(m, game_totals, ranks):
    """match.py's _score_game, the score dice already in game_dice, from the
    game's ranks (the core's): its points, the next game's leader (the
    core's next_game_leader), the next game set up."""
    n = m.players
    points = game_points(ranks, game_totals, m.mode)
    game_ranks = m.game_ranks
    game_points_ = m.game_points
    totals = m.totals
    for s in range(n):
        game_ranks[s] = ranks[s]
        game_points_[s] = points[s]
        totals[s] += points[s]
    m.next_row()[:] = points  # history's next row, as the match's _score_game
    m.game += 1
    m.event = EV_GAME
    if m.game < m.games:
        m.game_leader = leader = dt.next_game_leader(ranks, m.game_leader)
        m.place[:] = EMPTY_BOX
        m.public[:] = EMPTY_BOX
        zeros = NO_SEATS[:n]
        m.hand_n[:] = zeros
        m.pending[:] = zeros
        m.played_n[:] = zeros
        m.score_n[:] = zeros
        m.score_rolled[:] = zeros
        m.trick.clear()
        m.tricks_played = 0
        m.turn = leader
        m.leader = leader
        m.phase = PHASE_PLAY if m.open else PHASE_DEAL
        return
    m._match_end()


def rank_key(total, count):
    """One key for a seat's game (its score dice's total, how many) that
    orders the seats as the core's ranks_above does: a seat with no score
    die below every other, then the higher total, then fewer dice (the
    core's ranks are the engine's places_of the keys; tested)."""
    return total * 16 + 15 - count if count else -1


def game_points(ranks, totals, mode):
    """The core's game_points(totals, counts, mode) from the game's ranks
    (the core's ranks(totals, counts)), which it would rank again: the
    victory points of each rank, or the totals themselves in the variant."""
    if mode == dt.SCORE_TOTAL:
        return list(totals)
    return [VICTORY_POINTS[r] for r in ranks]
