"""d-TT's random playout: the match played to its end at random, for the
designers' batches and the benches (never flashed: host_tools.flash and
firmware/manifest.py leave every game's playout.py out, so the board's heap
never holds it).

playout(match, draw) gives what random_action(seat, draw) and take() give,
draw for draw (each action drawn for the table, else for the lowest seat
waited on): the same journal and state (tests/test_engine_fast.py).  It is
faster because a phase's actions are drawn and applied in one loop, each
card applied by where it stands (apply() has to find it), without a call per
action of waiting(), random_action(), take() and apply()'s dispatch.
"""

from dicetable.games.dtt.match import (
    DEALING_1,
    DEALING_2,
    DRAFT_1,
    DRAFT_2,
    OVER,
    PLAYING,
)
from dicetable.match.actions import (
    DEAL,
    KEEP,
    PLAY,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    action,
)

PLAY_A = action(PLAY, 0, 0)
DEAL_A = action(DEAL, 0, 0)
KEEP_A = action(KEEP, 0, 0)
# The lowest seat of a mask of seats 0-2 (not 0).
LOWEST = (-1, 0, 1, 0, 2, 0, 1, 0)


def playout(match, draw):
    """Play `match` to its end at random (draw(n): a uniform int in [0, n))."""
    while True:
        p = match.phase
        if p == PLAYING:
            _play_out(match, draw)
        elif p == DEALING_1 or p == DEALING_2:
            _deal_out(match, p, draw)
        elif p == DRAFT_1 or p == DRAFT_2:
            _draft_out(match, p, draw)
        elif p == OVER:
            return
        else:
            w = match.waiting()
            match.take(match.random_action(TABLE if w & TABLE_BIT else LOWEST[w], draw))


def _play_out(m, draw):
    journal = m.journal
    while m.phase == PLAYING:
        seat = m.turn
        if m.open:
            i = -1
            c = m.stock[draw(m.stock_n)]
        else:
            i = m._card_at(seat, draw)
            c = m.hands[seat][i]
        m._play(seat, c, i)
        journal.append(c | PLAY_A | (seat << SEAT_SHIFT))


def _deal_out(m, p, draw):
    journal = m.journal
    while m.phase == p:
        x = m._deal_at(draw)
        seat = x >> 8
        journal.append(m._deal(seat, x & 0xFF) | DEAL_A | (seat << SEAT_SHIFT))


def _draft_out(m, p, draw):
    journal = m.journal
    while m.phase == p:
        seat = LOWEST[m.to_act]
        c = m._keep(seat, draw(m.packet_n[seat]))
        journal.append(c | KEEP_A | (seat << SEAT_SHIFT))
