"""Dicefull on the host: dice and challenge names, transcript lines and the heuristic bot."""

from dicetable.games.dicefull import match as engine
from dicetable.games.dicefull import rules as df
from dicetable.games.dicefull import scoring_rules as scoring
from dicetable.games.dicefull import table
from dicetable.match.actions import PASS, PICK, TABLE, kind_of, seat_of, value_of
from sim.draws import drawer
from sim.gamehost import GameHost, describe_of, nothing

SYMBOL_NAMES = {df.BLANK: "blank", df.PLUS: "+", df.MINUS: "-", df.RED: "red", df.BLACK: "black"}
FAMILY_NAMES = ("compare", "high/low", "special", "faces", "totals")


# describe(item), a die: 'd20', 'double', or 'd6 #2' for a second die of a kind: the
# table's words (table.item_words), as the board logs it.
describe = describe_of(table)


def tenths(value):
    """A number held in tenths (R7) as a player reads it: 3, 0.5, -0.3, 64."""
    sign = "-" if value < 0 else ""
    whole, tenth = divmod(abs(value), 10)
    return "%s%d" % (sign, whole) if tenth == 0 else "%s%d.%d" % (sign, whole, tenth)


def face_text(code):
    """A face code: its number, or blank, +, −, red, black."""
    if df.is_number(code):
        return tenths(code)
    return SYMBOL_NAMES.get(code, "symbol")


def describe_result(result):
    """A rolled result: 'd20:17', 'double die:3', '± die:+'."""
    return "%s:%s" % (describe(result), face_text(df.face(result)))


def _what(v):
    """The `v` of a COUNT test."""
    if v == df.ANY_NUMBER:
        return "number"
    if v == df.ANY_COLOUR:
        return "colour face"
    if v == df.NO_VALUE:
        return "face without a number"
    if df.is_number(v):
        return tenths(v)
    return SYMBOL_NAMES.get(v, "symbol") + " face"


def challenge_text(row):
    """A challenge row (family, test, k, v, vp) in words."""
    test, k, v = row[df.TEST], row[df.K], row[df.V]
    words = {
        df.MOST_TOTAL: "highest total",
        df.LEAST_TOTAL: "lowest total",
        df.MOST_SINGLE: "highest single number",
        df.LEAST_SINGLE: "lowest single number",
        df.CLOSEST_TOTAL: "total closest to %s" % tenths(k),
        df.HIGH_AT_LEAST: "a number of %s or more" % tenths(k),
        df.LOW_AT_MOST: "a number of %s or less" % tenths(k),
        df.ALL_AT_LEAST: "%d+ numbers, all %s or more" % (max(v, 1), tenths(k)),
        df.ALL_AT_MOST: "%d+ numbers, all %s or less" % (max(v, 1), tenths(k)),
        df.TOTAL_AT_LEAST: "a total of %s or more" % tenths(k),
        df.TOTAL_AT_MOST: "a total of %s or less" % tenths(k),
        df.TOTAL_EXACTLY: "a total of exactly %s" % tenths(k),
        df.TOTAL_MULTIPLE: "a total that is a multiple of %s" % tenths(k),
        df.SAME_AT_LEAST: "%d of the same number" % k,
        df.ALL_DIFFERENT: "%d+ numbers, all different" % k,
        df.COUNT_AT_LEAST: "at least %d × %s" % (k, _what(v)),
        df.COUNT_EXACTLY: "exactly %d × %s" % (k, _what(v)),
    }.get(test, "test %d" % test)
    return "%s (%s, %d VP)" % (words, FAMILY_NAMES[row[df.FAMILY]], row[df.VP])


def _seats(seats):
    return ", ".join("seat %d" % s for s in seats) if seats else "nobody"


def _round_header(match):
    return "round %d of %d: seat %d starts picking" % (match.round + 1, match.rounds, match.start)


def _round_lines(match):
    """The round just scored: every seat's roll, who met the challenge, VP and totals."""
    row = df.CHALLENGES[match.last_challenge]
    lines = []
    for s in range(match.players):
        results = [describe_result(match.rolls[s][i]) for i in range(match.nres[s])]
        lines.append("  seat %d rolled %s" % (s, ", ".join(results) if results else "no dice"))
    met = match.last_winners
    if met:
        lines.append("%s met it: +%d VP" % (_seats(met), row[df.VP]))
    else:
        lines.append("nobody met it")
    lines.append(
        "VP this round %s; totals %s"
        % (" ".join(str(x) for x in match.history[-1]), " ".join(str(x) for x in match.totals))
    )
    if match.phase == engine.PICKING:
        if match.last_first_passer == engine.NOBODY:
            why = " (nobody passed: the start player stays, R6)"
        else:
            why = " (the first to pass)"
        lines.append("dice back to the centre; " + _round_header(match) + why)
    elif match.phase == engine.ROLL_OFF:
        lines.append(
            "game over after %d rounds: %s tied on %d VP, roll-off with a d6"
            % (match.round, _seats(match.tied), max(match.totals))
        )
    else:
        lines.append(
            "game over after %d rounds: seat %d wins with %d VP"
            % (match.round, match.winner, match.totals[match.winner])
        )
    return lines


def narrate(match, a):
    """Transcript lines for action `a`, just accepted by `match`."""
    phase = match.acted_phase
    lines = []
    if len(match.journal) == 1 and phase != engine.SETUP:
        lines.append(_round_header(match))
    narrator = {
        engine.SETUP: _narrate_setup,
        engine.PICKING: _narrate_picking,
        engine.CHECK: _narrate_check,
        engine.ROLLING: _narrate_rolling,
    }.get(phase, _narrate_roll_off)
    narrator(match, a, lines)
    return lines


def _narrate_setup(match, a, lines):
    roller = "the table" if match.flag(engine.TABLE_ROLLS) else "seat %d" % (match.length_roller())
    lines.append("%s rolls the game-length 2d6: %d" % (roller, engine.d6_number(value_of(a))))
    if match.phase != engine.SETUP:
        first, second = (engine.d6_number(x) for x in match.length_rolls)
        lines.append("the game lasts %d + %d = %d challenges" % (first, second, match.rounds))
        lines.append(_round_header(match))


def _narrate_picking(match, a, lines):
    seat = seat_of(a)
    if kind_of(a) == PICK:
        lines.append(
            "seat %d picks the %s (%d held)" % (seat, describe(value_of(a)), match.held[seat])
        )
    else:
        first = " — first to pass: starts the next round" if match.first_passer == seat else ""
        lines.append("seat %d passes with %d dice%s" % (seat, match.held[seat], first))
    if match.phase == engine.CHECK:
        why = " (the centre is empty, R6)" if match.ncentre == 0 else ""
        lines.append("picking is over%s:" % why)
        for s in range(match.players):
            dice = [describe(match.hands[s][i]) for i in range(match.held[s])]
            lines.append("  seat %d holds %s" % (s, ", ".join(dice) if dice else "nothing"))


def _narrate_check(match, a, lines):
    value = value_of(a)
    lines.append(
        "challenge %d of %d revealed: #%d %s"
        % (match.round + 1, match.rounds, value, challenge_text(df.CHALLENGES[value]))
    )
    if match.phase != engine.ROLLING:
        lines.extend(_round_lines(match))


def _narrate_rolling(match, a, lines):
    who = "seat %d" % match.last_roll_seat
    if seat_of(a) == TABLE:
        who = "the table for seat %d" % match.last_roll_seat
    lines.append(
        "%s rolls the %s: %s"
        % (who, describe(match.last_result), face_text(df.face(match.last_result)))
    )
    if match.phase != engine.ROLLING:
        lines.extend(_round_lines(match))


def _narrate_roll_off(match, a, lines):
    seat = match.last_roll_seat
    who = "seat %d" % seat if seat_of(a) != TABLE else "the table for seat %d" % seat
    lines.append("%s rolls %d in the roll-off" % (who, engine.d6_number(value_of(a))))
    if match.phase == engine.OVER:
        lines.append("seat %d wins the roll-off and the game" % match.winner)
    elif all(match.off_done[s] == 0 for s in match.tied):
        lines.append("%s rolled highest and are still tied: they roll again" % _seats(match.tied))


# --- the heuristic bot --------------------------------------------------------------

# What a die adds to a hand, in hundredths of a VP summed over the 22 challenges
# of the table's set (so 22 rounds' worth): the expected VP one more die of the
# kind gains when added to five dice drawn at random from the centre, against
# an opponent of six random dice (Monte Carlo, 1,200 hands of each size, 60
# throws each, scored by the rules core; a linear fit of the VP on which kinds
# are held).  The ± die joins two numbers into a negative total, a 0 or a big
# sum (a total below zero, the lowest total, exactly 0: 3.4 VP); the doubling
# cube and the d20 win the highest total and single number and the totals of
# 30 or more; the double die's two numbers make pairs and three of a kind.  The
# plain number dice add about 1 VP each; the d6s (digits, pips, digital) are
# one figure, their three fits differing by noise.  A red/black die only ever
# shows a red face (0.5 VP); a blank die adds nothing once a number is held.
WORTH = {
    df.PLUS_MINUS: 339,
    df.DOUBLING: 268,
    df.D20: 231,
    df.DOUBLE: 216,
    df.D12: 152,
    df.D10: 139,
    df.D8: 124,
    df.HAKKE: 121,
    df.D6: 113,
    df.D6_PIPS: 113,
    df.DIGITAL: 113,
    df.ZERO_TWO: 113,
    df.DECIMAL: 102,
    df.D4: 96,
    df.RED_BLACK: 50,
    df.BLANK_D6: 0,
}
# A kind the table does not ship (a die added to KINDS): a number die's worth.
OTHER_WORTH = 100


# The dice the heuristic aims for: it passes once it holds this many.  More
# dice win more against random seats (3,000 matches of 2 players, the seat
# rotated, seeds 400000 on: stopping at 4 dice 0.670, at 5 0.710, at the
# limit of 6 0.756; with 5 players 0.464 at 4, 0.487 at the limit of 5), but
# the search bot plays its playouts with this heuristic and scores every
# seat's hand against every challenge the deck may still reveal
# (chance_outcomes): with the ± die each pair of numbers is a choice to
# score, so with 6 an ISMCTS decision of 2 players took 263 CPU ms against
# 147 with 4, which costs what the earlier heuristic's hands of 2 to 5 did
# (docs/bots.md, "The heuristics").
AIM = 4


def heuristic(match, seat, legal, rng):
    """Pick the die worth most (WORTH) until holding AIM dice, then pass
    (the first to pass also starts the next round and picks first); pass
    sooner only when nothing left adds anything (a blank die).  Ties (dice
    of one worth) are drawn with `rng`.  Rolls are chance: a uniformly drawn
    face, like a real die."""
    first = kind_of(legal[0])
    if first != PICK and first != PASS:
        return rng.choice(legal)
    may_pass = kind_of(legal[-1]) == PASS
    if may_pass and match.held[seat] >= AIM:
        return legal[-1]
    best, top = [], -1
    for a in legal:
        if kind_of(a) == PICK:
            worth = WORTH.get(df.kind_of(value_of(a)), OTHER_WORTH)
            if worth > top:
                best, top = [a], worth
            elif worth == top:
                best.append(a)
    if top <= 0 and may_pass:
        return legal[-1]
    return best[0] if len(best) == 1 else rng.choice(best)


def open_play_journal(journal, players, options):
    """The same match in open play.  Dicefull has no hidden hand: every die is
    picked from the open centre onto the seat's reader (the table must know
    its kind to read the roll), so open play has the same actions."""
    return list(journal)


# --- the ISMCTS bot's tuning (sim/ismcts.py), chosen by measurement (docs/bots.md,
# "What was measured"): the smallest budget measured to beat the heuristic,
# and the search's own options.

ISMCTS_PLAYOUTS = 100
ISMCTS_OPTIONS = {"reward": "lead"}


# --- what a seat sees: determinizations for the ISMCTS bot (sim/ismcts.py) -------------
#
# Dicefull hides nothing: the dice are picked from the open centre, passes are
# pressed in turn, every result is entered in view.  What nobody knows yet (the
# next challenge, the rolls to come) is chance, drawn in the search itself.

HIDDEN_DECISIONS = ()  # every decision (pick, pass) is public
# A seat's roll is a uniform face in the heuristic too, so the search's
# playouts draw it with the engine's random_action (without listing the faces).
UNIFORM_DRAWS = True


def observe(match, seat, a):
    """Action `a` as `seat` sees it (the search tree's key): all of it."""
    return a


def last_round(match):
    """Is the round in progress the match's last (sim/ismcts.py's "lead"
    reward is the win once it is scored)?"""
    return match.round + 1 >= match.rounds


def only_chance_left(match):
    """Nothing but chance is left before the round is scored: the challenge
    is revealed and every die rolled (sim/ismcts.py averages its reward over
    several draws)."""
    return match.phase in (engine.CHECK, engine.ROLLING)


THROWS = 2  # throws of every seat's dice in one playout's chance_outcomes


def chance_outcomes(match, rng):
    """Equally likely totals after the round in progress, once only chance is
    left (only_chance_left): THROWS throws of the dice still to roll, each
    scored against every challenge the deck may reveal (or the one revealed).
    One throw judged against every challenge costs about what 8 challenges
    played through the engine did, and the challenge, the bulk of a round's
    luck, is then averaged exactly (sim/ismcts.py, docs/bots.md)."""
    n = match.players
    if match.phase == engine.CHECK:
        rows = [df.CHALLENGES[i] for i in range(len(match.used)) if not match.used[i]]
    else:
        rows = [df.CHALLENGES[match.challenge]]
    entered = match.nres if match.phase == engine.ROLLING else [0] * n
    dice = []  # per seat, the die behind each result (a double die: two)
    for s in range(n):
        behind = []
        for i in range(match.held[s]):
            item = match.hands[s][i]
            behind += [item] * df.results_per_die(df.kind_of(item))
        dice.append(behind)
    counts = [len(d) for d in dice]
    # Per seat, its results entered, and each die still to roll with its
    # count of faces: a throw is then one draw a die (drawer: randrange's draws).
    shown = [[match.rolls[s][j] for j in range(entered[s])] for s in range(n)]
    to_roll = [
        [(item, df.face_count(df.kind_of(item))) for item in dice[s][entered[s] :]]
        for s in range(n)
    ]
    draw = drawer(rng)
    before = list(match.totals)
    out = []
    for _ in range(THROWS):
        rolls = [
            shown[s] + [df.rolled(item, draw(faces)) for item, faces in to_roll[s]]
            for s in range(n)
        ]
        for row in rows:
            gained = scoring.award(rolls, counts, row)
            out.append([t + g for t, g in zip(before, gained, strict=True)])
    return out


def view(match, seat, rng):
    """(prefix, sample): the whole journal, and nothing to draw."""
    return list(match.journal), nothing


# --- what the table's views show (sim/table_view.py) -----------------------------


def hand(match, seat):
    """The dice `seat` has picked."""
    return [match.hands[seat][i] for i in range(match.held[seat])]


def centre(match):
    """The dice in the centre, still to pick."""
    return [match.centre[i] for i in range(match.ncentre)]


# The game as the simulator knows it (sim/gamehost.py):
# every die lies in view; the dice and the challenges are drawn.
# The LED legend's example of what the ring shows in a match of this game.
RING_LEGEND = (
    {"challenge": 6},
    "the challenge",
    "Dicefull: the challenge card's number, the last LED white (here 7).",
)

HOST = GameHost(
    "dicefull",
    hidden_hands=False,
    chance=True,
    narrate=narrate,
    ring_legend=RING_LEGEND,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    hand=hand,
    centre=centre,
    hidden_decisions=HIDDEN_DECISIONS,
    last_round=last_round,
    ismcts_playouts=ISMCTS_PLAYOUTS,
    ismcts_options=ISMCTS_OPTIONS,
    only_chance_left=only_chance_left,
    chance_outcomes=chance_outcomes,
    uniform_draws=UNIFORM_DRAWS,
    open_play_journal=open_play_journal,
)
