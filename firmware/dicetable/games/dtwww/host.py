"""DTwww on the host: readable items, transcript lines, a simple bot, open-play journals.

The match engine is firmware/dicetable/games/dtwww/match.py; the rules core
firmware/dicetable/games/dtwww/rules.py. CPython only.
"""

from dicetable.games.dtwww import match as engine
from dicetable.games.dtwww import rules as dt
from dicetable.games.dtwww import table
from dicetable.games.dtwww.table import SIZES
from dicetable.match.actions import CHOOSE, DEAL, PLAY, ROLL, TABLE, kind_of, seat_of, value_of
from dicetable.match.engine import OPEN_PLAY
from dicetable.rules.trick import Trick


def describe_die(item):
    """'red d6' (no number): the physical die, in the table's words."""
    return table.item_name(item, False)


def describe(item):
    """'red d6:4', or for a white die played: 'white d8:3 as blue' (the
    table's words: table.item_name, as the board logs it)."""
    return table.item_name(item, True)


def _who(seat):
    return "the table" if seat == TABLE else "seat %d" % seat


def _seats(seats):
    return ", ".join(str(s) for s in seats)


def narrate(match, action):
    """Transcript lines for `action`, just accepted by `match`."""
    kind, seat, value = kind_of(action), seat_of(action), value_of(action)
    ev = match.event
    lines = []
    if ev & engine.EV_GAME:
        return _game_lines(match)
    if kind == DEAL or (kind == ROLL and match.phase == engine.PHASE_DEAL):
        return lines  # the deal is printed once complete
    if ev & engine.EV_DEALT:
        lines.append("game %d: every hand is registered" % (match.game + 1))
        for s in range(match.players):
            hand = match.hand(s)
            lines.append(
                "  seat %d: public %s; private %s"
                % (
                    s,
                    " ".join(describe(d) for d in hand[:3]),
                    " ".join(describe(d) for d in hand[3:]),
                )
            )
        lines.append("seat %d leads trick 1" % match.leader)
        return lines
    if kind == PLAY:
        lines.append("seat %d plays %s" % (seat, describe(value)))
        if ev & engine.EV_TRICK:
            lines += _trick_lines(match)
        return lines
    if kind == CHOOSE:
        lines.append("seat %d chooses a %s for the roll-off" % (seat, SIZES[value]))
        return lines
    if kind == ROLL and match.phase != engine.PHASE_SCORE:
        lines += _rolloff_lines(match, seat, value)
    return lines


def _trick_lines(match):
    n = match.last_trick_count
    won = [i for i in range(n) if match.last_trick_seats[i] == match.last_winner][0]
    line = "trick %d: seat %d wins with %s (a score die)" % (
        match.tricks_played,
        match.last_winner,
        describe(match.last_trick_items[won]),
    )
    if match.phase == engine.PHASE_SCORE:
        return [line, "%d tricks played: every score die is rolled" % dt.TRICKS]
    return [line + "; seat %d leads next" % match.leader]


def _game_lines(match):
    n = match.players
    variant = match.mode == dt.SCORE_TOTAL
    lines = ["game %d scored%s:" % (match.game, " (variant: dice totals)" if variant else "")]
    for s in range(n):
        dice = match.game_dice[s][: match.game_counts[s]]
        count = match.game_counts[s]
        if count:
            rolled = "%s = %d (%d %s)" % (
                " + ".join("%s %d" % (describe_die(d), dt.number(d)) for d in dice),
                match.game_totals[s],
                count,
                "die" if count == 1 else "dice",
            )
        else:
            rolled = "no score die"
        lines.append(
            "  seat %d: %s, rank %d, +%d -> %d"
            % (s, rolled, match.game_ranks[s], match.game_points[s], match.totals[s])
        )
    if match.phase in (engine.PHASE_DEAL, engine.PHASE_PLAY):
        lines.append("game %d: seat %d (last-ranked) leads" % (match.game + 1, match.game_leader))
    if match.event & engine.EV_ROLLOFF:
        tied = [s for s in range(n) if match.contenders[s]]
        lines.append(
            "seats %s tie with %d points: roll-off, each with a die of their choice"
            % (_seats(tied), match.totals[tied[0]])
        )
    if match.event & engine.EV_OVER:
        lines.append("match over: seat %d has the most points" % match.winner)
    return lines


def _rolloff_lines(match, seat, value):
    s = match.roll_seat
    rolled = match.last_rolls[s] if match.event & engine.EV_ROLLOFF_ROUND else match.rolls[s]
    size = rolled >> engine.ROLLOFF_SIZE_SHIFT
    lines = [
        "%s rolls %s for seat %d: %d" % (_who(seat), SIZES[size], s, rolled & 0xFF)
        if seat == TABLE
        else "seat %d rolls a %s: %d" % (s, SIZES[size], rolled & 0xFF)
    ]
    if match.event & engine.EV_OVER:
        lines.append("seat %d wins the roll-off" % match.winner)
    elif match.event & engine.EV_ROLLOFF_ROUND:
        tied = [t for t in range(match.players) if match.contenders[t]]
        lines.append("seats %s tie (same number on the same die): roll again" % _seats(tied))
    return lines


# --- the bot ----------------------------------------------------------------


def _wins_now(match, item):
    """Would `item`, played now, be the trick's winner so far (core resolve)?"""
    t = Trick(match.players)
    for i in range(match.trick.count):
        t.add(match.trick.seats[i], match.trick.items[i])
    t.add(7, item)
    return dt.resolve(t) == t.count - 1


def _play_key(match, item):
    """Bigger is better. Lead: the lowest number, then the biggest die (a low
    number tends to win, and a big score die rolls high). Follow: win with the
    biggest die when last to play, else with the lowest number; a die that
    cannot win is dumped: the highest number, the smallest die."""
    number, sides = dt.number(item), dt.sides(dt.size(item))
    if match.trick.count == 0:
        return (1, -number, sides)
    if _wins_now(match, item):
        if match.trick.count == match.players - 1:
            return (2, sides, number)
        return (2, -number, sides)
    return (0, number, -sides)


def heuristic(match, seat, legal, rng):
    """One action from `legal` for `seat`: rolls and scans are uniform draws (a
    real roll, a die drawn from the bag); plays follow `_play_key`; the roll-off
    die is a d20 (the highest numbers)."""
    kind = kind_of(legal[0])
    if kind == PLAY:
        keys = [_play_key(match, value_of(a)) for a in legal]
        best = max(keys)
        return rng.choice([a for a, k in zip(legal, keys, strict=True) if k == best])
    if kind == CHOOSE:
        return [a for a in legal if value_of(a) == dt.D20][0]
    if kind == ROLL and match.phase == engine.PHASE_ROLLOFF and seat != TABLE:
        return rng.choice([a for a in legal if value_of(a) >> engine.ROLLOFF_SIZE_SHIFT == dt.D20])
    return rng.choice(legal)


def open_play_journal(journal, players, options):
    """The journal of the same match in open play: without the deal (every DEAL
    and every deal ROLL); plays, score rolls and roll-off actions are the same."""
    match = engine.new(players, options & ~OPEN_PLAY)
    out = []
    for a in journal:
        if match.phase != engine.PHASE_DEAL:
            out.append(a)
        code = match.submit(a)
        if code:
            raise ValueError("action %d refused (%d)" % (a, code))
    return out
