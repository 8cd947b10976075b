"""The table app: the one object the main loop drives; its state and modes.

    Table(config, storage, rng, log)
        config   seats (the seat indices that exist; the first drives the
                 menu), LEDS_PER_SEAT, RING_LEDS
        storage  new_match(header4, words), append(action), load(), clear(),
                 save_registry(records), load_registry() (hal/storage.py)
        rng      randrange(n): seeds each match's own draws (app/rng.py)
        log      log(line): a human-readable line per event
    boot()                          registry and journal: resume or menu
    reader_event(event, reader, uid), button(seat, code), tick(now_ms)
    frame, frame_version, match, mode, text; export_registry()

Modes: "menu" (choose a game, seats, options), "provision" (tags become
items), "play" (a match), "over" (final standings until OK).

The Table holds the state; each concern is a module of functions on it:
app/resume.py the power-up (registry and journal read back, imported only
for boot()), app/play.py a match (actions, the journal, the table's draws,
undo), app/render.py the frame, app/menu.py and app/provision.py their
modes (imported only while they show).

The player's and maker's page is docs/table.md.
"""

from dicetable.app import games, play, render
from dicetable.app.entry import Entry
from dicetable.app.events import (
    CENTRE,
    LONG,
    MAX_SEATS,
    OK,
    READER_FAULT,
    READER_OK,
    TAG_PLACED,
    TWO_TAGS,
)
from dicetable.app.frames import ORDER, Layout
from dicetable.app.line import Line
from dicetable.app.play import (  # noqa: F401 - SEATS_RECORD..: the host tools take them from here
    NOT_TAKEN,
    SEATS_RECORD,
    SEED_BITS,
    SEED_RECORD,
)
from dicetable.app.refusals import READER_FAULT_CODE, STORAGE_ERROR, TWO_TAGS_CODE, refusal_words
from dicetable.app.registry import Registry
from dicetable.app.render import (  # noqa: F401 - the tests take the timings from here
    ERROR_MS,
    MENU,
    OVER,
    PLAY_MODE,
    PROVISION,
    SCORE_MS,
    TRICK_MS,
    ticks_diff,
)
from dicetable.app.rng import draw
from dicetable.games import GAMES, forget_others, new_match
from dicetable.match.engine import EVERY

BOOT = "boot"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dicetable.app.menu import Menu  # noqa: F401 - named in type comments
    from dicetable.app.provision import Provisioning  # noqa: F401


def _module(name):
    # The menu, provisioning and the power-up are imported when they begin
    # and forgotten when they end: a match does not need their code on the
    # Pico's heap (tools/bench/bench_heap.py counts the board's code during a
    # match without it).
    return __import__("dicetable.app." + name, None, None, ("x",))


def forget_module(name):
    """Drop module `name` (its dotted name) from sys.modules and from its
    package, so that its code leaves the Pico's heap at the next collection:
    the parts needed now and then (the menu, the power-up, a challenge file,
    the journal's damage) are imported when they begin and forgotten after.
    Here, in a module the board always holds: in the package's __init__ it
    tipped tests/test_boot_full_table.py's full table over the Pico's heap."""
    import sys

    if name not in sys.modules:
        return  # never imported (or forgotten): dir() below would make a list for nothing
    del sys.modules[name]
    package, _, leaf = name.rpartition(".")
    p = sys.modules.get(package)
    if p is not None and leaf in dir(p):
        delattr(p, leaf)


class Table:
    """The table app; see the module docstring."""

    def __init__(self, config, storage, rng, log):
        self.seats = list(config.seats)
        self.lead = self.seats[0]
        self.layout = Layout(config)
        self.storage = storage
        self.rng = rng
        self._log = log
        self.frame = bytearray(3 * self.layout.leds)
        self._buf = bytearray(3 * self.layout.leds)
        self._dark = bytearray(3 * self.layout.leds)  # a frame starts as a copy of it
        self.frame_version = 0
        self._text = []  # None: built when read (text)
        self._drawn_at = 0  # the time the frame was drawn at
        self.mode = BOOT
        self.now = 0
        self.registry = Registry()
        self.menu = None  # type: Menu | None  # while the menu shows
        self._choices = None  # the menu's choices last made
        self.match = None
        self.game = -1
        self.seed = 0  # of the match's table draws
        self.firmware = 0  # storage.firmware_id(), read at boot: a new journal records it
        self.phys = []  # player -> physical seat
        self.player = [-1] * (MAX_SEATS + 1)  # physical seat -> player (-1: none)
        self.inputs = None
        self._drawn = bytearray(128)  # a bit per journal action: the table drew it (1,024 made)
        self.entries = []  # type: list  # per player: an Entry or None
        self._entries = []  # type: list
        self.err_code = bytearray(MAX_SEATS + 1)  # per seat and the centre
        self.err_since = [0] * (MAX_SEATS + 1)
        self.fault = bytearray(MAX_SEATS + 1)
        self.last_ident = [-1] * (MAX_SEATS + 1)  # last item accepted per reader
        # What shows a while: None, or its buffer below (made once: no heap per play).
        self.trick_show = None  # [winner seat, next leader seat or -1, since]
        self.roll_show = None  # [reader, number, since]: the table rolled
        self.score_show = None  # [places per player, since]
        self._trick_buf = [0, 0, 0]
        self._roll_buf = [0, 0, 0]
        self._score_buf = [bytearray(MAX_SEATS), 0]
        self.places = [0] * MAX_SEATS  # the standings at the match's end (standings(out))
        self.confirm = False  # the menu seat asked to abandon the match
        self.line = Line()  # the log's line: written in place, kept for the text display
        self._wake = None  # when the frame changes next by itself
        self.provision = None  # type: Provisioning | None  # in provisioning mode

    # --- log and refusals ----------------------------------------------------------

    def say(self, text):
        """Log the line `text` (a str; it stays for the text display)."""
        line = self.line
        line.start()
        line.add(text)
        self._log(line)

    def said(self):
        """Log the line written into `line` (a play's words: no heap)."""
        self._log(self.line)

    @property
    def last_line(self):
        """The line logged last, as a str (host tools, the text display)."""
        return self.line.text()

    def _where(self, seat):
        # "centre" or "seat N" at the end of the line
        line = self.line
        if seat == CENTRE:
            line.add("centre")
        else:
            line.add("seat ")
            line.num(seat)

    def _refuse(self, seat, code, what=""):
        """Show the error pattern at a seat (CENTRE: the ring) and log why,
        with `what` in brackets after it unless it is empty."""
        self._refusal(seat, code)
        if what:
            line = self.line
            line.add(" (")
            line.add(what)
            line.add(")")
        self._refused()

    def _refusal(self, seat, code):
        # A refusal's error pattern, its line begun: "seat 2 refused: not in
        # hand"; the caller adds its detail, then _refused() says it.
        if 0 <= seat <= MAX_SEATS:
            self.err_code[seat] = code
            self.err_since[seat] = self.now
        line = self.line
        line.start()
        self._where(seat)
        line.add(" refused: ")
        refusal_words(line, code)

    def _refused(self):
        self._log(self.line)
        self._render()

    # --- boot ------------------------------------------------------------------------

    def boot(self):
        """Load the registry and the journal: resume the match at its last
        committed action, or show the menu.  Bad data is logged, never fatal."""
        _module("resume").boot(self)
        forget_module("dicetable.app.resume")
        forget_module("dicetable.app.journal_lines")

    def _seat_mask(self):
        """The mask of the physical seats that play (the journal's SEATS record)."""
        mask = 0
        for s in self.phys:
            mask |= 1 << s
        return mask

    # --- modes ---------------------------------------------------------------------------

    def _to_menu(self, clear):
        if clear:
            try:
                self.storage.clear()
            except (OSError, ValueError) as e:
                self.say("journal not cleared: %r" % (e,))
        self._leave_provision()
        self.mode = MENU
        self.menu = _module("menu").Menu(self.seats, self._choices)
        self.match = None
        self.game = -1
        self.inputs = None
        self.confirm = False
        self._clear_shows()
        self.phys = []
        for s in range(MAX_SEATS + 1):
            self.player[s] = -1
        self.say("menu: choose the game with -/+ and OK at seat %d" % self.lead)
        self._render()

    def _start_new(self):
        menu = self.menu
        if menu is None:
            return
        g = menu.game
        seats = menu.players()
        forget_others(g)
        games.prepare(g, self)
        m = new_match(GAMES[g], len(seats), menu.options())
        self.room_for(g, m)
        seed = self.rng.randrange(SEED_BITS + 1)
        mask = 0
        for s in seats:
            mask |= 1 << s
        try:
            play.new_journal(self, m, mask, seed)
        except (OSError, ValueError) as e:
            self._refuse(self.lead, STORAGE_ERROR, "%r" % (e,))
            return
        self.say(
            "new match: %s, seats %s, %s"
            % (
                games.title(g),
                " ".join([str(s) for s in seats]),
                ", ".join([menu.describe(f) for f in menu.fields()[2:]]) or "default",
            )
        )
        self.seed = seed
        self._begin(g, m, seats)

    def _leave_menu(self):
        """The menu is gone until the table shows it again; its choices stay."""
        if self.menu is not None:
            self._choices = self.menu.state()
            self.menu = None
            forget_module("dicetable.app.menu")

    def _leave_provision(self):
        if self.provision is not None:
            self.provision = None
            forget_module("dicetable.app.provision")

    def _begin(self, g, m, seats):
        self._leave_menu()
        self.game = g
        self.match = m
        self.phys = list(seats)
        for s in range(MAX_SEATS + 1):
            self.player[s] = -1
            self.last_ident[s] = -1
        for p in range(len(seats)):
            self.player[seats[p]] = p
        self.entries = [None] * len(seats)  # type: list
        room = games.legal_room(g)[2]
        self._entries = [Entry((), False, 0, room) for _ in seats]  # entries[p] when not None
        self._clear_shows()
        self.confirm = False
        self.mode = OVER if m.over() else PLAY_MODE
        play.settle(self)
        self._render()

    def room_for(self, g, m):
        """Give new match m of game g the room its journal will take, before
        any action: made now, not by doubling in the middle of play (a list
        that outgrows its room takes a new block twice its size)."""
        m.journal = [0] * games.journal_room(g)
        del m.journal[EVERY]

    def entry_of(self, p, candidates, choice):
        """Player p's entry, set to step through `candidates` (play.py)."""
        return self._entries[p].set(candidates, choice)

    def _clear_shows(self):
        self.trick_show = None
        self.score_show = None
        self.roll_show = None

    def _start_provision(self):
        self._leave_menu()
        self.mode = PROVISION
        self.provision = _module("provision").Provisioning(self)
        self.say("provisioning: put a tag on any reader; long OK leaves")
        self._render()

    # --- events ----------------------------------------------------------------------------

    def reader_event(self, event, reader, uid):
        """A reader's event (events.py): reader = seat index or CENTRE."""
        if reader < 0 or reader > MAX_SEATS:
            self.say("event from unknown reader %d ignored" % reader)
            return
        if event == READER_FAULT:
            self.fault[reader] = 1
            self._refuse(reader, READER_FAULT_CODE, "reader not answering")
            return
        if event == READER_OK:
            self.fault[reader] = 0
            line = self.line
            line.start()
            self._where(reader)
            line.add(" reader answers again")
            self.said()
            self._render()
            return
        if event == TWO_TAGS:
            self._refuse(reader, TWO_TAGS_CODE, "one item at a time")
            return
        if event != TAG_PLACED or uid is None:
            return  # a tag taken off changes nothing
        if self.mode == PROVISION and self.provision is not None:
            self.provision.tag(reader, uid)
            self._render()
        elif self.mode == PLAY_MODE:
            taken = play.scan(self, reader, uid)
            if taken != NOT_TAKEN:
                play.settle(self, taken)
                self._render()
        else:
            line = self.line
            line.start()
            self._where(reader)
            line.add(": tag ")
            line.hex(uid)
            line.add(" ignored in the ")
            line.add(self.mode)
            self.said()

    def button(self, seat, code):
        """A seat's button: MINUS, PLUS or OK, plus LONG for a long press."""
        if self.mode == MENU:
            self._menu_button(seat, code)
        elif self.mode == PROVISION:
            self._provision_button(seat, code)
        elif self.mode == PLAY_MODE or self.mode == OVER:
            taken = play.button(self, seat, code)
            if taken != NOT_TAKEN:
                play.settle(self, taken)
                self._render()

    def tick(self, now_ms):
        """The time (time.ticks_ms()): blinking, and results that show a while."""
        self.now = now_ms
        if self._wake is not None and ticks_diff(now_ms, self._wake) >= 0:
            self._render()

    def awaited_readers(self):
        """Bit mask of the readers (seats, and 1 << CENTRE) on which the table
        expects an item now: the main loop looks at those more often."""
        if self.mode == PROVISION:
            return (1 << (MAX_SEATS + 1)) - 1
        ins = self.inputs
        if self.mode != PLAY_MODE or ins is None:
            return 0
        mask = 0
        for p in range(len(self.phys)):
            if ins.item_kind(p):
                mask |= 1 << self.phys[p]
        if ins.centre_kind() or ins.dealing():
            mask |= 1 << CENTRE
        return mask

    def draw(self, n):
        """The table's draw among n for the match's next action: a function of
        the match's seed and its journal's length only (app/play.py)."""
        m = self.match
        return draw(self.seed, len(m.journal) if m is not None else 0, n)

    def export_registry(self):
        """The registry as CSV lines (header, then uid_hex,game,item)."""
        return self.registry.export_csv()

    # --- the menu and provisioning ---------------------------------------------------------

    def _menu_button(self, seat, code):
        menu = self.menu
        if menu is None:
            return
        what, refusal = menu.button(seat, code)
        mn = _module("menu")
        if refusal:
            self._refuse(seat, refusal)
        elif what == mn.START:
            self._start_new()
        elif what == mn.ENTER_PROVISION:
            self._start_provision()
        else:
            self._render()

    def _provision_button(self, seat, code):
        if code == OK + LONG:
            self.say("provisioning done: %d tags" % len(self.registry))
            self._to_menu(False)
            return
        prov = self.provision
        refusal = None if prov is None else prov.button(seat, code)
        if refusal is not None:
            self._refuse(seat, refusal[0], refusal[1])
            return
        self._render()

    # --- the frame -----------------------------------------------------------------------------

    def _soon(self, when):
        """Draw the frame again at `when` (ticks), if nothing draws it before."""
        if self._wake is None or ticks_diff(when, self._wake) < 0:
            self._wake = when

    def _render(self):
        """Draw the frame for the current mode; bump frame_version if it changed.
        The text display's lines are built only when read (text): most frames
        are drawn with no display to show them."""
        buf = self._buf
        self._wake = None
        self._drawn_at = self.now
        self._text = None
        render.draw(self, buf, None)
        if buf != self.frame:
            self.frame[:] = buf
            self.frame_version += 1

    @property
    def text(self):
        """The text display's lines for the frame last drawn (the last log line last)."""
        if self._text is None:
            lines = []
            now = self.now
            self.now = self._drawn_at  # the frame's own time: the same lines it showed
            render.draw(self, self._buf, lines)
            self.now = now
            self._text = lines
        return self._text

    # --- for tests and tools -------------------------------------------------------------------

    def leds(self, seat):
        """The (r, g, b) of a seat's LEDs (seat CENTRE: the ring) in the frame."""
        lay = self.layout
        first = lay.ring if seat == CENTRE else lay.first(seat)
        n = lay.ring_leds if seat == CENTRE else lay.width
        f = self.frame
        r, g, b = ORDER
        return [(f[3 * i + r], f[3 * i + g], f[3 * i + b]) for i in range(first, first + n)]
