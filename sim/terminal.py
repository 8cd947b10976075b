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

import pydoc
import random
import re
import sys

from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MINUS, OK, PLUS
from dicetable.app.registry import pack
from dicetable.app.render import ERROR_MS, OVER, PLAY_MODE, TRICK_MS, ticks_diff
from dicetable.games import GAMES
from dicetable.match.actions import TABLE
from sim import gamehost
from sim.hw import hands
from sim.hw.rig import STEP_MS, VirtualTable
from sim.terminal_view import (
    hand_lines,
    led_row,
    legend,
    ring_pattern,
    score_lines,
    seat_pattern,
    taken_trick,
    trick_on_table,
)

BUTTON_WORDS = {"-": MINUS, "+": PLUS, "ok": OK, "undo": MINUS | LONG}
ALONE = ("?", "auto", "items", "wait", "quit", "help") + tuple(BUTTON_WORDS)
LOG_SHOWN = 6  # log lines shown after a step (the newest of those that are new)
PAGE = 40  # a longer `log` goes through the pager when the output is a terminal


def number(word):
    """The number a word of ASCII digits means, or None ('²'.isdigit() is True too)."""
    return int(word) if re.fullmatch(r"[0-9]{1,6}", word) else None


def shown(word, width=20):
    """A typed word as a hint quotes it: escaped (no terminal codes), cut if long."""
    return repr(word if len(word) <= width else word[:width] + "...")


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
                a = gamehost.host_of(t.match).heuristic(
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
