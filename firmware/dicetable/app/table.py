"""The table app: modes, event dispatch, the journal on storage, the frame.

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

Every accepted action is appended to storage (which flushes) before the
match takes it and before anything shows it.  Undo is an append too
(storage.undo(): one UNDO record per action taken back), so the journal
stays append-only.  Besides the engine's actions the journal holds two
table records, right after the header, stripped before the engine folds
the journal: SEATS (kind 15, never a game's kind; value = the mask of the
physical seats that play) and SEED (kind 14; value = 20 bits of seed).

The table's own draws are a function of the seed and the journal's length
(draw()), so a draw made again after a power cut (the draw not yet written,
or an undo of a player action and its draws only partly written) gives the
value the players saw before.

The player's and maker's page is docs/table.md.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:
    def const(x):
        return x

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.entry import Entry
from dicetable.app.events import (
    MAX_SEATS, CENTRE, TAG_PLACED, TWO_TAGS, READER_FAULT, READER_OK, MINUS, PLUS, OK, LONG)
from dicetable.app.inputs import Inputs
from dicetable.app.registry import Registry, uid_hex
from dicetable.app.rng import draw
from dicetable.match.actions import (
    TABLE, DEAL, PASS, PLAY, ROLL, OK as ACCEPTED, OUT_OF_TURN, WRONG_PHASE,
    ALREADY_PLACED, NOT_IN_HAND, NOTHING_TO_UNDO, REFUSAL_NAMES, action, kind_of, seat_of, value_of)
from dicetable.match.engine import GAMES, journal_header_refusal

MENU = "menu"
PROVISION = "provision"
PLAY_MODE = "play"
OVER = "over"
BOOT = "boot"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dicetable.app.menu import Menu  # noqa: F401 - named in type comments
    from dicetable.app.provision import Provisioning  # noqa: F401

# The table's own refusal codes (frames.APP_CODES up: shown in purple).
UNKNOWN_TAG = const(17)
WRONG_GAME = const(18)
TWO_TAGS_CODE = const(19)
READER_FAULT_CODE = const(20)
STORAGE_ERROR = const(21)
_APP_NAMES = ("unknown tag", "another game's tag", "two tags at once", "reader fault",
              "storage error")

# The table's record in the journal: an action word of a kind no game uses.
SEATS_RECORD = const(0xF00000)     # | mask of the physical seats that play
SEED_RECORD = const(0xE00000)      # | the seed of the table's draws (20 bits)
_SEATS_KIND = const(0xF)
_SEED_KIND = const(0xE)
_SEED_BITS = const(0xFFFFF)

# Load statuses, as hal/storage.py numbers them.
STATUS_OK = const(0)
STATUS_NONE = const(1)
STATUS_TORN = const(2)
STATUS_CORRUPT = const(3)

ERROR_MS = const(2000)    # an error pattern blinks this long
TRICK_MS = const(2000)    # a trick's winner and next leader show this long
SCORE_MS = const(8000)    # round scores show this long (or until a button)

_PERIOD = const(0x40000000)   # time.ticks_ms() wraps at 2**30 on MicroPython
_HALF = const(0x20000000)


def _module(name):
    # The menu and provisioning are imported when their mode begins and
    # forgotten when it ends: a match does not need their code on the Pico's
    # heap (tests/bench_heap.py counts the board's code during a match
    # without it).
    return __import__("dicetable.app." + name, None, None, ("x",))


def _forget(name, package="dicetable.app"):
    import sys
    full = package + "." + name
    if full in sys.modules:
        del sys.modules[full]
    app = sys.modules.get(package)
    if app is not None and name in dir(app):
        delattr(app, name)


def _header_refusal(header):
    """engine.journal_header_refusal() of a journal's header, never raising.
    A game imported only to hear it refuse the header is forgotten again
    (engine and rules core): the board holds only the game it plays."""
    import sys
    try:
        name = GAMES[header[0]] if header[0] < len(GAMES) else ""
        new = [p for p in ("dicetable.match", "dicetable.rules")
               if name and p + "." + name not in sys.modules]
        why = journal_header_refusal(header)
    except (IndexError, ValueError, TypeError) as e:
        return "header unreadable (%r)" % (e,)
    if why is not None:
        for p in new:
            _forget(name, p)
    return why


def ticks_diff(a, b):
    """a - b for ticks that wrap (as time.ticks_diff; the app takes no time module)."""
    return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF


def refusal_name(code):
    """A refusal code in words."""
    if 0 <= code < len(REFUSAL_NAMES):
        return REFUSAL_NAMES[code]
    if UNKNOWN_TAG <= code <= STORAGE_ERROR:
        return _APP_NAMES[code - UNKNOWN_TAG]
    return "refused (%d)" % code


def status_word(status):
    """'ok', 'torn' or 'corrupt' from a storage load status (hal/storage.py's
    numbers; words are read too).  No journal or registry yet counts as ok."""
    if status is None or status is True or status == STATUS_OK or status == STATUS_NONE:
        return "ok"
    if status == STATUS_TORN:
        return "torn"
    if status == STATUS_CORRUPT:
        return "corrupt"
    text = str(status).lower()
    if "torn" in text:
        return "torn"
    if "corrupt" in text or "bad" in text:
        return "corrupt"
    return "ok"


class Layout:
    """Where each seat's LEDs and the ring are in the frame."""

    def __init__(self, config):
        self.width = config.LEDS_PER_SEAT
        self.ring_leds = config.RING_LEDS
        self.ring = (max(config.seats) + 1) * self.width
        self.leds = self.ring + self.ring_leds

    def first(self, seat):
        """The first LED of a seat's segment."""
        return seat * self.width


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
        self._dark = bytearray(3 * self.layout.leds)    # a frame starts as a copy of it
        self.frame_version = 0
        self._text = []                     # None: built when read (text)
        self._drawn_at = 0                  # the time the frame was drawn at
        self.mode = BOOT
        self.now = 0
        self.registry = Registry()
        self.menu = None  # type: Menu | None  # while the menu shows
        self._choices = None                # the menu's choices last made
        self.match = None
        self.game = -1
        self.seed = 0                       # of the match's table draws
        self.phys = []                      # player -> physical seat
        self.player = [-1] * (MAX_SEATS + 1)  # physical seat -> player (-1: none)
        self.inputs = None
        self._drawn = bytearray(16)         # a bit per journal action: the table drew it
        self.entries = []  # type: list  # per player: an Entry or None
        self.err_code = bytearray(MAX_SEATS + 1)   # per seat and the centre
        self.err_since = [0] * (MAX_SEATS + 1)
        self.fault = bytearray(MAX_SEATS + 1)
        self.last_ident = [-1] * (MAX_SEATS + 1)   # last item accepted per reader
        self.trick_show = None              # (winner seat, next leader seat or -1, since)
        self.roll_show = None               # (reader, number, since): the table rolled
        self.score_show = None              # (places per player, since)
        self.confirm = False                # the menu seat asked to abandon the match
        self.last_line = ""
        self._wake = None                   # when the frame changes next by itself
        self.provision = None  # type: Provisioning | None  # in provisioning mode

    # --- log and refusals ----------------------------------------------------------

    def say(self, line):
        """Log a line (and keep it for the text display)."""
        self.last_line = line
        self._log(line)

    def _where(self, seat):
        return "centre" if seat == CENTRE else "seat %d" % seat

    def _refuse(self, seat, code, what=""):
        """Show the error pattern at a seat (CENTRE: the ring) and log why."""
        if 0 <= seat <= MAX_SEATS:
            self.err_code[seat] = code
            self.err_since[seat] = self.now
        self.say("%s refused: %s%s" % (self._where(seat), refusal_name(code),
                                       " (" + what + ")" if what else ""))
        self._render()

    # --- boot ------------------------------------------------------------------------

    def boot(self):
        """Load the registry and the journal: resume the match at its last
        committed action, or show the menu.  Bad data is logged, never fatal."""
        self._boot_registry()
        self._boot_journal()

    def _boot_registry(self):
        try:
            records, status = self.storage.load_registry()
        except Exception as e:  # noqa: BLE001 - boot must go on whatever storage does
            records, status = bytearray(), "corrupt: %r" % (e,)
        word = status_word(status)
        if word == "corrupt":
            records = bytearray()
        bad = self.registry.adopt(records)
        if word != "ok":
            self.say("registry %s: carrying on with %d tags" % (word, len(self.registry)))
        if bad:
            self.say("registry: %d invalid entries skipped" % bad)
        self.say("registry: %d tags" % len(self.registry))

    def _boot_journal(self):
        try:
            header, actions, status = self.storage.load()
        except Exception as e:  # noqa: BLE001
            header, actions, status = None, [], "corrupt: %r" % (e,)
        word = status_word(status)
        if header is None:
            if word == "corrupt":
                self.say("journal corrupt: no match to resume; choose a new match")
            self._to_menu(False)
            return
        if word == "corrupt":
            self.say("journal corrupt after %d records: not resumed; choose a new match"
                     % len(actions))
            self._to_menu(False)
            return
        why = _header_refusal(header)
        if why is not None:
            # Not resumed, not deleted: the journal stays on flash as it is
            # until a player starts a new match (nothing is lost unasked).
            self.say("journal not resumed: %s; choose a new match" % why)
            self._to_menu(False)
            return
        g = header[0]
        players = header[1]
        opts = header[2] | (header[3] << 8)
        m = games.new_match(g, players, opts)
        mask = 0
        seed = -1
        rewrite = False
        for i in range(len(actions)):
            a = actions[i]
            # The table's records come before the match's first action (a
            # later one is malformed, as is any word the engine cannot read).
            if a >> 20 == _SEATS_KIND and not m.journal:
                mask = a & 0xFFFF
                continue
            if a >> 20 == _SEED_KIND and not m.journal:
                seed = a & _SEED_BITS
                continue
            # The table's own draws: its actions with no item that no seat enters
            # (Inputs(g, m).auto of the state before, without listing its actions).
            drawn = (seat_of(a) == TABLE and not games.is_item_kind(g, kind_of(a))
                     and games.table_entry_seat(g, m) < 0)
            code = m.submit(a)
            if code == ACCEPTED:
                self._mark(len(m.journal) - 1, drawn)
            else:
                self.say("journal record %d (%#x) refused: %s; resumed before it"
                         % (i, a, refusal_name(code)))
                rewrite = True
                break
        if word == "torn":
            self.say("journal: torn last record dropped")   # storage cuts it off
        seats = [s for s in self.seats if (mask >> s) & 1]
        if len(seats) != players:
            seats = self.seats[:players]
        if len(seats) != players:
            self.say("journal needs %d seats, the table has %d: choose a new match"
                     % (players, len(self.seats)))
            self._to_menu(False)
            return
        self.say("resumed %s at action %d" % (games.TITLES[g], len(m.journal)))
        if seed < 0:
            seed = self.rng.randrange(_SEED_BITS + 1)
            rewrite = True
        self.seed = seed
        self._begin(g, m, seats)
        if rewrite:
            self._rewrite_journal()

    def _rewrite_journal(self):
        """Write the journal again from the engine's (after a record the
        engine refused, so that later appends follow good records)."""
        m = self.match
        if m is None:
            return
        try:
            self.storage.new_match(m.header(), (SEATS_RECORD | self._seat_mask(),
                                                SEED_RECORD | self.seed))
            for a in m.journal:
                self.storage.append(a)
        except (OSError, ValueError) as e:
            self.say("journal rewrite failed: %r" % (e,))

    def _seat_mask(self):
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
        m = games.new_match(g, len(seats), menu.options())
        seed = self.rng.randrange(_SEED_BITS + 1)
        mask = 0
        for s in seats:
            mask |= 1 << s
        try:
            self.storage.new_match(m.header(), (SEATS_RECORD | mask, SEED_RECORD | seed))
        except (OSError, ValueError) as e:
            self._refuse(self.lead, STORAGE_ERROR, "%r" % (e,))
            return
        self.say("new match: %s, seats %s, %s" % (
            games.TITLES[g], " ".join([str(s) for s in seats]),
            ", ".join([menu.describe(f) for f in menu.fields()[2:]]) or "default"))
        self.seed = seed
        self._begin(g, m, seats)

    def _leave_menu(self):
        """The menu is gone until the table shows it again; its choices stay."""
        if self.menu is not None:
            self._choices = self.menu.state()
            self.menu = None
            _forget("menu")

    def _leave_provision(self):
        if self.provision is not None:
            self.provision = None
            _forget("provision")

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
        self._clear_shows()
        self.confirm = False
        self.mode = OVER if m.over() else PLAY_MODE
        self._settle()
        self._render()

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
            self.say("%s reader answers again" % self._where(reader))
            self._render()
            return
        if event == TWO_TAGS:
            self._refuse(reader, TWO_TAGS_CODE, "one item at a time")
            return
        if event != TAG_PLACED or uid is None:
            return                      # a tag taken off changes nothing
        if self.mode == PROVISION and self.provision is not None:
            self.provision.tag(reader, uid)
            self._render()
        elif self.mode == PLAY_MODE:
            self._scan(reader, uid)
        else:
            self.say("%s: tag %s ignored in the %s" % (self._where(reader), uid_hex(uid),
                                                       self.mode))

    def button(self, seat, code):
        """A seat's button: MINUS, PLUS or OK, plus LONG for a long press."""
        if self.mode == MENU:
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
        elif self.mode == PROVISION:
            self._provision_button(seat, code)
        elif self.mode == PLAY_MODE or self.mode == OVER:
            self._play_button(seat, code)

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

    def export_registry(self):
        """The registry as CSV lines (header, then uid_hex,game,item)."""
        return self.registry.export_csv()

    # --- play: scans ----------------------------------------------------------------------

    def _scan(self, reader, uid):
        m = self.match
        ins = self.inputs
        if m is None or ins is None:
            return
        p = TABLE if reader == CENTRE else self.player[reader]
        if p < 0:
            self._refuse(reader, OUT_OF_TURN, "seat %d is not in this match" % reader)
            return
        found = self.registry.lookup(uid)
        if found is None:
            self._refuse(reader, UNKNOWN_TAG, "tag %s" % uid_hex(uid))
            return
        g, item = found
        if g != self.game:
            self._refuse(reader, WRONG_GAME, "%s %s" % (games.TITLES[g], games.item_name(g, item)))
            return
        cands = ins.scan(p, item)
        if len(cands) == 1:
            self._commit(cands[0], reader)
        elif cands and p != TABLE:
            self.entries[p] = Entry(cands, True)
            self.say("seat %d: %s, choose with -/+ and OK" % (reader, games.item_name(g, item)))
            self._render()
        else:
            if cands:
                code = WRONG_PHASE      # several meanings at the centre: no buttons there
            else:
                code = ins.refusal(m, p, item)
            if item == self.last_ident[reader] and (
                    code == NOT_IN_HAND or code == OUT_OF_TURN or code == WRONG_PHASE):
                code = ALREADY_PLACED   # the item this reader took last, put back on it
            self._refuse(reader, code, games.item_name(g, item))

    def _commit(self, a, seat):
        """Take action `a`, made at physical seat `seat` (or CENTRE): the
        engine checks it, storage records it, then the match applies it."""
        m = self.match
        if m is None:
            return
        code = m.refusal(a)
        if code != ACCEPTED:
            self._refuse(seat, code, games.action_words(self.game, a))
            return
        if not self._record(a):
            self._refuse(seat, STORAGE_ERROR, "action not taken")
            return
        self._clear_shows()
        self._apply(a)
        self._mark(len(m.journal) - 1, False)
        if games.is_item_kind(self.game, kind_of(a)):
            self.last_ident[seat] = games.identity(self.game, value_of(a))
        if 0 <= seat < MAX_SEATS and self.player[seat] >= 0:
            self.entries[self.player[seat]] = None
        self._settle(seat if games.is_item_kind(self.game, kind_of(a)) else -1)
        self._render()

    def _record(self, a):
        try:
            self.storage.append(a)
        except (OSError, ValueError) as e:
            self.say("storage: %r" % (e,))
            return False
        return True

    def _who(self, a):
        s = seat_of(a)
        if s == TABLE:
            return "table"
        return "seat %d" % self.phys[s]

    def _apply(self, a):
        """Give an accepted (and recorded) action to the match; note what it completed."""
        m = self.match
        if m is None:
            return
        scored = len(m.history)
        m.take(a)                       # refusal() or a legal list accepted it already
        self.say("%s %s" % (self._who(a), games.action_words(self.game, a)))
        if kind_of(a) == PLAY and games.has_tricks(self.game) and m.trick.count == 0:
            w = m.waiting()
            leader = -1
            for p in range(m.players):
                if w == 1 << p:
                    leader = self.phys[p]
            winner = self.phys[m.last_winner]
            self.trick_show = (winner, leader, self.now)
            self.say("trick: seat %d wins%s" % (
                winner, ", seat %d leads" % leader if leader >= 0 else ""))
        if len(m.history) > scored:
            scores = m.history[-1]
            self.say("scored: " + ", ".join(["seat %d %+d" % (self.phys[p], scores[p])
                                             for p in range(m.players)]))
            if not m.over():
                since = self.now + (TRICK_MS if self.trick_show is not None else 0)
                self.score_show = (_places(scores), since)
        if m.over():
            self.mode = OVER
            places = m.standings()
            self.say("final: " + ", ".join(["seat %d place %d (%d)" % (
                self.phys[p], places[p], m.totals[p]) for p in range(m.players)]))

    def _settle(self, origin=-1):
        """Draw the table's own actions, then work out every seat's inputs
        (a value entry opens by itself where the seat is asked for a value).
        A roll the table makes right after a scan shows at that reader."""
        m = self.match
        if m is None:
            return
        while True:
            ins = Inputs(self.game, m)
            self.inputs = ins
            if not ins.auto:
                break
            a = ins.auto[self.draw(len(ins.auto))]
            if not self._record(a):
                self._refuse(CENTRE, STORAGE_ERROR, "table draw not taken")
                break
            if origin >= 0 and kind_of(a) == ROLL:
                n = games.entry_view(self.game, m, a)[0]
                self.roll_show = (origin, 0 if n is None else n, self.now)
            origin = -1
            self._apply(a)
            self._mark(len(m.journal) - 1, True)
        for p in range(m.players):
            e = self.entries[p]
            if e is not None and e.choice:
                for a in e.candidates:
                    if not ins.allows(p, a):
                        e = None
                        break
                self.entries[p] = e
                continue
            values = ins.values(p)
            if not values:
                self.entries[p] = None
            elif e is None or not e.same(values):
                self.entries[p] = Entry(values)

    def draw(self, n):
        """The table's draw among n for the match's next action: a function of
        the match's seed and its journal's length only (module docstring)."""
        m = self.match
        return draw(self.seed, len(m.journal) if m is not None else 0, n)

    def _clear_shows(self):
        self.trick_show = None
        self.score_show = None
        self.roll_show = None

    # --- play: buttons ---------------------------------------------------------------------

    def _play_button(self, seat, code):
        m = self.match
        ins = self.inputs
        if m is None or ins is None:
            return
        if self.score_show is not None:
            self._clear_shows()         # the first press only puts the scores away
            self._render()
            return
        if self.confirm:
            self.confirm = False
            if seat == self.lead and code == OK:
                self.say("match abandoned")
                self._to_menu(True)
            else:
                self.say("abandon cancelled")
                self._render()
            return
        if code == MINUS + LONG:
            self._undo(seat)
            return
        if code == OK + LONG and seat == self.lead:
            self.confirm = True
            self.say("abandon the match? OK at seat %d confirms, any other button keeps it"
                     % seat)
            self._render()
            return
        if self.mode == OVER:
            if code == OK:
                self._to_menu(True)
            return
        p = self.player[seat] if 0 <= seat < MAX_SEATS else -1
        if p < 0:
            self._refuse(seat, OUT_OF_TURN, "seat %d is not in this match" % seat)
            return
        self.trick_show = None
        e = self.entries[p]
        code &= ~LONG
        if code == MINUS or code == PLUS:
            if e is None:
                self._refuse(seat, WRONG_PHASE if ins.active(p) else OUT_OF_TURN)
                return
            r = e.move(1 if code == PLUS else -1)
            if r != ACCEPTED:
                self._refuse(seat, r, "%s to %s" % (
                    "lowest" if code == MINUS else "highest",
                    games.action_words(self.game, e.current())))
                return
            self._render()
            return
        if code != OK:
            return
        if e is not None:
            self._commit(e.current(), seat)
            return
        a = ins.pass_action(p)
        if a:
            self._commit(a, seat)
        elif not ins.active(p):
            self._refuse(seat, OUT_OF_TURN)
        elif games.has_pass(self.game):
            self._refuse(seat, m.refusal(action(PASS, p, 0)) or WRONG_PHASE, "pass")
        else:
            self._refuse(seat, WRONG_PHASE, "scan an item")

    def _mark(self, i, drawn):
        """Note whether journal action i was the table's own draw (undo takes
        those back with the player's action before them)."""
        flags = self._drawn
        if i >> 3 >= len(flags):
            self._drawn = flags = flags + bytearray(len(flags) + 16)
        if drawn:
            flags[i >> 3] |= 1 << (i & 7)
        else:
            flags[i >> 3] &= ~(1 << (i & 7)) & 0xFF

    def _undo(self, seat):
        """Take back the last action a player made and the table's draws that
        followed it, with one fold of the match; journalled (an UNDO record per
        action) before it shows."""
        m = self.match
        if m is None:
            return
        flags = self._drawn
        last = len(m.journal) - 1
        first = last
        while first >= 0 and (flags[first >> 3] >> (first & 7)) & 1:
            first -= 1
        if first < 0:
            self._refuse(seat, NOTHING_TO_UNDO)     # nothing of the players' to take back
            return
        words = games.action_words(self.game, m.journal[last])
        for i in range(last - 1, first - 1, -1):
            words += ", " + games.action_words(self.game, m.journal[i])
        done = 0
        try:
            while done <= last - first:
                self.storage.undo()
                done += 1
        except (OSError, ValueError) as e:
            self.say("storage: %r" % (e,))
            if done == 0:
                self._refuse(seat, STORAGE_ERROR, "undo not taken")
                return
        m.undo(last - first + 1)
        if done <= last - first:
            self._rewrite_journal()     # part recorded: make storage match the match
        self.say("seat %d undo: took back %s" % (seat, words))
        self.mode = PLAY_MODE
        self._clear_shows()
        for s in range(MAX_SEATS + 1):
            self.last_ident[s] = -1
        for p in range(m.players):
            self.entries[p] = None
        self._settle()
        self._render()

    # --- provisioning ------------------------------------------------------------------------

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
        self._draw(buf, None)
        if buf != self.frame:
            self.frame[:] = buf
            self.frame_version += 1

    @property
    def text(self):
        """The text display's lines for the frame last drawn (the last log line last)."""
        if self._text is None:
            lines = []
            now = self.now
            self.now = self._drawn_at   # the frame's own time: the same lines it showed
            self._draw(self._buf, lines)
            self.now = now
            self._text = lines
        return self._text

    def _draw(self, buf, lines):
        """The frame into buf and, unless lines is None, the text display's lines."""
        lay = self.layout
        buf[:] = self._dark             # one copy in C, not a loop over every LED
        menu = self.menu
        if self.mode == MENU and menu is not None:
            menu.render(buf, lay)
            if lines is not None:
                lines.extend(menu.lines())
        elif self.mode == PROVISION and self.provision is not None:
            self.provision.render(buf, lay, lines)
        elif self.mode == PLAY_MODE or self.mode == OVER:
            self._render_play(buf, lay, lines)
        self._render_errors(buf, lay)
        if lines is not None and self.last_line:
            lines.append(self.last_line)

    def _render_errors(self, buf, lay):
        if not any(self.err_code) and not any(self.fault):
            return                      # the usual frame: nothing to overlay
        for s in range(MAX_SEATS + 1):
            code = self.err_code[s]
            if s != CENTRE and s not in self.seats:
                continue
            first = lay.ring if s == CENTRE else lay.first(s)
            width = lay.ring_leds if s == CENTRE else lay.width
            if code:
                age = ticks_diff(self.now, self.err_since[s])
                if age >= ERROR_MS or age < 0:
                    self.err_code[s] = 0
                else:
                    half = age // fr.BLINK_MS
                    fr.refusal(buf, first, width, code, half % 2 == 0)
                    self._soon(self.err_since[s] + (half + 1) * fr.BLINK_MS)
                    continue
            if self.fault[s]:
                fr.put(buf, first + width - 1, fr.ERROR)

    def _render_play(self, buf, lay, lines):
        m = self.match
        ins = self.inputs
        if m is None or ins is None:
            return
        g = self.game
        width = lay.width
        if lines is not None:
            lines.append("%s %s" % (games.TITLES[g], "over" if m.over() else "%s %d" % (
                games.LENGTH_NAMES[g][:-1], len(m.history) + 1)))
        trick = self.trick_show
        if trick is not None and ticks_diff(self.now, trick[2]) >= TRICK_MS:
            trick = self.trick_show = None
        if trick is not None:
            self._soon(trick[2] + TRICK_MS)
        if self.mode == OVER:
            places = m.standings()
            for p in range(m.players):
                fr.place(buf, lay.first(self.phys[p]), width, places[p], m.players)
                if lines is not None:
                    lines.append("%d. seat %d: %d" % (places[p], self.phys[p], m.totals[p]))
            fr.fill(buf, lay.ring, lay.ring_leds, fr.PLACES[0])
            if trick is not None:       # the last trick's result shows first
                self._render_trick(buf, lay, trick)
            return
        score = self.score_show
        if score is not None and ticks_diff(self.now, score[1]) >= SCORE_MS:
            score = self.score_show = None
        if score is not None and (trick is not None or ticks_diff(self.now, score[1]) < 0):
            self._soon(score[1])
            score = None                # shows once the trick result has shown
        if score is not None:
            self._soon(score[1] + SCORE_MS)
        for p in range(m.players):
            s = self.phys[p]
            first = lay.first(s)
            if score is not None:
                fr.place(buf, first, width, score[0][p], m.players)
            elif trick is None or (s != trick[0] and s != trick[1]):
                self._render_prompt(buf, first, width, p, lines)
        if trick is not None:
            self._render_trick(buf, lay, trick)
        roll = self.roll_show
        if roll is not None and ticks_diff(self.now, roll[2]) >= TRICK_MS:
            roll = self.roll_show = None
        if roll is not None and score is None:
            self._soon(roll[2] + TRICK_MS)
            if roll[0] == CENTRE:
                fr.number(buf, lay.ring, lay.ring_leds, roll[1], fr.PROMPTS[ROLL])
            else:
                fr.number(buf, lay.first(roll[0]), width, roll[1], fr.PROMPTS[ROLL])
            if lines is not None:
                lines.append("table rolled %d" % roll[1])
        if self.confirm:
            fr.fill(buf, lay.first(self.lead), width, fr.PINK)
            if lines is not None:
                lines.append("abandon? OK")
        centre = ins.centre_kind()
        if roll is not None and roll[0] == CENTRE and score is None:
            pass                        # the ring shows the centre die's roll
        elif centre or ins.entry >= 0:
            # the centre waits: for a scan, or for a value entered at a seat
            fr.chase(buf, lay.ring, lay.ring_leds, self.now, fr.PROMPTS[centre or ins.entry_kind()])
            self._soon(self.now + fr.CHASE_MS - self.now % fr.CHASE_MS)
            if lines is not None:
                lines.append("centre: %s" % ("scan" if centre else
                                             "seat %d enters" % self.phys[ins.entry]))
        else:
            view = games.ring_view(g, m)
            if view is None:
                fr.fill(buf, lay.ring, lay.ring_leds, fr.GAME_COLOURS[g], 3)
            elif view[0] is None:
                fr.fill(buf, lay.ring, lay.ring_leds, view[1], 2)
            else:
                fr.number(buf, lay.ring, lay.ring_leds, view[0], view[1])

    def _render_trick(self, buf, lay, trick):
        """The trick's winner green, the next leader blue (one seat: half each)."""
        width = lay.width
        winner, leader = trick[0], trick[1]
        fr.fill(buf, lay.first(winner), width, fr.WINNER)
        if leader == winner:
            fr.fill(buf, lay.first(winner) + width // 2, width - width // 2, fr.LEADER)
        elif leader >= 0:
            fr.fill(buf, lay.first(leader), width, fr.LEADER)

    def _render_prompt(self, buf, first, width, p, lines):
        """What seat p is asked for (legend: docs/table.md)."""
        m = self.match
        ins = self.inputs
        if m is None or ins is None:
            return
        g = self.game
        s = self.phys[p]
        e = self.entries[p]
        if e is not None:
            a = e.current()
            n, marker = games.entry_view(g, m, a)
            if n is None:
                fr.fill(buf, first, width, fr.OFF)
                fr.put(buf, first + width - 1, marker)
            else:
                fr.number(buf, first, width, n, marker)
            if lines is not None:
                lines.append("s%d %s" % (s, games.action_words(g, a)))
            return
        k = ins.item_kind(p)
        can_pass = ins.pass_action(p) != 0
        if k == DEAL:
            have_need = games.deal_progress(g, m, p)
            have, need = have_need if have_need is not None else (0, 0)
            fr.progress(buf, first, width, have, need, fr.CYAN, fr.DIM_CYAN)
            if lines is not None:
                lines.append("s%d scan %d/%d" % (s, have, need))
        elif k:
            fr.fill(buf, first, width, fr.PROMPTS[k])
            if can_pass:
                fr.put(buf, first + width - 1, fr.PROMPTS[PASS])
            if lines is not None:
                lines.append("s%d %s%s" % (s, games.kind_word(k),
                                           " or pass" if can_pass else ""))
        elif can_pass:
            fr.fill(buf, first, width, fr.PROMPTS[PASS])
            if lines is not None:
                lines.append("s%d pass" % s)
        else:
            fr.fill(buf, first, width, fr.IDLE)

    # --- for tests and tools -------------------------------------------------------------------

    def leds(self, seat):
        """The (r, g, b) of a seat's LEDs (seat CENTRE: the ring) in the frame."""
        lay = self.layout
        first = lay.ring if seat == CENTRE else lay.first(seat)
        n = lay.ring_leds if seat == CENTRE else lay.width
        f = self.frame
        r, g, b = fr.ORDER
        return [(f[3 * i + r], f[3 * i + g], f[3 * i + b]) for i in range(first, first + n)]


def _places(scores):
    """Competition places (1 = best) of one round's scores."""
    out = []
    for s in scores:
        above = 0
        for t in scores:
            if t > s:
                above += 1
        out.append(above + 1)
    return out

