"""The terminal table's view (sim/terminal.py): the LED strip as coloured
dots, each segment's pattern in the LED legend's words, and what the match
holds (the trick, the hands, the scores) in words.  Everything here reads the
table; nothing changes it."""

import math

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import CENTRE
from dicetable.app.render import ERROR_MS, OVER, PLAY_MODE, SCORE_MS, TRICK_MS, ticks_diff
from dicetable.games import GAMES, OPEN_PLAY
from dicetable.match.actions import DEAL, PICK, kind_of
from sim import gamehost
from sim.legend import entries as legend_entries
from sim.table_view import hand_of, trick_plays

# The LEDs as the terminal draws them.  The table's colours stay at or below
# 48 (frames.py); a colour under DIM_BELOW is a dim LED (the idle glow, a
# bar's rest, the ring's dimmed sectors: frames.fill's shift).
BRIGHTEST = 48
DIM_BELOW = 16
OFF_CELL = "\x1b[38;2;60;60;60m·\x1b[0m"

COLOUR_NAMES = (
    (fr.WHITE, "white"),
    (fr.RED, "red"),
    (fr.GREEN, "green"),
    (fr.BLUE, "blue"),
    (fr.YELLOW, "yellow"),
    (fr.ORANGE, "orange"),
    (fr.CYAN, "cyan"),
    (fr.MAGENTA, "magenta"),
    (fr.VIOLET, "violet"),
    (fr.LIME, "lime"),
    (fr.PINK, "pink"),
    (fr.GREY, "grey"),
    (fr.TAG_ERROR, "purple"),
)


def led_cell(rgb):
    """One LED in 24-bit colour: its hue, a solid dot when bright and a
    hollow one in a darker shade when dim (so the idle glow and a bar's rest
    differ from a lit LED); a dark LED is a grey point."""
    level = max(rgb)
    if level == 0:
        return OFF_CELL
    shade = min(1.0, math.sqrt(level / BRIGHTEST)) * 255 / level
    r, g, b = (round(c * shade) for c in rgb)
    return "\x1b[38;2;%d;%d;%dm%s\x1b[0m" % (r, g, b, "●" if level >= DIM_BELOW else "○")


def led_row(colours):
    """A row of LEDs as coloured dots (led_cell)."""
    return "".join(led_cell(c) for c in colours)


def colour_name(rgb):
    """The name of one of the table's colours (frames.py), or ''."""
    for c, name in COLOUR_NAMES:
        if c == tuple(rgb):
            return name
    return ""


def ordinal(n):
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th"))


# --- the legend: what each segment shows, read from the table's state ---------------------
#
# seat_pattern() and ring_pattern() take the same decisions in the same order
# as dicetable/app/render.py, read only (render clears a show whose time is
# up; these only ask whether it is up), and give the pattern's key in the LED
# legend (sim/legend.py, whose names the web page and the pictures show too)
# with what this instance of it says (a count, a value, a code).


def _age(t, since):
    return ticks_diff(t.now, since)


def _trick_shown(t):
    trick = t.trick_show
    return trick if trick is not None and _age(t, trick[2]) < TRICK_MS else None


def _score_shown(t):
    score = t.score_show
    if score is None or _trick_shown(t) is not None:
        return None
    return score if 0 <= _age(t, score[1]) < SCORE_MS else None


def _roll_shown(t):
    roll = t.roll_show
    if roll is None or _age(t, roll[2]) >= TRICK_MS or _score_shown(t) is not None:
        return None
    return roll


def _refusal(t, s):
    code = t.err_code[s]
    if code and 0 <= _age(t, t.err_since[s]) < ERROR_MS:
        return "refusal-%d" % code, "code %d, blinking" % code
    return None


def seat_pattern(t, s):
    """(legend key, detail) of what seat s's segment shows now."""
    return _refusal(t, s) or _seat_shows(t, s)


def _seat_shows(t, s):
    m = t.match
    p = t.player[s]
    if t.mode not in (PLAY_MODE, OVER) or m is None:
        return t.mode, ""
    if p < 0:
        return "dark", ""
    trick = _trick_result(t, s)
    if t.mode == OVER:  # the last trick's result shows first
        place = m.standings()[p]
        final = "place-%d" % min(place, 4), "final: %s, total %d" % (ordinal(place), m.totals[p])
        return trick or final
    roll = _roll_shown(t)
    score = _score_shown(t)
    if t.confirm and s == t.lead:
        return "confirm-abandon", "OK here abandons it, any other button keeps playing"
    if roll is not None and roll[0] == s:
        return "table-roll", "%d" % roll[1]
    if trick is not None:
        return trick
    if score is not None:
        place = score[0][p]
        return "place-%d" % min(place, 4), "%s in %s %d; a button puts the scores away" % (
            ordinal(place),
            games.length_word(t.game)[:-1],
            len(m.history),
        )
    return _prompt(t, p)


def _trick_result(t, s):
    # The trick result seat s shows, if it shows one: red won, blue leads next.
    trick = _trick_shown(t)
    if trick is None or s not in (trick[0], trick[1]):
        return None
    if trick[0] == trick[1]:
        return "trick-winner-leads", ""
    return ("trick-winner" if s == trick[0] else "trick-leader"), ""


def _prompt(t, p):
    ins = t.inputs
    e = t.entries[p]
    if e is not None:
        a = e.current()
        return "prompt-" + games.kind_word(kind_of(a)), "%s: - and + change it, OK enters it" % (
            games.action_words(t.game, a)
        )
    k = ins.item_kind(p)
    can_pass = ins.pass_action(p) != 0
    if k == DEAL:
        have_need = games.deal_progress(t.game, t.match, p)
        have, need = have_need if have_need is not None else (0, 0)
        return "prompt-deal", "%d of %d" % (have, need)
    if k == PICK and can_pass:
        return "prompt-pick-or-pass", ""
    if k:
        return "prompt-" + games.kind_word(k), "or pass with OK" if can_pass else ""
    return ("prompt-pass", "") if can_pass else ("idle", "")


def ring_pattern(t):
    """(legend key, detail) of what the centre ring shows now."""
    return _refusal(t, CENTRE) or _ring_shows(t)


def _ring_shows(t):
    m = t.match
    ins = t.inputs
    if t.mode not in (PLAY_MODE, OVER) or m is None or ins is None:
        return t.mode, ""
    if t.mode == OVER:
        return "match-over", ""
    roll = _roll_shown(t)
    if roll is not None and roll[0] == CENTRE:
        return "centre-roll", "%d" % roll[1]
    centre = ins.centre_kind()
    if centre:
        return ("centre-deal" if centre == DEAL else "prompt-" + games.kind_word(centre)), ""
    if ins.entry >= 0:
        return "centre-entry", "seat %d" % t.phys[ins.entry]
    view = games.ring_view(t.game, m)
    if view is None:
        return "ring-colour", games.title(t.game)
    if view[0] is None:
        return "ring-" + GAMES[t.game], colour_name(view[1])
    return "ring-" + GAMES[t.game], "%d, last LED %s" % (view[0], colour_name(view[1]))


# The one pattern the view names that the LED legend (sim/legend.py) has no entry for.
NAMES = {"centre-roll": "the table rolled"}
_legend = []  # type: list[dict[str, str]]  # the legend's names by key, once read


def legend_names():
    """The LED legend's name of each pattern by key (sim/legend.py, read once)."""
    if not _legend:
        _legend.append({str(e["key"]): str(e["name"]) for e in legend_entries()})
    return _legend[0]


def pattern_name(key: str) -> str:
    """A pattern's name, as the LED legend gives it."""
    name = legend_names().get(key)
    return name or NAMES.get(key, key)


def legend(pattern, fault=False):
    """A segment's (key, detail) in words, for the line beside its LEDs."""
    key, detail = pattern
    words = pattern_name(key)
    if key.startswith("refusal-"):
        words = "refused: " + words
    if detail:
        words += " (%s)" % detail
    if fault:
        words += "; %s (last LED red)" % pattern_name("reader-fault")
    return words


# --- what the match holds: tricks, hands, scores ----------------------------------------------


def taken_trick(t):
    """The trick just completed, its winner and who leads next, in words."""
    m = t.match
    g = t.game
    # Every seat plays to every trick in the trick games (the engines keep
    # the trick taken in last_trick_seats / last_trick_items).
    plays = ", ".join(
        "seat %d %s"
        % (t.phys[m.last_trick_seats[i]], games.item_name(g, m.last_trick_items[i], True))
        for i in range(m.players)
    )
    winner, leader = t.trick_show[0], t.trick_show[1]
    return "trick taken: %s: seat %d wins%s" % (
        plays,
        winner,
        ", seat %d leads next" % leader if leader >= 0 else "",
    )


def trick_on_table(t):
    """The trick being played, in words, or None."""
    if t.match is None or not games.has_tricks(t.game):
        return None
    plays = trick_plays(t)
    if not plays:
        return None
    return "trick on the table: " + ", ".join(
        "seat %d %s" % (s, games.item_name(t.game, v, True)) for s, v in plays
    )


def hand_lines(t, humans):
    """Each of the person's hands, then what the bots hold: how many items,
    or the items themselves in a game that hides no hand (Dicefull's dice
    lie in view at the table)."""
    m = t.match
    if m is None or m.flag(OPEN_PLAY) or t.mode != PLAY_MODE:
        return []
    shown = not gamehost.host_of(m).hidden_hands
    lines = []
    bots = []
    for p in range(m.players):
        items = hand_of(m, p)
        s = t.phys[p]
        if s not in humans and shown:
            bots.append(
                "seat %d %s"
                % (s, " + ".join(games.item_name(t.game, v, True) for v in items) or "nothing")
            )
            continue
        if s not in humans:
            bots.append("seat %d %d item%s" % (s, len(items), "" if len(items) == 1 else "s"))
            continue
        lines.append("your hand (seat %d): %s" % (s, _names(t, items) or "empty"))
        packet = gamehost.host_of(m).packet(m, p)
        if packet:
            lines.append("your packet: %s" % _names(t, packet))
    if bots:
        lines.append("the bots hold: %s" % ", ".join(bots))
    return lines


def _names(t, items):
    return ", ".join(games.item_name(t.game, v, True) for v in items)


def score_lines(t):
    """The last round's scores and the totals once one is scored; the final
    standings once the match is over."""
    m = t.match
    if m is None:
        return []
    seats = range(m.players)
    lines = []
    if m.history:
        row = m.history[-1]
        lines.append(
            "%s %d scored: %s; totals: %s"
            % (
                games.length_word(t.game)[:-1],
                len(m.history),
                ", ".join("seat %d %+d" % (t.phys[p], row[p]) for p in seats),
                ", ".join("seat %d %d" % (t.phys[p], m.totals[p]) for p in seats),
            )
        )
    if m.over():
        places = m.standings()
        order = sorted(seats, key=lambda p: (places[p], t.phys[p]))
        lines.append(
            "final standings: "
            + ", ".join("%d. seat %d (%d)" % (places[p], t.phys[p], m.totals[p]) for p in order)
        )
    return lines
