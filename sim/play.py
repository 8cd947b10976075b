"""Playing and replaying matches, and the transcript a person reads.

How a seed becomes a match is the *seeding* (docs/designers.md, "Seeds"):
- 2, the default: the table, else the lowest seat waited on, acts; the table's
  chance and a random bot's move are the engine's random_action(seat, draw)
  (nothing listed), taken unchecked; when every seat is random and nobody reads
  the transcript, the game's playout() plays the same match draw for draw.
- 1, before 30 Nov 2026: the seat acting drawn among those waited on, and
  every action a choice from legal_actions(), submitted.  A seed written
  then (a results.csv, a golden transcript) plays its match again with it.
"""

import importlib
import random

from dicetable import games as registry
from dicetable.app.games import title
from dicetable.games import new_match
from dicetable.match.actions import REFUSAL_NAMES, TABLE, TABLE_BIT
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT
from sim import gamehost, ismcts
from sim.draws import drawer
from sim.hostfile import special

BOTS = ("random", "heuristic", "ismcts")
SEEDING = 2  # how a seed becomes a match: see above
SEEDINGS = (1, 2)


def parse_bot(name):
    """(bot, playouts, ms) for a bot name: `random`, `heuristic`, or `ismcts`
    with an optional budget, `ismcts:300` (playouts) or `ismcts:50ms`
    (milliseconds a decision); a bare `ismcts` has ismcts.DEFAULT_PLAYOUTS.
    ValueError with one line saying what would be right for anything else."""
    bot, sep, budget = name.partition(":")
    right = "bots are random, heuristic or ismcts[:PLAYOUTS or :MSms], e.g. ismcts:300"
    if bot not in BOTS or (sep and bot != "ismcts"):
        raise ValueError("no bot %r (%s)" % (name, right))
    if bot != "ismcts":
        return bot, 0, 0
    if not sep:
        return bot, ismcts.DEFAULT_PLAYOUTS, 0
    ms = budget.endswith("ms")
    digits = budget[:-2] if ms else budget
    if not digits.isdigit() or not 0 < int(digits) <= 10**7:
        raise ValueError("bad budget in %r: playouts or milliseconds from 1 (%s)" % (name, right))
    return (bot, 0, int(digits)) if ms else (bot, int(digits), 0)


def bots_refusal(game, bots):
    """Why one of `bots` (names as parse_bot() takes them) cannot play the
    game `game`, or None: the one line of sim/gamehost.py's refusal() for the
    first part of the game a bot needs and does not find."""
    for bot in dict.fromkeys(bots):
        why = gamehost.refusal(game, bot)
        if why:
            return why
    return None


class RefusedAction(Exception):
    """An action the rules refuse; from replay(), `number` is its place among
    the actions (1 = the first), `action` the action and `reason` the refusal."""

    def __init__(self, message, number=0, action=0, reason=""):
        super().__init__(message)
        self.number, self.action, self.reason = number, action, reason


def player_range(game):
    cls = type(new_match(game, 3))  # every game can be played by three
    return cls.MIN_PLAYERS, cls.MAX_PLAYERS


def describe_options(options):
    words = ["open play" if options & OPEN_PLAY else "registered hands"]
    if options & TABLE_ROLLS:
        words.append("table rolls")
    if options & VARIANT:
        words.append("variant")
    if options >> 8:
        words.append("length %d" % (options >> 8))
    return ", ".join(words)


def waiting_seats(match):
    mask = match.waiting()
    seats = [s for s in range(match.players) if mask & (1 << s)]
    if mask & TABLE_BIT:
        seats.append(TABLE)
    return seats


def choose(match, seat, bots, rng):
    """The action for `seat`: the table draws uniformly (a shuffle or a roll);
    a seat's bot picks among its legal actions."""
    legal = match.legal_actions(seat)
    if seat == TABLE or bots[seat] == "random":
        return rng.choice(legal)
    if bots[seat].startswith("ismcts"):
        _, playouts, ms = parse_bot(bots[seat])
        return ismcts.choose(match, seat, rng, playouts, ms)
    return gamehost.host_of(match).heuristic(match, seat, legal, rng)


def read_challenges(path):
    """The rows of the Dicefull challenge set in the text file `path`, read
    and checked by the board's own reader (dicefull/challenges.py); ValueError
    with one line naming the file, the line and what is wrong."""
    from dicetable.games.dicefull import challenges

    kind = special(path)  # a FIFO would block open() for ever
    if kind:
        raise ValueError(
            "%s: not a regular file (%s); give a challenge set,"
            " e.g. docs/examples/dicefull-challenges.txt" % (path, kind)
        )
    try:
        with open(path, "rb") as f:
            return challenges.read(f, path)
    except IsADirectoryError:
        raise ValueError("%s: a folder, not a challenge set (give a text file)" % path) from None
    except FileNotFoundError:
        raise ValueError(
            "%s: no such file (give a challenge set, e.g. docs/examples/dicefull-challenges.txt)"
            % path
        ) from None
    except OSError as e:
        raise ValueError("%s: cannot read it (%s)" % (path, e.strerror or e)) from None


def use_challenges(rows):
    """Play Dicefull with `rows` (read_challenges()) from the next match on; its
    set word, which a journal keeps."""
    from dicetable.games.dicefull import challenges

    challenges.use(rows)
    return challenges.word(rows)


def set_line(path, rows):
    """The transcript's line naming a set read from a file."""
    from dicetable.games.dicefull import challenges

    return "challenges: %d from %s (set %05x)" % (len(rows), path, challenges.word(rows))


def play(game, players, options, bots, seed, out=None, seeding=SEEDING):
    """Play one match with bots; `out` receives the transcript lines if given.
    `seeding`: how the seed becomes the match (above)."""
    rng = random.Random(seed)
    match = new_match(game, players, options)
    if out is None and seeding != 1 and bots.count("random") == players:
        quick = playout_of(game)
        if quick is not None:
            # A designer's batch of random matches: this path pays only for
            # what it uses (no host, no transcript), each match made afresh.
            quick(match, drawer(rng))
            return match
    text = gamehost.host(game)
    if out is not None:
        line = "%s, %d players, %s, seed %d" % (
            title(registry.number(game)),
            players,
            describe_options(options),
            seed,
        )
        out.append(line if seeding == SEEDING else line + ", seeding %d" % seeding)
        out.append("bots: " + ", ".join("seat %d %s" % (s, bots[s]) for s in range(players)))
    if seeding == 1:
        _play_listed(match, bots, rng, text, out)
    else:
        _play_drawn(match, bots, rng, text, out)
    if out is not None:
        out.extend(final_lines(match))
    return match


_PLAYOUTS = {}  # game key: its playout, or None


def playout_of(game):
    """The game's playout(match, draw) (dicetable/games/<key>/playout.py), or None."""
    if game not in _PLAYOUTS:
        try:
            module = importlib.import_module("dicetable.games.%s.playout" % game)
            _PLAYOUTS[game] = module.playout
        except ImportError:
            _PLAYOUTS[game] = None
    return _PLAYOUTS[game]


def acting(w):
    """The seat that acts in seeding 2 when the seats of mask `w` are waited
    on (w > 0): the table, else the lowest seat (as a game's playout draws)."""
    return TABLE if w & TABLE_BIT else (w & -w).bit_length() - 1


def _submit(match, seat, a):
    code = match.submit(a)
    if code:
        raise RefusedAction("%s refused %#x: %s" % (seat, a, REFUSAL_NAMES[code]))


def _play_drawn(match, bots, rng, text, out):
    # Seeding 2.
    draw = drawer(rng)
    # An engine without random_action (a game new from the toy) draws from its list.
    drawn = hasattr(match, "random_action")
    while True:
        w = match.waiting()
        if not w:
            return
        seat = acting(w)
        if seat == TABLE or bots[seat] == "random":
            if drawn:
                a = match.random_action(seat, draw)
            else:
                legal = match.legal_actions(seat)
                a = legal[draw(len(legal))]
            match.take(a)
        else:
            a = choose(match, seat, bots, rng)
            _submit(match, seat, a)
        if out is not None:
            out.extend(text.narrate(match, a))


def _play_listed(match, bots, rng, text, out):
    # Seeding 1.
    while not match.over():
        seat = rng.choice(waiting_seats(match))
        a = choose(match, seat, bots, rng)
        _submit(match, seat, a)
        if out is not None:
            out.extend(text.narrate(match, a))


def replay(game, players, options, actions, out):
    """Fold a saved journal, narrating every action; stop at a refused one."""
    match = new_match(game, players, options)
    text = gamehost.host(game)
    out.append(
        "%s, %d players, %s, replayed"
        % (title(registry.number(game)), players, describe_options(options))
    )
    for number, a in enumerate(actions, 1):
        code = match.submit(a)
        if code:
            raise RefusedAction(
                "action %d (%#x) refused: %s" % (number, a, REFUSAL_NAMES[code]),
                number,
                a,
                REFUSAL_NAMES[code],
            )
        out.extend(text.narrate(match, a))
    if match.over():
        out.extend(final_lines(match))
    else:
        out.append("(the match file ends before the match does)")
    return match


def final_lines(match):
    places = match.standings()
    lines = ["", "final standings"]
    for seat in sorted(range(match.players), key=lambda s: (places[s], s)):
        lines.append("  %d. seat %d  %d" % (places[seat], seat, match.totals[seat]))
    return lines
