"""Dicefull's random playout: the match played to its end at random, for the
designers' batches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py,
tests/test_playout_dice.py).  It is faster because a round's picks and its
rolls are each drawn and applied in one loop with the state in locals,
written back once a phase: a pick is a draw over the centre's places and
passing (what the core's legal_plays lists), the turn passed on over the
seats not done (its is_done), each seat's results rolled die after die; and
the challenge is met as the core's met_by meets it, one evaluation of each
seat's roll, and the round scored in place.  The game-length 2d6 and the
roll-off, once a match, are played by random_action and take.
"""

from array import array

from dicetable.games.dicefull import rules as core
from dicetable.games.dicefull import scoring_rules as scoring
from dicetable.games.dicefull.picking import (
    CHECK,
    NO_CHALLENGE,
    NOBODY,
    OVER,
    PICKING,
    ROLL_OFF,
    ROLLING,
)
from dicetable.match.actions import PASS, PICK, REVEAL, ROLL, TABLE, TABLE_BIT, action
from dicetable.match.engine import TABLE_ROLLS

# Action words by seat (the table's last), value 0.
PICK_OF = [action(PICK, s, 0) for s in range(TABLE + 1)]
PASS_OF = [action(PASS, s, 0) for s in range(TABLE + 1)]
ROLL_OF = [action(ROLL, s, 0) for s in range(TABLE + 1)]
REVEAL_A = action(REVEAL, TABLE, 0)
# The lowest seat of a waiting() mask of seats 0-4 (not 0), else the table.
LOWEST = [TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1 for w in range(256)]


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    while True:
        p = match.phase
        if p == PICKING:
            _pick_out(match, draw)
        elif p == CHECK:
            _reveal(match, draw)
        elif p == ROLLING:
            _roll_out(match, draw)
        elif p == OVER:
            return
        else:
            match.take(match.random_action(LOWEST[match.waiting()], draw))


def next_picker(seat, held, passed, players, limit):
    """The core's next_picker(seat, held, passed, players, centre_count) with
    dice left in the centre, NOBODY when its picking_over() holds: the next
    seat clockwise after `seat` (itself last) not done (is_done: passed, or
    holding `limit`, the core's pick_limit(players))."""
    s = seat
    for _ in range(players):
        s = s + 1 if s + 1 < players else 0
        if not passed[s] and held[s] < limit:
            return s
    return NOBODY


def _pick_out(m, draw):
    """The round's picks and passes: a draw over the centre's places, then
    passing for a seat holding a die (the core's legal_plays for the seat
    whose turn it is, never done)."""
    append = m.journal.append
    n = m.players
    limit = m.limit
    held = list(m.held)
    passed = list(m.passed)
    hands = m.hands
    centre = m.centre
    left = list(centre[: m.ncentre])
    full = len(m.dice)
    trick = m.trick
    items = list(trick.items)
    seats = list(trick.seats)
    count = trick.count
    first_passer = m.first_passer
    kinds = core.KINDS
    need = [0] * n  # the core's result_count of each hand, kept as it grows
    for t in range(n):
        for i in range(held[t]):
            need[t] += kinds[hands[t][i] >> 5 & 31][0]
    seat = m.turn
    while seat != NOBODY:
        c = len(left)
        h = held[seat]
        i = draw(c + 1 if h else c)
        if i == c:
            passed[seat] = 1
            if first_passer == NOBODY:
                first_passer = seat
            append(PASS_OF[seat])
        else:
            if c == full:
                for j in range(count):  # the round's first pick: the last round's picks go
                    items[j] = seats[j] = 0  # zeroed, as Trick.clear leaves them
                count = 0
            item = left[i]
            del left[i]
            hands[seat][h] = item
            held[seat] = h + 1
            need[seat] += kinds[item >> 5 & 31][0]
            items[count] = item
            seats[count] = seat
            count += 1
            append(item | PICK_OF[seat])
        if not left:
            break
        # The next seat on, as next_picker finds it when that seat is not done.
        t = seat + 1 if seat + 1 < n else 0
        seat = t if not passed[t] and held[t] < limit else next_picker(t, held, passed, n, limit)
    # Past ncentre, match.py's centre keeps what its shifts left there: never
    # read, and the round's end puts every die back (_score_round).
    centre[: len(left)] = array("H", left)
    m.ncentre = len(left)
    m.held[:] = bytes(held)
    m.passed[:] = bytes(passed)
    m.first_passer = first_passer
    trick.items[:] = array("H", items)
    trick.seats[:] = bytes(seats)
    trick.count = count
    m.turn = NOBODY
    m.phase = CHECK
    m.acted_phase = PICKING
    m.need[:] = bytes(need)


def _reveal(m, draw):
    """The table turns up a challenge not turned up this game."""
    used = m.used
    k = draw(len(used) - sum(used))
    i = 0
    while used[i] or k:
        if not used[i]:
            k -= 1
        i += 1
    m.journal.append(i | REVEAL_A)
    used[i] = 1
    m.challenge = i
    m.phase = ROLLING
    m.acted_phase = CHECK
    m.nres[:] = bytes(m.players)


def _roll_out(m, draw):
    """Every result of the round, seat after seat (the lowest waited on; the
    table: clockwise from the start player), each seat's dice in pick order
    (the double die twice); then the round scored."""
    append = m.journal.append
    n = m.players
    table = m.flag(TABLE_ROLLS)
    first = m.start if table else 0
    kinds = core.KINDS  # set_faces may change a row: read at each round
    nres = m.nres
    need = m.need
    last = NOBODY
    for s in range(first, first + n):
        if s >= n:
            s -= n
        if nres[s] >= need[s]:
            continue
        roll = ROLL_OF[TABLE if table else s]
        if nres[s]:
            _roll_rest(m, s, roll, draw)
        else:
            results = m.rolls[s]
            r = 0
            for d in m.hands[s][: m.held[s]]:
                base = d >> 5 << 5
                per, faces = kinds[base >> 5 & 31]
                v = draw(len(faces))
                results[r] = base | v
                append(v | roll)
                r += 1
                if per == 2:  # the double die: its second result
                    v = draw(len(faces))
                    results[r] = base | v
                    append(v | roll)
                    r += 1
            nres[s] = r
        last = s
    if last != NOBODY:
        m.last_roll_seat = last
        m.last_result = m.rolls[last][nres[last] - 1]
        m.acted_phase = ROLLING
    _score_round(m)


def _roll_rest(m, s, roll, draw):
    """Seat s's results not rolled yet, its roll resumed (a seat's first
    results entered before the playout began)."""
    kinds = core.KINDS
    done = m.nres[s]
    hand = m.hands[s]
    results = m.rolls[s]
    r = 0
    for i in range(m.held[s]):
        base = hand[i] >> 5 << 5
        per, faces = kinds[base >> 5 & 31]
        while per:
            if r >= done:
                v = draw(len(faces))
                results[r] = base | v
                m.journal.append(v | roll)
            r += 1
            per -= 1
    m.nres[s] = r


def met_by(rolls, counts, challenge):
    """The core's met_by(rolls, counts, challenge), one evaluate() of each
    seat's roll: the seats meeting a threshold test, or scoring the best
    (none when nobody has a number) in a comparison."""
    test, k, v = challenge[core.TEST], challenge[core.K], challenge[core.V]
    scores = [scoring.evaluate(rolls[s], counts[s], test, k, v) for s in range(len(rolls))]
    top = max(scores) if scoring.is_comparison(challenge[core.TEST]) else 1
    if top == scoring.NO_SCORE:
        return []
    return [s for s in range(len(rolls)) if scores[s] == top]


def _score_round(m):
    """match.py's _score_round with the challenge met once (met_by above;
    award is its seats given the challenge's VP)."""
    n = m.players
    row = core.CHALLENGES[m.challenge]
    winners = met_by(m.rolls, m.nres, row)
    gained = m.next_row()  # history's next row, zeros, as the match's
    for s in winners:
        gained[s] = row[core.VP]
    m.last_winners[:] = winners  # the match's own list
    m.last_winner = winners[0] if winners else NOBODY
    m.last_challenge = m.challenge
    m.last_leader = m.start
    m.last_first_passer = m.first_passer
    totals = m.totals
    for s in range(n):
        totals[s] += gained[s]
    m.round += 1
    m.start = core.next_start(m.first_passer, m.start)
    m.challenge = NO_CHALLENGE
    # match.py's _start_round: every die back to the centre.
    m.held[:] = m.passed[:] = bytes(n)
    m.centre[:] = m.dice
    m.ncentre = len(m.dice)
    m.first_passer = NOBODY
    m.turn = m.start
    m.phase = PICKING
    if m.round < m.rounds:
        return
    m.turn = NOBODY
    m.tied[:] = scoring.leaders(totals)  # the match's own list
    if len(m.tied) > 1:
        m.phase = ROLL_OFF
    else:
        m._finish(m.tied[0])
