"""The table playing itself on the virtual board: the board's own main loop
(hal/mainloop.py) with its mirror (hal/mirror.py) over the table app, on
virtual readers, buttons, LEDs and flash, bots at the seats making every
action with tags and buttons.  Its log lines and the mirror's lines go to
the console (hal/console.py), as a Pico's go to USB: under MicroPython on
the virtual board (sim/vboard) to the client connected to it, which is how
the mirror of `python -m sim.web --port` is tested; in CPython to whatever
stream the console is given (sim/hw/vconsole.py).  Portable.

    app = TableApp(console, log, seed) the parts (each step below is a call of
    app.provision(records)             its own on the virtual board, whose
    app.power_up()                     garbage is collected between calls)
    app.choose(game, seats)            the match chosen with the menu's buttons
    app.move()                         one bot action (or an undo every UNDO_EVERY)
    await app.play(pause_ms, moves)    moves until the match is over, pausing
                                       between them in real time

Virtual time runs while an action is made (a tag put down and taken away,
a press and its release); everything is a function of `seed`.
"""

from dicetable.app.events import CENTRE, LONG, MINUS, OK
from dicetable.app.frames import led_count
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from flashmodel.vflash import VFlash
from hal.buttons import Buttons
from hal.mainloop import MainLoop
from hal.mirror import Mirror
from hal.pixels import Pixels
from hal.readers import Readers
from hal.storage import Storage
from sim.hw import hands
from sim.hw.clock import Clock
from sim.hw.rig import HOLD_MS, TAP_MS, Config
from sim.hw.table_setup import SEATS, Strip
from sim.hw.vbuttons import VButtons
from sim.hw.vloop import VirtualLoop
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vspi import VSPI
from sim.hw.vtag import VTag

UNDO_EVERY = 9  # every so many moves the lead takes the last action back
SETTLE_MS = 150  # a tag lies on a reader this long, and is away this long after


class TableApp:
    """The table on virtual parts under its own main loop; see the module docstring."""

    def __init__(self, console, log, seed=1):
        self.clock = Clock()
        bus = VSPI(self.clock, 4000000)
        self.chips = [VMFRC522(self.clock) for _ in range(CENTRE + 1)]
        self.readers = Readers(bus, [bus.cs(c) for c in self.chips])
        self.vbuttons = VButtons(SEATS)
        # rig's Config, loaded already: table_setup's as a second class left the
        # virtual board's heap short (test_mirror_vboard, under load).
        self.config = Config(list(SEATS), 8, 16)
        self.strip = Strip(led_count(self.config))
        self.storage = Storage(VFlash(), segments=4)
        self.console = console
        self.log = log
        self.seed = seed
        self.rng = Rng(seed + 1)
        self.moves = 0
        self.table = None  # type: Table | None
        self.mirror = None  # type: Mirror | None
        self.passes = None  # type: VirtualLoop | None

    def provision(self, records):
        """The registry's packed records on the flash (registry.pack(): on the
        virtual board, made on the host, as the maker's provisioning would;
        hands.full_registry() is a tag for every item of every game)."""
        self.storage.prepare()
        self.storage.save_registry(records)

    def power_up(self):
        """The table booted under its main loop, with its mirror."""
        self.table = t = Table(self.config, self.storage, Rng(self.seed), self.log)
        t.boot()
        self.mirror = Mirror(self.console, self.strip.buf, t)
        pixels = Pixels(self.strip, 2500)
        buttons = Buttons(self.vbuttons.pins)
        loop = MainLoop(t, self.readers, buttons, pixels, None, None, self.mirror)
        self.passes = VirtualLoop(loop, self.clock, self.vbuttons.advance)
        self.passes.run_for(100)

    def run_for(self, ms):
        """Virtual time passes under the main loop."""
        passes = self.passes
        assert passes is not None, "power_up() first"
        passes.run_for(ms)

    # The surface the players' hands (sim/hw/hands.py) act on.
    def scan(self, reader, uid):
        tag = VTag(uid)
        self.chips[reader].place(tag)
        self.run_for(SETTLE_MS)
        self.chips[reader].remove(tag)
        self.run_for(SETTLE_MS)

    def press(self, seat, code):
        hold = HOLD_MS if code & LONG else TAP_MS
        self.vbuttons.press(seat, code & 3, self.clock.ticks_ms() + 5, hold)
        self.run_for(hold + 60)

    def choose(self, game, seats):
        """The match chosen in the menu with the buttons, as a person would."""
        hands.choose_in_menu(self, self.table, game, seats)

    def move(self):
        """One bot action: a legal one at random, made with tags and buttons,
        or every UNDO_EVERY moves the long press of - at the lead's seat; the
        standings put away with OK when the match is over."""
        t = self.table
        assert t is not None, "power_up() first"
        if t.mode != "play":
            return
        self.moves += 1
        m = t.match
        if self.moves % UNDO_EVERY == 0 and m is not None and m.journal:
            self.press(t.lead, MINUS | LONG)
            return
        if t.score_show is not None:
            self.press(t.lead, OK)  # a round's scores put away
            return
        acts = hands.player_actions(t)
        if acts:
            hands.make(self, t, acts[self.rng.randrange(len(acts))])
        else:
            self.run_for(500)  # a trick's result showing

    async def play(self, pause_ms, moves=-1):
        """Moves until the match is over (or `moves` are made), `pause_ms` of
        real time between them."""
        import asyncio

        t = self.table
        assert t is not None, "power_up() first"
        while t.mode == "play" and moves != 0:
            self.move()
            moves -= 1
            await asyncio.sleep_ms(pause_ms)  # pyright: ignore[reportAttributeAccessIssue]
