"""The interactive table: a person plays some seats by typing, bots play the rest.

The whole firmware runs on the virtual table (sim/hw/rig.py): what the person
types becomes a tag on their seat's reader or a press of its buttons, and
after every step the seat LEDs and the centre ring are drawn in colour.

    ?            the actions the table would accept from you now, numbered
    N            make action N, as a player would (scan the item, enter the value)
    auto         make one of them at random (handy for scanning a dealt hand)
    items        every item of the game, numbered
    scan I       put item I on your reader and take it away (it may be refused)
    -  +  ok     press your seat's buttons;  undo  is a long press of -
    wait         let a second pass
    seat S       play at your seat S (when you play more than one)
    help         this list
    quit         (or Ctrl-D) leave the table
"""

import random
import re
import sys

from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MINUS, OK, PLUS
from dicetable.app.registry import pack
from dicetable.games import GAMES, part
from dicetable.match.actions import TABLE
from sim.hw import hands
from sim.hw.rig import VirtualTable

BUTTON_WORDS = {"-": MINUS, "+": PLUS, "ok": OK, "undo": MINUS | LONG}
ALONE = ("?", "auto", "items", "wait", "quit", "help") + tuple(BUTTON_WORDS)


def number(word):
    """The number a word of ASCII digits means, or None ('²'.isdigit() is True too)."""
    return int(word) if re.fullmatch(r"[0-9]{1,6}", word) else None


def shown(word, width=20):
    """A typed word as a hint quotes it: escaped (no terminal codes), cut if long."""
    return repr(word if len(word) <= width else word[:width] + "...")


def led_row(colours):
    """A row of LEDs as coloured blocks (24-bit colour; brightness lifted to be seen)."""
    cells = []
    for r, g, b in colours:
        if r == g == b == 0:
            cells.append("\x1b[38;2;60;60;60m·\x1b[0m")
        else:
            k = 255 // max(r, g, b)
            cells.append("\x1b[38;2;%d;%d;%dm●\x1b[0m" % (r * k, g * k, b * k))
    return "".join(cells)


class Session:
    def __init__(self, game, players, humans, bots, seed, options, out):
        self.game = GAMES.index(game)
        self.humans = set(humans)
        self.bots = bots
        self.rng = random.Random(seed)
        self.out = out
        self.vt = VirtualTable(seats=tuple(range(players)), seed=seed)
        self.vt.storage.save_registry(pack(hands.full_registry()))
        self.vt.boot()
        hands.choose_in_menu(self.vt, self.vt.table, self.game, range(players), options)
        self.items = games.all_items(self.game)
        self.hinted = False  # the last line got a hint and changed nothing

    @property
    def table(self):
        return self.vt.table

    def draw(self):
        t = self.table
        lines = []
        for s in t.seats:
            who = "you" if s in self.humans else self.bots[s % len(self.bots)]
            lines.append("seat %d %-9s %s" % (s, who, led_row(self.vt.leds(s))))
        lines.append("centre         %s" % led_row(self.vt.leds(CENTRE)))
        lines += ["  " + line for line in t.text]
        self.out.write("\n".join(lines) + "\n")

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
        phases they do their part and leave the person theirs."""
        t = self.table
        while t.mode == "play":
            if t.trick_show is not None:
                self.vt.wait(500)
                continue
            if t.score_show is not None and not self.humans & set(t.seats):
                self.vt.press(t.lead, OK)
                continue
            acts = [a for a in hands.player_actions(t) if self.acting_seat(a) not in self.humans]
            if not acts:
                return
            seat = self.acting_seat(acts[0])
            mine = [a for a in acts if self.acting_seat(a) == seat]
            if seat >= 0 and self.bots[seat % len(self.bots)] == "heuristic":
                a = part(self.game, "host").heuristic(t.match, (acts[0] >> 16) & 7, mine, self.rng)
            else:
                a = self.rng.choice(mine)
            hands.make(self.vt, t, a)

    def command(self, seat, line):
        """Do what a typed line says at `seat`; False to leave.  A line that
        means nothing gets a one-line hint, and nothing happens."""
        words = line.split()
        if not words:
            return True
        word = words[0]
        doers = {
            "help": self._help,
            "?": self._list_actions,
            "auto": self._auto,
            "items": self._list_items,
            "scan": self._scan,
            "wait": self._wait,
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
            self.vt.press(seat, BUTTON_WORDS[word])
        else:
            self.hint(
                "no command %s (type help for the commands, ? for your actions)" % shown(word)
            )
        return True

    def _help(self, seat, words):
        self.out.write((__doc__ or "").split("\n\n", 1)[1])

    def _list_actions(self, seat, words):
        acts = self.your_actions(seat)
        if not acts:
            self.hint("nothing for you to do now (wait lets a second pass)")
        for i, a in enumerate(acts):
            self.out.write("  %d  %s\n" % (i, games.action_words(self.game, a)))

    def _action_number(self, seat, words, line):
        word = words[0]
        acts = self.your_actions(seat)
        n = number(word)
        if len(words) > 1:
            self.hint("an action is one number, not %s (type ? for the list)" % shown(line.strip()))
        elif n is not None and n < len(acts):
            hands.make(self.vt, self.table, acts[n])
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
            hands.make(self.vt, self.table, self.rng.choice(acts))
        else:
            self.hint("nothing for you to do now (wait lets a second pass)")

    def _list_items(self, seat, words):
        for i, item in enumerate(self.items):
            self.out.write("  %d  %s\n" % (i, games.item_name(self.game, item)))

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
            self.vt.scan(seat, hands.uid_for(self.game, games.identity(self.game, item)))

    def _wait(self, seat, words):
        self.vt.wait(1000)

    def hint(self, text):
        """One line on what a typed line got wrong; nothing changed, so no redraw."""
        self.out.write("  %s\n" % text)
        self.hinted = True


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
        if not session.hinted:
            session.bots_move()
            session.draw()
            for line in session.vt.lines[-3:]:
                out.write("  log: %s\n" % line)
            if session.table.mode == "over":
                out.write("the match is over\n")
                return session
        session.hinted = False
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
