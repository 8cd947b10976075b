"""DTwww on the host: readable items, transcript lines, a simple bot, open-play journals.

The match engine is firmware/dicetable/games/dtwww/match.py (on deal.py); the rules core
firmware/dicetable/games/dtwww/rules.py. CPython only.
"""

from dicetable.app.line import words
from dicetable.games.dtwww import deal, table
from dicetable.games.dtwww import match as engine
from dicetable.games.dtwww import rules as dt
from dicetable.games.dtwww.table import SIZES
from dicetable.match.actions import (
    CHOOSE,
    DEAL,
    PLAY,
    ROLL,
    TABLE,
    action,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import OPEN_PLAY
from sim import ismcts
from sim.draws import drawer
from sim.gamehost import GameHost, describe_of, nothing


def describe_die(item):
    """'red d6' (no number): the physical die, in the table's words."""
    return words(table.item_words, item, False)


# describe(item): 'red d6:4', or for a white die played: 'white d8:3 as blue' (the
# table's words: table.item_words, as the board logs it).
describe = describe_of(table)


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
    if ev & deal.EV_DEALT:
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
        if ev & deal.EV_TRICK:
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


def _play_keys(match, values):
    """Each play's key, bigger is better. Lead: the lowest number, then the
    biggest die (a low number tends to win, and a big score die rolls high).
    Follow: win with the biggest die when last to play, else with the lowest
    number; a die that cannot win is dumped: the highest number, the smallest
    die."""
    trick = match.trick
    if trick.count == 0:
        return [(1, -dt.number(i), dt.sides(dt.size(i))) for i in values]
    # A play wins the trick so far when it takes over the winner so far (the
    # core's resolve, which goes through the plays in order): one resolve a
    # decision rather than one of a copy of the trick a play.
    lead = trick.items[0]
    best = trick.items[dt.resolve(trick)]
    last = trick.count == match.players - 1
    keys = []
    for i in values:
        number, sides = dt.number(i), dt.sides(dt.size(i))
        if dt.takes_over(lead, i, best):
            keys.append((2, sides, number) if last else (2, -number, sides))
        else:
            keys.append((0, number, -sides))
    return keys


def heuristic(match, seat, legal, rng):
    """One action from `legal` for `seat`: rolls and scans are uniform draws (a
    real roll, a die drawn from the bag); plays follow `_play_keys`; the roll-off
    die is a d20 (the highest numbers)."""
    kind = kind_of(legal[0])
    if kind == PLAY:
        keys = _play_keys(match, [value_of(a) for a in legal])
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


# --- the ISMCTS bot's tuning (sim/ismcts.py), chosen by measurement (docs/bots.md,
# "What was measured"): the smallest budget measured to beat the heuristic,
# and the search's own options.

ISMCTS_PLAYOUTS = 200
ISMCTS_OPTIONS = {"paired": True}


# --- what a seat sees: determinizations for the ISMCTS bot (sim/ismcts.py) -------------
#
# Public: every seat's first three dice (outside its screen) with their numbers,
# every die played, every score die and roll-off.  Hidden: the other seats'
# six private dice, which die and which number, until played.  A finished game
# hides nothing: all nine dice of every seat are played face up.

HIDDEN_DECISIONS = ()  # every decision (a play, a roll-off die) is public
PUBLIC_DICE = 3  # a seat's first three registered dice lie outside its screen


def observe(match, seat, a):
    """Action `a`, just taken, as `seat` sees it (the search tree's key): the
    action itself, or its kind and seat alone for another seat's private die
    registered or rolled."""
    if match.phase != engine.PHASE_DEAL and not match.event & deal.EV_DEALT:
        return a
    k, s = kind_of(a), seat_of(a)
    if k == DEAL and s != seat and match.hand_n[s] > PUBLIC_DICE:
        return ismcts.masked(a)
    if k == ROLL and match.roll_seat != seat and match.hand_n[match.roll_seat] > PUBLIC_DICE:
        return ismcts.masked(a)
    return a


def last_round(match):
    """Is the round in progress the match's last (sim/ismcts.py's "lead"
    reward is the win once it is scored)?"""
    return match.game + 1 >= match.games


def only_chance_left(match):
    """Nothing but chance is left before the game is scored: the score dice
    are rolled (sim/ismcts.py averages its reward over several throws)."""
    return match.phase == engine.PHASE_SCORE


THROWS = 16  # throws of the score dice in one playout's chance_outcomes


def chance_outcomes(match, rng):
    """Equally likely match totals once the game is scored, when only the
    score dice are left to roll (only_chance_left): THROWS throws of the
    score dice not rolled yet, each scored by the rules core.  Sixteen throws
    cost a fraction of one throw through the engine, which lists every face
    of every die it rolls (sim/ismcts.py, docs/bots.md)."""
    n = match.players
    counts = [match.score_n[s] for s in range(n)]
    # Per seat, what its rolled dice show plus the lowest face of each die to
    # roll, and each of those dice's count of faces: a throw then adds a draw
    # per die, the same draws in the same order as rolling each die through
    # the core's rolled() and number() (a third of a DTwww decision's time).
    shown, faces = [], []
    for s in range(n):
        total, spans = 0, []
        for j in range(counts[s]):
            d = match.score[s][j]
            if j >= match.score_rolled[s]:
                low = dt.lowest_face(dt.size(d))
                total += low
                spans.append(dt.highest_face(dt.size(d)) - low + 1)
            else:
                total += dt.number(d)
        shown.append(total)
        faces.append(spans)
    draw = drawer(rng)
    before = list(match.totals)
    mode = match.mode
    out = []
    for _ in range(THROWS):
        totals = [shown[s] + sum(map(draw, faces[s])) for s in range(n)]
        points = dt.game_points(totals, counts, mode)
        out.append([t + p for t, p in zip(before, points, strict=True)])
    return out


def view(match, seat, rng):
    """(prefix, sample): the journal of the finished games as `seat` can know
    it, and sample(rng), the game in progress with the other seats' private
    dice drawn among those consistent with what `seat` saw (its own dice, the
    public dice, every die played, and who could not follow which lead)."""
    journal = match.journal
    if match.open:  # nothing is registered: nothing is hidden in the engine
        return list(journal), nothing
    starts = _game_starts(journal)
    prefix = []
    for i in range(len(starts) - 1):
        prefix += _GameView(journal[starts[i] : starts[i + 1]], seat, match.players, False).known()
    current = _GameView(journal[starts[-1] :] if starts else [], seat, match.players, True)
    return prefix, current.sample


def _game_starts(journal):
    """Where each game's registration begins in a registered journal."""
    starts = []
    dealing = False
    for i, a in enumerate(journal):
        k = kind_of(a)
        if k == DEAL and not dealing:
            starts.append(i)
        dealing = k != PLAY and (dealing or k == DEAL)
    return starts


class _GameView:
    """One game's actions as `seat` knows them, and how to fill in the rest."""

    def __init__(self, actions, seat, players, current):
        self.actions, self.seat, self.n = actions, seat, players
        n = players
        self.scans = [[] for _ in range(n)]  # per seat: [die identity, number or -1]
        self.hidden = []  # (seat, scan index) of each private die, in journal order
        last = -1
        for a in self._registration():
            k, s, v = kind_of(a), seat_of(a), value_of(a)
            if k == DEAL:
                self.scans[s].append([v, -1])
                last = s
            else:
                self.scans[last if s == TABLE else s][-1][1] = v
        self.plays = [
            [value_of(a) for a in actions if kind_of(a) == PLAY and seat_of(a) == s]
            for s in range(n)
        ]
        self.forbidden = ismcts.voids(actions, seat, n, _unfollowed) if current else None
        self.faces = {}  # (die, seat): the numbers it may show there

    def _registration(self):
        """The game's DEALs and ROLLs before its first play, in order."""
        for a in self.actions:
            if kind_of(a) == PLAY:
                return
            yield a

    def _private(self, s):
        return self.scans[s][PUBLIC_DICE:]

    def known(self):
        """The game's actions when every die is known (a finished game): each
        seat's private dice are the dice it played but its public ones."""
        return self.journal([self._played_private(s) for s in range(self.n)])

    def _played_private(self, s):
        public = [d for d, _ in self.scans[s][:PUBLIC_DICE]]
        out = []
        for item in self.plays[s]:
            d = dt.die_of(item)
            if deal.identity(d) not in public:
                out.append([deal.identity(d), dt.number(d)])
        return out

    def sample(self, rng):
        """The game's actions with the private dice `seat` cannot see drawn."""
        n, me = self.n, self.seat
        dice = [self._played_private(s) for s in range(n)]
        seen = {d for s in range(n) for d, _ in self.scans[s][: PUBLIC_DICE if s != me else 9]}
        seen.update(d for s in range(n) for d, _ in dice[s])
        pool = [d for d in _BOX_DICE if d not in seen]
        slots = []
        for s in range(n):
            if s != me:
                slots += [s] * (len(self._private(s)) - len(dice[s]))
        slots += [-1] * (len(pool) - len(slots))  # in the bag
        faces = self._faces

        def weight(d, s):
            return 1 if s < 0 else len(faces(d, s))

        for s, d in zip(slots, ismcts.deal_hidden(pool, slots, weight, rng), strict=True):
            if s >= 0:
                options = faces(d, s)
                dice[s].append([d, options[rng.randrange(len(options))]])
        return self.journal(dice)

    def _faces(self, d, s):
        """The numbers die `d` may show in seat s's hand: those that would not
        have obliged it to follow where it did not."""
        faces = self.faces.get((d, s))
        if faces is None:
            assert self.forbidden is not None  # drawn only in the game in progress
            bad = self.forbidden[s]
            faces = [f for f in deal.faces(dt.size(d)) if dt.rolled(d, f) not in bad]
            self.faces[(d, s)] = faces
        return faces

    def journal(self, private):
        """The game's actions with each other seat's private scans (and their
        rolls) taken from `private` (per seat, [die, number] in scan order; a
        die not rolled yet keeps its number unused)."""
        out = []
        count = [0] * self.n
        last = -1
        registering = True
        for a in self.actions:
            k, s = kind_of(a), seat_of(a)
            registering = registering and k != PLAY
            if registering and k == DEAL:
                last = s
                count[s] += 1
                if s != self.seat and count[s] > PUBLIC_DICE:
                    a = action(DEAL, s, private[s][count[s] - PUBLIC_DICE - 1][0])
            elif registering and k == ROLL:
                owner = last if s == TABLE else s
                if owner != self.seat and count[owner] > PUBLIC_DICE:
                    a = action(ROLL, s, private[owner][count[owner] - PUBLIC_DICE - 1][1])
            out.append(a)
        return out


_BOX_DICE = [deal.identity(d) for d in dt.box()]


def _unfollowed(trick, v):
    """The dice (with their numbers) whose holding would have obliged a seat
    to follow a lead where it played `v` (the rules core's is_legal over a
    hand of the die played and that die)."""
    if dt.follows(trick.items[0], v):
        return ()
    return [
        c
        for d in _BOX_DICE
        for c in (dt.rolled(d, f) for f in deal.faces(dt.size(d)))
        if not dt.is_legal([dt.die_of(v), c], 2, trick, v)
    ]


# The game as the simulator knows it (sim/gamehost.py):
# a seat's six private dice are behind its screen; dice are rolled.
HOST = GameHost(
    "dtwww",
    hidden_hands=True,
    chance=True,
    narrate=narrate,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    hidden_decisions=HIDDEN_DECISIONS,
    last_round=last_round,
    ismcts_playouts=ISMCTS_PLAYOUTS,
    ismcts_options=ISMCTS_OPTIONS,
    only_chance_left=only_chance_left,
    chance_outcomes=chance_outcomes,
    open_play_journal=open_play_journal,
)
