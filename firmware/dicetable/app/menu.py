"""The start-up menu: game, seats, options, driven by the menu seat's buttons.

The menu seat (the first seat of the table) steps through fields with OK and
back with a long -; - and + change the field shown.  Any other seat joins or
leaves with OK at any time; the menu seat joins or leaves with - / + on the
seats field.  Fields a game does not read are skipped.  OK on the last field
starts the match; choosing "provision" as the game and OK enters provisioning.
docs/table.md ("The menu") is the player's page.

The table holds a Menu (and this module) only while it shows the menu: the
choices last made are kept as state() and given to the next Menu.
"""

from micropython import const

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import LONG, MINUS, OK, PLUS
from dicetable.games import COUNT
from dicetable.match.actions import OUT_OF_RANGE, OUT_OF_TURN
from dicetable.match.engine import OPEN_PLAY, TABLE_ROLLS, VARIANT, options

F_GAME = const(0)
F_SEATS = const(1)
F_HANDS = const(2)
F_ROLLS = const(3)
F_VARIANT = const(4)
F_LENGTH = const(5)


FIELD_NAMES = ("game", "seats", "hands", "rolls", "variant", "length")
FIELD_COLOURS = (fr.WHITE, fr.GREY, fr.CYAN, fr.ORANGE, fr.MAGENTA, fr.YELLOW)
_FLAG_OF = (0, 0, OPEN_PLAY, TABLE_ROLLS, VARIANT, COUNT)  # games.options(g): the fields shown

START = "start"  # button() results besides None
ENTER_PROVISION = "provision"


class Menu:
    """The choices so far; `joined` holds the seats that play."""

    def __init__(self, seats, state=None):
        self.seats = seats  # the table's seats, the first drives the menu
        self.lead = seats[0]
        self.field = F_GAME
        if state is None:
            self.game = 0
            self.joined = [seats[0]]
            self.values = [0, 0, 0, 0, 0, 0]  # per field (game and seats kept apart)
        else:
            self.game, self.joined, self.values = state

    def state(self):
        """The choices made (game, seats, field values), for the next Menu."""
        return self.game, list(self.joined), list(self.values)

    def provisioning(self):
        """True when the game field is on provisioning (after the last game)."""
        return self.game == games.count()

    def fields(self):
        """The fields the chosen game reads, in order."""
        if self.provisioning():
            return [F_GAME]
        out = [F_GAME, F_SEATS]
        for f in (F_HANDS, F_ROLLS, F_VARIANT, F_LENGTH):
            if games.options(self.game) & _FLAG_OF[f]:
                out.append(f)
        return out

    def players(self):
        """The seats that play, in seat order (player 0 first, clockwise)."""
        return sorted(self.joined)

    def options(self):
        """The match options the fields give (engine.options format)."""
        flags = 0
        for f in self.fields():
            if f in (F_HANDS, F_ROLLS, F_VARIANT) and self.values[f]:
                flags |= _FLAG_OF[f]
        count = self.values[F_LENGTH] if F_LENGTH in self.fields() else 0
        return options(flags, count)

    def button(self, seat, code):
        """Take a press: returns (START / ENTER_PROVISION / None, refusal code)."""
        if seat != self.lead:
            if code == OK:
                self._toggle(seat)
                return None, 0
            return None, OUT_OF_TURN
        if code == MINUS + LONG:
            fields = self.fields()
            i = fields.index(self.field)
            self.field = fields[i - 1] if i > 0 else fields[0]
            return None, 0
        if code == OK:
            return self._ok()
        if code == MINUS or code == PLUS:
            return None, self._step(1 if code == PLUS else -1)
        return None, 0

    def _ok(self):
        # OK at the menu seat: the next field, or the match (provisioning).
        if self.provisioning():
            return ENTER_PROVISION, 0
        if self.field == F_SEATS and not self._players_ok():
            return None, OUT_OF_RANGE
        fields = self.fields()
        i = fields.index(self.field)
        if i + 1 < len(fields):
            self.field = fields[i + 1]
            return None, 0
        if not self._players_ok():
            self.field = F_SEATS
            return None, OUT_OF_RANGE
        return START, 0

    def _step(self, step):
        # - or + at the menu seat on the current field: 0 or the refusal.
        if self.field == F_GAME:
            self.game = (self.game + step) % (games.count() + 1)
            if not self.provisioning() and self.values[F_LENGTH] > games.longest(self.game):
                self.values[F_LENGTH] = games.longest(self.game)
        elif self.field == F_SEATS:
            if (self.lead in self.joined) == (step > 0):
                return OUT_OF_RANGE
            self._toggle(self.lead)
        elif self.field == F_LENGTH:
            v = self.values[F_LENGTH] + step
            if v < 0 or v > games.longest(self.game):
                return OUT_OF_RANGE
            self.values[F_LENGTH] = v
        else:
            self.values[self.field] ^= 1
        return 0

    def _toggle(self, seat):
        if seat in self.joined:
            self.joined.remove(seat)
        elif seat in self.seats:
            self.joined.append(seat)

    def _players_ok(self):
        low, high = games.players(self.game)
        return low <= len(self.joined) <= high

    def value_shown(self):
        """The number the menu seat's LEDs show for the current field."""
        f = self.field
        if f == F_GAME:
            return self.game + 1
        if f == F_SEATS:
            return len(self.joined)
        if f == F_LENGTH:
            return self.values[F_LENGTH]
        return self.values[f] + 1

    def describe(self, f):
        """A field and its value in words."""
        if f == F_GAME:
            return "provision tags" if self.provisioning() else games.title(self.game)
        if f == F_SEATS:
            return " ".join([str(s) for s in self.players()]) or "none"
        v = self.values[f]
        if f == F_HANDS:
            return "open play" if v else "registered"
        if f == F_ROLLS:
            return "table rolls" if v else "players roll"
        if f == F_VARIANT:
            return games.variant_word(self.game) if v else "standard"
        return "%d %s" % (v, games.length_word(self.game)) if v else "default"

    def lines(self):
        """Text display lines: every field, the current one marked."""
        out = ["MENU"]
        for f in self.fields():
            mark = ">" if f == self.field else " "
            out.append("%s%s: %s" % (mark, FIELD_NAMES[f], self.describe(f)))
        return out

    def render(self, buf, layout):
        """Ring: the game as a lit sector; joined seats dim white; the menu
        seat shows the current field's value (number LEDs, field colour last)."""
        fr.sectors(
            buf, layout.ring, layout.ring_leds, games.count() + 1, self.game, games.menu_colour
        )
        for s in self.joined:
            fr.fill(buf, layout.first(s), layout.width, fr.GREY)
        marker = games.menu_colour(self.game) if self.field == F_GAME else FIELD_COLOURS[self.field]
        fr.number(buf, layout.first(self.lead), layout.width, self.value_shown(), marker)
