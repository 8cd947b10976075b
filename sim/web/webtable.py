"""The virtual table behind the web page, and a new match chosen in its menu
with the buttons, as a player would."""

from typing import Callable

from dicetable.app import games
from dicetable.app.events import LONG, MINUS, OK, PLUS
from dicetable.app.menu import F_GAME, F_LENGTH
from dicetable.app.registry import pack
from sim.hw import hands
from sim.hw.rig import VirtualTable
from sim.web.requests import ActError

SEATS = (0, 1, 2, 3, 4)  # the standard build: five seats and the centre


class WebTable(VirtualTable):
    """The virtual table, telling `on_frame` as soon as a pass of the main loop
    sent a new frame to the strip (in the middle of a press or a scan too), so
    that the page sees the LEDs change when the board's would."""

    on_frame: "Callable[[], None] | None" = None

    def step(self):
        shown = self.table.frame_version
        super().step()
        if self.table.frame_version != shown and self.on_frame is not None:
            self.on_frame()


def new_table(seed):
    """A table with every item of every game registered, not yet powered up."""
    vt = WebTable(seats=SEATS, seed=seed)
    vt.storage.save_registry(pack(hands.full_registry()))
    return vt


def to_menu(vt):
    """Bring the table back to its menu as a player would: OK at the standings,
    long OK and OK to abandon a match, long OK to leave provisioning."""
    t = vt.table
    for _ in range(8):
        if t.mode == "menu":
            return
        if t.mode == "over" or t.score_show is not None or t.confirm:
            vt.press(t.lead, OK)
        else:
            vt.press(t.lead, OK | LONG)
    raise ActError("the table did not go back to its menu (%s)" % t.last_line)


def choose_match(vt, g, seats, values):
    """Choose game g, the seats and the option fields' values in the menu with
    the buttons, whatever the menu shows now (it keeps the choices last made),
    and start the match."""
    to_menu(vt)
    t = vt.table
    menu = t.menu
    lead = t.lead
    for _ in range(8):
        if menu is None or menu.field == F_GAME:
            break
        vt.press(lead, MINUS | LONG)
    if menu is None:
        raise ActError("the table shows no menu")
    n = games.count() + 1
    up = (g - menu.game) % n
    for _ in range(up if up <= n // 2 else n - up):
        vt.press(lead, PLUS if up <= n // 2 else MINUS)
    vt.press(lead, OK)
    for s in t.seats:
        if s != lead and (s in menu.joined) != (s in seats):
            vt.press(s, OK)
    if (lead in menu.joined) != (lead in seats):
        vt.press(lead, PLUS if lead in seats else MINUS)
    vt.press(lead, OK)
    _option_fields(vt, menu, values)
    if t.mode != "play":
        raise ActError("the table did not start the match (%s)" % t.last_line)


def _option_fields(vt, menu, values):
    t = vt.table
    lead = t.lead
    for _ in range(8):
        if t.mode != "menu":
            return
        f = menu.field
        want = values.get(f, 0)
        for _ in range(16):
            if menu.values[f] == want:
                break
            vt.press(lead, PLUS if f != F_LENGTH or menu.values[f] < want else MINUS)
        vt.press(lead, OK)
