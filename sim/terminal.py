"""The interactive table: a person plays some seats by typing, bots play the rest.

The whole firmware runs on the virtual table (sim/hw/rig.py): what the person
types becomes a tag on their seat's reader or a press of its buttons.  After
every step the view shows the table as its LED strip is lit now (a bright LED
is a solid dot, a dim one a hollow dot in a darker colour), what each
segment's pattern means, the trick on the table and who took the last one,
your hand, the scores once a round is scored, and the log lines that are new.
The time you take to type passes at the table too: a refusal's blink, a
trick's result and the table's roll are over before your next line acts.

    ?            the actions the table would accept from you now, numbered
    N            make action N, as a player would (scan the item, enter the value)
    auto         make one of them at random (handy for scanning a dealt hand)
    items        every item of the game, numbered
    scan I       put item I on your reader and take it away (it may be refused)
    -  +  ok     press your seat's buttons;  undo  is a long press of -
    wait         let a second pass
    seat S       play at your seat S (when you play more than one)
    log          every line of the log;  log N  the last N lines
    help         this list
    quit         (or Ctrl-D) leave the table
"""

import math
import pydoc
import random
import re
import sys

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MINUS, OK, PLUS
from dicetable.app.registry import pack
from dicetable.app.render import ERROR_MS, OVER, PLAY_MODE, SCORE_MS, TRICK_MS, ticks_diff
from dicetable.games import GAMES, OPEN_PLAY
from dicetable.match.actions import DEAL, PICK, TABLE, kind_of
from sim import gamehost
from sim.hw import hands
from sim.hw.rig import STEP_MS, VirtualTable
from sim.legend import entries as legend_entries
from sim.table_view import hand_of, trick_plays

BUTTON_WORDS = {"-": MINUS, "+": PLUS, "ok": OK, "undo": MINUS | LONG}
ALONE = ("?", "auto", "items", "wait", "quit", "help") + tuple(BUTTON_WORDS)
LOG_SHOWN = 6  # log lines shown after a step (the newest of those that are new)
PAGE = 40  # a longer `log` goes through the pager when the output is a terminal

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
    (fr.SPRING, "spring green"),
    (fr.PINK, "pink"),
    (fr.GREY, "grey"),
    (fr.TAG_ERROR, "purple"),
)


def number(word):
    """The number a word of ASCII digits means, or None ('²'.isdigit() is True too)."""
    return int(word) if re.fullmatch(r"[0-9]{1,6}", word) else None


def shown(word, width=20):
    """A typed word as a hint quotes it: escaped (no terminal codes), cut if long."""
    return repr(word if len(word) <= width else word[:width] + "...")


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
    # The trick result seat s shows, if it shows one: green won, blue leads next.
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
LEGEND_KEYS = {"ring-colour": "ring-dtwww"}  # the legend's example of the game's colour
_legend = []  # type: list[dict[str, str]]  # the legend's names by key, once read


def legend_names():
    """The LED legend's name of each pattern by key (sim/legend.py, read once)."""
    if not _legend:
        _legend.append({str(e["key"]): str(e["name"]) for e in legend_entries()})
    return _legend[0]


def pattern_name(key: str) -> str:
    """A pattern's name, as the LED legend gives it."""
    name = legend_names().get(LEGEND_KEYS[key] if key in LEGEND_KEYS else key)
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
    plays = ", ".join(
        "seat %d %s"
        % (t.phys[m.last_trick_seats[i]], games.item_name(g, m.last_trick_items[i], True))
        for i in range(getattr(m, "last_trick_count", m.players))
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
        packet = getattr(m, "packets", None)
        if packet is not None and m.packet_n[p]:  # d-TT's draft
            lines.append("your packet: %s" % _names(t, packet[p][: m.packet_n[p]]))
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


class Session:
    def __init__(self, game, players, humans, bots, seed, options, out):
        self.game = GAMES.index(game)
        self.humans = set(humans)
        self.bots = bots
        self.rng = random.Random(seed)
        self.out = out
        self.taken = []  # the tricks completed since the last view, in words
        self.logged = 0  # the log lines shown so far
        self.vt = VirtualTable(seats=tuple(range(players)), seed=seed, log=self._said)
        self.vt.storage.save_registry(pack(hands.full_registry()))
        self.vt.boot()
        hands.choose_in_menu(self.vt, self.vt.table, self.game, range(players), options)
        self.items = games.all_items(self.game)
        self.unchanged = False  # the last line changed nothing: no redraw

    @property
    def table(self):
        return self.vt.table

    def _said(self, line):
        # Every log line, as the table says it: a trick just completed is
        # read from the match at once (the next action replaces it).
        vt = getattr(self, "vt", None)
        t = None if vt is None else vt.table
        if t is not None and line.startswith("trick: ") and t.trick_show is not None:
            self.taken.append(taken_trick(t))

    def draw(self):
        t = self.table
        lines = []
        if t.mode in (PLAY_MODE, OVER) and t.text:
            lines.append(t.text[0])  # the text display's first line: the game and round
        for s in t.seats:
            who = "you" if s in self.humans else self.bots[s % len(self.bots)]
            lines.append(
                "%-16s %s  %s"
                % (
                    "seat %d %s" % (s, who),
                    led_row(self.vt.leds(s)),
                    legend(seat_pattern(t, s), t.fault[s] != 0),
                )
            )
        lines.append(
            "%-16s %s  %s"
            % (
                "centre",
                led_row(self.vt.leds(CENTRE)),
                legend(ring_pattern(t), t.fault[CENTRE] != 0),
            )
        )
        scale = self.vt.pixels.last_scale
        if scale < 256:
            lines.append("  the current limiter dims every LED to %d%%" % (scale * 100 // 256))
        lines += ["  " + line for line in self.taken]
        self.taken = []
        on_table = trick_on_table(t)
        if on_table is not None:
            lines.append("  " + on_table)
        lines += ["  " + line for line in hand_lines(t, self.humans) + score_lines(t)]
        lines += self.new_log_lines()
        self.out.write("\n".join(lines) + "\n")

    def new_log_lines(self):
        """The log lines new since the last view (the last LOG_SHOWN of them)."""
        new = self.vt.lines[self.logged :]
        self.logged = len(self.vt.lines)
        lines = []
        if len(new) > LOG_SHOWN:
            lines.append(
                "  log: %d more new lines before these (log %d shows them all)"
                % (len(new) - LOG_SHOWN, len(new))
            )
        return lines + ["  log: %s" % line for line in new[-LOG_SHOWN:]]

    def your_actions(self, seat):
        t = self.table
        if t.mode != "play":
            return []
        p = t.player[seat]
        return [a for a in hands.player_actions(t) if p >= 0 and (a >> 16) & 7 == p]

    def acting_seat(self, a):
        """The physical seat that makes action `a`; the bots make the centre's."""
        player = (a >> 16) & 7
        return -1 if player == TABLE else self.table.phys[player]

    def bots_move(self):
        """Let the bots act while they have something to do; in simultaneous
        phases they do their part and leave the person theirs.  A bot looks
        at a trick's result before it plays on; when only the person is
        asked, the result stays for them to see."""
        t = self.table
        while t.mode == "play":
            if t.score_show is not None and not self.humans & set(t.seats):
                self.vt.press(t.lead, OK)
                continue
            acts = [a for a in hands.player_actions(t) if self.acting_seat(a) not in self.humans]
            if not acts:
                return
            if t.trick_show is not None:
                self.vt.wait(500)
                continue
            seat = self.acting_seat(acts[0])
            mine = [a for a in acts if self.acting_seat(a) == seat]
            if seat >= 0 and self.bots[seat % len(self.bots)] == "heuristic":
                a = gamehost.host(GAMES[self.game]).heuristic(
                    t.match, (acts[0] >> 16) & 7, mine, self.rng
                )
            else:
                a = self.rng.choice(mine)
            hands.make(self.vt, t, a)

    def catch_up(self):
        """Let the time a person takes to type pass at the table: the shows
        that end by themselves (a refusal's blink, a trick's result, the
        table's roll) are over before the typed line acts."""
        t = self.table
        ends = [t.err_since[s] + ERROR_MS for s in range(len(t.err_code)) if t.err_code[s]]
        for show in (t.trick_show, t.roll_show):
            if show is not None:
                ends.append(show[2] + TRICK_MS)
        left = max([ticks_diff(end, t.now) for end in ends], default=0)
        if left > 0:
            self.vt.wait(left + STEP_MS)

    def command(self, seat, line):
        """Do what a typed line says at `seat`; False to leave.  A line that
        means nothing gets a one-line hint, and nothing happens."""
        words = line.split()
        if not words:
            self.catch_up()  # an empty line: the table as it is now
            return True
        word = words[0]
        doers = {
            "help": self._help,
            "?": self._list_actions,
            "auto": self._auto,
            "items": self._list_items,
            "scan": self._scan,
            "wait": self._wait,
            "log": self._log,
        }
        if word in ALONE and len(words) > 1:
            self.hint("%s takes nothing after it, not %s" % (shown(word), shown(words[1])))
        elif word == "quit":
            return False
        elif word in doers:
            doers[word](seat, words)
        elif re.fullmatch(r"[0-9]+", word):
            self._action_number(seat, words, line)
        elif word in BUTTON_WORDS:
            self.catch_up()
            self.vt.press(seat, BUTTON_WORDS[word])
        else:
            self.hint(
                "no command %s (type help for the commands, ? for your actions)" % shown(word)
            )
        return True

    def _help(self, seat, words):
        doc = __doc__ or ""
        self.out.write(doc[doc.index("    ?") :])
        self.unchanged = True

    def _list_actions(self, seat, words):
        acts = self.your_actions(seat)
        if not acts:
            self.hint("nothing for you to do now (wait lets a second pass)")
        for i, a in enumerate(acts):
            self.out.write("  %d  %s\n" % (i, games.action_words(self.game, a)))
        self.unchanged = True

    def _action_number(self, seat, words, line):
        word = words[0]
        acts = self.your_actions(seat)
        n = number(word)
        if len(words) > 1:
            self.hint("an action is one number, not %s (type ? for the list)" % shown(line.strip()))
        elif n is not None and n < len(acts):
            self.catch_up()
            hands.make(self.vt, self.table, self.your_actions(seat)[n])
        elif acts:
            self.hint(
                "no action %s: the list is 0 to %d (type ? to see it)"
                % (shown(word), len(acts) - 1)
            )
        else:
            self.hint(
                "no action %s: nothing for you to do now (wait lets a second pass)" % (shown(word))
            )

    def _auto(self, seat, words):
        acts = self.your_actions(seat)
        if acts:
            self.catch_up()
            hands.make(self.vt, self.table, self.rng.choice(self.your_actions(seat)))
        else:
            self.hint("nothing for you to do now (wait lets a second pass)")

    def _list_items(self, seat, words):
        for i, item in enumerate(self.items):
            self.out.write("  %d  %s\n" % (i, games.item_name(self.game, item)))
        self.unchanged = True

    def _scan(self, seat, words):
        right = "items are 0 to %d: type items to list them" % (len(self.items) - 1)
        i = number(words[1]) if len(words) == 2 else None
        if len(words) == 1:
            self.hint("scan takes an item number (%s)" % right)
        elif len(words) > 2:
            self.hint(
                "scan takes one item number, not %s (%s)" % (shown(" ".join(words[1:])), right)
            )
        elif i is None or i >= len(self.items):
            self.hint("no item %s (%s)" % (shown(words[1]), right))
        else:
            item = self.items[i]
            self.catch_up()
            self.vt.scan(seat, hands.uid_for(self.game, games.identity(self.game, item)))

    def _wait(self, seat, words):
        self.vt.wait(1000)

    def _log(self, seat, words):
        lines = self.vt.lines
        n = number(words[1]) if len(words) == 2 else len(lines)
        if len(words) > 2 or n is None or n < 1:
            self.hint(
                "log takes a number of lines (1 or more), not %s (log alone: every line)"
                % shown(" ".join(words[1:]))
            )
            return
        first = max(0, len(lines) - n)
        self.page("".join("  %4d  %s\n" % (i + 1, lines[i]) for i in range(first, len(lines))))
        self.unchanged = True

    def page(self, text):
        """Write `text`; through the pager (pydoc's: $PAGER, or less) when it
        is longer than a screen and the output is a terminal."""
        out = self.out
        if text.count("\n") > PAGE and out is sys.stdout and out.isatty():
            pydoc.pager(text)
        else:
            out.write(text)

    def hint(self, text):
        """One line on what a typed line got wrong; nothing changed, so no redraw."""
        self.out.write("  %s\n" % text)
        self.unchanged = True


def choose_seat(session, humans, words):
    """The seat a `seat S` line names, or None after a one-line hint."""
    yours = " ".join(str(s) for s in sorted(humans))
    s = number(words[1]) if len(words) == 2 else None
    if len(words) != 2:
        session.hint("seat takes one of your seats: %s" % yours)
    elif s is None or s not in humans:
        session.hint(
            "%s (you play seat%s %s)"
            % (
                "%s is not a seat" % shown(words[1]) if s is None else "seat %d is not yours" % s,
                "s" if len(humans) > 1 else "",
                yours,
            )
        )
    return s if s in humans else None


def run(game, players, humans, bots, seed, options, stdin=None, out=None):
    """Play at the virtual table, reading lines from `stdin` (default sys.stdin)
    until quit, the end of input or the end of the match; KeyboardInterrupt
    (Ctrl-C) passes to the caller."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    session = Session(game, players, humans, bots, seed, options, out)
    seat = min(humans)
    out.write(
        "you play seat%s %s; type ? for your actions, help for the commands\n"
        % ("s" if len(humans) > 1 else "", " ".join(str(s) for s in sorted(humans)))
    )
    while True:
        if not session.unchanged:
            session.bots_move()
            session.draw()
            if session.table.mode == "over":
                out.write("the match is over\n")
                return session
        session.unchanged = False
        out.write("seat %d> " % seat)
        out.flush()
        line = stdin.readline()
        if not line:  # Ctrl-D: leave as quit does
            out.write("\n")
            return session
        words = line.split()
        if words and words[0] == "seat":
            chosen = choose_seat(session, humans, words)
            seat = seat if chosen is None else chosen
            continue
        if not session.command(seat, line):
            return session
