"""The web page as the mirror of a real board: what its USB serial console says.

`python -m sim.web --port PORT` serves a MirrorSession instead of a Session:
the page shows the board's LEDs, log and match as they happen, read from the
lines the firmware writes among its log (firmware/hal/mirror.py; every line
one 64-byte packet, spaces before its line end; I and M in decimal):

    @l K/N <hex>    LEDs 8K to 8K+7 of the strip's N segments of 8, 3 bytes
                    an LED, wire order G, R, B (dicetable.app.frames.ORDER)
    @k M <hex>      a keyframe: the 4-byte header, then 3-byte words (the
                    SEATS word, the SEED word, the SET word of a set from a
                    file); the board's journal holds M actions, @j lines
                    bring them; "@k -": no match (menu or provisioning)
    @j I M <hex>    the journal's actions from the I-th on; it holds M now
    @u I M          the board's journal keeps only the first I actions sent
    @lost N         the board's console dropped N lines: nobody read the
                    port in time (hal/console.py); they were log lines, the
                    mirror's own lines wait on the board until there is room

Any other line is a log line.  A keyframe comes every KEYFRAME_MS
(hal/mirror.py's, imported here so that the page says the board's), so a
mirror started in the middle of a match has it all once that keyframe's
@j lines are in.  Between keyframes the mirror follows the journal line by
line; a line out of step with what it has (a port opened in the middle, a
host that missed bytes) makes it wait for the next keyframe, keeping what it
shows.  The replica is built again only when the mirror has the whole
journal the board said it holds, and it changed.

The port is only read, never written: no Ctrl-C, no raw REPL, nothing that
could disturb play.  What the table shows beyond the LEDs (title, status,
trick, hands, scores, standings) is read from a replica: a fresh virtual table
whose flash gets the board's journal and which is then powered up, so that
the firmware resumes it as the board itself would after a power cut.  What
the board does not print is not shown: the value a seat is entering with
- and + (`entry` is null), the items a seat may put down, the bots.

segment(), keyframe(), journal_words(), cut() and lost() read the lines'
payloads, match() a whole journal; each refuses bad input with a ValueError
of one line, which the session logs as one line, its state otherwise
unchanged.
"""

import json
import re
import string
import threading

import table_config

from dicetable.app import games
from dicetable.app.events import CENTRE
from dicetable.app.frames import ORDER, led_count
from dicetable.app.play import SET_KIND, SET_RECORD
from dicetable.app.table import SEATS_RECORD, SEED_BITS, SEED_RECORD
from dicetable.games import GAMES, part
from dicetable.games.dicefull import data as dicefull_data
from dicetable.match.actions import REFUSAL_NAMES
from dicetable.match.engine import header_refusal, malformed
from hal.mirror import KEYFRAME_MS
from sim.boardport import NoPort, clean, lost_text, open_port
from sim.web import view
from sim.web.session import SEATS, ActError, new_table

SEAT_LEDS = table_config.LEDS_PER_SEAT  # each seat's segment, then the ring
RING_LEDS = table_config.RING_LEDS
HEADER_BYTES = 4  # game, players, options low byte, options high byte
WORD_BYTES = 3  # a journal word, big-endian
KEPT_LINES = 2000  # the log the page shows: the board's last lines
LONGEST_LINE = 1 << 16  # bytes without a line end: no line of the board's
RETRY_S = 1.0  # a port gone or missing is opened again this often
POLL_S = 0.01  # the reader looks for new bytes this often (the page's lag at most)
CHUNK = 1 << 16  # bytes read at once, at most
FIRST_TRY_S = 3.0  # how long python -m sim.web waits to say "not connected"
_HEX = frozenset(string.hexdigits)
_LINE_END = re.compile(rb"\r\n|\r|\n")
WAITING = "waiting for the board's next keyframe (it sends one every %g s)" % (KEYFRAME_MS / 1000)
NO_MATCH = "no match on the table (menu or provisioning)"
RECEIVING = "receiving the board's match: %d of %d actions"
MIRROR_LINES = ("@l", "@k", "@j", "@u", "@lost")


# --- the lines' payloads --------------------------------------------------------------------


def _digits(text):
    """`text` stripped, once every character is a hex digit (ValueError if not)."""
    text = text.strip()
    if not text:
        raise ValueError("no hex digits")
    for i, c in enumerate(text):
        if c not in _HEX:
            raise ValueError("not hex: %r at digit %d" % (c, i + 1))
    return text


def _numbers(text, names):
    """The hex numbers `names` (one field each) at the start of `text`, and
    the rest."""
    fields = text.split(None, len(names))
    if len(fields) < len(names):
        raise ValueError("no %s" % names[len(fields)])
    for name, field in zip(names, fields[: len(names)], strict=True):
        if not all(c in _HEX for c in field):
            raise ValueError("%s %r is not a hex number" % (name, field[:20]))
    rest = fields[len(names)] if len(fields) > len(names) else ""
    return [int(x, 16) for x in fields[: len(names)]], rest


def segment(text):
    """(K, N, the (r, g, b) of its 8 LEDs) of an @l line's payload "K/N <hex>":
    segment K of the strip's N (each seat's 8 LEDs, then the ring's two)."""
    where, _, hex_text = text.strip().partition(" ")
    k, slash, n = where.partition("/")
    if not (slash and k.isdigit() and n.isdigit() and where.isascii()):
        raise ValueError("%r is not K/N (segment K of N)" % where[:20])
    k, n = int(k), int(n)
    if not 1 <= n - RING_LEDS // SEAT_LEDS <= len(SEATS):
        raise ValueError(
            "%d segments, not 8 LEDs a seat for 1 to %d seats and the ring's 16" % (n, len(SEATS))
        )
    if k >= n:
        raise ValueError("segment %d of %d" % (k, n))
    text = _digits(hex_text)
    if len(text) != 2 * 3 * SEAT_LEDS:
        raise ValueError("%d hex digits, not 8 LEDs (48 digits)" % len(text))
    data = bytes.fromhex(text)
    # ORDER[c] is where colour c (R, G, B) is within an LED's bytes (G, R, B).
    r, g, b = ORDER
    return k, n, [(data[3 * i + r], data[3 * i + g], data[3 * i + b]) for i in range(SEAT_LEDS)]


def keyframe(text):
    """(M, the header and words as hex) of an @k line's payload "M <hex>", or
    None for "-" (no match on the table).  The header must be one the engine
    takes, the words the table's records (SEATS, SEED, and SET for a set
    from a file)."""
    if text.strip() == "-":
        return None
    (told,), rest = _numbers(text, ("M",))
    head = _digits(rest)
    parsed = match(head)
    if parsed is not None and parsed[3]:
        raise ValueError(
            "words after the table's records (SEATS, SEED, SET): actions come in @j lines"
        )
    return told, head


def journal_words(text):
    """(I, the actions) of an @j line's payload "I <hex>"."""
    (first,), rest = _numbers(text, ("I",))
    words = _digits(rest)
    if len(words) % (2 * WORD_BYTES):
        raise ValueError("%d hex digits, not whole actions (6 digits each)" % len(words))
    return first, [int(words[i : i + 6], 16) for i in range(0, len(words), 6)]


def cut(text):
    """I of an @u line's payload: the journal keeps the first I actions sent."""
    (kept,), rest = _numbers(text, ("I",))
    if rest.strip():
        raise ValueError("%r after I" % rest.strip()[:20])
    return kept


def lost(text):
    """N of an @lost line's payload (decimal): the lines the console dropped."""
    n = text.strip()
    if not n.isdigit() or not n.isascii():
        raise ValueError("N %r is not a number" % n[:20])
    return int(n)


def match(hex_text):
    """(header: 4 bytes, SEATS word, SEED word, actions) of a whole journal as
    hex (an @k line's header and words, then its @j lines' actions), or None
    for "-" (no match on the table).  The header must be one the engine
    takes, the words the table's records, and every action one the rules
    take in turn."""
    if hex_text.strip() == "-":
        return None
    text = _digits(hex_text)
    if len(text) % 2:
        raise ValueError("%d hex digits, not whole bytes" % len(text))
    data = bytes.fromhex(text)
    if len(data) < HEADER_BYTES + 2 * WORD_BYTES or (len(data) - HEADER_BYTES) % WORD_BYTES:
        raise ValueError(
            "%d bytes, not the 4-byte header and 3-byte words (SEATS, SEED, the actions)"
            % len(data)
        )
    header = data[:HEADER_BYTES]
    _check_header(header)
    words = [
        int.from_bytes(data[i : i + WORD_BYTES], "big")
        for i in range(HEADER_BYTES, len(data), WORD_BYTES)
    ]
    seats_word, seed_word, actions = words[0], words[1], words[2:]
    _check_seats(seats_word, header[1])
    if seed_word >> 20 != SEED_RECORD >> 20:
        raise ValueError(
            "SEED word %#08x is not SEED_RECORD (%#x) plus a seed" % (seed_word, SEED_RECORD)
        )
    played = 0  # the SET word: the board plays a challenge set from a file
    if actions and actions[0] >> 20 == SET_KIND:
        played, actions = actions[0] & 0xFFFFF, actions[1:]
    if played != dicefull_data.SET_WORD:  # the replica folds with the set here
        raise ValueError(
            "the board plays %s, the mirror %s (give the board's dicefull.txt with --challenges)"
            % (_set_name(played), _set_name(dicefull_data.SET_WORD))
        )
    _check_actions(header, actions)
    return header, seats_word, seed_word, actions


def _set_name(word):
    return "challenge set %05x from a file" % word if word else "the built-in challenge set"


def _check_header(header):
    g, players = header[0], header[1]
    if g >= len(GAMES):
        raise ValueError(
            "game %d: no such game (0 to %d: %s)" % (g, len(GAMES) - 1, ", ".join(GAMES))
        )
    why = header_refusal(GAMES[g], players, header[2] | header[3] << 8)
    if why:
        raise ValueError("header refused: %s" % why)


def _check_seats(word, players):
    mask = word & 0xFFFF
    if word >> 20 != SEATS_RECORD >> 20 or word & 0x0F0000 or mask >> len(SEATS):
        raise ValueError(
            "SEATS word %#08x is not SEATS_RECORD (%#x) plus a mask of the seats 0 to %d"
            % (word, SEATS_RECORD, len(SEATS) - 1)
        )
    if bin(mask).count("1") != players:
        raise ValueError(
            "SEATS word %#08x names %d seats for %d players" % (word, bin(mask).count("1"), players)
        )


def _check_actions(header, actions):
    """Every action in turn, as the engine takes it (ValueError at the first
    malformed or refused one: the replica would resume only before it)."""
    g = header[0]
    m = part(g, "match").new(header[1], header[2] | header[3] << 8)
    for i, a in enumerate(actions):
        if malformed(a):
            raise ValueError("action %d, %#08x, is no action word" % (i + 1, a))
        code = m.submit(a)
        if code:
            raise ValueError(
                "action %d, %#08x (%s), refused: %s"
                % (i + 1, a, games.action_words(g, a), REFUSAL_NAMES[code])
            )


# --- the replica: what the board's journal shows ----------------------------------------------


def replica(header, seats_word, seed_word, actions):
    """A fresh virtual table whose flash holds the journal, powered up: the
    firmware resumes it (as Session._boot_at does for a match file).
    ValueError when it did not resume the whole journal."""
    vt = new_table(seed_word & SEED_BITS)
    words = (seats_word, seed_word)
    if dicefull_data.SET_WORD:  # match() found the board's SET word equal to it
        words += (SET_RECORD | dicefull_data.SET_WORD,)
    vt.storage.new_match(bytes(header), words)
    for a in actions:
        vt.storage.append(a)
    vt.boot()
    t = vt.table
    m = t.match
    if m is None or not view.in_match(t) or list(m.journal[: len(actions)]) != list(actions):
        raise ValueError("the firmware did not resume it (%s)" % t.last_line)
    return vt


def replica_view(vt):
    """The state's keys the replica gives (all but the LEDs and the log): as
    the page shows a virtual table, less what the mirror cannot know."""
    out = view.state(vt, {}, {})
    for seat in out["seats"]:
        seat.update(bot=None, items=[], entry=None)
    out["centre_items"] = []
    out["text"] = replica_text(vt.table)
    del out["log"], out["ring"]
    return out


def replica_text(t):
    """The replica's text display without its last line (the replica's own
    latest log line: the board's goes there) and without the values its
    entries show (the board's are not known)."""
    lines = list(t.text)
    if lines and t.last_line and lines[-1] == t.last_line:
        lines.pop()
    for p, e in enumerate(t.entries):
        if e is not None:
            s = t.phys[p]
            shown = "s%d %s" % (s, games.action_words(t.game, e.current()))
            lines = [
                "s%d enters a value (not known to the mirror)" % s if x == shown else x
                for x in lines
            ]
    return lines


def empty_view(status):
    """The state's keys with no match to show (before the first keyframe, or
    "@k -"): the mirror cannot tell the board's menu from provisioning."""
    seat = {"player": None, "bot": None, "items": [], "hand": [], "awaited": False, "entry": None}
    out = {
        "mode": "none",
        "title": "",
        "status": status,
        "text": [],
        "seats": [dict(seat, seat=s) for s in SEATS],
    }
    out.update(
        players=[],
        scores=[],
        history=[],
        standings=None,
        trick=[],
        centre=[],
        centre_items=[],
        journal_length=0,
    )
    return out


# --- the port's bytes as lines -------------------------------------------------------------


class Lines:
    """The port's bytes cut into lines at \\r\\n, \\r or \\n.  The bytes before a
    connection's first line end are kept only when they start with '@' (a
    whole @ line): otherwise they may be the tail of a line the board was
    printing when the port opened."""

    def __init__(self):
        self.pending = b""
        self.first = True

    def feed(self, chunk):
        """The lines that `chunk` completes (bytes, without their ends), and
        whether a line too long to be the board's was dropped."""
        data = self.pending + chunk
        held = data.endswith(b"\r")  # maybe the first half of \r\n
        lines = _LINE_END.split(data[:-1] if held else data)
        self.pending = lines.pop() + (b"\r" if held else b"")
        dropped = len(self.pending) > LONGEST_LINE
        if dropped:
            self.pending = b""
        if lines and self.first:
            self.first = False
            if not lines[0].startswith(b"@"):
                lines.pop(0)
        return lines, dropped


class ReadOnly:
    """The port with nothing but read and close: the mirror cannot write to it.
    The port is opened without a timeout (reads return what is there): a
    socket:// port's in_waiting says only whether there is a byte, so waiting
    for one and reading in_waiting would read a byte at a time."""

    def __init__(self, port):
        self._port = port

    def read(self):
        """The bytes there now (b"" if none)."""
        return self._port.read(CHUNK)

    def close(self):
        try:
            self._port.close()
        except Exception:  # noqa: BLE001 - a port gone away may fail to close
            pass


# --- the session ----------------------------------------------------------------------------


class MirrorSession:
    """What sim/web/server.py serves for a board at `url` (a serial device, a
    pyserial URL, or 'auto'): snapshot(), wait_change(), act(), start(),
    close(), as Session has them.  A reader thread opens the port (again
    every `retry_s` while it is gone or missing), reads its lines and
    publishes the state; nothing is ever written to the port."""

    def __init__(self, url, retry_s=RETRY_S):
        self.url = url
        self.retry_s = retry_s
        self.lock = threading.RLock()  # the reader's changes, against a state being built
        self.changed = threading.Condition()
        self.version = 0
        self.body = ""
        self.closed = False
        self.connected = False
        self.why = "not opened yet"
        self.lines = 0  # every non-empty line read
        self.log = []
        self.leds = [(0, 0, 0)] * led_count(table_config)
        self.head = None  # the header and words (hex) of the keyframe followed; None: no match
        self.actions = []  # the actions of that match the mirror has
        self.told = 0  # the actions the mirror needs to show the match (the keyframe's M)
        self.following = False  # a keyframe was read, and every line since fit
        self.payload = None  # the whole journal shown (hex; "-": no match)
        self.vt = None  # the replica of the board's match
        self.shown = empty_view(WAITING)
        self.tried = threading.Event()  # the port was tried once
        self._stop = threading.Event()
        self._thread = None
        self._games = view.game_facts()
        self.publish()

    # --- the state ----------------------------------------------------------------

    def state(self):
        """The state JSON's object (without its version)."""
        out = dict(self.shown)
        out["seats"] = [dict(seat, leds=self._seat_leds(seat["seat"])) for seat in out["seats"]]
        out["ring"] = self._seat_leds(CENTRE)
        out["text"] = out["text"] + self.log[-1:]
        out["log"] = list(self.log)
        out.update(scrub=None, file=None, running=False, live=True, games=self._games)
        out["mirror"] = {
            "port": self.url,
            "connected": self.connected,
            "why": self.why,
            "lines": self.lines,
        }
        return out

    def _seat_leds(self, s):
        """Seat s's LEDs (CENTRE: the ring's) as the board last sent them; black
        for a seat past the board's last segment."""
        ring = len(self.leds) - RING_LEDS
        if s == CENTRE:
            return view.rgb_list(self.leds[ring:])
        first = s * SEAT_LEDS
        if first >= ring:
            return [[0, 0, 0]] * SEAT_LEDS
        return view.rgb_list(self.leds[first : first + SEAT_LEDS])

    def publish(self):
        """Build the state; a change bumps the version and wakes the listeners."""
        with self.lock:
            body = json.dumps(self.state(), separators=(",", ":"))
            if body == self.body:
                return
            with self.changed:
                self.body = body
                self.version += 1
                self.changed.notify_all()

    def snapshot(self):
        """(version, state JSON text)."""
        with self.changed:
            return self.version, '{"version":%d,%s' % (self.version, self.body[1:])

    def wait_change(self, version, timeout):
        """Wait until the version is not `version` (or the session closes, or
        `timeout` seconds pass); True when it changed."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closed, timeout)
            return self.version != version

    def act(self, request):
        """Nothing is played from the mirror: ActError, one line."""
        raise ActError(
            "the page mirrors the board at %s: play happens at the table (read only)" % self.url
        )

    # --- the reader thread ----------------------------------------------------------

    def start(self):
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, name="table-mirror", daemon=True)
            self._thread.start()
        return self

    def close(self):
        self._stop.set()
        with self.changed:
            self.closed = True
            self.changed.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2)

    def _read(self):
        while not self._stop.is_set():
            try:
                port = ReadOnly(open_port(self.url, timeout=0))
            except NoPort as e:  # no board on USB for 'auto', or the port did not open
                self._status(False, str(e))
                self._stop.wait(self.retry_s)
                continue
            self._status(True, None)
            try:
                why = self._follow(port)
            finally:
                port.close()
            if why is not None:
                self._status(False, why)
                self._stop.wait(self.retry_s)

    def _status(self, connected, why):
        with self.lock:
            self.connected = connected
            self.why = why
            self.publish()
        self.tried.set()

    def _follow(self, port):
        """Read until the session closes (None) or the port goes away (why)."""
        import serial

        lines = Lines()
        while not self._stop.is_set():
            try:
                chunk = port.read()
            except (serial.SerialException, OSError) as e:
                return "the board at %s went away (%s): was the cable pulled?" % (self.url, e)
            if chunk:
                self.take(*lines.feed(chunk))
            else:
                self._stop.wait(POLL_S)
        return None

    # --- what a line says -----------------------------------------------------------

    def take(self, raw_lines, dropped=False):
        """The lines read (bytes, without their ends), then the state published once."""
        if not raw_lines and not dropped:
            return  # a line not yet whole
        with self.lock:
            if dropped:
                self._log(
                    "mirror: a line of more than %d bytes without its end dropped" % LONGEST_LINE
                )
            for raw in raw_lines:
                text = clean(raw)
                if not text.strip():
                    continue
                self.lines += 1
                if text.startswith("@"):
                    self._at_line(text)
                else:
                    self._log(text)
            self.publish()

    def _log(self, line):
        self.log.append(line)
        del self.log[:-KEPT_LINES]

    def _at_line(self, text):
        word, _, payload = text.partition(" ")
        step = self._STEPS.get(word)
        if step is None:
            self._log(
                "mirror: %s line not understood: no such line (the board sends %s)"
                % (word[:20], ", ".join(MIRROR_LINES))
            )
            return
        try:
            step(self, payload)
        except ValueError as e:
            self._log("mirror: %s line not understood: %s" % (word, e))

    def _segment(self, payload):
        k, n, leds = segment(payload)
        if len(self.leds) != n * SEAT_LEDS:  # another table: what it has not sent is dark
            self.leds = [(0, 0, 0)] * (n * SEAT_LEDS)
        self.leds[k * SEAT_LEDS : (k + 1) * SEAT_LEDS] = leds

    def _keyframe(self, payload):
        parsed = keyframe(payload)
        self.following = True
        self.actions = []
        self.head, self.told = (None, 0) if parsed is None else (parsed[1], parsed[0])
        self._show()

    def _words(self, payload):
        first, actions = journal_words(payload)
        if self._in_step("@j", first, len(self.actions)):
            self.actions += actions
            self._show()

    def _cut(self, payload):
        kept = cut(payload)
        if self._in_step("@u", kept, len(self.actions) + 1):
            del self.actions[kept:]
            self.told = min(self.told, kept)  # the board's journal was that short
            self._show()

    def _lost(self, payload):
        self._log("mirror: " + lost_text(lost(payload)))

    _STEPS = {"@l": _segment, "@k": _keyframe, "@j": _words, "@u": _cut, "@lost": _lost}

    def _in_step(self, word, at, bound):
        """Whether a journal line fits what the mirror has (`at` must be below
        `bound`); one that does not makes it wait for the next keyframe."""
        if not self.following:
            return False  # waiting for a keyframe: the status says so
        if self.head is not None and (at < bound if word == "@u" else at == bound):
            return True
        self.following = False
        self._log(
            "mirror: %s line out of step (action %d; the mirror has %s): waiting for the"
            " board's next keyframe"
            % (word, at, "no match" if self.head is None else "%d" % len(self.actions))
        )
        return False

    def _show(self):
        """The replica built again once the mirror has the journal the
        keyframe said the board holds, and it changed (a keyframe's repeat
        changes nothing)."""
        if self.head is None:
            payload = "-"
        elif len(self.actions) >= self.told:
            payload = self.head + "".join("%06x" % a for a in self.actions)
        else:
            if self.vt is None:
                self.shown = empty_view(RECEIVING % (len(self.actions), self.told))
            return
        if payload == self.payload:
            return
        try:
            parsed = match(payload)
            vt = None if parsed is None else replica(*parsed)
        except ValueError as e:
            self.following = False
            self._log("mirror: the board's journal not understood: %s" % e)
            return
        self.payload = payload
        self.vt = vt
        self.shown = empty_view(NO_MATCH) if vt is None else replica_view(vt)
